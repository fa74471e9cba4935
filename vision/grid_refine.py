"""Four rough taps to the exact grid: refine a board's corner points on its printed lines.

Issue 30 (failure point 6): a board without stickers could only be read by typing its four
corner pixels exactly, for every picture. A user can tap the four corner points roughly; this
module moves them onto the grid the board shows. Each pass warps the picture upright with the
current corners, looks near every intersection for the printed line across and the line down
(the darkest thin line within :data:`SEARCH` of a pitch, found by a black-hat filter that keeps
lines thinner than a quarter pitch and ignores stones, which are wider), and fits the corners
again to those points that showed both lines clearly, with RANSAC (stones hide or fake some
lines; the rest outvote them). A grid that settled a whole line off is then moved back by the
board's outer lines (bare board lies beyond the outermost printed line). Taps off by up to
0.35 pitch end within a tenth of a pitch on 54 of 57 tries on the real photos
(``benchmarks/vision_grid_refine.py``).

Tall pieces seen at an angle do not move the result: the lines are printed on the board, under
the pieces. What it needs: printed lines (a Go board, a drawn grid); a peg board's holes have
none, and it has its stickers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Point = tuple[float, float]

VIEW_PITCH = 20  # pixels between lines in the upright view searched
VIEW_MARGIN = 0.6  # pitches of border around the outer lines in that view
SEARCH = 0.45  # pitches either side of where a line is expected
PASSES = 3
CLEAR = 1.6  # a line's peak must be this many times its window's median response
MIN_POINTS = 8  # intersections that must show both lines clearly for a fit


class GridNotFound(ValueError):
    """The printed lines could not be followed (too few intersections showed them)."""


def _upright(
    grey: NDArray[np.float32], h: NDArray[np.float64], rows: int, cols: int, margin: float = VIEW_MARGIN
) -> tuple[NDArray[np.float32], NDArray[np.float64]]:
    """The picture warped so that grid point (u, v) lies at ((u + margin) * pitch, ...); also the
    matrix from that view's pixels to the picture's."""
    import cv2
    import numpy as np

    view_from_grid = np.array(
        [[VIEW_PITCH, 0, margin * VIEW_PITCH], [0, VIEW_PITCH, margin * VIEW_PITCH], [0, 0, 1]],
        dtype=np.float64,
    )
    image_from_view = h @ np.linalg.inv(view_from_grid)
    size = (
        round((cols - 1 + 2 * margin) * VIEW_PITCH),
        round((rows - 1 + 2 * margin) * VIEW_PITCH),
    )
    view = cv2.warpPerspective(
        grey,
        image_from_view,
        size,
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(view, dtype=np.float32), image_from_view


def _line_points(
    view: NDArray[np.float32], rows: int, cols: int
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Per intersection where its two lines are seen in the view, and whether both were clear."""
    import cv2
    import numpy as np

    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (VIEW_PITCH // 4 * 2 + 1,) * 2)
    lines = cv2.morphologyEx(view, cv2.MORPH_BLACKHAT, kernel)  # dark and thinner than the kernel
    s = int(SEARCH * VIEW_PITCH)
    half = VIEW_PITCH // 2
    found = np.zeros((rows * cols, 2))
    clear = np.zeros(rows * cols, dtype=np.bool_)
    height, width = lines.shape
    for r in range(rows):
        for c in range(cols):
            x0 = round((c + VIEW_MARGIN) * VIEW_PITCH)
            y0 = round((r + VIEW_MARGIN) * VIEW_PITCH)
            ya, yb, xa, xb = max(y0 - s, 0), min(y0 + s + 1, height), max(x0 - s, 0), min(x0 + s + 1, width)
            # the line across: strongest row of the window, summed along a pitch of the line
            across = lines[ya:yb, max(x0 - half, 0) : min(x0 + half + 1, width)].sum(axis=1)
            down = lines[max(y0 - half, 0) : min(y0 + half + 1, height), xa:xb].sum(axis=0)
            if len(across) < 3 or len(down) < 3:
                continue
            iy, ix = int(across.argmax()), int(down.argmax())
            found[r * cols + c] = (xa + ix, ya + iy)
            clear[r * cols + c] = bool(
                across[iy] > CLEAR * max(float(np.median(across)), 1e-3)
                and down[ix] > CLEAR * max(float(np.median(down)), 1e-3)
            )
    return found, clear


def upright_lines(
    grey: NDArray[np.float32], h: NDArray[np.float64], rows: int, cols: int, margin: float
) -> NDArray[np.float32]:
    """The thin dark lines of the picture warped upright (grid point (u, v) at ((u + margin) *
    :data:`VIEW_PITCH`, ...)): a black-hat filter that keeps what is thinner than a quarter pitch."""
    import cv2
    import numpy as np

    view, _ = _upright(grey, h, rows, cols, margin)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (VIEW_PITCH // 4 * 2 + 1,) * 2)
    return np.asarray(cv2.morphologyEx(view, cv2.MORPH_BLACKHAT, kernel), dtype=np.float32)


def outer_line_strengths(
    grey: NDArray[np.float32], h: NDArray[np.float64], rows: int, cols: int
) -> tuple[list[float], list[float]]:
    """How clearly each line is printed, from one before the grid to one after: (the lines down,
    columns -1 .. cols; the lines across, rows -1 .. rows).

    Per line the median along its length of the strongest thin-dark response within two view
    pixels of where it should be: a line hidden under fewer than half its length of stones still
    counts, bare board (or the board's wide edge) gives nearly nothing."""
    import numpy as np

    margin = 1.6
    lines = upright_lines(grey, h, rows, cols, margin)

    def responses(n: int, along: int, axis: int) -> list[float]:
        lo, hi = round((margin - 0.5) * VIEW_PITCH), round((along - 1 + margin + 0.5) * VIEW_PITCH)
        out = []
        for k in range(-1, n + 1):
            at = round((k + margin) * VIEW_PITCH)
            band = lines[lo:hi, at - 2 : at + 3] if axis == 1 else lines[at - 2 : at + 3, lo:hi]
            out.append(float(np.median(band.max(axis=axis))))
        return out

    return responses(cols, rows, 1), responses(rows, cols, 0)


def _outer_lines_shift(
    grey: NDArray[np.float32], h: NDArray[np.float64], rows: int, cols: int
) -> tuple[int, int]:
    """Whether the grid sits one line off: (du, dv), each -1, 0 or 1.

    Refining can settle one whole line off (taps half a pitch out, faint lines): every
    intersection then still finds a line. What tells is the ends: a board's outermost printed
    line has board beyond it, no line. Per direction the grid moves one line when the line it
    would take in is clearly printed and the one it would let go is not."""
    import numpy as np

    shifts = []
    for r in outer_line_strengths(grey, h, rows, cols):
        typical = float(np.median(r[1:-1])) or 1e-6
        first, last, before, after = r[1], r[-2], r[0], r[-1]
        if before > 0.5 * typical and last < 0.25 * typical:
            shifts.append(-1)
        elif after > 0.5 * typical and first < 0.25 * typical:
            shifts.append(1)
        else:
            shifts.append(0)
    return shifts[0], shifts[1]


def refine_corners(
    image: NDArray[np.uint8], corners: Sequence[Point], rows: int, cols: int, passes: int = PASSES
) -> list[Point]:
    """``corners`` (TL, TR, BR, BL outer grid points, pixels, roughly) moved onto the printed grid.

    Raises :class:`GridNotFound` when fewer than :data:`MIN_POINTS` intersections show their
    lines clearly (no printed grid, or the corners are more than about half a pitch off)."""
    import cv2
    import numpy as np

    from vision.sampling import hole_grid_points, homography_from_corners, project

    if len(corners) != 4:
        raise ValueError(f"refine_corners: four corner points needed, got {len(corners)}")
    grey = grey_of(image)
    h = homography_from_corners(list(corners), rows, cols)
    grid = hole_grid_points(rows, cols)
    for _ in range(passes):
        view, image_from_view = _upright(grey, h, rows, cols)
        found, clear = _line_points(view, rows, cols)
        if int(clear.sum()) < MIN_POINTS:
            raise GridNotFound(
                f"the board's printed lines were not found near the corners given ({int(clear.sum())} "
                f"intersections seen, {MIN_POINTS} needed): tap the four outer corner points again"
            )
        seen = project(image_from_view, found[clear])
        pitch_px = float(np.linalg.norm(project(h, grid[[0, cols - 1]])[1] - project(h, grid[[0]])[0])) / (
            cols - 1
        )
        fitted, _inliers = cv2.findHomography(
            grid[clear].astype(np.float32), seen.astype(np.float32), cv2.RANSAC, max(0.15 * pitch_px, 1.0)
        )
        if fitted is None:
            raise GridNotFound("the board's printed lines did not fit one grid: tap the four corners again")
        h = np.asarray(fitted, dtype=np.float64)
    du, dv = _outer_lines_shift(grey, h, rows, cols)
    if (du, dv) != (0, 0):  # one line off: move the grid by that line
        h = h @ np.array([[1.0, 0.0, du], [0.0, 1.0, dv], [0.0, 0.0, 1.0]])
    out = project(h, np.array([[0, 0], [cols - 1, 0], [cols - 1, rows - 1], [0, rows - 1]], dtype=np.float64))
    return [(float(x), float(y)) for x, y in out]


def clear_share(grey: NDArray[np.float32], h: NDArray[np.float64], rows: int, cols: int) -> float:
    """The share of intersections where both printed lines are seen clearly near where ``h``
    puts them: how well a located grid fits the picture (stones hide some)."""
    view, _ = _upright(grey, h, rows, cols)
    _found, clear = _line_points(view, rows, cols)
    return float(clear.mean())


def grey_of(image: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The picture as float grey, as the line search reads it."""
    import cv2
    import numpy as np

    if image.ndim == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.float32)
    return np.asarray(image, dtype=np.float32)
