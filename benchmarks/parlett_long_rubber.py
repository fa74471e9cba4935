"""Replaying very long Parlett rubbers: is the cost per deal flat?

    .venv/bin/python benchmarks/parlett_long_rubber.py [--sizes 1000 3000 9000]

A three-player rubber of N deals (everyone bids 3 and takes 3 tricks) is replayed through
``table99 replay``'s code path, once played to a target nobody reaches (one endless game, the
shape that made each added deal rescan every deal before it: issue 17, point 5) and once in games to
100 of an endless rubber. Printed: seconds per record and microseconds per deal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.commands.replay import replay

DEAL = {"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}


def long_rubber(deals: int, options: dict[str, int]) -> dict[str, object]:
    return {"format": "table99/parlett", "version": 1, "variant": "three", "options": options,
            "players": ["Ann", "Ben", "Cat"], "dealer": "Cat", "deals": [DEAL] * deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000, 9000])
    args = parser.parse_args()
    for name, options in (("target", {"target": 10**9}), ("games", {"rubber_games": 10**6})):
        for size in args.sizes:
            record = json.loads(json.dumps(long_rubber(size, options)))
            start = time.perf_counter()
            out = json.loads(replay(record, as_json=True))
            took = time.perf_counter() - start
            assert len(out["deals"]) == size
            print(f"{name:6s} {size:6d} deals ({len(out['games'])} games): {took:.2f} s, "
                  f"{took / size * 1e6:.0f} us per deal")


if __name__ == "__main__":
    main()
