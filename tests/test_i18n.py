"""Every user-facing string written as tr("...") in app/ has a German translation."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from app import i18n

APP = Path(__file__).resolve().parent.parent / "app"


def tr_literals() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in APP.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            literal_args = {"tr": 1, "_": 1, "trn": 2}.get(node.func.id, 0)
            for arg in node.args[:literal_args]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.setdefault(arg.value, f"{path.relative_to(APP)}:{node.lineno}")
    for path in APP.rglob("*.kv"):
        # kv files call tr('...') with single or double quotes
        text = path.read_text(encoding="utf-8")
        for quote in ("'", '"'):
            start = 0
            needle = f"tr({quote}"
            while (i := text.find(needle, start)) != -1:
                j = text.find(quote, i + len(needle))
                found.setdefault(text[i + len(needle) : j], f"{path.relative_to(APP)}")
                start = j + 1
    return found


def test_every_string_has_german() -> None:
    german = i18n.catalog("de")
    missing = {s: where for s, where in tr_literals().items() if s not in german}
    assert not missing, "untranslated strings (add them to app/locale/de/*.json):\n" + "\n".join(
        f"  {where}: {s!r}" for s, where in sorted(missing.items(), key=lambda kv: kv[1])
    )


def test_catalogs_are_json_objects_with_matching_placeholders() -> None:
    import string

    fmt = string.Formatter()
    for path in sorted((APP / "locale").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict), path
        for english, german in data.items():
            want = {f for _, f, _, _ in fmt.parse(english) if f}
            got = {f for _, f, _, _ in fmt.parse(german) if f}
            assert want == got, f"{path.name}: {english!r} -> {german!r} placeholders differ"


def test_tr_switches_language_and_fills_values(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(i18n.catalog("de"), "Hello {name}", "Hallo {name}")
    i18n.set_language("de")
    try:
        assert i18n.tr("Hello {name}", name="Ann") == "Hallo Ann"
        assert i18n.tr("No translation here") == "No translation here"
    finally:
        i18n.set_language("en")
    assert i18n.tr("Hello {name}", name="Ann") == "Hello Ann"


def test_trn_picks_singular_or_plural_and_translates_both() -> None:
    assert i18n.trn("{n} card", "{n} cards", 1) == "1 card"
    assert i18n.trn("{n} card", "{n} cards", 0) == "0 cards"
    assert i18n.trn("{n} card", "{n} cards", 2) == "2 cards"
    i18n.set_language("de")
    try:
        assert i18n.trn("{n} card", "{n} cards", 1) == "1 Karte"
        assert i18n.trn("{n} card", "{n} cards", 3) == "3 Karten"
    finally:
        i18n.set_language("en")
