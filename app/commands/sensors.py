"""``table99 sensors``: the live hall-sensor board in the terminal, for whoever builds the board.

Shows the 10x10 board as the sensors see it (after debounce), the scan rate, the source's health
and every hole that flickers or seems stuck, plus the holes that have not changed since the start
(sweep a magnet over the board: what is left in that list is a sensor or wire to check).

``--record FILE`` writes every published reading as JSON Lines ``{"t": seconds, "holes": [...]}``
(``"unsure"`` when some holes were in doubt), the format the scripted board plays back.
``--mock`` runs the real driver on gpiozero's mock pins with a simulated board whose pegs come
and go by themselves. On a machine without GPIO it says so and suggests ``--mock``.

Output is English only, like the other admin commands (``table99 config``). On a terminal the
board is redrawn in place; otherwise (a pipe, a log, a screen reader) a new board is printed only
when it changes.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from app.config import ConfigError, default_config_path, load_config_or_default
from app.source_factories import gpio as gpio_factory
from hardware.board_source import BoardReading, SourceHealth
from hardware.gpio_setup import no_gpio_reason
from hardware.gpio_source import GpioBoardSource
from hardware.scripted import ScriptedReading

EMPTY, PEG, UNSURE, BAD = ".", "O", "?", "!"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mock", action="store_true",
                        help="run on gpiozero's mock pins with a simulated board (no Pi needed)")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="save every reading as JSON Lines (playable by the scripted board)")
    parser.add_argument("--config", type=Path, help="the config file (default: the app's)")
    parser.add_argument("--seconds", type=float, default=0.0,
                        help="stop after this many seconds (default: run until Ctrl-C)")
    parser.add_argument("--refresh", type=float, default=0.2, help="seconds between screen updates")


def render_board(occupied: frozenset[int], unsure: frozenset[int], bad: frozenset[int]) -> list[str]:
    """The board as text rows, top row first: O peg, ? in doubt, ! unhealthy, . empty."""
    lines = ["     " + " ".join(str(c % 10) for c in range(1, 11))]
    for row in range(10):
        cells = []
        for col in range(10):
            hole = row * 10 + col
            mark = PEG if hole in occupied else EMPTY
            cells.append(BAD if hole in bad else UNSURE if hole in unsure else mark)
        lines.append(f"{row + 1:>3}  " + " ".join(cells))
    return lines


NAMED_QUIET_HOLES = 6
"""Up to this many holes not changed yet are named with their place and input (a sweep's result)."""


def status_lines(source: GpioBoardSource) -> list[str]:
    health = source.health
    lines = [f"health: {health.state.value}" + (f" - {health.detail}" if health.detail else "")]
    cost = source.scan_cost * 1e3
    lines.append(f"scan rate: {source.scan_rate:.0f} scans/s (one scan takes {cost:.2f} ms)")
    if health.bad_holes:
        lines.append("unhealthy holes: " + ", ".join(source.describe_hole(h) for h in health.bad_holes))
    scanner = source.scanner
    if scanner is not None:
        quiet = scanner.never_changed()
        if quiet and len(quiet) <= NAMED_QUIET_HOLES:  # the end of a sweep: say which wire to check
            lines.append("not changed yet: " + ", ".join(source.describe_hole(h) for h in quiet))
        elif quiet and len(quiet) <= 20:
            lines.append("not changed yet: " + ", ".join(map(str, quiet)))
        else:
            lines.append(f"not changed yet: {len(quiet)} holes")
    return lines


class MockPegs:
    """Moves magnets on the simulated board now and then, with a little contact bounce."""

    def __init__(self, source: GpioBoardSource, seed: int = 99) -> None:
        self.board = source.mock_board
        self.wiring = source.wiring
        self.random = random.Random(seed)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name="mock-pegs", daemon=True)

    def run(self) -> None:
        holes: set[int] = set()
        while not self.stop.wait(0.6):
            wiring = self.wiring
            if wiring is None:
                continue
            hole = self.random.randrange(100)
            target = holes ^ {hole}
            if len(target) > 12:
                target = {hole}
            for bounce in (True, False, True, False, True):  # the peg bounces, then sits
                self.board.set_inputs(self._inputs(target if bounce else holes))
                if self.stop.wait(0.004):
                    return
            holes = target
            self.board.set_inputs(self._inputs(holes))

    def _inputs(self, holes: set[int]) -> set[int]:
        assert self.wiring is not None
        return {i for h in holes if (i := self.wiring.input_of(h)) is not None}


def main(args: argparse.Namespace) -> int:
    config_path = args.config or default_config_path()
    config, problem = load_config_or_default(config_path)
    if problem:
        print(f"table99 sensors: {problem}", file=sys.stderr)
        return 2
    options: dict[str, Any] = dict(config.options_for("gpio"))
    if args.mock:
        options["mock"] = True
    if not options.get("mock") and (reason := no_gpio_reason()) is not None:
        print(f"This machine has no GPIO that gpiozero can use: {reason}.", file=sys.stderr)
        print("To see how it works on a simulated board, run: table99 sensors --mock", file=sys.stderr)
        return 1
    try:
        source = gpio_factory.make(options, config)
    except ConfigError as exc:
        print(f"table99 sensors: {exc}", file=sys.stderr)
        return 2
    return watch(source, args, sys.stdout)


def watch(source: GpioBoardSource, args: argparse.Namespace, out: TextIO) -> int:
    events: queue.SimpleQueue[BoardReading | SourceHealth] = queue.SimpleQueue()
    source.subscribe(events.put)
    record: TextIO | None = None
    if args.record is not None:
        try:
            record = args.record.open("w", encoding="utf-8")
        except OSError as exc:
            print(f"table99 sensors: cannot write {args.record}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    pegs = MockPegs(source) if source.mock_board is not None else None
    started = time.monotonic()
    live = out.isatty()
    last_key: object = None
    reading = BoardReading(frozenset(), started)
    try:
        source.start()
        if source.reader is None:  # the pins could not be opened at all
            print(f"table99 sensors: {source.health.detail}", file=sys.stderr)
            return 1
        # a chain or matrix failing its self-test stays on screen (the source retries it every
        # second): whoever is wiring the board sees the moment it answers
        if pegs is not None:
            pegs.thread.start()
        while not args.seconds or time.monotonic() - started < args.seconds:
            time.sleep(args.refresh)
            while True:
                try:
                    event = events.get_nowait()
                except queue.Empty:
                    break
                if isinstance(event, BoardReading):
                    reading = event
                    if record is not None:
                        line = ScriptedReading(max(0.0, event.timestamp - started), event.occupied,
                                               unsure=event.unsure)
                        record.write(json.dumps(line.to_json()) + "\n")
                        record.flush()
            bad = frozenset(source.health.bad_holes)
            board = render_board(reading.occupied, reading.unsure, bad)
            frame = board + status_lines(source)
            if live:
                out.write("\x1b[H\x1b[J" + "\n".join(frame) + "\n")
                out.flush()
            elif (key := (reading.occupied, reading.unsure, source.health)) != last_key:
                out.write("\n".join(frame) + "\n\n")  # a log or a screen reader: only what changed
                out.flush()
                last_key = key
    except KeyboardInterrupt:
        pass
    finally:
        if pegs is not None:
            pegs.stop.set()
        source.stop()
        if record is not None:
            record.close()
    return 0
