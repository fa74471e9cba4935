"""Five in a row: incremental detection from the last peg, and a brute-force scan for checking it."""

from __future__ import annotations

from collections.abc import Sequence

SIZE = 10
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # row, column, diagonal, anti-diagonal
WIN = 5


def _windows() -> tuple[tuple[int, ...], ...]:
    found: list[tuple[int, ...]] = []
    for dr, dc in DIRECTIONS:
        for r in range(SIZE):
            for c in range(SIZE):
                cells = [(r + dr * k, c + dc * k) for k in range(WIN)]
                if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                    found.append(tuple(rr * SIZE + cc for rr, cc in cells))
    return tuple(found)


WINDOWS: tuple[tuple[int, ...], ...] = _windows()  # every run of five holes (192 of them)
WINDOWS_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, w in enumerate(WINDOWS) if hole in w) for hole in range(SIZE * SIZE)
)


def run_through(owner: Sequence[int], hole: int, side_of: Sequence[int] | None = None) -> tuple[int, ...]:
    """The longest run (>= 5) of one side through ``hole``, as holes in order, or ().

    Only the four lines through the new peg can have changed, so this looks at no more than
    4 x 8 neighbours instead of scanning the board. ``owner`` maps hole -> owner (-1 for empty);
    ``side_of`` maps an owner (a seat) to its side when partners share pegs.
    """

    def side_at(h: int) -> int:
        o = owner[h]
        return o if side_of is None or o < 0 else side_of[o]

    side = side_at(hole)
    if side < 0:
        return ()
    r0, c0 = divmod(hole, SIZE)
    for dr, dc in DIRECTIONS:
        back = 0
        r, c = r0 - dr, c0 - dc
        while 0 <= r < SIZE and 0 <= c < SIZE and side_at(r * SIZE + c) == side:
            back += 1
            r, c = r - dr, c - dc
        fwd = 0
        r, c = r0 + dr, c0 + dc
        while 0 <= r < SIZE and 0 <= c < SIZE and side_at(r * SIZE + c) == side:
            fwd += 1
            r, c = r + dr, c + dc
        if back + fwd + 1 >= WIN:
            return tuple((r0 + dr * k) * SIZE + (c0 + dc * k) for k in range(-back, fwd + 1))
    return ()


def winning_sides_brute(owner: Sequence[int]) -> set[int]:
    """Every side with five in a row anywhere: the slow, obviously right check."""
    return {owner[w[0]] for w in WINDOWS if owner[w[0]] >= 0 and all(owner[h] == owner[w[0]] for h in w)}
