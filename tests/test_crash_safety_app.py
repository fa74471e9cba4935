"""SIGKILL the whole Kivy app mid-game, start it again, and find every action the screen showed.

Unlike tests/test_crash_safety.py (the referee and store without a screen), the child here is the
real app: Table99App rendering offscreen, driven by touches as in tests/test_ui_board99.py. It
prints a line once an accepted action is on screen; the parent kills it with SIGKILL mid-game,
then a second app process must offer the game for resume and continue it with the board check.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from app.store import GameStore

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent(
    """
    import json, sys
    from tests.test_ui_board99 import Driver
    from tests.ui_support import UI, find, tap

    d = Driver(UI())
    if sys.argv[1] == "resume":
        tap(find(d.root, text="Resume"))
        d.settle()
        print("resumed", d.root.current, len(d.stored()), json.dumps(d.screen.prompt_label.text), flush=True)
        sys.exit(0)
    d.start_game()
    shown = 0
    for i in range(5):
        for step in (("DRAW",), ("DRAW",), ("PLAY", i, 50 + i), ("PLAY", 10 + i, 70 + 2 * i)):
            d.press(step[0])
            if step[0] == "PLAY":
                d.type_card(step[1])
                d.tap_hole(step[2])
            d.settle()
            stored = d.stored()
            for action in stored[shown:]:  # on screen now: the log line and the board show it
                print("shown", json.dumps(action), flush=True)
                sys.stdin.readline()
            shown = len(stored)
    """
)


def child(env: dict[str, str], mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, mode], cwd=ROOT, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_sigkill_of_the_running_app_loses_nothing_it_showed(tmp_path: Path) -> None:
    env = dict(os.environ, TABLE99_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT),
               SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONFIG="1", KIVY_NO_FILELOG="1",
               KIVY_NO_CONSOLELOG="1")
    app = child(env, "play")
    assert app.stdout is not None and app.stdin is not None
    shown = []
    for line in app.stdout:
        if line.startswith("shown "):
            shown.append(json.loads(line.split(" ", 1)[1]))
            if len(shown) == 7:  # mid-game: no chance to clean up
                os.kill(app.pid, signal.SIGKILL)
                break
            app.stdin.write("go\n")
            app.stdin.flush()
    app.wait(timeout=60)
    assert app.returncode == -signal.SIGKILL, app.stderr.read() if app.stderr else ""

    store = GameStore(tmp_path / "data" / "games.sqlite3")
    (summary,) = store.unfinished("board99")
    stored = list(store.load(summary.id).actions)
    store.close()
    assert stored[: len(shown)] == shown and len(shown) == 7

    again = child(env, "resume")
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, err[-2000:]
    resumed = next(line for line in out.splitlines() if line.startswith("resumed "))
    _, screen, count, prompt = resumed.split(" ", 3)
    assert screen == "board99-game" and int(count) == len(stored)
    # The simulated board starts empty after a restart: the referee asks for the pegs back first.
    assert "back on square" in json.loads(prompt)
