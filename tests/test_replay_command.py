"""``table99 replay`` rejects unreadable input with exit status 2 and one line saying where."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", "replay", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_missing_file(tmp_path: Path) -> None:
    result = run(str(tmp_path / "nope.json"), "--json")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "nope.json" in result.stderr and "cannot read" in result.stderr


def test_broken_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "table99/board99",\n "players": [}\n')
    result = run(str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert "broken.json:2:" in result.stderr and "not valid JSON" in result.stderr


def test_unknown_format_lists_the_known_ones(tmp_path: Path) -> None:
    path = tmp_path / "chess.json"
    path.write_text('{"format": "pgn"}')
    result = run(str(path), "--json")
    assert result.returncode == 2
    assert "unknown format 'pgn'" in result.stderr and "table99/count99" in result.stderr


def test_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    assert "a record is a JSON object" in run(str(path)).stderr


def test_deep_nesting_and_a_huge_number_are_one_line_each(tmp_path: Path) -> None:
    """Issue 17, point 5: a RecursionError and a ValueError (int of 5,000 digits) were tracebacks."""
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "table99/board99", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    huge = tmp_path / "huge.json"
    huge.write_text('{"format": "table99/board99", "version": ' + "9" * 5000 + "}")
    for path, says in ((deep, "nested too deep"), (huge, "not usable")):
        result = run(str(path), "--json")
        assert result.returncode == 2 and result.stdout == "", result.stderr[-500:]
        assert result.stderr.count("\n") == 1 and path.name in result.stderr and says in result.stderr
        assert len(result.stderr) < 600


def test_a_fault_inside_a_replay_module_is_still_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The net under the replay modules: a record nobody thought of (here: a module that trips
    over it with a KeyError) is exit status 2 and one line, never a traceback."""
    import argparse
    import importlib

    from app.commands import replay

    module = importlib.import_module(replay.REPLAYERS["table99/count99"])

    def trips(record: object) -> object:
        raise KeyError("a field nobody thought of")

    monkeypatch.setattr(module, "replay_json", trips)
    path = tmp_path / "odd.json"
    path.write_text('{"format": "table99/count99"}')
    status = replay.main(argparse.Namespace(file=path, json=True))
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "odd.json" in err and "cannot be replayed (KeyError" in err
