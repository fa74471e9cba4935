"""The table's own choices, kept in the data directory's ``settings.json`` (not the config file).

Several screens read and write it (the language on the home screen, the board game's layout in
its setup, the exhibit's visitor, the interface options in :mod:`app.ui.preferences`), so it is a
service of its own rather than a part of one screen. A file that is missing, unreadable or not a
JSON object reads as empty: a hand-edited or damaged file never stops the app (``app.startup``
moves a damaged one aside at start).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from app.paths import data_dir

log = logging.getLogger(__name__)
SETTINGS_FILE = "settings.json"


def load_settings() -> dict[str, Any]:
    path = data_dir() / SETTINGS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # unreadable, not UTF-8, not JSON: defaults
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(settings: dict[str, Any]) -> None:
    try:
        (data_dir() / SETTINGS_FILE).write_text(json.dumps(settings), encoding="utf-8")
    except OSError as exc:  # a full or read-only disk: the choice holds until the app stops
        log.error("cannot save the settings: %s", exc)
