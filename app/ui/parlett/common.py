"""Small widgets for the Parlett screens: big buttons and labels readable across a card table.

Kept here rather than borrowed so this package depends only on the foundation. Suit symbols are
drawn with DejaVu Sans (shipped with Kivy) because Roboto has no ♣♥♠♦.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.metrics import sp
from kivy.uix.button import Button
from kivy.uix.label import Label

from app.i18n import tr
from rules.parlett.match import GameResult
from rules.parlett.scoring import Trump

TOUCH = 48
SYMBOL_FONT = "DejaVuSans"
BACKGROUND = (0.10, 0.24, 0.16, 1)  # card-table green
PANEL = (0.14, 0.30, 0.20, 1)
ACCENT = (0.85, 0.65, 0.15, 1)
WARNING = (0.85, 0.30, 0.15, 1)
GOOD = (0.35, 0.80, 0.40, 1)
RED_SUIT = (0.95, 0.35, 0.35, 1)
WHITE = (1, 1, 1, 1)
# player colours for the chart and the totals (distinct on green)
PLAYER_COLOURS = [(0.98, 0.85, 0.30, 1), (0.45, 0.75, 1.0, 1), (1.0, 0.55, 0.55, 1),
                  (0.75, 1.0, 0.55, 1), (0.90, 0.60, 1.0, 1), (0.75, 0.75, 0.75, 1)]

SUIT_SYMBOL = {"C": "♣", "H": "♥", "S": "♠", "D": "♦"}


def trump_name(trump: Trump | None) -> str:
    names = {Trump.NO_TRUMP: tr("No trump"), Trump.CLUBS: tr("Clubs"), Trump.HEARTS: tr("Hearts"),
             Trump.SPADES: tr("Spades"), Trump.DIAMONDS: tr("Diamonds"), Trump.NINES: tr("Nines")}
    return tr("Turned-up card") if trump is None else names[trump]


def dummy_bonus_text(game: GameResult) -> str:
    """What the two-player dummy rule paid the game's winner ("" when it did not apply)."""
    if game.dummy_bonus is None:
        return ""
    winner = game.winners[0]
    if game.dummy_bonus == "carry":
        return tr("{name} carries 100 forward", name=winner)
    return tr("{name} wins double (+{points})", name=winner, points=game.carried[winner])


def trump_symbol(trump: Trump | None) -> str:
    if trump is None:
        return "?"
    if trump is Trump.NINES:
        return "9"
    if trump is Trump.NO_TRUMP:
        return "NT"
    return SUIT_SYMBOL[trump.value]


def paint(widget: Any, rgba: Sequence[float] = BACKGROUND) -> None:
    """A flat colour behind ``widget`` that follows its size."""
    with widget.canvas.before:
        colour = Color(*rgba)
        rect = Rectangle(pos=widget.pos, size=widget.size)

    def follow(*_: Any) -> None:
        rect.pos, rect.size = widget.pos, widget.size

    widget.bind(pos=follow, size=follow)
    widget._paint_colour = colour


def button(text: str, on_press: Callable[[], Any] | None = None, *, font: float = 20,
           symbols: bool = False, **kwargs: Any) -> Button:
    kwargs.setdefault("size_hint_min_y", TOUCH)
    kwargs.setdefault("halign", "center")
    kwargs.setdefault("valign", "middle")
    b = Button(text=text, font_size=sp(font), **kwargs)
    # wrap long labels (German is longer) inside the button instead of spilling over its neighbours
    b.bind(size=lambda w, s: setattr(w, "text_size", (max(1, s[0] - 8), None)))
    if symbols:
        b.font_name = SYMBOL_FONT
    if on_press is not None:
        b.bind(on_release=lambda *_: on_press())
    return b


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
