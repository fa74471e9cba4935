"""Contract success rate of the computer player against a random player, per variant.

    .venv/bin/python benchmarks/parlett_players.py [deals]

Each deal is dealt from a fixed seed (so runs are reproducible) in a trump drawn from the seed.
"smart vs random": one smart seat at a table of random players; "all smart": every seat smart;
"all random": the baseline. The rate is how often the seat(s) measured fulfil their contract.
The "unbidden" row is three players' Unbidden Ninety-Nine (the bid is the three cards kept).
"""

from __future__ import annotations

import random
import sys
import time

from rules.parlett.play import deal
from rules.parlett.players import play_out, random_bidder, random_player, smart_bidder, smart_player
from rules.parlett.scoring import Trump
from rules.parlett.variants import VARIANTS

TRUMPS = [Trump.NO_TRUMP, Trump.CLUBS, Trump.HEARTS, Trump.SPADES, Trump.DIAMONDS]


def rate(row: str, deals: int, smart_seats: set[int]) -> tuple[float, float]:
    unbidden = row == "unbidden"  # three players; the three cards still held at the end are the bid
    variant = VARIANTS["three" if unbidden else row]
    measured = made = 0
    baseline_measured = baseline_made = 0
    for seed in range(deals):
        rng = random.Random(seed)
        trump = TRUMPS[seed % len(TRUMPS)]
        state = deal(variant, seed=seed, dealer=seed % variant.players, trump=trump, unbidden=unbidden)
        bidders = [smart_bidder if s in smart_seats else random_bidder for s in range(variant.players)]
        players = [smart_player if s in smart_seats else random_player for s in range(variant.players)]
        final = play_out(state, bidders, players, rng)
        for seat in range(variant.players):
            bid = final.bid(seat)
            assert bid is not None
            ok = bid.fulfilled(final.tricks_won[seat])
            if seat in smart_seats:
                measured += 1
                made += ok
            else:
                baseline_measured += 1
                baseline_made += ok
    return (made / measured if measured else float("nan"),
            baseline_made / baseline_measured if baseline_measured else float("nan"))


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    print(f"contract success rate over {deals} seeded deals per row")
    header = ("variant", "smart seat", "random seats", "all smart", "all random", "ratio")
    print(f"{header[0]:9} {header[1]:>11} {header[2]:>13} {header[3]:>10} {header[4]:>11} {header[5]:>6}")
    for name in ("three", "four", "five", "two", "original", "unbidden"):
        start = time.process_time()
        one_smart, others = rate(name, deals, {0})
        n = VARIANTS["three" if name == "unbidden" else name].players
        all_smart, _ = rate(name, deals, set(range(n)))
        _, all_random = rate(name, deals, set())
        print(f"{name:9} {one_smart:11.1%} {others:13.1%} {all_smart:10.1%} {all_random:11.1%} "
              f"{one_smart / all_random:6.2f}   ({time.process_time() - start:.1f} s CPU)")


if __name__ == "__main__":
    main()
