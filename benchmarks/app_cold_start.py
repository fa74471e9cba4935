"""Cold start to the first frame: a fresh Python process runs ``Table99App`` (offscreen SDL) and
reports when the home screen's first frame has been drawn. Each run uses an empty data directory.
Run: .venv/bin/python benchmarks/app_cold_start.py [runs]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import time
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from app.ui.shell import Table99App

class Probe(Table99App):
    def on_start(self):
        def shown(*_):  # the next tick: the first frame has been drawn and flipped
            print("first-frame", time.time(), flush=True)
            self.stop()

        def drawing(*_):
            Window.unbind(on_draw=drawing)
            Clock.schedule_once(shown, 0)
        Window.bind(on_draw=drawing)

Probe().run()
"""


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONFIG="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", PYTHONPATH=str(ROOT))
    seconds: list[float] = []
    probe = Path(tempfile.mkdtemp(prefix="table99-cold-")) / "probe.py"
    probe.write_text(CHILD, encoding="utf-8")  # a file: Kivy's App looks up its class's source file
    for _ in range(runs):
        env["TABLE99_DATA_DIR"] = tempfile.mkdtemp(prefix="table99-cold-")
        start = time.time()
        out = subprocess.run([sys.executable, str(probe)], env=env, cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
        line = next((x for x in out.stdout.splitlines() if x.startswith("first-frame")), None)
        if line is None:
            raise SystemExit(f"the app did not draw a frame: {out.stderr[-2000:]}")
        seconds.append(float(line.split()[1]) - start)
    print(f"cold start to first frame: {runs} runs, median {statistics.median(seconds):.2f} s, "
          f"best {min(seconds):.2f} s, worst {max(seconds):.2f} s "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
