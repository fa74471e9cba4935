"""The label-checking overlays put every label where the photo's grid point is (no reader involved)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.label_overlays import best_match, grid_points, rectify, write_set
from vision.groundtruth import GroundTruth


def _truth(corners: tuple[tuple[float, float], ...], rows: list[str]) -> GroundTruth:
    tl, tr, br, bl = corners
    return GroundTruth("photo.png", (tl, tr, br, bl), rows)


def test_grid_points_follow_the_labelled_corners() -> None:
    truth = _truth(((100, 50), (280, 50), (280, 230), (100, 230)), ["." * 19] * 19)
    points = grid_points(truth)
    assert points.shape == (19, 19, 2)
    assert points[4, 7] == pytest.approx((100 + 10 * 7, 50 + 10 * 4), abs=1e-3)
    assert points[18, 18] == pytest.approx((280, 230), abs=1e-3)


def test_rectified_view_puts_a_point_at_its_row_and_column() -> None:
    """A dot drawn on grid point (4, 7) of a board seen at a slant lands on row 4, column 7."""
    truth = _truth(((120, 80), (420, 60), (470, 330), (90, 360)), ["." * 9] * 9)
    image = np.zeros((420, 560, 3), np.uint8)
    x, y = grid_points(truth)[4, 7]
    cv2.circle(image, (round(float(x)), round(float(y))), 4, (255, 255, 255), -1)
    view = cv2.cvtColor(rectify(image, truth, 20), cv2.COLOR_BGR2GRAY)
    ys, xs = np.nonzero(view > 128)
    assert (xs.mean(), ys.mean()) == pytest.approx((1.5 * 20 + 7 * 20, 1.5 * 20 + 4 * 20), abs=1.5)


def test_best_match_finds_the_turned_board_and_what_changed() -> None:
    first = ["B....", ".W...", "..B..", "...W.", "....."]
    turned = [list(row) for row in np.rot90(np.array([list(r) for r in first]), 1)]
    turned[2][2] = "W"  # the centre stone changes colour
    turned[4][4] = "B"  # and one stone is added
    match = best_match(first, ["".join(row) for row in turned])
    assert (match.turns, match.mirrored) == (1, False)
    assert match.kept == 3
    assert match.recoloured == [(2, 2)]
    assert match.added == [(4, 4)]
    assert match.removed == []


def test_a_missing_photo_is_named_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truth = _truth(((0, 0), (80, 0), (80, 80), (0, 80)), ["." * 9] * 9)
    write_set("someset", [truth], tmp_path / "nowhere", tmp_path)
    out = capsys.readouterr().out
    assert "someset:" in out and "photo.png" in out and "skipped" in out
    assert list(tmp_path.glob("*.png")) == []
