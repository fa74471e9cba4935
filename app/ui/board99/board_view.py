"""The 10x10 board as players see it: printed numbers, pegs in their colours, highlighted holes.

The squares and the printed numbers are drawn once into two off-screen textures (Fbos) and shown as
two pictures with the highlights between them: a tint colours a square's ground, never its number, so
the number keeps its contrast on an allowed or winning square (tests/test_board_contrast.py). An
allowed square also gets a dark outline, so colour is not its only cue. Only the few things that
change (highlights, pegs) are separate instructions. On a
software GL renderer a hundred Label widgets and shapes cost tens of milliseconds per frame, and
draw calls are what a Raspberry Pi's GPU likes least too. Touching a square calls ``on_hole(hole)``:
with the simulated board that is a hand putting a peg in or taking it out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import ClearBuffers, ClearColor, Color, Ellipse, Fbo, InstructionGroup, Line, Rectangle
from kivy.metrics import sp
from kivy.uix.widget import Widget

from app.i18n import language
from app.ui import theme
from app.ui.widgets import colour_rgba

SQUARE_LIGHT = (0.93, 0.89, 0.80, 1)
SQUARE_DARK = (0.86, 0.80, 0.68, 1)
ALLOWED = (0.30, 0.80, 0.30, 0.55)
ATTENTION = (1.0, 0.50, 0.10, 0.6)
WINNING = (1.0, 0.84, 0.0, 0.65)
NUMBER_COLOUR = (0.15, 0.15, 0.15, 1)
ALLOWED_OUTLINE = (0.05, 0.30, 0.08, 1)  # dark green: over 3:1 against the tinted square


class BoardView(Widget):
    """Shows a board; the owner calls :meth:`show` whenever something changes."""

    def __init__(self, numbers: tuple[int, ...], on_hole: Callable[[int], Any] | None = None, **kw: Any):
        super().__init__(**kw)
        self.numbers = tuple(numbers)
        self.on_hole = on_hole
        self.pegs: dict[int, str | None] = {}  # hole -> colour name (expected pegs)
        self.sensed: frozenset[int] = frozenset()  # holes the board source reports
        self.allowed: frozenset[int] = frozenset()
        self.attention: frozenset[int] = frozenset()
        self.winning: frozenset[int] = frozenset()
        self._picture_key: tuple[Any, ...] = ()
        self._fbo: Fbo | None = None
        self._numbers_fbo: Fbo | None = None
        with self.canvas.before:
            self._fbo_group = InstructionGroup()  # the Fbos render in the normal render pass
            Color(1, 1, 1, 1)
            self._picture = Rectangle()  # the squares
            self._tints = InstructionGroup()  # highlights: over the squares, under the numbers
            Color(1, 1, 1, 1)
            self._numbers_picture = Rectangle()  # the printed numbers
        self.bind(pos=self._redraw, size=self._redraw)

    @property
    def cell(self) -> float:
        return min(self.width, self.height) / 10

    def _origin(self) -> tuple[float, float]:
        cell = self.cell
        return self.x + (self.width - cell * 10) / 2, self.y + (self.height + cell * 10) / 2

    def hole_rect(self, hole: int) -> tuple[float, float, float]:
        """(x, y, size) of a hole's square in window-relative coordinates (row 0 at the top)."""
        cell = self.cell
        left, top = self._origin()
        row, col = divmod(hole, 10)
        return left + col * cell, top - (row + 1) * cell, cell

    def hole_at(self, x: float, y: float) -> int | None:
        cell = self.cell
        if cell <= 0:
            return None
        left, top = self._origin()
        col, row = int((x - left) // cell), int((top - y) // cell)
        return row * 10 + col if 0 <= col < 10 and 0 <= row < 10 else None

    def set_numbers(self, numbers: tuple[int, ...]) -> None:
        """Show another layout's printed numbers."""
        self.numbers = tuple(numbers)
        self._redraw()

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

    # -- drawing ----------------------------------------------------------------------------------
    def _paint_picture(self) -> None:
        """Squares and numbers into the off-screen texture, only when size or layout changed."""
        size = int(self.cell * 10)
        key = (size, self.numbers)
        if size <= 0 or key == self._picture_key:
            return
        self._picture_key = key
        cell = size / 10
        fbo = Fbo(size=(size, size))
        numbers_fbo = Fbo(size=(size, size))
        font = round(max(sp(11), cell * 0.38))
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
            for hole in range(100):
                row, col = divmod(hole, 10)
                x, y = col * cell, size - (row + 1) * cell
                Color(*(SQUARE_LIGHT if (row + col) % 2 == 0 else SQUARE_DARK))
                Rectangle(pos=(x + 1, y + 1), size=(cell - 2, cell - 2))
        with numbers_fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
            for hole in range(100):
                row, col = divmod(hole, 10)
                x, y = col * cell, size - (row + 1) * cell
                label = CoreLabel(text=str(self.numbers[hole]), font_size=font, bold=True)
                label.refresh()
                Color(*NUMBER_COLOUR)
                texture = label.texture
                Rectangle(texture=texture, size=texture.size,
                          pos=(x + cell * 0.08, y + cell - texture.height - cell * 0.04))
        self._fbo_group.clear()
        self._fbo_group.add(fbo)
        self._fbo_group.add(numbers_fbo)
        self._fbo, self._numbers_fbo = fbo, numbers_fbo
        self._picture.texture = fbo.texture
        self._numbers_picture.texture = numbers_fbo.texture

    def _redraw(self, *_: Any) -> None:
        self._paint_picture()
        left, top = self._origin()
        cell = self.cell
        self._picture.pos = (left, top - cell * 10)
        self._picture.size = (cell * 10, cell * 10)
        self._numbers_picture.pos = self._picture.pos
        self._numbers_picture.size = self._picture.size
        self._tints.clear()
        for holes, rgba in ((self.allowed, ALLOWED), (self.attention, ATTENTION),
                            (self.winning, WINNING)):
            if holes:
                self._tints.add(Color(*rgba))
                for hole in holes:
                    x, y, size = self.hole_rect(hole)
                    self._tints.add(Rectangle(pos=(x + 1, y + 1), size=(size - 2, size - 2)))
        if self.allowed:  # the second cue: an allowed square is outlined, not only tinted
            self._tints.add(Color(*ALLOWED_OUTLINE))
            for hole in self.allowed:
                x, y, size = self.hole_rect(hole)
                self._tints.add(Line(rectangle=(x + 3, y + 3, size - 6, size - 6), width=2))
        self.canvas.after.clear()
        with self.canvas.after:
            for hole in sorted(set(self.pegs) | set(self.sensed)):
                x, y, size = self.hole_rect(hole)
                r = size * 0.25
                cx, cy = x + size * 0.72, y + size * 0.28
                if hole in self.pegs:
                    # A peg drawn as a peg: a dark ring (3:1 or more on both squares, so a yellow or
                    # white peg shows), its colour, and its letter as the second cue.
                    missing = hole not in self.sensed  # the game has it, the board does not: faded
                    fade = 0.35 if missing else 1
                    Color(*theme.PEG_RING[:3], fade)
                    Ellipse(pos=(cx - r - 3, cy - r - 3), size=(2 * r + 6, 2 * r + 6), segments=24)
                    fill = colour_rgba(self.pegs[hole])
                    Color(*fill[:3], fade)
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r), segments=24)
                    texture = self._mark(self.pegs[hole], r)
                    if texture is not None:
                        Color(*theme.readable_on(fill)[:3], fade)
                        Rectangle(texture=texture, size=texture.size,
                                  pos=(cx - texture.width / 2, cy - texture.height / 2))
                else:  # a peg the game does not know (yet): an orange cross
                    Color(*ATTENTION)
                    Line(points=[cx - r, cy - r, cx + r, cy + r], width=2)
                    Line(points=[cx - r, cy + r, cx + r, cy - r], width=2)

    def _mark(self, colour: str | None, radius: float) -> Any:
        """The peg's letter as a texture (cached per letter and size)."""
        mark = theme.peg_mark(colour, language()) if colour else ""
        if not mark:
            return None
        # As big as the peg allows: one letter 1.5 radii (16-17 px on the 800x480 screen), two
        # letters ("Gr", "Ge", "Bk") 1.2 radii (13 px); both still fit inside the coloured disc.
        size = round(radius * (1.5 if len(mark) == 1 else 1.2))
        key = (mark, size)
        cache: dict[tuple[str, int], Any] = self.__dict__.setdefault("_marks", {})
        if key not in cache:
            label = CoreLabel(text=mark, font_size=size, bold=True)
            label.refresh()
            cache[key] = label.texture
        return cache[key]

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        hole = self.hole_at(*touch.pos)
        if hole is not None and self.on_hole is not None:
            self.on_hole(hole)
            return True
        return False
