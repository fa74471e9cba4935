"""The point net adapted at calibration: its own last layer (``point_net.fit_head``), read only
under the calibration's light and for the model it was fitted for (issue 30: a lamp change after
calibration must not be read by a layer fitted under the old lamp)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from benchmarks.go_render import draw
from benchmarks.vision_lamps import LAMPS, relight
from vision import point_net
from vision.groundtruth import score
from vision.net_calibration import calibrate_picture
from vision.point_net import fit_head, light_changed
from vision.profile import BoardProfile, NetHead, ProfileError, profile_from_json
from vision.reader import BoardReader, read_image
from vision.sampling import homography_from_corners

NAMES = {"B": "black", "W": "white"}


def _toy(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hidden features that tell the classes apart, and logits that ignore them (a net that
    misjudges this board): what the calibration's own layer must fix."""
    rng = np.random.default_rng(seed)
    classes = rng.integers(0, 3, 300)
    hidden = np.maximum(rng.normal(0, 1, (300, 32)), 0).astype(np.float32)
    hidden[np.arange(300), classes] += 3.0
    logits = rng.normal(0, 1, (300, 3)).astype(np.float32)
    return logits, hidden, classes


def test_the_own_last_layer_fits_the_calibrations_classes() -> None:
    logits, hidden, classes = _toy(1)
    before = float((logits.argmax(axis=1) == classes).mean())
    weights, bias = fit_head(logits, hidden, classes)
    after = logits + hidden @ weights.T + bias
    assert before < 0.5
    assert float((after.argmax(axis=1) == classes).mean()) > 0.95


def test_the_pull_keeps_the_own_layer_near_the_shipped_one() -> None:
    logits, hidden, classes = _toy(2)
    loose = fit_head(logits, hidden, classes, pull=0.03)
    tight = fit_head(logits, hidden, classes, pull=1000.0)
    assert np.abs(tight[0]).max() < 0.01 < np.abs(loose[0]).max()


def test_non_finite_outputs_are_refused() -> None:
    logits, hidden, classes = _toy(3)
    hidden[0, 0] = np.nan
    with pytest.raises(point_net.PointNetError, match="non-finite"):
        fit_head(logits, hidden, classes)


def test_a_lamp_of_another_colour_is_told_from_a_brighter_one() -> None:
    board = (80.0, 150.0, 200.0)
    gaps = np.tile(np.array(board, np.float32), (50, 1))
    assert not light_changed(gaps, board)
    assert not light_changed(gaps * 1.8, board)  # brighter, same colour
    assert light_changed(gaps * np.array([1.0, 1.0, 0.4], np.float32), board)  # less red


def _calibrated(seed: int) -> tuple[np.ndarray, list[tuple[float, float]], list[str], BoardProfile]:
    image, corners, letters = draw(np.random.default_rng(seed))
    profile = calibrate_picture(
        relight(image, LAMPS["white"]), corners, BoardProfile(rows=19, cols=19), letters, NAMES, net=True
    )
    return image, corners, letters, profile


def _own_head_used(picture: np.ndarray, corners: list[tuple[float, float]], profile: BoardProfile) -> bool:
    reader = BoardReader(profile, corners=corners, still_frames=1)
    samples = reader.sampler.sample(picture, homography_from_corners(corners, 19, 19))
    logits = reader.net_logits(samples)
    assert reader.net is not None
    fingerprint = reader.net.fingerprint
    own, bias = point_net.own_logits(logits, reader.last_hidden, profile, fingerprint, samples.gaps)
    return bias == 0.0 and not np.allclose(own, logits)


def test_the_calibration_keeps_its_own_layer_for_the_shipped_model() -> None:
    _image, _corners, _letters, profile = _calibrated(0)
    assert profile.net_head is not None
    assert profile.net_head.model == point_net.default_net().fingerprint
    assert len(profile.net_head.weights) == 3


def test_the_own_layer_reads_under_the_calibrations_light_and_not_under_another_lamp() -> None:
    image, corners, _letters, profile = _calibrated(0)
    assert _own_head_used(relight(image, LAMPS["white"]), corners, profile)
    for lamp in ("blue", "orange", "cyan"):
        assert not _own_head_used(relight(image, LAMPS[lamp]), corners, profile), lamp


def test_a_layer_fitted_for_another_model_is_ignored() -> None:
    image, corners, _letters, profile = _calibrated(0)
    assert profile.net_head is not None
    other = dataclasses.replace(profile, net_head=dataclasses.replace(profile.net_head, model="0" * 16))
    picture = relight(image, LAMPS["white"])
    assert not _own_head_used(picture, corners, other)
    bias_only = dataclasses.replace(profile, net_head=None)
    read = read_image(picture, other, corners=corners).letters
    assert read == read_image(picture, bias_only, corners=corners).letters


def test_the_own_layer_reads_its_calibration_light_at_least_as_well_as_the_bias_alone() -> None:
    image, corners, letters, profile = _calibrated(1)
    picture = relight(image, LAMPS["white"])
    own = score(read_image(picture, profile, corners=corners).letters, letters, 19)
    bias_only = score(
        read_image(picture, dataclasses.replace(profile, net_head=None), corners=corners).letters, letters, 19
    )
    assert len(own.wrong) <= len(bias_only.wrong)
    assert len(own.wrong) + len(own.unsure) <= len(bias_only.wrong) + len(bias_only.unsure)


def _profile_json(head: object) -> dict[str, object]:
    profile = dataclasses.replace(
        BoardProfile(rows=9, cols=9, picture_corners=((0, 0), (80, 0), (80, 80), (0, 80))), net_bias=0.5
    )
    data = json.loads(json.dumps(profile.to_json()))
    data["point_net"]["head"] = head
    return data


def test_the_profile_keeps_the_own_layer() -> None:
    head = NetHead("ab" * 8, ((0.5,) * 4, (0.0,) * 4, (-1.25,) * 4), (0.1, 0.2, 0.3))
    data = _profile_json(head.to_json())
    assert profile_from_json(data).net_head == head


@pytest.mark.parametrize(
    ("head", "field"),
    [
        ({"weights": [[0.0]] * 3, "bias": [0, 0, 0]}, "point_net.head"),
        ({"model": "x", "weights": [[0.0]] * 2, "bias": [0, 0, 0]}, "point_net.head.weights"),
        ({"model": "x", "weights": [[0.0], [0.0, 1.0], [0.0]], "bias": [0, 0, 0]}, "point_net.head.weights"),
        ({"model": "x", "weights": [[0.0]] * 3, "bias": [0, 0]}, "point_net.head.bias"),
        ({"model": "x", "weights": [[float("nan")]] * 3, "bias": [0, 0, 0]}, "point_net.head"),
        ({"model": "x", "weights": [[0.0]] * 3, "bias": [0, 1e9, 0]}, "point_net.head"),
        ({"model": "x", "weights": [["a"]] * 3, "bias": [0, 0, 0]}, "point_net.head.weights"),
    ],
)
def test_a_damaged_own_layer_is_refused_naming_the_field(head: object, field: str) -> None:
    with pytest.raises(ProfileError, match=field.replace(".", r"\.")):
        profile_from_json(_profile_json(head))
