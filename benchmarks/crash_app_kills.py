"""SIGKILL the real Kivy app many times during play; count acknowledged actions lost.

    .venv/bin/python benchmarks/crash_app_kills.py [--kills 40] [--seed 7]

Half the kills stop the app while it stands at a random "shown: action N" acknowledgement (its own
log line, see tests/test_crash_safety_app.py); the other half at a random moment while it plays
freely. After each kill the store must hold every action the app acknowledged, in place. Prints
kills, acknowledged actions, and actions lost (goal 0).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_crash_safety_app import (
    app_env,
    child,
    kill_at_acknowledgement,
    parse_shown,
    stored_actions,
)


def kill_freely(env: dict[str, str], after: float) -> dict[int, dict[str, object]]:
    """Let the app play on its own; SIGKILL it ``after`` seconds, wherever it is."""
    app = child(env, "play", handshake=False)
    assert app.stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(app.stdout or []), daemon=True)
    reader.start()
    time.sleep(after)
    os.kill(app.pid, signal.SIGKILL)
    app.wait(timeout=30)
    reader.join(timeout=10)
    shown: dict[int, dict[str, object]] = {}
    for line in lines:
        if (parsed := parse_shown(line)) is not None:
            shown[parsed[0]] = parsed[1]
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    acknowledged = lost = kept = 0
    for n in range(args.kills):
        folder = Path(tempfile.mkdtemp(prefix="table99-kill-"))
        env = app_env(folder)
        if n % 2 == 0:
            shown = kill_at_acknowledgement(env, kill_at=rng.randint(1, 40))
        else:
            shown = kill_freely(env, after=rng.uniform(2.0, 15.0))
        try:
            stored = stored_actions(folder) if shown else []
        except ValueError:  # killed before the game was created
            stored = []
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        acknowledged += len(shown)
        kept += len(stored)
        lost += sum(1 for index, action in shown.items() if index >= len(stored) or stored[index] != action)
    print(f"{args.kills} kills, {acknowledged} acknowledged actions, {kept} stored, "
          f"{lost} acknowledged but lost")


if __name__ == "__main__":
    main()
