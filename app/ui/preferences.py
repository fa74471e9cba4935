"""The interface options among the table's own choices (:mod:`app.settings`, ``settings.json``).

5of99's interface options where they make sense on this table:

- ``background``: the screens' ground colour (:data:`app.ui.theme.BACKGROUNDS`);
- ``card_back``: the back of cards the app deals face down (a hidden hand);
- ``animation``: how long a computer's move stays in view before the next (Ninety Nine);
- ``play_at_once``: tapping a card in your shown hand plays it at once, without PLAY and a pad.

A value that is missing, of the wrong type or unknown reads as its default: a hand-edited or
damaged file never stops the app.
"""

from __future__ import annotations

from typing import Any

from app.settings import SETTINGS_FILE as SETTINGS_FILE  # re-exported: the tests write it
from app.settings import load_settings, save_settings
from app.ui import theme

CHOICES: dict[str, tuple[Any, ...]] = {
    "background": tuple(theme.BACKGROUNDS),
    "card_back": tuple(theme.CARD_BACKS),
    "animation": tuple(theme.ANIMATION_SECONDS),
    "play_at_once": (False, True),
}
DEFAULTS: dict[str, Any] = {"background": "slate", "card_back": "blue", "animation": "normal",
                            "play_at_once": False}


def get(key: str) -> Any:
    """One interface option, or its default when the stored value is not one of its choices."""
    value = load_settings().get(key, DEFAULTS[key])
    if type(value) is not type(DEFAULTS[key]) or value not in CHOICES[key]:
        return DEFAULTS[key]
    return value


def put(key: str, value: Any) -> None:
    if value not in CHOICES[key]:
        raise ValueError(f"settings: {key} cannot be {value!r} (choices: {CHOICES[key]})")
    settings = load_settings()
    settings[key] = value
    save_settings(settings)


def background() -> tuple[float, float, float, float]:
    return theme.BACKGROUNDS[get("background")]


def card_back() -> tuple[float, float, float, float]:
    return theme.CARD_BACKS[get("card_back")]


def animation_seconds() -> float:
    return theme.ANIMATION_SECONDS[get("animation")]
