"""Strength of the computer levels: seeded two-player classic games, alternating who starts.

    .venv/bin/python benchmarks/board99_strength.py [--games 400] [--pairs advanced:intermediate,...]

Prints each pairing's score (wins + half the draws) / games for the first-named level, and the
first level's decision times (median and worst, in ms), over all decisions and over those that
play a card (where the advanced level looks ahead): wall-clock time, and the CPU time the decision
itself used (``time.thread_time``), which waiting for a core on a loaded machine does not inflate.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.board99 import GameState, Play, Ruleset, apply, make_setup
from rules.board99.ai import choose_action


def play_game(levels: dict[str, str], first: str, seed: int, ruleset: str, layout: str,
              timings: dict[str, list[float]]) -> GameState:
    rng = random.Random(seed)
    deck = list(range(100))
    rng.shuffle(deck)
    players = list(levels)
    setup = make_setup(players, ruleset=ruleset, layout=layout, first=first, deck=deck)
    state = GameState.new(setup)
    ai_rng = random.Random(seed + 1)
    while state.outcome is None:
        who = state.to_move
        assert who is not None
        view = state.view_for(who)
        t0, c0 = time.perf_counter(), time.thread_time()
        action = choose_action(view, levels[who], ai_rng)
        elapsed, cpu = time.perf_counter() - t0, time.thread_time() - c0
        timings[levels[who]].append(elapsed)
        timings[levels[who] + ":cpu"].append(cpu)
        if isinstance(action, Play):
            timings[levels[who] + ":play"].append(elapsed)
            timings[levels[who] + ":play:cpu"].append(cpu)
        state, _ = apply(state, action)
    return state


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--pairs", default="advanced:intermediate,intermediate:basic")
    parser.add_argument("--ruleset", default=Ruleset.CLASSIC.value)
    parser.add_argument("--layout", default="spiral-out")
    args = parser.parse_args()
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        timings: dict[str, list[float]] = {f"{level}{part}": [] for level in (a, b)
                                           for part in ("", ":play", ":cpu", ":play:cpu")}
        score = 0.0
        draws = 0
        for g in range(args.games):
            levels = {"A": a, "B": b}
            first = "A" if g % 2 == 0 else "B"
            state = play_game(levels, first, 1000 + g, args.ruleset, args.layout, timings)
            assert state.outcome is not None
            if state.outcome.status == "tie":
                score += 0.5
                draws += 1
            elif "A" in state.outcome.winners:
                score += 1
        times = sorted(timings[a])
        print(f"{a} vs {b} ({args.ruleset}, {args.layout}, {args.games} games): "
              f"score {score / args.games:.3f} (draws {draws})")
        print(f"  {a} decision time: median {statistics.median(times) * 1000:.2f} ms, "
              f"worst {times[-1] * 1000:.2f} ms over {len(times)} decisions")
        plays = sorted(timings[a + ":play"])
        print(f"  {a} decisions that play a card: median {statistics.median(plays) * 1000:.2f} ms, "
              f"worst {plays[-1] * 1000:.2f} ms over {len(plays)}")
        for part, what in ((":cpu", "decision"), (":play:cpu", "decision that plays a card")):
            cpu = sorted(timings[a + part])
            print(f"  {a} CPU time per {what}: median {statistics.median(cpu) * 1000:.2f} ms, "
                  f"worst {cpu[-1] * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
