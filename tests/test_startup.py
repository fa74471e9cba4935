"""The app always starts (issue 17, point 1): each of these stopped ``table99 run`` with a traceback.

Driven through ``table99 run`` itself (only ``App.run`` is replaced by building into the test
window), and through ``table99 config``, which must report the same problems run acts on.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.cli import main as table99
from app.startup import database_problem, move_aside, plan_startup
from tests.test_config_ui import shown_texts, start_app

pytestmark = pytest.mark.ui

DEEP = "x = " + "[" * 3000 + "]" * 3000 + "\n"
LONG_BAUD = "[board]\nsource = 'serial'\n[board.serial]\nbaud = " + "9" * 5000 + "\n"
LONG_HEX = "[app]\nfullscreen = 0x" + "f" * 4000 + "\n"
HEX_BAUD = "[board]\nsource = 'serial'\n[board.serial]\nbaud = 0x" + "f" * 4000 + "\n"  # parses; str() fails


@pytest.mark.parametrize(("text", "says"), [
    (DEEP, "nested too deep"),
    (LONG_BAUD, "not usable"),
    (LONG_HEX, "[app] fullscreen: expected true or false, got <a int too large to show>"),
    (HEX_BAUD, "[board.serial] baud: must be one of 9600"),
])
def test_a_config_the_parser_chokes_on_still_starts_the_app(
    ui: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str, says: str
) -> None:
    app = start_app(ui, monkeypatch, text, tmp_path)
    home = shown_texts(app.root)
    assert "Problem:" in home and says in home
    problem = app.config_problem
    assert "\n" not in problem and len(problem) < 400  # one line, not a 5,000-digit number


def test_a_damaged_game_database_is_moved_aside_and_a_new_one_started(
    ui: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = Path(os.environ["TABLE99_DATA_DIR"])
    data.mkdir(parents=True, exist_ok=True)
    junk = b"SQLite format 3\x00" + bytes(range(256)) * 40
    (data / "games.sqlite3").write_bytes(junk)
    app = start_app(ui, monkeypatch, "", tmp_path)
    home = shown_texts(app.root)
    kept = [p for p in data.iterdir() if p.name.startswith("games.sqlite3.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == junk  # moved, never deleted
    assert "is damaged" in home and str(kept[0]) in home
    game_id = app.ctx.store.create_game("count99", {})  # the new store works
    assert app.ctx.store.load(game_id).kind == "count99"
    assert database_problem(data / "games.sqlite3") is None


def test_a_settings_file_that_is_not_utf8_is_moved_aside(
    ui: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = Path(os.environ["TABLE99_DATA_DIR"])
    data.mkdir(parents=True, exist_ok=True)
    (data / "settings.json").write_bytes(b'{"language": "\xff\xfe"}')
    app = start_app(ui, monkeypatch, "[app]\nlanguage = 'de'\n", tmp_path)
    assert "not UTF-8" in app.config_problem
    assert [p.name[:22] for p in data.iterdir() if "damaged" in p.name] == ["settings.json.damaged-"]
    from app import i18n

    assert i18n.language() == "de"  # the config's language, since the settings were unreadable


def test_an_unusable_data_dir_falls_back_and_says_so(
    ui: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("TABLE99_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    app = start_app(ui, monkeypatch, f"[app]\ndata_dir = '{blocker / 'games'}'\n", tmp_path)
    assert "[app] data_dir" in app.config_problem and "cannot be used" in app.config_problem
    assert Path(os.environ["TABLE99_DATA_DIR"]) == tmp_path / "xdg" / "table99"
    assert (tmp_path / "xdg" / "table99" / "games.sqlite3").exists()


def test_table99_config_reports_what_run_would_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = Path(os.environ["TABLE99_DATA_DIR"])
    data.mkdir(parents=True, exist_ok=True)
    (data / "games.sqlite3").write_bytes(b"garbage" * 100)
    config = tmp_path / "config.toml"
    config.write_text("[app]\nlanguage = 'de'\n")
    assert table99(["config", str(config)]) == 2
    out, err = capsys.readouterr()
    assert f"The app keeps its games in {data}" in out
    plan = plan_startup(config)
    assert plan.problems and all(problem in err for problem in plan.problems)
    assert (data / "games.sqlite3").read_bytes() == b"garbage" * 100  # config only looks


def test_move_aside_keeps_every_copy_and_the_wal(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    for n in range(3):
        db.write_text(f"copy {n}")
        (tmp_path / "games.sqlite3-wal").write_text(f"wal {n}")
        moved = move_aside(db, now=0)
        assert moved.read_text() == f"copy {n}" and not db.exists()
        assert Path(f"{moved}-wal").read_text() == f"wal {n}"
    assert len(list(tmp_path.glob("games.sqlite3.damaged-*"))) == 6


def test_a_half_written_database_is_found_damaged(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t(x)")
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])  # a power cut during a copy
    assert database_problem(db) is not None
