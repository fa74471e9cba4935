"""The two-player dummy: how often does it make its contract, played with and without sight of its bid?

    .venv/bin/python benchmarks/parlett_dummy.py [deals]      (default 1000; seeds 0..deals-1)

Two computer players (the smart bidder and player of ``rules.parlett.players``) play seeded
two-player deals, trumps cycling NT/C/H/S/D, the dealer alternating. The dummy's bid is its top
three cards, as the seed deals it. Two ways of playing the dummy are compared on the same deals:

- "sighted" (before 7ba87a7): whoever played the dummy saw its face-down bid and played the
  dummy's cards to make the dummy's contract; no seat was shown the dummy's face-up hand.
- "fair" (now, ``players.view_for``): the dummy's bid cards stay face down and unseen, as the seed
  says, so its controller plays the dummy's cards for his own contract; both live players see the
  dummy's hand (face up once the bids are made).

Printed per way: the dummy's contract rate, the live players' rate, and the deals where the dummy
outscores both live players in trick + contract points (the dummy rule's "the dummy wins").
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.parlett.play import PlayState, deal
from rules.parlett.players import SeatView, _semantics_only, choose_bid_cards, choose_card, view_for
from rules.parlett.scoring import Trump
from rules.parlett.variants import VARIANTS

TRUMPS = [Trump.NO_TRUMP, Trump.CLUBS, Trump.HEARTS, Trump.SPADES, Trump.DIAMONDS]
CONTRACT = {3: 10, 2: 20, 1: 30}


def sighted_view(state: PlayState, seat: int) -> SeatView:
    """The view as it was before the dummy's bid was hidden: every seat, the dummy included, plays
    for its own bid, and nothing marks the dummy's hand as face up."""
    bid = state.bid(seat)
    target = bid.tricks if bid is not None else frozenset({0})
    played = tuple(c for trick in state.played for _, c in trick)
    after = len(state.order()) - len(state.trick) - 1
    return SeatView(seat, state.hands[seat], state.legal() if state.to_play == seat else (), state.trick,
                    played, target, state.tricks_won[seat], state.variant.tricks - len(state.played), after,
                    _semantics_only(state))


def play(seed: int, sighted: bool) -> PlayState:
    variant = VARIANTS["two"]
    state = deal(variant, seed=seed, dealer=seed % 2, trump=TRUMPS[seed % len(TRUMPS)])
    for seat in range(state.seats):
        if state.bid_cards[seat] is None:
            state = state.lay_aside(seat, choose_bid_cards(state.hands[seat], _semantics_only(state)))
    while not state.done:
        turn = state.to_play
        assert turn is not None
        view = sighted_view(state, turn) if sighted else view_for(state, turn)
        state = state.play(choose_card(view))
    return state


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"two players + dummy, {deals} seeded deals (seeds 0..{deals - 1}), both live players the computer")
    for name, sighted in (("sighted (before)", True), ("fair (now)", False)):
        start = time.process_time()
        dummy_made = live_made = dummy_top = 0
        for seed in range(deals):
            final = play(seed, sighted)
            made = []
            for seat in range(3):
                bid = final.bid(seat)
                assert bid is not None
                made.append(bid.fulfilled(final.tricks_won[seat]))
            dummy_made += made[2]
            live_made += made[0] + made[1]
            bonus = CONTRACT.get(sum(made), 0)
            points = [final.tricks_won[s] + (bonus if made[s] else 0) for s in range(3)]
            dummy_top += points[2] > max(points[0], points[1])
        print(f"{name:17} dummy made its contract {dummy_made / deals:6.1%}   live players "
              f"{live_made / (2 * deals):6.1%}   dummy top scorer {dummy_top / deals:6.1%}   "
              f"({time.process_time() - start:.1f} s CPU)")


if __name__ == "__main__":
    main()
