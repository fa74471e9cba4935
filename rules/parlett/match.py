"""A rubber as a fold over its deals: dealers, trumps, games to 100, the rubber's end.

``Scoresheet.start(table)`` then ``sheet = sheet.add(entry)`` per deal (checked: raises a
:class:`~rules.errors.InvalidActionError` subclass and leaves the sheet unchanged). Everything the
screen and the replay show is read from the sheet: the deals with their dealer, trump and scores,
the finished games, the rubber totals, and who deals next in which trump.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace

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


class RubberOverError(InvalidActionError):
    """A deal entered after the rubber has ended."""


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
    deals: tuple[DealResult, ...] = ()
    games: tuple[GameResult, ...] = ()

    @classmethod
    def start(cls, table: Table) -> Scoresheet:
        return cls(table)

    # -- what happens next --------------------------------------------------------------------
    @property
    def uses_games(self) -> bool:
        v, o = self.table.variant, self.table.options
        return v.game_to is not None and o.target is None

    # Each of these is read for every deal added, so none of them walks the whole rubber: a long
    # rubber (a target nobody reaches) once replayed in quadratic time (issue 17, point 5). Deals
    # are in game order, so a game's deals are found by bisection, and the last deal carries the
    # running totals. tests/test_parlett_properties.py checks them against the plain definitions.
    def _first_deal_of(self, game: int) -> int:
        """The index in ``deals`` of the first deal of ``game`` (``len(deals)`` if it has none)."""
        return bisect_left(self.deals, game, key=lambda d: d.game)

    @property
    def current_game_deals(self) -> tuple[DealResult, ...]:
        return self.deals[self._first_deal_of(len(self.games) + 1):]

    def _last_of_current_game(self) -> DealResult | None:
        if self.deals and self.deals[-1].game == len(self.games) + 1:
            return self.deals[-1]
        return None

    @property
    def game_totals(self) -> dict[str, int]:
        last = self._last_of_current_game()
        return dict(last.game_totals) if last is not None else dict.fromkeys(self.table.hands, 0)

    @property
    def rubber_totals(self) -> dict[str, int]:
        """Finished games (with their premiums) plus this game so far: the last deal's running
        rubber totals (a game's last deal shows them with the game's premiums in)."""
        if not self.deals:
            return dict.fromkeys(self.table.hands, 0)
        return dict(self.deals[-1].rubber_totals)

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
        """The rubber's winners (more than one on a tie), once it is over."""
        if not self.over:
            return ()
        totals = self.rubber_totals
        best = max(totals[p] for p in self.table.players)
        return tuple(p for p in self.table.players if totals[p] == best)

    @property
    def margin(self) -> int | None:
        """By how much the rubber was won: the winner's total over the next player's (0 when the
        win is shared); None until it is over. Original 99's nine hands end on exactly this."""
        if not self.over:
            return None
        totals = sorted((self.rubber_totals[p] for p in self.table.players), reverse=True)
        return totals[0] - totals[1]

    @property
    def next_dealer(self) -> str:
        players = self.table.players
        if not self.uses_games:
            return players[(self.table.first_dealer + len(self.deals)) % len(players)]
        game_index = len(self.games)
        in_this_game = len(self.deals) - self._first_deal_of(game_index + 1)
        return players[(self.table.first_dealer + game_index + in_this_game) % len(players)]

    @property
    def next_trump(self) -> Trump | None:
        """The trump of the next deal, or None when a turned-up card decides it (Original 99)."""
        variant, options = self.table.variant, self.table.options
        if variant.name == "original":
            return None
        last = self._last_of_current_game() if options.new_game_trump == "no_trump" else (
            self.deals[-1] if self.deals else None)
        if last is None:
            return Trump(variant.first_trump)
        if options.declarer_chooses_trumps:
            return last.trump  # nobody bids: the trump stays as it was
        return trump_after(last.score, variant)

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
        sheet = replace(self, deals=(*self.deals, result))
        if self.uses_games and variant.game_to is not None and any(v >= variant.game_to
                                                                   for v in game_totals.values()):
            finished = self._finish_game(result, game_totals)
            # the last deal of a game shows the rubber totals with the game's premiums in them:
            # the finished games before it, plus this game's final score
            before = self.rubber_totals
            for h, v in self.game_totals.items():
                before[h] -= v
            totals = {h: before[h] + finished.final[h] for h in before}
            sheet = replace(sheet, games=(*sheet.games, finished),
                            deals=(*self.deals, replace(result, rubber_totals=totals)))
        return sheet

    def _finish_game(self, last: DealResult, totals: dict[str, int]) -> GameResult:
        variant, players = self.table.variant, self.table.players
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
            elif len(winners) == 1 and dummy >= loser:  # the dummy beat or tied the loser
                bonus = self.table.options.dummy_bonus
                # hard score settles the live players' difference: winning double adds it once more
                carried[winners[0]] = DUMMY_CARRY if bonus == "carry" else best - loser
        deals = len(self.deals) - self._first_deal_of(last.game) + 1
        return GameResult(last.game, deals, totals, premiums, carried, winners, bonus)
