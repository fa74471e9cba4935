"""The point net adapted at calibration: its own last layer (``point_net.fit_head``), read only
under the calibration's light and for the model it was fitted for (issue 30: a lamp change after
calibration must not be read by a layer fitted under the old lamp)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

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


def test_a_picture_without_one_class_keeps_the_shipped_layer() -> None:
    """Fitted on a picture without light pieces, the layer would only learn to push "light" down
    (an outside review measured white stones' p(light) falling from 0.999 to 0.78): the shipped
    layer stays, and the same picture with every class gets its own."""
    from vision.net_calibration import with_net_head

    image, corners, letters, profile = _calibrated(0)
    read = read_image(relight(image, LAMPS["white"]), profile, corners=corners)
    assert read.net_logits is not None and read.net_hidden is not None
    bare = dataclasses.replace(profile, net_head=None)
    assert with_net_head(bare, read.net_logits, read.net_hidden, letters).net_head is not None
    no_white = ["." if letter == "W" else letter for letter in letters]
    assert "W" in letters
    assert with_net_head(profile, read.net_logits, read.net_hidden, no_white).net_head is None


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


def test_recalibrating_under_another_lamp_gates_the_own_layer_by_the_new_light(tmp_path: Path) -> None:
    """``vision calibrate --reader net --profile OLD`` under a new lamp: the layer fitted under the
    new lamp is read under it, not under the earlier profile's light (the board's colour was kept
    from OLD, so the layer read under the lamp it never saw and not under its own)."""
    import cv2

    from app.cli import main

    image, corners, letters = draw(np.random.default_rng(0))
    rows = tmp_path / "rows.txt"
    rows.write_text("\n".join("".join(letters[r * 19 : (r + 1) * 19]) for r in range(19)) + "\n")
    grid = ["--grid", "19x19", "--corners", " ".join(f"{x:.0f},{y:.0f}" for x, y in corners)]
    pictures = {}
    for lamp in ("white", "blue"):
        pictures[lamp] = relight(image, LAMPS[lamp])
        cv2.imwrite(str(tmp_path / f"{lamp}.png"), pictures[lamp])
    first, again = tmp_path / "white.json", tmp_path / "again.json"
    common = ["vision", "calibrate", "--reader", "net", "--letters", "B=black,W=white", *grid]
    assert main([*common, "--labelled", f"{tmp_path / 'white.png'}={rows}", "--out", str(first)]) == 0
    assert (
        main(
            [
                *common,
                "--profile",
                str(first),
                "--labelled",
                f"{tmp_path / 'blue.png'}={rows}",
                "--out",
                str(again),
            ]
        )
        == 0
    )
    # the layer was fitted under blue: read under blue, not under the earlier profile's white
    from vision.profile import load_profile

    assert _own_head_used(pictures["blue"], corners, load_profile(again))
    assert not _own_head_used(pictures["white"], corners, load_profile(again))


def test_an_integer_too_large_for_a_float_is_one_line_naming_the_field() -> None:
    """A hand-edited number of hundreds of digits: no float holds it (was an OverflowError
    traceback naming neither file nor field)."""
    profile = BoardProfile(rows=9, cols=9, picture_corners=((0, 0), (80, 0), (80, 80), (0, 80)))
    data = dataclasses.replace(profile, net_bias=0.5).to_json()
    data["point_net"]["head"] = {"model": "x", "weights": [[10**400]] * 3, "bias": [0, 0, 0]}
    with pytest.raises(ProfileError, match=r"point_net\.head\.weights\[0\]"):
        profile_from_json(data, "p.json")
    data["point_net"] = {"bias": 10**400}
    with pytest.raises(ProfileError, match=r"point_net\.bias"):
        profile_from_json(data, "p.json")
