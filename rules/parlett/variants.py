"""The five ways to play, and the options players may agree on before they start.

Everything that differs between variants is a field of :class:`Variant` so the scorer, the trick
engine and the screen read one table instead of sprinkling ``if players == 4`` around.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from rules.parlett.cards import PACK_36, PACK_37, PACK_52, PACK_60, Card

DUMMY = "dummy"  # the two-player game's third hand; a reserved name in records


@dataclass(frozen=True)
class Variant:
    name: str
    players: int  # live players at the table
    hands: int  # hands dealt (the two-player game deals a dummy hand too)
    hand_size: int
    tricks: int  # tricks played each deal = hand size - 3 bid cards
    pack: tuple[Card, ...]
    max_bid: int
    # contract score by how many hands succeeded; a count missing here scores 0
    contract_score: dict[int, int]
    # this many successes or more send the next deal to no trump (None: never)
    no_trump_after: int | None
    first_trump: str  # "NT" or a suit letter: the first deal of a game
    rubber_games: int
    can_reveal: bool
    many_declare: bool  # five players: any number declare; two players: either or both
    declare_premium: int
    reveal_premium: int
    game_to: int | None  # 100, or None when there are no games (Original 99's nine hands)
    fixed_deals: int | None  # Original 99: a rubber is exactly nine hands

    @property
    def has_dummy(self) -> bool:
        return self.hands > self.players


_THREE = {3: 10, 2: 20, 1: 30}
VARIANTS: dict[str, Variant] = {
    "three": Variant("three", 3, 3, 12, 9, PACK_36, 9, _THREE, None, "NT", 3, True, False, 30, 60,
                     100, None),
    "four": Variant("four", 4, 4, 13, 10, PACK_52, 10, {3: 10, 2: 20, 1: 30}, 4, "NT", 4, True, False,
                    30, 60, 100, None),
    "five": Variant("five", 5, 5, 12, 9, PACK_60, 9, {5: 10, 4: 20, 3: 30, 2: 40, 1: 50}, 4, "NT", 5,
                    False, True, 50, 0, 100, None),
    "two": Variant("two", 2, 3, 12, 9, PACK_36, 9, _THREE, None, "C", 3, False, True, 30, 0, 100, None),
    "original": Variant("original", 3, 3, 12, 9, PACK_37, 9, _THREE, None, "NT", 1, True, False, 30, 60,
                        None, 9),
}


@dataclass(frozen=True)
class Options:
    """Choices where the seed is silent or offers an optional rule (see docs/parlett.md).

    ``new_game_trump``: "no_trump" starts every new game of a rubber like the first deal (no trump;
    the two-player game at clubs); "continue" carries the previous deal's successes across.
    ``rubber_games``/``target``: a rubber of that many games, or play to a target score instead.
    """

    new_game_trump: str = "no_trump"
    declarer_chooses_trumps: bool = False
    nines_as_trumps: bool = False
    unbidden: bool = False
    rubber_games: int | None = None  # None: the variant's own (3, 4, 5)
    target: int | None = None  # five players' shorter game: 250 or 500 instead of games
    hidden_bids: bool = False  # the screen hides bids until the deal is complete; no rule effect
    # two players, when the dummy beats or ties the loser: "carry" 100 forward to the winner, or
    # "double" (playing for hard score: the winner wins double, i.e. his margin counts twice)
    dummy_bonus: str = "carry"
    # the German text (seed 004): a game of nine deals, highest total wins; no 100 target, no rubber
    nine_rounds: bool = False
    # playing for hard score: at the end each player settles the difference with every other
    # player (``Scoresheet.settlement``); two players: the dummy rule's winner wins double
    hard_score: bool = False

    @classmethod
    def from_dict(cls, data: dict[str, Any], variant: Variant) -> Options:
        """Validate a record's ``options``; raises ValueError saying which key and why."""
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise ValueError(f"unknown option {key!r} (known: {', '.join(sorted(known))})")
        options = cls(**data)
        options.check(variant)
        return options

    def check(self, variant: Variant) -> None:
        if self.new_game_trump not in ("no_trump", "continue"):
            raise ValueError(f"new_game_trump must be 'no_trump' or 'continue', got {self.new_game_trump!r}")
        for name in ("declarer_chooses_trumps", "nines_as_trumps", "unbidden", "hidden_bids", "nine_rounds",
                     "hard_score"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")
        if self.dummy_bonus not in ("carry", "double"):
            raise ValueError(f"dummy_bonus must be 'carry' or 'double', got {self.dummy_bonus!r}")
        if self.dummy_bonus != "carry" and not variant.has_dummy:
            raise ValueError("dummy_bonus is a two-player rule (the dummy beating or tying a player)")
        if self.unbidden and variant.name != "three":
            raise ValueError("unbidden is a three-player variant")
        if (self.declarer_chooses_trumps or self.nines_as_trumps) and variant.name == "original":
            raise ValueError("Original 99's trump is the turned-up card; it cannot be chosen")
        for name in ("rubber_games", "target"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive whole number")
        if self.target is not None and self.rubber_games is not None:
            raise ValueError("choose either rubber_games or target, not both")
        if variant.fixed_deals is not None and (self.target is not None or self.rubber_games is not None):
            raise ValueError("Original 99's rubber is exactly nine hands")
        if self.nine_rounds:
            if variant.fixed_deals is not None:
                raise ValueError("Original 99 is already nine hands; nine_rounds is for the other variants")
            if self.target is not None or self.rubber_games is not None:
                raise ValueError("nine_rounds is a game of nine deals: no rubber_games or target with it")

    @property
    def dummy_rule(self) -> str:
        """What the two-player dummy rule pays: "double" when playing for hard score, else the
        ``dummy_bonus`` chosen ("carry" 100 forward by default)."""
        return "double" if self.hard_score else self.dummy_bonus

    @property
    def chosen_trumps(self) -> bool:
        return self.declarer_chooses_trumps or self.nines_as_trumps

    def to_dict(self) -> dict[str, Any]:
        default = Options()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}


@dataclass(frozen=True)
class Table:
    """Who plays what: the variant, its options and the seats in order (each one's left is next)."""

    variant: Variant
    options: Options
    players: tuple[str, ...]
    first_dealer: int
    hands: tuple[str, ...] = field(default=())  # players plus the dummy, when there is one

    def __post_init__(self) -> None:
        if not self.hands:
            extra = (DUMMY,) if self.variant.has_dummy else ()
            object.__setattr__(self, "hands", self.players + extra)

    @property
    def rubber_games(self) -> int:
        if self.options.nine_rounds:
            return 1  # the nine-round game is the whole series
        return self.options.rubber_games or self.variant.rubber_games
