"""The store's durability settings, and a kill at every system call of a commit (issue 17, point 9).

SQLite's promise (an action whose commit returned survives) holds only with the settings the store
asks for, so they are asserted on the live connection. Then a child process appends actions and
says "acked N" after each append returns; ``strace`` kills it with SIGKILL at the K-th ``pwrite64``,
``fdatasync``, ``write`` or ``ftruncate`` of the last commit, for every K. After each kill the
database must open cleanly, hold every acknowledged action, and hold a prefix of the actions.
(A kill is not a power cut: data written but not yet synced survives a kill in the page cache.
The synchronous level asserted below is what carries the promise over a power cut.)
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
SYSCALLS = ("pwrite64", "fdatasync", "write", "ftruncate")

APPENDER = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[2])
    from app.store import GameStore
    store = GameStore(sys.argv[1])
    game = store.create_game("count99", {})
    for i in range(int(sys.argv[3])):
        store.append(game, {"i": i})
        print("acked", i, flush=True)
""")


def test_the_store_runs_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    try:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    finally:
        store.close()


def counts(tmp_path: Path, appends: int) -> dict[str, int]:
    db = tmp_path / f"count{appends}.sqlite3"
    done = subprocess.run(["strace", "-f", "-c", "-e", f"trace={','.join(SYSCALLS)}", sys.executable, "-c",
                           APPENDER, str(db), str(ROOT), str(appends)],
                          capture_output=True, text=True, timeout=60, check=True)
    found = {name: 0 for name in SYSCALLS}
    for line in done.stderr.splitlines():
        parts = line.split()
        if parts and parts[-1] in found:
            found[parts[-1]] = int(parts[3])
    return found


def killed_at(tmp_path: Path, syscall: str, when: int, appends: int) -> tuple[list[int], Path]:
    db = tmp_path / f"{syscall}-{when}.sqlite3"
    done = subprocess.run(["strace", "-f", "-o", "/dev/null", "-e", f"trace={syscall}",
                           "-e", f"inject={syscall}:signal=KILL:when={when}", sys.executable, "-c",
                           APPENDER, str(db), str(ROOT), str(appends)],
                          capture_output=True, text=True, timeout=60, check=False)
    acked = [int(n) for n in re.findall(r"^acked (\d+)$", done.stdout, re.M)]
    return acked, db


def test_every_acknowledged_action_survives_a_kill_at_every_call_of_the_last_commit(tmp_path: Path) -> None:
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (scripts/setup dev installs it)")
    before, after = counts(tmp_path, 2), counts(tmp_path, 3)
    points = [(name, when) for name in SYSCALLS for when in range(before[name] + 1, after[name] + 1)]
    assert len(points) >= 5, (before, after)  # the last commit writes and syncs
    for syscall, when in points:
        acked, db = killed_at(tmp_path, syscall, when, appends=3)
        if not db.exists():
            assert acked == []
            continue
        conn = sqlite3.connect(db)
        try:
            assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok", (syscall, when)
            query = "SELECT json_extract(action, '$.i') FROM actions ORDER BY seq"
            stored = [row[0] for row in conn.execute(query)]
        finally:
            conn.close()
        assert stored == list(range(len(stored))), (syscall, when, stored)  # a prefix, in order
        assert set(acked) <= set(stored), (syscall, when, acked, stored)  # nothing acknowledged lost
