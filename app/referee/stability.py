"""The stability window: act only on a board that has stopped changing.

A peg slid across holes, a hand hovering over a camera, a sensor bouncing as a magnet passes: all
of these produce readings that are true for a few milliseconds. The referee only judges a reading
once the board has shown the same pegs for ``window`` seconds (0.4 s by default, ``[board]
stable_seconds`` in the config). This is picochess's "field timer" idea for occupancy boards.

Time comes from an injectable clock (``time.monotonic`` in the app, a fake in tests), never from
sleeping, so tests are instant and exact.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hardware.board_source import BoardReading


class StabilityWindow:
    """Feed every reading; :meth:`poll` returns a reading once, when it has been stable long enough."""

    def __init__(self, window: float = 0.4, clock: Callable[[], float] = time.monotonic) -> None:
        if window < 0:
            raise ValueError(f"the stability window must be >= 0 seconds, got {window}")
        self.window = window
        self.clock = clock
        self._candidate: BoardReading | None = None
        self._since = 0.0
        self._reported: BoardReading | None = None
        self._last_stable: BoardReading | None = None  # unlike _reported, kept through forget()

    @property
    def stable(self) -> BoardReading | None:
        """The last reading that was reported as stable (None before the first one)."""
        return self._reported

    @property
    def settling(self) -> bool:
        """True while the newest reading differs from the last stable board and is not yet stable.

        The referee holds announcements while this is True: the pegs on the board are still
        moving, so nobody knows yet whose play they are (a quick player's tap must not be filed
        under the previous player). :meth:`forget` does not make a judged board "settling" again.
        """
        return self._candidate is not None and (
            self._last_stable is None or not self._candidate.same_board(self._last_stable)
        )

    def feed(self, reading: BoardReading) -> None:
        if self._candidate is None or not reading.same_board(self._candidate):
            self._candidate = reading
            self._since = self.clock()
        else:
            self._candidate = reading  # same pegs, newer sequence: the timer keeps running

    def poll(self) -> BoardReading | None:
        """The candidate reading if it has been unchanged for the window and is news, else None."""
        if self._candidate is None or self.clock() - self._since < self.window:
            return None
        if self._reported is not None and self._candidate.same_board(self._reported):
            return None
        self._reported = self._last_stable = self._candidate
        return self._candidate

    def forget(self) -> None:
        """Report the current board again on the next poll (after the game changed under it)."""
        self._reported = None

    def restart(self) -> None:
        """After a dropout: the waiting reading must prove itself for a whole window again.

        A peg slid over a hole just before the link dropped must not be judged the moment the link
        is back; the next reading replaces it, or it stays unchanged for ``window`` seconds more.
        """
        self._since = self.clock()
        self._reported = None
