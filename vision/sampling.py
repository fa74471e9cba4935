"""Warp the board to a small upright image and take one robust colour per hole and per gap.

Grid coordinates: hole (row, col) sits at ``(u, v) = (col, row)``. A homography ``image_from_grid``
(3x3) maps grid coordinates to camera pixels; it comes from the markers and the profile, or
straight from four grid corners given in pixels (``--grid``).

Why warp at all: after the warp every hole is a disc of the same size at a fixed place, so the
pixel indexes of all discs are computed once and each frame costs one small ``warpPerspective``
and one vectorised median. The warped image has ``PITCH`` pixels between holes whatever the
camera's resolution (the frame is halved with ``pyrDown`` first while the board is much larger,
which also averages away sensor noise).

Gaps are the points midway between four holes (and half a pitch outside the outer holes). Pegs
never cover them, so they show the board's surface under the current light: the light at a hole
is estimated from its four gaps, and a gap that stops looking like the board means something
(a hand) lies over it.

The median of a disc, not the mean: a glint on a peg or a printed line through a hole covers
less than half the disc and so does not move the median.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported inside functions: importing vision must not need it
    import numpy as np
    from numpy.typing import NDArray

PITCH = 24  # warped pixels between neighbouring holes
MARGIN = 0.75  # warped border around the outer holes, in pitches
GAP_RADIUS = 0.14


def homography_from_corners(corners: list[tuple[float, float]], rows: int, cols: int) -> NDArray[np.float64]:
    """``image_from_grid`` for grid corner points given as TL, TR, BR, BL pixels."""
    import cv2
    import numpy as np

    src = np.array([[0, 0], [cols - 1, 0], [cols - 1, rows - 1], [0, rows - 1]], dtype=np.float32)
    dst = np.array(corners, dtype=np.float32).reshape(4, 2)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)


def project(h: NDArray[np.float64], points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Apply homography ``h`` to an (n, 2) array of points."""
    import numpy as np

    pts = np.hstack([points, np.ones((len(points), 1))]) @ h.T
    return np.asarray(pts[:, :2] / pts[:, 2:3], dtype=np.float64)


def hole_grid_points(rows: int, cols: int) -> NDArray[np.float64]:
    import numpy as np

    v, u = np.mgrid[0:rows, 0:cols]
    return np.stack([u.ravel(), v.ravel()], axis=1).astype(np.float64)


def disc_quartiles(discs: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """(n, pixels, 3) -> (n, 9): lower quartile, median and upper quartile per channel."""
    import numpy as np

    n = discs.shape[1]
    marks = sorted({n // 4, n // 2, (3 * n) // 4})
    parted = np.partition(discs, marks, axis=1)
    return np.concatenate([parted[:, n // 4], parted[:, n // 2], parted[:, (3 * n) // 4]], axis=1)


def pitch_for(sample_radius: float) -> int:
    """Warped pixels per hole: enough that the sampling disc is at least 3 pixels across its
    radius (small pegs), never fewer than :data:`PITCH`."""
    return int(min(2 * PITCH, max(PITCH, math.ceil(3.0 / max(sample_radius, 0.01)))))


@dataclass
class Samples:
    """One frame's measurements: median RGB per hole (rows*cols, 3), or its lower quartile, median
    and upper quartile (rows*cols, 9), and the median per gap ((rows+1)*(cols+1), 3)."""

    holes: NDArray[np.float32]
    gaps: NDArray[np.float32]
    warped: NDArray[np.uint8]


class Sampler:
    """Precomputed disc indexes for a ``rows`` x ``cols`` grid; :meth:`sample` one frame."""

    def __init__(
        self,
        rows: int,
        cols: int,
        sample_radius: float = 0.28,
        pitch: int = PITCH,
        head_shift: tuple[float, float, float] = (0.0, 0.0, 0.0),
        quartiles: bool = False,
        centre: bool = False,
    ) -> None:
        import numpy as np

        self.rows, self.cols = rows, cols
        self.pitch = pitch
        self.quartiles = quartiles  # per hole the disc's lower quartile, median, upper quartile
        self.width = round((cols - 1 + 2 * MARGIN) * pitch)
        self.height = round((rows - 1 + 2 * MARGIN) * pitch)
        # canonical pixel = (grid + MARGIN) * pitch
        self.canonical_from_grid = np.array(
            [[pitch, 0, MARGIN * pitch], [0, pitch, MARGIN * pitch], [0, 0, 1]], dtype=np.float64
        )
        self.grid_from_canonical = np.linalg.inv(self.canonical_from_grid)
        holes = hole_grid_points(rows, cols)
        gv, gu = np.mgrid[0 : rows + 1, 0 : cols + 1]
        gaps = np.stack([gu.ravel() - 0.5, gv.ravel() - 0.5], axis=1).astype(np.float64)
        k, mx, my = head_shift  # a tall peg's head is seen displaced (see BoardProfile.head_shift)
        heads = holes + k * holes - np.array([[mx, my]])
        self.hole_index = self._disc_indexes(heads, sample_radius)
        # where the head is seen beside its hole, the hole itself is sampled too: an empty hole
        # shows its cavity there, a peg its stem (a head missed by its disc is then not "empty")
        self.centre_index = self._disc_indexes(holes, sample_radius) if quartiles and centre else None
        self.gap_index = self._disc_indexes(gaps, GAP_RADIUS)
        self._cells: NDArray[np.intp] | None = None

    def _disc_indexes(self, grid_points: NDArray[np.float64], radius: float) -> NDArray[np.intp]:
        import numpy as np

        r = max(1.0, radius * self.pitch)
        ry, rx = np.mgrid[-int(r) : int(r) + 1, -int(r) : int(r) + 1]
        keep = rx**2 + ry**2 <= r * r
        dx, dy = rx[keep], ry[keep]
        centres = np.rint((grid_points + MARGIN) * self.pitch).astype(int)  # grid_points may be fractional
        xs = np.clip(centres[:, 0:1] + dx[None, :], 0, self.width - 1)
        ys = np.clip(centres[:, 1:2] + dy[None, :], 0, self.height - 1)
        return np.asarray(ys * self.width + xs, dtype=np.intp)

    def warp(self, image: NDArray[np.uint8], image_from_grid: NDArray[np.float64]) -> NDArray[np.uint8]:
        """The board upright at ``PITCH`` pixels per hole; halves large frames first."""
        import cv2
        import numpy as np

        h = image_from_grid
        corners = project(h, np.array([[0, 0], [self.cols - 1, 0], [0, self.rows - 1]], dtype=np.float64))
        pitch_px = max(
            np.linalg.norm(corners[1] - corners[0]) / (self.cols - 1),
            np.linalg.norm(corners[2] - corners[0]) / (self.rows - 1),
        )
        scale = 1.0
        while pitch_px * scale > 2.5 * self.pitch and min(image.shape[:2]) > 64:
            image = np.asarray(cv2.pyrDown(image), dtype=np.uint8)
            scale *= 0.5
        image_from_canonical = np.diag([scale, scale, 1.0]) @ h @ self.grid_from_canonical
        warped = cv2.warpPerspective(
            image,
            image_from_canonical,
            (self.width, self.height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return np.asarray(warped, dtype=np.uint8)

    def cells(self) -> NDArray[np.intp]:
        """(height, width): per pixel of the warped image the hole nearest to it."""
        import numpy as np

        if self._cells is None:
            ys, xs = np.mgrid[0 : self.height, 0 : self.width]
            col = np.clip(np.rint(xs / self.pitch - MARGIN), 0, self.cols - 1).astype(np.intp)
            row = np.clip(np.rint(ys / self.pitch - MARGIN), 0, self.rows - 1).astype(np.intp)
            self._cells = np.asarray(row * self.cols + col, dtype=np.intp)
        return self._cells

    def centre(self, hole: int) -> tuple[float, float]:
        """Pixel of hole ``hole``'s centre in the warped image."""
        row, col = divmod(hole, self.cols)
        return ((col + MARGIN) * self.pitch, (row + MARGIN) * self.pitch)

    def sample(self, image: NDArray[np.uint8], image_from_grid: NDArray[np.float64]) -> Samples:
        import numpy as np

        warped = self.warp(image, image_from_grid)
        flat = warped.reshape(-1, 3)
        if self.quartiles:
            parts = [disc_quartiles(flat[self.hole_index])]
            if self.centre_index is not None:
                parts.append(disc_quartiles(flat[self.centre_index]))
            holes = np.concatenate(parts, axis=1).astype(np.float32)
        else:
            holes = np.median(flat[self.hole_index], axis=1).astype(np.float32)
        gaps = np.median(flat[self.gap_index], axis=1).astype(np.float32)
        return Samples(holes, gaps, warped)
