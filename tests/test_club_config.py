"""``table99 config`` on ``[club]`` and ``[web]`` (issue 32, point 14): it said nothing of either and
called a ``[club] username`` other than the table's name fine, which ``table99 run`` then refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main as table99

CLUB = '[club]\nenabled = true\nhost = "hub.local"\ntable = "t3"\npassword = "secret-pw"\n'


def run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    status = table99(["config", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def test_config_says_what_club_and_web_mean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CLUB + '[web]\nport = 8100\n', encoding="utf-8")
    status, out, _ = run(capsys, path)
    assert status == 0
    assert 'club hub:      on: reports as table "t3" to the broker hub.local:1883' in out
    assert 'broker user:  "t3"; password set (not shown)' in out and "secret-pw" not in out
    assert "web display:   on" in out and "port 8100" in out
    path.write_text("[web]\nenabled = false\n", encoding="utf-8")
    status, out, _ = run(capsys, path)
    assert "club hub:      off" in out and "web display:   off" in out


def test_a_club_username_other_than_the_table_is_an_error_as_run_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.club.launch import start_club
    from app.config import load_config

    path = tmp_path / "config.toml"
    path.write_text(CLUB + 'username = "t4"\n', encoding="utf-8")
    status, out, err = run(capsys, path)
    _, refused = start_club(load_config(path), store=None)
    assert status == 2 and "is fine" not in out
    assert refused is not None and refused in err  # the same words as run's
