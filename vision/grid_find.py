"""A board's grid found without stickers or taps: the four outer grid points from the picture.

Issue 30 (failure point 6): a board without stickers had to be located by four taps. This finds
its printed grid by itself, once per setup (the camera is fixed). How:

1. Line segments (OpenCV's LSD) longer than :data:`MIN_SEGMENT` pixels.
2. Two families of lines by their vanishing points: RANSAC over pairs of segments, a segment
   belonging to a point when it points at it within :data:`ANGLE` (a board's printed lines are
   the largest set of long segments that share one; the carpet's or wood grain's do not).
3. The picture made affine by sending the line through both vanishing points to infinity: each
   family becomes parallel, and a printed grid becomes evenly spaced. Per family the spacing is
   the strongest peak of the segments' position periodogram, and the grid's lines are the
   ``rows`` (or ``cols``) consecutive teeth of that comb whose two ends and most of the rest
   carry segments while the teeth just beyond carry few (bare board lies beyond the outermost
   printed line; stones may hide an inner line).
4. ``grid_refine.refine_corners`` settles the four corners on the printed lines.
5. The fit is checked before it is returned (:func:`check_grid`): the outermost lines and most
   others printed, the lines one beyond both ends not, the lines midway between its own weaker
   (a crowded board's gaps between stones are thin dark lines too), enough intersections seen.
   A board with another number of lines, no board, or a grid one line off is refused in one
   line that names the fix (tap the four corners) rather than returned wrong.

What it needs: printed lines (Go, a drawn grid). A peg board's holes have no lines (it has its
stickers). Corners come in the picture's reading order (TL is the grid corner nearest the
picture's top left; a square board may be found turned a quarter, which only renames its rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from vision.grid_refine import GridNotFound

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Point = tuple[float, float]

WORK_SIZE = 2048  # pixels: larger pictures are searched shrunk to this (speed)
MIN_WORK = 1280  # pixels: smaller pictures are searched enlarged to this (thin lines stay apart)
LINE_KERNEL = 9  # pixels: a black-hat this wide keeps printed lines, drops stones
MIN_SEGMENT = 18  # pixels (at the working size): shorter segments are mostly texture
ANGLE = 1.2  # degrees: a segment belongs to a vanishing point when it points at it this closely
RANSAC_TRIES = 400
TOOTH = 0.22  # pitches either side of a comb tooth that count as on it
LINE_PRESENT = 0.2  # each grid line's contrast at least this share of the median line's
INNER_SEEN = 0.8  # share of the grid's lines that must be seen (stones may hide the others)
BEYOND_ABSENT = 0.45  # a line one beyond the grid at most this share
MIDWAY_MAX = 1.0  # lines half a pitch over at most this strong as the grid's own (true grids:
# up to 0.78 on a crowded drawn board, below 0.1 on the real photos; half a pitch off: 2.25)
MIN_CLEAR = 0.3  # share of intersections that must show both lines after refining
MIN_LINES = 3
REFINE_PASSES = 6  # the comb's corners may be a third of a pitch off: more passes than for taps


class GridNotFoundHere(GridNotFound):
    """No grid of the asked size was found by itself (the user taps the four corners instead).
    ``cause`` is the reason alone, for front ends that word the fix their own way."""

    def __init__(self, cause: str) -> None:
        super().__init__(f"the board's grid was not found by itself ({cause}): tap the four corner points")
        self.cause = cause


def _refusal(cause: str) -> GridNotFoundHere:
    return GridNotFoundHere(cause)


@dataclass(frozen=True)
class _Family:
    """The segments pointing at one vanishing point (homogeneous, unit length)."""

    vp: NDArray[np.float64]
    ends: NDArray[np.float64]  # (n, 4): x1, y1, x2, y2
    weight: NDArray[np.float64]  # lengths


def _segments(grey: NDArray[np.uint8]) -> NDArray[np.float64]:
    import cv2
    import numpy as np

    # thin dark lines made to stand out first (a black-hat filter, stretched): printed lines of
    # one or two pixels are faint edges to LSD, wide shapes (stones, the table) drop out
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LINE_KERNEL, LINE_KERNEL))
    thin = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, kernel).astype(np.float32)
    top = max(float(np.percentile(thin, 99.5)), 1.0)
    lines_only = np.clip(255 - thin * (255 / top), 0, 255).astype(np.uint8)
    lsd = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD)
    found = lsd.detect(lines_only)[0]
    if found is None:
        return np.zeros((0, 4))
    ends = found.reshape(-1, 4).astype(np.float64)
    length = np.hypot(ends[:, 2] - ends[:, 0], ends[:, 3] - ends[:, 1])
    return np.asarray(ends[length >= MIN_SEGMENT])


def _pointing_error(ends: NDArray[np.float64], vp: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per segment the sine of the angle between it and the direction from its middle to ``vp``
    (homogeneous, so a point at infinity works)."""
    import numpy as np

    mid = (ends[:, :2] + ends[:, 2:]) / 2
    d = ends[:, 2:] - ends[:, :2]
    to_vp = vp[None, :2] - mid * vp[2]
    cross = np.abs(d[:, 0] * to_vp[:, 1] - d[:, 1] * to_vp[:, 0])
    norms = np.linalg.norm(d, axis=1) * np.linalg.norm(to_vp, axis=1)
    return np.asarray(cross / np.maximum(norms, 1e-12))


def _lines_of(ends: NDArray[np.float64]) -> NDArray[np.float64]:
    """Homogeneous lines through the segments, scaled so that (a, b) has unit length."""
    import numpy as np

    p = np.hstack([ends[:, :2], np.ones((len(ends), 1))])
    q = np.hstack([ends[:, 2:], np.ones((len(ends), 1))])
    lines = np.cross(p, q)
    return np.asarray(lines / np.maximum(np.linalg.norm(lines[:, :2], axis=1, keepdims=True), 1e-12))


def _vanishing_point(
    ends: NDArray[np.float64], rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.bool_]] | None:
    """The point most segment length points at (RANSAC over pairs, then least squares)."""
    import numpy as np

    if len(ends) < 2 * MIN_LINES:
        return None
    length = np.hypot(ends[:, 2] - ends[:, 0], ends[:, 3] - ends[:, 1])
    lines = _lines_of(ends)
    limit = np.sin(np.radians(ANGLE))
    chance = length / length.sum()
    # every try at once: candidate points (tries x 3) against every segment (tries x segments)
    pairs = np.array([rng.choice(len(ends), size=2, replace=False, p=chance) for _ in range(RANSAC_TRIES)])
    candidates = np.cross(lines[pairs[:, 0]], lines[pairs[:, 1]])
    norms = np.linalg.norm(candidates, axis=1)
    candidates = candidates[norms > 0] / norms[norms > 0, None]
    if len(candidates) == 0:
        return None
    mid = (ends[:, :2] + ends[:, 2:]) / 2
    d = ends[:, 2:] - ends[:, :2]
    to_x = candidates[:, None, 0] - mid[None, :, 0] * candidates[:, None, 2]
    to_y = candidates[:, None, 1] - mid[None, :, 1] * candidates[:, None, 2]
    sines = np.abs(d[None, :, 0] * to_y - d[None, :, 1] * to_x) / np.maximum(
        np.hypot(d[:, 0], d[:, 1])[None, :] * np.hypot(to_x, to_y), 1e-12
    )
    vp = candidates[int(((sines < limit) * length[None, :]).sum(axis=1).argmax())]
    for _ in range(2):  # least squares over the inliers: the vector most nearly on all their lines
        inliers = _pointing_error(ends, vp) < limit
        if inliers.sum() < 2:
            return None
        w = length[inliers]
        m = (lines[inliers] * w[:, None]).T @ lines[inliers]
        vp = np.linalg.eigh(m)[1][:, 0]
    return vp, _pointing_error(ends, vp) < limit


def _families(ends: NDArray[np.float64]) -> tuple[_Family, _Family] | None:
    import numpy as np

    rng = np.random.default_rng(0)  # the same picture always gives the same answer
    first = _vanishing_point(ends, rng)
    if first is None:
        return None
    vp1, in1 = first
    rest = ends[_pointing_error(ends, vp1) >= 2 * np.sin(np.radians(ANGLE))]
    second = _vanishing_point(rest, rng)
    if second is None:
        return None
    vp2, in2 = second
    length = np.hypot(ends[:, 2] - ends[:, 0], ends[:, 3] - ends[:, 1])
    rest_length = np.hypot(rest[:, 2] - rest[:, 0], rest[:, 3] - rest[:, 1])
    return _Family(vp1, ends[in1], length[in1]), _Family(vp2, rest[in2], rest_length[in2])


def _affine_frame(
    vp1: NDArray[np.float64], vp2: NDArray[np.float64], centre: Point
) -> NDArray[np.float64] | None:
    """The matrix from picture pixels to (a, b): a along the first family's lines, b along the
    second's, both evenly spaced on a printed grid; pixel-sized near ``centre``."""
    import numpy as np

    horizon = np.cross(vp1, vp2)
    at_centre = float(horizon @ np.array([centre[0], centre[1], 1.0]))
    if abs(at_centre) < 1e-12:
        return None
    horizon = horizon / at_centre  # 1 at the centre, so the frame is pixel-sized there
    cx, cy = centre
    to_centre = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], dtype=np.float64)
    shift = np.array([[1, 0, 0], [0, 1, 0], horizon], dtype=np.float64)
    affine = to_centre @ shift
    d1 = (shift @ vp1)[:2]
    d2 = (shift @ vp2)[:2]
    basis = np.column_stack([d1 / np.linalg.norm(d1), d2 / np.linalg.norm(d2)])
    if abs(np.linalg.det(basis)) < np.sin(np.radians(15)):
        return None  # the two families nearly parallel: no grid
    frame = np.eye(3)
    frame[:2, :2] = np.linalg.inv(basis)
    return np.asarray(frame @ affine)


def _to_frame(frame: NDArray[np.float64], points: NDArray[np.float64]) -> NDArray[np.float64]:
    import numpy as np

    p = np.hstack([points, np.ones((len(points), 1))]) @ frame.T
    return np.asarray(p[:, :2] / p[:, 2:3])


def _comb(
    positions: NDArray[np.float64], weight: NDArray[np.float64], count: int
) -> list[tuple[float, float]]:
    """Candidate (first line, pitch) for ``count`` evenly spaced lines among the positions, best
    first: per strong periodogram peak, the run of ``count`` teeth that all carry segments while
    the teeth just beyond carry few."""
    import numpy as np

    if len(positions) < MIN_LINES:
        return []
    lo, hi = np.percentile(positions, [1, 99])
    span = max(float(hi - lo), 1.0)
    top = span / max(count - 1, 1) * 1.3
    pitches = np.geomspace(
        6.0, max(top, 6.5), max(int(np.log(max(top, 6.5) / 6.0) / np.log1p(0.05 / count)), 2)
    )
    if len(pitches) == 0:
        return []
    phase = np.exp(2j * np.pi * positions[None, :] / pitches[:, None])
    power = np.abs(phase @ weight) / weight.sum()
    peaks = [i for i in range(1, len(power) - 1) if power[i] >= power[i - 1] and power[i] >= power[i + 1]]
    peaks.sort(key=lambda i: -power[i])
    out = []
    for i in peaks[:4]:
        pitch = float(pitches[i])
        origin = float(np.angle(phase[i] @ weight)) / (2 * np.pi) * pitch
        first_tooth = int(np.floor((lo - origin) / pitch)) - 1
        teeth = origin + pitch * np.arange(first_tooth, int(np.ceil((hi - origin) / pitch)) + 2)
        near = np.abs(positions[None, :] - teeth[:, None]) < TOOTH * pitch
        support = near.astype(np.float64) @ weight
        # each tooth's line where its segments are (the comb drifts a little with perspective)
        centres = np.where(
            support > 0, (near * positions[None, :]) @ weight / np.maximum(support, 1e-9), teeth
        )
        best, best_score = None, 0.0
        for s in range(1, len(teeth) - count):
            inside = support[s : s + count]
            typical = float(np.median(inside))
            carried = inside >= 0.2 * typical
            # the outer lines must carry segments; an inner one may be hidden under stones
            if typical <= 0 or not (carried[0] and carried[-1]) or carried.mean() < INNER_SEEN:
                continue
            # bare board beyond the outer lines (its edge may still give a few segments there)
            score = float(inside.sum()) - 2 * float(support[s - 1] + support[s + count])
            if score > best_score:
                best, best_score = s, score
        if best is not None:
            first, last = float(centres[best]), float(centres[best + count - 1])
            out.append((first, (last - first) / max(count - 1, 1)))
    return out


def _reading_order(points: list[Point], square: bool) -> list[Point]:
    """Grid corners given as (0,0), (C-1,0), (C-1,R-1), (0,R-1) put clockwise in the picture with
    the first nearest its top left (a turn by a half, or for a square board a quarter)."""
    import numpy as np

    p = np.array(points)
    (ax, ay), (bx, by) = p[1] - p[0], p[3] - p[0]
    if ax * by - ay * bx < 0:  # counter-clockwise in the picture (y down): mirror the columns
        p = p[[1, 0, 3, 2]]
    shifts = range(4) if square else (0, 2)
    start = min(shifts, key=lambda k: float(p[k].sum()))
    order = [(start + k) % 4 for k in range(4)]
    return [(float(x), float(y)) for x, y in p[order]]


def line_contrasts(
    image: NDArray[np.uint8], corners: list[Point], rows: int, cols: int
) -> tuple[list[float], list[float]]:
    """How clearly a straight printed line runs where each grid line should, from one before the
    grid to one after: (the lines down, columns -1 .. cols; the lines across, rows -1 .. rows).

    Per line the thin-dark response is averaged along its length at each offset across it; the
    line's contrast is that profile's peak within a tenth of a pitch minus its level further out.
    A printed line makes a sharp peak even with stones on part of it; carpet, wood grain or the
    board's edge make a flat profile (texture is everywhere, so it averages out)."""
    import numpy as np

    from vision.grid_refine import VIEW_PITCH, grey_of, upright_lines
    from vision.sampling import homography_from_corners

    margin = 1.6
    lines = upright_lines(grey_of(image), homography_from_corners(corners, rows, cols), rows, cols, margin)
    reach, peak = int(0.4 * VIEW_PITCH), max(int(0.1 * VIEW_PITCH), 1)

    def contrasts(n: int, along: int, axis: int) -> list[float]:
        lo, hi = round(margin * VIEW_PITCH), round((along - 1 + margin) * VIEW_PITCH) + 1
        out = []
        for k in range(-1, n + 1):
            at = round((k + margin) * VIEW_PITCH)
            band = (
                lines[lo:hi, at - reach : at + reach + 1]
                if axis == 1
                else lines[at - reach : at + reach + 1, lo:hi]
            )
            profile = band.mean(axis=1 - axis)
            offsets = np.abs(np.arange(-reach, reach + 1))
            out.append(float(profile[offsets <= peak].max() - np.median(profile[offsets > 2 * peak])))
        return out

    return contrasts(cols, rows, 1), contrasts(rows, cols, 0)


def check_grid(image: NDArray[np.uint8], corners: list[Point], rows: int, cols: int) -> None:
    """Raises :class:`GridNotFoundHere` unless ``corners`` sit on a printed grid of exactly
    ``rows`` x ``cols`` lines: the outermost lines printed (:data:`LINE_PRESENT`) and at least
    :data:`INNER_SEEN` of all (stones hide some), none one beyond either end
    (:data:`BEYOND_ABSENT`), and at least :data:`MIN_CLEAR` of the intersections showing both
    lines, and the lines midway between its lines no stronger than its own (:data:`MIDWAY_MAX`:
    a crowded board's gaps between stones form a grid half a pitch over). A grid one line off
    fails twice: bare board at one end, a printed line beyond the other."""
    import numpy as np

    from vision.grid_refine import clear_share, grey_of
    from vision.sampling import homography_from_corners, project

    for strengths, along in zip(line_contrasts(image, corners, rows, cols), ("columns", "rows"), strict=True):
        typical = float(np.median(strengths[1:-1]))
        printed = np.array(strengths[1:-1]) >= LINE_PRESENT * typical
        if typical <= 0 or not (printed[0] and printed[-1]):
            raise _refusal(f"its outermost {along} show no printed line")
        if printed.mean() < INNER_SEEN:
            raise _refusal(f"too few of its {along} show a printed line")
        if max(strengths[0], strengths[-1]) > BEYOND_ABSENT * typical:
            raise _refusal(
                f"a printed line lies beyond its outer {along}: the board has more lines than asked"
            )
    h = homography_from_corners(corners, rows, cols)
    for axis, along in ((0, "columns"), (1, "rows")):
        # half a pitch over: on a crowded board the gaps between stones are thin dark lines too
        grid = np.array([[0, 0], [cols - 1, 0], [cols - 1, rows - 1], [0, rows - 1]], dtype=np.float64)
        grid[:, axis] += 0.5
        midway = line_contrasts(image, [(float(x), float(y)) for x, y in project(h, grid)], rows, cols)[axis]
        own = line_contrasts(image, corners, rows, cols)[axis]
        if float(np.median(midway[1:-2])) > MIDWAY_MAX * float(np.median(own[1:-1])):
            raise _refusal(
                f"the lines midway between its {along} are stronger: gaps between stones, not lines"
            )
    seen = clear_share(grey_of(image), h, rows, cols)
    if seen < MIN_CLEAR:
        raise _refusal(f"only {seen:.0%} of its intersections show both lines")


def find_corners(image: NDArray[np.uint8], rows: int, cols: int) -> list[Point]:
    """The four outer grid points (TL, TR, BR, BL, pixels) of the board in ``image``.

    Raises :class:`GridNotFoundHere` (one line: cause, and "tap the four corner points") when no
    grid of ``rows`` x ``cols`` lines is found and checked; ``ValueError`` for a size or picture
    that cannot be a board's."""
    import cv2
    import numpy as np

    from vision.grid_refine import refine_corners

    if rows < MIN_LINES or cols < MIN_LINES:
        raise ValueError(
            f"find_corners: a grid of at least {MIN_LINES}x{MIN_LINES} lines needed, got {rows}x{cols}"
        )
    if image is None or getattr(image, "ndim", 0) not in (2, 3) or min(image.shape[:2]) < 32:
        raise ValueError("find_corners: expected a picture (height x width [x 3] pixels) of at least 32x32")
    if image.ndim == 3 and image.shape[2] == 1:  # a grey camera's frame kept three-dimensional
        image = image[:, :, 0]
    longest = max(image.shape[:2])
    scale = min(1.0, WORK_SIZE / longest) if longest >= MIN_WORK else MIN_WORK / longest
    small = (
        image
        if scale == 1.0
        else cv2.resize(
            image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        )
    )
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    ends = _segments(np.asarray(grey, dtype=np.uint8))
    families = _families(ends)
    if families is None:
        raise _refusal("no two sets of straight lines")
    height, width = grey.shape[:2]
    frame = _affine_frame(families[0].vp, families[1].vp, (width / 2, height / 2))
    if frame is None:
        raise _refusal("no two sets of straight lines across each other")
    positions = []
    for k, family in enumerate(families):
        mids = _to_frame(frame, (family.ends[:, :2] + family.ends[:, 2:]) / 2)
        positions.append(mids[:, 1 - k])  # family 0 lies along a: its lines are told apart by b
    inv = np.asarray(np.linalg.inv(frame), dtype=np.float64)
    # which family runs across (constant row): the one whose lines are nearer horizontal
    d0 = families[0].ends[:, 2:] - families[0].ends[:, :2]
    across_first = float(np.median(np.abs(d0[:, 1]) / np.maximum(np.abs(d0[:, 0]), 1e-9))) < 1.0
    counts = (rows, cols) if across_first else (cols, rows)
    tries = [counts]
    if rows != cols:
        tries.append((counts[1], counts[0]))  # a board turned a quarter in the picture
    last_error: GridNotFoundHere = _refusal(f"no run of {rows} by {cols} evenly spaced lines")
    for n0, n1 in tries:
        combs0 = _comb(positions[0], families[0].weight, n0)
        combs1 = _comb(positions[1], families[1].weight, n1)
        for b0, pitch_b in combs0[:2]:
            for a0, pitch_a in combs1[:2]:
                # grid point (i along family 1's comb, j along family 0's) in the frame: (a, b)
                frame_pts = np.array(
                    [
                        [a0, b0],
                        [a0 + pitch_a * (n1 - 1), b0],
                        [a0 + pitch_a * (n1 - 1), b0 + pitch_b * (n0 - 1)],
                        [a0, b0 + pitch_b * (n0 - 1)],
                    ]
                )
                picture = _to_frame(inv, frame_pts) / scale
                # frame_pts walk n1 lines of family 1 first: they are the columns when n1 == cols
                grid_rows, grid_cols = (n0, n1)
                if (grid_rows, grid_cols) != (rows, cols):
                    picture = picture[[0, 3, 2, 1]]  # walk the other way first: columns along family 0
                corners = _reading_order([(float(x), float(y)) for x, y in picture], rows == cols)
                try:
                    corners = refine_corners(image, corners, rows, cols, passes=REFINE_PASSES)
                    check_grid(image, corners, rows, cols)
                except GridNotFoundHere as exc:
                    last_error = exc
                    continue
                except GridNotFound as exc:
                    last_error = _refusal(str(exc).split(":")[0])
                    continue
                return _reading_order(corners, rows == cols)
    raise last_error
