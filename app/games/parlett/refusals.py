"""Parlett's refusals of a deal in the viewer's language.

``rules/`` knows no languages: a refused deal carries an English reason (``EntryRejected``). A
German tablet must not read "a bid of 15 is impossible with 3 players", so each reason a deal entry
can be refused with is matched against one template (its English reads exactly as the rules' text,
so English is unchanged) and said again through the viewer's :class:`~app.games.views.Tr`. A
reason no template knows is shown as the rules wrote it, after a translated "The rules refuse
this:", never dropped. The same way as :mod:`app.referee.refusals` does for the board game.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Translate = Callable[..., str]

# (pattern of the rules' English, the same sentence as a tr() key); longest first where one
# pattern could match the start of another.
REASONS: list[tuple[str, str]] = [
    (r"a bid of (?P<number>-?\d+) is impossible with (?P<players>\d+) players \(0 to (?P<max>\d+)\)",
     "a bid of {number} is impossible with {players} players (0 to {max})"),
    (r"the tricks add up to (?P<total>-?\d+), but (?P<tricks>\d+) tricks are played",
     "the tricks add up to {total}, but {tricks} tricks are played"),
    (r"(?P<hand>.+?)'s tricks must be a whole number from 0, got (?P<got>.+)",
     "{hand}'s tricks must be a whole number from 0, got {got}"),
    (r"no bid for (?P<names>.+)", "no bid for {names}"),
    (r"no tricks for (?P<names>.+)", "no tricks for {names}"),
    (r"the dummy never declares", "the dummy never declares"),
    (r"nobody may reveal with (?P<players>\d+) players", "nobody may reveal with {players} players"),
    (r"(?P<what>.+?): only one player may declare or reveal", "only one player may declare or reveal"),
    (r"Original 99 needs the turned-up card \(turn_up\)", "Original 99 needs the turned-up card"),
    (r"(?P<text>.+?) is not a card \(write rank then suit, e\.g\. 9H, AS, TD, or X\)",
     "{text} is not a card (write rank then suit, e.g. 9H, AS, TD, or X)"),
    (r"a bid is three suit letters or a whole number, got (?P<got>.+)",
     "a bid is three suit letters or a whole number, got {got}"),
    (r"there is no deal (?P<n>\d+)", "there is no deal {n}"),
    (r"there is no deal to delete", "there is no deal to delete"),
    (r"the rubber is over; start a new one", "the rubber is over; start a new one"),
]
_COMPILED = [(re.compile(pattern), template) for pattern, template in REASONS]


def known_text(reason: str, _: Translate) -> str | None:
    """One reason (maybe "Ann's bid: <reason>") in the language of ``_``, or None if no template
    knows it."""
    prefix = re.fullmatch(r"(?P<hand>[^:]{1,60})'s bid: (?P<rest>.+)", reason, re.DOTALL)
    if prefix is not None:
        rest = known_text(prefix["rest"], _)
        return None if rest is None else _("{hand}'s bid: {reason}", hand=prefix["hand"], reason=rest)
    for pattern, template in _COMPILED:
        found = pattern.fullmatch(reason)
        if found is not None:
            return _(template, **found.groupdict())
    return None


def reason_text(reason: str, _: Translate) -> str:
    """One reason in the language of ``_``; one no template knows after "The rules refuse this:"."""
    return known_text(reason, _) or _("The rules refuse this: {why}", why=reason)
