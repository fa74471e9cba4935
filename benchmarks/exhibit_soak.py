"""The all-day soak of exhibitor mode (issue 15): the attract loop and simulated visitors, for hours.

    nice -n 5 .venv/bin/python benchmarks/exhibit_soak.py --hours 8            # accelerated table time
    nice -n 5 .venv/bin/python benchmarks/exhibit_soak.py --real --minutes 30  # everything at real speed

The whole app runs headless (800x480 offscreen, Kivy's frame cap 60 fps as on the table) in
exhibitor mode, built by the shell's own hook: the attract loop, the visitor's game screen
(app/ui/exhibit/visitor.py when it is there; otherwise a stand-in screen, and the report says so),
the staff screen. Simulated visitors arrive at random (seeded): a tap on the loop starts a game,
they tap about on it for a while, then leave (the game's own way home), go idle (the controller's
"Still there?" and its timeout) or finish (``on_end("finished")``).

What runs at which speed:

* ``--real``: everything. One controller tick per frame on the real clock.
* accelerated (default): Kivy's frames, drawing, SQLite, the referee's work and the Python heap run
  for real, one frame after another at up to 60 fps; *table time* (the demos' pace, the stability
  window, idle and "Still there?" timers, visitors' behaviour) advances ``--step`` seconds per
  frame (0.25 s: 15x real time at 60 fps), so 8 hours of table time take about half an hour or more.

Warm-up: the first full loop (all three games) and three visitors, one of each kind (leaves, goes
idle and meets "Still there?", finishes), back on the loop, plus ``--warmup-hours`` if given: every
path has run once before memory is measured.

Memory, measured the same way each time (benchmarks/soak_memory.py): RSS read right after the
loop's ``malloc_trim`` at each demo change after the warm-up (the same phase of every cycle: the
old demo dropped, the next not built yet). Reported as ``rss_at_demo_change``: the number of
samples, first and last, the medians of the first and last tenth, and a least-squares line through
all of them: its slope (MiB per hour of table time), its values at the first and last sample and
their difference ``fit_growth`` (**the goal: under 5 MiB**), and the spread around it. RSS at start,
after the warm-up and at the end (single readings at arbitrary frames, which move by 10-30 MiB with
the demo on show) and every 5 real minutes are reported too. ``--diagnose`` adds, at each demo
change, malloc's bytes in use and free (glibc ``mallinfo2``, all arenas), anonymous RSS, memory
mappings, Python's allocated blocks and objects, threads and Kivy's Cache categories (all of them in
the ``--json`` file); ``--tracemalloc`` the Python allocations that grew from warm-up to end.

Also reported: frames later than twice the
frame interval (at real speed these are dropped frames; accelerated, they are frames that did more
table time's work than a real frame would); WARNING-or-worse log records (goal: none), the first
few quoted; the family store's and the scratch store's file sizes and game counts, start and end.
All figures are in-sample: one seeded run on this machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from soak_memory import PhaseSamples, peak_mib, rss_mib  # noqa: E402

FRAME = 1 / 60


def headless() -> None:
    """Offscreen Kivy with the table's frame cap (before kivy is imported), an empty data directory."""
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG"):
        os.environ.setdefault(name, "1")
    os.environ["KCFG_GRAPHICS_MAXFPS"] = "60"
    os.environ["TABLE99_DATA_DIR"] = tempfile.mkdtemp(prefix="table99-soak-")


def db_size(path: Path) -> tuple[int, int]:
    """The database file's bytes and its write-ahead log's (SQLite folds the log back into the file
    every 1000 pages, so the log alone comes and goes)."""
    wal = Path(f"{path}-wal")
    return path.stat().st_size, wal.stat().st_size if wal.exists() else 0


class Problems(logging.Handler):
    """Counts WARNING-or-worse records anywhere (the goal is none) and keeps the first few."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.first) < 8:
            self.first.append(f"{record.levelname} {record.name}: {record.getMessage()[:160]}")


class Clock:
    def __init__(self, real: bool) -> None:
        self.real = real
        self.now = 0.0
        self.start = time.monotonic()

    def __call__(self) -> float:
        return time.monotonic() - self.start if self.real else self.now


def make_standin(ctx: Any, scratch: Any, on_end: Any) -> Any:
    """The visitor's screen when app/ui/exhibit/visitor.py is not there yet: a game on the scratch
    store, started and dropped, so the controller's side of the seam is soaked all the same."""
    from kivy.uix.label import Label
    from kivy.uix.screenmanager import Screen

    class StandIn(Screen):
        def __init__(self) -> None:
            super().__init__(name="exhibit_visitor")
            self.add_widget(Label(text="visitor's game (stand-in)"))
            self.game_id: int | None = None

        def start(self) -> None:
            self.game_id = scratch.create_game("board99", {"players": ["You", "Computer"]}, "visitor")

        def move(self) -> None:
            if self.game_id is not None:
                scratch.append(self.game_id, {"by": "You", "do": "draw"})

        def stop(self) -> None:
            if self.game_id is not None:
                scratch.delete_game(self.game_id)
                self.game_id = None

    return StandIn()


class Visitors:
    """Seeded visitors: arrive, tap about, then leave, go idle or finish."""

    def __init__(self, app: Any, clock: Clock, rng: random.Random, mean_gap: float) -> None:
        self.app, self.clock, self.rng, self.mean_gap = app, clock, rng, mean_gap
        self.next_arrival = clock() + rng.expovariate(1 / mean_gap)
        self.plan: str | None = None
        self.until = 0.0
        self.next_tap = 0.0
        self.outcomes = {"leave": 0, "idle": 0, "finish": 0}
        self.arrived = 0
        self.forced: list[str] = []  # plans for the next visitors, before the seeded choice (warm-up)
        self.last_plan = ""

    def tap(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()

    def step(self) -> None:
        controller = self.app.exhibit_controller
        manager = self.app.ctx.manager
        now = self.clock()
        if manager.current == "home":
            self.plan = None
            if now >= self.next_arrival:
                self.arrived += 1
                self.tap(400, 300)  # a touch on the loop: a visitor's game
                self.plan = self.rng.choices(["leave", "idle", "finish"], [4, 3, 3])[0]
                if self.forced:
                    self.plan = self.forced.pop(0)
                self.last_plan = self.plan
                self.outcomes[self.plan] += 1
                self.until = now + self.rng.uniform(20, 150)
                self.next_tap = now + self.rng.uniform(2, 8)
                self.next_arrival = now + self.rng.expovariate(1 / self.mean_gap)
            return
        if manager.current != "exhibit_visitor" or self.plan is None:
            return
        if now < self.until:
            if now >= self.next_tap:  # a few moves: taps about the visitor's screen
                self.tap(self.rng.uniform(20, 780), self.rng.uniform(20, 460))
                move = getattr(controller.visitor, "move", None)
                if move is not None:
                    move()
                self.next_tap = now + self.rng.uniform(2, 8)
            return
        if self.plan == "leave":
            controller.visitor_ended("visitor")
        elif self.plan == "finish":
            controller.visitor_ended("finished")
        # "idle": no more touches; the controller's "Still there?" and timeout take it back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hours", type=float, default=8.0, help="table time to run (accelerated)")
    parser.add_argument("--step", type=float, default=0.25, help="table seconds per frame (accelerated)")
    parser.add_argument("--real", action="store_true", help="everything at real speed")
    parser.add_argument("--minutes", type=float, default=30.0, help="real minutes (with --real)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--warmup-hours", type=float, default=0.0,
                        help="table time to run after the first loop and visitor before measuring")
    parser.add_argument("--diagnose", action="store_true",
                        help="at each demo change also record malloc's in-use/free bytes, mappings, "
                             "Python blocks, threads and Kivy caches (benchmarks/soak_memory.py)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="trace Python allocations; print the top growth from warm-up to end")
    args = parser.parse_args()
    headless()
    problems = Problems()
    logging.getLogger().addHandler(problems)
    logging.getLogger().setLevel(logging.INFO)
    rss_start = rss_mib()
    if args.tracemalloc:
        tracemalloc.start(8)
    table_zero: list[float] = [0.0]
    phase = PhaseSamples(lambda: (clock() - table_zero[0]) / 3600, diagnose=args.diagnose)
    phase.install()

    from dataclasses import replace

    from kivy.base import EventLoop
    from kivy.core.window import Window

    from app.config import Config
    from app.exhibit.settings import exhibit_defaults
    from app.paths import default_database
    from app.store import GameStore
    from app.ui.exhibit import controller as exhibit_controller
    from app.ui.shell import Table99App

    kivy_log = logging.getLogger("kivy")
    if not kivy_log.propagate:  # Kivy's own logger may not pass records on to the root
        kivy_log.addHandler(problems)
    EventLoop.ensure_window()
    Window.size = (800, 480)
    try:
        import app.ui.exhibit.visitor

        visitor_screen = "app/ui/exhibit/visitor.py"
    except ModuleNotFoundError:
        exhibit_controller.make_visitor = make_standin  # type: ignore[assignment]
        visitor_screen = "a stand-in (app/ui/exhibit/visitor.py is not on this branch yet)"
    config = replace(Config(), exhibit={**exhibit_defaults(), "enabled": True, "pin": "24680",
                                        "narration": False})
    family = GameStore(default_database())
    clock = Clock(args.real)
    app = Table99App(config=config, store=family)
    app.exhibit_clock = clock
    app.exhibit_autotick = False
    root = app.build()
    Window.add_widget(root)
    app.exhibit_controller.start(Window)
    scratch = app.exhibit["scratch"]
    visitors = Visitors(app, clock, random.Random(args.seed), mean_gap=360.0 if not args.real else 120.0)
    phase.context = lambda: {"visitors": visitors.arrived, "plan": visitors.last_plan,
                             "demos": app.exhibit_controller.loop.round,
                             "last_demo": (app.exhibit_controller.loop.shown or ["-"])[-1],
                             "objects": len(gc.get_objects())}

    def frame() -> float:
        before = time.perf_counter()
        EventLoop.idle()
        return time.perf_counter() - before

    def advance() -> None:
        if not args.real:
            clock.now += args.step
        app.exhibit_controller.tick()
        visitors.step()

    # Warm-up: the first full loop (all three games) and one visitor of each kind (leaves, goes idle
    # and meets "Still there?", finishes), back on the loop: every path has run once, so what the
    # first use of a path keeps for good (caches, pools, the GL driver's compiled shader variants)
    # is in the warm-up, not counted as growth.
    loop = app.exhibit_controller.loop
    visitors.forced = ["leave", "idle", "finish"]
    while (len(set(loop.shown)) < len(loop.games) or visitors.forced or visitors.plan is not None
           or app.ctx.manager.current != "home"):
        advance()
        frame()
        if clock() > 3 * 3600:
            break
    warm_until = clock() + args.warmup_hours * 3600
    while clock() < warm_until:
        advance()
        frame()
    gc.collect()
    snapshot_warm = tracemalloc.take_snapshot() if args.tracemalloc else None
    rss_warm = rss_mib()
    sizes_start = (db_size(family.path), db_size(scratch.path))
    warnings_at_warm = problems.count
    table_start, real_start = clock(), time.monotonic()
    table_zero[0] = table_start
    phase.measuring = True
    intervals = late = 0
    worst = 0.0
    total = args.hours * 3600 if not args.real else args.minutes * 60
    last_report = real_start
    samples: list[tuple[float, float]] = []  # (table hours, RSS MiB) every 5 real minutes
    last = time.perf_counter()
    while clock() - table_start < total:
        advance()
        frame()
        now = time.perf_counter()
        gap, last = now - last, now
        intervals += 1
        worst = max(worst, gap)
        if gap > 2 * FRAME:
            late += 1
        if time.monotonic() - last_report > 300:
            last_report = time.monotonic()
            samples.append((round((clock() - table_start) / 3600, 2), round(rss_mib(), 1)))
            print(f"  ... {(clock() - table_start) / 3600:.2f} h table time, "
                  f"{(last_report - real_start) / 60:.1f} real min, RSS {rss_mib():.1f} MiB, "
                  f"visitors {visitors.arrived}, warnings {problems.count}", flush=True)
    real_minutes = (time.monotonic() - real_start) / 60
    phase.recording = False
    gc.collect()
    rss_end = rss_mib()
    sizes_end = (db_size(family.path), db_size(scratch.path))
    counts = app.exhibit["counts"].summary()
    figures = {
        "mode": "real speed" if args.real else f"accelerated, {args.step} s table time per frame",
        "visitor_screen": visitor_screen,
        "table_hours": round((clock() - table_start) / 3600, 3), "real_minutes": round(real_minutes, 1),
        "demos_started": loop.round, "visitors": visitors.arrived, "visitor_plans": visitors.outcomes,
        "counts": {"started": counts.today_started, "finished": counts.today_finished},
        # single readings at arbitrary frames (they move by 10-30 MiB with what is on screen):
        # the growth figure is rss_at_demo_change's fitted line, not end minus after_warmup
        "rss_mib": {"start": round(rss_start, 1), "after_warmup": round(rss_warm, 1),
                    "end": round(rss_end, 1), "end_minus_after_warmup": round(rss_end - rss_warm, 2),
                    "peak_vmhwm": round(peak_mib(), 1), "samples_hours_mib": samples},
        "warmup_table_hours": round(table_start / 3600, 3),
        "rss_at_demo_change": phase.summary(),
        "frames": {"count": intervals, "later_than_2x": late,
                   "share": round(late / max(1, intervals), 4), "worst_ms": round(worst * 1000, 1)},
        "warnings": {"during_warmup": warnings_at_warm, "after_warmup": problems.count - warnings_at_warm,
                     "first": problems.first},
        "stores_bytes_file_and_wal": {"family": [sizes_start[0], sizes_end[0]],
                                      "scratch": [sizes_start[1], sizes_end[1]]},
        "games": {"family": len(family.games()), "scratch": len(scratch.games())},
    }
    if args.diagnose:  # every sample in the JSON file; a dozen on the screen
        everything = {"diagnostics_warmup": phase.warmup_details, "diagnostics_at_demo_change": phase.details}
        figures["diagnostics_at_demo_change"] = phase.details[:: max(1, len(phase.details) // 12)] + \
            phase.details[-1:]
    if snapshot_warm is not None:
        top = tracemalloc.take_snapshot().compare_to(snapshot_warm, "lineno")[:15]
        figures["tracemalloc"] = {"traced_mib": round(tracemalloc.get_traced_memory()[0] / 2**20, 2),
                                  "top_growth": [str(stat) for stat in top]}
    print(json.dumps(figures, indent=1))
    if args.json:
        figures.update(everything if args.diagnose else {})
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    app.exhibit_controller.release()
    scratch.close()


if __name__ == "__main__":
    main()
