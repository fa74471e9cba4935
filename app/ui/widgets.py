"""Widgets every Table99 screen may use: big buttons, labels that wrap, a number pad, a confirm box.

Sizes follow the official 800x480 Raspberry Pi touchscreen: every touch target is at least
:data:`TOUCH` (48 px) in both directions and text is large enough to read from a metre away.
Colours are named the way players name their pegs (:data:`PEG_COLOURS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from kivy.graphics import Color, InstructionGroup, Line, Rectangle
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from app.games.board99.game import colour_name as colour_name  # re-exported for every screen
from app.i18n import tr
from app.ui import theme  # colours, sizes and spacing for every screen

TOUCH = theme.TOUCH  # px: the smallest touch target anywhere in the app
FONT = sp(theme.FONT)
BIG_FONT = sp(theme.BIG)
READABLE = sp(theme.READABLE)  # the smallest running text a player reads from a metre away
MIN_FONT = sp(theme.MIN_FONT)  # a button label never shrinks below this to fit its longest word

PEG_COLOURS = theme.PEG_COLOURS
BACKGROUND = theme.BACKGROUND
ACCENT = theme.ACCENT
WARNING = theme.WARNING
MUTED = theme.BUTTON


def colour_rgba(name: str | None) -> tuple[float, float, float, float]:
    return theme.peg_rgba(name)


@lru_cache(maxsize=2048)
def text_width(text: str, font_size: float, font_name: str = "Roboto", bold: bool = False) -> float:
    """How wide ``text`` renders on one line (for fitting labels into buttons).

    Cached: the screens ask again for the same texts on every refresh and layout (the game
    screen's verdict frame measured them up to a dozen times), and the fonts never change while
    the app runs (nothing registers a font at run time)."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=font_size, font_name=font_name, bold=bold)
    width: float = label.get_extents(text)[0]
    return width


@lru_cache(maxsize=2048)
def text_height(text: str, font_size: float, width: float) -> float:
    """How tall ``text`` renders when wrapped to ``width`` (to show only what fits, whole).

    Cached like :func:`text_width`: each uncached call renders the text into a new texture."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=font_size, text_size=(max(1.0, width), None))
    label.refresh()
    height: float = label.content_height
    return height


class Background:
    """Paints a flat colour behind a widget (mixin-free helper: call ``Background.paint(widget)``)."""

    @staticmethod
    def paint(widget: Any, rgba: Sequence[float] | None = None) -> None:
        """``rgba`` or the table's chosen background (settings)."""
        if rgba is None:
            from app.ui.preferences import background

            rgba = background()
        with widget.canvas.before:
            colour = Color(*rgba)
            rect = Rectangle(pos=widget.pos, size=widget.size)

        def follow(*_: Any) -> None:
            rect.pos, rect.size = widget.pos, widget.size

        widget.bind(pos=follow, size=follow)
        widget._background_colour = colour


class BigButton(Button):
    """A button no smaller than a fingertip, with a readable label."""

    def __init__(self, text: str = "", on_press: Callable[[], Any] | None = None, *, fit_height: bool = False,
                 **kwargs: Any) -> None:
        self.fit_height = fit_height  # also shrink until every line fits the height (a changing label)
        kwargs.setdefault("font_size", FONT)
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", max(TOUCH, kwargs.get("height", 64)))
        kwargs.setdefault("background_normal", "")
        kwargs.setdefault("background_color", MUTED)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text, **kwargs)
        self._base_font = self.font_size
        self.bind(size=self._wrap, text=self._wrap)
        if on_press is not None:
            self.bind(on_release=lambda *_: on_press())

    def _wrap(self, *_: Any) -> None:
        """Wrap between words; shrink the font until the longest word fits, so a long German word
        ("ABWERFEN", "Rückgängig") is never broken in the middle on the 800x480 screen."""
        room = self.width - 8
        self.text_size = (room, None)
        words = self.text.split()
        if room <= 0 or not words or self.markup:
            return
        size = self._base_font
        while size > MIN_FONT and max(text_width(w, size, self.font_name, self.bold) for w in words) > room:
            size -= 1
        while self.fit_height and size > MIN_FONT and text_height(self.text, size, room) > self.height - 4:
            size -= 1
        self.font_size = size


class WrapLabel(Label):
    """A label whose text wraps to its width and whose height follows its text."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("font_size", FONT)
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "top")
        super().__init__(text=text, **kwargs)
        self.bind(width=self._wrap, texture_size=self._grow, text=self._grow)
        self._grow()

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, None)

    def _grow(self, *_: Any) -> None:
        """Take the text's height; an empty label takes no room at all."""
        if self.size_hint_y is not None:
            return
        self.height = max(self.texture_size[1], self.font_size * 1.3) if self.text else 0


class NumberPad(BoxLayout):
    """Enter a card number 0..99 with big keys; ``on_change(value)`` fires on every key."""

    def __init__(
        self,
        on_done: Callable[[int], Any],
        on_change: Callable[[int | None], Any] | None = None,
        ok_text: str = "OK",
        **kwargs: Any,
    ) -> None:
        super().__init__(orientation="vertical", spacing=4, **kwargs)
        self.on_done = on_done
        self.on_change = on_change
        self.digits = ""
        self.display = Label(text="", font_size=BIG_FONT, size_hint_y=None, height=56)
        self.add_widget(self.display)
        keys = GridLayout(cols=3, spacing=4)
        for key in ("7", "8", "9", "4", "5", "6", "1", "2", "3", "<", "0", ok_text):
            button = BigButton(key, size_hint_y=1, height=TOUCH, font_size=BIG_FONT)
            button.pad_key = key
            button.bind(on_release=self._press)
            if key == ok_text:
                button.background_color = ACCENT
            keys.add_widget(button)
        self.ok_text = ok_text
        self.add_widget(keys)

    @property
    def value(self) -> int | None:
        return int(self.digits) if self.digits else None

    def type(self, keys: str) -> None:
        """Press keys as a finger would ("57", then ``self.ok_text`` to finish)."""
        for key in keys:
            self._key(key)

    def _press(self, button: Any) -> None:
        self._key(button.pad_key)

    def _key(self, key: str) -> None:
        if key == self.ok_text:
            if self.value is not None:
                self.on_done(self.value)
            return
        if key == "<":
            self.digits = self.digits[:-1]
        elif key.isdigit() and self.digits == "0":
            self.digits = key
        elif key.isdigit() and len(self.digits) < 2:
            self.digits += key
        self.display.text = self.digits
        if self.on_change is not None:
            self.on_change(self.value)

    def clear(self) -> None:
        self.digits = ""
        self.display.text = ""


class ConfirmBox(ModalView):
    """Ask a yes/no question with two big buttons; ``on_yes`` runs only after YES."""

    def __init__(
        self, question: str, on_yes: Callable[[], Any], yes: str | None = None, **kwargs: Any
    ) -> None:
        kwargs.setdefault("size_hint", (0.8, 0.6))
        kwargs.setdefault("auto_dismiss", False)
        super().__init__(**kwargs)
        box = BoxLayout(orientation="vertical", padding=16, spacing=12)
        box.add_widget(WrapLabel(question, font_size=FONT, size_hint_y=1))
        row = BoxLayout(size_hint_y=None, height=72, spacing=12)
        self.yes_button = BigButton(yes or tr("Yes"), on_press=lambda: self._answer(on_yes),
                                    background_color=WARNING, height=72)
        self.no_button = BigButton(tr("No"), on_press=self.close, height=72)
        row.add_widget(self.no_button)
        row.add_widget(self.yes_button)
        box.add_widget(row)
        self.add_widget(box)

    def close(self) -> None:
        self.dismiss(animation=False)  # gone at once: the next tap must reach the screen below

    def _answer(self, on_yes: Callable[[], Any]) -> None:
        self.close()
        on_yes()


class _Chooser:
    """What Choice and CycleButton share: ``value``, ``select(key)`` and the ``on_change`` callback."""

    value: str
    on_change: Callable[[str], Any] | None

    def select(self, key: str) -> None:
        self.value = key
        self._show()
        if self.on_change is not None:
            self.on_change(key)

    def _show(self) -> None:
        raise NotImplementedError


class Choice(_Chooser, BoxLayout):
    """A row of toggle-like buttons, one selected (a large-target replacement for a spinner)."""

    def __init__(
        self,
        options: Sequence[tuple[str, str]],
        value: str,
        on_change: Callable[[str], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", TOUCH)
        super().__init__(spacing=4, **kwargs)
        self.value = value
        self.on_change = on_change
        self.buttons: dict[str, BigButton] = {}
        for key, label in options:
            button = BigButton(label, height=self.height, font_size=sp(17))
            button.choice_key = key
            button.bind(on_release=lambda b: self.select(b.choice_key))
            button.bind(pos=lambda *_: self._show(), size=lambda *_: self._show())
            with button.canvas.after:
                button.choice_outline = InstructionGroup()
            self.buttons[key] = button
            self.add_widget(button)
        self._show()

    def _show(self) -> None:
        # The chosen option is green AND outlined in white (a shape, not only a colour: green and
        # grey are only about 1.3:1 apart in lightness).
        for key, button in self.buttons.items():
            chosen = key == self.value
            button.background_color = ACCENT if chosen else MUTED
            outline = button.choice_outline
            outline.clear()
            if chosen:
                outline.add(Color(*theme.TEXT))
                outline.add(Line(rectangle=(button.x + 3, button.y + 3, button.width - 6,
                                            button.height - 6), width=2))


class CycleButton(_Chooser, BigButton):
    """One big button that steps to the next option on every tap, showing ``label(option)``.

    Where a row of buttons would be too narrow (six players' names in the game panel's 300 px, or
    in a side pad), one full-width button keeps a 48 px target and whole words; the setup screen's
    colour and player-type buttons work the same way.
    """

    def __init__(
        self,
        options: Sequence[tuple[str, str]],
        value: str,
        label: Callable[[str], str] | None = None,
        on_change: Callable[[str], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.options = list(options)
        self.value = value
        self.label = label or (lambda text: text)
        self.on_change = on_change
        kwargs.setdefault("height", TOUCH)
        super().__init__("", on_press=self.step, **kwargs)
        self._show()

    def set_options(self, options: Sequence[tuple[str, str]], value: str) -> None:
        self.options = list(options)
        self.value = value
        self._show()

    def step(self) -> None:
        keys = [key for key, _ in self.options]
        if keys:
            self.select(keys[(keys.index(self.value) + 1) % len(keys)] if self.value in keys else keys[0])

    def _show(self) -> None:
        self.text = self.label(dict(self.options).get(self.value, self.value)) if self.value else ""


class PegChip(Label):
    """A peg drawn as a peg: its colour, a dark and a light ring (it shows on light squares and on a
    dark panel alike) and its letter, the second cue that does not need colour vision."""

    def __init__(self, colour: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("size", (40, 40))
        kwargs.setdefault("bold", True)
        super().__init__(**kwargs)
        self.colour = colour
        self.bind(pos=self._draw, size=self._draw)
        self.set_colour(colour)

    def set_colour(self, colour: str | None) -> None:
        self.colour = colour
        self.text = theme.peg_mark(colour, i18n_language()) if colour else ""
        fill = theme.peg_rgba(colour)
        self.color = theme.readable_on(fill)
        self.font_size = max(10.0, min(self.width, self.height) * (0.42 if len(self.text) < 2 else 0.34))
        self.opacity = 1 if colour else 0
        self._draw()

    def _draw(self, *_: Any) -> None:
        from kivy.graphics import Ellipse

        self.canvas.before.clear()
        size = min(self.width, self.height)
        x, y = self.center_x - size / 2, self.center_y - size / 2
        with self.canvas.before:
            Color(*theme.PEG_RING_LIGHT)
            Ellipse(pos=(x, y), size=(size, size))
            Color(*theme.PEG_RING)
            Ellipse(pos=(x + 2, y + 2), size=(size - 4, size - 4))
            Color(*theme.peg_rgba(self.colour))
            Ellipse(pos=(x + 5, y + 5), size=(size - 10, size - 10))
        self.font_size = max(10.0, size * (0.42 if len(self.text) < 2 else 0.34))


def i18n_language() -> str:
    from app.i18n import language

    return language()


class CardFace(Label):
    """A card drawn as a card (ivory, rounded, dark ink), not as a button: it shows, it does nothing."""

    def __init__(self, text: str = "", red: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("font_size", FONT)
        kwargs.setdefault("bold", True)
        kwargs.setdefault("color", theme.CARD_RED_INK if red else theme.CARD_INK)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text, **kwargs)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_: Any) -> None:
        from kivy.graphics import Line, RoundedRectangle

        self.canvas.before.clear()
        with self.canvas.before:
            Color(*theme.CARD_FACE)
            RoundedRectangle(pos=(self.x + 2, self.y + 1), size=(self.width - 4, self.height - 2), radius=[6])
            Color(0.45, 0.45, 0.48, 1)
            Line(rounded_rectangle=(self.x + 2, self.y + 1, self.width - 4, self.height - 2, 6), width=1)


class CardBack(Widget):
    """A card lying face down, in the table's chosen card back (settings)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_: Any) -> None:
        from kivy.graphics import Line, RoundedRectangle

        from app.ui.preferences import card_back

        self.canvas.before.clear()
        with self.canvas.before:
            Color(*theme.CARD_FACE)
            RoundedRectangle(pos=(self.x + 2, self.y + 1), size=(self.width - 4, self.height - 2), radius=[5])
            Color(*card_back())
            RoundedRectangle(pos=(self.x + 5, self.y + 4), size=(self.width - 10, self.height - 8),
                             radius=[3])
            Color(*theme.CARD_FACE[:3], 0.5)
            Line(points=[self.x + 5, self.y + 4, self.right - 5, self.top - 4], width=1)
            Line(points=[self.x + 5, self.top - 4, self.right - 5, self.y + 4], width=1)


class Banner(BoxLayout):
    """A penalty or a win that nobody can miss: a strong colour, big bold words, and the next step.

    ``show(kind, text)`` with kind "penalty" or "win"; ``hide()``. It takes no room while hidden.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("padding", (8, 6))
        super().__init__(height=0, opacity=0, **kwargs)
        self.kind: str | None = None
        self.label = WrapLabel("", font_size=sp(theme.BANNER), bold=True)
        self.add_widget(self.label)
        self.label.bind(height=self._fit)
        with self.canvas.before:
            self._colour = Color(*theme.PENALTY_BANNER)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._follow, size=self._follow)

    def _follow(self, *_: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size

    def _fit(self, *_: Any) -> None:
        self.height = self.label.height + 12 if self.kind else 0

    def show(self, kind: str, text: str) -> None:
        self.kind = kind
        ground = theme.WIN_BANNER if kind == "win" else theme.PENALTY_BANNER
        self._colour.rgba = ground
        self.label.color = theme.readable_on(ground)
        self.label.text = text
        self.opacity = 1
        self._fit()

    def hide(self) -> None:
        self.kind = None
        self.label.text = ""
        self.opacity = 0
        self.height = 0
