"""Frame parser throughput (firmware_bridge/protocol.py), compared with what a 115200-baud link carries.

    .venv/bin/python benchmarks/serial_parser.py [--frames 20000]

Prints frames per second for clean and garbage-laden streams, and the ratio to the frame rate a
115200-baud UART can deliver at all (10 bits a byte), so the figure survives machine noise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge import protocol as p


def stream_of(frames: int, garbage: bool, rng: random.Random) -> tuple[bytes, int]:
    parts = []
    for n in range(frames):
        holes = rng.sample(range(100), rng.randrange(0, 30))
        if garbage and n % 4 == 0:
            parts.append(bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 30))) + b"\x00")
        parts.append(p.frame(p.Snapshot(1, n, 100, sorted(holes))))
    return b"".join(parts), frames


def measure(data: bytes, chunk: int) -> tuple[float, int]:
    parser = p.FrameParser()
    start = time.perf_counter()
    got = 0
    for i in range(0, len(data), chunk):
        for payload in parser.feed(data[i:i + chunk]):
            p.decode_message(payload)
            got += 1
    return time.perf_counter() - start, got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    args = parser.parse_args()
    rng = random.Random(99)
    frame_len = len(p.frame(p.Snapshot(1, 1, 100, list(range(10)))))
    uart_fps = 115200 / 10 / frame_len
    print(f"snapshot frame: {frame_len} bytes; a 115200-baud UART carries at most {uart_fps:.0f} frames/s")
    for garbage in (False, True):
        data, frames = stream_of(args.frames, garbage, rng)
        for chunk in (1, 64, 4096):
            seconds, got = measure(data, chunk)
            assert got == frames, (got, frames)
            fps = frames / seconds
            label = "with garbage" if garbage else "clean"
            rate = len(data) / seconds / 1e6
            print(f"{label:12s} chunk {chunk:5d} B: {fps:9.0f} frames/s  {rate:6.2f} MB/s"
                  f"  = {fps / uart_fps:6.1f}x what 115200 baud delivers")


if __name__ == "__main__":
    main()
