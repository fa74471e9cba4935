"""The unguided learner (``vision.calibration.learn_colour``, issue 30's failure points 1 and 2).

It finds a colour's pegs itself as the holes of a picture that stop looking empty; the real-photo
benchmark calibrates every set this way. The pictures here are hole features drawn at random
around known looks (log colour per channel), so each condition is exact and quick to state:

1. pieces close to the board's colour (white stones on pale wood, black discs on dark green
   felt: 4.4-6.0 spreads from empty on real photos) were refused, since only holes beyond
   PEG_FOUND (6) spreads counted;
2. on a crowded board a few empty holes that also stop looking empty (a lamp's hot spot) were
   learnt as the first colour and widened it until the second colour "looked like" it.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import learn_colour, learn_empty, new_pegs
from vision.profile import BoardProfile, ProfileError

HOLES = 361  # a 19x19 Go board
NOISE = 0.07  # log units per channel, as the empty holes of a webcam's picture scatter


def _empty_board(seed: int) -> tuple[BoardProfile, np.random.Generator]:
    rng = np.random.default_rng(seed)
    profile = learn_empty(BoardProfile(rows=19, cols=19), [rng.normal(0.0, NOISE, (HOLES, 3))])
    return profile, rng


def _picture(rng: np.random.Generator, pegs: dict[int, tuple[float, float, float]]) -> np.ndarray:
    shot = rng.normal(0.0, NOISE, (HOLES, 3))
    for hole, look in pegs.items():
        shot[hole] = np.asarray(look) + rng.normal(0.0, 0.02, 3)
    return shot


def _spreads(profile: BoardProfile, blue: float, green: float, red: float) -> tuple[float, float, float]:
    """A look given in spreads of "empty" per channel."""
    assert profile.empty is not None
    mean, spread = np.asarray(profile.empty.mean), np.asarray(profile.empty.spread)
    return tuple(float(v) for v in mean + spread * np.array([blue, green, red]))  # type: ignore[return-value]


@pytest.mark.parametrize("seed", range(5))
def test_white_stones_close_to_pale_wood_are_found_and_learnt(seed: int) -> None:
    """Failure point 1: whites 4.5-5.5 spreads from empty (no hole beyond 6) were refused with
    "no peg of colour 'white' was seen"; they stand clearly apart from the picture's empty
    holes (at most about 3 spreads), so they are the new pegs."""
    profile, rng = _empty_board(seed)
    holes = [40, 100, 180, 222, 300]
    whites = {h: _spreads(profile, 4.5 + 0.25 * k, 2.0, 1.0) for k, h in enumerate(holes)}
    learnt, used = learn_colour(profile, "W", "white", [_picture(rng, whites)])
    assert used == holes
    assert [c.letter for c in learnt.colours] == ["W"]


@pytest.mark.parametrize("seed", range(5))
def test_black_discs_a_little_darker_than_dark_felt_are_found(seed: int) -> None:
    """The same on dark green felt: black discs only 4.4-5.6 spreads darker than the felt."""
    profile, rng = _empty_board(seed)
    blacks = {h: _spreads(profile, -4.4 - 0.3 * k, -4.6, -4.0) for k, h in enumerate((20, 60, 95, 140, 333))}
    _learnt, used = learn_colour(profile, "B", "black", [_picture(rng, blacks)])
    assert used == [20, 60, 95, 140, 333]


@pytest.mark.parametrize("seed", range(5))
def test_a_picture_without_a_new_peg_is_still_refused_saying_how_near_the_nearest_came(seed: int) -> None:
    profile, rng = _empty_board(seed)
    with pytest.raises(
        ProfileError, match=r"no peg of colour 'white' was seen: .* spreads from it \(6 needed"
    ):
        learn_colour(profile, "W", "white", [_picture(rng, {})])


def test_a_patch_of_light_is_too_many_holes_to_be_new_pegs() -> None:
    """A lamp brightening a quarter of the board by 5 spreads is no set of faint pegs."""
    profile, rng = _empty_board(7)
    patch = {h: _spreads(profile, 5.0, 5.0, 5.0) for h in range(0, HOLES, 4)}
    assert new_pegs(_picture(rng, patch), profile.empty) == []  # type: ignore[arg-type]


def test_faint_holes_differing_from_the_board_both_ways_are_no_one_colour() -> None:
    """Two faint holes, one brighter and one darker than the board: no single colour's pegs."""
    profile, rng = _empty_board(8)
    both = {10: _spreads(profile, 5.0, 1.0, 1.0), 200: _spreads(profile, -5.0, -1.0, -1.0)}
    assert new_pegs(_picture(rng, both), profile.empty) == []  # type: ignore[arg-type]


def test_clear_pegs_are_found_as_before_however_many_faint_holes_there_are() -> None:
    profile, rng = _empty_board(9)
    pegs = {5: _spreads(profile, 9.0, 3.0, 1.0), 6: _spreads(profile, 4.5, 1.0, 1.0)}
    assert new_pegs(_picture(rng, pegs), profile.empty) == [5]  # type: ignore[arg-type]


def test_a_few_hot_spots_learnt_with_many_black_stones_do_not_make_white_look_black() -> None:
    """Failure point 2: black is learnt first from a crowded 19x19 (40 stones) on which six
    empty holes lie in a warm lamp's hot spot (far from empty too, so taken as "new pegs").
    With their mean and standard deviation those six made black so wide that every white
    stone read as black and white was refused ("the pegs in view look like black"). Judged
    by the majority of its examples, black leaves the hot spots out, and white is learnt."""
    profile, rng = _empty_board(11)
    black_holes = list(range(0, 160, 4))
    hot = list(range(300, 306))
    white_holes = list(range(161, 240, 4))
    warm = (0.3, 0.9, 1.1)  # blue, green, red (log): a warm lamp's reflection on bare wood
    black_shot = _picture(rng, {**{h: (-1.5, -1.6, -1.7) for h in black_holes}, **{h: warm for h in hot}})
    profile, used = learn_colour(profile, "B", "black", [black_shot])
    assert set(used) == set(black_holes) | set(hot)  # found (they stop looking empty) ...
    black = profile.colours[0]
    assert max(black.spread) < 0.15, black.spread  # ... but not learnt as black
    white_shot = _picture(rng, {**{h: (0.7, 0.45, 0.3) for h in white_holes}, **{h: warm for h in hot}})
    profile, used = learn_colour(profile, "W", "white", [white_shot])
    assert set(white_holes) <= set(used)
    assert [c.letter for c in profile.colours] == ["B", "W"]


def test_a_hole_read_empty_far_beyond_the_picture_s_own_empty_holes_is_flagged() -> None:
    """``beyond_picture_empty`` (failure point 3): the bound is 1.5 times the 99th percentile of
    the distances of the holes read empty, at least one spread; pieces are not judged by it."""
    from vision.classify import beyond_picture_empty

    rng = np.random.default_rng(3)
    distance = np.abs(rng.normal(0.2, 0.15, HOLES))
    distance[[5, 6]] = [1.6, 0.9]  # a washed-out piece; an ordinary outlier within one spread
    read_empty = np.ones(HOLES, dtype=bool)
    read_empty[7] = False
    distance[7] = 9.0  # a piece read as its colour: not judged here
    flagged = np.flatnonzero(beyond_picture_empty(distance, read_empty)).tolist()
    assert flagged == [5]
    quiet = np.full(HOLES, 0.05)
    quiet[9] = 0.5  # a picture whose empty holes are all tight: within one spread is still empty
    assert not beyond_picture_empty(quiet, np.ones(HOLES, dtype=bool)).any()
    assert not beyond_picture_empty(distance[:15], read_empty[:15]).any()  # too few to judge by
