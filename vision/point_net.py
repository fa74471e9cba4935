"""The point net: a small CNN that looks at each grid point's patch and says empty, dark piece or
light piece (issue 30: a reader that carries over from renders to real boards, cameras, lamps).

Why a learned net: the rule path (``classify.py``) compares one median colour per point with the
calibrated colours and needed a new rule for each real condition (a lamp of another colour,
glare, pieces close to the board's colour, stones seen beside their point). The net sees the
whole patch (1.33 pitch across, so a stone lifted 0.4 pitch toward the camera is still inside)
and was *trained* on those conditions (``benchmarks/train_point_net.py``: randomised renders of
Go and Othello boards under strongly coloured lamps, hot spots, blur, JPEG, plus the tuning
photos relit by synthetic lamps) instead of being told them.

Input, per point: the upright board (``sampling.Sampler``'s warp) at :data:`NET_PITCH` pixels a
pitch, a :data:`PATCH` x :data:`PATCH` square around the point, in log colour minus the light at
the point (the median of the surrounding gaps' log colour, as ``classify.hole_features`` takes
it): a brighter lamp or a gain per channel cancels, what is left is how the patch differs from
the board around it. Output: three logits (empty, dark, light). How sure a point is empty or a
piece is :func:`piece_logit`, which a calibration shifts by the profile's ``net_bias``
(:func:`fit_bias`: refitted on the user's own calibration picture, whose empty points and pieces
the calibration knows, as chesscog adapts to a new set from two pictures).

Run time needs OpenCV only (``cv2.dnn.readNetFromONNX``, one batched forward per frame); torch is
needed only to train. A missing or damaged model file raises :class:`PointNetError` (one line,
naming the file): the reader then falls back to the rule path, the app always starts.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from vision.classify import LOG_OFFSET, Classified, block_median
from vision.profile import EMPTY, UNSURE
from vision.sampling import MARGIN

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from vision.classify import Classifier
    from vision.profile import BoardProfile

NET_PITCH = 12  # pixels a pitch in the net's patches (the warp's 24, halved)
PATCH = 16  # pixels a side: 1.33 pitch around the point
CLIP = 3.0  # log units: relative colour beyond this carries nothing more (clipped glare, black)
MODEL_PATH = Path(__file__).resolve().parent / "models" / "point_net.onnx"
EMPTY_CLASS, DARK, LIGHT = 0, 1, 2
SURE = 0.9  # probability from which a point reads empty, a piece, or (of a dark/light pair) which
PAIR_APART = 0.4  # log units: two colours this far apart in brightness are read as dark and light
COLOUR_APART = 1.5  # otherwise the nearest colour must be this many times nearer than the next
# the calibration's own last layer (fit_head) is pulled toward the shipped one by this much: weaker
# fitted the calibration's light better but read the others worse (leave one set out, drawn lamps)
HEAD_PULL = 0.03
# log units: the board's colour shifted this far in some channel (its mean change taken out) since
# calibration means another lamp, for which a last layer fitted under the calibration's light is
# wrong (drawn boards: 2-4 times the confident errors); the shipped layer and the bias read then.
# Photos of one set under one light shift 0.00-0.03 (90 % of them), a coloured lamp 0.27-2.5
LIGHT_CHANGED = 0.15
# the reader reads a point only where the net and the rule path agree (else unsure): a confident
# error then needs both wrong. False: the net alone decides (benchmarks compare both)
WITH_RULES = False


class PointNetError(RuntimeError):
    """The model file is missing or cannot be loaded: the message names the file and what."""


def point_patches(
    warped: NDArray[np.uint8],
    gaps: NDArray[np.float32],
    rows: int,
    cols: int,
    pitch: int,
    border: int = 0,
) -> NDArray[np.float32]:
    """(rows*cols, 3, PATCH + 2*border, same): each point's patch, log colour relative to the light
    at the point, clipped to +-:data:`CLIP`. ``warped``/``gaps``/``pitch``: a ``Sampler``'s sample
    and pitch. ``border``: extra pixels each side (training crops shifted patches from them)."""
    import cv2
    import numpy as np

    height, width = warped.shape[:2]
    scale = NET_PITCH / pitch
    small = cv2.resize(warped, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    half = PATCH // 2 + border
    first = round(MARGIN * NET_PITCH)  # the first point's pixel in the small picture
    pad = max(0, half - first) + 1
    lg = np.log(small.astype(np.float32) + np.float32(LOG_OFFSET))
    lg = cv2.copyMakeBorder(lg, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    gap_log = np.log(gaps.astype(np.float64) + LOG_OFFSET).reshape(rows + 1, cols + 1, 3)
    light = block_median(gap_log, rows, cols).astype(np.float32)
    offsets = np.arange(2 * half) - half + pad
    ys = first + np.arange(rows)[:, None] * NET_PITCH + offsets[None, :]  # (rows, 2*half)
    xs = first + np.arange(cols)[:, None] * NET_PITCH + offsets[None, :]
    patches = lg[ys[:, None, :, None], xs[None, :, None, :]]  # (rows, cols, 2h, 2h, 3)
    patches = patches.reshape(rows * cols, 2 * half, 2 * half, 3) - light[:, None, None, :]
    out = np.clip(patches, -CLIP, CLIP).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(out, dtype=np.float32)


def piece_logit(logits: NDArray[np.float32]) -> NDArray[np.float64]:
    """log(p(dark or light) / p(empty)) per point, from the net's (n, 3) logits."""
    import numpy as np

    lg = logits.astype(np.float64)
    return np.asarray(np.logaddexp(lg[:, DARK], lg[:, LIGHT]) - lg[:, EMPTY_CLASS], dtype=np.float64)


def dark_logit(logits: NDArray[np.float32]) -> NDArray[np.float64]:
    """log(p(dark) / p(light)) per point: which of the two a piece is."""
    import numpy as np

    return np.asarray(logits[:, DARK].astype(np.float64) - logits[:, LIGHT], dtype=np.float64)


def sigmoid(x: NDArray[np.float64]) -> NDArray[np.float64]:
    import numpy as np

    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -40, 40))), dtype=np.float64)


def fit_bias(piece: NDArray[np.float64], occupied: NDArray[np.bool_], limit: float = 3.0) -> float:
    """The shift of :func:`piece_logit` that best fits one calibration's labels (a logistic fit of
    the offset alone, empty points and pieces weighing the same, Newton steps), at most
    ``limit`` either way: adapts the net to the user's board and light without retraining it."""
    import numpy as np

    if not np.isfinite(piece).all():
        raise PointNetError("the point net gave non-finite outputs on the calibration picture")
    if not occupied.any() or occupied.all():
        return 0.0
    y = occupied.astype(np.float64)
    w = np.where(occupied, 0.5 / occupied.sum(), 0.5 / (~occupied).sum())
    shift = 0.0
    for _ in range(30):
        p = sigmoid(piece + shift)
        grad = float((w * (p - y)).sum()) + 0.01 * shift  # a little pull toward no shift
        hess = float((w * p * (1 - p)).sum()) + 0.01
        step = float(np.clip(grad / hess, -1.0, 1.0))
        shift -= step
        if abs(step) < 1e-4:
            break
    return float(np.clip(shift, -limit, limit))


def fit_head(
    logits: NDArray[np.float32],
    hidden: NDArray[np.float32],
    classes: NDArray[np.intp],
    pull: float = HEAD_PULL,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A change of the net's last layer (weights (3, hidden), bias (3)) fitted on one calibration
    picture's points, whose classes (0 empty, 1 dark, 2 light) the calibration knows: cross-entropy
    with the classes weighing the same, plus ``pull`` times the change's square (it stays near the
    shipped layer: a few hundred points must not undo what 150,000 patches taught). chesscog adapts
    its classifier to a new set from two pictures the same way. Adam, 400 full-batch steps (tens of
    milliseconds: once per calibration)."""
    import numpy as np

    z0 = logits.astype(np.float64)
    h = hidden.astype(np.float64)
    if not (np.isfinite(z0).all() and np.isfinite(h).all()):
        raise PointNetError("the point net gave non-finite outputs on the calibration picture")
    counts = np.bincount(classes, minlength=3).astype(np.float64)
    weight = 1.0 / (np.count_nonzero(counts) * counts[classes])
    target = np.eye(3)[classes]
    params = [np.zeros((3, h.shape[1])), np.zeros(3)]
    moments = [[np.zeros_like(x), np.zeros_like(x)] for x in params]
    for step in range(1, 401):
        z = z0 + h @ params[0].T + params[1]
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        g = (p - target) * weight[:, None]
        grads = [g.T @ h + pull * params[0], g.sum(axis=0) + pull * params[1]]
        for x, grad, (m, v) in zip(params, grads, moments, strict=True):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad**2
            x -= 0.02 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return params[0], params[1]


def light_changed(gaps: NDArray[np.float32], board: tuple[float, float, float]) -> bool:
    """Whether the board's colour now (the median of ``gaps``) differs from its colour at
    calibration (``board``) by more than :data:`LIGHT_CHANGED` in some channel, a change of
    brightness taken out: another lamp, under which the calibration's own last layer misleads."""
    import numpy as np

    now = np.log(np.nanmedian(np.asarray(gaps, np.float64).reshape(-1, 3), axis=0) + LOG_OFFSET)
    change = now - np.log(np.asarray(board, np.float64) + LOG_OFFSET)
    return bool(np.abs(change - change.mean()).max() > LIGHT_CHANGED)


def own_logits(
    logits: NDArray[np.float32],
    hidden: NDArray[np.float32] | None,
    profile: BoardProfile,
    fingerprint: str,
    gaps: NDArray[np.float32],
) -> tuple[NDArray[np.float32], float]:
    """The logits and piece bias to read a frame by: the calibration's own last layer
    (``profile.net_head``, bias 0: the layer has its own) while the light is the calibration's
    (:func:`light_changed` on the frame's ``gaps``) and the model the one it was fitted for
    (``fingerprint``), else the shipped layer and the calibration's bias."""
    import numpy as np

    head, board, bias = profile.net_head, profile.board, profile.net_bias
    if bias is None:
        raise PointNetError("the profile was not calibrated for the point net")
    if head is None or board is None or hidden is None or head.model != fingerprint:
        return logits, bias
    if len(head.weights[0]) != hidden.shape[1] or light_changed(gaps, board):
        return logits, bias
    own = logits + hidden @ np.asarray(head.weights, np.float32).T + np.asarray(head.bias, np.float32)
    return np.asarray(own, dtype=np.float32), 0.0


class PointNet:
    """The ONNX model run by OpenCV's dnn module: its logits and (a model that has it) its last
    hidden layer, which a calibration's own last layer reads (:func:`fit_head`)."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        import cv2

        self.path = Path(path)
        if not self.path.is_file():
            raise PointNetError(f"{self.path}: the point net's model file is missing")
        try:
            # the classic engine: about 3 times faster than OpenCV 5's new one on these small
            # convolutions (10.7 against 30 ms for 361 points on one core, measured here)
            engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
            if engine is None:  # OpenCV 4 has only the one engine
                self.net = cv2.dnn.readNetFromONNX(str(self.path))
            else:
                self.net = cv2.dnn.readNetFromONNX(str(self.path), engine=engine)
        except cv2.error as exc:
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else "unreadable"
            raise PointNetError(f"{self.path}: cannot load the point net ({first})") from None
        if self.net.empty():
            raise PointNetError(f"{self.path}: the point net's model file holds no network")
        # the camera source's thread and the calibration screen may read at once, and an OpenCV
        # net's setInput/forward pair is not thread-safe (two threads crash the process)
        self._lock = threading.Lock()
        names = tuple(self.net.getUnconnectedOutLayersNames())
        self._outputs = ("logits", "hidden") if set(names) >= {"logits", "hidden"} else names[:1]
        # which model a profile's own last layer was fitted for (a new model voids it)
        self.fingerprint = hashlib.sha256(self.path.read_bytes()).hexdigest()[:16]
        self._check_outputs()

    def _check_outputs(self) -> None:
        """A model that loads can still be the wrong shape or give NaN (damaged weights): one
        forward of a blank patch at load time says so once, instead of on every frame."""
        import cv2
        import numpy as np

        try:
            out = self.logits(np.zeros((2, 3, PATCH, PATCH), np.float32))
        except (cv2.error, ValueError) as exc:
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else "wrong shape"
            raise PointNetError(f"{self.path}: the point net does not take its patches ({first})") from None
        if not np.isfinite(out).all():
            raise PointNetError(f"{self.path}: the point net gives non-finite outputs (damaged weights)")

    def logits(self, patches: NDArray[np.float32]) -> NDArray[np.float32]:
        """(n, 3) logits for (n, 3, PATCH, PATCH) patches: one forward for the whole batch."""
        return self.outputs(patches)[0]

    def outputs(self, patches: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32] | None]:
        """The (n, 3) logits and the (n, hidden) last hidden layer (None: a model without it)."""
        import numpy as np

        with self._lock:
            self.net.setInput(np.ascontiguousarray(patches, dtype=np.float32))
            out = self.net.forward(list(self._outputs))
        logits = np.asarray(out[0], dtype=np.float32).reshape(len(patches), 3)
        hidden = np.asarray(out[1], dtype=np.float32).reshape(len(patches), -1) if len(out) > 1 else None
        return logits, hidden


_loaded: dict[Path, PointNet | PointNetError] = {}
_loading = threading.Lock()
_override: list[Path] = []


def use_model(path: Path | None) -> None:
    """Read with the model at ``path`` from now on (None: the shipped one). For the benchmarks'
    leave-one-set-out runs, whose models must never have seen the set they read."""
    _override[:] = [Path(path)] if path is not None else []


def default_net() -> PointNet:
    """The model in use, loaded once per process (:class:`PointNetError` when it cannot be)."""
    path = _override[0] if _override else MODEL_PATH
    with _loading:
        if path not in _loaded:
            try:
                _loaded[path] = PointNet(path)
            except PointNetError as exc:  # remembered: a frame a tenth of a second does not retry
                _loaded[path] = exc
        found = _loaded[path]
    if isinstance(found, PointNetError):
        raise found
    return found


def net_reading(
    logits: NDArray[np.float32], bias: float, classifier: Classifier | None, features: NDArray[np.float64]
) -> Classified:
    """Every point read from the net's logits: empty or a piece by the net (its piece logit shifted
    by the calibration's ``bias``: :data:`SURE` either way, else unsure); which colour a piece is,
    for two colours that differ in brightness (black and white stones or discs: :data:`PAIR_APART`),
    by the net's dark-or-light output, else by the calibrated colour models (``classifier``: the
    nearest colour, :data:`COLOUR_APART` times nearer than the next). So a colour only needs to
    stand apart from the other colours, not from the empty board, and a lamp that changes the
    colours changes little: the net was trained under such lamps.
    """
    import numpy as np

    if classifier is None or len(classifier.letters) < 2:
        from vision.profile import ProfileError

        raise ProfileError("profile", "not calibrated: no colour models (run vision calibrate)")
    piece = sigmoid(piece_logit(logits) + bias)
    letters = classifier.letters[1:]
    brightness = classifier.means[1:, :3].mean(axis=1)
    if len(letters) == 2 and abs(float(brightness[0] - brightness[1])) >= PAIR_APART:
        darker, lighter = (0, 1) if brightness[0] < brightness[1] else (1, 0)
        p_dark = sigmoid(dark_logit(logits))
        which = np.where(p_dark >= 0.5, darker, lighter)
        sure_of_colour = np.maximum(p_dark, 1.0 - p_dark)
    else:
        d = classifier.distances(features)[:, 1:]
        which = d.argmin(axis=1)
        if len(letters) > 1:
            ordered = np.sort(d, axis=1)
            sure_of_colour = np.where(ordered[:, 1] >= COLOUR_APART * ordered[:, 0], 1.0, 0.0)
        else:
            sure_of_colour = np.ones(len(d))
    out: list[str] = []
    for p, k, c in zip(piece.tolist(), which.tolist(), sure_of_colour.tolist(), strict=True):
        if p <= 1.0 - SURE:
            out.append(EMPTY)
        elif p >= SURE and c >= SURE:
            out.append(letters[int(k)])
        else:
            out.append(UNSURE)
    confidence = np.where(piece <= 0.5, 1.0 - piece, piece * sure_of_colour)
    confidence = np.where(np.array([x == UNSURE for x in out]), 0.0, confidence)
    return Classified(out, np.asarray(confidence, dtype=np.float64), np.zeros(len(out)))
