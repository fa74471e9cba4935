"""A mutation fuzz of the frame parser: damaged streams must never yield a payload that was not sent.

    .venv/bin/python benchmarks/serial_fuzz.py [--streams 20000] [--seed 1]

Each round builds a stream of 8 snapshot frames, damages it (bit flips, inserted, deleted or
duplicated bytes, truncation, random garbage, spliced pieces), feeds it in random chunks, and
checks every payload that comes out. Prints how many frames were damaged and dropped, and the
count that matters: misreads (must be 0).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge import protocol as p


def damage(stream: bytearray, rng: random.Random) -> bytearray:
    for _ in range(rng.randrange(1, 6)):
        kind = rng.randrange(6)
        at = rng.randrange(len(stream)) if stream else 0
        if kind == 0 and stream:
            stream[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            stream[at:at] = bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 20)))
        elif kind == 2:
            del stream[at:at + rng.randrange(1, 10)]
        elif kind == 3:
            stream[at:at] = stream[at:at + rng.randrange(1, 40)]
        elif kind == 4:
            del stream[at:]
        else:
            start = rng.randrange(len(stream)) if stream else 0
            stream[at:at] = stream[start:start + rng.randrange(1, 30)]
    return stream


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sent_total = received = misreads = bad = 0
    start = time.perf_counter()
    for n in range(args.streams):
        boards = [sorted(rng.sample(range(100), rng.randrange(0, 20))) for _ in range(8)]
        payloads = [p.Snapshot(n & 0xFFFF, i, 100, board).encode() for i, board in enumerate(boards)]
        stream = damage(bytearray(b"".join(p.encode_frame(x) for x in payloads)), rng)
        frame_parser = p.FrameParser()
        position = 0
        while position < len(stream):
            step = rng.randrange(1, 64)
            for payload in frame_parser.feed(bytes(stream[position:position + step])):
                received += 1
                if payload not in payloads:
                    misreads += 1
                    print("MISREAD", payload.hex())
            position += step
        sent_total += len(payloads)
        bad += frame_parser.bad_frames
    seconds = time.perf_counter() - start
    print(f"{args.streams} damaged streams ({sent_total} frames) in {seconds:.1f} s: "
          f"{received} frames read intact, {bad} damaged frames dropped, misreads: {misreads}")


if __name__ == "__main__":
    main()
