"""From a stable board reading to the verdict on screen: referee + SQLite commit + UI refresh + frame.

Drives the real game screen headless (800x480 offscreen). For each play the peg goes in, the fake
clock passes the stability window, and the time is measured from the moment the screen's pump hands
the settled board to the referee until the next frame has been drawn with the new peg.
Run: .venv/bin/python benchmarks/app_verdict_latency.py [plays]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from app_common import Bench, frames, headless


def main() -> None:
    plays = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    headless()
    bench = Bench()
    from kivy.graphics.opengl import GL_RENDERER, glFinish, glGetString

    timings: list[float] = []
    python_side: list[float] = []
    n = 0
    while len(timings) < plays and bench.screen.game.state.outcome is None:
        hole = bench.action(n)
        n += 1
        if hole is None:
            continue
        bench.screen.pump()  # the reading enters the stability window
        frames(1)
        bench.now += 0.5
        before = len(bench.screen.game.actions)
        glFinish()  # the previous frame is fully drawn: its cost is not this verdict's
        start = time.perf_counter()
        bench.screen.pump()  # stable: referee judges, store commits, screen refreshes
        middle = time.perf_counter()
        frames(1)  # the frame that shows it
        glFinish()  # ...and its pixels are done
        end = time.perf_counter()
        timings.append((end - start) * 1000)
        python_side.append((middle - start) * 1000)
        assert len(bench.screen.game.actions) == before + 1, bench.screen.referee.prompt
        assert hole in bench.screen.board.pegs
    idle: list[float] = []
    from kivy.core.window import Window

    for _ in range(20):
        Window.canvas.ask_update()
        glFinish()
        start = time.perf_counter()
        frames(1)
        glFinish()
        idle.append((time.perf_counter() - start) * 1000)
    timings.sort()
    load = os.getloadavg()[0]
    print(f"renderer: {glGetString(GL_RENDERER).decode()}, window 800x480, "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    print(f"referee + SQLite commit + screen update (before the frame): median "
          f"{statistics.median(python_side):.1f} ms")
    print(f"one frame with nothing new (drawing cost of this GL): median {statistics.median(idle):.1f} ms")
    print(f"verdict on screen: {len(timings)} plays, median {statistics.median(timings):.1f} ms, "
          f"p90 {timings[int(len(timings) * 0.9) - 1]:.1f} ms, worst {timings[-1]:.1f} ms (target < 50 ms)")


if __name__ == "__main__":
    main()
