"""Health sentences from the drivers reach the screen translated (German), the terminal in English.

Drivers (hardware/, firmware_bridge/, vision/) may not import the app's ``tr``, so they say
``health_message("English {template}", ...)`` and the app translates the template. These tests find
every template the drivers can emit by reading their source, and check each has German with the
same placeholders; and that no driver builds a health with a plain, untranslatable detail.
"""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import pytest

from app import i18n
from app.games.board99.texts import health_text
from hardware.board_source import HealthState, SourceHealth, health_message

ROOT = Path(__file__).resolve().parent.parent
DRIVER_FOLDERS = ("hardware", "firmware_bridge", "vision")
HARDWARE_CATALOG = ROOT / "app" / "locale" / "de" / "hardware.json"


def _driver_files() -> list[Path]:
    files = []
    for folder in DRIVER_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "firmware" in path.relative_to(ROOT).parts[1:2]:  # MicroPython on the board: no app there
                continue
            files.append(path)
    return files


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    found = []
    for path in _driver_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return found


def driver_templates() -> dict[str, str]:
    """Every health template in the drivers' source -> where it is (a non-literal fails)."""
    templates: dict[str, str] = {}
    for where, call in _calls("health_message"):
        first = call.args[0] if call.args else None
        assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
            f"{where}: health_message needs a literal template, so its German can be checked")
        templates.setdefault(first.value, where)
    return templates


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_the_drivers_emit_translatable_health_messages() -> None:
    templates = driver_templates()
    # the scan found the drivers' messages (a broken scan must not pass by finding nothing)
    assert "no board at {port}" in templates
    assert "the sensor matrix answers" in templates
    assert "looking for the board's stickers" in templates


def test_every_driver_template_has_german_with_the_same_placeholders() -> None:
    german = json.loads(HARDWARE_CATALOG.read_text(encoding="utf-8"))
    missing = {t: where for t, where in driver_templates().items() if t not in german}
    assert not missing, "health templates without German (add them to app/locale/de/hardware.json):\n" + \
        "\n".join(f"  {where}: {t!r}" for t, where in sorted(missing.items()))
    for template in driver_templates():
        assert _placeholders(german[template]) == _placeholders(template), template


def test_no_driver_builds_a_health_with_a_plain_english_detail() -> None:
    plain = [where for where, call in _calls("SourceHealth")
             if len(call.args) > 1 or any(k.arg == "detail" for k in call.keywords)]
    assert not plain, "use message=health_message(...) so the screen can translate it:\n" + "\n".join(plain)


def test_a_nested_message_renders_in_english_for_logs_and_german_for_the_screen() -> None:
    lost = health_message("{problem}; retrying", problem=health_message("no board at {port}", port="/dev/x"))
    health = SourceHealth(HealthState.LOST, message=lost)
    assert health.detail == "no board at /dev/x; retrying"
    assert health_text(health) == "Board: connection lost, retrying (no board at /dev/x; retrying)"
    i18n.set_language("de")
    try:
        text = health_text(health)
    finally:
        i18n.set_language("en")
    assert text == "Brett: Verbindung verloren, neuer Versuch läuft (kein Brett an /dev/x; neuer Versuch)"


def test_a_list_of_problems_is_joined_and_each_translated() -> None:
    where = {"row": 1, "column": 4}
    problems = (health_message("hole {hole} (row {row}, column {column}) flickers", hole=3, **where),
                health_message("hole {hole} (row {row}, column {column}) may be stuck", hole=3, **where))
    health = SourceHealth(HealthState.CONNECTED, message=health_message("{problems}", problems=problems))
    assert health.detail == "hole 3 (row 1, column 4) flickers; hole 3 (row 1, column 4) may be stuck"
    i18n.set_language("de")
    try:
        text = health.text(i18n.tr)
    finally:
        i18n.set_language("en")
    assert text == "Loch 3 (Reihe 1, Spalte 4) flackert; Loch 3 (Reihe 1, Spalte 4) klemmt vielleicht"


def test_an_old_style_plain_detail_is_still_shown_as_it_is() -> None:
    assert health_text(SourceHealth(HealthState.LOST, "cable")) == "Board: connection lost, retrying (cable)"


def test_a_template_with_a_missing_value_fails_in_the_driver() -> None:
    with pytest.raises(KeyError):
        health_message("no board at {port}")


def test_a_real_driver_health_reaches_the_screen_in_german() -> None:
    from hardware.gpio_source import GpioBoardSource

    def no_gpio() -> None:
        raise OSError("no GPIO here")

    source = GpioBoardSource(no_gpio)  # type: ignore[arg-type]
    source.start()
    try:
        assert source.health.detail == "cannot open the GPIO sensors: no GPIO here"  # logs, terminal
        i18n.set_language("de")
        try:
            shown = health_text(source.health)
        finally:
            i18n.set_language("en")
    finally:
        source.stop()
    assert shown == "Brett: funktioniert nicht (die GPIO-Sensoren lassen sich nicht öffnen: no GPIO here)"
