"""The count keeper: the state of a game of Ninety Nine as a fold over actions.

It knows the count, whose turn it is, the direction, everyone's tokens and who is out, but not
what anyone holds. That is all a real table with a real deck needs, and it is also the core of the
game against the computer (:mod:`rules.count99.deal` adds the deck and hands on top).

``Table.apply(action)`` is the checked entry point: it returns the new table and the events the
action caused, or raises a :class:`~rules.count99.errors.Count99Error` leaving nothing changed.
Tables are immutable, so undo is "apply every action but the last" or simply keeping the old one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from rules.count99.cards import CARD_NAMES, TOP, Variant, card_effect, is_safe
from rules.count99.errors import Count99Error, NotYourTurnError, RoundOverError, SetupError, WrongChoiceError

MILESTONES = (33, 66)
MIN_PLAYERS, MAX_PLAYERS = 2, 8
TOKENS_RANGE = (1, 50)
HAND_SIZE_RANGE = (1, 13)

# Token costs, straight from the seed's scoring section.
BUST_COST = {Variant.QUENTIN_C: 2, Variant.RS_GAMES: 1}
PASS_THROUGH_COST = 1
LAND_MILESTONE_COST = 1  # paid by every other player
LAND_99_COST = 2  # paid by every other player
NO_SAFE_CARD_COST = 1
NO_CARDS_COST = 3
# Where the seed is silent: a round that is still going after this many cards is called off, and
# the player who would play next loses LONG_ROUND_COST (docs/count99.md, "Endless rounds"). With
# big hands careful players could otherwise pass for ever; this way every round costs a token, so
# every game ends. Ordinary rounds last 10 to 60 cards; 200 is about four times through the deck.
ROUND_PLAY_LIMIT = 200
LONG_ROUND_COST = 1


@dataclass(frozen=True)
class Setup:
    """Who plays which rule set with how many tokens and cards. Validated on creation."""

    variant: Variant
    players: tuple[str, ...]
    tokens: int = 9
    hand_size: int = 3

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise SetupError(f"{MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(self.players)}")
        if any(not isinstance(p, str) or not p.strip() for p in self.players):
            raise SetupError("every player needs a name")
        if len(set(self.players)) != len(self.players):
            raise SetupError("player names must differ")
        if isinstance(self.tokens, bool) or not isinstance(self.tokens, int) or not (
            TOKENS_RANGE[0] <= self.tokens <= TOKENS_RANGE[1]
        ):
            raise SetupError(f"tokens must be {TOKENS_RANGE[0]} to {TOKENS_RANGE[1]}, not {self.tokens!r}")
        if isinstance(self.hand_size, bool) or not isinstance(self.hand_size, int) or not (
            HAND_SIZE_RANGE[0] <= self.hand_size <= HAND_SIZE_RANGE[1]
        ):
            raise SetupError(
                f"hand size must be {HAND_SIZE_RANGE[0]} to {HAND_SIZE_RANGE[1]}, not {self.hand_size!r}"
            )

    def seat_of(self, name: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise Count99Error(f"{name!r} is not playing (players: {', '.join(self.players)})") from None


# -- actions ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StartRound:
    first: int  # the seat that plays first


@dataclass(frozen=True)
class PlayCard:
    seat: int
    card: str
    choice: int | None = None  # an Ace's or 10's value, where the player chose


@dataclass(frozen=True)
class NoSafeCard:
    """RS Games: the player on turn holds no card that keeps the count at 99 or below."""

    seat: int


@dataclass(frozen=True)
class NoCards:
    """The player on turn has no card in hand (forgot to draw in manual-draw mode)."""

    seat: int


Action = StartRound | PlayCard | NoSafeCard | NoCards


# -- events -------------------------------------------------------------------------------------
class Reason(Enum):
    """Why tokens were lost or a round ended."""

    BUST = "bust"
    PASSED_MILESTONE = "passed-milestone"
    OTHER_LANDED = "other-landed"  # someone else landed on 33, 66 or 99
    LANDED_99 = "landed-99"
    NO_SAFE_CARD = "no-safe-card"
    NO_CARDS = "no-cards"
    LAST_STANDING = "last-standing"
    LONG_ROUND = "long-round"  # on turn when the round reached ROUND_PLAY_LIMIT plays


@dataclass(frozen=True)
class RoundStarted:
    round_no: int
    first: int


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: str
    chosen: int | None
    before: int
    after: int


@dataclass(frozen=True)
class DirectionReversed:
    direction: int  # +1 clockwise (seat order), -1 the other way


@dataclass(frozen=True)
class PlayerSkipped:
    seat: int


@dataclass(frozen=True)
class MilestoneLanded:
    seat: int
    milestone: int


@dataclass(frozen=True)
class MilestonePassed:
    seat: int
    milestone: int


@dataclass(frozen=True)
class TokensLost:
    seat: int
    amount: int  # what the rules charged; the player may have held fewer
    left: int
    reason: Reason


@dataclass(frozen=True)
class Eliminated:
    seat: int


@dataclass(frozen=True)
class RoundEnded:
    round_no: int
    reason: Reason
    seat: int  # who ended it


@dataclass(frozen=True)
class GameWon:
    seat: int


Event = (
    RoundStarted | CardPlayed | DirectionReversed | PlayerSkipped | MilestoneLanded | MilestonePassed
    | TokensLost | Eliminated | RoundEnded | GameWon
)


@dataclass(frozen=True)
class Table:
    """Everything the count keeper knows. Build the first one with :meth:`Table.new`."""

    setup: Setup
    tokens: tuple[int, ...]
    count: int = 0
    turn: int | None = None  # None between rounds and after the game
    direction: int = 1
    round_no: int = 0  # 0 before the first round
    first: int | None = None  # who started the current (or last) round
    in_round: bool = False
    winner: int | None = None
    plays_in_round: int = 0

    @classmethod
    def new(cls, setup: Setup) -> Table:
        return cls(setup=setup, tokens=tuple(setup.tokens for _ in setup.players))

    # -- questions ------------------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return self.setup.variant

    @property
    def over(self) -> bool:
        return self.winner is not None

    def is_in(self, seat: int) -> bool:
        return self.tokens[seat] > 0

    def active_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(len(self.tokens)) if self.tokens[s] > 0)

    def name(self, seat: int) -> str:
        return self.setup.players[seat]

    def step(self, seat: int, steps: int = 1, direction: int | None = None) -> int:
        """The seat ``steps`` players on from ``seat`` in ``direction``, counting only players still in.

        ``seat`` itself may be out (a player eliminated by their own play still passes the turn on).
        """
        direction = self.direction if direction is None else direction
        n = len(self.tokens)
        current = seat
        for _ in range(steps):
            for _ in range(n):
                current = (current + direction) % n
                if self.tokens[current] > 0:
                    break
        return current

    def next_first(self) -> int:
        """Who starts the next round by default: seat 0 first, then the next player in seat order
        after the previous round's starter (docs/count99.md)."""
        active = self.active_seats()
        if self.first is None:
            return active[0]
        return self.step(self.first, 1, direction=1)

    # -- the checked entry point ---------------------------------------------------------------
    def apply(self, action: Action) -> tuple[Table, tuple[Event, ...]]:
        if self.over:
            raise RoundOverError(f"the game is over: {self.name(self.winner or 0)} won")
        if isinstance(action, StartRound):
            return self._start(action.first)
        if not self.in_round:
            raise RoundOverError("no round is running: start the next round first")
        if not 0 <= action.seat < len(self.tokens):
            raise Count99Error(f"there is no seat {action.seat}")
        if action.seat != self.turn:
            assert self.turn is not None
            raise NotYourTurnError(f"it is {self.name(self.turn)}'s turn, not {self.name(action.seat)}'s")
        if isinstance(action, PlayCard):
            return self._play(action)
        if isinstance(action, NoSafeCard):
            if self.variant is not Variant.RS_GAMES:
                raise Count99Error("only RS Games ends a round for having no safe card; play a card")
            if all(is_safe(self.variant, card, self.count) for card in CARD_NAMES[self.variant]):
                raise Count99Error(
                    f"at {self.count} every RS Games card is safe (the most a card adds is 10)"
                )
            return self._penalise_and_end(action.seat, NO_SAFE_CARD_COST, Reason.NO_SAFE_CARD)
        return self._penalise_and_end(action.seat, NO_CARDS_COST, Reason.NO_CARDS)

    def apply_all(self, actions: Iterable[Action]) -> tuple[Table, list[Event]]:
        table: Table = self
        events: list[Event] = []
        for action in actions:
            table, new = table.apply(action)
            events.extend(new)
        return table, events

    # -- the rules ------------------------------------------------------------------------------
    def _start(self, first: int) -> tuple[Table, tuple[Event, ...]]:
        if self.in_round:
            raise Count99Error("a round is already running")
        if not 0 <= first < len(self.tokens) or not self.is_in(first):
            raise Count99Error("the first player must be a player still in the game")
        table = replace(
            self, count=0, turn=first, direction=1, round_no=self.round_no + 1, first=first,
            in_round=True, plays_in_round=0,
        )
        return table, (RoundStarted(table.round_no, first),)

    def _play(self, action: PlayCard) -> tuple[Table, tuple[Event, ...]]:
        seat = action.seat
        try:
            effect = card_effect(self.variant, action.card, self.count, action.choice)
        except ValueError as exc:
            raise WrongChoiceError(str(exc)) from None
        before, after = self.count, effect.count
        events = _Events([CardPlayed(seat, action.card, effect.chosen, before, after)])
        table = replace(self, count=after, plays_in_round=self.plays_in_round + 1)
        if after > TOP:
            return table._penalise_and_end(seat, BUST_COST[self.variant], Reason.BUST, events)
        if self.variant is Variant.QUENTIN_C and effect.raises(before):
            if after == TOP:
                events.append(MilestoneLanded(seat, TOP))
                for other in table.active_seats():
                    if other != seat:
                        table = table._lose(other, LAND_99_COST, Reason.OTHER_LANDED, events)
                return table._end(Reason.LANDED_99, seat, events)
            for milestone in MILESTONES:
                if after == milestone:
                    events.append(MilestoneLanded(seat, milestone))
                    for other in table.active_seats():
                        if other != seat:
                            table = table._lose(other, LAND_MILESTONE_COST, Reason.OTHER_LANDED, events)
                elif before < milestone < after:
                    events.append(MilestonePassed(seat, milestone))
                    table = table._lose(seat, PASS_THROUGH_COST, Reason.PASSED_MILESTONE, events)
        if len(table.active_seats()) <= 1:
            return table._end(Reason.LAST_STANDING, seat, events)
        direction = table.direction
        if effect.reverses and len(table.active_seats()) > 2:
            direction = -direction
            events.append(DirectionReversed(direction))
        table = replace(table, direction=direction)
        following = table.step(seat)
        if effect.skips:
            events.append(PlayerSkipped(following))
            following = table.step(following)
        table = replace(table, turn=following)
        if table.plays_in_round >= ROUND_PLAY_LIMIT:
            return table._penalise_and_end(following, LONG_ROUND_COST, Reason.LONG_ROUND, events)
        return table, events.done()

    def _penalise_and_end(
        self, seat: int, cost: int, reason: Reason, events: _Events | None = None
    ) -> tuple[Table, tuple[Event, ...]]:
        events = events if events is not None else _Events([])
        table = self._lose(seat, cost, reason, events)
        return table._end(reason, seat, events)

    def _lose(self, seat: int, amount: int, reason: Reason, events: _Events) -> Table:
        left = max(0, self.tokens[seat] - amount)
        tokens = (*self.tokens[:seat], left, *self.tokens[seat + 1:])
        events.append(TokensLost(seat, amount, left, reason))
        if left == 0:
            events.append(Eliminated(seat))
        return replace(self, tokens=tokens)

    def _end(self, reason: Reason, seat: int, events: _Events) -> tuple[Table, tuple[Event, ...]]:
        events.append(RoundEnded(self.round_no, reason, seat))
        table = replace(self, in_round=False, turn=None)
        active = table.active_seats()
        if len(active) == 1:
            events.append(GameWon(active[0]))
            table = replace(table, winner=active[0])
        return table, events.done()


@dataclass
class _Events:
    items: list[Event] = field(default_factory=list)

    def append(self, event: Event) -> None:
        self.items.append(event)

    def done(self) -> tuple[Event, ...]:
        return tuple(self.items)
