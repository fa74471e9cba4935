"""A board without stickers: a grid of printed lines with pieces on its points, seen obliquely.

For the sticker-less paths (issue 30, point 6): the CLI's and the calibration screen's four
rough corner taps are refined onto these lines. Pieces are drawn a quarter of a pitch above their
points (tall pieces seen at an angle), in the peg colours the app's players pick, plus black and
white stones as Go data has them.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.sampling import homography_from_corners, project

# the outer grid points (TL, TR, BR, BL) of a 10x10 board in a 640x480 camera picture
CORNERS = [(150.0, 62.0), (508.0, 80.0), (552.0, 430.0), (108.0, 410.0)]
PIECE_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 200),
    "blue": (190, 90, 30),
    "green": (60, 160, 40),
    "yellow": (30, 200, 230),
    "white": (235, 235, 230),
    "black": (25, 25, 25),
}


def grid_board(
    pieces: dict[int, str] | None = None,
    rows: int = 10,
    cols: int = 10,
    corners: list[tuple[float, float]] | None = None,
    size: tuple[int, int] = (640, 480),
    seed: int = 0,
) -> np.ndarray:
    """The picture (BGR): a pale board, its printed lines through the points, the pieces."""
    rng = np.random.default_rng(seed)
    corners = corners or CORNERS
    img = np.full((size[1], size[0], 3), (60, 70, 80), np.uint8)
    h = homography_from_corners(corners, rows, cols)
    outline = project(
        h, np.array([[-0.7, -0.7], [cols - 0.3, -0.7], [cols - 0.3, rows - 0.3], [-0.7, rows - 0.3]])
    )
    cv2.fillConvexPoly(img, outline.astype(np.int32), (150, 190, 215))
    for r in range(rows):
        p, q = project(h, np.array([[0, r], [cols - 1, r]], dtype=np.float64))
        cv2.line(img, (round(p[0]), round(p[1])), (round(q[0]), round(q[1])), (40, 45, 50), 2, cv2.LINE_AA)
    for c in range(cols):
        p, q = project(h, np.array([[c, 0], [c, rows - 1]], dtype=np.float64))
        cv2.line(img, (round(p[0]), round(p[1])), (round(q[0]), round(q[1])), (40, 45, 50), 2, cv2.LINE_AA)
    for point, name in sorted((pieces or {}).items()):
        u, v = point % cols, point // cols - 0.25
        (x, y), (x1, y1) = project(h, np.array([[u, v], [u + 1, v]], dtype=np.float64))
        radius = 0.42 * float(np.hypot(x1 - x, y1 - y))  # a piece's size is the board's: near is larger
        cv2.circle(img, (round(x), round(y)), round(radius), PIECE_BGR[name], -1, cv2.LINE_AA)
    noise = rng.normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def rough_taps(
    corners: list[tuple[float, float]] | None = None, off: float = 0.3
) -> list[tuple[float, float]]:
    """The four corners as a finger taps them: each ``off`` pitch away, in a different direction."""
    corners = corners or CORNERS
    pitch = float(np.hypot(*np.subtract(corners[1], corners[0]))) / 9
    ways = [(1, 1), (-1, 1), (-1, -1), (1, -0.5)]
    return [(x + off * pitch * a, y + off * pitch * b) for (x, y), (a, b) in zip(corners, ways, strict=True)]
