"""A rubber as a fold over its deals: dealers, trumps, games to 100, the rubber's end.

``Scoresheet.start(table)`` then ``sheet = sheet.add(entry)`` per deal (checked: raises a
:class:`~rules.errors.InvalidActionError` subclass and leaves the sheet unchanged). Everything the
screen and the replay show is read from the sheet: the deals with their dealer, trump and scores,
the finished games, the rubber totals, and who deals next in which trump.

Adding a deal costs the same however long the series is: the deals and games live in lists shared
between a sheet and the sheets made from it (:class:`Log`; a sheet sees only its own prefix), the
current game's start and the finished games' totals are kept rather than rescanned.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar, overload

from rules.errors import InvalidActionError
from rules.parlett.premiums import priority_order
from rules.parlett.scoring import (
    DealEntry,
    DealScore,
    Trump,
    check_entry,
    score_deal,
    trump_after,
    trump_of_turn_up,
)
from rules.parlett.variants import DUMMY, Table

GAME_PREMIUM = 100  # to everyone who reaches 100 in play
DUMMY_CARRY = 100  # two players: beating a live player with the dummy carries 100 to the winner
NINE_ROUNDS = 9  # the German text's game: "Ein Spiel besteht aus neun Runden"


class RubberOverError(InvalidActionError):
    """A deal entered after the rubber has ended."""


T = TypeVar("T")


class Log(Sequence[T], Generic[T]):
    """A read-only sequence: the first ``count`` items of a list that sheets share. ``appended``
    adds in place when this view is the list's newest (the usual case: O(1)) and copies only when
    an older sheet grows a second branch, so every sheet keeps seeing exactly its own items."""

    __slots__ = ("_count", "_items")

    def __init__(self, items: list[T] | None = None, count: int | None = None) -> None:
        self._items: list[T] = items if items is not None else []
        self._count = len(self._items) if count is None else count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[:self._count][index])
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("log index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[T]:
        items = self._items
        for i in range(self._count):
            yield items[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Log, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"

    def appended(self, item: T) -> Log[T]:
        if len(self._items) == self._count:
            self._items.append(item)
            return Log(self._items, self._count + 1)
        return Log([*self._items[:self._count], item])

    def replaced_last(self, item: T) -> Log[T]:
        """The same items with the last one replaced (a branch of its own: a copy)."""
        return Log([*self._items[:self._count - 1], item])


@dataclass(frozen=True)
class DealResult:
    number: int  # 1-based across the rubber
    game: int  # 1-based game of the rubber
    dealer: str
    trump: Trump
    entry: DealEntry
    score: DealScore
    game_totals: dict[str, int]  # running totals in this game after the deal
    rubber_totals: dict[str, int]  # running rubber totals (finished games + this game so far)


@dataclass(frozen=True)
class GameResult:
    number: int
    deals: int
    totals: dict[str, int]  # points scored in play
    premiums: dict[str, int]  # the 100 premium
    carried: dict[str, int]  # two players: the dummy rule's 100 carried forward (or the doubled margin)
    winners: tuple[str, ...]  # empty: a tie between the live players (the dummy won)
    dummy_bonus: str | None = None  # "carry" or "double" when the dummy rule paid the winner

    @property
    def final(self) -> dict[str, int]:
        return {h: self.totals[h] + self.premiums[h] + self.carried[h] for h in self.totals}


@dataclass(frozen=True)
class Scoresheet:
    table: Table
    deals: Log[DealResult] = field(default_factory=Log)
    games: Log[GameResult] = field(default_factory=Log)
    game_start: int = 0  # index in ``deals`` of the current game's first deal
    banked: tuple[tuple[str, int], ...] = ()  # the finished games' final totals, summed

    @classmethod
    def start(cls, table: Table) -> Scoresheet:
        return cls(table)

    # -- what happens next --------------------------------------------------------------------
    @property
    def uses_games(self) -> bool:
        v, o = self.table.variant, self.table.options
        return v.game_to is not None and o.target is None

    @property
    def current_game_deals(self) -> tuple[DealResult, ...]:
        return self.deals[self.game_start:]

    @property
    def _current_game_count(self) -> int:
        return len(self.deals) - self.game_start

    @property
    def game_totals(self) -> dict[str, int]:
        if self._current_game_count:
            return dict(self.deals[-1].game_totals)
        return dict.fromkeys(self.table.hands, 0)

    @property
    def rubber_totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.table.hands, 0)
        for h, v in self.banked:
            totals[h] += v
        for h, v in self.game_totals.items():
            totals[h] += v
        return totals

    @property
    def over(self) -> bool:
        v, o = self.table.variant, self.table.options
        if v.fixed_deals is not None:
            return len(self.deals) >= v.fixed_deals
        if o.target is not None:
            return any(self.rubber_totals[p] >= o.target for p in self.table.players)
        return len(self.games) >= self.table.rubber_games

    @property
    def winners(self) -> tuple[str, ...]:
        """The rubber's winners (more than one on a tie), once it is over. The two-player nine-round
        game is one game: if the dummy won it, it is a tie between the live players."""
        if not self.over:
            return ()
        if self.table.options.nine_rounds and not self.games[-1].winners:
            return self.table.players
        totals = self.standings
        best = max(totals[p] for p in self.table.players)
        return tuple(p for p in self.table.players if totals[p] == best)

    @property
    def margin(self) -> int | None:
        """By how much the rubber was won: the winner's total over the next player's (0 when the
        win is shared); None until it is over. Original 99's nine hands end on exactly this."""
        if not self.over:
            return None
        if len(self.winners) > 1:
            return 0
        totals = sorted((self.standings[p] for p in self.table.players), reverse=True)
        return totals[0] - totals[1]

    @property
    def standings(self) -> dict[str, int]:
        """What decides the rubber: the rubber totals, except when two play for hard score. Then a
        game the dummy won is "a tie as between the live players" (the seed), so nothing of it
        counts, exactly as in the settlement: the winner named is never a player who pays."""
        totals = self.rubber_totals
        if not (self.table.options.hard_score and self.table.variant.has_dummy and self.uses_games):
            return totals
        for game in self.games:
            if not game.winners:
                for hand, points in game.final.items():
                    totals[hand] -= points
        return totals

    @property
    def settlement(self) -> dict[str, int] | None:
        """Playing for hard score, once it is over: what each live player wins (+) or owes (-).
        Every pair of players settles the difference of their scores, game by game (a rubber
        without games: of the totals), so a player's figure is the sum of his differences with each
        other player and the figures add up to 0. A game the dummy won is a tie between the live
        players (nothing changes hands); the dummy rule's doubled win is in the games' totals."""
        if not (self.table.options.hard_score and self.over):
            return None
        players = self.table.players
        parts = ([g.final for g in self.games if g.winners] if self.uses_games
                 else [self.rubber_totals])
        owed = dict.fromkeys(players, 0)
        for totals in parts:
            for p in players:
                owed[p] += sum(totals[p] - totals[q] for q in players if q != p)
        return owed

    @property
    def deals_per_game(self) -> int | None:
        """Deals that make a whole game or rubber (Original 99's nine hands, the nine-round game)."""
        if self.table.variant.fixed_deals is not None:
            return self.table.variant.fixed_deals
        return NINE_ROUNDS if self.table.options.nine_rounds else None

    @property
    def next_dealer(self) -> str:
        players = self.table.players
        if not self.uses_games:
            return players[(self.table.first_dealer + len(self.deals)) % len(players)]
        game_index = len(self.games)
        return players[(self.table.first_dealer + game_index + self._current_game_count) % len(players)]

    @property
    def next_trump(self) -> Trump | None:
        """The trump of the next deal, or None when a turned-up card decides it (Original 99)."""
        variant, options = self.table.variant, self.table.options
        if variant.name == "original":
            return None
        fresh = self._current_game_count if options.new_game_trump == "no_trump" else len(self.deals)
        if not fresh:
            if options.declarer_chooses_trumps:
                # Parlett's variation: "If no one bids in the first deal it is played at no trump"
                # (two players too, whose first deal is otherwise at clubs)
                return Trump.NO_TRUMP
            return Trump(variant.first_trump)
        if options.declarer_chooses_trumps:
            return self.deals[-1].trump  # nobody bids: the trump stays as it was
        return trump_after(self.deals[-1].score, variant)

    def priority(self) -> tuple[str, ...]:
        """Who may announce a premium first in the next deal (the dealer's left first)."""
        return priority_order(self.table.players, self.next_dealer)

    # -- adding a deal ------------------------------------------------------------------------
    def add(self, entry: DealEntry) -> Scoresheet:
        if self.over:
            raise RubberOverError("the rubber is over; start a new one")
        check_entry(entry, self.table)
        variant = self.table.variant
        if entry.turn_up is not None:
            trump = trump_of_turn_up(entry.turn_up)
        elif entry.trump is not None:
            trump = entry.trump
        else:
            trump = self.next_trump or Trump.NO_TRUMP
        score = score_deal(entry, variant)
        game_totals = self.game_totals
        for h, v in score.total.items():
            game_totals[h] += v
        rubber = self.rubber_totals
        for h, v in score.total.items():
            rubber[h] += v
        result = DealResult(len(self.deals) + 1, len(self.games) + 1, self.next_dealer, trump, entry, score,
                            game_totals, rubber)
        if self.table.options.nine_rounds:
            game_over = self._current_game_count + 1 >= NINE_ROUNDS
        else:
            game_over = (self.uses_games and variant.game_to is not None
                         and any(v >= variant.game_to for v in game_totals.values()))
        if not game_over:
            return replace(self, deals=self.deals.appended(result))
        game = self._finish_game(result, game_totals)
        banked = dict(self.banked)
        for h, v in game.final.items():
            banked[h] = banked.get(h, 0) + v
        # the last deal of a game shows the rubber totals with the game's premiums in them
        result = replace(result, rubber_totals={h: banked.get(h, 0) for h in self.table.hands})
        return replace(self, deals=self.deals.appended(result), games=self.games.appended(game),
                       game_start=len(self.deals) + 1, banked=tuple(banked.items()))

    def _finish_game(self, last: DealResult, totals: dict[str, int]) -> GameResult:
        variant, players = self.table.variant, self.table.players
        if self.table.options.nine_rounds:
            premiums = dict.fromkeys(totals, 0)  # the German nine-round game has no 100 premium
        else:
            game_to = variant.game_to or 0
            premiums = {h: GAME_PREMIUM if v >= game_to else 0 for h, v in totals.items()}
        carried = dict.fromkeys(totals, 0)
        final = {h: totals[h] + premiums[h] for h in totals}
        best = max(final[p] for p in players)
        winners = tuple(p for p in players if final[p] == best)
        bonus = None
        if variant.has_dummy:
            dummy, loser = final[DUMMY], min(final[p] for p in players)
            if dummy > best:
                winners = ()  # the dummy won: a tie between the live players
            elif len(winners) == 1 and dummy >= loser and (self.table.options.dummy_rule == "double"
                                                           or not self.table.options.nine_rounds):
                # the dummy beat or tied the loser (the nine-round game has no next game to carry
                # 100 into, so there only hard score's doubled win applies)
                bonus = self.table.options.dummy_rule
                # hard score settles the live players' difference: winning double adds it once more
                carried[winners[0]] = DUMMY_CARRY if bonus == "carry" else best - loser
        return GameResult(last.game, self._current_game_count + 1, totals, premiums, carried, winners, bonus)
