"""``table99 exhibit unlock`` (review finding 6): staff locked out of the PIN pad for an hour at a
time by a child's wrong tries get the pad back from a shell on the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main as cli
from app.exhibit.lock import FREE_TRIES, StaffLock, StoredTries
from app.startup import DATABASE
from app.store import GameStore


def test_unlock_resets_the_stored_wrong_tries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("TABLE99_DATA_DIR", str(data))
    config = tmp_path / "config.toml"
    config.write_text("")
    store = GameStore(data / DATABASE)
    now = [0.0]
    lock = StaffLock("5823", clock=lambda: now[0], tries=StoredTries(store))
    for _ in range(FREE_TRIES + 5):
        now[0] += 10_000
        lock.attempt("0000")
    assert StoredTries(store).get() == FREE_TRIES + 5
    store.close()

    assert cli(["exhibit", "unlock", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "8 wrong tries" in out and "restart" in out

    store = GameStore(data / DATABASE)
    try:
        assert StoredTries(store).get() == 0
        assert StaffLock("5823", clock=lambda: 0.0, tries=StoredTries(store)).wait_seconds() == 0
    finally:
        store.close()


def test_unlock_without_a_database_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TABLE99_DATA_DIR", str(tmp_path / "nothing-here"))
    config = tmp_path / "config.toml"
    config.write_text("")
    assert cli(["exhibit", "unlock", "--config", str(config)]) == 1
    assert "no games database" in capsys.readouterr().err
    assert not (tmp_path / "nothing-here" / DATABASE).exists()  # never creates one
