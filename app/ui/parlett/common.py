"""Small widgets for the Parlett screens: big buttons and labels readable across a card table.

Buttons and backgrounds are the app's own (``app.ui.widgets``) in the card-table colours; suit
symbols are drawn with DejaVu Sans (shipped with Kivy) because Roboto has no ♣♥♠♦.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.metrics import sp
from kivy.uix.behaviors import ToggleButtonBehavior
from kivy.uix.label import Label

from app.i18n import tr
from app.ui.widgets import MUTED, Background, BigButton
from rules.parlett.scoring import Trump

TOUCH = 48
SYMBOL_FONT = "DejaVuSans"
BACKGROUND = (0.10, 0.24, 0.16, 1)  # card-table green
PANEL = (0.14, 0.30, 0.20, 1)
ACCENT = (0.85, 0.65, 0.15, 1)  # gold: the main action (a flat fill, not tinting a grey image)
ON_ACCENT = (0.08, 0.08, 0.06, 1)  # text on gold: contrast about 8:1 (white on gold is 2:1)
WARNING = (1.0, 0.72, 0.45, 1)  # light orange: 7.1:1 on the table green, 5.7:1 on a panel
WARNING_SIGN = "⚠ "  # problems are marked by a sign too, not by colour alone (DejaVu Sans has it)
GOOD = (0.35, 0.80, 0.40, 1)
HEADING = (0.80, 0.80, 0.80, 1)  # light grey column headings: 7.5:1 on the table green
RED_SUIT = (0.95, 0.35, 0.35, 1)
WHITE = (1, 1, 1, 1)
# player colours for the chart and the totals (distinct on green)
PLAYER_COLOURS = [(0.98, 0.85, 0.30, 1), (0.45, 0.75, 1.0, 1), (1.0, 0.55, 0.55, 1),
                  (0.75, 1.0, 0.55, 1), (0.90, 0.60, 1.0, 1), (0.75, 0.75, 0.75, 1)]

SUIT_SYMBOL = {"C": "♣", "H": "♥", "S": "♠", "D": "♦"}


def trump_symbol(trump: Trump | None) -> str:
    if trump is None:
        return "?"
    if trump is Trump.NINES:
        return "9"
    if trump is Trump.NO_TRUMP:
        return tr("NT")  # German: OT ("ohne Trumpf")
    return SUIT_SYMBOL[trump.value]


def paint(widget: Any, rgba: Sequence[float] = BACKGROUND) -> None:
    """The app's :meth:`Background.paint`, card-table green unless told otherwise."""
    Background.paint(widget, rgba)


def button(text: str, on_press: Callable[[], Any] | None = None, *, font: float = 20,
           symbols: bool = False, accent: bool = False, **kwargs: Any) -> BigButton:
    """The app's :class:`BigButton` (flat colour, wraps between words, and shrinks its font until
    the longest word fits, so "Ansage" is never broken in a 360 px portrait column), sized by the
    layout unless a height is given; ``accent`` makes it the gold main action."""
    kwargs.setdefault("size_hint_y", 1)
    kwargs.setdefault("size_hint_min_y", TOUCH)
    if symbols:
        kwargs["font_name"] = SYMBOL_FONT
    b = BigButton(text, on_press, font_size=sp(font), **kwargs)
    b.normal_color = tuple(b.color)
    if accent:
        highlight(b, True)
    return b


class FitToggle(ToggleButtonBehavior, BigButton):  # type: ignore[misc]
    """A toggle with :class:`BigButton`'s fitting (font shrinks until the longest word fits, then
    until every line fits the height); gold with dark text while down."""

    def __init__(self, text: str, *, font: float = 16, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_min_y", TOUCH)
        super().__init__(text=text, font_size=sp(font), fit_height=True, **kwargs)
        self.normal_color = tuple(self.color)
        self.background_down = ""
        self.bind(state=lambda *_: highlight(self, self.state == "down"))
        highlight(self, self.state == "down")


def highlight(b: Any, on: bool) -> None:
    """Gold with dark text (white on gold is hard to read), or back to the plain button."""
    b.background_color = ACCENT if on else MUTED
    b.color = ON_ACCENT if on else b.normal_color


def label(text: str, *, font: float = 20, color: Sequence[float] = WHITE, symbols: bool = False,
          wrap: bool = False, **kwargs: Any) -> Label:
    lab = Label(text=text, font_size=sp(font), color=color, **kwargs)
    if symbols:
        lab.font_name = SYMBOL_FONT
    if kwargs.get("shorten"):  # shortening needs a width to shorten to
        lab.bind(size=lambda w, s: setattr(w, "text_size", (s[0], s[1])))
        lab.halign, lab.valign = kwargs.get("halign", "center"), "middle"
    if wrap:
        lab.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
        lab.halign = kwargs.get("halign", "center")
    return lab


def suit_colour(letter: str) -> tuple[float, float, float, float]:
    return RED_SUIT if letter in ("H", "D") else WHITE
