"""Two colours close to each other relative to their spreads: a point between them is unsure.

The case is issue 30's false play: ``benchmarks/vision_unseen.py --pictures 16 --clips 2
--seed-offset 12500 --setups mahogany-flat-small-sun`` (setup seed 12604) calibrated blue and
green from one peg each, 3.4 spreads apart, and blue pegs elsewhere on the board lay near the
midway between the two models; the reader read 7 of them green with confidence, one of which
became a false play. The models and two of those pegs' features (18 quartile numbers) are copied
here from that run, so the test needs no renderer.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import BEYOND_MIDWAY, Classifier
from vision.profile import UNSURE, ColourModel

NAMES = {".": "empty", "R": "red", "B": "blue", "G": "green", "Y": "yellow"}

# per class: mean, then spread (18 numbers each)
MODEL_TEXT = {
    ".": (
        "-1.6141 -1.2902 -1.1115 -0.9025 -0.7869 -0.6895 -0.3188 -0.321 -0.3204 -1.6141 -1.2902 "
        "-1.1115 -0.9452 -0.8051 -0.7025 -0.501 -0.4501 -0.4201",
        "0.3389 0.1674 0.1638 0.1186 0.0902 0.0816 0.1644 0.1326 0.1233 0.3389 0.1674 0.1638 0.1149 "
        "0.086 0.0811 0.09 0.0777 0.0799",
    ),
    "R": (
        "-0.1929 -0.5798 0.2839 -0.1112 -0.4888 0.3955 -0.0177 -0.4055 0.4635 -0.5167 -0.7911 0.0509 "
        "-0.1719 -0.5563 0.3333 -0.0728 -0.4463 0.4445",
        "0.2225 0.2002 0.1942 0.1787 0.15 0.1418 0.1787 0.15 0.1418 0.2225 0.2002 0.1942 0.1787 0.15 "
        "0.1418 0.1787 0.15 0.1418",
    ),
    "B": (
        "1.4623 0.8358 -0.7197 1.4943 0.919 -0.6174 1.5099 0.9808 -0.4514 1.3686 0.6242 -0.7352 "
        "1.4744 0.881 -0.6456 1.5099 0.9657 -0.5121",
        "0.2225 0.2002 0.1942 0.1787 0.15 0.1418 0.1787 0.15 0.1418 0.2225 0.2002 0.1942 0.1787 0.15 "
        "0.1418 0.1787 0.15 0.1418",
    ),
    "G": (
        "0.3646 0.7538 -0.9163 0.392 0.804 -0.8531 0.4318 0.8845 -0.7937 0.3646 0.7538 -0.9163 0.392 "
        "0.804 -0.8531 0.4318 0.8845 -0.7937",
        "0.2225 0.2002 0.1942 0.1787 0.15 0.1418 0.1787 0.15 0.1418 0.2225 0.2002 0.1942 0.1787 0.15 "
        "0.1418 0.1787 0.15 0.1418",
    ),
    "Y": (
        "-0.0643 1.1253 0.5889 0.041 1.1511 0.6088 0.1721 1.196 0.633 -0.0643 1.1253 0.5889 0.041 "
        "1.1511 0.6088 0.1721 1.196 0.633",
        "0.2225 0.2002 0.1942 0.1787 0.15 0.1418 0.1787 0.15 0.1418 0.2225 0.2002 0.1942 0.1787 0.15 "
        "0.1418 0.1787 0.15 0.1418",
    ),
}
# two blue pegs of that draw's pictures (the 4th picture, hole 51; the 8th, hole 17)
BLUE_PEG_TEXT = (
    "1.0865 0.3452 -1.2384 1.1185 0.3878 -1.1583 1.1341 0.4286 -0.9889 1.0061 0.1691 -1.2897 1.1066 "
    "0.3697 -1.1896 1.1341 0.4286 -0.976",
    "0.815 0.2809 -1.2508 0.8669 0.3594 -1.1361 0.8747 0.401 -1.0116 0.7559 0.0067 -1.2644 0.8669 "
    "0.2961 -1.1982 0.8747 0.3873 -1.044",
)
MODELS = {k: tuple(tuple(float(v) for v in text.split()) for text in pair) for k, pair in MODEL_TEXT.items()}
BLUE_PEGS_NEAR_GREEN = [tuple(float(v) for v in text.split()) for text in BLUE_PEG_TEXT]


def classifier() -> Classifier:
    models = [ColourModel(k, NAMES[k], mean, spread, 1) for k, (mean, spread) in MODELS.items()]
    return Classifier(models[0], models[1:])


def test_blue_and_green_are_close_relative_to_their_spreads() -> None:
    c = classifier()
    blue, green = c.letters.index("B"), c.letters.index("G")
    assert 3.0 < c.apart[blue, green] < 4.0
    assert min(c.apart[1, k] for k in range(2, 5)) > 6.0  # red is far from every other colour


@pytest.mark.parametrize("peg", range(len(BLUE_PEGS_NEAR_GREEN)))
def test_a_blue_peg_between_blue_and_green_is_unsure_never_green(peg: int) -> None:
    c = classifier()
    features = np.asarray([BLUE_PEGS_NEAR_GREEN[peg]], dtype=np.float64)
    d = c.distances(features)[0]
    blue, green = c.letters.index("B"), c.letters.index("G")
    assert d[green] < d[blue] < d[0] / 2  # nearer green than blue, both far nearer than empty
    # the evidence lies within a spread of the midway: neither colour may be read
    assert (d[blue] ** 2 - d[green] ** 2) / (2 * c.apart[blue, green]) < BEYOND_MIDWAY
    assert c.classify(features).letters == [UNSURE]


def test_the_colours_themselves_and_points_well_past_the_midway_are_still_read() -> None:
    c = classifier()
    means = np.asarray([MODELS[k][0] for k in "RBGY"], dtype=np.float64)
    assert c.classify(means).letters == list("RBGY")
    # blue's mean lies 1.7 spreads from the midway (3.4 apart): three fifths of the way to
    # green's is 0.34 spreads past it towards green (unsure), a tenth of the way still 1.37
    # spreads on blue's side (blue)
    blue, green = means[1], means[2]
    assert c.classify(blue[None, :] + 0.6 * (green - blue)[None, :]).letters == [UNSURE]
    assert c.classify(blue[None, :] + 0.1 * (green - blue)[None, :]).letters == ["B"]
