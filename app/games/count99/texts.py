"""Ninety Nine's events and cards as translated sentences, shared by the terminal and the app.

One event, one short sentence: that is what a screen reader and espeak-ng read best. ``you``
is the seat of the person reading (None at a shared table), so their own news says "You".

Every function takes an optional ``_``: a translator for one reader (``app.games.views.Tr``), used
by the web display, which serves several languages at once from its own thread; without it the
app's current language (``app.i18n.tr``) speaks, as on the table's screen and in the terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.i18n import tr, trn
from rules.count99.deal import CardDrawn, CardsDealt, DeckReshuffled
from rules.count99.table import (
    ROUND_PLAY_LIMIT,
    CardPlayed,
    DirectionReversed,
    Eliminated,
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

Translate = Callable[..., str]


def _words(_: Any) -> tuple[Translate, Callable[..., str]]:
    """(tr, trn) for a reader: theirs when given, else the app's current language."""
    if _ is None:
        return tr, trn
    return _, _.plural


def card_name(card: str, _: Any = None) -> str:
    tr, _trn = _words(_)
    names = {
        "A": tr("Ace"), "J": tr("Jack"), "Q": tr("Queen"), "K": tr("King"),
        "+10": tr("plus 10"), "-10": tr("minus 10"), "pass": tr("Pass"), "reverse": tr("Reverse"),
        "skip": tr("Skip"), "99": tr("Ninety Nine"),
    }
    return names.get(card, card)


def card_label(card: str, _: Any = None) -> str:
    """A short label for a card button."""
    tr, _trn = _words(_)
    if card in ("A", "J", "Q", "K"):  # named as the log names them ("Bube", not "J", in German)
        return card_name(card, _)
    return {"pass": tr("Pass"), "reverse": tr("Reverse"), "skip": tr("Skip")}.get(card, card)


def variant_name(variant_value: str) -> str:
    return tr("Quentin C") if variant_value == "quentin-c" else tr("RS Games")


def level_name(level: str) -> str:
    """A computer level as said in a sentence ("against 2 computer players (hard)")."""
    return {"easy": tr("easy"), "hard": tr("hard")}.get(level, level)


def direction_name(direction: int, _: Any = None) -> str:
    tr, _trn = _words(_)
    return tr("clockwise") if direction > 0 else tr("counterclockwise")


def reason_text(reason: Reason, _: Any = None) -> str:
    tr, _trn = _words(_)
    return {
        Reason.BUST: tr("went over 99"),
        Reason.PASSED_MILESTONE: tr("passed a milestone"),
        Reason.OTHER_LANDED: tr("someone landed on a milestone"),
        Reason.LANDED_99: tr("landed on 99"),
        Reason.NO_SAFE_CARD: tr("had no safe card"),
        Reason.NO_CARDS: tr("had no cards"),
        Reason.LAST_STANDING: tr("only one player is left"),
        Reason.LONG_ROUND: tr("was on turn when time was called after {n} plays", n=ROUND_PLAY_LIMIT),
    }[reason]


def describe(event: object, setup: Setup, you: int | None = None, _: Any = None) -> str | None:
    """The sentence for ``event``, or None for events this reader need not hear."""
    tr, trn = _words(_)
    def who(seat: int) -> str:
        return tr("You") if seat == you else setup.players[seat]

    if isinstance(event, RoundStarted):
        if event.first == you:
            return tr("Round {n}. You start.", n=event.round_no)
        return tr("Round {n}. {name} starts.", n=event.round_no, name=who(event.first))
    if isinstance(event, CardPlayed):
        card = card_name(event.card, _)
        if event.chosen is not None:
            card = tr("{card} as {value}", card=card, value=f"{event.chosen:+d}")
        if event.seat == you:
            return tr("You play {card}. Count {count}.", card=card, count=event.after)
        return tr("{name} plays {card}. Count {count}.", name=who(event.seat), card=card, count=event.after)
    if isinstance(event, DirectionReversed):
        return tr("Direction reversed: now {direction}.", direction=direction_name(event.direction, _))
    if isinstance(event, PlayerSkipped):
        if event.seat == you:
            return tr("You are skipped.")
        return tr("{name} is skipped.", name=who(event.seat))
    if isinstance(event, MilestoneLanded):
        if event.seat == you:
            return tr("You land on {milestone}!", milestone=event.milestone)
        return tr("{name} lands on {milestone}!", name=who(event.seat), milestone=event.milestone)
    if isinstance(event, MilestonePassed):
        if event.seat == you:
            return tr("You pass through {milestone}.", milestone=event.milestone)
        return tr("{name} passes through {milestone}.", name=who(event.seat), milestone=event.milestone)
    if isinstance(event, TokensLost):
        if event.seat == you:
            return trn("You lose {n} token, {left} left.", "You lose {n} tokens, {left} left.", event.amount,
                       left=event.left)
        return trn("{name} loses {n} token, {left} left.", "{name} loses {n} tokens, {left} left.",
                   event.amount, name=who(event.seat), left=event.left)
    if isinstance(event, Eliminated):
        if event.seat == you:
            return tr("You are out of the game.")
        return tr("{name} is out of the game.", name=who(event.seat))
    if isinstance(event, RoundEnded):
        return tr("Round {n} over: {name} {reason}.", n=event.round_no, name=setup.players[event.seat],
                  reason=reason_text(event.reason, _))
    if isinstance(event, GameWon):
        if event.seat == you:
            return tr("You win the game!")
        return tr("{name} wins the game!", name=who(event.seat))
    if isinstance(event, CardDrawn):
        return tr("You draw {card}.", card=card_name(event.card, _)) if event.seat == you else None
    if isinstance(event, DeckReshuffled):
        return tr("The discards are shuffled into a new deck.")
    if isinstance(event, CardsDealt):
        return trn("{n} card each is dealt.", "{n} cards each are dealt.", event.hand_size)
    return None


def hand_text(hand: list[str] | tuple[str, ...], _: Any = None) -> str:
    tr, _trn = _words(_)
    if not hand:
        return tr("Your hand is empty.")
    cards = ", ".join(f"{i}: {card_name(c, _)}" for i, c in enumerate(hand, start=1))
    return tr("Your hand: {cards}.", cards=cards)


def tokens_text(setup: Setup, tokens: tuple[int, ...], you: int | None = None, _: Any = None) -> str:
    tr, _trn = _words(_)
    parts = []
    for seat, name in enumerate(setup.players):
        label = tr("you") if seat == you else name
        parts.append(f"{label} {tokens[seat]}" if tokens[seat] else tr("{name} out", name=label))
    return tr("Tokens: {list}.", list=", ".join(parts))
