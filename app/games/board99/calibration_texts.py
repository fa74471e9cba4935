"""What the camera calibration says, in the app's language, for the screen and the CLI alike.

UI-free (no Kivy), so ``table99 vision calibrate`` walks the same guided
:class:`vision.calibration_session.CalibrationSession` with the same sentences as the app's
calibration screen (``app/ui/camera_calibration.py``).
"""

from __future__ import annotations

from typing import Any

from app.games.board99.game import COLOURS, colour_name
from app.i18n import tr


def colours_to_learn() -> list[tuple[str, str]]:
    """Every peg colour players can pick in the app, with the letter ``vision read`` prints."""
    known = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "white": "W", "black": "K"}
    used: set[str] = set()
    result = []
    for name in COLOURS:
        choices = [known.get(name, ""), *name.upper(), *"ACDEFHIJLMNOPQSTUVXZ"]
        letter = next(c for c in choices if c and c.isalpha() and c not in used)
        used.add(letter)
        result.append((letter, name))
    return result


def message_text(key: str, values: dict[str, Any] | None = None) -> str:
    """The sentence for an outcome of :class:`vision.calibration_session.CalibrationSession`:
    every refusal says what is wrong and what to change."""
    values = dict(values or {})
    for name in ("colour", "other", "earlier"):
        if name in values:
            values[name] = colour_name(str(values[name]))
    for name in ("seen", "truth"):
        if name in values:
            values[name] = tr("empty") if values[name] == "empty" else colour_name(str(values[name]))
    from vision.calibration_session import MESSAGES

    text = MESSAGES.get(key)
    if text is None:
        return key
    try:
        return tr(text, **values)
    except (KeyError, IndexError):  # a value the sentence needs is missing: say the sentence anyway
        return tr(text)
