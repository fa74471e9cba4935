"""The rules' refusals (and a setup's mistakes) in the players' language.

``rules/`` knows no languages: an :class:`~rules.board99.errors.Board99ActionError` carries the
refused action and an English reason. The screen and speech must speak German too, so this module
says the action again with :func:`~app.i18n.tr` and matches each reason the engine gives against
one template per sentence (the English template reads exactly as the engine's text, so English is
unchanged). A reason no template knows is shown as the engine wrote it, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from app.i18n import tr, trn
from rules import board99 as rules

Template = Callable[[dict[str, str]], str]


class RefereeRefusal(Exception):
    """An announcement the referee cannot accept now; the message is for the screen (translated)."""


NAME, NUMBER = r"(?P<name>.+?)", r"(?P<card>\d+)"

# Longest (most specific) first: "is in the deck: ..." before "is in the deck".
REASONS: list[tuple[str, Template]] = [
    (rf"card {NUMBER} is already face up", lambda v: tr("card {card} is already face up", **v)),
    (rf"card {NUMBER} is known to be in {NAME}'s hand",
     lambda v: tr("card {card} is known to be in {name}'s hand", **v)),
    (rf"card {NUMBER} is in {NAME}'s hand", lambda v: tr("card {card} is in {name}'s hand", **v)),
    (rf"card {NUMBER} is in the deck: it was shown and cut back in after {NAME}'s draw out of turn "
     r"at action (?P<index>\d+)",
     lambda v: tr("card {card} is in the deck: it was shown and cut back in after {name}'s draw out of "
                  "turn at action {index}", **v)),
    (rf"card {NUMBER} is in the deck: it was shown and cut back in after {NAME}'s illegal draw "
     r"at action (?P<index>\d+)",
     lambda v: tr("card {card} is in the deck: it was shown and cut back in after {name}'s illegal draw "
                  "at action {index}", **v)),
    (rf"card {NUMBER} is in the deck: it was shown and cut back in",
     lambda v: tr("card {card} is in the deck: it was shown and cut back in", **v)),
    (rf"card {NUMBER} is in the deck", lambda v: tr("card {card} is in the deck", **v)),
    (rf"card {NUMBER} is not the top of the deck",
     lambda v: tr("card {card} is not the top of the deck", **v)),
    (rf"card {NUMBER} can still be played on square (?P<square>\d+)",
     lambda v: tr("card {card} can still be played on square {square}", **v)),
    (rf"square (?P<square>\d+) already holds {NAME}'s peg",
     lambda v: tr("square {square} already holds {name}'s peg", **v)),
    (rf"'{NAME}' is not playing", lambda v: tr("'{name}' is not playing", **v)),
    (rf"{NAME} also holds card {NUMBER}", lambda v: tr("{name} also holds card {card}", **v)),
    (rf"{NAME} does not hold card {NUMBER}", lambda v: tr("{name} does not hold card {card}", **v)),
    (rf"{NAME} holds no cards", lambda v: tr("{name} holds no cards", **v)),
    (rf"{NAME} holds (?P<n>\d+) cards?; show each once",
     lambda v: trn("{name} holds {n} card; show each once", "{name} holds {n} cards; show each once",
                   int(v["n"]), name=v["name"])),
    (rf"{NAME} is out of the game", lambda v: tr("{name} is out of the game", **v)),
    (r"card (?P<value>.+) is not a number 0\.\.99", lambda v: tr("card {value} is not a number 0..99", **v)),
    (r"square (?P<value>.+) is not a number 0\.\.99",
     lambda v: tr("square {value} is not a number 0..99", **v)),
    (r"the deck is empty", lambda v: tr("the deck is empty")),
    (r"the game is over", lambda v: tr("the game is over")),
    (r"5of99 has no discard", lambda v: tr("5of99 has no discard")),
    (r"only 5of99 has dead hands; in classic, discard",
     lambda v: tr("only 5of99 has dead hands; in classic, discard")),
    # a setup the setup screen can produce (names typed, a custom board's numbers)
    (r"a layout has 100 numbers, this one has (?P<n>\d+)",
     lambda v: tr("a layout has 100 numbers, this one has {n}", **v)),
    (r"hole (?P<hole>\d+): number (?P<number>\d+) is already printed at hole (?P<other>\d+)",
     lambda v: tr("hole {hole}: number {number} is already printed at hole {other}", **v)),
    (r"hole (?P<hole>\d+): (?P<value>.+) is not a square number 0\.\.99",
     lambda v: tr("hole {hole}: {value} is not a square number 0..99", **v)),
    (r"a player's name must be non-empty text, not (?P<value>.+)",
     lambda v: tr("a player's name must be non-empty text, not {value}", **v)),
    (r"two players have the same name", lambda v: tr("two players have the same name")),
]
_COMPILED = [(re.compile(pattern), template) for pattern, template in REASONS]


def reason_text(reason: str) -> str:
    """The engine's English reason in the current language (as written when no template knows it)."""
    for pattern, template in _COMPILED:
        match = pattern.fullmatch(reason)
        if match:
            return template(match.groupdict())
    return reason


def action_text(action: Any) -> str:
    """An action as the engine's messages begin ("Ann plays 57 on square 63"), translated."""
    if isinstance(action, rules.Play):
        return tr("{name} plays {card} on square {square}", name=action.by, card=action.card,
                  square=action.square)
    if isinstance(action, rules.Draw):
        if action.card is None:
            return tr("{name} draws", name=action.by)
        return tr("{name} draws {card}", name=action.by, card=action.card)
    if isinstance(action, rules.Discard):
        return tr("{name} discards {card}", name=action.by, card=action.card)
    if isinstance(action, rules.RevealDeadHand):
        return tr("{name} reveals a dead hand {cards}", name=action.by, cards=str(list(action.cards)))
    return str(action)


def refusal_text(error: Exception) -> str:
    """What to show and say for a refused action: "<action>: <reason>" in the current language."""
    action, reason = getattr(error, "action", None), getattr(error, "reason", None)
    if action is None or not isinstance(reason, str):
        return str(error)
    return tr("{action}: {reason}", action=action_text(action), reason=reason_text(reason))
