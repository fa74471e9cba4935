"""Find the board through its four ArUco stickers (``DICT_4X4_100``, ids 0..3 = TL, TR, BR, BL).

Every corner of every sticker found is one point correspondence between the camera image and the
board plane (millimetres, see :mod:`vision.profile`), and one homography is fitted to all of them
(RANSAC). Two stickers already give eight points, so a sticker covered by a hand, a cup or glare
costs nothing as long as two are seen; the holes follow the stickers when the board is nudged.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from vision.profile import BoardProfile, Marker

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    from numpy.typing import NDArray

MIN_MARKERS = 2
MEASURE_MARKERS = 3  # stickers that must be in view when the corner holes are touched


class MarkerFinder:
    """An ArUco detector for one dictionary, created once (creating one is not free)."""

    def __init__(self, dictionary: str = "DICT_4X4_100") -> None:
        import cv2

        code = getattr(cv2.aruco, dictionary, None)
        if code is None:
            raise ValueError(f"unknown ArUco dictionary {dictionary!r}")
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(code), params)

    def find(self, image: NDArray[np.uint8]) -> dict[int, NDArray[np.float64]]:
        """Marker id -> its four corners (TL, TR, BR, BL in the sticker's own orientation), pixels."""
        import cv2
        import numpy as np

        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        corners, ids, _ = self._detector.detectMarkers(gray)
        found: dict[int, NDArray[np.float64]] = {}
        if ids is None:
            return found
        for marker_id, quad in zip(ids.ravel().tolist(), corners, strict=True):
            found[int(marker_id)] = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        return found


def board_from_grid(profile: BoardProfile) -> NDArray[np.float64]:
    """Homography from grid coordinates (col, row) to the board plane, via the four corner holes."""
    from vision.sampling import homography_from_corners

    return homography_from_corners(list(profile.holes), profile.rows, profile.cols)


def image_from_board(
    found: dict[int, NDArray[np.float64]], profile: BoardProfile
) -> NDArray[np.float64] | None:
    """Fit the board plane to the stickers seen; None when fewer than :data:`MIN_MARKERS`."""
    import cv2
    import numpy as np

    src: list[tuple[float, float]] = []
    dst: list[NDArray[np.float64]] = []
    for marker in profile.markers:
        if marker.id in found:
            src.extend(marker.corners())
            dst.extend(found[marker.id])
    if len(src) < 4 * MIN_MARKERS:
        return None
    h, _ = cv2.findHomography(np.array(src, np.float64), np.array(dst, np.float64), cv2.RANSAC, 4.0)
    return None if h is None else np.asarray(h, dtype=np.float64)


def image_from_grid(
    found: dict[int, NDArray[np.float64]], profile: BoardProfile
) -> NDArray[np.float64] | None:
    h = image_from_board(found, profile)
    return None if h is None else h @ board_from_grid(profile)


def measure_stickers(
    profile: BoardProfile,
    found: dict[int, NDArray[np.float64]],
    corner_holes: list[tuple[float, float]],
    pitch: float = 25.0,
) -> BoardProfile | None:
    """The profile with the stickers where they are, measured from the four corner holes touched.

    ``corner_holes``: the TL, TR, BR, BL corner holes in pixels of the frame in which ``found``
    were detected. Those four points fix the board plane, so every sticker's corners can be
    measured in it (millimetres at ``pitch`` between holes: any unit works, only the relation
    of holes to stickers matters). So the stickers may be anywhere, of any printed size and
    turned a little: the default layout is only a suggestion. Without this, stickers placed
    elsewhere than the profile says gave a homography that fitted differently in each view
    (RANSAC over inconsistent points) and pegs were read in the wrong holes.
    Three of the profile's stickers in view are enough (two for a profile with only two): a
    sticker cut off by the frame's edge is kept where the profile had it when the ones seen are
    where the profile says, and left out otherwise. None with fewer in view (a profile without
    stickers, such as one made for ``--grid``, takes every sticker seen, at least two).
    """
    import math

    import numpy as np

    from vision.sampling import homography_from_corners, project

    wanted = sorted({m.id for m in profile.markers}) or sorted(found)  # a profile without stickers: any
    ids = [i for i in wanted if i in found]
    if len(ids) < min(len(wanted), MEASURE_MARKERS) or len(ids) < MIN_MARKERS:
        return None
    rows, cols = profile.rows, profile.cols
    grid_from_image = np.linalg.inv(homography_from_corners(corner_holes, rows, cols))
    markers = []
    for marker_id in ids:
        pts = project(grid_from_image, np.asarray(found[marker_id], np.float64)) * pitch
        sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
        top = pts[1] - pts[0]
        centre = pts.mean(axis=0)
        angle = math.degrees(math.atan2(float(top[1]), float(top[0])))
        markers.append(Marker(marker_id, (float(centre[0]), float(centre[1])), float(sides.mean()), angle))
    # a sticker out of view (cut off by the frame's edge) keeps its place in the profile when the
    # ones seen are where the profile says (the sheet's layout): it is then most likely there too
    old = {m.id: m for m in profile.markers}
    if all(m.id in old for m in markers) and len(markers) < len(old):
        holes_now = np.array([[0, 0], [cols - 1, 0], [cols - 1, rows - 1], [0, rows - 1]], np.float64) * pitch
        scale = np.linalg.norm(holes_now[2] - holes_now[0]) / max(
            1e-9, float(np.linalg.norm(np.subtract(profile.holes[2], profile.holes[0])))
        )
        to_new = homography_from_corners([tuple(p) for p in holes_now], 2, 2) @ np.linalg.inv(
            homography_from_corners(list(profile.holes), 2, 2)
        )
        agree = all(
            float(np.hypot(*(project(to_new, np.array([old[m.id].centre]))[0] - m.centre))) < 4.0 * scale
            for m in markers
        )
        if agree:
            for marker_id, marker in old.items():
                if marker_id not in ids:
                    c = project(to_new, np.array([marker.centre]))[0]
                    markers.append(
                        Marker(marker_id, (float(c[0]), float(c[1])), marker.size * scale, marker.angle)
                    )
    w, h = pitch * (cols - 1), pitch * (rows - 1)
    holes = ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
    return replace(profile, holes=holes, markers=tuple(markers))


def paper_samples(
    frame: NDArray[np.uint8], found: dict[int, NDArray[np.float64]]
) -> list[NDArray[np.float64]]:
    """3x3 medians of the white paper just outside each sticker's corners and edges (``found``:
    the stickers' corners in the picture, as :meth:`MarkerFinder.find` gives them)."""
    import numpy as np

    samples = []
    for quad in found.values():
        centre = quad.mean(axis=0)
        edges = (quad + np.roll(quad, -1, axis=0)) / 2
        for point, reach in [*((q, 1.12) for q in quad), *((e, 1.1) for e in edges)]:
            x, y = np.rint(centre + reach * (point - centre)).astype(int)
            if 1 <= x < frame.shape[1] - 1 and 1 <= y < frame.shape[0] - 1:
                samples.append(np.median(frame[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3), axis=0))
    return samples


def paper_by_sticker(
    frame: NDArray[np.uint8], found: dict[int, NDArray[np.float64]]
) -> dict[int, list[NDArray[np.float64]]]:
    """Each sticker's :func:`paper_samples`, by sticker (stickers without any left out)."""
    by_sticker = {}
    for marker, quad in found.items():
        samples = paper_samples(frame, {marker: quad})
        if samples:
            by_sticker[marker] = samples
    return by_sticker


def median_colour(samples: Sequence[NDArray[np.float64]]) -> tuple[float, float, float] | None:
    """The median BGR of paper samples, or None without any."""
    import numpy as np

    if not samples:
        return None
    b, g, r = np.median(np.asarray(samples, dtype=np.float64), axis=0)
    return (float(b), float(g), float(r))


def paper_colour(
    frame: NDArray[np.uint8], found: dict[int, NDArray[np.float64]]
) -> tuple[float, float, float] | None:
    """The stickers' white paper as seen (BGR, the median of :func:`paper_samples`): the
    lamp's colour, which a reflection of it on the varnish has as well."""
    return median_colour(paper_samples(frame, found))
