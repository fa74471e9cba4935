"""``[board.serial]`` validation, the emulator's command language and ``table99 board-emulator``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.config import ConfigError, parse_config
from app.sources import make_source
from firmware_bridge.emulator_script import Command, ScriptError, parse_line, parse_script
from firmware_bridge.serial_source import DEFAULT_PORT, SerialBoardSource

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_use_the_udev_name() -> None:
    source = make_source(parse_config('[board]\nsource = "serial"\n'))
    assert isinstance(source, SerialBoardSource)
    assert (source.port, source.baud, source.heartbeat_timeout) == (DEFAULT_PORT, 115200, 2.0)
    assert DEFAULT_PORT == "/dev/table99-board"
    rule = (ROOT / "deploy/udev/99-table99-board.rules").read_text()
    assert 'SYMLINK+="table99-board"' in rule and 'ATTRS{idVendor}=="2e8a"' in rule


def test_options_reach_the_source() -> None:
    config = parse_config('[board]\nsource = "serial"\n[board.serial]\nport = "/dev/ttyACM3"\nbaud = 230400\n'
                          "heartbeat_timeout = 3\n")
    source = make_source(config)
    assert isinstance(source, SerialBoardSource)
    assert (source.port, source.baud, source.heartbeat_timeout) == ("/dev/ttyACM3", 230400, 3.0)


@pytest.mark.parametrize("body, message", [
    ("bauds = 9600", "[board.serial] bauds: unknown key (did you mean 'baud'?)"),
    ('baud = "fast"', "[board.serial] baud: expected an integer, got 'fast'"),
    ("baud = 12345", "[board.serial] baud: must be one of 9600"),
    ('port = "  "', "[board.serial] port: must name a serial device"),
    ("heartbeat_timeout = 0.1", "[board.serial] heartbeat_timeout: must be between 1.0 and 60.0"),
    ("heartbeat_timeout = 1.0\nhandshake_timeout = 2.0", "heartbeat_timeout: must be longer than handshake"),
])
def test_config_mistakes_say_what_and_where(body: str, message: str) -> None:
    config = parse_config(f'[board]\nsource = "serial"\n[board.serial]\n{body}\n', "/etc/table99/config.toml")
    with pytest.raises(ConfigError) as caught:
        make_source(config)
    assert message in str(caught.value)
    assert str(caught.value).startswith("/etc/table99/config.toml: [board.serial]")


def test_emulator_commands_parse_and_mistakes_name_the_line() -> None:
    assert parse_line("place 1 2, 3") == Command("place", (1, 2, 3))
    assert parse_line("  # a comment") is None
    assert parse_line("12 13") == Command("toggle", (12, 13))
    assert parse_line("set") == Command("set", ())
    assert parse_line("WAIT 0.25") == Command("wait", number=0.25)
    assert parse_script("clear\n\nrestart # again\n") == [Command("clear"), Command("restart")]
    for line, reason in [("place 100", "'100' is not a hole (0..99)"), ("remove", "needs at least one hole"),
                         ("wait soon", "needs a number"), ("plug in", "takes nothing after it"),
                         ("garbage 2.5", "out of range"), ("jump 3", "unknown command 'jump'")]:
        with pytest.raises(ScriptError, match=reason.replace("(", r"\(").replace(")", r"\)")):
            parse_line(line)
    with pytest.raises(ScriptError, match=r"moves\.txt line 2: unknown command"):
        parse_script("place 1\nplaec 2\n", "moves.txt")


def test_board_emulator_command_prints_its_port_and_runs_a_script(tmp_path: Path) -> None:
    script = tmp_path / "pegs.txt"
    script.write_text("place 3 4\nremove 3\nshow\n")
    link = tmp_path / "board"
    done = subprocess.run([sys.executable, "-m", "app.cli", "board-emulator", "--link", str(link),
                           "--script", str(script), "--no-keyboard", "--pegs", "9"],
                          capture_output=True, text=True, timeout=30, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert f'[board.serial] port = "{link}"' in done.stdout
    assert "board emulator on /dev/pts/" in done.stdout
    assert "pegs: 4 9" in done.stdout
    assert not link.exists()  # the link goes with the emulator, like a board unplugged


def test_board_emulator_command_rejects_a_bad_script_before_starting(tmp_path: Path) -> None:
    script = tmp_path / "pegs.txt"
    script.write_text("place 3\nput 4\n")
    done = subprocess.run([sys.executable, "-m", "app.cli", "board-emulator", "--script", str(script)],
                          capture_output=True, text=True, timeout=30, cwd=ROOT, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == f"{script} line 2: unknown command 'put'; known: place, remove, toggle, " \
        "set, clear, restart, unplug, plug, freeze, thaw, show, help, quit, wait, garbage"


def test_the_app_connects_to_the_emulator_command_as_to_a_real_board(tmp_path: Path) -> None:
    """Keyboard input drives the emulator process; the configured source sees the pegs."""
    pytest.importorskip("serial")
    link = tmp_path / "board"
    config = parse_config(f'[board]\nsource = "serial"\n[board.serial]\nport = "{link}"\n'
                          "retry_interval = 0.05\n")
    source = make_source(config)
    readings: list[frozenset[int]] = []
    source.subscribe(lambda e: readings.append(e.occupied) if hasattr(e, "occupied") else None)
    source.start()
    process = subprocess.Popen([sys.executable, "-m", "app.cli", "board-emulator", "--link", str(link)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert process.stdin is not None and process.stdout is not None
        assert "board emulator on" in process.stdout.readline()
        process.stdin.write("place 12 34\n")
        process.stdin.flush()
        deadline = time.monotonic() + 10
        while frozenset({12, 34}) not in readings and time.monotonic() < deadline:
            time.sleep(0.01)
        assert frozenset({12, 34}) in readings
        assert source.health.ok
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(timeout=10) == 0
    finally:
        source.stop()
        if process.poll() is None:
            process.kill()
            process.wait()
