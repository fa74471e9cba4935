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
    import numpy as np
    from numpy.typing import NDArray

MIN_MARKERS = 2


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
    None when one of the profile's stickers is not seen in the frame (a profile without stickers,
    such as one made for ``--grid``, takes every sticker seen, at least two).
    """
    import math

    import numpy as np

    from vision.sampling import homography_from_corners, project

    ids = sorted({m.id for m in profile.markers}) or sorted(found)  # a profile without stickers: any
    if len(ids) < MIN_MARKERS or any(i not in found for i in ids):
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
    w, h = pitch * (cols - 1), pitch * (rows - 1)
    holes = ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
    return replace(profile, holes=holes, markers=tuple(markers))
