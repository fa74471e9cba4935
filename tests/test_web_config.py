"""[web] in the config: checked with clear lines, safe fallbacks, and a port already taken."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app.config import ConfigError, load_config_or_default, parse_config
from app.games.live import LiveTable
from app.store import GameStore
from app.web.launch import start_web

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_and_a_full_section() -> None:
    assert parse_config("").web == {"enabled": True, "port": 8099, "bind": "0.0.0.0", "address": "",
                                    "max_viewers": 250}
    web = parse_config('[web]\nenabled = false\nport = 9000\nbind = "127.0.0.1"\naddress = "t.local"\n').web
    assert web["enabled"] is False and web["port"] == 9000 and web["bind"] == "127.0.0.1"


@pytest.mark.parametrize("text,message", [
    ("[web]\nport = 80", "config.toml: [web] port: must be between 1024 and 65535, got 80"),
    ('[web]\nport = "8099"', "config.toml: [web] port: expected an integer, got '8099'"),
    ('[web]\nbind = "my-pi"', "config.toml: [web] bind: must be an IP address"),
    ("[web]\nprot = 9000", "config.toml: [web] prot: unknown key (did you mean 'port'?)"),
    ("[web]\nenabled = 1", "config.toml: [web] enabled: expected true or false, got 1"),
    ("web = 3", "config.toml: [web]: expected a table, got 3"),
])
def test_bad_values_name_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_a_bad_web_section_falls_back_to_safe_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[web]\nport = 1\n", encoding="utf-8")
    config, problem = load_config_or_default(path)
    assert problem is not None and "[web] port" in problem
    assert config.web["port"] == 8099


def test_a_port_already_taken_is_one_line_and_nothing_starts(tmp_path: Path) -> None:
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen()
    port = blocker.getsockname()[1]
    try:
        live = LiveTable(GameStore(tmp_path / "g.sqlite3"))
        server, problem = start_web(parse_config('[web]\nbind = "127.0.0.1"'), live, port=port)
        assert server is None and problem is not None
        assert problem.startswith(f"the web display cannot listen on 127.0.0.1:{port}:")
        assert "\n" not in problem and live.web is None
    finally:
        blocker.close()


def test_disabled_starts_nothing(tmp_path: Path) -> None:
    live = LiveTable(GameStore(tmp_path / "g.sqlite3"))
    assert start_web(parse_config("[web]\nenabled = false"), live) == (None, None)


def test_the_commands_take_their_options() -> None:
    for argv in (["run", "--help"], ["web", "--help"]):
        out = subprocess.run([sys.executable, "-m", "app", *argv], cwd=ROOT, capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 0
    assert "--web-port" in subprocess.run([sys.executable, "-m", "app", "run", "--help"], cwd=ROOT,
                                          capture_output=True, text=True, timeout=60).stdout
    bad = subprocess.run([sys.executable, "-m", "app", "web", "--port", "70000"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--port 70000: must be between 0 and 65535" in bad.stderr
