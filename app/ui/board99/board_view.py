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

    def _build_canvas(self) -> None:
        """Create every drawing instruction once; redraws only move and recolour them (creating
        and clearing instructions on every update costs time and, with some GL drivers, memory)."""
        self._square_colours: list[Color] = []
        self._squares: list[Rectangle] = []
        self._peg_colours: list[Color] = []
        self._pegs: list[Ellipse] = []
        self._outline_colours: list[Color] = []
        self._outlines: list[Line] = []
        self._cross_colours: list[Color] = []
        self._crosses: list[Line] = []
        with self.canvas.before:
            for _ in range(100):
                self._square_colours.append(Color(*SQUARE_LIGHT))
                self._squares.append(Rectangle())
        with self.canvas.after:
            for _ in range(100):
                self._peg_colours.append(Color(0, 0, 0, 0))
                self._pegs.append(Ellipse(size=(0, 0)))
                self._outline_colours.append(Color(0, 0, 0, 0))
                self._outlines.append(Line(width=1.2))
                self._cross_colours.append(Color(0, 0, 0, 0))
                self._crosses.append(Line(width=2))

    def _redraw(self, *_: Any) -> None:
        if not hasattr(self, "_squares"):
            self._build_canvas()
        for hole in range(100):
            x, y, size = self.hole_rect(hole)
            if hole in self.winning:
                rgba = WINNING
            elif hole in self.attention:
                rgba = ATTENTION
            elif hole in self.allowed:
                rgba = ALLOWED
            else:
                rgba = SQUARE_LIGHT if (hole // 10 + hole) % 2 == 0 else SQUARE_DARK
            self._square_colours[hole].rgba = rgba
            self._squares[hole].pos = (x + 1, y + 1)
            self._squares[hole].size = (size - 2, size - 2)
            r = size * 0.22
            cx, cy = x + size * 0.75, y + size * 0.27
            has_peg = hole in self.pegs
            stray = hole in self.sensed and not has_peg  # a peg the game does not know (yet)
            self._peg_colours[hole].rgba = colour_rgba(self.pegs[hole]) if has_peg else (0, 0, 0, 0)
            self._pegs[hole].pos = (cx - r, cy - r)
            self._pegs[hole].size = (2 * r, 2 * r) if has_peg else (0, 0)
            outline = (0, 0, 0, 1) if has_peg else ATTENTION if stray else (0, 0, 0, 0)
            self._outline_colours[hole].rgba = outline
            self._outlines[hole].circle = (cx, cy, r)
            self._cross_colours[hole].rgba = ATTENTION if stray else (0, 0, 0, 0)
            self._crosses[hole].points = [cx - r, cy - r, cx + r, cy + r] if stray else []
            label = self.labels[hole]
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
