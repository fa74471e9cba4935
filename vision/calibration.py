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

from vision.classify import find_pegs, learn_model
from vision.profile import EMPTY, BoardProfile, ColourModel, ProfileError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def learn_empty(profile: BoardProfile, shots: Sequence[NDArray[np.float64]]) -> BoardProfile:
    """``shots``: the hole features of pictures of the empty board; replaces the empty model."""
    import numpy as np

    if not shots:
        raise ProfileError("calibration", "no picture of the empty board")
    empty = learn_model(EMPTY, "empty", np.concatenate(list(shots)))
    return profile.with_models(empty, profile.colours)


def learn_colour(
    profile: BoardProfile, letter: str, name: str, shots: Sequence[NDArray[np.float64]]
) -> tuple[BoardProfile, list[int]]:
    """Learn a colour from pictures with its pegs placed; returns the profile and holes used.

    Pegs of colours learnt before may still be on the board (players put their calibration pegs
    in one after another): holes read as one of those colours, or unsure but nearest to one of
    them, are not examples of this one. The app's guided calibration
    (:class:`vision.calibration_session.CalibrationSession`) names the hole instead and looks
    at nothing else; this unguided form is for ``table99 vision calibrate`` with files.
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
        nearest = known.distances(features).argmin(axis=1) if known is not None else None
        for hole in find_pegs(features, profile.empty):
            if letters is not None and letters[hole] in {c.letter for c in others}:
                like.append(next(c.name for c in others if c.letter == letters[hole]))
                continue
            if letters is not None and nearest is not None and letters[hole] == "?" and nearest[hole] > 0:
                # unsure, but nearest to a colour learnt before: an earlier peg in other light,
                # never an example of this one (a blue peg was learnt as "yellow" that way)
                like.append(others[int(nearest[hole]) - 1].name)
                continue
            used.append(hole)
            examples.append(features[hole])
    if not examples:
        if like:
            looks = ", ".join(sorted(set(like)))
            raise ProfileError("calibration", f"no new peg was seen: the pegs in view look like {looks}")
        raise ProfileError("calibration", f"no peg of colour {name!r} was seen: place one in a hole")
    model = learn_model(letter, name, np.array(examples))
    colours = [*others, model]
    return profile.with_models(profile.empty, colours), sorted(set(used))


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
HARD_SEPARATION = 8.0  # spreads from empty (largest channel) below which a colour is reported as hard


def target_holes(rows: int, cols: int, count: int) -> list[int]:
    """The holes the guided calibration asks for, one per colour: inside the outer ring (stickers
    and the frame's edge are near it), never next to each other (a peg's shadow falls on its
    neighbours' gaps) and spread over the board."""
    spots = [(0.25, 0.25), (0.25, 0.75), (0.75, 0.75), (0.75, 0.25), (0.45, 0.5), (0.55, 0.25), (0.5, 0.75)]
    chosen: list[int] = []
    for fr, fc in spots:
        r = min(rows - 2, max(1, round(fr * (rows - 1)))) if rows > 2 else 0
        c = min(cols - 2, max(1, round(fc * (cols - 1)))) if cols > 2 else 0
        hole = r * cols + c
        if all(abs(r - h // cols) > 1 or abs(c - h % cols) > 1 for h in chosen):
            chosen.append(hole)
    for hole in range(rows * cols):  # small boards: whatever is left
        if hole not in chosen:
            chosen.append(hole)
    return chosen[:count]


def peg_distance(features: NDArray[np.float64], empty: ColourModel) -> NDArray[np.float64]:
    """Per hole: how far from "empty" in spreads, in its most different channel."""
    import numpy as np

    z = np.abs(features - np.asarray(empty.mean)[None, :]) / np.asarray(empty.spread)[None, :]
    return np.asarray(z.max(axis=1), dtype=np.float64)


def measure_radius(
    peg: NDArray[np.uint8], empty: NDArray[np.uint8], centre: tuple[float, float], pitch: float
) -> float | None:
    """The radius (in pitches) of whatever differs from the empty picture around ``centre``.

    ``peg`` and ``empty``: the same upright board view (warped at ``pitch`` pixels per hole)
    with and without the peg. Mean colour difference per ring of one pixel; the radius is the
    outermost ring still differing by at least half the strongest ring's difference (a shadow
    falls on one side only, so its ring stays below half). None when nothing differs.
    """
    import numpy as np

    x0, y0 = centre
    half = int(pitch * 0.5)
    ys, xs = np.mgrid[-half : half + 1, -half : half + 1]
    r = np.hypot(xs, ys)
    yy = np.clip(np.rint(y0 + ys).astype(int), 0, peg.shape[0] - 1)
    xx = np.clip(np.rint(x0 + xs).astype(int), 0, peg.shape[1] - 1)
    diff = np.abs(peg[yy, xx].astype(np.float64) - empty[yy, xx].astype(np.float64)).sum(axis=2)
    rings = np.array([diff[(r >= k - 0.5) & (r < k + 0.5)].mean() for k in range(half + 1)])
    strongest = float(rings.max())
    if strongest < 30.0:
        return None
    outer = int(np.flatnonzero(rings >= 0.5 * strongest).max())
    return (outer + 0.5) / pitch
