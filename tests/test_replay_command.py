"""``table99 replay`` rejects unreadable input with exit status 2 and one line saying where."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
