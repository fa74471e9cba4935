"""Computer opponents: Basic, Intermediate and Advanced, deciding from a :class:`PlayerView` only.

They never see the deck order or another player's hand, so hidden information cannot leak.

- **basic** takes a win when it has one, otherwise plays a random card on a random legal square
  or draws; it hardly defends.
- **intermediate** scores every empty square by the runs of five it builds and the opponents'
  runs it breaks (weighted by how reachable the remaining squares are), blocks an open four, and
  plays the highest card that reaches the chosen square.
- **advanced** adds the 1963 playing hints: it keeps its low cards (a cost for every point a card
  is "wasted" below its square), prefers squares that build several runs at once, keeps cards in
  hand rather than running out, discards dead cards early, and looks ahead over the unseen cards:
  the chance that an opponent holds a card reaching a square is computed exactly (hypergeometric)
  from the number of unseen cards at or below that square and the opponent's hand size; and its
  best few plays are tried against sampled hands of the next opponent (drawn from the unseen
  cards with the given ``rng``), who answers with a win if the sampled hand has one, else with
  their greedy best square, after which the board is evaluated.

The same view and the same ``rng`` state always give the same decision.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb

from rules.board99.actions import Action, Discard, Draw, Play
from rules.board99.layouts import Layout
from rules.board99.lines import WINDOWS
from rules.board99.setup import CARDS, Ruleset
from rules.board99.state import EMPTY, PlayerView

LEVELS = ("basic", "intermediate", "advanced")

ATTACK = (0.0, 1.0, 6.0, 30.0, 200.0, 100000.0)  # value of a clean run of five holding k of my pegs
BLOCK = (0.0, 1.0, 5.0, 25.0, 5000.0)  # value of breaking an opponent's run holding k pegs


@dataclass(frozen=True, slots=True)
class Style:
    defence: float
    waste_cost: float  # per point a card is played below its square, in ATTACK units
    keep_cards: int  # draw instead of a modest play when holding fewer than this
    modest: float  # a play scoring below this is "modest"
    exact_odds: bool  # opponents' reach from hypergeometric odds (else a crude fraction)
    candidates: int = 0  # plays looked at more deeply (0: no look-ahead)
    samples: int = 0  # sampled hands of the next opponent per candidate


STYLES = {
    "intermediate": Style(defence=0.8, waste_cost=0.0, keep_cards=1, modest=0.0, exact_odds=False),
    "advanced": Style(defence=1.0, waste_cost=0.12, keep_cards=3, modest=40.0, exact_odds=True,
                      candidates=6, samples=8),
}


class _Table:
    """Everything a decision needs, derived once from the view."""

    def __init__(self, view: PlayerView) -> None:
        setup = view.setup_public
        self.view = view
        self.layout: Layout = setup.layout  # type: ignore[assignment]
        self.players = setup.players
        side_of_player = {p: i for i, side in enumerate(setup.sides) for p in side}
        self.seat_side = tuple(side_of_player[p] for p in setup.players)
        self.me = setup.players.index(view.player)
        self.my_side = self.seat_side[self.me]
        self.hole_side = tuple(EMPTY if s == EMPTY else self.seat_side[s] for s in view.holes)
        self.hand = tuple(sorted(view.hand))
        self.ruleset = setup.ruleset
        self.limit = setup.ruleset.hand_limit
        numbers = self.layout.numbers
        self.empty_holes = [h for h, s in enumerate(view.holes) if s == EMPTY]
        self.highest_empty = max((numbers[h] for h in self.empty_holes), default=-1)
        seen = set(view.face_up) | set(view.hand)
        self.unseen = [c for c in range(CARDS) if c not in seen]
        # unseen_le[n]: unseen cards numbered n or lower (cards that could reach square n)
        le = [0] * CARDS
        count = 0
        marks = set(self.unseen)
        for n in range(CARDS):
            if n in marks:
                count += 1
            le[n] = count
        self.unseen_le = le
        opponents = [
            i for i, s in enumerate(self.seat_side) if s != self.my_side and setup.players[i] not in view.out
        ]
        self.opp_hand = max((view.hand_counts[i] for i in opponents), default=0)

    def reachable(self, hole: int) -> int | None:
        """The highest card in hand that may take ``hole``'s square, or None."""
        number = self.layout.numbers[hole]
        best = None
        for c in self.hand:
            if c <= number:
                best = c
        return best

    def win_now(self) -> Play | None:
        for window in WINDOWS:
            mine = [h for h in window if self.hole_side[h] == self.my_side]
            if len(mine) != 4:
                continue
            gap = [h for h in window if self.hole_side[h] == EMPTY]
            if len(gap) == 1:
                card = self.reachable(gap[0])
                if card is not None:
                    return Play(self.view.player, card, self.layout.numbers[gap[0]])
        return None


def _my_reach(table: _Table, number: int) -> float:
    mine = sum(1 for c in table.hand if c <= number)
    return min(1.0, (table.unseen_le[number] + 4 * mine) / 10.0)


def _opp_reach(table: _Table, number: int, exact: bool) -> float:
    """How likely an opponent can take square ``number`` soon."""
    good = table.unseen_le[number]
    total = len(table.unseen)
    if good == 0 or total == 0:
        return 0.0
    if not exact:
        return min(1.0, good / 10.0)
    k = min(total, table.opp_hand + 1)  # the cards held now plus the next draw
    return 1.0 - comb(total - good, k) / comb(total, k)


def _square_scores(table: _Table, style: Style) -> tuple[list[float], list[float]]:
    """Per hole: what taking it builds for me (attack) and breaks for the opponents (block)."""
    numbers = table.layout.numbers
    mine_p = {h: _my_reach(table, numbers[h]) for h in table.empty_holes}
    opp_p = {h: _opp_reach(table, numbers[h], style.exact_odds) for h in table.empty_holes}
    return _scores_for(table.hole_side, table.my_side, mine_p, opp_p)


def _scores_for(
    hole_side: Sequence[int], side: int, own_p: Mapping[int, float], other_p: Mapping[int, float]
) -> tuple[list[float], list[float]]:
    """Attack and block value of every empty hole for ``side`` (``own_p``: how reachable a hole is
    for that side, ``other_p``: for its opponents)."""
    attack = [0.0] * CARDS
    block = [0.0] * CARDS
    for window in WINDOWS:
        mine = 0
        others = 0
        other_side = -1
        empties = []
        for h in window:
            s = hole_side[h]
            if s == EMPTY:
                empties.append(h)
            elif s == side:
                mine += 1
            else:
                others += 1
                other_side = s if other_side in (-1, s) else -2
        if mine and others:
            continue
        if others == 0:
            gain = ATTACK[mine + 1] - ATTACK[mine]
            for e in empties:
                p = 1.0
                for f in empties:
                    if f != e:
                        p *= own_p.get(f, 0.0)
                attack[e] += gain * p
        elif other_side >= 0:
            p_all = 1.0
            for f in empties:
                p_all *= other_p.get(f, 0.0)
            value = BLOCK[others] * p_all
            for e in empties:
                block[e] += value
    return attack, block


def _balance(
    hole_side: Sequence[int], side: int, own_p: Mapping[int, float], other_p: Mapping[int, float]
) -> float:
    """A static evaluation for ``side``: its live runs minus its opponents' live runs."""
    total = 0.0
    for window in WINDOWS:
        mine = 0
        others = 0
        p_own = 1.0
        p_other = 1.0
        for h in window:
            s = hole_side[h]
            if s == EMPTY:
                p_own *= own_p.get(h, 0.0)
                p_other *= other_p.get(h, 0.0)
            elif s == side:
                mine += 1
            else:
                others += 1
        if mine and not others:
            total += ATTACK[mine] * p_own
        elif others and not mine:
            total -= ATTACK[others] * p_other
    return total


def _next_opponent(table: _Table) -> int | None:
    """The seat of the next opponent to move after me (the one whose reply matters most)."""
    view = table.view
    n = len(table.players)
    for step in range(1, n):
        seat = (table.me + step) % n
        if table.seat_side[seat] != table.my_side and table.players[seat] not in view.out:
            return seat
    return None


def _look_ahead(table: _Table, style: Style, candidates: list[tuple[float, int, int]],
                rng: random.Random) -> tuple[int, int]:
    """Pick among candidate plays (score, card, hole) by sampling the unseen cards into the next
    opponent's hand, letting them answer greedily (or win), and evaluating the board after it."""
    numbers = table.layout.numbers
    opp = _next_opponent(table)
    if opp is None or not table.unseen:
        return candidates[0][1], candidates[0][2]
    opp_side = table.seat_side[opp]
    opp_count = min(table.view.hand_counts[opp], len(table.unseen))
    mine_p = {h: _my_reach(table, numbers[h]) for h in table.empty_holes}
    opp_p = {h: _opp_reach(table, numbers[h], True) for h in table.empty_holes}
    hands = [min(rng.sample(table.unseen, opp_count)) if opp_count else None for _ in range(style.samples)]
    best: tuple[float, int, int] | None = None
    for score, card, hole in candidates:
        board = list(table.hole_side)
        board[hole] = table.my_side
        own = dict(mine_p)
        other = dict(opp_p)
        del own[hole], other[hole]
        attack, block = _scores_for(board, opp_side, other, own)
        order = sorted(other, key=lambda h: (-(attack[h] + block[h]), h))
        wins = [numbers[h] for h in order if attack[h] >= ATTACK[5] - ATTACK[4]]
        threat = max(wins, default=-1)
        total = 0.0
        for low in hands:
            if low is None:
                total += _balance(board, table.my_side, own, other)
                continue
            if low <= threat:
                total -= ATTACK[5]
                continue
            reply = next((h for h in order if numbers[h] >= low), None)
            if reply is not None:
                board[reply] = opp_side
            total += _balance(board, table.my_side, own, other)
            if reply is not None:
                board[reply] = EMPTY
        value = total / len(hands) - style.waste_cost * (numbers[hole] - card) + 0.25 * score
        if best is None or value > best[0]:
            best = (value, card, hole)
    assert best is not None
    return best[1], best[2]


def _dead(table: _Table, card: int) -> bool:
    return card > table.highest_empty


def _basic(table: _Table, rng: random.Random) -> Action:
    view = table.view
    win = table.win_now()
    if win is not None:
        return win
    count = len(table.hand) + view.hidden_in_hand
    can_draw = view.deck_count > 0 and count < table.limit
    plays = [(c, table.layout.numbers[h]) for c in table.hand for h in table.empty_holes
             if table.layout.numbers[h] >= c]
    if can_draw and (not plays or count <= 1 or rng.random() < 0.4):
        return Draw(view.player)
    if plays:
        card, square = rng.choice(plays)
        return Play(view.player, card, square)
    return Discard(view.player, rng.choice(table.hand))


def _considered(table: _Table, style: Style, rng: random.Random) -> Action:
    view = table.view
    win = table.win_now()
    if win is not None:
        return win
    attack, block = _square_scores(table, style)
    numbers = table.layout.numbers
    plays: list[tuple[float, int, int]] = []  # (score, card, hole)
    for h in table.empty_holes:
        card = table.reachable(h)
        if card is None:
            continue
        score = attack[h] + style.defence * block[h] - style.waste_cost * (numbers[h] - card)
        plays.append((score, card, h))
    plays.sort(key=lambda p: (-p[0], numbers[p[2]], -p[1]))
    best = plays[0] if plays else None
    count = len(table.hand) + view.hidden_in_hand
    can_draw = view.deck_count > 0 and count < table.limit
    urgent = best is not None and best[0] >= BLOCK[4] * 0.2
    if can_draw and not urgent and (best is None or count < style.keep_cards or best[0] < style.modest):
        return Draw(view.player)
    dead = [c for c in table.hand if _dead(table, c)]
    if table.ruleset is Ruleset.CLASSIC and dead and not urgent and (best is None or count == table.limit):
        return Discard(view.player, max(dead))
    if best is not None:
        card, hole = best[1], best[2]
        if style.candidates and not urgent and len(plays) > 1:
            card, hole = _look_ahead(table, style, plays[: style.candidates], rng)
        return Play(view.player, card, numbers[hole])
    if can_draw:
        return Draw(view.player)
    # Nothing playable and no draw: classic discards; 5of99 cannot get here (a dead hand is out).
    return Discard(view.player, max(table.hand))


def choose_action(view: PlayerView, level: str, rng: random.Random) -> Action:
    """The computer's action for the seat ``view`` belongs to; it must be that seat's turn."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (expected one of {', '.join(LEVELS)})")
    if view.outcome is not None or view.to_move != view.player:
        raise ValueError(f"it is not {view.player}'s turn")
    table = _Table(view)
    if not table.hand and view.hidden_in_hand:
        raise ValueError("a computer player needs to know its own cards")
    if level == "basic":
        return _basic(table, rng)
    return _considered(table, STYLES[level], rng)
