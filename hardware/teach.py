"""Teaching the board: learn which input is which hole by asking for one peg at a time.

A board built by hand has its sensor wires in any order. The teach step names a hole ("row 3,
column 7"), waits until exactly one new input senses the peg, records that input for the hole,
waits for the peg to come out, and moves on. Holes already known are skipped unless asked. An
input that is already another hole's is not silently stolen: the session reports a conflict and
the player either confirms (the input moves to this hole, the other becomes unknown again) or
re-seats the peg. :meth:`TeachSession.back` re-teaches the previous hole, :meth:`skip` leaves
the current one as it is, and check mode shows which hole every sensed peg maps to, so the map
can be checked hole by hole and a wrong hole re-taught with :meth:`reteach`.

This is UI-free: it takes the debounced active inputs (``GpioBoardSource.subscribe_inputs``)
and gives a :class:`TeachStatus`; the screen turns that into words and colours.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hardware.board_source import HOLES
from hardware.wiring import WiringMap


class Step(enum.Enum):
    CLEAR_BOARD = "clear-board"  # take every peg off, then begin()
    PLACE = "place"  # put a peg in the named hole
    CONFLICT = "conflict"  # the sensed input already belongs to another hole
    LIFT = "lift"  # learned; take the peg out
    DONE = "done"  # every hole of this round is taught or skipped
    CHECK = "check"  # put pegs anywhere; the screen shows which hole each maps to


@dataclass(frozen=True)
class TeachStatus:
    step: Step
    hole: int | None = None  # the hole being taught
    sensed: tuple[int, ...] = ()  # new inputs sensing a magnet now (more than one = a problem)
    other_hole: int | None = None  # CONFLICT: the hole the sensed input already belongs to
    learned: int | None = None  # LIFT: the input just learned for ``hole``
    done: int = 0  # holes of this round finished (taught or skipped)
    total: int = 0  # holes in this round


class TeachSession:
    """One round of teaching over ``holes`` (default: every unknown hole, in board order)."""

    def __init__(self, known: WiringMap, holes: Sequence[int] | None = None) -> None:
        self.map = known
        queue = list(known.unknown_holes() if holes is None else holes)
        for hole in queue:
            if not 0 <= hole < known.holes:
                raise ValueError(f"there is no hole {hole}")
        self._queue = queue
        self._index = 0
        self._ignored: frozenset[int] = frozenset()
        self._active: frozenset[int] = frozenset()
        self._step = Step.CLEAR_BOARD
        self._learned: int | None = None
        self._conflict: tuple[int, int] | None = None  # (input, other hole)
        self._sensed: tuple[int, ...] = ()
        self.ignored_at_start: frozenset[int] = frozenset()

    @classmethod
    def everything(cls, known: WiringMap) -> TeachSession:
        """Re-teach every hole, known or not."""
        return cls(known, list(range(known.holes)))

    # -- the flow -------------------------------------------------------------------------
    def begin(self) -> None:
        """The board is empty: whatever senses a magnet now is no peg (a sentinel, a stuck sensor)."""
        self._ignored = self._active
        self.ignored_at_start = self._active
        self._step = Step.PLACE if self._queue else Step.DONE
        self._settle()

    def feed(self, active_inputs: Iterable[int]) -> TeachStatus:
        """The debounced active inputs changed; returns what to show now."""
        self._active = frozenset(active_inputs)
        self._settle()
        return self.status()

    def _new_inputs(self) -> tuple[int, ...]:
        return tuple(sorted(self._active - self._ignored))

    def _settle(self) -> None:
        new = self._new_inputs()
        self._sensed = new
        if self._step is Step.PLACE and len(new) == 1:
            hole, entry = self._queue[self._index], new[0]
            other = self.map.hole_of(entry)
            if other is not None and other != hole:
                self._conflict = (entry, other)
                self._step = Step.CONFLICT
            else:
                self._learn(hole, entry)
        elif self._step is Step.CONFLICT and len(new) != 1:
            self._conflict = None  # the peg came out: ask again
            self._step = Step.PLACE
            self._settle()
        elif self._step is Step.LIFT and not new:
            self._advance()

    def _learn(self, hole: int, entry: int) -> None:
        self.map = self.map.with_hole(hole, entry)
        self._learned = entry
        self._step = Step.LIFT

    def _advance(self) -> None:
        self._learned = None
        self._conflict = None
        self._index += 1
        self._step = Step.PLACE if self._index < len(self._queue) else Step.DONE
        if self._step is Step.PLACE:
            self._settle()

    def confirm_conflict(self) -> None:
        """The peg *is* in the named hole: the input moves here; its old hole becomes unknown."""
        if self._step is not Step.CONFLICT or self._conflict is None:
            return
        entry, other = self._conflict
        self.map = self.map.with_hole(self._queue[self._index], entry)
        if other not in self._queue[self._index + 1 :]:
            self._queue.append(other)  # teach the other hole again at the end of this round
        self._learned = entry
        self._conflict = None
        self._step = Step.LIFT
        self._settle()

    def skip(self) -> None:
        """Leave the current hole as it is and go on."""
        if self._step in (Step.PLACE, Step.CONFLICT):
            self._advance()

    def back(self) -> None:
        """Teach the previous hole again (its input is forgotten)."""
        if self._step in (Step.PLACE, Step.CONFLICT, Step.DONE) and self._index > 0:
            self._index -= 1
            self.map = self.map.with_hole(self._queue[self._index], None)
            self._conflict = None
            self._step = Step.PLACE
            self._settle()

    def reteach(self, hole: int) -> None:
        """Teach ``hole`` now (from check mode or after DONE), then carry on where the round was."""
        self.map = self.map.with_hole(hole, None)
        self._queue.insert(self._index, hole)
        self._conflict = None
        self._step = Step.PLACE
        self._settle()

    def check_mode(self) -> None:
        self._step = Step.CHECK

    def leave_check_mode(self) -> None:
        self._step = Step.PLACE if self._index < len(self._queue) else Step.DONE
        self._settle()

    # -- what to show -----------------------------------------------------------------------
    @property
    def active_inputs(self) -> frozenset[int]:
        """The inputs sensing a magnet now (as last fed)."""
        return self._active

    def checked_holes(self) -> frozenset[int]:
        """CHECK: the holes whose pegs are sensed now."""
        return self.map.holes_of(self._active - self._ignored)

    def unknown_sensed(self) -> tuple[int, ...]:
        """Inputs sensing a magnet that are no hole yet (check mode shows them as a problem)."""
        return tuple(i for i in self._new_inputs() if self.map.hole_of(i) is None)

    def status(self) -> TeachStatus:
        hole = self._queue[self._index] if self._index < len(self._queue) else None
        if self._step in (Step.CLEAR_BOARD, Step.DONE, Step.CHECK):
            hole = None
        return TeachStatus(
            step=self._step, hole=hole, sensed=self._sensed,
            other_hole=self._conflict[1] if self._conflict else None,
            learned=self._learned, done=min(self._index, len(self._queue)), total=len(self._queue),
        )


def default_teach_map(inputs: int, existing: WiringMap | None) -> WiringMap:
    """Start from the saved map when it fits the board, else from nothing known."""
    if existing is not None and existing.inputs == inputs and existing.holes == HOLES:
        return existing
    return WiringMap.empty(inputs)
