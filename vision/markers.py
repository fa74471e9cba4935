"""Find the board through its four ArUco stickers (``DICT_4X4_100``, ids 0..3 = TL, TR, BR, BL).

Every corner of every sticker found is one point correspondence between the camera image and the
board plane (millimetres, see :mod:`vision.profile`), and one homography is fitted to all of them
(RANSAC). Two stickers already give eight points, so a sticker covered by a hand, a cup or glare
costs nothing as long as two are seen; the holes follow the stickers when the board is nudged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vision.profile import BoardProfile

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
