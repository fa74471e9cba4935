"""Cards for Parlett's Ninety-Nine: suits, ranks, the packs of each variant, and card notation.

A card is written rank then suit, as players say it: ``"AS"``, ``"TH"``, ``"9C"``; the five-player
pack's elevens and twelves are ``"11D"`` and ``"12D"``; Original 99's joker is ``"X"`` (``"JK"`` is
accepted too). Suits are letters C, H, S, D because those are also the bid codes (3, 2, 1, 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Suit(Enum):
    """The four suits, in the order the bid code values them (clubs 3 ... diamonds 0)."""

    CLUBS = "C"
    HEARTS = "H"
    SPADES = "S"
    DIAMONDS = "D"

    @property
    def bid_value(self) -> int:
        """Tricks one bid card of this suit stands for: clubs 3, hearts 2, spades 1, diamonds 0."""
        return _BID_VALUES[self]

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_BID_VALUES = {Suit.CLUBS: 3, Suit.HEARTS: 2, Suit.SPADES: 1, Suit.DIAMONDS: 0}
_SYMBOLS = {Suit.CLUBS: "♣", Suit.HEARTS: "♥", Suit.SPADES: "♠", Suit.DIAMONDS: "♦"}

# Rank values: higher wins. 11 and 12 exist only in the five-player pack, between ten and jack.
RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T",
              11: "11", 12: "12", 13: "J", 14: "Q", 15: "K", 16: "A"}
_RANK_BY_NAME = {name: value for value, name in RANK_NAMES.items()} | {"10": 10}
JOKER_NAMES = ("X", "JK", "JOKER")


@dataclass(frozen=True)
class Card:
    """One card; ``suit`` is None only for the joker (rank 0)."""

    rank: int
    suit: Suit | None

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suits in bid order (clubs first), high cards first: how players sort a hand."""
        return ("CHSD".index(self.suit.value) if self.suit else 4, -self.rank)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        if self.suit is None:
            return "X"
        return RANK_NAMES[self.rank] + self.suit.value


JOKER = Card(0, None)


def parse_card(text: str) -> Card:
    """``"9H"`` -> Card(9, HEARTS). Raises ValueError naming the text when it is no card."""
    cleaned = text.strip().upper()
    if cleaned in JOKER_NAMES:
        return JOKER
    if len(cleaned) < 2 or cleaned[-1] not in "CHSD" or cleaned[:-1] not in _RANK_BY_NAME:
        raise ValueError(f"{text!r} is not a card (write rank then suit, e.g. 9H, AS, TD, or X)")
    return Card(_RANK_BY_NAME[cleaned[:-1]], Suit(cleaned[-1]))


def pack(ranks: range | tuple[int, ...], *, joker: bool = False) -> tuple[Card, ...]:
    cards = tuple(Card(rank, suit) for suit in Suit for rank in ranks)
    return cards + ((JOKER,) if joker else ())


PACK_36 = pack((6, 7, 8, 9, 10, 13, 14, 15, 16))
PACK_52 = pack((2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16))
# The Australian "Five Hundred" pack without its thirteens: A K Q J 12 11 10 ... 2 in four suits.
PACK_60 = pack((2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
PACK_37 = (*PACK_36, JOKER)
