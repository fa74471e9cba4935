"""Rulesets and the setup of one game: who plays, in which sides, on which board, with what cards."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rules.board99.errors import SetupError
from rules.board99.layouts import Layout, parse_layout

CARDS = 100


class Ruleset(enum.Enum):
    """``CLASSIC``: Washburne 1963 (hand of 5, discard, penalties). ``FIVE_OF_99``: hand of 4, dead hands."""

    CLASSIC = "classic"
    FIVE_OF_99 = "5of99"

    @property
    def hand_limit(self) -> int:
        return 5 if self is Ruleset.CLASSIC else 4

    @property
    def deal(self) -> int:
        """Cards everyone holds at the start: none in classic, four in 5of99."""
        return 0 if self is Ruleset.CLASSIC else 4


PLAYER_COUNTS = (2, 3, 4, 6)


def default_sides(players: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Partners sit opposite for 4 and 6 players (seat i with i+2, or i+3); one side each otherwise."""
    n = len(players)
    if n in (4, 6):
        half = n // 2
        return tuple((players[i], players[i + half]) for i in range(half))
    return tuple((p,) for p in players)


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything fixed before the first action.

    ``hands`` are known starting cards (5of99 deals four to everyone, so missing ones are hidden;
    in classic everyone starts with exactly the cards given, usually none). ``deck`` is the known
    order of the remaining deck, top first, for digital play; ``None`` at a real table, where a
    card is known only once it is shown.
    """

    ruleset: Ruleset
    layout: Layout
    players: tuple[str, ...]
    sides: tuple[tuple[str, ...], ...] = ()
    first: str = ""
    hands: Mapping[str, tuple[int, ...]] = field(default_factory=dict, hash=False)
    deck: tuple[int, ...] | None = None
    side_index: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        if len(players) not in PLAYER_COUNTS:
            raise SetupError(f"the Game of 99 is for 2, 3, 4 or 6 players, not {len(players)}")
        for p in players:
            if not isinstance(p, str) or not p.strip():
                raise SetupError(f"a player's name must be non-empty text, not {p!r}")
        if len(set(players)) != len(players):
            raise SetupError("two players have the same name")
        object.__setattr__(self, "players", players)
        sides = tuple(tuple(s) for s in self.sides) or default_sides(players)
        seen: list[str] = [p for side in sides for p in side]
        if sorted(seen) != sorted(players) or len(sides) < 2:
            raise SetupError("sides must split all players into two or more sides, each player once")
        object.__setattr__(self, "sides", sides)
        index = {p: i for i, side in enumerate(sides) for p in side}
        object.__setattr__(self, "side_index", tuple(index[p] for p in players))
        first = self.first or players[0]
        if first not in players:
            raise SetupError(f"first player {first!r} is not playing")
        object.__setattr__(self, "first", first)
        self._check_cards()

    def _check_cards(self) -> None:
        hands: dict[str, tuple[int, ...]] = {}
        owner: dict[int, str] = {}
        for name, cards in dict(self.hands).items():
            if name not in self.players:
                raise SetupError(f"hands: {name!r} is not playing")
            cards = tuple(cards)
            if len(cards) > self.ruleset.hand_limit:
                limit = self.ruleset.hand_limit
                raise SetupError(f"hands: {name} holds {len(cards)} cards, the most is {limit}")
            for c in cards:
                _check_card(c, f"hands: {name}")
                if c in owner:
                    raise SetupError(f"hands: card {c} is given to both {owner[c]} and {name}")
                owner[c] = name
            hands[name] = cards
        object.__setattr__(self, "hands", MappingProxyType(hands))
        if self.deck is not None:
            deck = tuple(self.deck)
            for c in deck:
                _check_card(c, "deck")
                if c in owner:
                    raise SetupError(f"deck: card {c} appears twice (or is also in a hand)")
                owner[c] = "deck"
            if len(owner) != CARDS:
                raise SetupError(f"deck and hands together must hold all 100 cards, they hold {len(owner)}")
            dealt_needed = sum(self.ruleset.deal - len(hands.get(p, ())) for p in self.players)
            if self.ruleset.deal and dealt_needed > len(deck):
                raise SetupError("the deck is too small to deal everyone four cards")
            object.__setattr__(self, "deck", deck)

    @property
    def hand_limit(self) -> int:
        return self.ruleset.hand_limit

    def seat(self, player: str) -> int:
        """The player's seat (index in ``players``); raises ValueError for strangers."""
        return self.players.index(player)

    def side_of(self, player: str) -> tuple[str, ...]:
        return self.sides[self.side_index[self.seat(player)]]


def _check_card(card: object, where: str) -> None:
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < CARDS:
        raise SetupError(f"{where}: {card!r} is not a card 0..99")


def make_setup(
    players: list[str] | tuple[str, ...],
    *,
    ruleset: Ruleset | str = Ruleset.CLASSIC,
    layout: Layout | str | list[int] = "spiral-out",
    sides: list[list[str]] | tuple[tuple[str, ...], ...] | None = None,
    first: str | None = None,
    hands: Mapping[str, list[int] | tuple[int, ...]] | None = None,
    deck: list[int] | tuple[int, ...] | None = None,
) -> Setup:
    """A convenient constructor taking plain values (names, lists)."""
    try:
        rs = ruleset if isinstance(ruleset, Ruleset) else Ruleset(ruleset)
    except ValueError as exc:
        raise SetupError(f"unknown ruleset {ruleset!r} (expected classic or 5of99)") from exc
    return Setup(
        ruleset=rs,
        layout=layout if isinstance(layout, Layout) else parse_layout(layout),
        players=tuple(players),
        sides=tuple(tuple(s) for s in sides) if sides else (),
        first=first or "",
        hands={k: tuple(v) for k, v in (hands or {}).items()},
        deck=tuple(deck) if deck is not None else None,
    )
