"""What a player does on the table: PLAY, DRAW, DISCARD, and (5of99) reveal a dead hand."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Play:
    """``by`` plays ``card`` and puts a peg on square number ``square``."""

    by: str
    card: int
    square: int

    def describe(self) -> str:
        return f"{self.by} plays {self.card} on square {self.square}"


@dataclass(frozen=True, slots=True)
class Draw:
    """``by`` takes the top card; ``card`` is given when it is known (shown, or a known deck)."""

    by: str
    card: int | None = None

    def describe(self) -> str:
        return f"{self.by} draws" + (f" {self.card}" if self.card is not None else "")


@dataclass(frozen=True, slots=True)
class Discard:
    """``by`` lays ``card`` face up without playing it (classic only)."""

    by: str
    card: int

    def describe(self) -> str:
        return f"{self.by} discards {self.card}"


@dataclass(frozen=True, slots=True)
class RevealDeadHand:
    """5of99: ``by`` shows the whole hand; the engine verifies every card is dead, then they are out."""

    by: str
    cards: tuple[int, ...]

    def describe(self) -> str:
        return f"{self.by} reveals a dead hand {list(self.cards)}"


Action = Play | Draw | Discard | RevealDeadHand
