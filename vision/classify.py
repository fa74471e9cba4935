"""Turn hole samples into light-independent features and classify them: empty, a colour, or unsure.

Features: for each hole, the log of its median colour minus the log of the light at that hole, per
channel. The light at a hole is the median of its four gaps (the board surface around it), so a
room getting darker, a warmer lamp, a shadow across one side or a vignetting lens scale hole and
gaps alike and cancel out. What is left describes the hole relative to the board: an empty hole
is darker than the board, a red peg is redder, and so on.

Classification: each class (empty and every calibrated colour) is a mean and a spread of those
features. The distance of a hole to a class is measured in spreads (a diagonal Mahalanobis
distance); the confidence is the class's share of the likelihoods. A hole far from every class
(a hand, a colour never calibrated, heavy glare) or between two classes is *unsure*: the reader
reports it as such instead of guessing, and the referee waits.

Long because every per-frame feature of the reader lives here together (light, glare, glints,
noise, the classifier) so that one frame is read in one place and the speed benchmark measures
one module; calibration and the camera source only call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vision.profile import EMPTY, UNSURE, ColourModel

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

SPREAD_FLOOR = 0.07  # log units: no class is assumed tighter than about 7% per channel
CAVITY_FLOOR = 0.15  # log units: the same for the lower quartile of a hole (see floors())
LOG_OFFSET = 4.0  # keeps log() finite for black pixels and damps sensor noise in the dark
MAX_DISTANCE = 4.5  # in spreads (root mean square over the channels): farther is "unknown"
MAX_CHANNEL = 6.0  # spreads in the single most different channel: farther is "unknown" as well
EMPTY_REACH = 2.0  # spreads (root mean square, quartile features): farther from empty is never "empty"
EMPTY_REACH_TIMES = 2.0  # ... nor farther than this many times the picture's empty holes (median)
EMPTY_MARGIN = 1.5  # ... and every colour must be this many times as far as empty is
COLOUR_MARGIN = 1.3  # ... and a colour is read only when empty is this many times as far as it
NEAR_EMPTY = 3.75  # ... or this over its own distance from empty (spreads, root mean square), if more
BEYOND_MIDWAY = 1.0  # spreads: a colour is read only this far past the midway to any other colour
MIN_CONFIDENCE = 0.9
NEAREST_EXTRA_WEIGHT = 2  # the four nearest gaps count 1 + this many times in the light's median
ADOPT_AFTER = 60  # still frames (about 3 s) after which a changed gap is the board's new look
OWN_SPREAD = 0.1  # log units: how far a hole may drift from its own empty look (light, noise, JPEG)
OWN_SHIFT = 0.7  # log units: the most a hole's own empty look may brighten or darken as a whole
GAP_CHANGE = 0.12  # log units: a gap changed more than this (beyond the whole board's change) is covered


def _log(values: NDArray[np.float32]) -> NDArray[np.float64]:
    import numpy as np

    return np.asarray(np.log(values.astype(np.float64) + LOG_OFFSET), dtype=np.float64)


def hole_features(
    holes: NDArray[np.float32], gaps: NDArray[np.float32], rows: int, cols: int
) -> NDArray[np.float64]:
    """(rows*cols, 3) features: log hole colour minus log light at the hole.

    The light is the median of the gaps in a 4x4 block around the hole (its four own gaps and
    the ring beyond), clipped at the grid's edge, with the four nearest gaps counted three times.
    A block, not only the four nearest gaps: at the board's edge the outer gaps may fall beyond
    the board (a thin margin seen at an angle), and a neighbour's fat peg may touch a gap; the
    median of up to 24 values shrugs off such outliers. The extra weight of the nearest gaps
    keeps the estimate local where light changes sharply (the edge of a patch of sunlight).
    """
    import numpy as np

    light = block_median(_log(gaps).reshape(rows + 1, cols + 1, 3), rows, cols)
    return np.asarray(_log(holes) - np.tile(light, holes.shape[1] // 3), dtype=np.float64)


def block_median(lg: NDArray[np.float64], rows: int, cols: int) -> NDArray[np.float64]:
    """(rows*cols, k): per hole the median of the (rows + 1, cols + 1, k) gap values ``lg`` in
    the 4x4 block around it, its four own gaps counted extra (see :func:`hole_features`)."""
    import numpy as np

    padded = np.pad(lg, ((1, 1), (1, 1), (0, 0)), constant_values=np.nan)
    ring = [padded[dr : dr + rows, dc : dc + cols] for dr in range(4) for dc in range(4)]
    nearest = [padded[dr : dr + rows, dc : dc + cols] for dr in (1, 2) for dc in (1, 2)]
    block = np.stack(ring + nearest * NEAREST_EXTRA_WEIGHT)
    # the median of the gaps that exist: NaNs (beyond the grid) sort last, so the median sits at
    # the middle of the first `count` values (much faster than np.nanmedian)
    count = (~np.isnan(block[:, :, :, 0])).sum(axis=0)[None, :, :, None]
    ordered = np.sort(block, axis=0)
    low = np.take_along_axis(ordered, (count - 1) // 2, axis=0)[0]
    high = np.take_along_axis(ordered, count // 2, axis=0)[0]
    return np.asarray(((low + high) / 2).reshape(rows * cols, lg.shape[2]), dtype=np.float64)


def light_explained(
    holes: NDArray[np.float32], gaps: NDArray[np.float32], features: NDArray[np.float64], rows: int, cols: int
) -> NDArray[np.float64]:
    """``features`` with whatever brightness a sharp-edged patch of light could explain removed.

    The light at a hole (:func:`hole_features`) is a median over its neighbourhood, so a hole
    inside a patch of sunlight whose edge runs close by is compared with mostly shaded gaps and
    looks like a pale peg: on the real photos, five to seven empty intersections per sunny
    photo were read as white stones. But a patch with a straight edge cannot light a hole
    without lighting at least one of the four gaps around it (the hole is the centre of the
    square they span; a half-plane that holds the centre holds a corner). So per channel, a
    hole no brighter than its brightest own gap may be plain board in such light: here its
    brightness above the median light is taken away (only up to that gap's level). A pale peg
    is brighter than all four of its gaps and keeps its features. Darker holes are left alone:
    pegs cast shadows on the gaps beside them, so the darkest gap says nothing.
    No threshold: the reader only compares the two readings (see ``BoardReader.classify``).
    """
    import numpy as np

    lg = _log(gaps).reshape(rows + 1, cols + 1, 3)
    four = np.stack([lg[:-1, :-1], lg[:-1, 1:], lg[1:, :-1], lg[1:, 1:]]).reshape(4, rows * cols, 3)
    lh = _log(holes)
    light = lh - features
    brightest = np.tile(four.max(axis=0), holes.shape[1] // 3)
    return np.asarray(lh - np.maximum(light, np.minimum(lh, brightest)), dtype=np.float64)


def brighter_than_own_gaps(
    holes: NDArray[np.float32], gaps: NDArray[np.float32], rows: int, cols: int
) -> NDArray[np.bool_]:
    """Per hole: brighter than each of its four own gaps in every channel (median colour).

    A patch of light with a straight edge that lights a hole lights at least one of its four
    gaps (see :func:`light_explained`), and under the same light bare board is no brighter at a
    hole than at a gap (a printed line or a cavity only darkens it). So a hole brighter than all
    four of its gaps in every channel cannot be bare board in a patch of light; the light check
    must not doubt it. This is the case of pale pegs side by side: they brighten the gap they
    share, which let the light check "explain" them as empty and made them unsure. No threshold.
    """
    import numpy as np

    lg = gaps.reshape(rows + 1, cols + 1, 3)
    four = np.stack([lg[:-1, :-1], lg[:-1, 1:], lg[1:, :-1], lg[1:, 1:]]).reshape(4, rows * cols, 3)
    middle = holes[:, 3:6] if holes.shape[1] >= 9 else holes[:, :3]
    brighter = (middle > four.max(axis=0)).all(axis=1)
    return np.asarray(brighter & ~glint_peak(middle, gaps, rows, cols), dtype=np.bool_)


def glint_peak(
    middle: NDArray[np.float32], gaps: NDArray[np.float32], rows: int, cols: int
) -> NDArray[np.bool_]:
    """Per hole: could it be the top of a smooth round reflection? In each of the four diagonal
    directions (where the grid goes on) the board falls away from the hole: its own gap is
    darker than the hole and the gap beyond darker still, in every channel, and it falls at
    least as steeply per pitch next to the hole as further out (the gap beyond is twice as far
    from the own gap as the own gap from the hole: the hole's rise is at least half the gap's).

    At the centre of a smooth glint bare board IS brighter than its four gaps, so
    :func:`brighter_than_own_gaps` must not vouch for such a hole (review of issue 13: a glint
    centred on an empty hole was read as a confident pale peg). A pale peg is a sharp disc;
    where pale neighbours light its gaps, those gaps rise far above the board beyond while the
    peg rises only a little above them (the real photos' white stone cluster: 20-35 grey
    levels against 15-112), so it is not taken for a glint.
    """
    import numpy as np

    g = gaps.reshape(rows + 1, cols + 1, 3).astype(np.float64)
    hole = middle.reshape(rows, cols, 3).astype(np.float64)
    padded = np.pad(g, ((1, 1), (1, 1), (0, 0)), constant_values=np.nan)
    peak = np.ones((rows, cols), dtype=np.bool_)
    seen = np.zeros((rows, cols), dtype=np.int64)
    # own gap at (r + a, c + b) for a, b in {0, 1}; the gap beyond it at (r + 3a - 1, c + 3b - 1)
    for a in (0, 1):
        for b in (0, 1):
            own = g[a : a + rows, b : b + cols]
            beyond = padded[3 * a : 3 * a + rows, 3 * b : 3 * b + cols]
            exists = ~np.isnan(beyond[:, :, 0])
            beyond = np.where(exists[:, :, None], beyond, own)
            near, far = hole - own, own - beyond
            falls = (near > 0).all(axis=2) & (far > 0).all(axis=2)
            falls &= near.mean(axis=2) >= far.mean(axis=2) / 2
            peak &= falls | ~exists
            seen += exists
    return np.asarray((peak & (seen > 0)).ravel(), dtype=np.bool_)


PICTURE_REACH_TIMES = 1.5  # grids read by corners: "empty" no farther than this many times ...
PICTURE_REACH_SHARE = 0.99  # ... this share of the picture's holes read empty lie from empty ...
PICTURE_REACH_FLOOR = 1.0  # ... and never closer than one spread (within it, a hole is empty's own)


def beyond_picture_empty(distance: NDArray[np.float64], read_empty: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Holes read empty that lie farther from "empty" than the picture's own empty holes do.

    Grids read by their corners (real photos, median profiles) learn "empty" from one
    calibration photo; in another photo a piece washed out by glare can be nearer to empty than
    to its colour and read empty with confidence (issue 30, failure point 3: a white stone
    under a lamp's hot spot, 1.6 spreads from empty, where 99 % of that photo's empty holes lay
    within 0.7). Judged against the picture itself, it is something the profile does not know:
    unsure. The bound is :data:`PICTURE_REACH_TIMES` the :data:`PICTURE_REACH_SHARE` quantile of
    the distances of the holes read empty, at least :data:`PICTURE_REACH_FLOOR`; with fewer than
    20 holes read empty there is no picture to judge by and nothing is flagged. (The factor was
    chosen on the gobonline photos, where 2 left one of the two readings of that stone empty;
    on Gomrade's webcam set, measured out of sample, it makes no hole unsure.)
    """
    import numpy as np

    if int(read_empty.sum()) < 20:
        return np.zeros(len(distance), dtype=np.bool_)
    bound = max(
        PICTURE_REACH_FLOOR,
        PICTURE_REACH_TIMES * float(np.quantile(distance[read_empty], PICTURE_REACH_SHARE)),
    )
    return np.asarray(read_empty & (distance > bound), dtype=np.bool_)


HALF_WAY = 0.5  # grids read by corners: a colour only from half-way between empty and it on


def short_of_colour(
    features: NDArray[np.float64], means: NDArray[np.float64], best: Sequence[int]
) -> NDArray[np.bool_]:
    """Holes read as a colour (``best`` > 0, an index into ``means``, empty first) that have not
    gone :data:`HALF_WAY` from empty's mean towards that colour's (projected on the line between).

    The classes' spreads decide which is nearer, and a colour learnt from a few pieces of varied
    darkness is wide while bare board is narrow: a stone's shadow on a dark board (gomrade_boards'
    board1 under blue daylight) darkened bare board 0.3-0.5 of the way to black, lay nearer black
    in spreads and was read black with confidence. Something that has not even gone half-way is
    no piece the profile knows: unsure. Half-way is the plain midpoint, not a fitted value; on
    the tuning sets the nearest correct colour reading lay 0.57 of the way."""
    import numpy as np

    idx = np.asarray(best, dtype=np.int64)
    empty = means[0]
    towards = means[idx] - empty
    length = (towards**2).sum(axis=1)
    gone = ((features - empty) * towards).sum(axis=1) / np.maximum(length, 1e-12)
    return np.asarray((idx > 0) & (gone < HALF_WAY), dtype=np.bool_)


def light_at(holes: NDArray[np.float32], features: NDArray[np.float64]) -> NDArray[np.float64]:
    """(n, 3): the light each hole's features were measured against, in grey levels per channel
    (:func:`hole_features`: the features are the hole's log colour less the light's)."""
    import numpy as np

    return np.asarray(np.exp(_log(holes[:, :3]) - features[:, :3]) - LOG_OFFSET, dtype=np.float64)


GLARE_SHARE = 0.08  # additive glare (grey levels) over the light's mean level that counts as glare
GLARE_CHROMA = 0.12  # the board's colour must differ from grey by this much (std / mean) to tell glare
GLARE_CLIPPED = 250  # grey levels: a channel this bright may be saturated and is left out of the fit


def lamp_colour(paper: Sequence[float] | None) -> tuple[float, float, float]:
    """The lamp's colour (BGR, mean 1) from the stickers' white paper as seen (BGR grey levels);
    grey without a usable sample (none, too dark, or clipped in two channels or more). Paper
    clipped in one channel (the red of a warm lamp, often) still says the lamp is warm, if less
    than it is: taken as seen."""
    if paper is None or len(paper) != 3 or min(paper) < 8.0:
        return (1.0, 1.0, 1.0)
    if sum(float(v) >= GLARE_CLIPPED for v in paper) >= 2:
        return (1.0, 1.0, 1.0)
    mean = sum(float(v) for v in paper) / 3.0
    b, g, r = (float(v) / mean for v in paper)
    return (b, g, r)


def glare_features(
    holes: NDArray[np.float32],
    gaps: NDArray[np.float32],
    features: NDArray[np.float64],
    rows: int,
    cols: int,
    lamp: Sequence[float] = (1.0, 1.0, 1.0),
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """``features`` with a lamp's reflection taken out, and per hole whether one was there.

    A reflection on the varnish *adds* light where a lamp or the sun *multiplies* it. Added
    light lifts a dark cavity and the dim channels most, so under a warm lamp an empty hole in
    a reflection no longer looks like a dark cavity in wood but like a flat disc darker in red
    than in blue: on cherry it read as a confident red peg (issue 13, 0.5 % of the holes of
    ``cherry-dome-red-glare``), and a white peg on walnut read as empty. A mirror reflection has
    the colour of the lamp it mirrors (``lamp``, BGR, e.g. :func:`lamp_colour` of the stickers'
    paper): grey only under white light. Fitted as grey, a 2700 K lamp's reflection left most
    of itself in the holes and empty holes on cherry read as confident red (review of the third
    round). The board's own colour is the median of all gaps of this frame; each gap is fitted
    as ``a * board + r * lamp`` per channel (least squares, ``r`` at least 0), a hole's
    reflection is the median of its four gaps', and the features are computed again with
    it taken out of the hole and of every gap. Where the board's colour is nearly the lamp's
    (:data:`GLARE_CHROMA`) the two cannot be told apart and nothing is taken out. The caller
    compares the readings with and without the reflection and reports a hole on which they
    differ as unsure: a reflection can then change a reading to "unsure", never to a peg.
    """
    import numpy as np

    at_hole, strength, found = reflection(holes, gaps, features, rows, cols, lamp)
    if not found.any():
        return np.asarray(features, dtype=np.float64), found
    light = np.asarray(lamp, dtype=np.float64)
    light = light / light.mean()
    g = gaps.reshape(-1, 3).astype(np.float64)
    tiled = np.tile(light, holes.shape[1] // 3)
    clean_holes = np.maximum(holes.astype(np.float64) - at_hole[:, None] * tiled[None, :], 0.0)
    clean_gaps = np.maximum(g - strength[:, None] * light[None, :], 0.0)
    clean = hole_features(clean_holes.astype(np.float32), clean_gaps.astype(np.float32), rows, cols)
    return np.asarray(np.where(found[:, None], clean, features), dtype=np.float64), np.asarray(found)


def reflection(
    holes: NDArray[np.float32],
    gaps: NDArray[np.float32],
    features: NDArray[np.float64],
    rows: int,
    cols: int,
    lamp: Sequence[float] = (1.0, 1.0, 1.0),
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.bool_]]:
    """The lamp's reflection :func:`glare_features` takes out: per hole its strength (grey levels
    of the lamp's colour, mean 1), per gap the same, and per hole whether it counts as there."""
    import numpy as np

    n = rows * cols
    g = gaps.reshape(-1, 3).astype(np.float64)
    light = np.asarray(lamp, dtype=np.float64)
    light = light / light.mean()
    board = np.median(g, axis=0)
    own = board / light  # the board's colour under white light: must differ from the lamp's
    if float(own.std() / max(own.mean(), 1e-6)) < GLARE_CHROMA:
        return np.zeros(n), np.zeros(len(g)), np.zeros(n, dtype=np.bool_)
    c = board / board.mean()
    # saturated channels say nothing about the light (a sunlit gap clipped in red looks as if
    # grey light were added): each gap is fitted on its channels below GLARE_CLIPPED only, and
    # with fewer than two of them nothing can be told there
    w = (g < GLARE_CLIPPED).astype(np.float64)
    s_cc, s_cl, s_ll = w @ (c * c), w @ (c * light), w @ (light * light)
    s_cg, s_lg = (w * g) @ c, (w * g) @ light
    det = s_cc * s_ll - s_cl * s_cl
    # relative to the channels used (c and the lamp have mean 1): a gap fitted on two nearly
    # alike channels tells nothing, whatever the grey levels
    ok = det > (0.5 * GLARE_CHROMA) ** 2 * w.sum(axis=1) ** 2
    strength = np.where(ok, (s_cc * s_lg - s_cl * s_cg) / np.where(ok, det, 1.0), 0.0)
    strength = np.clip(strength, 0.0, 0.9 * (g / light).min(axis=1))
    # where a reflection clips the board's brightest channel, the two left may not tell it from
    # the board (a 2700 K lamp's on cherry: red clipped, blue and green both nearly in the lamp's
    # and the board's ratio) and nothing is measured there; yet a gap clipped where the board is
    # not has light added. There the gap is taken as lit as the board's median and the
    # reflection read from its two unclipped channels; a hole with two such gaps counts as in a
    # reflection (the caller doubts it if the hole is clipped as well). Not with one channel
    # left: a patch of sun (which multiplies) clips two, and was "taken out" as a reflection
    lifted = ((g >= GLARE_CLIPPED) & (board < GLARE_CLIPPED)[None, :]).any(axis=1)
    unknown = lifted & ~ok & (w.sum(axis=1) >= 2)  # with one channel left, sun clipped as well
    above = (w * (g - board[None, :]) / light[None, :]).sum(axis=1) / np.maximum(w.sum(axis=1), 1.0)
    strength = np.where(unknown, np.clip(above, 0.0, 0.9 * (g / light).min(axis=1)), strength)
    grid = strength.reshape(rows + 1, cols + 1)
    # a gap of the outer ring may lie off the board (the table beside an edge hole), and the
    # table is "fitted" as a reflection there: 36 of 100 holes of a board on a grey table were
    # unsure. An outer gap counts no more than the gap next to it inside (a reflection at the
    # edge lights both; the table beside the board only the outer one)
    grid = strength.reshape(rows + 1, cols + 1).copy()
    grid[0], grid[-1] = np.minimum(grid[0], grid[1]), np.minimum(grid[-1], grid[-2])
    grid[:, 0], grid[:, -1] = np.minimum(grid[:, 0], grid[:, 1]), np.minimum(grid[:, -1], grid[:, -2])
    four = np.stack([grid[:-1, :-1], grid[:-1, 1:], grid[1:, :-1], grid[1:, 1:]]).reshape(4, n)
    at_hole = np.median(four, axis=0)  # not the largest: a gap at the edge of a clipped patch of sun
    level = light_at(holes, features)
    found = at_hole * light.mean() > GLARE_SHARE * level.mean(axis=1)
    lifted_grid = unknown.reshape(rows + 1, cols + 1)
    corners = [lifted_grid[:-1, :-1], lifted_grid[:-1, 1:], lifted_grid[1:, :-1], lifted_grid[1:, 1:]]
    found |= np.stack(corners).reshape(4, n).sum(axis=0) >= 2
    return np.asarray(at_hole, dtype=np.float64), np.asarray(strength, dtype=np.float64), np.asarray(found)


DIM_SHARE = 0.69  # log units (a half): a channel whose share of the light fell this much since calibration


def dimmed_channels(gaps: NDArray[np.float32], board: Sequence[float]) -> list[int]:
    """Channels (BGR indexes) whose share of the light fell by more than :data:`DIM_SHARE`
    (half) since calibration: the board's colour now (the median of ``gaps``) against then
    (``board``, BGR grey levels), the change of the mean of the three taken out (a brighter or
    dimmer lamp, the camera's exposure). See ``BoardReader.classify``: what tells a piece from
    the board in such a channel may be gone (a white stone on a yellow board differs from it
    in blue, and an orange lamp has little blue), so a reading that needs it is doubted."""
    import numpy as np

    now = _log(np.median(gaps.reshape(-1, 3), axis=0).astype(np.float32))
    then = _log(np.asarray(board, dtype=np.float32))
    change = now - then
    return [int(c) for c in np.flatnonzero(change - change.mean() < -DIM_SHARE)]


SPECULAR = 1.3  # times as bright as the stickers' white paper would be at a hole: only a glint is


def paper_over_board(
    papers: dict[int, tuple[float, float, float]],
    stickers: dict[int, NDArray[np.float64]],
    gaps: NDArray[np.float32],
    image_from_grid: NDArray[np.float64],
    rows: int,
    cols: int,
) -> NDArray[np.float64] | None:
    """How much brighter white paper is than this board under the same light, per channel (BGR):
    each sticker's paper (``papers``) over the board at the gap just inside the corner hole
    nearest it (``stickers``: their corners in the picture), the median over the stickers. A
    shadow over a sticker, the lamp falling off towards the board's corners or the camera's
    exposure darken paper and board alike and cancel; measured against the board's median
    instead, paper 15 % darker made birch's white pegs glints. Inside the corner hole, not
    outside it: stickers stuck 6-15 mm from the holes covered the outer corner gap with their
    black border or their paper (review of the fifth round). A channel clipped in a sticker's
    paper says nothing of it (infinite: no room above it). None without a sticker."""
    import numpy as np

    from vision.sampling import project

    grid = gaps.reshape(rows + 1, cols + 1, 3).astype(np.float64)
    corners = [(0, 0), (0, cols), (rows, cols), (rows, 0)]  # the outer corner gaps
    where = project(image_from_grid, np.array([[c - 0.5, r - 0.5] for r, c in corners], dtype=np.float64))
    ratios = []
    for marker, paper in papers.items():
        if marker not in stickers:
            continue
        centre = np.asarray(stickers[marker], dtype=np.float64).mean(axis=0)
        r, c = corners[int(np.argmin(np.linalg.norm(where - centre, axis=1)))]
        inside = grid[min(max(r, 1), max(rows - 1, 0)), min(max(c, 1), max(cols - 1, 0))]
        seen = np.asarray(paper, dtype=np.float64)
        ratios.append(np.where(seen < GLARE_CLIPPED, seen / np.maximum(inside, 1.0), np.nan))
    if not ratios:
        return None
    known = np.asarray(ratios)
    counted = (~np.isnan(known)).sum(axis=0)
    # white paper is never darker than the board: where it measures so (a shadow over the stickers
    # alone, paper that is not white) the board's own brightness is the least a glint exceeds
    ratio = np.full(3, np.inf)
    for channel in np.flatnonzero(counted):
        ratio[channel] = max(float(np.median(known[~np.isnan(known[:, channel]), channel])), 1.0)
    return ratio


def glint_free(
    warped: NDArray[np.uint8],
    cells: NDArray[np.intp],
    discs: Sequence[NDArray[np.intp]],
    holes: NDArray[np.float32],
    gaps: NDArray[np.float32],
    features: NDArray[np.float64],
    rows: int,
    cols: int,
    paper: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
    """``features`` with the pixels of a glint left out of the holes' quartiles, which holes had
    one, and which were all glint.

    Nothing diffuse is brighter than white paper under the same light, and a glint on the
    varnish (a small sharp mirror image of the lamp) is, in every channel the picture leaves room
    for: under a 2700 K lamp the paper is about (131, 190, 238) BGR and a glint (255, 255, 255).
    A glint over an empty hole's disc lifted its upper quartile like a white golf tee's head on
    maple and read as a confident white peg. ``paper``: how much brighter white paper is than the
    board (:func:`paper_over_board`); the light a hole can have is its brightest own gap (a
    patch of sun over part of the hole lights one of its four gaps, see :func:`light_explained`;
    with the light of the 4x4 block instead, sunlit board at the patch's edge passed for a
    glint). A pixel :data:`SPECULAR` times brighter than paper would be there, in every channel
    where that stays below :data:`GLARE_CLIPPED` (at least one), is a glint, and so are the
    pixels next to one (its blurred rim). A glossy peg's own highlight is one too: what is left
    of the head still shows its colour. Where the paper is near clipping there is no room, and
    no glint is told. ``warped``: the upright board the samples were taken from, ``cells``: per
    pixel of it the nearest hole (:meth:`~vision.sampling.Sampler.cells`), ``discs``: per disc
    the holes' pixel indexes, in the order of the quartiles in ``holes`` (the head's, then the
    hole's own).
    """
    import cv2
    import numpy as np

    n = len(features)
    grid = gaps.reshape(rows + 1, cols + 1, 3).astype(np.float64)
    four = np.stack([grid[:-1, :-1], grid[:-1, 1:], grid[1:, :-1], grid[1:, 1:]]).reshape(4, n, 3)
    white = SPECULAR * np.asarray(paper, dtype=np.float64)[None, :] * four.max(axis=0)
    room = white < GLARE_CLIPPED
    none = np.zeros(n, dtype=np.bool_)
    if not room.any():
        return np.asarray(features, dtype=np.float64), none, none
    limit = np.where(room, white, np.inf).min(axis=0)  # per channel the lowest bar anywhere
    brightest = [cv2.minMaxLoc(channel)[1] for channel in cv2.split(warped)]  # (numpy's max: 1 ms)
    if not any(b > lim for b, lim, ok in zip(brightest, limit, room.any(axis=0), strict=True) if ok):
        return np.asarray(features, dtype=np.float64), none, none  # no glint anywhere (most frames)
    # over the bar in every channel with room: channels without room pass (bar 0), and a hole
    # with no room at all never does (its bar is 255 everywhere)
    bars = np.where(room, white, 0.0)
    bars[~room.any(axis=1)] = 255.0
    over = cv2.compare(warped, np.take(bars.astype(np.uint8), cells, axis=0), cv2.CMP_GT)
    blue, green, red = cv2.split(over)  # (numpy's all(axis=2): 2 ms)
    glinting = cv2.min(cv2.min(blue, green), red)
    if not cv2.countNonZero(glinting):
        return np.asarray(features, dtype=np.float64), none, none
    mask = cv2.dilate(glinting, np.ones((3, 3), np.uint8)).reshape(-1) > 0
    flags = [mask[index] for index in discs]
    affected = np.zeros(n, dtype=np.bool_)
    for glint in flags:
        affected |= glint.any(axis=1)
    which = np.flatnonzero(affected)
    flat = warped.reshape(-1, 3)
    blank = np.zeros(n, dtype=np.bool_)
    parts = []
    for index, glint in zip(discs, flags, strict=True):
        kept = (~glint[which]).sum(axis=1)
        blank[which] |= kept < np.maximum(3, index.shape[1] // 4)  # (nearly) all glint: nothing to read
        parts.append(quartiles_without(flat[index[which]], glint[which], kept))
    clean = np.array(features, dtype=np.float64)
    light = _log(holes[which]) - features[which]  # per number, the log light it was measured against
    clean[which] = _log(np.concatenate(parts, axis=1).astype(np.float32)) - light
    return clean, affected, blank


def quartiles_without(
    discs: NDArray[np.uint8], left_out: NDArray[np.bool_], kept: NDArray[np.int64]
) -> NDArray[np.float32]:
    """(holes, pixels, 3) -> (holes, 9): the lower quartile, median and upper quartile per channel
    of each disc's pixels but those ``left_out``, as :func:`vision.sampling.disc_quartiles` takes them
    (``kept``: how many are left per disc; at least one)."""
    import numpy as np

    values = np.where(left_out[:, :, None], 1000, discs.astype(np.int16))  # left out sort last
    ordered = np.sort(values, axis=1)
    k = np.maximum(kept, 1)
    marks = np.stack([k // 4, k // 2, (3 * k) // 4], axis=1)  # (holes, 3)
    taken = np.take_along_axis(ordered, marks[:, :, None], axis=1)  # (holes, 3 quartiles, 3 channels)
    return np.asarray(np.minimum(taken, 255).reshape(len(discs), 9), dtype=np.float32)


def gap_noise(gaps: NDArray[np.float32], rows: int, cols: int) -> NDArray[np.float64]:
    """Per channel, how much neighbouring gaps differ in grey levels (robust: 1.4826 times the
    median absolute deviation of the differences, divided by sqrt(2) for one gap's share).

    Gaps are bare board, so this is the picture's own noise (sensor, JPEG, the wood's grain)
    measured on the picture itself: nothing is assumed. See :func:`noise_spread`.
    """
    import numpy as np

    g = gaps.reshape(rows + 1, cols + 1, 3).astype(np.float64)
    steps = np.concatenate([(g[1:] - g[:-1]).reshape(-1, 3), (g[:, 1:] - g[:, :-1]).reshape(-1, 3)])
    mad = np.median(np.abs(steps - np.median(steps, axis=0)), axis=0)
    return np.asarray(1.4826 * mad / np.sqrt(2.0), dtype=np.float64)


def noise_spread(
    holes: NDArray[np.float32], gaps: NDArray[np.float32], rows: int, cols: int
) -> NDArray[np.float64]:
    """(n, 3) extra spread per hole and channel, in log units: the picture's noise
    (:func:`gap_noise`, grey levels) over the level in that channel: the hole's own or the
    median of its four gaps, whichever is brighter.

    A channel that is nearly black carries almost no information: on a board lit by orange
    light the blue channel of the real photo ``laser_empty_board`` sits at 2-25 of 255, where a
    difference of a few grey levels is 0.6 in log units, and empty intersections far from the
    class means in blue were unsure. A log feature's noise is the noise in grey levels divided
    by the level, so the spread is widened by exactly that; bright channels are hardly touched.
    Only where the board itself is dark, though: a peg dark in one channel on a board that is
    bright in it (a yellow peg's blue under warm light) is signal, not noise. Judged against the
    peg's own level, that channel was watered down and a yellow peg read as a confident empty
    hole (review of issue 13); so the level is never below the board's around the hole.
    """
    import numpy as np

    g = gaps.reshape(rows + 1, cols + 1, 3).astype(np.float64)
    four = np.stack([g[:-1, :-1], g[:-1, 1:], g[1:, :-1], g[1:, 1:]]).reshape(4, rows * cols, 3)
    board = np.median(four, axis=0)
    level = np.maximum(holes[:, :3].astype(np.float64), board) + LOG_OFFSET
    return np.asarray(gap_noise(gaps, rows, cols)[None, :] / level, dtype=np.float64)


class GapWatch:
    """Notices something lying over the board by comparing every gap with how it looked before.

    Gaps show the bare board, so a gap that changes while its neighbours do not means a hand, an
    arm or a cup over it. The whole board getting darker or warmer (a lamp, a cloud) moves every
    gap alike and is taken out first (the median change over all gaps). The reference follows
    slow changes of light: a gap that looks normal is blended into it on every still frame, a
    changed one is not, until it has stayed changed and still for :data:`ADOPT_AFTER` frames
    (a lasting shadow, a cup left on the board's edge): then it is the new normal, so a local
    change of light cannot leave holes unsure for ever. Single photos have no "before", so only
    the camera path uses this.
    """

    def __init__(self, rows: int, cols: int, tolerance: float | None = None) -> None:
        self.rows, self.cols = rows, cols
        self.tolerance = GAP_CHANGE if tolerance is None else tolerance
        self.reference: NDArray[np.float64] | None = None
        self._odd_for: NDArray[np.int64] | None = None  # still frames each gap has been changed

    def covered_holes(self, gaps: NDArray[np.float32], still: bool) -> NDArray[np.bool_]:
        import numpy as np

        lg = _log(gaps)
        if self.reference is None or self._odd_for is None or self.reference.shape != lg.shape:
            if still:
                self.reference = lg
                self._odd_for = np.zeros(len(lg), dtype=np.int64)
            return np.zeros(self.rows * self.cols, dtype=np.bool_)
        change = lg - self.reference
        change -= np.median(change, axis=0, keepdims=True)
        odd = np.abs(change).max(axis=1) > self.tolerance
        if still:
            self._odd_for = np.where(odd, self._odd_for + 1, 0)
            adopt = self._odd_for >= ADOPT_AFTER
            blend = np.where(adopt[:, None], lg, 0.8 * self.reference + 0.2 * lg)
            self.reference = np.where(odd[:, None] & ~adopt[:, None], self.reference, blend)
            self._odd_for[adopt] = 0
            odd &= ~adopt
        else:
            self._odd_for[:] = 0
        grid = odd.reshape(self.rows + 1, self.cols + 1)
        holes = grid[:-1, :-1] | grid[:-1, 1:] | grid[1:, :-1] | grid[1:, 1:]
        return np.asarray(holes.ravel(), dtype=np.bool_)


def floors(dims: int) -> NDArray[np.float64]:
    """The smallest spread per feature: :data:`SPREAD_FLOOR`, but :data:`CAVITY_FLOOR` for the
    lower quartile of nine-number features (how dark an empty hole's cavity looks changes with
    focus, glare and exposure far more than the colour of a peg or the board does)."""
    import numpy as np

    low = np.full(dims, SPREAD_FLOOR)
    if dims in (9, 18):
        low[0:3] = CAVITY_FLOOR
    if dims == 18:  # the head's disc and the hole's own disc (a tall peg seen leaning)
        low[9:12] = CAVITY_FLOOR
    return low


def learn_model(letter: str, name: str, features: NDArray[np.float64]) -> ColourModel:
    """A class from examples: their mean, and a spread never below :data:`SPREAD_FLOOR`."""
    import numpy as np

    feats = np.asarray(features, dtype=np.float64)
    feats = feats.reshape(len(feats), -1) if feats.ndim > 1 else feats.reshape(1, -1)
    if len(feats) == 0:
        raise ValueError(f"no examples of {name!r} to learn from")
    mean = feats.mean(axis=0)
    std = feats.std(axis=0) if len(feats) > 1 else np.zeros(feats.shape[1])
    spread = np.sqrt(std**2 + floors(feats.shape[1]) ** 2)
    return ColourModel(
        letter, name, tuple(float(v) for v in mean), tuple(float(v) for v in spread), len(feats)
    )


@dataclass
class Classified:
    """Per hole: the letter (``.``, a colour's letter, or ``?``) and the confidence 0..1."""

    letters: list[str]
    confidence: NDArray[np.float64]
    best_distance: NDArray[np.float64]

    @property
    def unsure(self) -> list[int]:
        return [i for i, letter in enumerate(self.letters) if letter == UNSURE]


class Classifier:
    def __init__(
        self,
        empty: ColourModel,
        colours: Sequence[ColourModel],
        *,
        max_distance: float = MAX_DISTANCE,
        min_confidence: float = MIN_CONFIDENCE,
        empty_holes: Sequence[Sequence[float]] | None = None,
    ) -> None:
        import numpy as np

        # each hole's own look when empty (from the calibration's empty picture): printed
        # numbers, squares and rings differ from hole to hole, but not from game to game
        self.own = np.asarray(empty_holes, dtype=np.float64) if empty_holes else None
        if self.own is not None and self.own.shape[1] != len(empty.mean):
            self.own = None
        self.models = [empty, *colours]
        self.letters = [EMPTY, *(c.letter for c in colours)]
        self.means = np.array([m.mean for m in self.models], dtype=np.float64)
        self.spreads = np.array([m.spread for m in self.models], dtype=np.float64)
        self.max_distance = max_distance
        self.min_confidence = min_confidence
        # per colour, how many times as far as empty a hole must be from it to be read empty
        apart = np.sqrt((((self.means[1:] - self.means[0]) / self.spreads[0]) ** 2).mean(axis=1))
        self.margins = np.maximum(EMPTY_MARGIN, NEAR_EMPTY / np.maximum(apart, 1e-6))
        # between every two classes, how far apart their means lie in their pooled spreads
        pooled = np.sqrt((self.spreads[:, None, :] ** 2 + self.spreads[None, :, :] ** 2) / 2)
        gap = (self.means[:, None, :] - self.means[None, :, :]) / pooled
        self.apart = np.maximum(np.sqrt((gap**2).mean(axis=2)), 1e-6)

    def without(self, channel: int) -> Classifier:
        """A copy that reads the median features (3 numbers) without one channel."""
        import copy

        import numpy as np

        keep = [c for c in range(self.means.shape[1]) if c != channel]
        fewer = copy.copy(self)
        fewer.means = np.asarray(self.means[:, keep], dtype=np.float64)
        fewer.spreads = np.asarray(self.spreads[:, keep], dtype=np.float64)
        fewer.own = None
        return fewer

    def distances(self, features: NDArray[np.float64]) -> NDArray[np.float64]:
        """(n, classes) root-mean-square distance in spreads."""

        return self.distances_and_worst(features)[0]

    def _spreads(self, noise: NDArray[np.float64] | None) -> NDArray[np.float64]:
        """(1 or n, classes, dims): the classes' spreads, widened per hole by ``noise`` (n, dims)."""
        import numpy as np

        if noise is None:
            return np.asarray(self.spreads[None, :, :], dtype=np.float64)
        return np.asarray(np.sqrt(self.spreads[None, :, :] ** 2 + noise[:, None, :] ** 2), dtype=np.float64)

    def distances_and_worst(
        self, features: NDArray[np.float64], noise: NDArray[np.float64] | None = None
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(root mean square, largest single channel) distance in spreads, (n, classes) each.
        ``noise``: per hole and feature an extra spread (:func:`noise_spread`), or None."""
        import numpy as np

        z = np.abs(features[:, None, :] - self.means[None, :, :]) / self._spreads(noise)
        d = np.sqrt((z**2).mean(axis=2))
        worst = z.max(axis=2)
        if self.own is not None and len(features) == len(self.own):
            # the hole's own empty look, brighter or darker as a whole (in a patch of sun, in a
            # hand's shadow): the same shift in every channel and quartile is taken out
            change = features - self.own
            shift = np.clip(np.median(change, axis=1, keepdims=True), -OWN_SHIFT, OWN_SHIFT)
            zo = np.abs(change - shift) / (OWN_SPREAD * floors(features.shape[1]) / SPREAD_FLOOR)
            own, own_worst = np.sqrt((zo**2).mean(axis=1)), zo.max(axis=1)
            nearer = own < d[:, 0]
            d[:, 0] = np.where(nearer, own, d[:, 0])
            worst[:, 0] = np.where(nearer, own_worst, worst[:, 0])
        return np.asarray(d, dtype=np.float64), np.asarray(worst, dtype=np.float64)

    def empty_reach(
        self, best: NDArray[np.int64], distance: NDArray[np.float64], sure: NDArray[np.bool_]
    ) -> float:
        """How far from "empty" a hole of this picture may be and still be read empty.

        "Empty" is the one class known at every hole (each hole's own empty look), and the
        empty holes of one picture lie about equally far from it: far beyond them, and nearer
        to empty than to any colour, is no empty hole but something the profile does not know
        (small red tees on pine, the sampling disc half off the head: 2-3.3 spreads from
        empty, where the empty holes of the same pictures stayed within 0.7, were read as
        confident empty). :data:`EMPTY_REACH` at least, or :data:`EMPTY_REACH_TIMES` the
        picture's median (a blurred or glary picture moves every hole from its look: 1.8).

        The median is over the holes read empty with confidence before this bound (``sure``):
        holes already unsure (under a resting hand, faint pegs) must not widen it. The holes of
        one call are the picture: called with one hole, the bound cannot fire (its median is
        itself), only :data:`EMPTY_MARGIN` can.
        """
        import numpy as np

        read_empty = distance[(best == 0) & sure]
        typical = float(np.median(read_empty)) if len(read_empty) else 0.0
        return max(EMPTY_REACH, EMPTY_REACH_TIMES * typical)

    def classify(
        self, features: NDArray[np.float64], noise: NDArray[np.float64] | None = None, *, reach: bool = True
    ) -> Classified:
        """``noise`` (optional, (n, dims)): per hole an extra spread (a nearly black channel).
        ``reach``: bind "empty" to :meth:`empty_reach` and :data:`EMPTY_MARGIN` (the reading;
        needs at least one colour). The reader's checks read the same holes again with a patch
        of light or a reflection taken out, unbound, so that they doubt as before: bound, the
        light check (which ignores an unsure alternative) would lose doubts, and the reflection
        check (which does not) would gain some that were never measured."""
        import numpy as np

        d, worst = self.distances_and_worst(features, noise)
        dims = features.shape[1]
        log_like = -0.5 * dims * d**2 - np.log(self._spreads(noise)).sum(axis=2)
        log_like -= log_like.max(axis=1, keepdims=True)
        posterior = np.exp(log_like)
        posterior /= posterior.sum(axis=1, keepdims=True)
        best = posterior.argmax(axis=1)
        confidence = posterior[np.arange(len(best)), best]
        best_distance = d[np.arange(len(best)), best]
        # near a class on average but far off in one channel is not that class either (an empty
        # hole in a patch of sun looked like a yellow peg in all but its blue)
        best_worst = worst[np.arange(len(best)), best]
        sure = (confidence >= self.min_confidence) & (best_distance <= self.max_distance)
        if dims > 3:  # the quartile features (guided calibration); medians read as before
            sure &= best_worst <= MAX_CHANNEL
            if reach and d.shape[1] > 1:
                sure &= (best != 0) | (best_distance <= self.empty_reach(best, best_distance, sure))
                # ... and clearly nearer to empty than to any colour: the classes' likelihoods
                # take the quartiles as independent, which they are not, and made a peg half
                # on its disc (blurred 0.19-pitch tees on oak) a confident empty at 1.2-2.0
                # spreads from empty and 1.0-1.3 times as far from its colour
                # spreads. A colour close to empty itself (a white golf tee on maple under a
                # 2700 K lamp: 1.5 spreads from it; the next closest of the unseen boards 2.3)
                # overlaps it, and its faint pegs far from the calibration's were confident
                # empty (1.1 % of one draw's holes): the nearer the colour, the clearer the margin
                sure &= (best != 0) | (d[:, 1:] >= self.margins[None, :] * best_distance[:, None]).all(axis=1)
                # ... and a colour only when clearly nearer than empty: an empty hole on pale birch
                # under a warm lamp's reflection (which has the board's colour there: no reflection
                # check) read as a confident white dome at 1.57 spreads from white and 1.73 from
                # empty, and made false plays
                sure &= (best == 0) | (d[:, 0] >= COLOUR_MARGIN * best_distance)
        if reach and d.shape[1] > 2:
            sure &= (best == 0) | self.past_midway(best, d)
        letters = [
            self.letters[b] if ok else UNSURE for b, ok in zip(best.tolist(), sure.tolist(), strict=True)
        ]
        confidence = np.where(best_distance <= self.max_distance, confidence, 0.0)
        return Classified(letters, confidence, best_distance)

    def past_midway(self, best: NDArray[np.int64], d: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Per hole: whether its colour ``best`` is clearly nearer than every other colour, i.e.
        the hole lies :data:`BEYOND_MIDWAY` spreads past the midway between the two means, along
        the line that joins them: (d_other² − d_best²) / (2 · apart) for distances and apart in
        spreads (root mean square). Two colours close to each other relative to their spreads
        (a blue and a green peg on mahogany in sun, each learnt from one peg, 3.4 spreads apart)
        leave little room: a blue peg elsewhere on the board lay 0.04-0.8 spreads past the
        midway towards green, and was read green with confidence (the posterior, which takes
        the quartiles as independent, is sure of a small difference). Far-apart colours seldom
        meet it: their midway lies near or beyond :data:`MAX_DISTANCE` of both."""
        import numpy as np

        rows = np.arange(len(best))
        nearest = d[rows, best]
        ok = np.ones(len(best), dtype=np.bool_)
        for other in range(1, d.shape[1]):
            offset = (d[:, other] ** 2 - nearest**2) / (2 * self.apart[best, other])
            ok &= (best == other) | (offset >= BEYOND_MIDWAY)
        return ok


def find_pegs(features: NDArray[np.float64], empty: ColourModel, min_distance: float = 6.0) -> list[int]:
    """Holes that clearly do not look empty: where calibration finds the pegs just placed.

    A hole counts when it is more than ``min_distance`` spreads from "empty" in *any one*
    channel, not on average: a white peg on a yellow board differs almost only in blue, and a
    root mean square over the three channels diluted that to "not a peg" (the white stone of
    the real photo ``few_stones_overhead`` was 9.3 spreads off in blue but 5.8 on average).
    Six spreads in one channel is still far beyond sensor noise.
    """
    import numpy as np

    z = np.abs(features - np.asarray(empty.mean)[None, :]) / np.asarray(empty.spread)[None, :]
    return [int(i) for i in np.flatnonzero(z.max(axis=1) > min_distance)]
