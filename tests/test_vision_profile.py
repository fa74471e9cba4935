"""The board profile and the ground-truth parser: round trips and errors that say where."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.groundtruth import GroundTruthError, parse_textproto, score
from vision.profile import (
    BoardProfile,
    ColourModel,
    ProfileError,
    default_profile,
    load_profile,
    parse_grid,
    profile_from_json,
)

finite = st.floats(min_value=-1000, max_value=1000, allow_nan=False)
positive = st.floats(min_value=0.01, max_value=5, allow_nan=False)


@st.composite
def profiles(draw: st.DrawFn) -> BoardProfile:
    rows, cols = draw(st.integers(2, 25)), draw(st.integers(2, 25))
    base = default_profile(rows, cols, pitch=draw(st.floats(5, 40)))
    turns = [draw(st.floats(-30, 30)) for _ in base.markers]  # stickers measured, a little turned
    base = replace(base, markers=tuple(replace(m, angle=a) for m, a in zip(base.markers, turns, strict=True)))
    model = ColourModel(
        ".", "empty", tuple(draw(finite) for _ in range(3)), tuple(draw(positive) for _ in range(3))
    )
    letters = draw(st.lists(st.sampled_from("RBGYWK"), unique=True, max_size=4))
    colours = [
        ColourModel(
            letter,
            f"colour{letter}",
            tuple(draw(finite) for _ in range(3)),
            tuple(draw(positive) for _ in range(3)),
            draw(st.integers(0, 50)),
        )
        for letter in letters
    ]
    if draw(st.booleans()):  # a board without stickers: its corners in the fixed camera's picture
        points = [(draw(finite), draw(finite)) for _ in range(4)]
        base = replace(base, picture_corners=(points[0], points[1], points[2], points[3]))
    return base.with_models(model, colours)


@given(profiles())
def test_a_profile_survives_json(profile: BoardProfile) -> None:
    again = profile_from_json(json.loads(json.dumps(profile.to_json())))
    assert again == profile


def test_save_and_load(tmp_path: Path) -> None:
    profile = default_profile()
    profile.save(tmp_path / "p.json")
    assert load_profile(tmp_path / "p.json") == profile
    assert not profile.calibrated
    assert [m.id for m in profile.markers] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"format": "other"}, "format"),
        ({"rows": 1}, "rows/cols"),
        ({"holes": {"top_left": [0, 0]}}, "holes.top_right"),
        ({"sample_radius": 0.9}, "sample_radius"),
        ({"colours": {"RR": {"mean": [0, 0, 0], "spread": [1, 1, 1]}}}, "colours.RR"),
        ({"colours": {"R": {"mean": [0, 0, 0], "spread": [1, 0, 1]}}}, "colours.R.spread"),
        ({"markers": {"stickers": [{"id": 0, "centre": [0], "size": 4}]}}, "stickers[0].centre"),
        ({"markers": {"stickers": [{"id": 0, "centre": [0, 0], "size": 4, "angle": ""}]}}, "[0].angle"),
        ({"lamp": [1.0, 1.0]}, "lamp"),
        ({"lamp": [0.0, 1.0, 2.0]}, "lamp"),
        ({"picture_corners": [[0, 0]] * 4}, "picture_corners"),
        (
            {"picture_corners": {"top_left": [0, 0], "top_right": [1, 0], "bottom_right": [1, 1]}},
            "bottom_left",
        ),
    ],
)
def test_a_bad_profile_names_the_field(change: dict[str, object], where: str) -> None:
    data = default_profile().to_json() | change
    with pytest.raises(ProfileError) as err:
        profile_from_json(data, "p.json")
    assert where in str(err.value)


def test_unreadable_profile_files_say_why(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{\n  oops")
    with pytest.raises(ProfileError, match="line 2"):
        load_profile(tmp_path / "bad.json")


def test_parse_grid() -> None:
    assert parse_grid("19x19") == (19, 19)
    assert parse_grid("10X9") == (10, 9)
    for bad in ("19", "axb", "1x5", "100x100"):
        with pytest.raises(ProfileError):
            parse_grid(bad)


TEXT = """
# a comment
test_images {
    file_name: "src/testdata/a.jpg"
    goban_rectangle {
        top_left { row: 10, column: 20 }
        top_right { row: 11, column: 220 }
        bottom_right { row: 210, column: 221 }
        bottom_left { row: 212, column: 19 }
    }
    stringified_stones: [
        ". B .",
        "W . .",
        ". . ."
    ]
    laser_position { row: 1 column: 2 }
}
"""


def test_the_textproto_parser_reads_corners_as_x_y_and_rows() -> None:
    (truth,) = parse_textproto(TEXT)
    assert truth.file_name.endswith("a.jpg")
    assert truth.corners == ((20, 10), (220, 11), (221, 210), (19, 212))
    assert truth.rows == [".B.", "W..", "..."] and truth.size == (3, 3)
    assert truth.letters[1] == "B" and truth.letters[3] == "W"


def test_the_textproto_parser_names_the_line_of_an_error() -> None:
    with pytest.raises(GroundTruthError, match="line 3"):
        parse_textproto('test_images {\n file_name: "x"\n  ??? }')
    with pytest.raises(GroundTruthError, match="missing field"):
        parse_textproto('test_images { file_name: "x" }')


def test_score_counts_wrong_and_unsure_apart() -> None:
    s = score(list(".B?W"), list(".BBB"), cols=2)
    assert s.correct == 2 and s.unsure == [(1, 0, "B")] and s.wrong == [(1, 1, "W", "B")]
    assert s.share == 0.5
