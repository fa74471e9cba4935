"""Fuzz the record replayer (three formats, raw bytes) and the config checker; count failures.

    .venv/bin/python benchmarks/fuzz_inputs.py [--count 3000] [--seed 1000]

For each kind, ``--count`` inputs (mutations of valid records made by the app's own sessions, random
bytes, mutated config files; see ``tests/fuzz_inputs.py``) go through exactly what the commands
run. Printed per kind: inputs, accepted (exit 0), refused with one line (exit 2), tracebacks (any
other exception, or a refusal not on one line) and hangs (over 5 s), and the slowest input.
The seeds differ from the suite's (hypothesis draws its own): these inputs are out of sample.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.commands import config as config_command
from app.commands import replay as replay_command
from tests.fuzz_inputs import dumps_hostile, mutate, mutate_config, seed_records

HANG = 5.0


def run_one(command: object, args: argparse.Namespace) -> tuple[str, float]:
    err = io.StringIO()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = command.main(args)  # type: ignore[attr-defined]
    except BaseException as exc:
        return f"traceback {type(exc).__name__}", time.perf_counter() - start
    took = time.perf_counter() - start
    if status == 0:
        return "accepted", took
    lines = err.getvalue().splitlines()
    if status == 2 and lines and all(line.startswith("table99 ") for line in lines) and len(lines) <= 2:
        return "refused", took
    return f"bad exit {status}", took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    seeds = seed_records()
    folder = Path(tempfile.mkdtemp(prefix="table99-fuzz-"))
    kinds = ["board99", "count99", "parlett", "raw bytes", "config"]
    for kind in kinds:
        rng = random.Random(f"{args.seed}-{kind}")
        tally: dict[str, int] = {}
        slowest = 0.0
        for n in range(args.count):
            path = folder / f"{kind.replace(' ', '-')}-{n}"
            if kind == "config":
                path.write_bytes(mutate_config(rng).encode("utf-8", errors="surrogateescape"))
                outcome, took = run_one(config_command, argparse.Namespace(file=path))
            else:
                if kind == "raw bytes":
                    path.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
                else:
                    path.write_text(dumps_hostile(mutate(rng.choice(seeds[kind]), rng)))
                outcome, took = run_one(replay_command, argparse.Namespace(file=path, json=True))
            if took > HANG:
                outcome = "hang"
            tally[outcome] = tally.get(outcome, 0) + 1
            slowest = max(slowest, took)
            path.unlink()
        others = {k: v for k, v in tally.items() if k not in ("accepted", "refused")}
        bad = sum(others.values())
        print(f"{kind:9s}: {args.count} inputs, accepted {tally.get('accepted', 0)}, refused "
              f"{tally.get('refused', 0)}, tracebacks/bad/hangs {bad} {others}, "
              f"slowest {slowest * 1000:.0f} ms")


if __name__ == "__main__":
    main()
