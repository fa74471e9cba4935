"""The table's settings file: 5of99's interface options read safely whatever the file holds."""

from __future__ import annotations

import json

import pytest

from app.paths import data_dir
from app.ui import preferences, theme


def write(data: object) -> None:
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / preferences.SETTINGS_FILE).write_text(json.dumps(data), encoding="utf-8")


def test_defaults_without_a_file() -> None:
    assert {key: preferences.get(key) for key in preferences.DEFAULTS} == preferences.DEFAULTS


@pytest.mark.parametrize("stored", [
    {"background": "purple", "card_back": 3, "animation": None, "play_at_once": "yes"},
    {"background": ["slate"], "card_back": {"x": 1}, "animation": 1.2, "play_at_once": 1},
    ["not", "an", "object"],
])
def test_a_damaged_or_hand_edited_file_reads_as_defaults(stored: object) -> None:
    write(stored)
    assert {key: preferences.get(key) for key in preferences.DEFAULTS} == preferences.DEFAULTS


def test_choices_are_kept_and_used() -> None:
    preferences.put("background", "green")
    preferences.put("animation", "fast")
    preferences.put("play_at_once", True)
    assert preferences.background() == theme.BACKGROUNDS["green"]
    assert preferences.animation_seconds() == theme.ANIMATION_SECONDS["fast"]
    assert preferences.get("play_at_once") is True
    assert json.loads((data_dir() / "settings.json").read_text())["background"] == "green"


def test_an_unknown_choice_is_refused_with_its_name() -> None:
    with pytest.raises(ValueError, match=r"settings: background cannot be 'purple'"):
        preferences.put("background", "purple")
