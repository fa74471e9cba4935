"""Ninety Nine's refusals of a play in the viewer's language (the count keeper on a paired phone).

``rules/`` knows no languages: a refused play carries an English reason (``Count99Error``). Each
reason a keeper's tap can be refused with is matched against one template whose English reads
exactly as the rules' text and said again through the viewer's translator, as
:mod:`app.games.parlett.refusals` does for Parlett's deals.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.games.count99.texts import card_name

Translate = Callable[..., str]

REASONS: list[tuple[str, str]] = [
    (r"(?P<card>\S+) needs a choice: (?P<options>.+)", "{card} needs a choice: {options}"),
    (r"(?P<card>\S+) cannot count (?P<choice>[+-]\d+) at (?P<count>-?\d+) \(allowed: (?P<allowed>.+)\)",
     "{card} cannot count {choice} at {count} (allowed: {allowed})"),
    (r"(?P<card>\S+) leaves no choice \(got (?P<choice>[+-]\d+)\)", "{card} leaves no choice (got {choice})"),
    (r"only RS Games ends a round for having no safe card; play a card",
     "only RS Games ends a round for having no safe card; play a card"),
    (r"at (?P<count>-?\d+) every RS Games card is safe \(the most a card adds is 10\)",
     "at {count} every RS Games card is safe (the most a card adds is 10)"),
    (r"the game is over: (?P<name>.+) won", "the game is over: {name} won"),
    (r"no round is running: start the next round first", "no round is running: start the next round first"),
    (r"it is (?P<name>.+)'s turn, not (?P<other>.+)'s", "it is {name}'s turn, not {other}'s"),
    # Ninety Nine with phones (app.games.count99.phones)
    (r"wrong code \((?P<n>\d+) tries left for this seat\)", "wrong code ({n} tries left for this seat)"),
    (r"seat (?P<n>\d+) has not joined yet \(or give it to a computer\)",
     "seat {n} has not joined yet (or give it to a computer)"),
    (r"seats (?P<list>[0-9, ]+) have not joined yet \(or give them to a computer\)",
     "seats {list} have not joined yet (or give them to a computer)"),
    (r"(?P<low>\d+) to (?P<high>\d+) seats, not (?P<n>\d+)", "{low} to {high} seats, not {n}"),
    (r"(?P<what>hand size|tokens|the turn time) must be (?P<low>\d+) to (?P<high>\d+), not (?P<value>.+)",
     "{what} must be {low} to {high}, not {value}"),
    (r"the computers' pause is (?P<low>[\d.]+) to (?P<high>[\d.]+) seconds",
     "the computers' pause is {low} to {high} seconds"),
    (r"a seat is one of (?P<kinds>.+), not (?P<value>.+)", "a seat is one of {kinds}, not {value}"),
    (r"there is no card in slot (?P<n>\d+) \(you hold (?P<held>\d+)\)",
     "there is no card in slot {n} (you hold {held})"),
    (r"game (?P<id>\d+) is not a Ninety Nine game played with phones",
     "game {id} is not a Ninety Nine game played with phones"),
    (r"game (?P<id>\d+): its seats are not readable", "game {id}: its seats are not readable"),
    (r"(?P<seats>\d+) seats x (?P<cards>\d+) cards is more than the (?P<deck>\d+)-card deck; use fewer cards "
     r"per hand",
     "{seats} seats x {cards} cards is more than the {deck}-card deck; use fewer cards per hand"),
]
WORDS = ("hand size", "tokens", "the turn time")  # said in the reader's language inside a reason
_COMPILED = [(re.compile(pattern, re.DOTALL), template) for pattern, template in REASONS]


def known_text(reason: str, _: Translate) -> str | None:
    """``reason`` in the language of ``_``, or None if no template knows it."""
    for pattern, template in _COMPILED:
        found = pattern.fullmatch(reason)
        if found is not None:
            values = found.groupdict()
            for key in ("options", "allowed"):  # "+1 or +11"
                if key in values:
                    values[key] = f" {_('or')} ".join(values[key].split(" or "))
            if values.get("what") in WORDS:
                values["what"] = _(values["what"])
            if "card" in values:  # "Ass", not the rules' "A"
                values["card"] = card_name(values["card"], _)
            return _(template, **values)
    return None
