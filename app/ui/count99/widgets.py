"""Small building blocks for the Ninety Nine screens (text fitting comes from app.ui.widgets).

Touch targets are at least 48 px, text readable from a metre away, high contrast (white on dark).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from app.ui import theme
from app.ui.widgets import MIN_FONT, text_height, text_width

TOUCH = theme.TOUCH
BACKGROUND = theme.BACKGROUND
BUTTON = theme.BUTTON
ACCENT = theme.ACCENT
WARNING = theme.WARNING
CHOICE = theme.CHOICE


def paint(widget: Any, rgba: tuple[float, float, float, float] | None = None) -> None:
    if rgba is None:
        from app.ui.preferences import background

        rgba = background()
    with widget.canvas.before:
        Color(*rgba)
        rect = Rectangle(pos=widget.pos, size=widget.size)

    def follow(*_: Any) -> None:
        rect.pos, rect.size = widget.pos, widget.size

    widget.bind(pos=follow, size=follow)


class Tap(Button):
    """A flat button of at least fingertip size that calls ``action`` when released."""

    def __init__(self, text: str, action: Callable[[], Any] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("font_size", sp(20))
        kwargs.setdefault("background_normal", "")
        kwargs.setdefault("background_color", BUTTON)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text, **kwargs)
        self._base_font = self.font_size
        self.bind(size=self._fit, text=self._fit)
        if action is not None:
            self.bind(on_release=lambda *_: action())

    def _fit(self, *_: Any) -> None:
        """Wrap between words; shrink the font until the longest word and all the lines fit, so a
        German "Richtungswechsel" is never broken mid-word nor cut off (as the app's BigButton)."""
        room = self.width - 8
        self.text_size = (room, None)
        words = self.text.split()
        if room <= 0 or not words:
            return
        if self.markup:  # sizes set in the markup: fit by the widest line as shown
            self._fit_markup(room)
            return
        size = self._base_font
        while size > MIN_FONT and max(text_width(w, size, self.font_name, self.bold) for w in words) > room:
            size -= 1
        while size > MIN_FONT and text_height(self.text, size, room) > self.height - 4:
            size -= 1
        self.font_size = size


    def _fit_markup(self, room: float) -> None:
        """Shrink the font (the card name; the markup's small slot number stays) until it fits."""
        self.font_size = self._base_font
        while self.font_size > MIN_FONT:
            self.texture_update()
            width, height = self.texture_size
            if width <= room + 1 and height <= self.height - 2:
                return
            self.font_size = max(MIN_FONT, self.font_size - 1)


class Text(Label):
    """A label whose text wraps inside its width."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("font_size", sp(18))
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text, **kwargs)
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width, self.height)))


class Options(BoxLayout):
    """A row of toggle buttons of which exactly one is down; ``value`` is the chosen key."""

    def __init__(self, options: list[tuple[str, str]], value: str, group: str,
                 on_change: Callable[[str], Any] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", 4)
        super().__init__(**kwargs)
        self.value = value
        self.on_change = on_change
        self.buttons: dict[str, ToggleButton] = {}
        for key, label in options:
            button = ToggleButton(text=label, group=group, state="down" if key == value else "normal",
                                  allow_no_selection=False, font_size=sp(18), background_normal="",
                                  background_down="", background_color=ACCENT if key == value else BUTTON)
            button.bind(on_release=lambda _b, k=key: self.select(k))
            self.buttons[key] = button
            self.add_widget(button)

    def select(self, key: str) -> None:
        self.value = key
        for k, button in self.buttons.items():
            button.state = "down" if k == key else "normal"
            button.background_color = ACCENT if k == key else BUTTON
        if self.on_change is not None:
            self.on_change(key)


class Stepper(BoxLayout):
    """``[-] value [+]`` within limits: no keyboard needed on a touchscreen."""

    def __init__(self, value: int, low: int, high: int, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", 4)
        super().__init__(**kwargs)
        self.value, self.low, self.high = value, low, high
        self.minus = Tap("-", lambda: self.change(-1), size_hint_x=None, width=56)
        self.label = Label(text=str(value), font_size=sp(22))
        self.plus = Tap("+", lambda: self.change(1), size_hint_x=None, width=56)
        for widget in (self.minus, self.label, self.plus):
            self.add_widget(widget)

    def change(self, step: int) -> None:
        self.value = max(self.low, min(self.high, self.value + step))
        self.label.text = str(self.value)
