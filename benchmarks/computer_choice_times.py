"""How long one computer player's choice takes, on this machine: is it worth a worker thread?

The Game of 99's AI (rules.board99.ai.choose_action) over seeded games of 3-4 computers alone,
and Ninety Nine's players (rules.count99.players) over seeded games of 2-5 computers, both rule
sets. Pure rules code: no Kivy, no store. Figures quoted in docs/referee.md ("Where computers think").
Run: .venv/bin/python benchmarks/computer_choice_times.py [board99 games] [count99 games per rule set]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def line(name: str, times: list[float]) -> str:
    times = sorted(times)
    return (f"{name}: {len(times)} choices, median {statistics.median(times):.2f} ms, "
            f"p95 {times[int(len(times) * 0.95)]:.2f} ms, max {times[-1]:.2f} ms")


def board99(games: int, level: str) -> list[float]:
    from rules import board99 as rules
    from rules.board99.ai import choose_action

    times: list[float] = []
    for seed in range(games):
        players = ["A", "B", "C", "D"][: 3 + seed % 2]
        deck = list(range(100))
        random.Random(seed).shuffle(deck)
        state = rules.GameState.new(rules.make_setup(players, layout="rows", deck=deck))
        for move in range(400):
            if state.outcome is not None:
                break
            start = time.perf_counter()
            action = choose_action(state.view_for(state.to_move), level, random.Random(seed * 1000 + move))
            times.append((time.perf_counter() - start) * 1000)
            state, _ = rules.apply(state, action)
    return times


def count99(games: int, level: str) -> list[float]:
    from rules.count99.deal import CardGame
    from rules.count99.players import make_player
    from rules.count99.table import Setup, Variant

    times: list[float] = []
    for variant in Variant:
        for seed in range(games):
            players = 2 + seed % 4
            game = CardGame(Setup(variant, tuple(f"c{i}" for i in range(players)), hand_size=3), seed=seed)
            bots = {i: make_player(level, seed * 101 + i) for i in range(players)}
            game.advance()
            for _ in range(3000):
                if game.table.over:
                    break
                seat = game.table.turn
                start = time.perf_counter()
                slot, choice = bots[seat].choose(game.view(seat))
                times.append((time.perf_counter() - start) * 1000)
                game.play(seat, slot, choice)
                while game.can_draw(seat):
                    game.draw(seat)
                game.advance()
    return times


def main() -> None:
    boards = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    counts = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    for level in ("intermediate", "advanced"):
        print(line(f"Game of 99, {level}, {boards} games", board99(boards, level)))
    print(line(f"Ninety Nine, hard, {counts} games per rule set", count99(counts, "hard")))


if __name__ == "__main__":
    main()
