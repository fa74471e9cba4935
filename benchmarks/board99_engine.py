"""Engine throughput and the cost of win detection.

    .venv/bin/python benchmarks/board99_engine.py [--games 300] [--seconds 2]

Prints random complete games per second (the engine alone: games of random legal actions are
generated first, then timed through checked ``apply`` and ``apply_unchecked``, both rulesets),
and the cost of win detection per placement: incremental from the last peg against a full-board
scan (microseconds and their ratio).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.board99 import Action, Discard, Draw, GameState, Play, apply, apply_unchecked, make_setup
from rules.board99.lines import run_through, winning_sides_brute


def random_legal(state: GameState, rng: random.Random) -> Action:
    who = state.to_move
    assert who is not None
    hand = state.known_hand(who)
    if state.can_draw(who) and (not hand or rng.random() < 0.5):
        return Draw(who)
    empty = state.empty_squares()
    plays = [(c, sq) for c in hand for sq in empty if sq >= c]
    if plays:
        card, square = rng.choice(plays)
        return Play(who, card, square)
    if state.can_draw(who):
        return Draw(who)
    return Discard(who, rng.choice(hand))


def random_games(n: int, ruleset: str) -> list[tuple[GameState, list[Action]]]:
    """Complete games of random legal actions (2 and 3 players), as start state + actions."""
    rng = random.Random(7)
    out = []
    for g in range(n):
        deck = list(range(100))
        rng.shuffle(deck)
        start = GameState.new(make_setup(["A", "B", "C"][: 2 + g % 2], ruleset=ruleset, deck=deck))
        state, actions = start, []
        while state.outcome is None:
            action = random_legal(state, rng)
            state, _ = apply_unchecked(state, action)
            actions.append(action)
        out.append((start, actions))
    return out


def replay_all(games: list[tuple[GameState, list[Action]]], checked: bool) -> float:
    step = apply if checked else apply_unchecked
    t0 = time.perf_counter()
    for start, actions in games:
        state = start
        for action in actions:
            state, _ = step(state, action)
        assert state.outcome is not None
    return time.perf_counter() - t0


def win_detection(samples: int) -> tuple[float, float]:
    rng = random.Random(3)
    boards = []
    for _ in range(samples):
        owner = [-1] * 100
        holes = rng.sample(range(100), rng.randrange(10, 60))
        for h in holes:
            owner[h] = rng.randrange(2)
        boards.append((owner, holes[-1]))
    t0 = time.perf_counter()
    for owner, hole in boards:
        run_through(owner, hole)
    incremental = (time.perf_counter() - t0) / samples
    t0 = time.perf_counter()
    for owner, _ in boards:
        winning_sides_brute(owner)
    brute = (time.perf_counter() - t0) / samples
    return incremental, brute


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    for ruleset in ("classic", "5of99"):
        games = random_games(args.games, ruleset)
        actions = sum(len(a) for _, a in games)
        for checked in (True, False):
            seconds = replay_all(games, checked)
            mode = "apply (checked)" if checked else "apply_unchecked"
            print(f"{ruleset:7s} {mode:16s}: {args.games / seconds:7.1f} random complete games/s, "
                  f"{actions / seconds:8.0f} actions/s ({actions / args.games:.0f} actions/game)")
    incremental, brute = win_detection(20000)
    print(f"win detection per placement: incremental {incremental * 1e6:.2f} us, "
          f"full-board scan {brute * 1e6:.2f} us, ratio {brute / incremental:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
