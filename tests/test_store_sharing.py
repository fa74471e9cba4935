"""The games are shared by the service user and the desktop user of the table99 group (issue 17, 3).

The service runs with ``UMask=0007`` in a group-owned data directory; the database (and SQLite's
-wal and -shm beside it) must be writable by the group, or the desktop user's app crash-loops on
"attempt to write a readonly database" after a switch from console to desktop mode.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GROUP = 54321  # a group id of our own: the two users below share it and nothing else

WRITE = """
import os, sys
os.umask(0o007)
sys.path.insert(0, {root!r})
from store import GameStore
store = GameStore({db!r})
game = store.create_game("count99", {{}}, title=sys.argv[1])
store.append(game, {{"by": sys.argv[1]}})
print("ok", os.getuid(), os.getgid())
"""


def as_user(uid: int, code: Path, db: Path, name: str) -> subprocess.CompletedProcess[str]:
    """Run GameStore as ``uid`` of GROUP. The system's Python and a copy of store.py (standard
    library only): the checkout and its venv may sit in a directory only their owner can read."""
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to act as another user"
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    return subprocess.run(
        [setpriv, f"--reuid={uid}", f"--regid={GROUP}", "--clear-groups", python, "-c",
         WRITE.format(root=str(code), db=str(db)), name],
        capture_output=True, text=True, timeout=60, check=False)


def test_the_service_user_and_the_desktop_user_both_write_the_games(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to act as two other users")
    place = Path(tempfile.mkdtemp(prefix="table99-sharing-"))  # /tmp: reachable by other users
    try:
        place.chmod(0o755)
        shutil.copy2(ROOT / "app" / "store.py", place / "store.py")
        (place / "store.py").chmod(0o644)
        shared = place / "data"
        shared.mkdir()
        os.chown(shared, 0, GROUP)
        shared.chmod(0o2770)  # as the installer makes /var/lib/table99: group-owned, setgid
        check_both_users_write(place, shared)
    finally:
        shutil.rmtree(place)


def check_both_users_write(code: Path, shared: Path) -> None:
    db = shared / "games.sqlite3"
    service = as_user(64001, code, db, "service")
    assert service.returncode == 0, service.stderr
    for name in ("games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm"):
        path = shared / name
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) & 0o060 == 0o060, (name, oct(path.stat().st_mode))
    desktop = as_user(64002, code, db, "desktop")
    assert desktop.returncode == 0, desktop.stderr
