"""What an action caused, for screens, speech and records. Values only; they never drive the rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
