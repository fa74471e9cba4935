"""A lamp of another colour after calibration (issue 30: the held-out goban-watcher photos read
hundreds of points wrong when the lamp's colour changed). Reproduced on a drawn Go board
(``benchmarks/go_render.py``) relit by ``benchmarks/vision_lamps.relight``: calibrated under white
light and read under an orange lamp, white stones on the yellow board read empty with confidence
(75 of 361 points before the board's colour was kept in the profile)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from benchmarks.go_render import draw
from benchmarks.vision_lamps import LAMPS, _calibrate, relight
from vision.classify import dimmed_channels
from vision.groundtruth import score
from vision.profile import BoardProfile, ProfileError, profile_from_json
from vision.reader import read_image


@dataclasses.dataclass
class _Truth:
    corners: list[tuple[float, float]]
    letters: list[str]
    size: tuple[int, int] = (19, 19)


@pytest.fixture(scope="module")
def drawn() -> tuple[np.ndarray, _Truth, BoardProfile]:
    image, corners, letters = draw(np.random.default_rng(0))
    truth = _Truth(corners, letters)
    return image, truth, _calibrate(relight(image, LAMPS["white"]), truth)


def test_relight_dims_the_lamps_weak_channel_and_keeps_the_picture() -> None:
    grey = np.full((40, 40, 3), 128, np.uint8)
    orange = relight(grey, LAMPS["orange"])
    assert orange.shape == grey.shape and orange.dtype == np.uint8
    b, g, r = orange.reshape(-1, 3).mean(axis=0)
    assert b < g < r
    assert np.abs(relight(grey, LAMPS["white"]).astype(int) - 128).max() <= 4  # flare and JPEG only


def test_dimmed_channels_are_those_whose_share_of_the_light_fell_by_half() -> None:
    board = (60.0, 150.0, 200.0)
    gaps = np.tile(np.array(board, np.float32), (400, 1))
    assert dimmed_channels(gaps, board) == []
    assert dimmed_channels(gaps * 0.4, board) == []  # a dimmer lamp, all channels alike
    assert dimmed_channels(gaps * np.array([0.2, 1.0, 1.0], np.float32), board) == [0]


def test_calibration_keeps_the_boards_colour_and_the_profile_round_trips(drawn) -> None:  # type: ignore[no-untyped-def]
    profile = drawn[2]
    assert profile.board is not None and all(0 < v < 255 for v in profile.board)
    again = profile_from_json(profile.to_json())
    assert again.board == pytest.approx(profile.board, abs=0.01)
    data = profile.to_json()
    data["board"] = [1, 2]
    with pytest.raises(ProfileError, match="board"):
        profile_from_json(data)
    data["board"] = [1, 2, 300]
    with pytest.raises(ProfileError, match="board"):
        profile_from_json(data)


@pytest.mark.parametrize("lamp", ["orange", "yellow"])
def test_a_lamp_that_dims_a_channel_leaves_no_confident_error(drawn, lamp: str) -> None:  # type: ignore[no-untyped-def]
    image, truth, profile = drawn
    got = read_image(relight(image, LAMPS[lamp]), profile, corners=truth.corners)
    s = score(got.letters, truth.letters, 19)
    assert len(s.wrong) == 0, s.wrong


def test_under_the_calibrations_lamp_the_board_colour_changes_nothing(drawn) -> None:  # type: ignore[no-untyped-def]
    image, truth, profile = drawn
    picture = relight(image, LAMPS["white"])
    with_board = read_image(picture, profile, corners=truth.corners).letters
    without = read_image(picture, dataclasses.replace(profile, board=None), corners=truth.corners).letters
    assert with_board == without
