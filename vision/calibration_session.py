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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vision.calibration import target_holes
from vision.profile import BoardProfile, ProfileError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

MEASURE_PITCH = 48  # px per hole of the sharper view the peg size is measured in
DEFAULT_RADIUS = 0.28  # sampling disc (pitches) when no peg size could be measured; also the largest
MIN_RADIUS = 0.06
FEATURES = 18  # the guided calibration's features: quartiles of the head's disc and the hole's
LOOKS_LIKE = 2.0  # spreads (root mean square): a peg this close to a learnt colour is that colour
RADIUS_SHARE = 0.75  # the sampling disc's radius as a share of the measured peg's: inside the head

DEFAULT_COLOURS: tuple[tuple[str, str], ...] = (("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow"))


# The sentence for each outcome, in English (the app translates them: English is the key of its
# catalogs). Every refusal says what is wrong and what to change; {placeholders} come from
# ``Outcome.values`` (colours by name, rows and columns counted from 1 at the top left).
MESSAGES: dict[str, str] = {
    "stickers-not-found": (
        "The camera does not see enough of the board's stickers (at least two). Make sure they are"
        " in the picture, uncovered and without glare."
    ),
    "corners-need-stickers": (
        "The camera sees fewer than three of the board's stickers. Turn the camera so that at least"
        " three are in the picture, then touch the corners again."
    ),
    "corner-noted": "Corner noted.",
    "corners-set": "The four corner holes are set.",
    "empty-learnt": "Empty holes learnt.",
    "colour-learnt": "Colour {colour} learnt. Leave the peg where it is.",
    "colour-learnt-hard": (
        "Colour {colour} learnt, but it looks close to the board under this light: the reader will be"
        " unsure of it more often. Brighter, even light from above helps."
    ),
    "no-peg-in-hole": (
        "No peg seen in row {row}, column {column}. Put the {colour} peg exactly in that hole (ringed"
        " on the picture). If it is there, {colour} looks too much like the board: add light from"
        " above or move the camera closer."
    ),
    "looks-like-other": (
        "The peg in row {row}, column {column} looks {other}, not {colour}. Put a {colour} peg there,"
        " or skip {colour}."
    ),
    "misreads-own": (
        "With {colour} learnt, row {row}, column {column} would read {seen} instead of {truth}: under"
        " this light the two look too alike. Use even light without glare or sun on the board and"
        " try again, or skip {colour}."
    ),
    "earlier-peg-lost": (
        "With the {colour} peg the pegs measure differently, and the {earlier} peg in row {row},"
        " column {column} is no longer seen clearly. Use even light without glare on the board, check"
        " that no peg has moved, and start again."
    ),
    "no-peg-seen": "No new peg was seen. Put one peg in any hole and try again.",
    "not-calibrated": "Learn the empty board and at least one colour first.",
    "saved": "Saved. The camera board is ready.",
    "no-camera": "No camera picture: check the camera and [board.camera] in the config.",
}


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
    values: dict[str, Any] = field(default_factory=dict)  # for the message's {placeholders}


class CalibrationSession:
    def __init__(self, profile: BoardProfile, colours: Sequence[tuple[str, str]] = DEFAULT_COLOURS) -> None:
        from vision.markers import MarkerFinder

        self.profile = profile
        self.colours = list(colours)
        self.step = Step.CORNERS
        self.colour_index = 0
        self.corners: list[tuple[float, float]] = []  # the corner holes touched so far, pixels
        self.learnt: list[str] = []
        self.targets = target_holes(profile.rows, profile.cols, len(self.colours))
        self.empty_frame: NDArray[np.uint8] | None = None
        self.steps: list[tuple[str, str, int, NDArray[np.uint8]]] = []  # letter, name, hole, picture
        self.peg_radius: float | None = None  # measured, in pitches
        self.hard: list[str] = []  # colours close to the board's: read less surely
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
            return Outcome(False, "corners-need-stickers")
        self.profile = measured
        self.step = Step.EMPTY
        return Outcome(True, "corners-set")

    def keep_corners(self) -> None:
        """Skip step 1: the profile's hole geometry stays."""
        self.corners = []
        self.step = Step.EMPTY

    # -- steps 2 and 3 -------------------------------------------------------------------------
    def _read(self, frame: NDArray[np.uint8], profile: BoardProfile | None = None):  # type: ignore[no-untyped-def]
        from vision.reader import read_image

        return read_image(frame, profile or self.profile)

    @property
    def target_hole(self) -> int | None:
        """The hole the current colour step asks for (guided: the peg goes exactly there)."""
        if self.current_colour is None:
            return None
        return self.targets[self.colour_index]

    def hole_words(self, hole: int) -> dict[str, int]:
        """Row and column counted from 1 at the top left, as the players see the board."""
        return {"row": hole // self.profile.cols + 1, "column": hole % self.profile.cols + 1}

    def learn_empty(self, frame: NDArray[np.uint8]) -> Outcome:
        try:
            self._read(frame)
        except ProfileError:
            return Outcome(False, "stickers-not-found")
        self.empty_frame = frame
        self.steps = []
        self.learnt = []
        outcome = self._rebuild()
        if not outcome.ok:
            self.empty_frame = None
            return outcome
        self.step = Step.COLOUR if self.colours else Step.DONE
        self.colour_index = 0
        return Outcome(True, "empty-learnt")

    def learn_colour(self, frame: NDArray[np.uint8]) -> Outcome:
        """The current colour from ``frame``, looking only at :attr:`target_hole`.

        Pegs of earlier steps may stay where they were put: no hole but the one asked for is
        ever an example, so an earlier peg that now reads unsure cannot be learnt as this colour
        (it was: "yellow" learnt from a blue peg). Everything learnt so far is then rebuilt from
        the stored pictures and checked on them; a calibration that misreads its own pictures is
        refused with a sentence saying what to change.
        """
        colour, hole = self.current_colour, self.target_hole
        if colour is None or hole is None:
            return Outcome(False, "no-colour-step")
        if self.empty_frame is None:
            return Outcome(False, "not-calibrated")
        try:
            self._read(frame)
        except ProfileError:
            return Outcome(False, "stickers-not-found")
        self.steps.append((colour[0], colour[1], hole, frame))
        outcome = self._rebuild()
        if not outcome.ok and outcome.message == "no-peg-in-hole" and outcome.holes != (hole,):
            # an earlier step no longer passes with the pegs measured anew: say so, naming the
            # earlier peg, not as if that step were being asked for again. (Keeping the earlier
            # measurement instead was tried: on an unseen board it then read 2.7 % of its holes
            # wrong, its pegs missed.)
            outcome = Outcome(
                False,
                "earlier-peg-lost",
                outcome.holes,
                {**outcome.values, "colour": colour[1], "earlier": outcome.values.get("colour", "")},
            )
        if not outcome.ok:
            self.steps.pop()
            self._rebuild()
            return outcome
        self.learnt.append(colour[1])
        self._next_colour()
        return outcome

    def _rebuild(self) -> Outcome:
        """Learn everything from the stored pictures: peg size, empty holes, each colour."""
        import numpy as np

        from vision.calibration import (
            fit_head_shift,
            measure_peg,
        )
        from vision.sampling import Sampler

        assert self.empty_frame is not None
        base = replace(self.profile, empty=None, colours=())
        # 1. the pegs' size and where their heads are seen, in a sharper upright view than the
        # reader's (MEASURE_PITCH px per hole)
        zoom = Sampler(base.rows, base.cols, pitch=MEASURE_PITCH)
        empty_h = self._read(self.empty_frame, base).image_from_grid
        empty_view = zoom.warp(self.empty_frame, empty_h)
        radii, where_holes, shifts = [], [], []
        for _letter, _name, hole, frame in self.steps:
            view = zoom.warp(frame, self._read(frame, base).image_from_grid)
            measured = measure_peg(view, empty_view, zoom.centre(hole), MEASURE_PITCH)
            if measured is not None:
                radii.append(measured[2])
                where_holes.append((float(hole % base.cols), float(hole // base.cols)))
                shifts.append((measured[0], measured[1]))
        self.peg_radius = float(np.median(radii)) if radii else None
        radius = DEFAULT_RADIUS if self.peg_radius is None else self.peg_radius * RADIUS_SHARE
        base = replace(
            base,
            sample_radius=float(min(DEFAULT_RADIUS, max(MIN_RADIUS, radius))),
            head_shift=fit_head_shift(where_holes, shifts),
            features=FEATURES,
            peg_size=0.0 if self.peg_radius is None else round(2 * self.peg_radius, 3),
        )
        return self._learn(base)

    def _learn(self, base: BoardProfile) -> Outcome:
        """Steps 2-4 of :meth:`_rebuild` with the peg's size and position in ``base``."""
        import numpy as np

        from vision.calibration import HARD_SEPARATION, PEG_ABOVE_EMPTY, PEG_SEEN, learn_empty, peg_distance
        from vision.classify import Classifier, learn_model
        from vision.profile import EMPTY, UNSURE

        assert self.empty_frame is not None
        # 2. empty holes, 3. each colour from exactly its hole
        empty_features = self._read(self.empty_frame, base).features
        profile = replace(
            learn_empty(base, [empty_features]),
            empty_holes=tuple(tuple(float(v) for v in row) for row in empty_features),
        )
        assert profile.empty is not None
        colours = []
        shots = []
        hard: list[str] = []
        for i, (letter, name, hole, frame) in enumerate(self.steps):
            features = self._read(frame, profile).features
            shots.append(features)
            far = peg_distance(features, profile.empty, empty_features)
            placed = {h for _l, _n, h, _f in self.steps[: i + 1]}
            others = [h for h in range(profile.hole_count) if h not in placed]
            noise = float(np.quantile(far[others], 0.99)) if others else 0.0
            where = {**self.hole_words(hole), "colour": name}
            if far[hole] < max(PEG_SEEN, PEG_ABOVE_EMPTY * noise):
                return Outcome(False, "no-peg-in-hole", (hole,), where)
            if colours:
                known = Classifier(profile.empty, colours, empty_holes=profile.empty_holes)
                near = known.distances(features[hole : hole + 1])[0]
                best = int(near.argmin())
                if best > 0 and near[best] < LOOKS_LIKE:
                    other = colours[best - 1].name
                    return Outcome(False, "looks-like-other", (hole,), {**where, "other": other})
            model = learn_model(letter, name, features[hole : hole + 1])
            # one example has no spread of its own: the floor, widened by how much the board
            # around the holes varies (the empty holes' upper quartile: wood, not cavity)
            board_spread = np.asarray(profile.empty.spread)[6:9]
            spread = np.hypot(np.asarray(model.spread), np.tile(board_spread, len(model.spread) // 3))
            colours.append(replace(model, spread=tuple(float(v) for v in spread)))
            if far[hole] < HARD_SEPARATION * max(1.0, noise / PEG_SEEN):
                hard.append(name)
        profile = profile.with_models(profile.empty, colours)
        # 4. the calibration must read its own pictures: nothing confidently wrong
        if colours:
            expected = [EMPTY] * profile.hole_count
            frames = [self.empty_frame, *(f for _l, _n, _h, f in self.steps)]
            truths = [list(expected)]
            for letter, _n, hole, _f in self.steps:
                expected[hole] = letter
                truths.append(list(expected))
            for frame, truth in zip(frames, truths, strict=True):
                result = self._read(frame, profile)
                for hole_index, (seen, want) in enumerate(zip(result.letters, truth, strict=True)):
                    if seen not in (UNSURE, want):
                        names = {EMPTY: "empty", **profile.letters()}
                        values = {
                            **self.hole_words(hole_index),
                            "seen": names.get(seen, seen),
                            "truth": names.get(want, want),
                            "colour": self.steps[-1][1],
                        }
                        return Outcome(False, "misreads-own", (hole_index,), values)
        self.profile = profile
        self.hard = hard
        if self.steps:
            letter, name, hole, _f = self.steps[-1]
            values = {**self.hole_words(hole), "colour": name}
            key = "colour-learnt-hard" if name in hard else "colour-learnt"
            return Outcome(True, key, (hole,), values)
        return Outcome(True, "empty-learnt")

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
