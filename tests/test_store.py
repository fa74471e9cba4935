"""The game store keeps every committed action, across reopen, undo and corrections."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.store import GameStore, StoreError


def test_actions_survive_reopen_in_order(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        gid = store.create_game("board99", {"players": ["Ann", "Ben"]}, title="Ann v Ben")
        for i in range(5):
            assert store.append(gid, {"by": "Ann", "do": "draw", "n": i}) == i
    with GameStore(path) as store:
        game = store.load(gid)
        assert game.kind == "board99" and game.title == "Ann v Ben"
        assert game.setup == {"players": ["Ann", "Ben"]}
        assert [a["n"] for a in game.actions] == [0, 1, 2, 3, 4]
        assert [g.id for g in store.unfinished("board99")] == [gid]


def test_pop_last_is_undo_and_reopens_a_finished_game(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    gid = store.create_game("count99", {})
    store.append(gid, {"n": 1})
    store.append(gid, {"n": 2})
    store.set_status(gid, "finished", "Ann wins")
    assert store.pop_last(gid) == {"n": 2}
    game = store.load(gid)
    assert game.actions == ({"n": 1},) and game.status == "playing" and game.result == ""
    assert store.pop_last(gid) == {"n": 1}
    assert store.pop_last(gid) is None


def test_replace_actions_and_history_filters(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    a = store.create_game("parlett", {"variant": "three"})
    b = store.create_game("board99", {})
    store.append(a, {"deal": 1})
    store.replace_actions(a, [{"deal": "x"}, {"deal": "y"}])
    assert store.load(a).actions == ({"deal": "x"}, {"deal": "y"})
    store.set_status(b, "finished", "tie")
    assert [g.id for g in store.games(kind="parlett")] == [a]
    assert [g.id for g in store.games(status="finished")] == [b]
    assert store.games(kind="parlett")[0].actions == 2
    with pytest.raises(ValueError, match="unknown game status"):
        store.set_status(a, "won")
    with pytest.raises(KeyError):
        store.load(999)


def test_wal_mode_and_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    GameStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_damaged_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=str(path.name)):
        GameStore(path)
