"""Board layouts: which square number is printed on which hole.

Holes are physical (``row * 10 + col`` from the top-left as the players see the board); square
numbers are what the cards name. Families print their boards differently, so the layout is data,
never an assumption baked into the rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.board99.errors import LayoutError

SIZE = 10
HOLES = SIZE * SIZE

# The 1963 board as issue 2 gives it: low numbers in the centre, spiralling outwards.
SPIRAL_OUT: tuple[int, ...] = (
    72, 73, 74, 75, 76, 77, 78, 79, 80, 81,
    71, 42, 43, 44, 45, 46, 47, 48, 49, 82,
    70, 41, 20, 21, 22, 23, 24, 25, 50, 83,
    69, 40, 19, 6, 7, 8, 9, 26, 51, 84,
    68, 39, 18, 5, 0, 1, 10, 27, 52, 85,
    67, 38, 17, 4, 3, 2, 11, 28, 53, 86,
    66, 37, 16, 15, 14, 13, 12, 29, 54, 87,
    65, 36, 35, 34, 33, 32, 31, 30, 55, 88,
    64, 63, 62, 61, 60, 59, 58, 57, 56, 89,
    99, 98, 97, 96, 95, 94, 93, 92, 91, 90,
)  # fmt: skip


def _twisted() -> tuple[int, ...]:
    """A pinwheel: four 5x5 quadrants, each a rotated copy of one walk out from the centre.

    Number ``n`` lives in quadrant ``n % 4`` (top-left, top-right, bottom-right, bottom-left) at
    rank ``n // 4`` of the walk. The walk visits the top-left quadrant in L-shaped rings around
    its inner corner (the board's centre), alternating direction ring by ring; the other quadrants
    are the same walk turned by 90 degrees each. So, as in 5of99's twisted board, low numbers
    still gather in the centre, but consecutive numbers sit in different quadrants and every
    quadrant holds a mix of low and high squares.
    """
    walk: list[tuple[int, int]] = []
    for ring in range(5):
        top = 4 - ring
        cells = [(r, top) for r in range(4, top - 1, -1)] + [(top, c) for c in range(top + 1, 5)]
        walk.extend(cells if ring % 2 == 0 else list(reversed(cells)))
    numbers = [0] * HOLES
    for n in range(HOLES):
        r, c = walk[n // 4]
        for _ in range(n % 4):
            r, c = c, SIZE - 1 - r  # a quarter turn clockwise about the board's centre
        numbers[r * SIZE + c] = n
    return tuple(numbers)


NAMED: dict[str, tuple[int, ...]] = {
    "rows": tuple(range(HOLES)),
    "spiral-out": SPIRAL_OUT,
    "spiral-in": tuple(99 - n for n in SPIRAL_OUT),
    "twisted": _twisted(),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """The square number printed at each hole (100 entries, holes row-major from the top-left)."""

    name: str
    numbers: tuple[int, ...]
    _holes: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_permutation(self.numbers)
        holes = [0] * HOLES
        for hole, number in enumerate(self.numbers):
            holes[number] = hole
        object.__setattr__(self, "_holes", tuple(holes))

    def number_at(self, hole: int) -> int:
        """The square number printed at ``hole``."""
        return self.numbers[hole]

    def hole_of(self, number: int) -> int:
        """The hole where square ``number`` is printed."""
        return self._holes[number]

    @property
    def spec(self) -> str | list[int]:
        """How a record names this layout: its name, or the list of 100 numbers when custom."""
        return self.name if self.name != "custom" else list(self.numbers)

    def rows(self) -> list[list[int]]:
        """The table of numbers, one list per row, as printed."""
        return [list(self.numbers[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]


def _check_permutation(numbers: Sequence[object]) -> None:
    if len(numbers) != HOLES:
        raise LayoutError(f"a layout has 100 numbers, this one has {len(numbers)}")
    seen: dict[int, int] = {}
    for hole, number in enumerate(numbers):
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < HOLES:
            raise LayoutError(f"hole {hole}: {number!r} is not a square number 0..99")
        if number in seen:
            raise LayoutError(f"hole {hole}: number {number} is already printed at hole {seen[number]}")
        seen[number] = hole


def random_layout(seed: str) -> Layout:
    """A seeded shuffle; the same seed gives the same board on every machine."""
    numbers = list(range(HOLES))
    random.Random(f"board99-layout:{seed}").shuffle(numbers)
    return Layout(f"random:{seed}", tuple(numbers))


def parse_layout(spec: str | Sequence[int]) -> Layout:
    """A layout from its name, ``random:SEED``, 100 numbers, or a string of 100 numbers.

    Raises :class:`LayoutError` saying what is wrong (unknown name, wrong count, repeated number).
    """
    if isinstance(spec, str):
        text = spec.strip()
        if text in NAMED:
            return Layout(text, NAMED[text])
        if text.startswith("random:"):
            seed = text[len("random:") :]
            if not seed:
                raise LayoutError("random:SEED needs a seed, e.g. random:42")
            return random_layout(seed)
        parts = [p for p in re.split(r"[\s,]+", text) if p]
        if len(parts) > 1:
            try:
                values = [int(p) for p in parts]
            except ValueError as exc:
                raise LayoutError(f"a custom layout is 100 whole numbers: {exc}") from exc
            return Layout("custom", tuple(values))
        known = ", ".join([*NAMED, "random:SEED"])
        raise LayoutError(f"unknown layout {text!r} (expected one of {known}, or 100 numbers)")
    values_list = list(spec)
    _check_permutation(values_list)
    numbers = tuple(int(v) for v in values_list)
    for name, table in NAMED.items():
        if table == numbers:
            return Layout(name, numbers)
    return Layout("custom", numbers)
