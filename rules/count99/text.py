"""Plain English sentences for events, for ``table99 replay`` (the app has translated ones)."""

from __future__ import annotations

from rules.count99.cards import spoken_name
from rules.count99.table import (
    ROUND_PLAY_LIMIT,
    CardPlayed,
    DirectionReversed,
    Eliminated,
    Event,
    GameWon,
    MilestoneLanded,
    MilestonePassed,
    PlayerSkipped,
    Reason,
    RoundEnded,
    RoundStarted,
    Setup,
    TokensLost,
)

REASONS = {
    Reason.BUST: "went over 99",
    Reason.PASSED_MILESTONE: "passed a milestone",
    Reason.OTHER_LANDED: "someone landed on a milestone",
    Reason.LANDED_99: "landed on 99",
    Reason.NO_SAFE_CARD: "had no safe card",
    Reason.NO_CARDS: "had no cards",
    Reason.LAST_STANDING: "only one player is left",
    Reason.LONG_ROUND: f"was on turn when time was called after {ROUND_PLAY_LIMIT} plays",
}


def plural(n: int, noun: str) -> str:
    """``1 token``, ``2 tokens``: the replay's English never says "1 tokens"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def direction_name(direction: int) -> str:
    return "clockwise" if direction > 0 else "counterclockwise"


def describe(event: Event, setup: Setup) -> str:
    name = setup.players
    if isinstance(event, RoundStarted):
        return f"Round {event.round_no}: {name[event.first]} starts."
    if isinstance(event, CardPlayed):
        how = f" as {event.chosen:+d}" if event.chosen is not None else ""
        return f"{name[event.seat]} plays {spoken_name(event.card)}{how}: count {event.after}."
    if isinstance(event, DirectionReversed):
        return f"Direction reversed, now {direction_name(event.direction)}."
    if isinstance(event, PlayerSkipped):
        return f"{name[event.seat]} is skipped."
    if isinstance(event, MilestoneLanded):
        return f"{name[event.seat]} lands on {event.milestone}."
    if isinstance(event, MilestonePassed):
        return f"{name[event.seat]} passes {event.milestone}."
    if isinstance(event, TokensLost):
        return (
            f"{name[event.seat]} loses {plural(event.amount, 'token')} ({REASONS[event.reason]}), "
            f"{event.left} left."
        )
    if isinstance(event, Eliminated):
        return f"{name[event.seat]} is out."
    if isinstance(event, RoundEnded):
        return f"Round {event.round_no} ends: {name[event.seat]} {REASONS[event.reason]}."
    return f"{name[event.seat]} wins the game."  # GameWon


__all__ = ["GameWon", "describe", "direction_name"]
