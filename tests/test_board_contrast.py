"""The board's printed numbers stay readable on highlighted squares, read from the rendered frame.

A square's number is measured as drawn: the ground is the commonest colour in the number's corner
of the square, the ink the pixel there that differs most from it (a stroke's core). On the old
board the allowed (green) and winning (gold) tints were drawn over the numbers and the numbers fell
to about 2.5:1 and 1.9:1; now the tints lie under them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from app.ui.theme import contrast

pytestmark = pytest.mark.ui


def number_contrast(frame: Any, view: Any, hole: int) -> float:
    """The contrast of the printed number of ``hole`` against its square, as rendered."""
    x, y, size = view.hole_rect(hole)
    wx, wy = view.to_window(x, y)
    # the number sits in the square's top-left corner (board_view: 8% in, 4% down)
    x0, x1 = int(wx + size * 0.06), int(wx + size * 0.62)
    y0, y1 = int(wy + size * 0.45), int(wy + size * 0.95)
    pixels = []
    for row in range(y0, y1):
        for col in range(x0, x1):
            i = row * frame.stride + col * 3
            pixels.append((frame.data[i] / 255, frame.data[i + 1] / 255, frame.data[i + 2] / 255))
    ground = Counter(pixels).most_common(1)[0][0]
    return max(contrast(p, ground) for p in pixels)


def test_numbers_keep_their_contrast_on_allowed_attention_and_winning_squares(ui: Any) -> None:
    from app.ui.board99.board_view import BoardView
    from tests.screen_audit import Frame

    view = BoardView(numbers=tuple(range(1, 101)))
    ui.show(view)
    allowed = frozenset({0, 11, 22})
    winning = frozenset({44, 55})
    attention = frozenset({77})
    view.show({}, allowed=allowed, winning=winning, attention=attention)
    frame = Frame()
    plain = {h: number_contrast(frame, view, h) for h in (1, 10)}  # a light and a dark square
    assert min(plain.values()) >= 4.5, plain  # the measurement itself finds a plain number
    for hole in sorted(allowed | winning | attention):
        ratio = number_contrast(frame, view, hole)
        assert ratio >= 4.5, f"number on square {hole}: {ratio:.2f}:1"


def test_an_allowed_square_is_outlined_as_well_as_tinted(ui: Any) -> None:
    """Colour is not the only cue: an allowed square carries a dark outline a plain one has not."""
    from app.ui.board99.board_view import ALLOWED_OUTLINE, BoardView
    from tests.screen_audit import Frame

    view = BoardView(numbers=tuple(range(1, 101)))
    ui.show(view)
    view.show({}, allowed=frozenset({33}))
    frame = Frame()

    def outline_pixels(hole: int) -> int:
        x, y, size = view.hole_rect(hole)
        wx, wy = view.to_window(x, y)
        row = int(wy + size * 0.5)
        found = 0
        for col in range(int(wx), int(wx + size * 0.2)):
            i = row * frame.stride + col * 3
            pixel = tuple(frame.data[i + k] / 255 for k in range(3))
            found += contrast(pixel, ALLOWED_OUTLINE) < 1.3
        return found

    assert outline_pixels(33) >= 1
    assert outline_pixels(35) == 0


def test_peg_letters_are_at_least_13_px_and_fit_inside_the_peg(ui: Any) -> None:
    """The letter on a peg (the second cue) is big enough to read at arm's length: one letter at
    least 16 px, two letters ("Gr", "Ge", "Bk") at least 13 px, and still inside the disc."""
    from app import i18n
    from app.ui.board99.board_view import BoardView

    view = BoardView(numbers=tuple(range(1, 101)))
    ui.show(view)
    for language in ("en", "de"):
        i18n.set_language(language)
        try:
            view.show({1: "red", 2: "green", 3: "yellow", 4: "black", 5: "white", 6: "blue"})
        finally:
            i18n.set_language("en")
    radius = view.cell * 0.25
    marks = view.__dict__["_marks"]
    assert {m for m, _ in marks} >= {"R", "Gr", "Ge", "Bk", "S", "W"}
    for (mark, size), texture in marks.items():
        assert size >= (16 if len(mark) == 1 else 13), (mark, size)
        assert texture.width <= 2 * radius, (mark, texture.width, 2 * radius)
