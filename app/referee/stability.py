"""The stability window: act only on holes that have stopped changing.

A peg slid across holes, a hand hovering over a camera, a sensor bouncing as a magnet passes: all
of these produce readings that are true for a few milliseconds. The referee only judges a hole
once it has shown the same state for ``window`` seconds (0.4 s by default, ``[board]
stable_seconds`` in the config). This is picochess's "field timer" idea for occupancy boards.

The window runs **per hole**: at a quick table the next player's peg may go in before the last
one has been still for the whole window. A board-wide timer would restart at the second peg and
then see two new pegs at once; per hole, the first peg is judged when *it* has been still long
enough, while the second, still moving, is reported as ``unsure`` (neither empty nor occupied:
the referee waits for it).

Time comes from an injectable clock (``time.monotonic`` in the app, a fake in tests), never from
sleeping, so tests are instant and exact.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from hardware.board_source import BoardReading

HoleState = tuple[bool, str | None, bool]  # occupied, colour, unsure


def _hole_state(reading: BoardReading, hole: int) -> HoleState:
    colours = reading.colours or {}
    return hole in reading.occupied, colours.get(hole), hole in reading.unsure


def _holes(reading: BoardReading) -> set[int]:
    return set(reading.occupied) | set(reading.unsure) | set(reading.colours or {})


class StabilityWindow:
    """Feed every reading; :meth:`poll` returns a board once, when holes have been still long enough."""

    def __init__(self, window: float = 0.4, clock: Callable[[], float] = time.monotonic) -> None:
        if window < 0:
            raise ValueError(f"the stability window must be >= 0 seconds, got {window}")
        self.window = window
        self.clock = clock
        self._candidate: BoardReading | None = None
        self._first_since = 0.0  # when the first reading arrived: every hole is new then
        self._changed_at: dict[int, float] = {}  # hole -> when its state last changed
        self._reported: BoardReading | None = None
        self._last_stable: BoardReading | None = None  # unlike _reported, kept through forget()

    @property
    def stable(self) -> BoardReading | None:
        """The last reading that was reported as stable (None before the first one)."""
        return self._reported

    @property
    def settling(self) -> bool:
        """True while some hole differs from the last reported board and has not been judged.

        The referee holds announcements while this is True: the pegs on the board are still
        moving, so nobody knows yet whose play they are (a quick player's tap must not be filed
        under the previous player). :meth:`forget` does not make a judged board "settling" again.
        """
        return self._candidate is not None and (
            self._last_stable is None or not self._candidate.same_board(self._last_stable)
        )

    def feed(self, reading: BoardReading) -> None:
        now = self.clock()
        previous = self._candidate
        if previous is None:
            self._first_since = now
        else:
            for hole in _holes(previous) | _holes(reading):
                if _hole_state(previous, hole) != _hole_state(reading, hole):
                    self._changed_at[hole] = now
        self._candidate = reading  # same pegs, newer sequence: the timers keep running

    def _moving(self, now: float) -> set[int]:
        """Holes whose state changed less than ``window`` seconds ago."""
        moving = {hole for hole, at in self._changed_at.items() if now - at < self.window}
        for hole in [h for h, at in self._changed_at.items() if now - at >= self.window]:
            del self._changed_at[hole]  # still long enough: forget the timer
        return moving

    def poll(self) -> BoardReading | None:
        """A board to judge, once, when it is news; holes still moving are marked ``unsure``.

        The whole candidate once every hole has been still for the window; before that, a board
        with the moving holes unsure, but only when a hole that *has* settled changed since the
        last report (one peg judged while the next one still bounces).
        """
        candidate = self._candidate
        now = self.clock()
        if candidate is None or now - self._first_since < self.window:
            return None
        moving = self._moving(now)
        if not moving:
            view = candidate
        else:
            view = _with_unsure(candidate, moving)
            reported = self._reported
            if reported is not None and _settled_part(view, moving) == _settled_part(reported, moving):
                return None  # only moving holes differ: wait for them
        if self._reported is not None and view.same_board(self._reported):
            return None
        self._reported = self._last_stable = view
        return view

    def forget(self) -> None:
        """Report the current board again on the next poll (after the game changed under it)."""
        self._reported = None

    def restart(self) -> None:
        """After a dropout: holes that changed since the last report must prove themselves again.

        A peg slid over a hole just before the link dropped must not be judged the moment the link
        is back; the next reading replaces it, or it stays unchanged for ``window`` seconds more.
        """
        now = self.clock()
        candidate, last = self._candidate, self._last_stable
        if candidate is not None and last is not None:
            for hole in _holes(candidate) | _holes(last):
                if _hole_state(candidate, hole) != _hole_state(last, hole):
                    self._changed_at[hole] = now
        elif candidate is not None:
            self._first_since = now
        self._reported = None


def _with_unsure(reading: BoardReading, moving: set[int]) -> BoardReading:
    colours = reading.colours
    return dataclasses.replace(
        reading,
        occupied=reading.occupied - moving,
        colours=None if colours is None else {h: c for h, c in colours.items() if h not in moving},
        unsure=reading.unsure | frozenset(moving),
    )


def _settled_part(reading: BoardReading, moving: set[int]) -> tuple[frozenset[int], dict[int, str]]:
    """What a board says about the holes it is sure of, outside the holes still moving."""
    unsure = reading.unsure | frozenset(moving)
    colours = {h: c for h, c in (reading.colours or {}).items() if h not in unsure}
    return reading.occupied - unsure, colours
