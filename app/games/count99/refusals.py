"""Ninety Nine's refusals of a play in the viewer's language (the count keeper on a paired phone).

``rules/`` knows no languages: a refused play carries an English reason (``Count99Error``). Each
reason a keeper's tap can be refused with is matched against one template whose English reads
exactly as the rules' text and said again through the viewer's translator, as
:mod:`app.games.parlett.refusals` does for Parlett's deals.
"""

from __future__ import annotations

import re
from collections.abc import Callable

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
    (r"seats (?P<list>[0-9, ]+) have not joined yet \(or give them to a computer\)",
     "seats {list} have not joined yet (or give them to a computer)"),
]
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
            return _(template, **values)
    return None
