"""Draw what the reader sees onto a frame: for ``vision watch`` and the calibration screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from vision.profile import EMPTY, UNSURE, BoardProfile

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from vision.reader import FrameResult

NAMED_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 220),
    "blue": (220, 90, 30),
    "green": (60, 190, 40),
    "yellow": (30, 220, 240),
    "white": (245, 245, 245),
    "black": (20, 20, 20),
    "orange": (20, 140, 250),
    "purple": (160, 50, 140),
}


STATUS_TEXTS = {"still": "still", "moving": "moving: waiting", "not found": "board not found"}
_ASCII = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})


def ascii_text(text: str) -> str:
    """``text`` as OpenCV's fonts can draw it (ASCII only: they draw "?" for an umlaut)."""
    return text.translate(_ASCII).encode("ascii", "replace").decode("ascii")


def annotate(
    frame: NDArray[np.uint8],
    result: FrameResult,
    profile: BoardProfile,
    *,
    texts: Mapping[str, str] | None = None,
    show_status: bool = True,
) -> NDArray[np.uint8]:
    """A copy of ``frame`` with every hole marked: ring = empty, dot = peg, orange ? = unsure.

    ``texts`` translates the status line (keys of :data:`STATUS_TEXTS`; vision may not import
    the app's translations, so the caller passes them). ``show_status=False`` leaves the line
    out where it means nothing (a single picture is neither still nor moving).
    """
    import cv2
    import numpy as np

    from vision.sampling import hole_grid_points, project

    words = {**STATUS_TEXTS, **(texts or {})}
    out = frame.copy()
    if result.image_from_grid is None:
        if show_status:
            cv2.putText(
                out, ascii_text(words["not found"]), (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2
            )
        return out
    points = project(result.image_from_grid, hole_grid_points(profile.rows, profile.cols))
    pitch = float(np.linalg.norm(points[1] - points[0])) if len(points) > 1 else 10.0
    radius = max(3, int(pitch * 0.3))
    names = profile.letters()
    for (x, y), letter in zip(points, result.letters, strict=True):
        centre = (round(float(x)), round(float(y)))
        if letter == EMPTY:
            cv2.circle(out, centre, radius, (80, 200, 80), 1, cv2.LINE_AA)
        elif letter == UNSURE:
            cv2.putText(
                out,
                "?",
                (centre[0] - radius // 2, centre[1] + radius // 2),
                cv2.FONT_HERSHEY_SIMPLEX,
                max(0.4, radius / 12),
                (0, 140, 255),
                2,
                cv2.LINE_AA,
            )
        else:
            colour = NAMED_BGR.get(names.get(letter, ""), (255, 0, 255))
            cv2.circle(out, centre, radius, colour, -1, cv2.LINE_AA)
            cv2.circle(out, centre, radius, (0, 0, 0), 1, cv2.LINE_AA)
    if not show_status:
        return out
    status = ascii_text(words["moving"] if result.moving else words["still"])
    cv2.putText(
        out,
        status,
        (20, 40),
        cv2.FONT_HERSHEY_SIMPLEX,
        1.0,
        (0, 140, 255) if result.moving else (80, 200, 80),
        2,
        cv2.LINE_AA,
    )
    return out
