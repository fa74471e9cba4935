"""The store the demo's games live in: a private temporary file, removed when it is closed. No kivy.

The attract loop's and visitors' games go through the same game, referee and session classes as the
family's, so they need a :class:`~app.store.GameStore`; this one is a real SQLite file (WAL, the same
schema, listeners for the web display) in a fresh ``0700`` temporary folder, so nothing of it reaches
the family's history, and closing it (or the process ending normally) deletes the folder. After a
power cut the folder is left in the system's temporary directory, which Raspberry Pi OS empties at boot
(``/tmp`` is cleared), and never in the data directory.
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from app import quick_exit
from app.store import GameStore


class ScratchStore(GameStore):
    """A GameStore whose file and folder are removed at :meth:`close` (idempotent)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._closed = False
        self._next_id = 1
        super().__init__(folder / "exhibit-scratch.sqlite3")
        atexit.register(self.close)
        quick_exit.close_on_exit(self._close_for_exit)

    def create_game(self, kind: str, setup: dict[str, Any], title: str = "") -> int:
        """As the family store's, but an id is never given twice in a run. SQLite gives the next game
        the deleted newest one's id, and every demo is deleted: each would be game 1, and a phone
        following the loop (app/web/follow.py) could not tell the next demo from the last one (its
        page announces "Now showing" for a new id, and "Taken back." for a shorter log of the same)."""
        now = time.time()
        with self._transaction() as db:
            newest = db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
            game_id = self._next_id = max(self._next_id, int(newest) + 1)
            self._next_id += 1
            db.execute("INSERT INTO games(id, kind, title, setup, created, updated) VALUES (?,?,?,?,?,?)",
                       (game_id, kind, title, json.dumps(setup, ensure_ascii=False), now, now))
        self._changed(game_id)  # web display
        return game_id

    def close(self, *, for_exit: bool = False) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            super().close(for_exit=for_exit)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            atexit.unregister(self.close)
            quick_exit.forget(self._close_for_exit)

    def _close_for_exit(self) -> None:
        """A SIGTERM's quick exit skips atexit (app/quick_exit.py): the folder goes then too."""
        self.close(for_exit=True)


def scratch_store() -> GameStore:
    """A new, empty store the family never sees (see the module docstring)."""
    folder = Path(tempfile.mkdtemp(prefix="table99-exhibit-"))  # mode 0700: only this user
    try:
        return ScratchStore(folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
