"""What an action caused, for screens, speech and records. Values only; they never drive the rules."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, overload

Offence = Literal[
    "play-out-of-turn", "discard-out-of-turn", "draw-out-of-turn", "illegal-play", "illegal-draw"
]
OFFENCES: tuple[Offence, ...] = (
    "play-out-of-turn",
    "discard-out-of-turn",
    "draw-out-of-turn",
    "illegal-play",
    "illegal-draw",
)


@dataclass(frozen=True, slots=True)
class Played:
    by: str
    card: int
    square: int


@dataclass(frozen=True, slots=True)
class Drew:
    by: str
    card: int | None


@dataclass(frozen=True, slots=True)
class Discarded:
    by: str
    card: int


@dataclass(frozen=True, slots=True)
class Penalised:
    """An offence: for plays the peg comes off ``square`` and the card goes to the discard pile;
    for draws the card is shown and cut back into the deck. The offender loses the next turn."""

    by: str
    offence: Offence
    card: int | None
    square: int | None = None


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """``player``'s turn passed: ``reason`` is "penalty" (a lost turn) or "no cards" (nothing to do)."""

    player: str
    reason: Literal["penalty", "no cards"]


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """5of99: ``player`` is out (dead hand, shown as ``cards``, or no cards left to draw); pegs stay."""

    player: str
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Won:
    """A side won: ``line`` is the winning run's square numbers (empty when the last side left won)."""

    winners: tuple[str, ...]
    line: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Tied:
    """No one can win any more: every card played or discarded (classic), or no one left (5of99)."""

    reason: str


Event = Played | Drew | Discarded | Penalised | TurnSkipped | PlayerOut | Won | Tied


@dataclass(frozen=True, slots=True)
class Outcome:
    status: Literal["won", "tie"]
    winners: tuple[str, ...]
    line: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty as the record shows it: ``action`` is the 0-based index of the offending action."""

    action: int
    by: str
    offence: Offence
    card: int | None
    square: int | None


class PenaltyLog(Sequence[Penalty]):
    """The game's penalties, oldest first: an immutable list that grows in O(1).

    Every state after a penalty holds the whole list. As a tuple copied on each penalty a long
    record (a table that keeps drawing out of turn: 128k actions) replayed in quadratic time; this
    persistent list shares its earlier part with the state before. Reading newest-first
    (``reversed``) walks only as far as needed; indexing and iteration build a tuple once, cached.
    """

    __slots__ = ("_count", "_items", "_last", "_previous")

    def __init__(self, last: Penalty | None = None, previous: PenaltyLog | None = None) -> None:
        self._last = last
        self._previous = previous
        before: int = 0 if previous is None else len(previous)
        self._count: int = 0 if last is None else before + 1
        self._items: tuple[Penalty, ...] | None = None if last is not None else ()

    def add(self, penalty: Penalty) -> PenaltyLog:
        return PenaltyLog(penalty, self)

    def __len__(self) -> int:
        return self._count

    def __reversed__(self) -> Iterator[Penalty]:
        node: PenaltyLog | None = self
        while node is not None and node._last is not None:
            yield node._last
            node = node._previous

    def _tuple(self) -> tuple[Penalty, ...]:
        if self._items is None:
            self._items = tuple(reversed(list(reversed(self))))
        return self._items

    def __iter__(self) -> Iterator[Penalty]:
        return iter(self._tuple())

    @overload
    def __getitem__(self, index: int) -> Penalty: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Penalty, ...]: ...

    def __getitem__(self, index: int | slice) -> Penalty | tuple[Penalty, ...]:
        return self._tuple()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PenaltyLog):
            return self._count == other._count and self._tuple() == other._tuple()
        if isinstance(other, tuple):
            return self._tuple() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return f"PenaltyLog({list(self._tuple())!r})"
