"""Replaying very long board-game records: is the cost per action flat?

    .venv/bin/python benchmarks/replay_long_records.py [--sizes 8000 32000 128000]

A record in which two players keep drawing out of turn (each draw a penalty; the seed's rule cuts
the card back into the deck, so such a game never has to end) is built with N actions and
replayed through ``table99 replay``'s code path. Printed: seconds per record and microseconds per
action; with a tuple of penalties copied on each penalty the cost per action grew with N.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.commands.replay import replay


def long_record(actions: int) -> dict[str, object]:
    moves = []
    for n in range(actions):
        by = "Ben" if n % 2 == 0 else "Ann"  # always the player not to move: out of turn
        moves.append({"by": by, "do": "draw"})
    return {"format": "table99/board99", "version": 1, "ruleset": "classic", "players": ["Ann", "Ben"],
            "layout": "rows", "actions": moves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8000, 32000, 128000])
    args = parser.parse_args()
    for size in args.sizes:
        record = json.loads(json.dumps(long_record(size)))
        start = time.perf_counter()
        out = replay(record, as_json=True)
        took = time.perf_counter() - start
        penalties = len(json.loads(out).get("penalties", []))
        per_action = took / size * 1e6
        print(f"{size:7d} actions ({penalties} penalties): {took:.2f} s, {per_action:.1f} us per action")


if __name__ == "__main__":
    main()
