"""The camera calibration as steps, without any UI: the app's screen only shows and forwards.

1. CORNERS (optional): touch the four corner holes on the camera picture (top left, top right,
   bottom right, bottom left as the players see the board); the stickers are then measured in
   the board's plane, so the profile holds holes and stickers in board millimetres and stays
   right when the board or camera moves, wherever the stickers were stuck.
2. EMPTY: with every peg off the board, learn how empty holes look under this light.
3. COLOURS: for each player's colour, one peg placed anywhere; the hole that stops looking empty
   is found automatically. A colour may be skipped.
4. DONE: the profile is saved (atomically) where ``[board.camera]`` reads it.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from vision.profile import BoardProfile, ProfileError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

DEFAULT_COLOURS: tuple[tuple[str, str], ...] = (("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow"))


class Step(enum.Enum):
    CORNERS = "corners"
    EMPTY = "empty"
    COLOUR = "colour"
    DONE = "done"


@dataclass
class Outcome:
    """What the last action did: ok or not, and a message key for the screen."""

    ok: bool
    message: str
    holes: tuple[int, ...] = ()


class CalibrationSession:
    def __init__(self, profile: BoardProfile, colours: Sequence[tuple[str, str]] = DEFAULT_COLOURS) -> None:
        from vision.markers import MarkerFinder

        self.profile = profile
        self.colours = list(colours)
        self.step = Step.CORNERS
        self.colour_index = 0
        self.corners: list[tuple[float, float]] = []  # the corner holes touched so far, pixels
        self.learnt: list[str] = []
        self._finder = MarkerFinder(profile.dictionary)

    @property
    def current_colour(self) -> tuple[str, str] | None:
        if self.step is Step.COLOUR and self.colour_index < len(self.colours):
            return self.colours[self.colour_index]
        return None

    def image_from_board(self, frame: NDArray[np.uint8]) -> NDArray[np.float64] | None:
        from vision.markers import image_from_board

        return image_from_board(self._finder.find(frame), self.profile)

    # -- step 1 ------------------------------------------------------------------------------
    def touch_corner(self, frame: NDArray[np.uint8], x: float, y: float) -> Outcome:
        """A touch at pixel (x, y) of ``frame`` names the next corner hole.

        After the fourth, the stickers are measured in the board plane those four holes span
        (:func:`vision.markers.measure_stickers`), so they may sit anywhere; all four must be
        in view for that.
        """
        from vision.markers import image_from_board, measure_stickers

        found = self._finder.find(frame)
        if image_from_board(found, self.profile) is None:
            return Outcome(False, "stickers-not-found")
        self.corners.append((float(x), float(y)))
        if len(self.corners) < 4:
            return Outcome(True, "corner-noted")
        measured = measure_stickers(self.profile, found, self.corners)
        self.corners = []
        if measured is None:
            return Outcome(False, "stickers-not-found")
        self.profile = measured
        self.step = Step.EMPTY
        return Outcome(True, "corners-set")

    def keep_corners(self) -> None:
        """Skip step 1: the profile's hole geometry stays."""
        self.corners = []
        self.step = Step.EMPTY

    # -- steps 2 and 3 -------------------------------------------------------------------------
    def _read(self, frame: NDArray[np.uint8]):  # type: ignore[no-untyped-def]
        from vision.reader import read_image

        return read_image(frame, self.profile)

    def learn_empty(self, frame: NDArray[np.uint8]) -> Outcome:
        from vision.calibration import learn_empty

        try:
            shot = self._read(frame)
        except ProfileError:
            return Outcome(False, "stickers-not-found")
        self.profile = learn_empty(self.profile, [shot.features])
        self.step = Step.COLOUR if self.colours else Step.DONE
        self.colour_index = 0
        return Outcome(True, "empty-learnt")

    def learn_colour(self, frame: NDArray[np.uint8]) -> Outcome:
        from vision.calibration import learn_colour

        colour = self.current_colour
        if colour is None:
            return Outcome(False, "no-colour-step")
        try:
            shot = self._read(frame)
            self.profile, holes = learn_colour(self.profile, colour[0], colour[1], [shot.features])
        except ProfileError as exc:
            return Outcome(False, "stickers-not-found" if "stickers" in str(exc) else "no-peg-seen")
        self.learnt.append(colour[1])
        self._next_colour()
        return Outcome(True, "colour-learnt", tuple(holes))

    def skip_colour(self) -> None:
        if self.current_colour is not None:
            self._next_colour()

    def _next_colour(self) -> None:
        self.colour_index += 1
        if self.colour_index >= len(self.colours):
            self.step = Step.DONE

    def save(self, path: str | Path) -> Outcome:
        if not self.profile.calibrated:
            return Outcome(False, "not-calibrated")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.profile.save(path)
        return Outcome(True, "saved")
