"""The 10x10 board as players see it: printed numbers, pegs in their colours, highlighted holes.

Drawn on the canvas (one rectangle per square, one circle per peg) with one label per square for
the printed number, so a redraw after a play costs well under a millisecond. Touching a square
calls ``on_hole(hole)``: with the simulated board that is a hand putting a peg in or taking it out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import sp
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from app.ui.widgets import colour_rgba

SQUARE_LIGHT = (0.93, 0.89, 0.80, 1)
SQUARE_DARK = (0.86, 0.80, 0.68, 1)
ALLOWED = (0.55, 0.85, 0.55, 1)
ATTENTION = (1.0, 0.55, 0.15, 1)
WINNING = (1.0, 0.84, 0.0, 1)


class BoardView(Widget):
    """Shows a board; the owner calls :meth:`show` whenever something changes."""

    def __init__(self, numbers: tuple[int, ...], on_hole: Callable[[int], Any] | None = None, **kw: Any):
        super().__init__(**kw)
        self.numbers = numbers
        self.on_hole = on_hole
        self.pegs: dict[int, str | None] = {}  # hole -> colour name (expected pegs)
        self.sensed: frozenset[int] = frozenset()  # holes the board source reports
        self.allowed: frozenset[int] = frozenset()
        self.attention: frozenset[int] = frozenset()
        self.winning: frozenset[int] = frozenset()
        self.labels = [Label(text=str(n), color=(0.15, 0.15, 0.15, 1), bold=True) for n in numbers]
        for label in self.labels:
            self.add_widget(label)
        self.bind(pos=self._redraw, size=self._redraw)

    @property
    def cell(self) -> float:
        return min(self.width, self.height) / 10

    def hole_rect(self, hole: int) -> tuple[float, float, float]:
        """(x, y, size) of a hole's square in window-relative coordinates (row 0 at the top)."""
        cell = self.cell
        left = self.x + (self.width - cell * 10) / 2
        top = self.y + (self.height + cell * 10) / 2
        row, col = divmod(hole, 10)
        return left + col * cell, top - (row + 1) * cell, cell

    def hole_at(self, x: float, y: float) -> int | None:
        cell = self.cell
        if cell <= 0:
            return None
        left = self.x + (self.width - cell * 10) / 2
        top = self.y + (self.height + cell * 10) / 2
        col, row = int((x - left) // cell), int((top - y) // cell)
        return row * 10 + col if 0 <= col < 10 and 0 <= row < 10 else None

    def show(
        self,
        pegs: Mapping[int, str | None],
        *,
        sensed: frozenset[int] | None = None,
        allowed: frozenset[int] = frozenset(),
        attention: frozenset[int] = frozenset(),
        winning: frozenset[int] = frozenset(),
    ) -> None:
        self.pegs = dict(pegs)
        self.sensed = frozenset(pegs) if sensed is None else sensed
        self.allowed, self.attention, self.winning = allowed, attention, winning
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self.canvas.before.clear()
        self.canvas.after.clear()
        with self.canvas.before:
            for hole in range(100):
                x, y, size = self.hole_rect(hole)
                if hole in self.winning:
                    Color(*WINNING)
                elif hole in self.attention:
                    Color(*ATTENTION)
                elif hole in self.allowed:
                    Color(*ALLOWED)
                else:
                    Color(*(SQUARE_LIGHT if (hole // 10 + hole) % 2 == 0 else SQUARE_DARK))
                Rectangle(pos=(x + 1, y + 1), size=(size - 2, size - 2))
        with self.canvas.after:
            for hole in sorted(set(self.pegs) | set(self.sensed)):
                x, y, size = self.hole_rect(hole)
                r = size * 0.22
                cx, cy = x + size * 0.75, y + size * 0.27
                if hole in self.pegs:
                    Color(*colour_rgba(self.pegs[hole]))
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
                    Color(0, 0, 0, 1)
                    Line(circle=(cx, cy, r), width=1.2)
                if hole in self.sensed and hole not in self.pegs:  # a peg the game does not know
                    Color(*ATTENTION)
                    Line(circle=(cx, cy, r), width=2)
                    Line(points=[cx - r, cy - r, cx + r, cy + r], width=2)
        for hole, label in enumerate(self.labels):
            x, y, size = self.hole_rect(hole)
            label.pos = (x, y + size * 0.30)
            label.size = (size * 0.75, size * 0.65)
            label.font_size = max(sp(11), size * 0.38)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        hole = self.hole_at(*touch.pos)
        if hole is not None and self.on_hole is not None:
            self.on_hole(hole)
            return True
        return False
