"""One look for every Table99 screen: colours, type sizes, spacing, and the pegs' colours and marks.

The board game, Ninety Nine and the shell take their colours and sizes from here (Parlett keeps its
card-table green on top of the same sizes). Every pair of text and background colour below is
checked by ``tests/test_theme.py`` (WCAG 2 contrast: 4.5:1 for running text, 3:1 for large text),
and every screen is audited as rendered by ``tests/test_screen_audit.py``.

This module imports no Kivy, so the palette can be checked anywhere. Sizes are in Kivy ``sp``/px
at the 800x480 official touchscreen, where 1 sp = 1 px.
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

# -- spacing and sizes ------------------------------------------------------------------------------
TOUCH = 48  # px: the smallest touch target anywhere in the app
GAP = 8  # px between controls
PAD = 10  # px around a screen's content
BUTTON_HEIGHT = 64  # a screen's main buttons
ACTION_HEIGHT = 68  # the board game's PLAY / DRAW / DISCARD

# -- type sizes (sp) --------------------------------------------------------------------------------
TITLE = 28.0  # a screen's heading
BIG = 28.0  # whose turn, the count, a card drawn as a card
FONT = 20.0  # buttons and ordinary text
READABLE = 18.0  # the smallest running text a player reads from a metre away (logs, status lines)
SMALL = 16.0  # notes nobody needs to read from the far side (file paths)
MIN_FONT = 13.0  # a button label never shrinks below this to fit its longest word
BANNER = 20.0  # penalty and win banners, bold (WCAG large text); 24 pushes the board game's panel
# past the screen with six German players (tests/test_ui_review.py six_players)

# -- colours ----------------------------------------------------------------------------------------
BACKGROUND: RGBA = (0.11, 0.12, 0.15, 1)  # every screen's ground
SURFACE: RGBA = (0.17, 0.18, 0.22, 1)  # a panel on the ground
TEXT: RGBA = (1, 1, 1, 1)
TEXT_MUTED: RGBA = (0.82, 0.84, 0.88, 1)  # secondary text (log, notes): still over 10:1 on the ground
BUTTON: RGBA = (0.30, 0.32, 0.38, 1)  # an ordinary button (white text about 9:1)
ACCENT: RGBA = (0.11, 0.44, 0.25, 1)  # the one next thing to do (white text about 6:1)
WARNING: RGBA = (0.68, 0.22, 0.06, 1)  # a step that loses or abandons something (white text about 6:1)
CHOICE: RGBA = (0.16, 0.36, 0.75, 1)  # a value to pick (white text about 6:1)
CURSOR: RGBA = (0.95, 0.75, 0.25, 1)  # the slot the arrow keys are on (black text)
PROBLEM_TEXT: RGBA = (1.0, 0.66, 0.40, 1)  # a refusal or problem in running text (about 9:1)
GOOD_TEXT: RGBA = (0.60, 0.92, 0.62, 1)  # "saved", "done" (about 12:1)
DISABLED_TEXT: RGBA = (0.62, 0.64, 0.68, 1)
PENALTY_BANNER: RGBA = (0.62, 0.07, 0.07, 1)  # white bold text about 8:1
WIN_BANNER: RGBA = (1.0, 0.84, 0.20, 1)  # black text about 14:1
ON_WIN: RGBA = (0.05, 0.05, 0.05, 1)
CARD_FACE: RGBA = (0.98, 0.97, 0.93, 1)  # a card drawn as a card: ivory with black or red ink
CARD_INK: RGBA = (0.08, 0.08, 0.10, 1)
CARD_RED_INK: RGBA = (0.70, 0.05, 0.05, 1)

# The table's background, chosen in the settings (5of99's "background colour"): every one keeps the
# text colours above readable (checked in tests/test_theme.py).
BACKGROUNDS: dict[str, RGBA] = {
    "slate": BACKGROUND,
    "green": (0.06, 0.20, 0.12, 1),
    "blue": (0.06, 0.11, 0.24, 1),
    "black": (0.0, 0.0, 0.0, 1),
}
# The back of a card the app deals face down (5of99's "card backs").
CARD_BACKS: dict[str, RGBA] = {
    "blue": (0.12, 0.22, 0.55, 1),
    "red": (0.55, 0.08, 0.10, 1),
    "green": (0.05, 0.38, 0.20, 1),
}
# 5of99's "animation speed": seconds a computer's move is shown before the next one.
ANIMATION_SECONDS: dict[str, float] = {"slow": 2.0, "normal": 1.2, "fast": 0.5, "off": 0.0}

# -- pegs -------------------------------------------------------------------------------------------
# Players name their pegs by these six colours. The screen draws them in the Okabe-Ito palette's
# colour-blind-safe hues where one fits (vermillion for red, bluish green for green, a blue and a
# yellow of different lightness), so the six stay apart under red-green and blue-yellow colour
# blindness (tests/test_palette.py), and every peg also carries its letter and a dark ring.
PEG_COLOURS: dict[str, RGBA] = {
    "red": (0.84, 0.22, 0.0, 1),  # vermillion
    "blue": (0.0, 0.36, 0.78, 1),
    "green": (0.0, 0.62, 0.45, 1),  # bluish green
    "yellow": (0.96, 0.89, 0.26, 1),
    "white": (0.97, 0.97, 0.97, 1),
    "black": (0.08, 0.08, 0.08, 1),
}
UNKNOWN_PEG: RGBA = (0.6, 0.6, 0.6, 1)
PEG_RING: RGBA = (0.0, 0.0, 0.0, 1)  # dark ring round a peg: at least 3:1 against both squares
PEG_RING_LIGHT: RGBA = (1.0, 1.0, 1.0, 1)  # a second, light ring so a black peg shows on a dark panel
# The second cue on a peg: the colour's first letter(s) in the language shown. German "Grün" and
# "Gelb" share a G, so they get two letters; English black is "Bk" (B is blue, and a family does
# not read the printers' "K" as black).
PEG_MARKS: dict[str, dict[str, str]] = {
    "en": {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "white": "W", "black": "Bk"},
    "de": {"red": "R", "blue": "B", "green": "Gr", "yellow": "Ge", "white": "W", "black": "S"},
}


def peg_rgba(name: str | None) -> RGBA:
    return PEG_COLOURS.get(name or "", UNKNOWN_PEG)


def peg_mark(name: str | None, language: str = "en") -> str:
    marks = PEG_MARKS.get(language, PEG_MARKS["en"])
    return marks.get(name or "", "?")


# -- contrast (WCAG 2) ------------------------------------------------------------------------------
def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[float, ...]) -> float:
    r, g, b = (_linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def over(top: tuple[float, ...], ground: tuple[float, ...]) -> tuple[float, float, float]:
    """``top`` (with its alpha) composited over the opaque ``ground``."""
    alpha = top[3] if len(top) > 3 else 1.0
    return (top[0] * alpha + ground[0] * (1 - alpha), top[1] * alpha + ground[1] * (1 - alpha),
            top[2] * alpha + ground[2] * (1 - alpha))


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def readable_on(ground: tuple[float, ...]) -> RGBA:
    """White or near-black text, whichever reads better on ``ground`` (a player's colour)."""
    return TEXT if contrast(TEXT, ground) >= contrast(ON_WIN, ground) else ON_WIN


def is_large(font_px: float, bold: bool) -> bool:
    """WCAG's large text: 18 pt (24 px), or 14 pt (18.67 px) bold."""
    return font_px >= 24 or (bold and font_px >= 18.66)
