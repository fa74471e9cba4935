"""Audit a rendered screen the way a player at arm's length meets it.

``audit(language)`` looks at everything in the Kivy window as drawn (the screen and any open popup)
and returns the problems found, one readable line each:

- contrast: every visible text against the pixels actually behind it, at least 4.5:1 (3:1 for
  large text: 24 px, or 18.66 px bold). The text colour is the label's own (blended over the ground
  by its alpha and its parents' opacity), and each colour a markup label's ``[color=...]`` tags
  give part of its text; the ground is the commonest colour of the rendered frame inside the
  text's box (text strokes are a minority of the box's pixels).
- small: every visible text at least 13 px (theme.MIN_FONT), markup ``[size=]`` tags included.
- touch: every enabled control (a button, a text field, a toggle...) at least 48x48 px.
- clipped: a text whose rendered texture is larger than its widget (cut off or spilling over
  its neighbours), that leaves the window, that Kivy shortened with "…" (``shorten=True``), or
  whose lines need more height than its fixed ``text_size`` gives (the lines past it are not drawn).
- english: in German, a visible word that only English uses (from the catalog's English keys minus
  every word the German catalog uses, minus a few names), e.g. "simulated" or "Home".

Point it at any screen: show the screen in the window (tests/screen_catalog.py builds every one),
then call ``audit("de")``. Widgets can opt out of one check with an attribute
``audit_skip = {"touch"}`` and a reason in a comment (none does today).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.ui.theme import contrast, is_large, over

MIN_TOUCH = 48
NORMAL, LARGE = 4.5, 3.0
SLACK = 2  # px: rounding of texture and widget sizes
MIN_TEXT = 13  # px: no text smaller (theme.MIN_FONT; the 800x480 screen read from about a metre)
SIZE_TAG = re.compile(r"\[size=(\d+(?:\.\d+)?)(?:sp|px)?\]")


@dataclass(frozen=True)
class Problem:
    check: str  # "contrast", "touch", "clipped", "english"
    text: str

    def __str__(self) -> str:
        return f"{self.check}: {self.text}"


def _visible(widget: Any) -> tuple[bool, float]:
    """Whether the widget and all its parents show, and their combined opacity."""
    alpha = 1.0
    node = widget
    while node is not None:
        alpha *= getattr(node, "opacity", 1.0)
        parent = getattr(node, "parent", None)
        if parent is node:
            break
        node = parent
    return alpha > 0.01, alpha


def _walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in reversed(getattr(widget, "children", [])):  # back to front
        yield from _walk(child)


def _window_rect(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, widget.width, widget.height


def _view_rect(widget: Any) -> tuple[float, float, float, float] | None:
    """The part of the widget a ScrollView above it lets show (window coordinates), or None."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    x0, y0, w, h = _window_rect(widget)
    x1, y1 = x0 + w, y0 + h
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, Window.width), min(y1, Window.height)
    node = widget.parent
    while node is not None and node is not getattr(node, "parent", None):
        if isinstance(node, ScrollView):
            sx, sy, sw, sh = _window_rect(node)
            x0, y0, x1, y1 = max(x0, sx), max(y0, sy), min(x1, sx + sw), min(y1, sy + sh)
        node = getattr(node, "parent", None)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return x0, y0, x1 - x0, y1 - y0


def _in_scroll(widget: Any) -> bool:
    from kivy.uix.scrollview import ScrollView

    node = widget.parent
    while node is not None and node is not getattr(node, "parent", None):
        if isinstance(node, ScrollView):
            return True
        node = getattr(node, "parent", None)
    return False


class Frame:
    """The window's pixels as drawn in the last frame (read back from OpenGL)."""

    def __init__(self) -> None:
        from kivy.core.window import Window
        from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

        from tests.ui_support import frames

        frames(2)
        self.width, self.height = int(Window.width), int(Window.height)
        self.data = glReadPixels(0, 0, self.width, self.height, GL_RGB, GL_UNSIGNED_BYTE)
        self.stride = self.width * 3
        if len(self.data) < self.stride * self.height:  # rows padded to 4 bytes
            raise RuntimeError("unexpected pixel buffer size")
        self.stride = len(self.data) // self.height

    def ground(self, rect: tuple[float, float, float, float]) -> tuple[float, float, float]:
        """The commonest colour inside ``rect`` (window coordinates, origin bottom left)."""
        x, y, w, h = (round(v) for v in rect)
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + w), min(self.height, y + h)
        step = max(1, int(((x1 - x0) * (y1 - y0) / 4000) ** 0.5))
        counts: Counter[tuple[int, int, int]] = Counter()
        for row in range(y0, y1, step):
            base = row * self.stride
            for col in range(x0, x1, step):
                i = base + col * 3
                counts[(self.data[i], self.data[i + 1], self.data[i + 2])] += 1
        if not counts:
            return (0.0, 0.0, 0.0)
        (r, g, b), _ = counts.most_common(1)[0]
        return (r / 255, g / 255, b / 255)


def _text_box(label: Any) -> tuple[float, float, float, float]:
    """Where the label's texture is drawn (Kivy centres it on the widget), in window coordinates."""
    tw, th = label.texture_size
    cx, cy = label.to_window(*label.center)
    return cx - tw / 2, cy - th / 2, tw, th


COLOR_TAG = re.compile(r"\[color=#?([0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?|[0-9a-fA-F]{3})\]")


def markup_colours(widget: Any) -> list[tuple[float, float, float, float]]:
    """The colours a markup label's ``[color=...]`` tags give parts of its text (hex forms only)."""
    if not getattr(widget, "markup", False):
        return []
    found = []
    for code in COLOR_TAG.findall(widget.text):
        if len(code) == 3:
            code = "".join(c * 2 for c in code)
        channels = [int(code[i:i + 2], 16) / 255 for i in range(0, len(code), 2)]
        found.append((channels[0], channels[1], channels[2], channels[3] if len(channels) > 3 else 1.0))
    return found


def _cut_text(label: Any) -> str:
    """Why the label does not show all its text, or "": shortened with "…" (``shorten=True``), or
    more lines than its fixed ``text_size`` height holds (Kivy draws only the lines that fit)."""
    label.texture_update()  # the lines of the text it holds now, not of a text it held before
    core = getattr(label, "_label", None)
    lines = getattr(core, "_cached_lines", None) or []
    if label.shorten and not label.markup:
        shown = "".join(word.text for line in lines for word in line.words)
        if "".join(label.text.split()) != "".join(shown.split()):
            return f"shortened to {shown!r}"
    height = label.text_size[1] if label.text_size else None
    if height is not None and lines:
        needed = sum(line.h for line in lines)
        text = "".join(word.text for line in lines for word in line.words)
        dropped = len("".join(text.split())) < len("".join(label.text.split()))
        if needed > height + SLACK or (dropped and not label.markup and not label.shorten):
            return f"{len(lines)} lines need {needed:.0f} px, the box holds {height:.0f} px"
    return ""


def _is_control(widget: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior, ToggleButtonBehavior
    from kivy.uix.slider import Slider
    from kivy.uix.textinput import TextInput

    return isinstance(widget, (ButtonBehavior, ToggleButtonBehavior, TextInput, Slider))


def _describe(widget: Any) -> str:
    text = getattr(widget, "text", "")
    shown = " ".join(str(text).split())[:50] if isinstance(text, str) and text else ""
    return f"{type(widget).__name__} {shown!r}" if shown else type(widget).__name__


WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")
# Names, units and words German shares with English (or uses as loan words) that may show in German.
SHARED_WORDS = {
    "ok", "table", "ann", "ben", "cat", "dan", "mia", "tom", "fin", "eva", "lea", "max", "sam", "jo",
    "rs", "games", "nt", "pin", "gpio", "spi", "usb", "qr", "id", "sp", "px", "json", "toml", "db",
    "espeak", "ng", "tmp", "pytest", "data", "exports", "record", "name", "start", "board", "parlett",
    "computer", "export", "status", "serial", "camera", "sensor", "ass", "ende", "in", "so", "an",
    "hand", "was", "die", "will", "bin", "man", "fast", "war", "also", "rot", "mist", "kind",
}


@cache
def english_only_words() -> frozenset[str]:
    """Words of the English texts (the catalog's keys) that no German text uses."""
    from app.i18n import catalog

    german = catalog("de")
    english_words = {w.lower() for key in german for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", key))}
    german_words = {w.lower() for value in german.values()
                    for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", value))}
    extra = {"home", "simulated", "scripted", "cancel", "undo", "turn", "play", "draw", "menu", "back",
             "basic", "intermediate", "advanced", "jack", "queen", "king", "ace", "none"}
    return frozenset((english_words | extra) - german_words - SHARED_WORDS)


def audit(language: str, root: Any = None, names: tuple[str, ...] = ()) -> list[Problem]:
    """Every problem in what the window shows now (or under ``root``)."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    frame = Frame()
    problems: list[Problem] = []
    roots = [root] if root is not None else list(reversed(Window.children))
    english = english_only_words() - {n.lower() for n in names}
    for top in roots:
        for widget in _walk(top):
            shows, alpha = _visible(widget)
            if not shows:
                continue
            skip = getattr(widget, "audit_skip", set())
            name = _describe(widget)
            view = _view_rect(widget)
            small = widget.width < MIN_TOUCH - 0.5 or widget.height < MIN_TOUCH - 0.5
            if _is_control(widget) and not widget.disabled and "touch" not in skip and view and small:
                problems.append(Problem("touch", f"{name} is {widget.width:.0f}x{widget.height:.0f} px"))
            if not isinstance(widget, Label) or not widget.text.strip() or view is None:
                continue
            tw, th = widget.texture_size
            if "clipped" not in skip and (tw > widget.width + SLACK or th > widget.height + SLACK):
                problems.append(Problem("clipped", f"{name}: text {tw:.0f}x{th:.0f} px in a "
                                                   f"{widget.width:.0f}x{widget.height:.0f} px widget"))
            sizes = [widget.font_size] + [float(n) for n in SIZE_TAG.findall(widget.text)
                                          if widget.markup]
            if "small" not in skip and min(sizes) < MIN_TEXT - 0.5:
                problems.append(Problem("small", f"{name}: {min(sizes):.0f} px < {MIN_TEXT} px"))
            if "clipped" not in skip:
                cut = _cut_text(widget)
                if cut:
                    problems.append(Problem("clipped", f"{name}: {cut}"))
            box = _text_box(widget)
            if not _in_scroll(widget) and "clipped" not in skip and (
                    box[0] < -SLACK or box[1] < -SLACK or box[0] + box[2] > Window.width + SLACK
                    or box[1] + box[3] > Window.height + SLACK):
                problems.append(Problem("clipped", f"{name}: text leaves the window"))
            if "contrast" not in skip:
                # Only the part of the text box inside the visible view: the ground there.
                vx, vy, vw, vh = view
                bx0, by0 = max(box[0], vx), max(box[1], vy)
                bx1, by1 = min(box[0] + box[2], vx + vw), min(box[1] + box[3], vy + vh)
                if bx1 - bx0 >= 2 and by1 - by0 >= 2:
                    ground = frame.ground((bx0, by0, bx1 - bx0, by1 - by0))
                    colour = widget.disabled_color if widget.disabled else widget.color
                    ink = (*colour[:3], colour[3] * alpha)
                    ratio = contrast(over(ink, ground), ground)
                    need = LARGE if is_large(widget.font_size, widget.bold) else NORMAL
                    if widget.disabled:
                        need = 0  # WCAG 1.4.3: an inactive control's text is exempt
                    if ratio < need:
                        problems.append(Problem("contrast", f"{name}: {ratio:.2f}:1 < {need}:1 "
                                                            f"(font {widget.font_size:.0f} px)"))
                    for hexa in markup_colours(widget) if not widget.disabled else ():
                        tagged = contrast(over((*hexa[:3], hexa[3] * alpha), ground), ground)
                        if tagged < need:
                            problems.append(Problem("contrast", f"{name}: [color] markup {tagged:.2f}:1 "
                                                                f"< {need}:1"))
            if language == "de" and "english" not in skip:
                plain = re.sub(r"\[/?[a-z]+[^\]]*\]", " ", widget.text)  # markup tags
                plain = re.sub(r"\S*/\S*", " ", plain)  # file paths
                found = sorted({w for w in WORD.findall(plain) if w.lower() in english})
                if found:
                    problems.append(Problem("english", f"{name}: {', '.join(found)}"))
    return problems
