"""``systemctl stop`` natively: SIGTERM to the end of ``table99 run`` (offscreen SDL, the unit's environment).

Each run starts the real command with an empty data directory, waits for Kivy's "Start application main
loop", waits DELAY seconds (0: the first frames are still being drawn, as in the rehearsal's stop),
sends SIGTERM and times the process's end. Prints each run, the median, and whether the game store was
closed (no ``games.sqlite3-wal`` left). The deploy/README rehearsal measures the same under systemd and
qemu; the target there is 5 s.
Run: .venv/bin/python benchmarks/app_stop.py [runs] [delay]
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TABLE99 = Path(sys.executable).parent / "table99"
UNIT_ENV = {  # deploy/table99.service's, with SDL offscreen as in the rehearsal's drop-in
    "KIVY_NO_CONFIG": "1", "KIVY_NO_FILELOG": "1", "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_ARGS": "1",
    "KIVY_WINDOW": "sdl2", "SDL_VIDEODRIVER": "offscreen", "KCFG_INPUT_MOUSE": "",
    "KCFG_GRAPHICS_SHOW_CURSOR": "0", "PYTHONUNBUFFERED": "1",
}


def one_stop(delay: float) -> tuple[float, int, bool]:
    """(seconds from SIGTERM to exit, exit status, store closed)."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_", "TABLE99_"))}
        env.update(UNIT_ENV, HOME=folder, TABLE99_DATA_DIR=folder, TABLE99_CONFIG=str(data / "none.toml"),
                   KIVY_HOME=str(data / "kivy"))
        child = subprocess.Popen([str(TABLE99), "run", "--fullscreen", "--web-port", "0"], env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
        assert child.stdout is not None
        for line in child.stdout:
            if "Start application main loop" in line:
                break
        time.sleep(delay)
        start = time.perf_counter()
        child.send_signal(signal.SIGTERM)
        child.stdout.read()
        status = child.wait(120)
        took = time.perf_counter() - start
        return took, status, not (data / "games.sqlite3-wal").exists()


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    delay = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    times = []
    for n in range(runs):
        took, status, closed = one_stop(delay)
        times.append(took)
        print(f"run {n + 1}: {took:.3f} s from SIGTERM to exit, status {status}, store closed: {closed}")
    print(f"median {statistics.median(times):.3f} s, max {max(times):.3f} s over {runs} runs "
          f"(SIGTERM {delay:g} s after the main loop started)")


if __name__ == "__main__":
    main()
