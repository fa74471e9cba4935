"""Bids: three bid cards read by suit (clubs 3, hearts 2, spades 1, diamonds 0), or a number.

With four players three diamonds mean "0 or 10" and either fulfils the contract. A number typed
in stands for the bid cards that make it, so with four players 0 and 10 both mean three diamonds:
no three cards can say "exactly 0" or "exactly 10" at a four-player table.

A failed player need not show the bid cards (the seed: "no-one who fails need show them"), so a
bid may be entered as not shown (:data:`UNSHOWN`, ``"unshown"`` in a record): it fulfils no trick
count, so the hand scores as failed, which it would whatever the hidden cards said.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.parlett.cards import Suit
from rules.parlett.variants import Variant


@dataclass(frozen=True)
class Bid:
    """A contract: the set of trick counts that fulfil it, and how it was written."""

    tricks: frozenset[int]  # empty for a bid not shown: it fulfils nothing
    cards: str | None = None  # the suit letters, sorted C H S D, when the bid was given by suit

    @property
    def shown(self) -> bool:
        return bool(self.tricks)

    @property
    def value(self) -> int:
        """The number shown for the bid (the smaller one for four players' 0-or-10)."""
        if not self.tricks:
            raise ValueError("a bid that was not shown has no value")
        return min(self.tricks)

    def fulfilled(self, tricks: int) -> bool:
        return tricks in self.tricks

    def label(self) -> str:
        if not self.tricks:
            return "not shown"
        return " or ".join(str(t) for t in sorted(self.tricks))

    def to_json(self) -> str | int:
        if not self.tricks:
            return UNSHOWN_JSON
        return self.cards if self.cards is not None else self.value


UNSHOWN_JSON = "unshown"
UNSHOWN = Bid(frozenset())  # a failed player's bid cards, left face down


_ORDER = "CHSD"


def bid_from_suits(letters: str, variant: Variant) -> Bid:
    """Three suit letters, any order and case: ``"chs"`` -> 6 tricks."""
    cleaned = letters.strip().upper()
    if len(cleaned) != 3 or any(ch not in _ORDER for ch in cleaned):
        raise ValueError(f"a bid by suit is three letters from C, H, S, D, got {letters!r}")
    value = sum(Suit(ch).bid_value for ch in cleaned)
    ordered = "".join(sorted(cleaned, key=_ORDER.index))
    return Bid(_fulfilling(value, variant), ordered)


def bid_from_number(number: int, variant: Variant) -> Bid:
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError(f"a bid is three suit letters or a whole number, got {number!r}")
    if not 0 <= number <= variant.max_bid:
        raise ValueError(f"a bid of {number} is impossible with {variant.players} players "
                         f"(0 to {variant.max_bid})")
    return Bid(_fulfilling(0 if number == variant.max_bid == 10 else number, variant))


def parse_bid(raw: object, variant: Variant) -> Bid:
    """A record's bid: a string of three suit letters, an int, or "unshown" (a failed player kept the
    bid cards face down)."""
    if raw == UNSHOWN_JSON:
        return UNSHOWN
    if isinstance(raw, str):
        return bid_from_suits(raw, variant)
    if isinstance(raw, int) and not isinstance(raw, bool):
        return bid_from_number(raw, variant)
    raise ValueError(f"a bid is three suit letters (like \"CHS\"), a number or \"unshown\", got {raw!r}")


def _fulfilling(value: int, variant: Variant) -> frozenset[int]:
    if value == 0 and variant.max_bid == 10:
        return frozenset({0, 10})
    return frozenset({value})


def suits_for(value: int) -> str:
    """A canonical set of bid cards for a number (greedy: as many clubs as fit)."""
    letters = ""
    remaining = value
    for _ in range(3):
        for letter in _ORDER:
            if Suit(letter).bid_value <= remaining and remaining - Suit(letter).bid_value <= 3 * (
                2 - len(letters)
            ):
                letters += letter
                remaining -= Suit(letter).bid_value
                break
    return letters
