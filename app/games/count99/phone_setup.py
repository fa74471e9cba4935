"""The setup of a table of phones: the host's options, the seats, their join codes and credentials,
and what of a stored phones game may leave the table. Part of :mod:`app.games.count99.phones`
(which re-exports every name here: front ends import from there).

Seat codes are 4 digits, short enough to read out and type on a number pad; five wrong codes for
one seat burn it (the host makes a new one). A device credential is 24 random bytes in the phone's
cookie; only its SHA-256 is stored, and the seat's CSRF token is derived from it, so nothing
secret is kept in plain text and a restart needs nothing more.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass
from typing import Any

from rules.count99.cards import CARD_NAMES, Variant
from rules.count99.table import HAND_SIZE_RANGE, MAX_PLAYERS, MIN_PLAYERS, TOKENS_RANGE

KIND = "count99"
MODE = "phones"
PERSON = "person"
COMPUTER_LEVELS = ("easy", "hard")
SEAT_KINDS = (PERSON, *COMPUTER_LEVELS)
STAND_IN = "hard"  # plays a timed-out or removed person's seat
CODE_DIGITS = 4  # short enough to read out and type on a phone's number pad
CODE_TRIES = 5  # wrong codes for one seat before that code is burnt
# Wrong codes at one table (all seats together) before it takes no joins until the host makes a new
# code: burning and renewing codes seat after seat cannot go on guessing (at most 20 guesses of
# 10,000 codes, 0.2 %, per host action), and the host sees it on the host's page.
TABLE_CODE_TRIES = 20
NAME_MAX = 20
TURN_SECONDS_RANGE = (5, 600)
PAUSE_RANGE = (0.0, 5.0)


class PhoneError(Exception):
    """A refused request; ``str()`` is the one-line reason (English: a front end translates)."""


class JoinRefused(PhoneError):
    """A join was refused (wrong or burnt code, bad name, seat taken by a computer)."""


@dataclass(frozen=True)
class PhoneOptions:
    """The host's choices (the seed's options, plus the seats and a turn time)."""

    variant: Variant = Variant.QUENTIN_C
    seats: tuple[str, ...] = (PERSON, PERSON, "hard", "hard")
    hand_size: int = 3
    tokens: int = 9
    manual_draw: bool = False
    turn_seconds: int | None = None  # None: no limit
    computer_pause: float = 1.0  # seconds between computer plays, so people can follow them

    def check(self) -> None:
        """Raise PhoneError naming the first bad option."""
        if not isinstance(self.variant, Variant):
            raise PhoneError("variant must be quentin-c or rs-games")
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            raise PhoneError(f"{MIN_PLAYERS} to {MAX_PLAYERS} seats, not {len(self.seats)}")
        for kind in self.seats:
            if kind not in SEAT_KINDS:
                raise PhoneError(f"a seat is one of {', '.join(SEAT_KINDS)}, not {kind!r}")
        if PERSON not in self.seats:
            raise PhoneError("at least one seat must be a person's")
        _check_int("hand size", self.hand_size, HAND_SIZE_RANGE)
        _check_int("tokens", self.tokens, TOKENS_RANGE)
        deck = len(CARD_NAMES[self.variant]) * 4
        if len(self.seats) * self.hand_size > deck:
            raise PhoneError(f"{len(self.seats)} seats x {self.hand_size} cards is more than the "
                             f"{deck}-card deck; use fewer cards per hand")
        if not isinstance(self.manual_draw, bool):
            raise PhoneError("manual draw is true or false")
        check_turn_seconds(self.turn_seconds)
        if isinstance(self.computer_pause, bool) or not isinstance(self.computer_pause, int | float) or not (
            PAUSE_RANGE[0] <= self.computer_pause <= PAUSE_RANGE[1]
        ):
            raise PhoneError(f"the computers' pause is {PAUSE_RANGE[0]:g} to {PAUSE_RANGE[1]:g} seconds")


def _check_int(what: str, value: object, bounds: tuple[int, int]) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not bounds[0] <= value <= bounds[1]:
        raise PhoneError(f"{what} must be {bounds[0]} to {bounds[1]}, not {value!r}")


def check_turn_seconds(value: object) -> None:
    if value is not None:
        _check_int("the turn time", value, TURN_SECONDS_RANGE)


# What of a phones game's stored setup never leaves the table (records, the club hub): the seats'
# credential digests, and the shuffle seed, which with the stored actions would tell every hand.
PRIVATE_SETUP = ("seats", "seed")


def shareable_setup(setup: dict[str, Any]) -> dict[str, Any]:
    """A stored setup as it may be shared: a phones game's seats and seed taken out."""
    if setup.get("mode") != MODE:
        return dict(setup)
    return {k: v for k, v in setup.items() if k not in PRIVATE_SETUP}


def digest(credential: str) -> str:
    """What is stored of a device credential: a store file that leaks lets nobody take a seat."""
    return hashlib.sha256(credential.encode()).hexdigest()


def csrf_for(credential: str) -> str:
    """The seat's CSRF token: derived from its credential, so it survives a restart unstored."""
    return hmac.new(credential.encode(), b"table99 phones csrf", hashlib.sha256).hexdigest()[:32]


@dataclass
class Seat:
    """One seat. ``kind`` is who plays it now; a removed person's seat becomes a computer's."""

    kind: str
    name: str = ""
    code: str | None = None  # the join code the host reads out; None once used or burnt
    burnt: bool = False
    wrong: int = 0
    credential: str | None = None  # digest of the device credential (person seats that joined)
    away: bool = False  # timed out: the computer plays this seat until its owner acts again
    was_person: bool = False

    @property
    def person(self) -> bool:
        return self.kind == PERSON

    @property
    def joined(self) -> bool:
        return self.person and self.credential is not None


def new_code(rng: random.Random | secrets.SystemRandom) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(CODE_DIGITS))


# What the sentences call the listener ("You play", "Du spielst"): a player named so would be
# announced to everyone else as "You plays Jack", a letter away from their own turn.
YOU_WORDS = ("you", "du")


def clean_name(name: object) -> str:
    if not isinstance(name, str):
        raise JoinRefused("a name is text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise JoinRefused("choose a name")
    if len(cleaned) > NAME_MAX:
        raise JoinRefused(f"a name has at most {NAME_MAX} characters")
    if any(not ch.isprintable() for ch in cleaned):
        raise JoinRefused("a name has only printable characters")
    if cleaned.casefold() in YOU_WORDS:
        raise JoinRefused("the game calls each player 'you': choose another name")
    return cleaned
