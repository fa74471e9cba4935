"""Every screen, in English and German, audited as rendered: contrast, touch targets, clipping, English.

The screens come from tests/screen_catalog.py. ``TABLE99_AUDIT_SCREENS=name,name`` audits only
those (any from ``SCREENS`` or ``EXTRA_SCREENS``, e.g. ``parlett-setup``); unset, all of both.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.screen_audit import Problem, audit
from tests.screen_catalog import EXTRA_SCREENS, SCREENS

pytestmark = pytest.mark.ui

chosen = os.environ.get("TABLE99_AUDIT_SCREENS")
ALL = {**SCREENS, **EXTRA_SCREENS}
NAMES = [n.strip() for n in chosen.split(",") if n.strip()] if chosen else list(ALL)
PLAYER_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eva", "Fin", "Mia", "Tom", "You")


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("name", NAMES)
def test_screen_passes_the_audit(ui: Any, name: str, language: str) -> None:
    from app import i18n

    i18n.set_language(language)
    i18n.MISSING.clear()
    try:
        ALL[name](ui)
        problems = audit(language, names=PLAYER_NAMES)
        ui.screenshot(f"audit-{name}-{language}")
    finally:
        i18n.set_language("en")
    problems += [Problem("untranslated", text) for lang, text in sorted(i18n.MISSING) if lang == language]
    assert not problems, f"{name} ({language}):\n" + "\n".join(map(str, problems))


def test_a_text_without_german_is_recorded() -> None:
    from app import i18n

    i18n.set_language("de")
    i18n.MISSING.clear()
    try:
        assert i18n.tr("Menu") == "Menü" and not i18n.MISSING
        assert i18n.tr("A sentence nobody translated") == "A sentence nobody translated"
    finally:
        i18n.set_language("en")
    assert {("de", "A sentence nobody translated")} == i18n.MISSING
    i18n.tr("Also untranslated, but asked in English")
    assert len(i18n.MISSING) == 1


def test_the_audit_finds_each_kind_of_problem(ui: Any) -> None:
    """The audit itself can fail: grey on grey, a 30 px button, text too big for its box, English."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from app.ui.widgets import Background

    box = BoxLayout(orientation="vertical")
    Background.paint(box)
    box.add_widget(Label(text="Grau auf grau", color=(0.25, 0.26, 0.30, 1), font_size=18))
    small = BoxLayout(size_hint_y=None, height=30)
    small.add_widget(Button(text="OK", size_hint_x=None, width=30))
    box.add_widget(small)
    box.add_widget(Label(text="Sehr langer Text " * 10, font_size=30, size_hint_y=None, height=30))
    box.add_widget(Label(text="Abbrechen oder Cancel", font_size=20))
    ui.show(box)
    checks = {p.check: str(p) for p in audit("de")}
    assert set(checks) == {"contrast", "touch", "clipped", "english"}, checks
    assert checks["english"].endswith("': Cancel")  # "Abbrechen" and "oder" are German
    assert isinstance(next(iter(audit("de"))), Problem)


def test_the_audit_checks_colours_given_in_markup(ui: Any) -> None:
    """A [color=...] tag inside the text is checked too: light red on a grey button is 2.65:1."""
    from kivy.uix.button import Button

    from app.ui import theme

    button = Button(text="[color=ff6060]\u2665[/color] = 7", markup=True, font_size=20,
                    background_normal="", background_color=theme.BUTTON)
    ui.show(button)
    found = [str(p) for p in audit("en")]
    assert any("[color] markup 2.6" in p for p in found), found


def test_the_audit_finds_shortened_text_and_lines_past_a_fixed_height(ui: Any) -> None:
    """shorten=True that actually cuts ("Das Spiel 99 #2: Ann..."), and three lines in a box one
    line high: the texture fits the widget in both, so only the rendered text tells."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label

    from app.ui.widgets import Background

    box = BoxLayout(orientation="vertical")
    Background.paint(box)
    cut = Label(text="Das Spiel 99 #2: Ann, Ben, Cat und Dan, nicht beendet", shorten=True,
                font_size=18, size_hint=(None, None), size=(200, 48), text_size=(200, 48))
    tall = Label(text="eins zwei drei vier fünf sechs sieben acht neun zehn", font_size=18,
                 size_hint=(None, None), size=(120, 30), text_size=(120, 30))
    whole = Label(text="Ann", shorten=True, font_size=18, size_hint=(None, None), size=(200, 48),
                  text_size=(200, 48))
    for label in (cut, tall, whole):
        box.add_widget(label)
    ui.show(box)
    found = [str(p) for p in audit("de") if p.check == "clipped"]
    assert any("Das Spiel" in p and "shortened" in p for p in found), found
    assert any("eins zwei" in p and "lines" in p for p in found), found
    assert not any("'Ann'" in p for p in found), found


def test_the_audit_finds_text_smaller_than_13_px(ui: Any) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label

    box = BoxLayout()
    box.add_widget(Label(text="Gr", font_size=11))
    box.add_widget(Label(text="[size=10]3[/size] King", markup=True, font_size=20))
    box.add_widget(Label(text="fine", font_size=13))
    ui.show(box)
    found = [str(p) for p in audit("en") if p.check == "small"]
    assert len(found) == 2 and "'Gr'" in found[0] + found[1], found
