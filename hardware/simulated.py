"""The simulated board: a board of pegs that the screen (or a test) moves by hand.

It stands in for real sensors behind the same :class:`~hardware.board_source.BoardSource` seam, so
the referee cannot tell it from a hall-sensor board: tapping a hole on the screen puts a peg in or
takes it out, exactly as a hand would, and every change is published as a new reading. Because a
hand is not a sensor, there is no flicker here; tests that need flicker use the scripted board or
call :meth:`SimulatedBoard.set_board` several times in a row.

Colour: a hall-sensor board cannot tell colours, a camera can. ``sees_colour=True`` makes the
simulated board behave like a camera (each peg carries the colour it was put in with), so the
referee's wrong-colour check can be exercised without a camera.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping

from hardware.board_source import HOLES, BoardReading, BoardSource, HealthState, SourceHealth, health_message


class SimulatedBoard(BoardSource):
    """Pegs moved by calls; every change publishes a reading in the caller's thread."""

    name = "simulated"

    def __init__(
        self,
        *,
        sees_colour: bool = False,
        clock: Callable[[], float] = time.monotonic,
        initial: Iterable[int] = (),
    ) -> None:
        super().__init__()
        self._sees_colour = sees_colour
        self._clock = clock
        self._pegs: dict[int, str | None] = {hole: None for hole in initial}
        self._pegs_lock = threading.Lock()

    @property
    def sees_colour(self) -> bool:
        return self._sees_colour

    @property
    def occupied(self) -> frozenset[int]:
        with self._pegs_lock:
            return frozenset(self._pegs)

    # -- a hand on the board ---------------------------------------------------------------
    def put(self, hole: int, colour: str | None = None) -> None:
        """Put a peg (of ``colour`` when the board sees colour) into ``hole``."""
        self._check(hole)
        with self._pegs_lock:
            self._pegs[hole] = colour
        self._publish_now()

    def remove(self, hole: int) -> None:
        """Take the peg out of ``hole`` (nothing happens when it is empty, as with a real hand)."""
        self._check(hole)
        with self._pegs_lock:
            self._pegs.pop(hole, None)
        self._publish_now()

    def toggle(self, hole: int, colour: str | None = None) -> bool:
        """Put a peg in an empty hole or take it out of a full one; True when a peg is now there."""
        self._check(hole)
        with self._pegs_lock:
            if hole in self._pegs:
                del self._pegs[hole]
                now_full = False
            else:
                self._pegs[hole] = colour
                now_full = True
        self._publish_now()
        return now_full

    def set_board(self, holes: Iterable[int], colours: Mapping[int, str] | None = None) -> None:
        """Replace every peg at once (a new game, a test's starting position)."""
        holes = list(holes)
        for hole in holes:
            self._check(hole)
        with self._pegs_lock:
            self._pegs = {hole: (colours or {}).get(hole) for hole in holes}
        self._publish_now()

    def clear(self) -> None:
        self.set_board(())

    # -- BoardSource -------------------------------------------------------------------------
    def _start(self) -> None:
        on_screen = health_message("simulated board on the screen")
        self._set_health(SourceHealth(HealthState.CONNECTED, message=on_screen))
        self._publish_now()

    def _publish_now(self) -> None:
        if not self.running:
            return
        with self._pegs_lock:
            occupied = frozenset(self._pegs)
            colours = (
                {hole: colour for hole, colour in self._pegs.items() if colour is not None}
                if self._sees_colour
                else None
            )
        self._publish(BoardReading(occupied, self._clock(), self._next_sequence(), colours))

    @staticmethod
    def _check(hole: int) -> None:
        if not 0 <= hole < HOLES:
            raise ValueError(f"hole {hole} is not on the board (0..{HOLES - 1})")
