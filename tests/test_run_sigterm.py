"""``systemctl stop`` ends the app, also in exhibitor mode (which refuses window close requests).

A real ``table99 run`` in a child process on SDL's offscreen driver: the service manager's SIGTERM
used to reach the kiosk lock as a close request, be refused, and leave the service to be killed
after systemd's stop timeout (the scratch store and web display never closed)."""

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
    env.update(SDL_VIDEODRIVER="offscreen", TABLE99_CONFIG=str(path), TABLE99_DATA_DIR=str(tmp_path / "data"),
               KIVY_LOG_MODE="PYTHON", HOME=str(tmp_path))
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
