"""From a stable board reading to the verdict on screen: referee + SQLite commit + UI refresh + frame.

Drives the real game screen headless (800x480 offscreen). For each play the peg goes in, the fake
clock passes the stability window, and the time is measured from the moment the screen's pump hands
the settled board to the referee until the next frame has been drawn with the new peg.

Then the same for a person (Ann) playing against "advanced" computers (3 players of which 2 are
computers, then 4 of which 3), twice each: with the computers thinking on the worker thread (the
app) and with the old call on the main thread (``InlineThinker``), in the same run because the
machine is noisy. Ann's plays are timed as above; while the computers are to move the benchmark
runs frames (paced at 60 per second, as the app) and records the longest main-thread frame (with
its pump, the way Kivy runs them) during which a computer's choice was being made: on the worker,
or, the old way, inside that very frame.
Each verdict is also reported less an idle frame drawn right after it: on a shared machine the
load changes between the people's part and the computers' (the idle frame alone went from 24 to
55 ms within a minute), and the raw medians of the two parts then compare the load, not the screen.
``--ai-slowdown K`` makes every choice K times the work (the advanced AI run K times, the last
result used: same choices), to see what a board computer slower than this one would do.

Run: .venv/bin/python benchmarks/app_verdict_latency.py [plays] [--computer-plays N] [--ai-slowdown K ...]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from app_common import Bench, frames, headless

TIME_LIMIT = 120.0  # seconds for one computer configuration: a stalled game fails loudly


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values):.1f} ms, p95 {pct(values, 0.95):.1f} ms, "
            f"max {max(values):.1f} ms")


def idle_frame() -> float:
    """One frame with nothing new, drawn and finished (ms): what this GL costs at this moment."""
    from kivy.core.window import Window

    Window.canvas.ask_update()
    return timed(lambda: frames(1))


def excess_line(verdicts: list[float], idles: list[float]) -> str:
    """The verdict's own cost: each verdict minus an idle frame drawn right after it, so a load that
    changes between the people's and the computers' part of a run does not count as either's."""
    extra = [v - i for v, i in zip(verdicts, idles, strict=True)]
    return (f"verdict minus the idle frame right after it: median {statistics.median(extra):.1f} ms "
            f"(idle frame median {statistics.median(idles):.1f} ms)")


def people(bench: Bench, plays: int) -> None:
    """The original measurement: two people, every play timed."""
    from kivy.graphics.opengl import glFinish

    timings: list[float] = []
    idles: list[float] = []
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
        idles.append(idle_frame())
    idle: list[float] = []
    from kivy.core.window import Window

    for _ in range(20):
        Window.canvas.ask_update()
        glFinish()
        start = time.perf_counter()
        frames(1)
        glFinish()
        idle.append((time.perf_counter() - start) * 1000)
    print(excess_line(timings, idles))
    timings.sort()
    print(f"referee + SQLite commit + screen update (before the frame): median "
          f"{statistics.median(python_side):.1f} ms")
    print(f"one frame with nothing new (drawing cost of this GL): median {statistics.median(idle):.1f} ms")
    print(f"verdict on screen: {len(timings)} plays, median {statistics.median(timings):.1f} ms, "
          f"p90 {timings[int(len(timings) * 0.9) - 1]:.1f} ms, worst {timings[-1]:.1f} ms (target < 50 ms)")


def chooser(slowdown: int, thinking: list[float]) -> Callable[[Any, str, Any], Any]:
    """The advanced AI, timed; with ``slowdown`` K it does K times the work and returns the same choice."""
    from rules.board99.ai import choose_action

    def choose(view: Any, level: str, rng: random.Random) -> Any:
        start = time.perf_counter()
        for _ in range(slowdown - 1):
            spare = random.Random()
            spare.setstate(rng.getstate())  # the real call below gets the untouched rng
            choose_action(view, level, spare)
        action = choose_action(view, level, rng)
        thinking.append((time.perf_counter() - start) * 1000)
        return action

    return choose


def ann_play(state: Any) -> tuple[int, int]:
    """A card from Ann's hand and a legal square that does not end the game, if there is one."""
    from rules import board99 as rules

    options = [(card, square) for card in state.known_hand("Ann") for square in state.legal_squares(card)]
    for card, square in options:
        if rules.apply_unchecked(state, rules.Play("Ann", card, square))[0].outcome is None:
            return card, square
    return options[0]


def timed(step: Callable[[], None]) -> float:
    from kivy.graphics.opengl import glFinish

    glFinish()
    start = time.perf_counter()
    step()
    glFinish()
    return (time.perf_counter() - start) * 1000


def against_computers(bench: Bench, plays: int, players: int, worker: bool, slowdown: int) -> dict[str, Any]:
    """Ann against ``players - 1`` advanced computers until ``plays`` of her plays were timed."""
    from app.referee import Phase
    from app.referee.thinking import InlineThinker, ThreadThinker
    from rules.board99 import Play

    screen = bench.screen
    screen.thinker_factory = ThreadThinker if worker else InlineThinker
    thinking: list[float] = []
    screen.computer_chooser = chooser(slowdown, thinking)
    names = ("Ann", "Ben", "Cat", "Dan")[:players]
    seed, games = 1, 1
    bench.new_game(names, {name: "advanced" for name in names[1:]}, seed)
    verdicts: list[float] = []
    idles: list[float] = []  # an idle frame right after each verdict (excess_line)
    stalls: list[float] = [0.0]  # main-thread frames (with their pump) while a computer's choice is made
    moves: list[float] = [0.0]  # frames that applied and drew a computer's move
    deadline = time.monotonic() + TIME_LIMIT

    def pump_and_frame() -> None:
        screen.pump()
        frames(1)

    def own_pump() -> None:
        """The benchmark pumps at 30 Hz itself: the screen's Clock interval, firing right after a
        timed pump, would start the worker inside the verdict's frame, as the app never does."""
        screen._event.cancel()

    own_pump()
    tick = 0

    while len(verdicts) < plays:
        assert time.monotonic() < deadline, f"stalled: {screen.referee.prompt}"
        referee, game = screen.referee, screen.game
        state = game.state
        if state.outcome is not None:
            seed, games = seed + 1, games + 1
            bench.new_game(names, {name: "advanced" for name in names[1:]}, seed)
            own_pump()
            continue
        if referee.phase is Phase.COMPUTER_PEG:  # a person puts the computer's peg where it says
            (hole,) = referee.prompt.holes
            screen.source.put(hole)
            screen.pump()
            frames(1)
            bench.now += 0.5
            calls = len(thinking)
            stall = timed(pump_and_frame)  # judged: the next computer thinks (in it, before)
            if len(thinking) != calls:
                stalls.append(stall)
            continue
        if game.is_computer(state.to_move):
            # Frames paced at 60 per second and the pump every other frame (30 Hz), as in the app
            # (an unpaced loop would spin and compete with the worker for the GIL).
            calls = len(thinking)
            started = time.perf_counter()
            thinks = referee.thinking is not None
            before_frame = (len(game.actions), referee.pending_card)
            tick += 1
            stall = timed(pump_and_frame if tick % 2 else lambda: frames(1))
            applied = (len(game.actions), referee.pending_card) != before_frame
            if applied:
                moves.append(stall)  # a computer's move applied and drawn
            # a choice being computed: on the worker (a frame that only waits), or, the old way,
            # in this very frame
            if (worker and thinks and not applied) or (not worker and len(thinking) != calls):
                stalls.append(stall)
            time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - started)))
            continue
        assert state.to_move == "Ann" and referee.phase is Phase.ANNOUNCE, referee.prompt
        if not state.known_hand("Ann"):
            referee.announce_draw()
            frames(1)
            continue
        card, square = ann_play(state)
        referee.announce_play(card)
        hole = referee.hole_of(square)
        screen.source.put(hole)
        screen.pump()  # the reading enters the stability window
        frames(1)
        bench.now += 0.5
        before = len(game.actions)
        calls = len(thinking)
        verdicts.append(timed(pump_and_frame))  # judged, stored, shown (the computers may start)
        if len(thinking) != calls:  # the old way: the computers chose inside this very frame
            stalls.append(verdicts[-1])
        assert game.actions[before] == Play("Ann", card, square), referee.prompt
        assert hole in screen.board.pegs
        idles.append(idle_frame())
    return {"verdicts": verdicts, "idles": idles, "stalls": stalls, "moves": moves, "thinking": thinking,
            "games": games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plays", nargs="?", type=int, default=40, help="people-only plays timed")
    parser.add_argument("--computer-plays", type=int, default=30, help="Ann's plays timed per configuration")
    parser.add_argument("--ai-slowdown", type=int, nargs="*", default=[1, 8],
                        help="work factors for the computers' choices (1: as is)")
    args = parser.parse_args()
    headless()
    bench = Bench()
    from kivy.graphics.opengl import GL_RENDERER, glGetString

    load = os.getloadavg()[0]
    print(f"renderer: {glGetString(GL_RENDERER).decode()}, window 800x480, "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    people(bench, args.plays)
    print()
    print("Ann against advanced computers: Ann's verdict on screen, and the main thread's longest stall "
          "(one pump + frame) while a computer's choice is being made")
    for slowdown in args.ai_slowdown:
        for players in (3, 4):
            results = {}
            for worker in (True, False):
                results[worker] = result = against_computers(bench, args.computer_plays, players, worker,
                                                             slowdown)
                how = "worker thread" if worker else "main thread (before)"
                print(f"  {players} players ({players - 1} computers), AI x{slowdown}, {how}: "
                      f"{len(result['verdicts'])} plays in {result['games']} game(s); "
                      f"computer choice {summary(result['thinking'])}")
                print(f"      verdict on screen: {summary(result['verdicts'])} (target < 50 ms); "
                      f"longest frame while a computer thinks: {max(result['stalls']):.1f} ms "
                      f"({len(result['stalls']) - 1} frames); longest frame showing a computer's "
                      f"move: {max(result['moves']):.1f} ms")
                print(f"      {excess_line(result['verdicts'], result['idles'])}")
            before, after = results[False]["verdicts"], results[True]["verdicts"]
            ratio = statistics.median(before) / statistics.median(after)
            worst = max(before) / max(after)
            print(f"      main thread / worker: verdict median x{ratio:.1f}, worst x{worst:.1f}")


if __name__ == "__main__":
    main()
