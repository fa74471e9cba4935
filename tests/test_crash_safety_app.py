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
    import json, logging, sys
    from tests.test_ui_board99 import Driver
    from tests.ui_support import UI, find, tap

    handshake = sys.argv[2] == "handshake" if len(sys.argv) > 2 else False

    class Acknowledged(logging.Handler):
        # The app logs "shown: action N {...}" itself as its screen takes an accepted action in.
        # With the handshake the child stops right there until the parent says go (or kills it).
        def emit(self, record):
            print(record.getMessage(), flush=True)
            if handshake:
                sys.stdin.readline()

    shown_log = logging.getLogger("table99.shown")
    shown_log.setLevel(logging.INFO)
    shown_log.addHandler(Acknowledged())
    shown_log.propagate = False

    d = Driver(UI())
    if sys.argv[1] == "resume":
        tap(find(d.root, text="Resume"))
        d.settle()
        print("resumed", d.root.current, len(d.stored()), json.dumps(d.screen.prompt_label.text), flush=True)
        sys.exit(0)
    d.start_game()
    for i in range(12):
        # nobody gets five in a row: the game goes on for all 48 actions (a won game stops taking them)
        for step in (("DRAW",), ("DRAW",), ("PLAY", i, 20 + 3 * i), ("PLAY", 10 + i, 70 + 2 * i)):
            d.press(step[0])
            if step[0] == "PLAY":
                d.type_card(step[1])
                d.tap_hole(step[2])
            d.settle()
    print("done", flush=True)
    """
)


def parse_shown(line: str) -> tuple[int, dict[str, object]] | None:
    """``shown: action N {json}`` as the app logs it, or None for any other line."""
    if not line.startswith("shown: action "):
        return None
    _, _, index, action = line.rstrip("\n").split(" ", 3)
    return int(index), json.loads(action)


def child(env: dict[str, str], mode: str, handshake: bool = True) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, mode, "handshake" if handshake else "free"],
                            cwd=ROOT, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def app_env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, TABLE99_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT),
                SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONFIG="1", KIVY_NO_FILELOG="1",
                KIVY_NO_CONSOLELOG="1")


def kill_at_acknowledgement(env: dict[str, str], kill_at: int) -> dict[int, dict[str, object]]:
    """Run the app; SIGKILL it while it stands at its ``kill_at``-th "shown" line. Returns what it
    acknowledged (index -> action), taken from its own output only."""
    app = child(env, "play")
    assert app.stdout is not None and app.stdin is not None
    shown: dict[int, dict[str, object]] = {}
    for line in app.stdout:
        parsed = parse_shown(line)
        if parsed is None:
            continue
        shown[parsed[0]] = parsed[1]
        if len(shown) == kill_at:  # mid-game, inside the screen's handler: no chance to clean up
            os.kill(app.pid, signal.SIGKILL)
            break
        app.stdin.write("go\n")
        app.stdin.flush()
    app.wait(timeout=60)
    assert app.returncode == -signal.SIGKILL, app.stderr.read()[-2000:] if app.stderr else ""
    return shown


def stored_actions(tmp_path: Path) -> list[dict[str, object]]:
    """The actions of the one game the app played, whatever its status (a won game is finished)."""
    store = GameStore(tmp_path / "data" / "games.sqlite3")
    try:
        (summary,) = store.games("board99")
        return list(store.load(summary.id).actions)
    finally:
        store.close()


def test_sigkill_of_the_running_app_loses_nothing_it_showed(tmp_path: Path) -> None:
    """Killed while its screen stands at the 7th acknowledged action (a broken copy that emits
    ActionAccepted before the commit fails here: the 7th is then not in the store)."""
    env = app_env(tmp_path)
    shown = kill_at_acknowledgement(env, kill_at=7)
    stored = stored_actions(tmp_path)
    assert len(shown) == 7
    for index, action in shown.items():
        assert index < len(stored) and stored[index] == action, (index, action, stored[index:index + 1])

    again = child(env, "resume")
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, err[-2000:]
    resumed = next(line for line in out.splitlines() if line.startswith("resumed "))
    _, screen, count, prompt = resumed.split(" ", 3)
    assert screen == "board99-game" and int(count) == len(stored)
    # The simulated board starts empty after a restart: the referee asks for the pegs back first.
    assert "back on square" in json.loads(prompt)


def test_the_first_acknowledged_action_survives_a_kill_at_once(tmp_path: Path) -> None:
    shown = kill_at_acknowledgement(app_env(tmp_path), kill_at=1)
    stored = stored_actions(tmp_path)
    assert [stored[i] for i in shown] == list(shown.values())
