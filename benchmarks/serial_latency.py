"""Latency from a peg change in the emulator to the BoardSource's reading, over a real pty.

    .venv/bin/python benchmarks/serial_latency.py [--changes 200] [--baud 115200]

The emulator runs the firmware core with a 5 ms scan and paces its output like a UART at
``--baud`` (a pty itself has no baud rate). Real firmware adds (DEBOUNCE_SCANS - 1) x SCAN_MS
(10 ms with the defaults) of debounce on top; the emulator's pegs do not bounce.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.serial_source import SerialBoardSource
from hardware.board_source import BoardEvent, BoardReading


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--baud", type=int, default=115200)
    args = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / "board"
        source = SerialBoardSource(str(link), retry_interval=0.05)
        arrived: dict[frozenset[int], float] = {}
        got = threading.Event()

        def listen(event: BoardEvent) -> None:
            if isinstance(event, BoardReading):
                arrived.setdefault(event.occupied, time.perf_counter())
                got.set()

        source.subscribe(listen)
        source.start()
        emulator = BoardEmulator(link=link, baud=args.baud).start()
        try:
            while not source.health.ok:
                time.sleep(0.01)
            latencies = []
            pegs: set[int] = set()
            for _ in range(args.changes):
                pegs ^= {rng.randrange(100)}
                board = frozenset(pegs)
                arrived.pop(board, None)
                got.clear()
                sent = time.perf_counter()
                emulator.set_pegs(board)
                deadline = sent + 2
                while board not in arrived and time.perf_counter() < deadline:
                    got.wait(0.5)
                    got.clear()
                if board not in arrived:
                    raise SystemExit(f"no reading of {sorted(board)} within 2 s")
                latencies.append((arrived[board] - sent) * 1000)
                time.sleep(rng.uniform(0.005, 0.02))  # changes land anywhere in the scan period
        finally:
            source.stop()
            emulator.stop()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    pace = f"{args.baud} baud" if args.baud else "unpaced"
    print(f"{args.changes} changes at {pace} over a pty (5 ms scan, no debounce):")
    print(f"  median {statistics.median(latencies):.1f} ms   p99 {p99:.1f} ms   max {latencies[-1]:.1f} ms"
          f"   min {latencies[0]:.1f} ms")
    print(f"  frames: {source.stats.good_frames} good, {source.stats.bad_frames} bad")


if __name__ == "__main__":
    main()
