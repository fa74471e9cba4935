"""The app's memory after a 100-action board game: resident set size before and after, in MiB.

Plays 100 actions (draws and plays, pegs put in on the simulated board, each through the stability
window, the referee, the SQLite store and the game screen) in the real app, headless. The software
GL renderer of a headless machine (llvmpipe) grows its own buffers over the first ~150 frames, so the
script draws 300 frames first and reports the Python heap (tracemalloc) beside the resident size.
Run: .venv/bin/python benchmarks/app_memory.py [actions]
"""

from __future__ import annotations

import gc
import sys
import tracemalloc

from app_common import Bench, frames, headless


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    actions = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    headless()
    bench = Bench()
    from kivy.core.window import Window

    start_rss = rss_mib()
    for _ in range(300):  # let the GL driver reach its steady state
        Window.canvas.ask_update()
        frames(1)
    tracemalloc.start()
    gc.collect()
    before = rss_mib()
    heap_before = tracemalloc.get_traced_memory()[0]
    for n in range(actions):
        if bench.action(n) is not None:
            bench.screen.pump()
            frames(1)
        bench.settle()
    game = bench.screen.game
    assert len(game.actions) == actions, (len(game.actions), bench.screen.referee.prompt)
    gc.collect()
    after = rss_mib()
    heap_growth = (tracemalloc.get_traced_memory()[0] - heap_before) / 1024
    print(f"memory: resident {start_rss:.0f} MiB at start, {before:.0f} MiB after the GL warm-up, "
          f"{after:.0f} MiB after a {actions}-action game ({after - before:+.1f} MiB); Python heap "
          f"{heap_growth:+.0f} KiB over the game; {len(game.state.pegs)} pegs on the board")


if __name__ == "__main__":
    main()
