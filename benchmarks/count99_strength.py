"""How often the hard computer player beats the easy one at Ninety Nine, over seeded games.

    .venv/bin/python benchmarks/count99_strength.py [--games 400] [--players 2] [--hand-size 3]

Seats alternate between levels (and who sits first rotates with the seed), so neither level
gains from seat order. Prints the win rate of each level per variant; 1/players is chance, and
how many rounds were called off at the 200-card limit (docs/count99.md, "Endless rounds").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.count99.cards import Variant
from rules.count99.deal import CardGame
from rules.count99.players import make_player, play_until_human
from rules.count99.table import ROUND_PLAY_LIMIT, Reason, RoundEnded, Setup


def match(variant: Variant, players: int, seed: int, hand_size: int = 3) -> tuple[str, int]:
    """The winning level and how many rounds were called off at the card limit."""
    levels = ["hard" if (i + seed) % 2 == 0 else "easy" for i in range(players)]
    setup = Setup(variant, tuple(f"{lvl}{i}" for i, lvl in enumerate(levels)), hand_size=hand_size)
    game = CardGame(setup, seed=seed)
    computers = {i: make_player(lvl, seed * 31 + i) for i, lvl in enumerate(levels)}
    events = play_until_human(game, computers)
    assert game.table.winner is not None
    called_off = sum(1 for e in events if isinstance(e, RoundEnded) and e.reason is Reason.LONG_ROUND)
    return levels[game.table.winner], called_off


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hand-size", type=int, default=3)
    args = parser.parse_args()
    for variant in Variant:
        start = time.process_time()
        wins = {"hard": 0, "easy": 0}
        called_off = 0
        for seed in range(args.games):
            winner, long_rounds = match(variant, args.players, seed, args.hand_size)
            wins[winner] += 1
            called_off += long_rounds
        seats = {"hard": 0, "easy": 0}
        for seed in range(args.games):
            for i in range(args.players):
                seats["hard" if (i + seed) % 2 == 0 else "easy"] += 1
        rate = wins["hard"] / args.games
        share = seats["hard"] / (seats["hard"] + seats["easy"])
        print(
            f"{variant.value}: {args.players} players, {args.games} games: hard won {wins['hard']} "
            f"({rate:.1%}), easy won {wins['easy']}; hard held {share:.0%} of seats; "
            f"rounds called off at {ROUND_PLAY_LIMIT} cards: {called_off}; "
            f"{time.process_time() - start:.1f} s CPU"
        )


if __name__ == "__main__":
    main()
