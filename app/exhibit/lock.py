"""The staff PIN of exhibitor mode: checked in constant time, wrong tries rate-limited. No kivy.

A 4-digit PIN has 10,000 values; a child poking at the pad all afternoon must not find it. After
:data:`FREE_TRIES` wrong entries in a row every further wrong entry locks the pad for a wait that
doubles from :data:`FIRST_WAIT` (30 s, 60 s, 120 s ... capped at :data:`LONGEST_WAIT`), so a
thousand guesses take days. Entries made while locked are refused without being compared, so they
neither open the lock nor count. The right PIN resets the count. The clock is injectable for tests
and the soak benchmark.

With :class:`StoredTries` the count of wrong tries is kept in the family store's database, so
pulling the plug does not reset it: a table that restarts after three or more wrong tries starts
locked for the wait that count has earned (a fresh wait: the monotonic clock does not survive a
restart, and the Pi's wall clock may be wrong without network).

``pin == ""`` (exhibit mode enabled without a usable PIN in the config, see
:mod:`app.exhibit.settings`) is a lock that no entry opens: the demo stays locked rather than open.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.exhibit.settings import valid_pin
from app.store import GameStore

log = logging.getLogger(__name__)
FREE_TRIES = 3
FIRST_WAIT = 30.0
LONGEST_WAIT = 3600.0
WRONG = "Wrong PIN."
TOO_MANY = "Too many tries: wait {seconds} s."
NO_PIN = "No staff PIN is set in the config: exhibit mode cannot be unlocked here (see docs/exhibit.md)."


@dataclass(frozen=True)
class Attempt:
    """What one PIN entry did. ``message`` is English, to be shown through ``tr()``; it may hold
    ``{seconds}``, which the caller fills (a countdown shows the time left, not the time then)."""

    ok: bool
    wait_seconds: float  # > 0: locked out, try again after this
    message: str  # "" when ok


class StoredTries:
    """The count of wrong PINs in a row, in the family store's database (one row)."""

    SCHEMA = ("CREATE TABLE IF NOT EXISTS exhibit_lock"
              " (id INTEGER PRIMARY KEY CHECK (id = 1), wrong INTEGER NOT NULL);")

    def __init__(self, store: GameStore) -> None:
        self.store = store
        store.add_schema(self.SCHEMA)

    def get(self) -> int:
        rows = self.store.read("SELECT wrong FROM exhibit_lock WHERE id = 1")
        return int(rows[0][0]) if rows else 0

    def put(self, wrong: int) -> None:
        self.store.write("INSERT OR REPLACE INTO exhibit_lock(id, wrong) VALUES (1, ?)", (wrong,))


def wait_after(wrong: int) -> float:
    """The wait after ``wrong`` wrong tries in a row (0 before :data:`FREE_TRIES`)."""
    if wrong < FREE_TRIES:
        return 0.0
    return min(LONGEST_WAIT, FIRST_WAIT * 2 ** min(wrong - FREE_TRIES, 20))


class StaffLock:
    """Opens for the configured PIN only, with growing waits after wrong tries."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic,
                 tries: StoredTries | None = None) -> None:
        self._pin = pin.encode("ascii") if valid_pin(pin) else None
        self._clock = clock
        self._tries = tries
        self._wrong = tries.get() if tries is not None else 0  # wrong entries in a row
        self._until = clock() + wait_after(self._wrong)  # clock time before which entries are refused

    def __repr__(self) -> str:
        return f"StaffLock(pin={'set' if self._pin else 'none'}, wrong={self._wrong})"

    @property
    def has_pin(self) -> bool:
        """False: no entry can open this lock (no usable PIN configured)."""
        return self._pin is not None

    def wait_seconds(self) -> float:
        """Seconds until an entry is compared again (0: now)."""
        return max(0.0, self._until - self._clock())

    def attempt(self, entry: str) -> Attempt:
        """Check one entry. Refused unchecked while a wait runs; constant-time compare otherwise."""
        wait = self.wait_seconds()
        if wait > 0:
            return Attempt(False, wait, TOO_MANY)
        if self._pin is None:
            return Attempt(False, 0.0, NO_PIN)
        given = entry.encode("utf-8", "replace")
        if hmac.compare_digest(given, self._pin):
            self._count(0)
            return Attempt(True, 0.0, "")
        self._count(self._wrong + 1)
        wait = wait_after(self._wrong)
        if wait == 0:
            return Attempt(False, 0.0, WRONG)
        self._until = self._clock() + wait
        return Attempt(False, wait, TOO_MANY)

    def _count(self, wrong: int) -> None:
        changed, self._wrong = wrong != self._wrong, wrong  # in memory first: a failed write forgets nothing
        if changed and self._tries is not None:
            try:
                self._tries.put(wrong)  # committed before the answer is shown, like a game's move
            except Exception:  # a full or read-only card: the count goes on in memory, the pad works
                log.exception("the count of wrong PIN tries could not be stored")
