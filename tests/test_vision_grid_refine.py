"""Rough taps refined onto a board's printed grid (``vision/grid_refine.py``, issue 30 point 6)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.vision_grid_refine import grid_error, tapped
from vision.grid_refine import GridNotFound, refine_corners
from vision.sampling import hole_grid_points, homography_from_corners, project

TRUE = [(212.0, 141.0), (1071.0, 170.0), (1163.0, 893.0), (118.0, 861.0)]  # a 19x19 seen obliquely


def go_board(stones: int = 40, seed: int = 0) -> np.ndarray:
    """A pale wooden board with its 19x19 printed lines, and stones drawn a third of a pitch
    above their points (tall pieces seen at an angle), in a 1280x960 picture."""
    rng = np.random.default_rng(seed)
    img = np.full((960, 1280, 3), (60, 70, 80), np.uint8)
    h = homography_from_corners(TRUE, 19, 19)
    outline = project(h, np.array([[-0.7, -0.7], [18.7, -0.7], [18.7, 18.7], [-0.7, 18.7]]))
    cv2.fillConvexPoly(img, outline.astype(np.int32), (150, 190, 215))
    for k in range(19):
        for a, b in (((k, 0), (k, 18)), ((0, k), (18, k))):
            p, q = project(h, np.array([a, b], dtype=np.float64))
            cv2.line(
                img, (round(p[0]), round(p[1])), (round(q[0]), round(q[1])), (40, 45, 50), 2, cv2.LINE_AA
            )
    for hole in rng.choice(361, size=stones, replace=False):
        x, y = project(h, np.array([[hole % 19, hole // 19 - 0.33]], dtype=np.float64))[0]
        colour = (20, 20, 20) if hole % 2 else (235, 235, 230)
        cv2.circle(img, (round(x), round(y)), 20, colour, -1, cv2.LINE_AA)
    noise = rng.normal(0, 4, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(4))
def test_taps_a_third_of_a_pitch_off_are_moved_onto_the_printed_grid(seed: int) -> None:
    image = go_board(seed=seed)
    taps = tapped(TRUE, 19, 19, 0.35, np.random.default_rng(seed))
    assert grid_error(taps, TRUE, 19, 19) > 0.2
    refined = refine_corners(image, taps, 19, 19)
    assert grid_error(refined, TRUE, 19, 19) < 0.1


def test_stones_seen_beside_their_points_do_not_pull_the_grid() -> None:
    """Lines are printed under the pieces: many tall stones a third of a pitch off their points
    leave the refined grid on the lines, not on the stones."""
    refined = refine_corners(go_board(stones=150, seed=9), TRUE, 19, 19)
    assert grid_error(refined, TRUE, 19, 19) < 0.1


def test_a_picture_without_printed_lines_is_refused_saying_what_to_do() -> None:
    blank = np.full((960, 1280, 3), (150, 190, 215), np.uint8)
    with pytest.raises(
        GridNotFound, match=r"printed lines were not found .* tap the four outer corner points again"
    ):
        refine_corners(blank, TRUE, 19, 19)


def test_three_corners_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="four corner points needed, got 3"):
        refine_corners(go_board(stones=0), TRUE[:3], 19, 19)


def test_grid_error_is_in_pitches_of_the_true_grid() -> None:
    pitch = np.linalg.norm(np.subtract(TRUE[1], TRUE[0])) / 18
    moved = [(x + 0.5 * pitch, y) for x, y in TRUE]
    assert grid_error(moved, TRUE, 19, 19) == pytest.approx(0.5, abs=0.05)
    assert len(hole_grid_points(19, 19)) == 361


@pytest.mark.parametrize(("du", "dv"), [(0, 1), (1, 0), (-1, 0), (0, -1), (1, 1)])
def test_taps_a_whole_line_off_are_moved_back_by_the_board_s_outer_lines(du: int, dv: int) -> None:
    """Every intersection of a grid one line off still finds a line; the outer lines tell: the
    grid's last line has bare board where it should be printed, the one beyond its first is
    printed. (Without this check the refined grid stayed one line off.)"""
    h = homography_from_corners(TRUE, 19, 19)
    off = project(h, np.array([[du, dv], [18 + du, dv], [18 + du, 18 + dv], [du, 18 + dv]], dtype=np.float64))
    taps = [(float(x), float(y)) for x, y in off]
    assert grid_error(taps, TRUE, 19, 19) > 1.0
    assert grid_error(refine_corners(go_board(seed=3), taps, 19, 19), TRUE, 19, 19) < 0.1
