"""Translations: English text is the key, other languages come from JSON catalogs.

Write every user-facing string as ``tr("Whose turn: {name}", name=...)``, and a count as
``trn("{n} card", "{n} cards", n)`` so "1 card" is not "1 cards" (English and German both have one
singular and one plural form, so two literals are enough). German (and any later
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
# Texts asked for in a language other than English that its catalog lacks (shown in English): the
# screen audit clears this before building a screen and fails on any entry (tests/test_screen_audit.py).
MISSING: set[tuple[str, str]] = set()


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
    strings = catalog(_language)
    translated = strings.get(text)
    if translated is None:
        if _language != "en":
            MISSING.add((_language, text))
        translated = text
    return translated.format(**values) if values else translated


def trn(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """The singular or plural text for ``count`` in the current language; ``{n}`` is the count."""
    return tr(singular if count == 1 else plural, n=count, **values)
