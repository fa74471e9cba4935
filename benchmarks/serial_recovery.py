"""Time to notice a dead link and to recover, with the shipped defaults, over a real pty.

    .venv/bin/python benchmarks/serial_recovery.py [--trials 5]

Defaults as in [board.serial]: heartbeat_timeout 2.0 s, retry_interval 0.5 s, handshake_timeout
0.5 s; the emulator beats every 500 ms like the firmware. Two faults: a hung board (``freeze``:
the port stays, the heartbeats stop) and a pulled cable (``unplug``: the port disappears).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.serial_source import SerialBoardSource
from hardware.board_source import HealthState


def until(condition: Callable[[], bool], limit: float = 15.0) -> float:
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > limit:
            raise SystemExit("timed out")
        time.sleep(0.002)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    figures: dict[str, list[float]] = {"hung board: detect": [], "hung board: recover": [],
                                       "cable pulled: detect": [], "cable plugged: recover": []}
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / "board"
        source = SerialBoardSource(str(link))
        source.start()
        emulator = BoardEmulator(link=link).start()
        try:
            until(lambda: source.health.ok)
            for trial in range(args.trials):
                time.sleep(0.1 * trial)  # vary the phase against heartbeats and retries
                emulator.freeze()
                figures["hung board: detect"].append(until(lambda: source.health.state is HealthState.LOST))
                emulator.thaw()
                figures["hung board: recover"].append(until(lambda: source.health.ok))
                emulator.unplug()
                figures["cable pulled: detect"].append(until(lambda: source.health.state is HealthState.LOST))
                time.sleep(0.3)
                emulator.plug()
                figures["cable plugged: recover"].append(until(lambda: source.health.ok))
        finally:
            source.stop()
            emulator.stop()
    print(f"{args.trials} trials, defaults (heartbeat 0.5 s, timeout 2.0 s, retry 0.5 s, handshake 0.5 s):")
    for name, values in figures.items():
        print(f"  {name:24s} median {statistics.median(values):5.2f} s   max {max(values):5.2f} s")
    print(f"  sessions {source.stats.sessions}, bad frames {source.stats.bad_frames}")


if __name__ == "__main__":
    main()
