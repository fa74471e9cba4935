"""Cost per deal of a long Parlett series: does adding a deal cost the same at deal 30,000 as at 300?

    .venv/bin/python benchmarks/parlett_long_series.py [--sizes 300 3000 30000] [--code DIR]

Builds a seeded random record of N valid three-player deals (bids, tricks, now and then a premium)
in a rubber that does not end (``rubber_games`` huge: games to 100 keep finishing) and in a series
to an unreachable target (one long game), replays it through ``sheet_from_record`` (what
``table99 replay`` and every correction do) and prints seconds and microseconds per deal on
average, then the cost of adding 300 more deals to the N-deal sheet (the marginal cost per deal,
which is what a long game at the table feels). The scoresheet used to rescan every deal for each
deal added, so the cost per deal grew with N. ``--code DIR`` measures the ``rules`` package of
another checkout (e.g. ``git worktree add /tmp/old b743611``) for a before/after comparison.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import sys
import time
from pathlib import Path
from typing import Any


def long_record(deals: int, options: dict[str, object], seed: int = 1) -> dict[str, object]:
    rng = random.Random(seed)
    players = ["Ann", "Ben", "Cat"]
    out = []
    for _ in range(deals):
        cuts = sorted(rng.randint(0, 9) for _ in range(2))
        tricks = dict(zip(players, (cuts[0], cuts[1] - cuts[0], 9 - cuts[1]), strict=True))
        deal: dict[str, object] = {"bids": {p: rng.randint(0, 9) for p in players}, "tricks": tricks}
        if rng.random() < 0.2:
            deal["premium"] = {rng.choice(players): rng.choice(["declare", "reveal"])}
        out.append(deal)
    return {"format": "table99/parlett", "version": 1, "variant": "three", "options": options,
            "players": players, "dealer": "Ann", "deals": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 3000, 30000])
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    record_module: Any = importlib.import_module("rules.parlett.record")
    print(f"rules from {record_module.__file__}")
    more = 300
    for label, options in (("games to 100", {"rubber_games": 10**9}), ("to a target", {"target": 10**9})):
        for size in args.sizes:
            sheet = record = entries = None  # the last row's sheet must not be alive (and scanned by
            gc.collect()                      # the garbage collector) while this one is measured
            record = long_record(size + more, options)
            deals = record["deals"]
            assert isinstance(deals, list)
            start = time.perf_counter()
            sheet = record_module.sheet_from_record(record | {"deals": deals[:size]})
            took = time.perf_counter() - start
            entries = [record_module.entry_from_json(d, sheet.table) for d in deals[size:]]
            start = time.perf_counter()
            for entry in entries:
                sheet = sheet.add(entry)
            marginal = time.perf_counter() - start
            assert len(sheet.deals) == size + more
            print(f"{label:13} {size:6d} deals ({len(sheet.games):5d} games): {took:7.3f} s, "
                  f"{took / size * 1e6:6.1f} us per deal on average; the next {more}: "
                  f"{marginal / more * 1e6:6.1f} us per deal")


if __name__ == "__main__":
    main()
