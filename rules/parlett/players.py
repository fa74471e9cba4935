"""Computer players: choose bid cards, then play to win exactly that many tricks.

A player sees only a :class:`SeatView` (its own hand, the trick, what has been played, its own
bid, the trump and tricks won, the two-player dummy's face-up hand), never the whole
:class:`PlayState`, so hidden cards cannot leak (nor the dummy's face-down bid).

Bidding: every choice of three bid cards (220 for twelve cards) leaves nine to play; a simple
hand evaluation (aces, guarded kings, trump length) estimates their tricks and the choice whose bid
is nearest the estimate wins. Play: while tricks are still needed, win cheaply when a card is sure
to win, otherwise keep strength; once the bid is reached, duck with the highest card that loses,
so dangerous cards are shed while it is safe.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations

from rules.parlett.bids import bid_from_suits
from rules.parlett.cards import Card
from rules.parlett.play import PlayState
from rules.parlett.scoring import Trump
from rules.parlett.variants import VARIANTS, Variant


@dataclass(frozen=True)
class SeatView:
    """What one seat may know while playing (for the dummy: its controller sees it too)."""

    seat: int
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    played: tuple[Card, ...]  # every card seen in finished tricks
    target: frozenset[int]  # the trick counts that fulfil this seat's bid
    won: int
    tricks_left: int  # including the current trick
    seats_to_play_after: int
    state_rules: PlayState  # used only for card semantics (suit_of, strength, winner) of visible cards
    playing_for: int = -1  # the seat whose contract the play serves: itself, or the dummy's controller
    exposed: tuple[Card, ...] = ()  # cards face up on the table: the two-player dummy's hand
    unbidden: bool = False  # Unbidden Ninety-Nine: the three cards still held at the end are the bid


def view_for(state: PlayState, seat: int) -> SeatView:
    """What the player deciding for ``seat`` may know. The two-player dummy's bid cards "remain face
    down and unseen till end of play" (the seed), so whoever plays from the dummy sees its hand but
    not its bid: his view carries his own contract (target, tricks won) and he plays the dummy's
    cards for it. The dummy's hand is face up for both live players once the bids are made."""
    me = state.controller(seat)
    bid = state.bid(me)
    target = bid.tricks if bid is not None else frozenset({0})
    played = tuple(c for trick in state.played for _, c in trick)
    order = state.order()
    after = len(order) - len(state.trick) - 1
    exposed = state.hands[-1] if state.variant.has_dummy and not state.bidding else ()
    return SeatView(seat, state.hands[seat], state.legal() if state.to_play == seat else (), state.trick,
                    played, target, state.tricks_won[me], state.variant.tricks - len(state.played), after,
                    _semantics_only(state), me, exposed, state.unbidden)


def _semantics_only(state: PlayState) -> PlayState:
    """A copy with every hand emptied: the view may ask about card rules, not about hidden cards."""
    empty = tuple(() for _ in state.hands)
    return replace(state, hands=empty, bid_cards=tuple(() for _ in state.bid_cards))


# -- bidding ----------------------------------------------------------------------------------------
def estimate_tricks(cards: tuple[Card, ...], trump: Trump, variant: Variant, rules: PlayState) -> float:
    """A rough number of tricks the cards will take: the hand's strength relative to an average
    hand's, times an average hand's share of the tricks (so a table's bids add up about right).
    Fewer cards than a full deal's (later in Unbidden play) are compared with that part of an
    average hand and of the tricks."""
    raw = hand_strength(cards, variant, rules)
    part = len(cards) / variant.tricks
    average = _average_strength(variant.name, trump, rules.turn_up) * part
    share = variant.tricks / variant.hands * part
    linear = share * raw / average if average > 0 else share
    # strong hands take fewer tricks than their cards promise (the others duck under them), weak
    # hands a few more; the factors come from all-computer play (benchmarks/parlett_players.py)
    return share + (linear - share) * (0.5 if linear > share else 0.75)


@cache
def _average_strength(variant_name: str, trump: Trump, turn_up: Card | None) -> float:
    """Mean hand strength of 300 random hands (a fixed seed: the same every run)."""
    variant = VARIANTS[variant_name]
    rng = random.Random(99)
    rules = PlayState(variant, trump, 0, (), (), turn_up)
    pack = [c for c in variant.pack if not c.is_joker]
    size = variant.tricks
    total = sum(hand_strength(tuple(rng.sample(pack, size)), variant, rules) for _ in range(300))
    return total / 300


def hand_strength(cards: tuple[Card, ...], variant: Variant, rules: PlayState) -> float:
    """Points for cards that should win a trick: aces, guarded kings and queens, trump length."""
    by_suit: dict[str, list[int]] = {}
    for card in cards:
        by_suit.setdefault(rules.suit_of(card), []).append(rules.strength(card))
    trump_suit = rules.trump_suit()
    top = max(c.rank for c in variant.pack)
    total = 0.0
    for suit, strengths in by_suit.items():
        strengths.sort(reverse=True)
        length = len(strengths)
        is_trump = suit == trump_suit
        high = max(strengths)
        ranks_top = top if suit != "nines" else 4
        for i, s in enumerate(strengths):
            gap = ranks_top - s  # 0 for the ace
            if gap <= i:  # a card guarded by enough cards in the suit
                total += 0.95 if gap == 0 else 0.55 if gap == 1 else 0.3
        if is_trump and length > 2:
            total += 0.6 * (length - 2)
        elif not is_trump and trump_suit is None and length > 4 and high >= ranks_top - 1:
            total += 0.4 * (length - 4)
    return total


def choose_bid_cards(hand: tuple[Card, ...], rules: PlayState) -> tuple[Card, ...]:
    """Three cards to lay aside whose bid is nearest what the other nine should take."""
    variant = rules.variant
    best: tuple[float, tuple[Card, ...]] | None = None
    for chosen in combinations(hand, 3):
        rest = tuple(c for c in hand if c not in chosen)
        expected = estimate_tricks(rest, rules.trump, variant, rules)
        bid = bid_from_suits("".join(rules.natural(c).suit.value for c in chosen), variant)  # type: ignore[union-attr]
        miss = min(abs(expected - t) for t in bid.tricks)
        # prefer laying aside weak cards, which would only get in the way
        cost = miss + 0.01 * sum(rules.strength(c) for c in chosen)
        if best is None or cost < best[0]:
            best = (cost, chosen)
    assert best is not None
    return best[1]


# -- play -------------------------------------------------------------------------------------------
def _winning_now(view: SeatView, card: Card) -> bool:
    rules = view.state_rules
    if not view.trick:
        return True
    return rules.trick_winner((*view.trick, (view.seat, card))) == view.seat


def _is_master(view: SeatView, card: Card) -> bool:
    """No unseen card of its suit (or trump) can beat it."""
    rules = view.state_rules
    suit = rules.suit_of(card)
    seen = set(view.played) | set(view.hand) | set(view.exposed) | {c for _, c in view.trick}
    for other in rules.variant.pack:
        if other in seen or other.is_joker:
            continue
        if rules.suit_of(other) == suit and rules.strength(other) > rules.strength(card):
            return False
    return True


def unbidden_plan(view: SeatView) -> tuple[tuple[Card, ...], frozenset[int]]:
    """Unbidden: the three cards to keep to the end (they will be the bid) and the trick counts
    that bid allows, chosen like bid cards: the bid nearest the tricks won so far plus what the
    cards to be played should take. Recomputed at every card, from what the seat can see."""
    rules = view.state_rules
    best: tuple[float, tuple[Card, ...], frozenset[int]] | None = None
    for keep in combinations(view.hand, 3):
        rest = tuple(c for c in view.hand if c not in keep)
        expected = view.won + (estimate_tricks(rest, rules.trump, rules.variant, rules) if rest else 0.0)
        bid = bid_from_suits("".join(rules.natural(c).suit.value for c in keep), rules.variant)  # type: ignore[union-attr]
        reachable = [t for t in bid.tricks if view.won <= t <= view.won + len(rest)]
        miss = min((abs(expected - t) for t in reachable), default=99.0)
        cost = miss + 0.01 * sum(rules.strength(c) for c in keep)
        if best is None or cost < best[0]:
            best = (cost, keep, bid.tricks)
    assert best is not None
    return best[1], best[2]


def choose_card(view: SeatView) -> Card:
    if view.playing_for not in (-1, view.seat):
        return _play_from_dummy(view)
    if view.unbidden and len(view.hand) >= 3:
        keep, planned = unbidden_plan(view)
        playable = tuple(c for c in view.legal if c not in keep) or view.legal
        view = replace(view, legal=playable, target=planned, unbidden=False)
    rules = view.state_rules
    legal = sorted(view.legal, key=rules.strength)
    target = max((t for t in view.target if t >= view.won), default=min(view.target))
    need = target - view.won
    if need <= 0:  # duck: the highest card that does not win, else shed the highest
        losing = [c for c in legal if not _winning_now(view, c)]
        if view.trick and losing:
            return losing[-1]
        if not view.trick:  # lead low from the shortest suit: a void lets winners be discarded later
            count: dict[str, int] = {}
            for c in view.hand:
                count[rules.suit_of(c)] = count.get(rules.suit_of(c), 0) + 1
            return min(legal, key=lambda c: (_is_master(view, c), count[rules.suit_of(c)], rules.strength(c)))
        return legal[-1]
    if need >= view.tricks_left:  # every trick needed: play the strongest
        winners = [c for c in legal if _winning_now(view, c)]
        return (winners or legal)[-1 if view.seats_to_play_after else 0]
    if not view.trick:  # lead a master card if there is one, else a low card
        masters = [c for c in legal if _is_master(view, c)]
        return masters[-1] if masters else legal[0]
    winners = [c for c in legal if _winning_now(view, c)]
    if winners:
        if view.seats_to_play_after == 0:
            return winners[0]  # last to play: the cheapest winner
        safe = [c for c in winners if _is_master(view, c)]
        if safe:
            return safe[0]
    return legal[0]


def _play_from_dummy(view: SeatView) -> Card:
    """The dummy's card for the live player playing it, who does not know the dummy's bid: the
    dummy keeps out of the way while he still needs tricks (lead low so he can win third; shed its
    highest card that loses) and takes the tricks he no longer wants once his bid is made."""
    rules = view.state_rules
    legal = sorted(view.legal, key=rules.strength)
    target = max((t for t in view.target if t >= view.won), default=min(view.target))
    if not view.trick:
        return legal[0] if target > view.won else legal[-1]
    losers = [c for c in legal if not _winning_now(view, c)]
    if target > view.won:
        return losers[-1] if losers else legal[0]
    winners = [c for c in legal if c not in losers]
    if not winners:
        return legal[0]
    return winners[0] if view.seats_to_play_after == 0 else winners[-1]


# -- whole deals for practice and the benchmark ---------------------------------------------------
Bidder = Callable[[tuple[Card, ...], PlayState, random.Random], tuple[Card, ...]]
Player = Callable[[SeatView, random.Random], Card]


def smart_bidder(hand: tuple[Card, ...], rules: PlayState, rng: random.Random) -> tuple[Card, ...]:
    return choose_bid_cards(hand, rules)


def smart_player(view: SeatView, rng: random.Random) -> Card:
    return choose_card(view)


def random_bidder(hand: tuple[Card, ...], rules: PlayState, rng: random.Random) -> tuple[Card, ...]:
    return tuple(rng.sample(hand, 3))


def random_player(view: SeatView, rng: random.Random) -> Card:
    return rng.choice(view.legal)


def play_out(state: PlayState, bidders: list[Bidder], players: list[Player], rng: random.Random) -> PlayState:
    """Lay aside bid cards for every hand still to bid, then play every trick."""
    for seat in range(state.seats):
        if state.bid_cards[seat] is None:
            controller = state.controller(seat)
            state = state.lay_aside(seat, bidders[controller](state.hands[seat], _semantics_only(state), rng))
    while not state.done:
        turn = state.to_play
        assert turn is not None
        state = state.play(players[state.controller(turn)](view_for(state, turn), rng))
    return state
