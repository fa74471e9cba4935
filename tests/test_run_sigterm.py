"""``systemctl stop`` ends the app, also in exhibitor mode (which refuses window close requests), at once.

A real ``table99 run`` in a child process on SDL's offscreen driver: the service manager's SIGTERM
used to reach the kiosk lock as a close request, be refused, and leave the service to be killed
after systemd's stop timeout (the scratch store and web display never closed). Then it waited for
the frame being drawn (seconds under emulation: the rehearsal's stop took 6.1 s) and left the game
store unclosed; app/quick_exit.py closes the store and ends the process without waiting."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE99 = Path(sys.executable).parent / "table99"


def _env(tmp_path: Path, config: str) -> dict[str, str]:
    path = tmp_path / "config.toml"
    path.write_text(config, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_", "TABLE99_"))}
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env.update(SDL_VIDEODRIVER="offscreen", TABLE99_CONFIG=str(path), TABLE99_DATA_DIR=str(tmp_path / "data"),
               KIVY_LOG_MODE="PYTHON", HOME=str(tmp_path), TMPDIR=str(tmp_path / "tmp"))
    return env


@pytest.mark.parametrize("exhibit", [True, False])
def test_sigterm_ends_the_app_cleanly(tmp_path: Path, exhibit: bool) -> None:
    config = '[exhibit]\nenabled = true\npin = "4711"\nnarration = false\n' if exhibit else ""
    child = subprocess.Popen([str(TABLE99), "run", "--web-port", "0"], cwd=tmp_path,
                             env=_env(tmp_path, config), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line)
            if "Start application main loop" in line:
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(120), "the app never reached its main loop:\n" + "".join(lines[-20:])
        time.sleep(1.0)  # a few frames of the loop (on_start has run before the main loop)
        child.send_signal(signal.SIGTERM)
        try:
            code = child.wait(60)  # systemd's default stop timeout is 90 s
        except subprocess.TimeoutExpired:
            pytest.fail("SIGTERM did not end the app:\n" + "".join(lines[-20:]))
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)
    reader.join(10)
    assert code == 0, "".join(lines[-20:])
    assert any("stopping: SIGTERM" in line for line in lines), "".join(lines[-20:])
    assert not any("Traceback" in line for line in lines), "".join(lines)
    # the quick exit skips atexit: the exhibit's scratch store still goes with its folder
    assert not list((tmp_path / "tmp").glob("table99-exhibit-*"))
    assert not (tmp_path / "data" / "games.sqlite3-wal").exists(), "the game store was not closed"


# The app as the service runs it, plus what the rehearsal's emulated Pi did: the frame being drawn
# when SIGTERM comes takes long (software GL under qemu: 4.9 s). This frame first commits a game's
# action through the app's own store, then draws on for 90 s, saying when it started and ended.
SLOW_FRAME = """
import signal, sys, time
from kivy.app import App
from kivy.clock import Clock

def slow_frame(_dt):
    if not callable(signal.getsignal(signal.SIGTERM)):  # the app's handler is not installed yet
        Clock.schedule_once(slow_frame, 0.1)
        return
    store = App.get_running_app().ctx.store
    game = store.create_game("count99", {"players": ["Ada", "Bob"]})
    store.append(game, {"play": "the last one shown"})
    print("committed: game", game, flush=True)
    print("slow frame: started", flush=True)
    for _ in range(1800):
        time.sleep(0.05)
    print("slow frame: ended", flush=True)

Clock.schedule_once(slow_frame, 0)
from app.cli import main
sys.argv = ["table99", "run", "--web-port", "0"]
sys.exit(main())
"""


def test_sigterm_during_a_long_frame_closes_the_store_and_ends_without_waiting(tmp_path: Path) -> None:
    env = _env(tmp_path, "")
    env.update(KIVY_NO_ARGS="1", KIVY_NO_CONFIG="1", KIVY_NO_FILELOG="1")
    child = subprocess.Popen([sys.executable, "-c", SLOW_FRAME], cwd=tmp_path, env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    lines: list[str] = []
    drawing = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line)
            if "slow frame: started" in line:
                drawing.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert drawing.wait(120), "the app never reached its main loop:\n" + "".join(lines[-20:])
        child.send_signal(signal.SIGTERM)
        try:
            code = child.wait(45)  # half the frame: an exit that waits for the frame cannot come in time
        except subprocess.TimeoutExpired:
            pytest.fail("SIGTERM waited for the frame being drawn:\n" + "".join(lines[-20:]))
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)
    reader.join(10)
    out = "".join(lines)
    assert code == 0, out[-3000:]
    assert "stopping: SIGTERM" in out
    assert "slow frame: ended" not in out  # it did not wait for the frame
    assert "Traceback" not in out, out
    # closed, not only killed: SQLite folded its write-ahead log back into the file
    data = tmp_path / "data"
    assert not (data / "games.sqlite3-wal").exists(), "the game store was not closed"
    from app.store import GameStore

    game = int(next(line for line in lines if line.startswith("committed: game")).split()[-1])
    with GameStore(data / "games.sqlite3") as store:
        assert list(store.load(game).actions) == [{"play": "the last one shown"}]


# The leaving thread itself (app/quick_exit.py), in a child it may end: closers in order, one that
# raises does not stop the others, one that hangs does not stop the exit (the deadline ends it).
LEAVING = """
import logging, signal, sys, threading, time
from app import quick_exit
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")

def first():
    print("closed: first", flush=True)

def broken():
    raise OSError("the disk is gone")

def hangs():
    print("closed: hangs (starts)", flush=True)
    threading.Event().wait()

for closer in (first, broken, hangs):
    quick_exit.close_on_exit(closer)
quick_exit.leave_on((signal.SIGTERM,), deadline=float(sys.argv[1]))
print("ready", flush=True)
while True:
    time.sleep(0.05)
"""


def test_leaving_runs_every_closer_and_ends_even_when_one_hangs(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", LEAVING, "1.0"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGTERM)
        code = child.wait(60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)
    out = child.stdout.read()
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "stopping: SIGTERM (the service manager or kill)", out
    assert lines.index("closed: first") < lines.index("closed: hangs (starts)"), out
    assert "the disk is gone" in out  # logged, and the next closer still ran
    assert "closing before the exit took over 1 s; leaving without it" in out
