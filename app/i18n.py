"""Translations: English text is the key, other languages come from JSON catalogs.

Write every user-facing string as ``tr("Whose turn: {name}", name=...)``. German (and any later
language) lives in ``app/locale/<lang>/*.json``: one flat object per area of the app
(``board99.json``, ``parlett.json``...), so several people can add strings without touching the
same file. ``tests/test_i18n.py`` fails when a ``tr("...")`` literal in the code has no German.

Why not gettext: ``.po`` files need a compile step (msgfmt) on every machine; JSON needs nothing.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).with_name("locale")
_language = "en"


@cache
def catalog(language: str) -> dict[str, str]:
    """All strings of one language, merged from its JSON files (empty for English)."""
    merged: dict[str, str] = {}
    folder = LOCALE_DIR / language
    if language == "en" or not folder.is_dir():
        return merged
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a catalog is one JSON object of English -> translation")
        merged.update(data)
    return merged


def set_language(language: str) -> None:
    global _language
    _language = language


def language() -> str:
    return _language


def tr(text: str, /, **values: Any) -> str:
    """``text`` in the current language, with ``{names}`` filled from ``values``."""
    translated = catalog(_language).get(text, text)
    return translated.format(**values) if values else translated
