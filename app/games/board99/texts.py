"""Plain-word sentences for the board game's events, shared by the screen and speech (no Kivy)."""

from __future__ import annotations

from typing import Any

from app.i18n import tr, trn
from app.referee.events import ComputerChose, TurnChanged
from hardware.board_source import HealthState, SourceHealth
from rules import board99 as rules


def event_text(event: Any) -> str | None:
    """A sentence for the game log and speech, or None for events not worth a line."""
    if isinstance(event, rules.Played):
        return tr("{name} played card {card} on square {square}.", name=event.by, card=event.card,
                  square=event.square)
    if isinstance(event, rules.Drew):  # never the card: in a digital deal it is a secret
        return tr("{name} drew a card.", name=event.by)
    if isinstance(event, rules.Discarded):
        return tr("{name} discarded card {card}.", name=event.by, card=event.card)
    if isinstance(event, rules.Penalised):
        consequence = (
            tr("The card is shown and cut back into the deck.")
            if event.offence in ("draw-out-of-turn", "illegal-draw")
            else tr("The card goes to the discard pile.")
        )
        return tr("Penalty for {name}: {offence}. {consequence} {name} loses the next turn.",
                  name=event.by, offence=offence_text(event.offence), consequence=consequence)
    if isinstance(event, rules.TurnSkipped):
        if event.reason == "penalty":
            return tr("{name} loses this turn (penalty).", name=event.player)
        return tr("{name} has no cards to play and is passed over.", name=event.player)
    if isinstance(event, rules.PlayerOut):
        return tr("{name} is out: a dead hand.", name=event.player)
    if isinstance(event, rules.Won):
        return outcome_text(rules.Outcome("won", event.winners, event.line))
    if isinstance(event, rules.Tied):
        return tr("A tie: no five in a row.")
    if isinstance(event, ComputerChose):
        action = event.action
        if isinstance(action, rules.Play):
            return tr("{name} plays card {card} on square {square}.", name=event.player,
                      card=action.card, square=action.square)
        if isinstance(action, rules.Draw):
            return tr("{name} draws.", name=event.player)
        if isinstance(action, rules.Discard):
            return tr("{name} discards card {card}.", name=event.player, card=action.card)
        return None
    if isinstance(event, TurnChanged) and event.player is not None:
        return tr("{name}'s turn.", name=event.player)
    return None


def short_action(action: Any) -> str:
    """An action in the words of the screen's buttons ("Ann PLAY 57"), short enough for a button."""
    if isinstance(action, rules.Play):
        return tr("{name} PLAY {card}", name=action.by, card=action.card)
    if isinstance(action, rules.Draw):
        return tr("{name} DRAW", name=action.by)
    if isinstance(action, rules.Discard):
        return tr("{name} DISCARD {card}", name=action.by, card=action.card)
    return tr("{name} DEAD HAND", name=action.by)


def undo_button_text(action: Any | None) -> str:
    """The Undo button says what it takes back; plain "Undo" (disabled) when there is nothing."""
    return tr("Undo") if action is None else tr("Undo: {what}", what=short_action(action))


def deck_text(count: int) -> str:
    return trn("Deck: {n} card", "Deck: {n} cards", count)


FACE_UP_SHOWN = 8  # the latest face-up cards fit one or two lines of the panel


def face_up_text(cards: tuple[int, ...]) -> str:
    """The face-up cards, oldest first; beyond eight, how many there are and the latest eight."""
    if len(cards) <= FACE_UP_SHOWN:
        return tr("Face up: {cards}", cards=", ".join(map(str, cards)) or "-")
    latest = ", ".join(map(str, cards[-FACE_UP_SHOWN:]))
    return tr("Face up: {n} cards, the latest {cards}", n=len(cards), cards=latest)


def spoken(event: Any) -> bool:
    """Whether the event is worth saying aloud (whose turn, penalties, the end)."""
    return isinstance(event, (TurnChanged, rules.Penalised, rules.Won, rules.Tied, rules.PlayerOut,
                              ComputerChose))


def health_text(health: SourceHealth) -> str:
    """The board source's state for the status line, with the driver's own sentence, translated."""
    states = {
        HealthState.STARTING: tr("starting"),
        HealthState.CONNECTED: tr("connected"),
        HealthState.LOST: tr("connection lost, retrying"),
        HealthState.ERROR: tr("not working"),
        HealthState.STOPPED: tr("stopped"),
    }
    text = tr("Board: {state}", state=states[health.state])
    detail = health.text(tr)
    return f"{text} ({detail})" if detail else text


def offence_text(offence: str) -> str:
    return {
        "play-out-of-turn": tr("Played out of turn"),
        "discard-out-of-turn": tr("Discarded out of turn"),
        "draw-out-of-turn": tr("Drew out of turn"),
        "illegal-play": tr("Illegal play"),
        "illegal-draw": tr("Illegal draw"),
    }.get(offence, offence)


def outcome_text(outcome: Any) -> str:
    if outcome.status == "won":
        return tr("{names} won!", names=" & ".join(outcome.winners))
    return tr("A tie: no five in a row.")


def describe_action(action: Any) -> str:
    if isinstance(action, rules.Play):
        return tr("{name} played card {card} on square {square}", name=action.by, card=action.card,
                  square=action.square)
    if isinstance(action, rules.Draw):
        if action.card is None:
            return tr("{name} drew a card", name=action.by)
        return tr("{name} drew card {card}", name=action.by, card=action.card)
    if isinstance(action, rules.Discard):
        return tr("{name} discarded card {card}", name=action.by, card=action.card)
    return tr("{name}: {action}", name=getattr(action, "by", "?"), action=type(action).__name__)
