"""A quick table, many seeds: does the stored record always equal what the players meant?

    .venv/bin/python benchmarks/quick_table.py [--seeds 200] [--first 1000] [--actions 120] [--profile issue]

Runs ``tests/quick_table_sim.py`` (an independent model of a table: pegs bouncing 0-3 times as
they go in, the next tap 0.1-0.6 s after a peg, readings delivered late) through the real referee
and store, for each pace profile below, and prints seeds run, mismatching games and the first
mismatch. The issue's pace is ``issue``; the others widen it beyond what the fix was written
against: more players, quicker hands, later sources, more bounce, and a pace no hand reaches. A
mismatching game either stored a wrong action (the failure that matters) or stopped at a prompt
the simulated players do not answer (the stored record a correct prefix of the intended one).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.quick_table_sim import Pace, run_game

PROFILES: dict[str, tuple[tuple[int, ...], Pace]] = {
    "issue": ((2, 3), Pace()),
    "six players": ((4, 6), Pace()),
    "late source": ((2, 4), Pace(latency=(0.02, 0.15))),
    "quick hands": ((2, 3), Pace(gap=(0.05, 0.4), to_peg=(0.2, 0.8))),
    "bouncy": ((2, 3), Pace(bounces=(0, 6), bounce_ms=(2.0, 60.0))),
    "slow window": ((2, 3), Pace(window=0.8)),
    # beyond a human hand: the next tap 0-0.3 s after a peg, pegs 0.1-0.5 s after PLAY, a late camera
    "inhuman+late": ((2, 3, 4, 6), Pace(gap=(0.0, 0.3), to_peg=(0.1, 0.5), latency=(0.05, 0.3))),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first", type=int, default=1000,
                        help="first seed (the suite uses 0-23: start above them for out-of-sample figures)")
    parser.add_argument("--actions", type=int, default=120,
                        help="intended actions a game (120: 56-60 of them PLAYs, the rest DRAWs)")
    parser.add_argument("--profile", action="append", choices=list(PROFILES), help="only these profiles")
    args = parser.parse_args()
    for name, (players, pace) in PROFILES.items():
        if args.profile and name not in args.profile:
            continue
        start = time.perf_counter()
        bad: list[str] = []
        actions = refused = wrong = 0
        fewest_plays = None
        for seed in range(args.first, args.first + args.seeds):
            result = run_game(seed, players=players[seed % len(players)], plays=args.actions, pace=pace)
            actions += len(result.intended)
            plays = sum(1 for a in result.intended if a["do"] == "play")
            fewest_plays = plays if fewest_plays is None else min(fewest_plays, plays)
            refused += len(result.refusals)
            if not result.matches:
                wrong += result.stored != result.intended[: len(result.stored)]  # not just stopped early
                first = next((i for i, (a, b) in enumerate(zip(result.intended, result.stored, strict=False))
                              if a != b), min(len(result.intended), len(result.stored)))
                bad.append(f"seed {seed} action {first}")
        took = time.perf_counter() - start
        print(f"{name:12s}: {args.seeds} seeds, {actions} actions (>= {fewest_plays} PLAYs a game), "
              f"mismatching games {len(bad)} "
              f"(a wrong action stored: {wrong}; the others stopped at a prompt), refused taps {refused}"
              f"  ({took:.1f} s)" + (f"  first: {bad[0]}" if bad else ""))


if __name__ == "__main__":
    main()
