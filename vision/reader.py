"""The per-frame path: locate the board, warp, sample, classify, and hold back until still.

:class:`BoardReader` is used by the camera source (live frames), by ``table99 vision read`` (one
image, :func:`read_image`) and by the benchmarks, so all of them measure the same code.

Locating: the stickers are looked for on the first frame, on the first still frame after
movement (the board may have been nudged) and every ``relocate_every`` frames; in between the
last homography is reused, which keeps the per-frame cost to one small warp. When the stickers
cannot be found (covered by an arm) the last position is kept. With fixed ``corners`` (``--grid``)
there is nothing to locate.

Movement: the samples of every hole and gap, and a coarse thumbnail of the warped board, are
compared with the previous frame; any change above a threshold means something moves.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vision import point_net
from vision.classify import (
    GLARE_CLIPPED,
    Classified,
    Classifier,
    GapWatch,
    beyond_picture_empty,
    brighter_than_own_gaps,
    dimmed_channels,
    glare_features,
    glint_free,
    hole_features,
    lamp_colour,
    light_explained,
    noise_spread,
    paper_over_board,
    short_of_colour,
)
from vision.markers import MarkerFinder, image_from_grid, median_colour, paper_by_sticker
from vision.point_net import PointNet, PointNetError, default_net, net_reading, point_patches
from vision.profile import EMPTY, UNSURE, BoardProfile, ProfileError
from vision.sampling import Sampler, Samples, homography_from_corners
from vision.stability import Stabiliser

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_log = logging.getLogger(__name__)
Found = dict[int, "NDArray[np.float64]"]  # stickers found: their corners in the picture, by id

MOTION_LOG_THRESHOLD = 0.12  # per sample, log units (about 12%)
MOTION_LOG_OFFSET = 20.0  # grey levels added before the log: sensor noise in a dark channel is not movement
MOTION_THUMB_THRESHOLD = 18.0  # grey levels in an 8x8-pixel block of the warped board


@dataclass
class FrameResult:
    """What one frame showed. ``released`` is set only on the frame a stable reading is released."""

    letters: list[str]
    confidence: NDArray[np.float64] | None
    moving: bool
    located: bool
    image_from_grid: NDArray[np.float64] | None
    released: tuple[str, ...] | None = None
    samples: Samples | None = None
    features: NDArray[np.float64] | None = None
    stages: dict[str, float] = field(default_factory=dict)
    net_logits: NDArray[np.float32] | None = None  # the point net's (points, 3), when it read
    net_hidden: NDArray[np.float32] | None = None  # its last hidden layer (a model that has it)

    @property
    def unsure(self) -> list[int]:
        return [i for i, letter in enumerate(self.letters) if letter == UNSURE]


def grid_letters(letters: Sequence[str], cols: int) -> list[list[str]]:
    return [list(letters[i : i + cols]) for i in range(0, len(letters), cols)]


class BoardReader:
    def __init__(
        self,
        profile: BoardProfile,
        *,
        corners: Sequence[tuple[float, float]] | None = None,
        still_frames: int = 4,
        relocate_every: int = 90,
        watch_hands: bool = True,
        timing: bool = False,
        net: bool | None = None,
    ) -> None:
        self.profile = profile
        self.sampler = sampler_for(profile)
        # the point net reads grids of median profiles whose calibration fitted it (net_bias),
        # or when asked (``net=True``: a calibration wants its outputs); a model that cannot be
        # loaded leaves the rule path, said once in ``net_problem`` (the app always starts)
        self.net: PointNet | None = None
        self.net_problem = ""
        self.last_logits: NDArray[np.float32] | None = None
        self.last_hidden: NDArray[np.float32] | None = None
        self.net_seconds = 0.0  # the last frame's patches and forward (benchmarks/vision_speed.py)
        wanted = profile.net_bias is not None if net is None else net
        if wanted and profile.features == 3:
            try:
                self.net = default_net()
            except PointNetError as exc:
                self.net_problem = f"{exc}; reading by the rules instead"
                _log.warning("%s", self.net_problem)
        self.classifier = (
            Classifier(profile.empty, profile.colours, empty_holes=profile.empty_holes)
            if profile.empty is not None and profile.colours
            else None
        )
        # a board without stickers: corners given, or those its profile keeps for a fixed camera
        corners = corners or profile.picture_corners
        self.fixed = homography_from_corners(list(corners), profile.rows, profile.cols) if corners else None
        if self.fixed is None and len(profile.markers) < 2:
            raise ProfileError(
                "markers", "the profile names fewer than two stickers and no grid corners were given"
            )
        self.finder = MarkerFinder(profile.dictionary) if self.fixed is None else None
        self.paper_lamp: tuple[float, float, float] | None = None  # lamp_colour on the stickers' paper
        # white paper's brightness over the board's (classify.paper_over_board): a glint is brighter
        self.paper_ratio: NDArray[np.float64] | None = None
        self._papers: tuple[dict[int, tuple[float, float, float]], Found] | None = None  # to measure it
        self.stabiliser = Stabiliser(still_frames)
        self.relocate_every = relocate_every
        self.watch_hands = watch_hands
        self.timing = timing
        self.gap_watch = GapWatch(profile.rows, profile.cols)
        self.homography: NDArray[np.float64] | None = self.fixed
        self._since_located = 0
        self._lost = False
        self.frames_unlocated = 0  # frames since the stickers were last found, while they are not
        self._was_moving = True
        self._previous: tuple[NDArray[np.float64], NDArray[np.float32]] | None = None

    # -- stages ----------------------------------------------------------------------------
    def locate(self, frame: NDArray[np.uint8]) -> bool:
        """Look for the stickers; keeps the last position when they are not found."""
        if self.fixed is not None or self.finder is None:
            return True
        found = self.finder.find(frame)
        h = image_from_grid(found, self.profile)
        # the lamp's colour on the stickers' paper in this frame: a reflection of it has it too
        # (every sticker's samples, in the order paper_colour takes them: sampled once)
        by_sticker = paper_by_sticker(frame, found)
        paper = median_colour([sample for samples in by_sticker.values() for sample in samples])
        if paper is not None:
            self.paper_lamp = lamp_colour(paper)
        self._since_located = 0
        self._papers = None
        if h is None:
            self._lost = True
            return False
        # each of the board's stickers' paper, for the paper's brightness over the board once
        # this frame is sampled with this homography (the same frame: the camera's exposure cancels)
        ours = {m.id for m in self.profile.markers}
        stickers = {marker: quad for marker, quad in found.items() if marker in ours}
        papers = {m: c for m, s in by_sticker.items() if m in ours and (c := median_colour(s)) is not None}
        self._papers = (papers, stickers)
        self.homography = h
        self._lost = False
        self.frames_unlocated = 0
        return True

    def _moved(self, samples: Samples) -> bool:
        import cv2
        import numpy as np

        middle = samples.holes[:, 3:6] if samples.holes.shape[1] >= 9 else samples.holes
        logs = np.log(np.concatenate([middle, samples.gaps]).astype(np.float64) + MOTION_LOG_OFFSET)
        gray = cv2.cvtColor(samples.warped, cv2.COLOR_BGR2GRAY)
        thumb = cv2.resize(
            gray, (max(1, gray.shape[1] // 8), max(1, gray.shape[0] // 8)), interpolation=cv2.INTER_AREA
        ).astype(np.float32)
        previous, self._previous = self._previous, (logs, thumb)
        if previous is None or previous[0].shape != logs.shape:
            return True
        return bool(
            np.abs(logs - previous[0]).max() > MOTION_LOG_THRESHOLD
            or np.abs(thumb - previous[1]).max() > MOTION_THUMB_THRESHOLD
        )

    def classify(
        self, samples: Samples, moving: bool | None = None
    ) -> tuple[Classified, NDArray[np.float64]]:
        """Classify every hole; with ``moving`` given (live frames), also doubt covered holes."""
        import numpy as np

        rows, cols = self.profile.rows, self.profile.cols
        features = hole_features(samples.holes, samples.gaps, rows, cols)
        if self.classifier is None:
            raise ProfileError(
                "profile", "not calibrated: no empty-hole or colour models (run vision calibrate)"
            )
        # grids read by their given corners (the real photos) with median profiles also widen
        # each hole's spreads by the picture's own noise over its level (a nearly black channel
        # says little) and trust a hole brighter than all its gaps. Switched on by the corners
        # the caller gave, not by the count of numbers alone: older 3-number peg-board profiles
        # and --labelled ones read by stickers read as before (review of issue 13); quartile
        # profiles (the peg board's guided calibration) as well
        medians = features.shape[1] == 3 and self.fixed is not None
        self.last_logits = None
        by_net = None
        if self.net is not None and features.shape[1] == 3 and self.profile.net_bias is not None:
            started = time.perf_counter()
            self.last_logits = logits = self.net_logits(samples)
            net, hidden = self.net, self.last_hidden  # the calibration's own last layer, or not:
            logits, bias = point_net.own_logits(logits, hidden, self.profile, net.fingerprint, samples.gaps)
            self.net_seconds = time.perf_counter() - started
            by_net = net_reading(logits, bias, self.classifier, features)
            if not point_net.WITH_RULES:
                self._doubt_covered(by_net, samples, moving)
                return by_net, features
        noise = noise_spread(samples.holes, samples.gaps, rows, cols) if medians else None
        classifier = self.classifier
        result = classifier.classify(features, noise)
        # a hole read as something else when a patch of light may explain its brightness is
        # unsure, not guessed (a sunlit empty hole read as a pale peg was the real photos' error)
        lit = light_explained(samples.holes, samples.gaps, features, rows, cols)
        other = classifier.classify(lit, noise, reach=False).letters
        pairs = zip(result.letters, other, strict=True)
        doubtful = np.array([UNSURE not in (a, b) and a != b for a, b in pairs], dtype=np.bool_)
        if medians:  # ... but not a hole brighter than all its own gaps: no patch of light explains it
            doubtful &= ~brighter_than_own_gaps(samples.holes, samples.gaps, rows, cols)
            # ... and a hole read empty far beyond this picture's own empty holes is unknown
            # (a white stone washed out by a lamp's hot spot; issue 30, failure point 3)
            read_empty = np.array([letter == EMPTY for letter in result.letters], dtype=np.bool_)
            distance = classifier.distances_and_worst(features, noise)[0][:, 0]
            doubtful |= beyond_picture_empty(distance, read_empty)
            # ... and a colour is read only from half-way between empty and it on (a stone's
            # shadow on a dark board lay nearer the wide black model than the narrow empty one)
            read_as = [classifier.letters.index(a) if a != UNSURE else 0 for a in result.letters]
            doubtful |= short_of_colour(features, classifier.means, read_as)
            # ... and a hole read otherwise without a channel that the lamp has dimmed since
            # calibration (classify.dimmed_channels): what told its class from the others there
            # may be gone (relit in-sample photos: white stones on a yellow board under an orange
            # lamp read empty with confidence, 5 % of all points; benchmarks/vision_lamps.py)
            if noise is not None and self.profile.board is not None:
                for channel in dimmed_channels(samples.gaps, self.profile.board):
                    keep = [c for c in range(3) if c != channel]
                    fewer = classifier.without(channel)
                    again = fewer.classify(features[:, keep], noise[:, keep], reach=False).letters
                    doubtful |= np.array([a != b for a, b in zip(result.letters, again, strict=True)])
        # a hole the reading of which changes when a lamp's reflection is taken out is unsure: a
        # reflection must never turn an empty hole into a peg (nor a pale peg into an empty hole).
        # Quartile profiles only (the peg board's guided calibration): on the Go photos (medians,
        # sun clipped to white over bare board) it doubted correct readings (worst photo 94 %)
        # The reflection has the lamp's colour: the stickers' paper's in this frame (when the
        # stickers were last found) and at calibration (the profile's); it is also taken out as
        # grey (daylight). A hole doubted by any of these removals is unsure
        if features.shape[1] > 3:
            lamps: list[tuple[float, float, float]] = [(1.0, 1.0, 1.0)]
            for lamp in (self.paper_lamp, self.profile.lamp):
                new = lamp is not None and all(_unlike(lamp, k) for k in lamps)
                if new and lamp is not None:
                    lamps.append(lamp)
            for lamp in lamps:
                clean, glared = glare_features(samples.holes, samples.gaps, features, rows, cols, lamp)
                if not glared.any():
                    continue
                again = classifier.classify(clean, noise, reach=False).letters
                for k in np.flatnonzero(glared).tolist():
                    doubtful[k] |= again[k] != result.letters[k]
                # where the reflection clipped a channel of the hole, what lies under it is
                # unknown: taking the reflection out of 255 leaves too little (a 130-level
                # reflection on cherry left the centre hole a confident red)
                doubtful |= glared & (samples.holes >= GLARE_CLIPPED).any(axis=1)
            doubtful |= self._glinting(samples, features, result.letters, noise)
        for i in np.flatnonzero(doubtful):
            result.letters[int(i)] = UNSURE
        result.confidence = np.where(doubtful, 0.0, result.confidence)
        if by_net is not None:  # the net and the rules must agree (point_net.WITH_RULES)
            differ = np.array([a != b for a, b in zip(result.letters, by_net.letters, strict=True)])
            for i in np.flatnonzero(differ):
                by_net.letters[int(i)] = UNSURE
            by_net.confidence = np.where(differ, 0.0, by_net.confidence)
            result = by_net
        self._doubt_covered(result, samples, moving)
        return result, features

    def _doubt_covered(self, result: Classified, samples: Samples, moving: bool | None) -> None:
        """Live frames: the points around a gap that changed (a hand over the board) are unsure."""
        import numpy as np

        if self.watch_hands and moving is not None:
            covered = self.gap_watch.covered_holes(samples.gaps, still=not moving)
            for i in np.flatnonzero(covered):
                result.letters[int(i)] = UNSURE
            result.confidence = np.where(covered, 0.0, result.confidence)

    def net_logits(self, samples: Samples) -> NDArray[np.float32]:
        """The point net's (points, 3) logits for this frame, one batched forward (and ``last_hidden``)."""
        assert self.net is not None
        rows, cols = self.profile.rows, self.profile.cols
        patches = point_patches(samples.warped, samples.gaps, rows, cols, self.sampler.pitch)
        logits, self.last_hidden = self.net.outputs(patches)
        return logits

    def glints(
        self, samples: Samples, features: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]] | None:
        """:func:`~vision.classify.glint_free` on these samples: the features without glints, the
        holes a glint touched, the holes all glint; None while the stickers' paper is unknown."""
        if self._papers is not None and self.homography is not None:  # stickers found in this frame
            papers, stickers = self._papers
            ratio = paper_over_board(
                papers, stickers, samples.gaps, self.homography, self.profile.rows, self.profile.cols
            )
            self.paper_ratio = ratio if ratio is not None else self.paper_ratio
            self._papers = None
        if self.paper_ratio is None:
            return None
        discs = [self.sampler.hole_index]
        if self.sampler.centre_index is not None:
            discs.append(self.sampler.centre_index)
        return glint_free(
            samples.warped,
            self.sampler.cells(),
            discs,
            samples.holes,
            samples.gaps,
            features,
            self.profile.rows,
            self.profile.cols,
            self.paper_ratio,
        )

    def _glinting(
        self,
        samples: Samples,
        features: NDArray[np.float64],
        letters: Sequence[str],
        noise: NDArray[np.float64] | None,
    ) -> NDArray[np.bool_]:
        """Holes a glint may have changed (:meth:`glints`): read differently without the glint's
        pixels, or nothing but glint. A glint must never make a peg."""
        import numpy as np

        found = self.glints(samples, features)
        if found is None or self.classifier is None:
            return np.zeros(self.profile.hole_count, dtype=np.bool_)
        clean, affected, blank = found
        if not affected.any():
            return blank
        again = self.classifier.classify(clean, noise, reach=False).letters
        changed = np.array([a != b for a, b in zip(again, letters, strict=True)], dtype=np.bool_)
        return np.asarray(blank | (affected & changed), dtype=np.bool_)

    # -- the whole path --------------------------------------------------------------------
    def process(self, frame: NDArray[np.uint8]) -> FrameResult:
        if getattr(frame, "ndim", 0) != 3 or frame.shape[2] != 3 or frame.dtype.name != "uint8":
            shape = getattr(frame, "shape", None)
            raise ValueError(f"expected a colour picture (height, width, 3) of bytes, got shape {shape}")
        stages: dict[str, float] = {}
        clock = time.perf_counter
        t = clock()
        needs_locating = self.homography is None or (
            self.fixed is None
            and (self._since_located >= self.relocate_every or (self._lost and self._since_located >= 5))
        )
        if needs_locating:
            self.locate(frame)
        self._since_located += 1
        if self._lost:
            self.frames_unlocated += 1
        stages["locate"] = clock() - t
        holes = self.profile.hole_count
        if self.homography is None:
            return FrameResult([UNSURE] * holes, None, False, False, None, stages=stages)
        t = clock()
        samples = self.sampler.sample(frame, self.homography)
        stages["warp+sample"] = clock() - t
        t = clock()
        moving = self._moved(samples)
        if self._was_moving and not moving and self.fixed is None and not needs_locating:
            # the first still frame after movement: the board may have been nudged
            before = self.homography
            if (
                self.locate(frame)
                and before is not None
                and self.homography is not None
                and _shift(before, self.homography, self.profile) > 0.1
            ):
                samples = self.sampler.sample(frame, self.homography)
                self._moved(samples)
                moving = True
        self._was_moving = moving
        stages["motion"] = clock() - t
        t = clock()
        classified, features = self.classify(samples, moving)
        stages["classify"] = clock() - t
        if self.last_logits is not None:
            stages["net"] = self.net_seconds  # part of classify
        t = clock()
        released = self.stabiliser.update(classified.letters, moving)
        stages["stabilise"] = clock() - t
        return FrameResult(
            classified.letters,
            classified.confidence,
            moving,
            True,
            self.homography,
            released,
            samples,
            features,
            stages,
            self.last_logits,
        )


def sampler_for(profile: BoardProfile) -> Sampler:
    """The sampler a profile asks for: its disc, its head shift, and quartiles when its models
    have nine numbers (a profile from before quartiles has three: medians only), and the hole's
    own disc as well when the heads are seen beside their holes (eighteen numbers)."""
    from vision.sampling import pitch_for

    models = [m for m in (profile.empty, *profile.colours) if m is not None]
    dims = len(models[0].mean) if models else profile.features
    return Sampler(
        profile.rows,
        profile.cols,
        profile.sample_radius,
        pitch=pitch_for(profile.sample_radius),
        head_shift=profile.head_shift,
        quartiles=dims in (9, 18),
        centre=dims == 18,
    )


def _shift(a: NDArray[np.float64], b: NDArray[np.float64], profile: BoardProfile) -> float:
    """How far (in pitches) the grid moved between two homographies, at the corner holes."""
    import numpy as np

    from vision.sampling import project

    pts = np.array([[0, 0], [profile.cols - 1, profile.rows - 1]], dtype=np.float64)
    pa, pb = project(a, pts), project(b, pts)
    pitch = np.linalg.norm(pa[1] - pa[0]) / np.hypot(profile.cols - 1, profile.rows - 1)
    return float(np.linalg.norm(pa - pb, axis=1).max() / max(pitch, 1e-6))


def read_image(
    image: NDArray[np.uint8],
    profile: BoardProfile,
    corners: Sequence[tuple[float, float]] | None = None,
    net: bool | None = None,
) -> FrameResult:
    """Read one still image (no waiting for stillness): for ``vision read`` and calibration.
    ``net=True``: also the point net's outputs (``net_logits``), for a calibration that fits it."""
    reader = BoardReader(profile, corners=corners, still_frames=1, net=net)
    if not reader.locate(image) or reader.homography is None:
        raise ProfileError(
            "image",
            "the board's stickers were not found (need at least two of ids "
            + ", ".join(str(m.id) for m in profile.markers)
            + ")",
        )
    samples = reader.sampler.sample(image, reader.homography)
    if reader.classifier is None:
        features = hole_features(samples.holes, samples.gaps, profile.rows, profile.cols)
        return FrameResult(
            [UNSURE] * profile.hole_count,
            None,
            False,
            True,
            reader.homography,
            samples=samples,
            features=features,
            net_logits=reader.net_logits(samples) if reader.net is not None else None,
            net_hidden=reader.last_hidden,
        )
    classified, features = reader.classify(samples)
    logits = reader.last_logits
    if logits is None and reader.net is not None:
        logits = reader.net_logits(samples)
    return FrameResult(
        classified.letters,
        classified.confidence,
        False,
        True,
        reader.homography,
        tuple(classified.letters),
        samples,
        features,
        net_logits=logits,
        net_hidden=reader.last_hidden,
    )


def _unlike(a: Sequence[float], b: Sequence[float]) -> bool:
    """Two lamp colours (mean 1) that differ by more than 0.03 in some channel."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) > 0.03
