"""Where Table99 keeps its files: ``$TABLE99_DATA_DIR``, else the XDG data directory."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The directory for games and calibration (created on first use)."""
    explicit = os.environ.get("TABLE99_DATA_DIR")
    if explicit:
        path = Path(explicit)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "table99"
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_database() -> Path:
    return data_dir() / "games.sqlite3"
