"""Learn what empty holes and each player's pegs look like under this room's light.

The steps the app walks through (and ``table99 vision calibrate`` does from files):

1. the empty board: every hole is an example of "empty", and the gaps give the board's chroma;
2. per player: one peg (or several) of their colour placed anywhere; the holes that clearly stop
   looking empty are that colour's examples, so nobody has to say where the peg went.

Labelled pictures (a photo with its ground truth, as in the real-photo benchmark) go through
:func:`learn_labelled`. The result is a new :class:`~vision.profile.BoardProfile`; saving it is
the caller's decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from vision.classify import learn_model
from vision.profile import EMPTY, BoardProfile, ColourModel, ProfileError

PEG_FOUND = 6.0  # spreads from "empty" in one channel: the unguided learner takes such a hole as a peg
# A peg close to the board's colour (white stones on pale wood, black discs on dark green felt:
# 4.4-6.0 spreads on real photos) is taken when nothing is that clear but a few holes stand apart
# from the rest of the picture: at least PEG_FAINT spreads, PEG_APART times as far as the farthest
# hole left as empty, all differing from the board in the same direction, at most PEG_FEW of the
# holes (a patch of light moves many holes together; a player places a few pegs)
PEG_FAINT = 4.0
PEG_APART = 1.25
PEG_FEW = 0.15
# Examples farther than this from the examples' median (robust spreads, in any one channel) are
# no peg of the colour: a hole half covered by a neighbour's leaning stone, or darkened by its
# shadow, passes PEG_FOUND too, and with the mean and standard deviation of all examples one such
# hole made black so wide on a crowded 19x19 that white "looked like" black and was refused
KEEP_WITHIN = 4.0
TRIM_FROM = 8  # examples at least, to judge them by their majority (a few stones of one colour
# differ more among themselves, lit and shaded, than their median absolute deviation says)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def with_board_colour(profile: BoardProfile, gaps: NDArray[np.float32]) -> BoardProfile:
    """``profile`` remembering the board's colour in its calibration picture (BGR grey levels,
    the median of ``gaps``): the reader compares each frame's board with it to see which
    channels a lamp of another colour has dimmed since (``classify.dimmed_channels``)."""
    import dataclasses

    import numpy as np

    b, g, r = (float(v) for v in np.median(np.asarray(gaps, dtype=np.float64).reshape(-1, 3), axis=0))
    return dataclasses.replace(profile, board=(b, g, r))


def learn_empty(profile: BoardProfile, shots: Sequence[NDArray[np.float64]]) -> BoardProfile:
    """``shots``: the hole features of pictures of the empty board; replaces the empty model."""
    import numpy as np

    if not shots:
        raise ProfileError("calibration", "no picture of the empty board")
    examples = np.concatenate(list(shots))
    empty = learn_model(EMPTY, "empty", examples)
    if examples.shape[1] == 3:  # medians (grids read by their corners): as before
        return profile.with_models(empty, profile.colours)
    # the spread from the median absolute deviation, not the standard deviation: a few holes
    # under a glint or a lamp's reflection must not widen "empty" until it takes in a yellow
    # peg (each hole's own look, BoardProfile.empty_holes, covers those holes)
    from vision.classify import floors

    mad = 1.4826 * np.median(np.abs(examples - np.median(examples, axis=0)), axis=0)
    spread = np.sqrt(mad**2 + floors(examples.shape[1]) ** 2)
    empty = ColourModel(empty.letter, empty.name, empty.mean, tuple(float(v) for v in spread), empty.samples)
    return profile.with_models(empty, profile.colours)


def learn_colour(
    profile: BoardProfile, letter: str, name: str, shots: Sequence[NDArray[np.float64]]
) -> tuple[BoardProfile, list[int]]:
    """Learn a colour from pictures with its pegs placed; returns the profile and holes used.

    Pegs of colours learnt before may still be on the board: holes read as one of those colours
    are not examples of this one. But an earlier peg that reads *unsure* in this picture would
    be taken (that was issue 13's bug in the app): give this form pictures with only the new
    colour's pegs (``table99 vision calibrate --peg``, the real-photo benchmark). The app's
    guided calibration (:class:`vision.calibration_session.CalibrationSession`) names the hole
    instead and looks at nothing else.
    A profile read by the point net learns its colours with
    :func:`vision.net_calibration.learn_seen_colour` instead.
    """
    import numpy as np

    from vision.classify import Classifier

    if profile.empty is None:
        raise ProfileError("calibration", "learn the empty board first")
    if len(letter) != 1 or letter in (EMPTY, "?"):
        raise ProfileError("calibration", f"a colour's letter is one character, not {letter!r}")
    others = [c for c in profile.colours if c.letter != letter]
    known = Classifier(profile.empty, others) if others else None
    examples: list[NDArray[np.float64]] = []
    used: list[int] = []
    like: list[str] = []
    for features in shots:
        letters = known.classify(features).letters if known is not None else None
        for hole in new_pegs(features, profile.empty):
            if letters is not None and letters[hole] in {c.letter for c in others}:
                like.append(next(c.name for c in others if c.letter == letters[hole]))
                continue
            used.append(hole)
            examples.append(features[hole])
    if not examples:
        if like:
            looks = ", ".join(sorted(set(like)))
            raise ProfileError("calibration", f"no new peg was seen: the pegs in view look like {looks}")
        nearest = max((_most_unlike_empty(f, profile.empty) for f in shots if len(f)), default=0.0)
        raise ProfileError(
            "calibration",
            f"no peg of colour {name!r} was seen: the hole most unlike the empty board is only "
            f"{nearest:.1f} spreads from it ({PEG_FOUND:g} needed, or {PEG_FAINT:g} standing clearly apart "
            "from the other holes). A peg under glare, or in light "
            "that makes it look like the board, is not seen: place one where no glare or sun falls "
            "on it, or light the board evenly, and try again",
        )
    model = learn_model(letter, name, typical_examples(np.array(examples)))
    colours = [*others, model]
    return profile.with_models(profile.empty, colours), sorted(set(used))


def new_pegs(features: NDArray[np.float64], empty: ColourModel) -> list[int]:
    """The holes of one picture where a peg was just placed, judged against "empty".

    Holes more than :data:`PEG_FOUND` spreads off in one channel are pegs, as before. When none
    is, a peg whose colour is close to the board's may still stand apart from the picture's
    empty holes: the holes beyond :data:`PEG_FAINT` are split where the distance falls most
    steeply (the largest ratio between neighbours in distance order), and the split counts
    when the faint group is :data:`PEG_APART` times as far as the farthest hole below it, is
    few (:data:`PEG_FEW` of the holes) and differs from the board in one direction (all
    brighter or all darker in their most different channel). Noise in an empty picture falls
    off smoothly and fails the ratio; a lamp's patch moves too many holes to be "a few pegs".
    """
    import numpy as np

    if len(features) == 0:
        return []
    diff = (features - np.asarray(empty.mean)[None, :]) / np.asarray(empty.spread)[None, :]
    z = np.abs(diff).max(axis=1)
    clear = np.flatnonzero(z > PEG_FOUND)
    if len(clear):
        return [int(i) for i in clear]
    order = np.argsort(-z, kind="stable")
    ranked = z[order]
    faint = int((ranked > PEG_FAINT).sum())
    if faint == 0 or faint >= len(ranked) or faint > PEG_FEW * len(ranked):
        return []
    ratios = ranked[:faint] / np.maximum(ranked[1 : faint + 1], 1e-9)
    split = int(ratios.argmax()) + 1
    if ratios[split - 1] < PEG_APART:
        return []
    chosen = order[:split]
    signs = np.sign(diff[chosen, np.abs(diff[chosen]).argmax(axis=1)])
    if len(set(signs.tolist())) > 1:
        return []
    return sorted(int(i) for i in chosen)


def typical_examples(examples: NDArray[np.float64]) -> NDArray[np.float64]:
    """The examples of one colour without those far from the rest (:data:`KEEP_WITHIN`).

    The centre is the examples' median and the scale their median absolute deviation (never
    below :data:`~vision.classify.SPREAD_FLOOR`), so a minority of wrong examples moves
    neither; with fewer than :data:`TRIM_FROM` examples, or when more than half would go, all
    are kept (there is no majority to judge them by: on a webcam's 19x19, two of five black
    stones in shade were "far" from three lit ones and the shaded stones read unsure)."""
    import numpy as np

    from vision.classify import floors

    if len(examples) < TRIM_FROM:
        return examples
    centre = np.median(examples, axis=0)
    mad = 1.4826 * np.median(np.abs(examples - centre), axis=0)
    scale = np.maximum(mad, floors(examples.shape[1]))
    keep = (np.abs(examples - centre) / scale).max(axis=1) <= KEEP_WITHIN
    return examples[keep] if keep.sum() * 2 > len(examples) else examples


def _most_unlike_empty(features: NDArray[np.float64], empty: ColourModel) -> float:
    """How far the hole farthest from "empty" is, in spreads of its most different channel (what
    :func:`~vision.classify.find_pegs` compares with :data:`PEG_FOUND`): said when no peg is found,
    so the user learns whether the peg was nearly seen (glare) or not at all."""
    import numpy as np

    z = np.abs(features - np.asarray(empty.mean)[None, :]) / np.asarray(empty.spread)[None, :]
    return float(z.max())


def learn_labelled(
    profile: BoardProfile,
    shots: Sequence[tuple[NDArray[np.float64], Sequence[str]]],
    names: dict[str, str] | None = None,
) -> BoardProfile:
    """Learn every class from pictures with known letters per hole (``.`` empty)."""
    import numpy as np

    names = names or {}
    by_letter: dict[str, list[NDArray[np.float64]]] = {}
    for features, letters in shots:
        if len(letters) != len(features):
            raise ProfileError("calibration", f"{len(letters)} letters for {len(features)} holes")
        for f, letter in zip(features, letters, strict=True):
            by_letter.setdefault(letter, []).append(f)
    if EMPTY not in by_letter:
        raise ProfileError("calibration", "the labelled pictures show no empty hole")
    empty = learn_model(EMPTY, "empty", np.array(by_letter.pop(EMPTY)))
    colours: list[ColourModel] = [
        learn_model(letter, names.get(letter, letter), np.array(feats))
        for letter, feats in sorted(by_letter.items())
    ]
    return profile.with_models(empty, colours)


# -- guided calibration: one named hole per colour -------------------------------------------------
PEG_SEEN = 3.0  # spreads of "empty" (largest channel) the named hole must at least be away from empty
PEG_ABOVE_EMPTY = 1.3  # ... and that many times farther than the 99th percentile of the empty holes
LIKE_EMPTY_HOLE = 2.0  # ... and not within this many board-wide spreads of empty in every number (an
# empty hole whose own look was something else: a peg left in it for the empty picture). Empty holes
# of the unseen boards' calibration: median 1.06, 90 % within 1.97; the faintest peg (a white golf
# tee on maple, 2700 K) 2.76
HARD_SEPARATION = 8.0  # spreads from empty (largest channel) below which a colour is reported as hard


SPOTS = ((0.25, 0.25), (0.25, 0.75), (0.75, 0.75), (0.75, 0.25), (0.45, 0.5), (0.55, 0.25), (0.5, 0.75))
CHOOSE_WITHIN = 2  # holes (each way) around a spot the hole for a colour may be chosen from
EVEN_ENOUGH = 0.05  # trouble (log units) within which holes count as alike: then the nearest the spot


def target_holes(rows: int, cols: int, count: int, trouble: NDArray[np.float64] | None = None) -> list[int]:
    """The holes the guided calibration asks for, one per colour: inside the outer ring (stickers
    and the frame's edge are near it), never next to each other (a peg's shadow falls on its
    neighbours' gaps) and spread over the board.

    With ``trouble`` (per hole, :func:`light_trouble` of the empty board's picture) each is
    chosen near its spot where the light is even: not at the edge of a patch of sun, not in a
    lamp's reflection, nothing clipped (of the holes within :data:`EVEN_ENOUGH` of the most even,
    the one nearest the spot). A peg learnt there looks as it will under ordinary light; learnt
    in a reflection (row 3, column 3 lay in it on most glare setups) a green peg on cherry
    looked blue and a 0.15-pitch red tee on mahogany was not seen at all. On a small board the
    choice may leave fewer such holes than the spots themselves: then the spots are asked for.
    """
    chosen = _spread_out(rows, cols, trouble)
    if trouble is not None:
        fixed = _spread_out(rows, cols, None)
        chosen = chosen if len(chosen) >= min(count, len(fixed)) else fixed
    for hole in range(rows * cols):  # small boards: whatever is left
        if hole not in chosen:
            chosen.append(hole)
    return chosen[:count]


def _spread_out(rows: int, cols: int, trouble: NDArray[np.float64] | None) -> list[int]:
    """The holes near :data:`SPOTS` (see :func:`target_holes`), as many as fit."""
    chosen: list[int] = []
    inner = rows > 2 and cols > 2
    for fr, fc in SPOTS:
        r0 = min(rows - 2, max(1, round(fr * (rows - 1)))) if rows > 2 else 0
        c0 = min(cols - 2, max(1, round(fc * (cols - 1)))) if cols > 2 else 0
        within = CHOOSE_WITHIN if trouble is not None and inner else 0
        free = [
            (r, c)
            for r in range(max(0, r0 - within), r0 + within + 1)
            for c in range(max(0, c0 - within), c0 + within + 1)
            if (not within or (0 < r < rows - 1 and 0 < c < cols - 1))
            and all(max(abs(r - h // cols), abs(c - h % cols)) >= 2 for h in chosen)
        ]
        if not free:
            continue
        if trouble is not None and within:
            least = min(float(trouble[r * cols + c]) for r, c in free)
            free = [(r, c) for r, c in free if float(trouble[r * cols + c]) <= least + EVEN_ENOUGH]
        r, c = min(free, key=lambda rc: (abs(rc[0] - r0) + abs(rc[1] - c0), rc))
        chosen.append(r * cols + c)
    return chosen


def light_trouble(
    holes: NDArray[np.float32],
    gaps: NDArray[np.float32],
    features: NDArray[np.float64],
    rows: int,
    cols: int,
    lamps: Sequence[Sequence[float]] = ((1.0, 1.0, 1.0),),
) -> NDArray[np.float64]:
    """Per hole, how uneven the light around it is on the empty board's picture (log units, 0 =
    even): the range of the gaps' levels in the 4x4 block its light is measured on (the edge of a
    patch of sun or of a shadow, a lamp's reflection, which falls off within a pitch or two), the
    share of the block's gaps that are clipped (the heart of a strong reflection, where nothing
    is left to fit it on), 1 if the hole is, and for each of ``lamps`` whose reflection is found
    there (:func:`~vision.classify.reflection`) 1 and its share of the light. The guided
    calibration asks for its pegs where this is least (:func:`target_holes`). A lamp's smooth
    fall-off over the board is no trouble (the features are relative to the light around each
    hole)."""
    import numpy as np

    from vision.classify import GLARE_CLIPPED, _log, light_at, reflection

    lg = _log(gaps).reshape(rows + 1, cols + 1, 3)
    clipped_gaps = (np.asarray(gaps).reshape(rows + 1, cols + 1, 3) >= GLARE_CLIPPED).any(axis=2)
    trouble = np.zeros(rows * cols)
    for hole in range(rows * cols):
        r, c = divmod(hole, cols)
        block = lg[max(0, r - 1) : r + 3, max(0, c - 1) : c + 3].reshape(-1, 3)
        spread = float((block.max(axis=0) - block.min(axis=0)).max())
        clipped = float(clipped_gaps[max(0, r - 1) : r + 3, max(0, c - 1) : c + 3].mean())
        clipped += float((np.asarray(holes[hole]) >= GLARE_CLIPPED).any())
        trouble[hole] = spread + clipped
    light = light_at(holes, features).mean(axis=1)
    for lamp in lamps:
        strength, _gaps, found = reflection(holes, gaps, features, rows, cols, lamp)
        trouble += np.where(found, 1.0 + strength / np.maximum(light, 1.0), 0.0)
    return trouble


def own_change(features: NDArray[np.float64], own: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per hole: how far it is from its own look on the empty board, in spreads of its most
    changed number (:data:`~vision.classify.OWN_SPREAD`): did a peg go in there? The
    calibration's pictures are taken under the same light and focus as the empty one, so the
    hole's own look is compared at the tight spread in every number, cavity included."""
    import numpy as np

    from vision.classify import OWN_SPREAD

    return np.asarray((np.abs(features - own) / OWN_SPREAD).max(axis=1), dtype=np.float64)


def peg_distance(
    features: NDArray[np.float64], empty: ColourModel, own: NDArray[np.float64] | None = None
) -> NDArray[np.float64]:
    """Per hole: how far from "empty" in spreads, in its most different channel; with ``own``
    (each hole's features on the empty board), the nearer of the two looks of "empty"."""
    import numpy as np

    z = (np.abs(features - np.asarray(empty.mean)[None, :]) / np.asarray(empty.spread)[None, :]).max(axis=1)
    if own is not None and own.shape == features.shape:
        z = np.minimum(z, own_change(features, own))
    return np.asarray(z, dtype=np.float64)


HEAD_CHANGE = 0.12  # log units: the least change (hue or brightening) a peg's head makes; a white
# peg on pale birch under a warm lamp brightens the wood by only 0.1-0.2 (it measured as no peg at
# 0.25, and the sampling disc stayed 0.56 pitch across, where the hole it covers is 8 % of it)


def measure_peg(
    peg: NDArray[np.uint8], empty: NDArray[np.uint8], centre: tuple[float, float], pitch: float
) -> tuple[float, float, float] | None:
    """Where the peg's head is seen and how big: (dx, dy, radius) in pitches from ``centre``.

    ``peg`` and ``empty``: the same upright board view (warped at ``pitch`` pixels per hole)
    with and without the peg. What changed is scored per pixel in log colour: a change of hue
    counts fully and so does brightening, but plain darkening does not (that is the peg's
    shadow, which falls beside it). The head is the blob of changed pixels around the strongest
    change (at least half as changed); its centre is where the reader will sample (a tall peg's
    head leans away from the camera), its area gives its size. None when nothing changed.
    """
    import cv2
    import numpy as np

    x0, y0 = centre
    half = int(pitch * 0.55)
    ys, xs = np.mgrid[-half : half + 1, -half : half + 1]
    yy = np.clip(np.rint(y0 + ys).astype(int), 0, peg.shape[0] - 1)
    xx = np.clip(np.rint(x0 + xs).astype(int), 0, peg.shape[1] - 1)
    before = empty[yy, xx].astype(np.float64)
    board = np.median(before.reshape(-1, 3), axis=0)
    # the empty hole itself is no reference (a peg over a black cavity would look ten times as
    # changed as over the board, and only the cavity would count as the peg): the board there
    dark = before.sum(axis=2) < 0.7 * board.sum()
    seen = np.log(peg[yy, xx].astype(np.float64) + 4.0)
    scores = []
    for reference in (before, np.where(dark[:, :, None], board[None, None, :], before)):
        change = seen - np.log(reference + 4.0)
        level = change.mean(axis=2)
        score = np.linalg.norm(change - level[:, :, None], axis=2) + np.maximum(level, 0.0)
        if score.max() < 0.25:  # a peg the board's colour, only darker: its darkness is all there is
            score = np.abs(level)
        scores.append(score)
    score = np.minimum(scores[0], scores[1])  # changed from the cavity and from the board alike
    score = cv2.blur(score.astype(np.float32), (3, 3))
    strongest = float(np.quantile(score, 0.995))  # not the very top: a glint on the head
    if strongest < HEAD_CHANGE:
        return None
    mask = (score >= 0.5 * strongest).astype(np.uint8)
    _count, labels = cv2.connectedComponents(mask)
    peak = np.unravel_index(int(np.argmax(score)), score.shape)
    blob = (labels == labels[peak]).astype(np.uint8)
    # the head is where the largest disc inside the changed blob is: a golf tee's stem (its
    # colour, only darker) joins the blob between head and hole, and the blob's mean put a
    # 0.15-pitch head's disc a whole head radius towards the hole (on mahogany the red head then
    # filled only a quarter of its disc and was "not seen"). Holes in the blob (the tee's cup, a
    # highlight under half the change) are filled first; the blob is padded so the window's edge
    # is no edge. Its size stays the blob's area: the inscribed disc measured domes and flat pegs
    # 0.85 times as large as drawn, and their smaller sampling discs (more of the highlight) made
    # green and blue domes under a warm lamp look alike
    padded = np.pad(blob, 1)
    outside = padded.copy()
    cv2.floodFill(outside, None, (0, 0), 1)  # what the flood from the edge cannot reach is inside
    filled = (padded | (outside == 0)).astype(np.uint8)
    inside = cv2.distanceTransform(filled, cv2.DIST_L2, 5)[1:-1, 1:-1]
    core = inside >= float(inside.max()) - 0.5
    dy, dx = float(ys[core].mean()), float(xs[core].mean())
    return dx / pitch, dy / pitch, float(np.sqrt(blob.sum() / np.pi)) / pitch


def fit_head_shift(
    holes: Sequence[tuple[float, float]], shifts: Sequence[tuple[float, float]]
) -> tuple[float, float, float]:
    """(k, mx, my) such that a head at grid point p is seen at p + k*p - m (grid units).

    A peg's head stands above the board, so the camera sees it displaced away from the point
    below the camera, the more the farther the hole is from that point: shift = k * (p - n),
    linear in (k, m = k*n). Fitted by least squares to the calibration pegs from two on (four
    equations, three unknowns); with one, its shift everywhere. (From three on before: two tall
    golf tees five holes apart, seen at 18 degrees, lean differently by a tenth of a pitch, and
    their mean shift moved the first tee's disc off its 0.15-pitch head: "the red peg is no
    longer seen clearly" on every draw of mahogany-tee-tiny-glare.)
    """
    import numpy as np

    if not holes:
        return (0.0, 0.0, 0.0)
    if len(holes) < 2:  # one peg: no slope to tell, its shift everywhere
        mean = np.mean(np.asarray(shifts, dtype=np.float64), axis=0)
        return (0.0, -float(mean[0]), -float(mean[1]))
    rows = []
    rhs = []
    for (px, py), (sx, sy) in zip(holes, shifts, strict=True):
        rows.append([px, -1.0, 0.0])
        rhs.append(sx)
        rows.append([py, 0.0, -1.0])
        rhs.append(sy)
    solution, *_ = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)
    return (float(solution[0]), float(solution[1]), float(solution[2]))
