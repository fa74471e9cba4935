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
import shutil
import tempfile
from pathlib import Path

from app.store import GameStore


class ScratchStore(GameStore):
    """A GameStore whose file and folder are removed at :meth:`close` (idempotent)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._closed = False
        super().__init__(folder / "exhibit-scratch.sqlite3")
        atexit.register(self.close)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            super().close()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            atexit.unregister(self.close)


def scratch_store() -> GameStore:
    """A new, empty store the family never sees (see the module docstring)."""
    folder = Path(tempfile.mkdtemp(prefix="table99-exhibit-"))  # mode 0700: only this user
    try:
        return ScratchStore(folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
