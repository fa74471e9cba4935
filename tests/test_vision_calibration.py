"""Guided calibration (issue 13): each colour is learnt from exactly the hole the app names, the
pegs' size is measured, and every refusal says what is wrong."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.render_board as rb
from tests.render_board import SMALL, Scene, camera_from_board, render, truth_letters
from vision.calibration import measure_peg, target_holes
from vision.calibration_session import CalibrationSession, Step
from vision.profile import default_profile
from vision.reader import read_image
from vision.sampling import project

BASE = Scene(size=SMALL, rotation=-3, tilt=0.2)


def started(colours: list[tuple[str, str]], base: Scene = BASE) -> CalibrationSession:
    session = CalibrationSession(default_profile(), colours=colours)
    session.keep_corners()
    assert session.learn_empty(render(base)).ok
    return session


@pytest.fixture
def pale_blue(monkeypatch: pytest.MonkeyPatch) -> str:
    """A blue peg as another lamp shows it: paler, so the blue learnt reads it unsure."""
    monkeypatch.setitem(rb.PEG_COLOURS_BGR, "pale blue", (200, 130, 80))
    monkeypatch.setitem(rb.LETTERS, "pale blue", "B")
    return "pale blue"


def features_built_with(
    monkeypatch: pytest.MonkeyPatch,
    head: Callable[[float, float, tuple[float, float]], tuple[float, float, float] | None],
) -> list[int]:
    """Stub the peg measurement with ``head(col, row, centre)`` (the head's shift and radius, or
    None when unmeasured) and the learning with a recorder: the list of feature counts each
    rebuild chose (18, or 9 for the head alone)."""
    import vision.calibration as calibration
    from vision import calibration_session

    def measure(peg, empty, centre, pitch):  # type: ignore[no-untyped-def]
        return head(centre[0] / pitch - 0.75, centre[1] / pitch - 0.75, centre)

    built: list[int] = []

    def learn(self, base):  # type: ignore[no-untyped-def]
        built.append(base.features)
        return calibration_session.Outcome(True, "colour-learnt")

    monkeypatch.setattr(calibration, "measure_peg", measure)
    monkeypatch.setattr(calibration_session.CalibrationSession, "_learn", learn)
    return built


def test_an_earlier_peg_that_reads_unsure_is_never_learnt_as_the_new_colour(pale_blue: str) -> None:
    # the bug: "yellow" was learnt from the blue peg left on the board (unsure in this light)
    # while the yellow peg was not seen; blue pegs then read confidently as yellow
    session = started([("B", "blue"), ("Y", "yellow")])
    blue_hole, yellow_hole = session.targets
    assert session.learn_colour(render(replace(BASE, pegs={blue_hole: "blue"}))).ok
    only_blue = render(replace(BASE, pegs={blue_hole: pale_blue}))
    assert read_image(only_blue, session.profile).letters[blue_hole] == "?"  # the situation of the bug
    outcome = session.learn_colour(only_blue)
    assert not outcome.ok and outcome.message == "no-peg-in-hole"
    assert outcome.values["row"] == yellow_hole // 10 + 1 and outcome.values["column"] == yellow_hole % 10 + 1
    assert "Y" not in session.profile.letters() and session.current_colour == ("Y", "yellow")
    # the yellow peg in its hole, the pale blue one still on the board: only the named hole counts
    both = render(replace(BASE, pegs={blue_hole: pale_blue, yellow_hole: "yellow"}))
    outcome = session.learn_colour(both)
    assert outcome.ok and outcome.holes == (yellow_hole,)
    assert session.step is Step.DONE
    game = replace(BASE, pegs={5: "blue", 50: "yellow", 99: "blue", 44: "yellow"})
    assert read_image(render(game), session.profile).letters == truth_letters(game)


def test_the_named_hole_is_judged_against_its_own_empty_look(monkeypatch: pytest.MonkeyPatch) -> None:
    # the calibration's pictures are all taken under one light: whether a peg went in is how far
    # the named hole moved from its own look on the empty board. Judged by the nearer of that and
    # the board-wide empty look (which printed squares and a tee's disc over some cavities make
    # wide), a white golf tee on maple that hid its cavity was "not seen" on every draw
    import vision.calibration as calibration

    learn_empty = calibration.learn_empty

    def wide(profile, shots):  # type: ignore[no-untyped-def]
        built = learn_empty(profile, shots)
        assert built.empty is not None
        spread = tuple(8 * v for v in built.empty.spread)  # a board whose holes vary a lot
        return built.with_models(replace(built.empty, spread=spread), built.colours)

    monkeypatch.setattr(calibration, "learn_empty", wide)
    session = started([("R", "red")])
    outcome = session.learn_colour(render(replace(BASE, pegs={session.targets[0]: "red"}, frame=1)))
    assert outcome.ok, outcome
    # ... and a hole that did not move from its own look is no peg, however wide the board's
    session = started([("R", "red")])
    outcome = session.learn_colour(render(replace(BASE, frame=2)))
    assert not outcome.ok and outcome.message == "no-peg-in-hole"


def test_a_peg_left_in_the_hole_for_the_empty_picture_is_no_colour_once_taken_out() -> None:
    # the hole's own empty look is then a peg; taken out and no peg put in, the hole moved from
    # that look, but it looks like any empty hole of the board: not learnt as the colour
    # (review of the fifth round: "yellow" was learnt from an empty hole)
    session = CalibrationSession(default_profile(), colours=[("Y", "yellow")])
    session.keep_corners()
    stray = 44
    assert session.learn_empty(render(replace(BASE, pegs={stray: "red"}))).ok
    session.targets = [stray]
    outcome = session.learn_colour(render(replace(BASE, frame=1)))
    assert not outcome.ok and outcome.message == "hole-changed-since-empty", outcome
    assert outcome.values["row"] == 5 and outcome.values["column"] == 5
    assert session.profile.colours == ()


def test_a_peg_left_anywhere_on_the_board_for_the_empty_picture_is_named_when_its_colour_is_learnt() -> None:
    # its hole's own empty look is that peg: a red peg there would read empty in every game
    # (review of the fifth round). Once red is learnt the hole is named and the empty board asked again
    session = CalibrationSession(default_profile(), colours=[("R", "red"), ("B", "blue")])
    session.keep_corners()
    assert session.learn_empty(render(replace(BASE, pegs={44: "red"}))).ok
    red_hole = session.targets[0]
    outcome = session.learn_colour(render(replace(BASE, pegs={44: "red", red_hole: "red"}, frame=1)))
    assert not outcome.ok and outcome.message == "peg-on-empty-board", outcome
    assert outcome.values == {"row": 5, "column": 5, "other": "red"}
    assert session.step is Step.EMPTY and session.profile.colours == ()
    assert session.learn_empty(render(replace(BASE, frame=2))).ok  # every peg off: on as usual
    red_hole = session.targets[0]
    assert session.learn_colour(render(replace(BASE, pegs={red_hole: "red"}, frame=3))).ok


def test_a_glint_in_the_empty_picture_is_no_peg_left_on_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    # glints on the varnish stay where they are while lamp and camera do: in the empty picture too.
    # Brighter than any peg, they were taken for a white peg left on the board (maple, 2700 K lamp)
    import cv2

    maple = replace(BASE, board=(170, 200, 222), warmth=1.0, noise=1.5, blur=0.6)
    grid = np.array([[h % 10, h // 10] for h in range(100)], float)
    # the shared profile is calibrated (and cached) before white joins the renderer's colours
    points = project(read_image(render(maple), rb.small_profile()).image_from_grid, grid)
    monkeypatch.setitem(rb.PEG_COLOURS_BGR, "white", (232, 236, 238))
    monkeypatch.setitem(rb.LETTERS, "white", "W")

    def glinting(frame: np.ndarray) -> np.ndarray:
        for hole in (33, 44, 55, 66):
            x, y = points[hole]
            cv2.ellipse(frame, (int(x), int(y)), (6, 4), 30, 0, 360, (255, 255, 255), -1)
        return frame

    session = CalibrationSession(default_profile(), colours=[("W", "white"), ("R", "red")])
    session.keep_corners()
    assert session.learn_empty(glinting(render(maple))).ok
    pegs: dict[int, str] = {}
    for k, (_letter, name) in enumerate(session.colours):
        pegs[session.targets[k]] = name
        outcome = session.learn_colour(glinting(render(replace(maple, pegs=dict(pegs), frame=k + 1))))
        assert outcome.ok, outcome


def test_a_colour_about_as_near_to_empty_as_empty_itself_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # the reader's margin for a colour near empty grows as it nears: one too near would leave most
    # holes unsure (review of the fifth round). Such a colour is refused with what to change
    from vision import calibration_session
    from vision.calibration_session import from_empty
    from vision.profile import ColourModel

    empty = ColourModel(".", "empty", (0.0,) * 9, (0.1,) * 9, 100)
    assert from_empty(replace(empty, letter="W", name="white"), empty) == 0.0
    red = ColourModel("R", "red", (0.2, -0.2, 0.2) * 3, (0.1,) * 9, 1)
    assert from_empty(red, empty) == pytest.approx(2.0)
    session = started([("R", "red")])
    monkeypatch.setattr(calibration_session, "TOO_NEAR_EMPTY", 1000.0)  # every colour too near
    outcome = session.learn_colour(render(replace(BASE, pegs={session.targets[0]: "red"}, frame=1)))
    assert not outcome.ok and outcome.message == "too-like-board" and outcome.values["colour"] == "red"


def test_a_peg_in_another_hole_than_the_one_asked_for_is_refused_with_the_hole_named() -> None:
    session = started([("R", "red")])
    hole = session.targets[0]
    outcome = session.learn_colour(render(replace(BASE, pegs={hole + 2: "red"})))
    assert not outcome.ok and outcome.message == "no-peg-in-hole" and outcome.holes == (hole,)
    assert session.profile.colours == ()


def test_a_peg_of_a_colour_already_learnt_is_refused_as_that_colour() -> None:
    session = started([("R", "red"), ("B", "blue")])
    red_hole, blue_hole = session.targets
    assert session.learn_colour(render(replace(BASE, pegs={red_hole: "red"}))).ok
    outcome = session.learn_colour(render(replace(BASE, pegs={red_hole: "red", blue_hole: "red"})))
    assert not outcome.ok and outcome.message == "looks-like-other" and outcome.values["other"] == "red"


def test_a_calibration_that_misreads_its_own_pictures_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # a "green" almost the blue already learnt: the new class would swallow blue's own picture
    monkeypatch.setitem(rb.PEG_COLOURS_BGR, "blueish", (185, 95, 35))
    session = started([("B", "blue"), ("G", "green")])
    blue_hole, green_hole = session.targets
    assert session.learn_colour(render(replace(BASE, pegs={blue_hole: "blue"}))).ok
    outcome = session.learn_colour(render(replace(BASE, pegs={blue_hole: "blue", green_hole: "blueish"})))
    assert not outcome.ok and outcome.message in ("looks-like-other", "misreads-own")
    assert session.profile.letters() == {"B": "blue"}


def test_the_peg_size_is_measured_and_the_sampling_disc_follows_it() -> None:
    session = started([("R", "red")])
    assert session.learn_colour(render(replace(BASE, pegs={session.targets[0]: "red"}))).ok
    assert session.peg_radius is not None and abs(session.peg_radius - 8.5 / 25) < 0.05
    assert session.profile.sample_radius == pytest.approx(min(0.28, 0.75 * session.peg_radius))


def test_measure_peg_finds_a_drawn_head_where_it_is_and_ignores_its_shadow() -> None:
    import cv2

    empty = np.full((61, 61, 3), (110, 160, 200), np.uint8)
    cv2.circle(empty, (30, 30), 3, (20, 25, 30), -1)  # the empty hole
    for radius, (dx, dy) in ((4, (0, 0)), (8, (3, -2)), (12, (-2, 4))):
        peg = empty.copy()
        cv2.circle(peg, (30 + dx + 5, 30 + dy + 5), radius, (55, 80, 100), -1)  # the shadow beside it
        cv2.circle(peg, (30 + dx, 30 + dy), radius, (40, 40, 200), -1)
        measured = measure_peg(peg, empty, (30, 30), 48)
        assert measured is not None
        assert abs(measured[2] * 48 - radius) <= 1.0
        assert abs(measured[0] * 48 - dx) <= 1.0 and abs(measured[1] * 48 - dy) <= 1.0
    assert measure_peg(empty, empty, (30, 30), 48) is None


def test_measure_peg_finds_a_golf_tee_s_head_not_the_middle_of_head_and_stem() -> None:
    # a tee's stem has the head's colour, only darker, and joins it towards the hole: the blob's
    # mean put a 0.15-pitch head's disc a head radius off it (the red tee on mahogany "not seen")
    import cv2

    empty = np.full((61, 61, 3), (45, 62, 125), np.uint8)  # mahogany
    cv2.circle(empty, (30, 30), 3, (10, 12, 20), -1)
    for radius, (dx, dy) in ((4, (-3, -9)), (6, (2, -12))):
        peg = empty.copy()
        cv2.line(peg, (30, 30), (30 + dx, 30 + dy), (20, 19, 108), 3)  # the stem, red in shade
        cv2.circle(peg, (30 + dx, 30 + dy), radius, (38, 34, 196), -1)
        measured = measure_peg(peg, empty, (30, 30), 48)
        assert measured is not None
        assert abs(measured[0] * 48 - dx) <= 1.0 and abs(measured[1] * 48 - dy) <= 1.0, measured
        assert abs(measured[2] * 48 - radius) <= 1.5


def test_target_holes_are_inside_the_outer_ring_and_never_neighbours() -> None:
    holes = target_holes(10, 10, 6)
    assert len(set(holes)) == 6
    for a in holes:
        assert 0 < a // 10 < 9 and 0 < a % 10 < 9
        for b in holes:
            if a != b:
                assert max(abs(a // 10 - b // 10), abs(a % 10 - b % 10)) > 1
    assert len(target_holes(2, 2, 4)) == 4


def _proper(holes: list[int], rows: int, cols: int) -> list[int]:
    """The holes inside the outer ring and not next to an earlier one."""
    kept: list[int] = []
    for h in holes:
        inside = 0 < h // cols < rows - 1 and 0 < h % cols < cols - 1
        if inside and all(max(abs(h // cols - k // cols), abs(h % cols - k % cols)) > 1 for k in kept):
            kept.append(h)
    return kept


@settings(max_examples=150, deadline=None)
@given(
    rows=st.integers(2, 19),
    cols=st.integers(2, 19),
    count=st.integers(1, 7),
    seed=st.integers(0, 2**32 - 1),
)
def test_holes_chosen_on_the_empty_board_are_never_fewer_or_worse_placed_than_the_spots(
    rows: int, cols: int, count: int, seed: int
) -> None:
    # any light at all: as many distinct holes as colours, and as many inside the outer ring and
    # apart as the fixed spots give (review: on 5x5 the choice left a corner hole beside a sticker)
    trouble = np.random.default_rng(seed).random(rows * cols) * 3
    chosen = target_holes(rows, cols, count, trouble)
    fixed = target_holes(rows, cols, count)
    assert len(chosen) == len(set(chosen)) == min(count, rows * cols)
    assert len(_proper(chosen, rows, cols)) >= len(_proper(fixed, rows, cols))


def test_light_trouble_finds_a_lamp_s_reflection_where_the_light_is_even() -> None:
    # the heart of a broad reflection is as even as bare board; found there, it still counts
    from vision.calibration import light_trouble
    from vision.classify import hole_features

    rows = cols = 10
    board = np.array([70.0, 100.0, 170.0])  # cherry
    gv, gu = np.mgrid[0 : rows + 1, 0 : cols + 1]
    added = 60.0 * (np.hypot(gv - 2.5, gu - 2.5) < 2.2)  # flat-topped, grey
    gaps = (board[None, :] + added.reshape(-1, 1)).astype(np.float32)
    hv, hu = np.mgrid[0:rows, 0:cols]
    lit = 60.0 * (np.hypot(hv - 2.0, hu - 2.0) < 1.5).reshape(-1, 1)
    holes = np.tile(0.3 * board + lit, 3).astype(np.float32)  # a dark cavity, lifted as much
    trouble = light_trouble(holes, gaps, hole_features(holes, gaps, rows, cols), rows, cols)
    assert trouble[2 * cols + 2] >= 1.0  # in the reflection's even heart
    assert trouble[7 * cols + 7] < 0.2  # bare board far from it


def test_the_holes_asked_for_lie_out_of_the_lamp_s_reflection() -> None:
    # learnt in a reflection, a peg looks unlike itself elsewhere (a green dome on cherry looked
    # blue; a 0.15-pitch red tee on mahogany was not seen): the app picks holes in even light
    lit = replace(BASE, glare=0.8)  # clips the board's green and red over its right half
    fixed = target_holes(10, 10, 4)
    assert max(rb.glare_at(lit, h) for h in fixed) > 0.7  # the holes of before: one deep in it
    session = started([("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow")], lit)
    assert len(set(session.targets)) == 4
    # as far out of it as each quarter allows: the bottom right one is in it everywhere, 0.27 at least
    assert all(rb.glare_at(lit, h) < 0.3 for h in session.targets), session.targets
    for k, hole in enumerate(session.targets):  # still one in each quarter, spread for the lean's fit
        assert (hole // 10 >= 5) == (k in (2, 3)) and (hole % 10 >= 5) == (k in (1, 2))
        assert 0 < hole // 10 < 9 and 0 < hole % 10 < 9


def test_the_holes_asked_for_are_never_at_the_edge_of_a_patch_of_sun() -> None:
    # a hole whose light is measured on gaps half in the sun and half in the shade looks unlike
    # itself anywhere else (a blue peg beside the edge was learnt darker and "green looked blue")
    sunny = replace(BASE, sun=0.8)

    def straddles(hole: int) -> bool:
        r, c = divmod(hole, 10)
        block = [(25.0 * (c + k % 4) - 37.5, 25.0 * (r + k // 4) - 37.5) for k in range(16)]
        return len({rb.in_sun(g) for g in block}) == 2  # its light measured half in sun, half in shade

    assert any(straddles(h) for h in target_holes(10, 10, 4))  # the holes of before
    session = started([("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow")], sunny)
    assert not any(straddles(h) for h in session.targets), session.targets
    pegs: dict[int, str] = {}
    for hole, (_letter, name) in zip(session.targets, session.colours, strict=True):
        pegs[hole] = name
        assert session.learn_colour(render(replace(sunny, pegs=dict(pegs), frame=len(pegs)))).ok
    game = {5: "red", 33: "blue", 66: "green", 91: "yellow", 48: "red"}
    letters = read_image(render(replace(sunny, pegs=game, frame=9)), session.profile).letters
    truth = truth_letters(replace(sunny, pegs=game))
    wrong = [h for h, (got, want) in enumerate(zip(letters, truth, strict=True)) if got not in ("?", want)]
    assert wrong == []


def test_three_stickers_are_enough_when_the_corner_holes_are_touched() -> None:
    # sticker 0 (top left) cut off by the frame's edge: no reason to refuse
    scene = Scene(size=SMALL, shift=(0.0, -30.0), rotation=6)
    frame = render(scene)
    session = CalibrationSession(default_profile(), colours=[("R", "red")])
    from vision.markers import MarkerFinder

    assert sorted(MarkerFinder().find(frame)) == [1, 2, 3]
    board = np.array([[0, 0], [225, 0], [225, 225], [0, 225]], dtype=np.float64)
    for x, y in project(camera_from_board(scene), board):
        outcome = session.touch_corner(frame, x, y)
    assert outcome.ok and session.step is Step.EMPTY
    assert sorted(m.id for m in session.profile.markers) == [0, 1, 2, 3]  # kept where the sheet says
    assert session.learn_empty(frame).ok
    assert session.learn_colour(render(replace(scene, pegs={session.targets[0]: "red"}))).ok
    game = replace(scene, pegs={11: "red", 54: "red"})
    assert read_image(render(game), session.profile).letters == truth_letters(game)


def test_two_stickers_are_not_enough_to_measure_them() -> None:
    scene = Scene(size=SMALL, rotation=10, scale=1.05)
    frame = render(scene)
    from vision.markers import MarkerFinder

    assert len(MarkerFinder().find(frame)) == 2
    session = CalibrationSession(default_profile(), colours=[("R", "red")])
    board = np.array([[0, 0], [225, 0], [225, 225], [0, 225]], dtype=np.float64)
    for x, y in project(camera_from_board(scene), board):
        outcome = session.touch_corner(frame, x, y)
    assert not outcome.ok and outcome.message == "corners-need-stickers"


def test_every_calibration_sentence_has_german_with_the_same_placeholders() -> None:
    import re

    from app import i18n
    from vision.calibration_session import MESSAGES

    german = i18n.catalog("de")
    for key, text in MESSAGES.items():
        assert text in german, f"{key}: no German for {text!r}"
        assert set(re.findall(r"{\w+}", text)) == set(re.findall(r"{\w+}", german[text])), key


def test_glints_on_empty_holes_never_read_as_a_peg() -> None:
    import cv2

    profile = rb.small_profile()
    scene = Scene(size=SMALL, pegs={5: "red", 50: "blue", 77: "yellow"}, rotation=3, seed=9)
    frame = render(scene)
    reading = read_image(frame, profile)
    points = project(reading.image_from_grid, np.array([[h % 10, h // 10] for h in range(100)], float))
    glinted = frame.copy()
    empties = [h for h in range(100) if h not in scene.pegs][::3]
    for h in empties:  # a small sharp reflection right on the hole, and one beside it
        x, y = points[h]
        cv2.ellipse(glinted, (int(x) + 1, int(y)), (4, 2), 30, 0, 360, (255, 255, 255), -1, cv2.LINE_AA)
        cv2.circle(glinted, (int(x) + 6, int(y) - 5), 2, (255, 255, 255), -1, cv2.LINE_AA)
    letters = read_image(glinted, profile).letters
    truth = truth_letters(scene)
    assert all(letters[h] in (".", "?") for h in empties), [letters[h] for h in empties]
    assert all(got in ("?", want) for got, want in zip(letters, truth, strict=True))


def test_a_glint_on_pale_wood_is_never_read_as_a_white_peg_under_a_warm_lamp(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # white pegs learnt on maple under a warm lamp differ from the wood mostly in brightness, and
    # a small glint on the varnish over a hole's disc lifted it like a white head: read as a
    # confident white peg (unseen boards, maple-tee-glints-warm). A glint is brighter than the
    # stickers' white paper, which no peg is: the hole is read without it, or is unsure
    import cv2

    monkeypatch.setitem(rb.PEG_COLOURS_BGR, "white", (232, 236, 238))
    monkeypatch.setitem(rb.LETTERS, "white", "W")
    maple = replace(BASE, board=(170, 200, 222), warmth=1.0, noise=1.5, blur=0.6)
    session = started([("W", "white"), ("R", "red")], maple)
    pegs: dict[int, str] = {}
    for k, (_letter, name) in enumerate(session.colours):
        pegs[session.targets[k]] = name
        assert session.learn_colour(render(replace(maple, pegs=dict(pegs), frame=k + 1))).ok
    wrong = []
    for seed in range(4):
        rng = np.random.default_rng(seed)
        holes = rng.choice(100, 12, replace=False)
        game = {int(h): ("white", "red")[i % 2] for i, h in enumerate(holes)}
        scene = replace(maple, pegs=game, frame=10 + seed)
        frame = render(scene)
        grid = np.array([[h % 10, h // 10] for h in range(100)], float)
        points = project(read_image(frame, session.profile).image_from_grid, grid)
        for _ in range(40):  # small sharp reflections on the varnish, over and beside holes
            x, y = points[rng.integers(100)] + rng.normal(0, 4, 2)
            axes, turn = (int(rng.uniform(2, 5)), int(rng.uniform(1, 3))), float(rng.uniform(0, 180))
            cv2.ellipse(frame, (int(x), int(y)), axes, turn, 0, 360, (255, 255, 255), -1)
        letters = read_image(frame, session.profile).letters
        truth = truth_letters(scene)
        pairs = enumerate(zip(letters, truth, strict=True))
        wrong += [(seed, h, want, got) for h, (got, want) in pairs if got not in ("?", want)]
    assert wrong == []


SUNNY = (  # two scenes of the first renderer's clips (seed 1) whose last frames lost holes to it
    Scene(tilt=0.27, rotation=-11.6, shift=(-2.4, -11.4), scale=0.925, light=1.06, gradient=0.57,
          warmth=-0.63, noise=5.0, blur=0.41, sun=0.87, seed=1027174883),
    Scene(tilt=0.01, rotation=8.6, shift=(5.2, -5.6), scale=0.844, light=0.9, gradient=0.59,
          warmth=0.68, noise=3.2, blur=0.45, jpeg=83, sun=0.57, seed=831009703),
)


@pytest.mark.parametrize("sunny", SUNNY)
def test_a_patch_of_sun_is_no_glint(sunny: Scene) -> None:
    # sunlit board is brighter than the stickers' paper in the shade; a hole at the patch's edge
    # gets its light from a sunlit gap, so only what is brighter than paper there is a glint
    # (measured by the light of its 4x4 block, holes at the edge of these patches went unsure)
    from vision.reader import BoardReader

    profile = rb.calibrated_profile()
    frame = render(replace(sunny, pegs={2: "yellow", 31: "blue", 53: "red", 25: "red"}))
    reader = BoardReader(profile, still_frames=1)
    assert reader.locate(frame) and reader.homography is not None
    samples = reader.sampler.sample(frame, reader.homography)
    reading, features = reader.classify(samples)
    assert reader.paper_ratio is not None  # the check was on
    doubted = reader._glinting(samples, features, reading.letters, None)
    assert not doubted.any(), np.flatnonzero(doubted)


def _warped_board(  # type: ignore[no-untyped-def]
    glint: tuple[int, int] | None = None, blur: float = 0.8, white_peg: bool = False
):
    """An upright maple board under a 2700 K lamp (a sampler's warped view) with dark holes, a
    glint (its semi-axes in pixels) over hole 44, a white peg in hole 55: the view, its samples,
    their features."""
    import cv2

    from vision.classify import hole_features
    from vision.sampling import Sampler, disc_quartiles

    sampler = Sampler(10, 10, 0.2, pitch=40, quartiles=True, centre=True)
    view = np.zeros((sampler.height, sampler.width, 3), np.uint8)
    view[:] = (94, 160, 222)
    for hole in range(100):
        cv2.circle(view, tuple(int(v) for v in sampler.centre(hole)), 3, (15, 25, 35), -1)
    if glint is not None:
        x, y = sampler.centre(44)
        cv2.ellipse(view, (int(x) + 2, int(y) - 1), glint, 30, 0, 360, (255, 255, 255), -1)
    if white_peg:  # white plastic in the lamp's light (as bright as the paper) and its highlight
        x, y = sampler.centre(55)
        cv2.circle(view, (int(x), int(y)), 9, (128, 186, 232), -1)
        cv2.circle(view, (int(x) - 3, int(y) - 3), 2, (243, 255, 255), -1)
    view = cv2.GaussianBlur(view, (0, 0), blur)
    flat = view.reshape(-1, 3)
    assert sampler.centre_index is not None
    discs = [disc_quartiles(flat[sampler.hole_index]), disc_quartiles(flat[sampler.centre_index])]
    holes = np.concatenate(discs, axis=1)
    gaps = np.median(flat[sampler.gap_index], axis=1)
    holes, gaps = holes.astype(np.float32), gaps.astype(np.float32)
    return sampler, view, holes, gaps, hole_features(holes, gaps, 10, 10)


@settings(max_examples=100, deadline=None)
@given(holes=st.integers(1, 6), pixels=st.integers(1, 60), seed=st.integers(0, 2**32 - 1))
def test_quartiles_without_left_out_pixels_are_the_quartiles_of_the_rest(
    holes: int, pixels: int, seed: int
) -> None:
    # the glint check re-reads a hole from the pixels a glint left: the same quartiles the sampler
    # takes of a disc (vision.sampling.disc_quartiles), of those pixels alone
    from vision.classify import quartiles_without
    from vision.sampling import disc_quartiles

    rng = np.random.default_rng(seed)
    discs = rng.integers(0, 256, (holes, pixels, 3)).astype(np.uint8)
    left_out = rng.random((holes, pixels)) < rng.random()
    kept = (~left_out).sum(axis=1)
    left_out[kept == 0, 0] = False  # at least one pixel left
    kept = (~left_out).sum(axis=1)
    got = quartiles_without(discs, left_out, kept)
    for hole in range(holes):
        rest = discs[hole][~left_out[hole]][None, :, :]
        assert np.array_equal(got[hole], disc_quartiles(rest)[0].astype(np.float32))


def test_the_lamp_s_reflection_is_looked_for_once_per_lamp_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    # under white light the paper's colour is grey: the reflection was counted twice (review)
    import vision.calibration as calibration

    seen: list[int] = []
    light_trouble = calibration.light_trouble

    def counting(holes, gaps, features, rows, cols, lamps):  # type: ignore[no-untyped-def]
        seen.append(len(lamps))
        return light_trouble(holes, gaps, features, rows, cols, lamps)

    monkeypatch.setattr(calibration, "light_trouble", counting)
    started([("R", "red")])
    started([("R", "red")], replace(BASE, warmth=1.0))
    assert seen == [1, 2]


def test_a_glint_and_its_blurred_rim_are_left_out_of_a_hole_s_quartiles() -> None:
    from vision.classify import glint_free

    paper = np.array([131.0, 190.0, 238.0]) / np.array([94.0, 160.0, 222.0])  # white paper over maple
    _s, _v, _h, _g, plain = _warped_board()
    sampler, view, holes, gaps, features = _warped_board(glint=(5, 3))
    assert np.abs(features[44] - plain[44]).max() > 0.3  # the glint lifts the hole like a pale peg
    discs = [sampler.hole_index, sampler.centre_index]
    clean, glinting, blank = glint_free(view, sampler.cells(), discs, holes, gaps, features, 10, 10, paper)
    assert glinting[44] and not blank[44] and glinting.sum() == 1
    assert np.abs(clean[44] - plain[44]).max() < 0.12  # core and rim left out: the hole as it was
    assert np.array_equal(clean[43], features[43])
    # a glint over the whole disc leaves nothing to read: the reader doubts the hole
    sampler, view, holes, gaps, features = _warped_board(glint=(14, 12))
    _c, glinting, blank = glint_free(view, sampler.cells(), discs, holes, gaps, features, 10, 10, paper)
    assert blank[44]
    # a white peg is as bright as white paper, not brighter: only its highlight is left out, even
    # with the stickers' paper 15 % darker than white (paper that is not quite white)
    sampler, view, holes, gaps, features = _warped_board(white_peg=True)
    dim = 0.85 * paper
    clean, glinting, blank = glint_free(view, sampler.cells(), discs, holes, gaps, features, 10, 10, dim)
    assert not blank[55] and np.abs(clean[55] - features[55]).max() < 0.15
    assert glinting.sum() <= 1


def test_a_hole_lit_by_one_sunny_gap_may_be_as_bright_as_that_gap() -> None:
    # daylight through a window over maple under a 2700 K lamp: sunlit board is brighter than the
    # lamp-lit paper in blue. Hole 44 has the patch's corner over one of its four gaps and a
    # quarter of its disc: that light is the sun's, no glint. Measured by the mean of its four
    # gaps (a review's alternative to the brightest) the sunlit quarter passed for one.
    import cv2

    from vision.classify import glint_free, hole_features
    from vision.sampling import disc_quartiles

    paper = np.array([131.0, 190.0, 238.0]) / np.array([94.0, 160.0, 222.0])
    sampler, view, _h, _g, _f = _warped_board(blur=0.01)
    x, y = (int(v) for v in sampler.centre(44))
    cv2.rectangle(view, (0, 0), (x, y), (240, 255, 255), -1)
    view = cv2.GaussianBlur(view, (0, 0), 0.8)
    flat = view.reshape(-1, 3)
    assert sampler.centre_index is not None
    holes = np.concatenate(
        [disc_quartiles(flat[sampler.hole_index]), disc_quartiles(flat[sampler.centre_index])], axis=1
    ).astype(np.float32)
    gaps = np.median(flat[sampler.gap_index], axis=1).astype(np.float32)
    features = hole_features(holes, gaps, 10, 10)
    lit = (gaps.reshape(11, 11, 3)[4:6, 4:6, 0] > 200).sum()
    assert lit == 1  # one of hole 44's four gaps is in the sun
    discs = [sampler.hole_index, sampler.centre_index]
    _c, glinting, _b = glint_free(view, sampler.cells(), discs, holes, gaps, features, 10, 10, paper)
    assert not glinting.any(), np.flatnonzero(glinting)
    # a glint in the shade beside it is still one
    cv2.ellipse(view, tuple(int(v) for v in sampler.centre(66)), (5, 3), 30, 0, 360, (255, 255, 255), -1)
    flat = view.reshape(-1, 3)
    holes = np.concatenate(
        [disc_quartiles(flat[sampler.hole_index]), disc_quartiles(flat[sampler.centre_index])], axis=1
    ).astype(np.float32)
    features = hole_features(holes, gaps, 10, 10)
    _c, glinting, _b = glint_free(view, sampler.cells(), discs, holes, gaps, features, 10, 10, paper)
    assert glinting[66] and glinting.sum() == 1


def test_white_paper_over_the_board_is_measured_beside_each_sticker() -> None:
    # a shadow over a sticker and the board's corner beside it, or a camera's exposure, darken
    # both: the paper's brightness over the board stays; paper darker than the board is board
    from vision.classify import paper_over_board
    from vision.sampling import homography_from_corners

    h = homography_from_corners([(100.0, 100.0), (460.0, 100.0), (460.0, 460.0), (100.0, 460.0)], 10, 10)
    stickers = {i: np.array([[x - 20, y - 20], [x + 20, y - 20], [x + 20, y + 20], [x - 20, y + 20]], float)
                for i, (x, y) in enumerate([(40, 40), (520, 40), (520, 520), (40, 520)])}
    board = np.array([94.0, 160.0, 222.0])
    gaps = np.tile(board, (121, 1)).astype(np.float32)
    papers = {i: (131.0, 190.0, 238.0) for i in range(4)}
    even = paper_over_board(papers, stickers, gaps, h, 10, 10)
    assert even is not None and np.allclose(even, np.array([131.0, 190.0, 238.0]) / board)
    shaded = dict(papers)
    shaded[0] = tuple(0.6 * v for v in papers[0])
    gaps[0] = 0.6 * board  # the corner gap beside sticker 0, in the same shadow
    assert np.allclose(paper_over_board(shaded, stickers, gaps, h, 10, 10), even)
    grey = {i: (60.0, 90.0, 120.0) for i in range(4)}  # darker than the board: no paper to go by
    assert np.allclose(paper_over_board(grey, stickers, gaps, h, 10, 10), 1.0)


@pytest.mark.parametrize("rotation", [0.0, 90.0, 180.0])
def test_white_paper_over_the_board_does_not_depend_on_where_the_stickers_are(rotation: float) -> None:
    # the board beside a sticker is taken just inside the corner hole: stickers stuck 6-15 mm from
    # the holes covered the gap outside it with their black border (the check off) or their paper
    # (every white peg a glint); turned in the picture, each sticker still meets its own corner
    from vision.classify import paper_over_board
    from vision.profile import default_markers
    from vision.reader import BoardReader

    ratios = []
    for beside in (35.0, 15.0, 6.0):
        scene = Scene(size=SMALL, stickers=(40.0, beside), rotation=rotation, tilt=0.2, warmth=1.0)
        profile = rb.profile()
        profile = replace(profile, markers=default_markers(profile.holes, 40.0, beside))
        reader = BoardReader(profile, still_frames=1)
        frame = render(scene)
        assert reader.locate(frame) and reader.homography is not None and reader._papers is not None
        samples = reader.sampler.sample(frame, reader.homography)
        papers, stickers = reader._papers
        ratio = paper_over_board(papers, stickers, samples.gaps, reader.homography, 10, 10)
        assert ratio is not None
        ratios.append(ratio)
    for ratio in ratios[1:]:
        assert np.allclose(ratio, ratios[0], rtol=0.1), ratios
    # the lamp falling off across the board: each sticker against its own corner, whichever two
    # of them are seen (against another corner, a third darker or brighter)
    scene = Scene(size=SMALL, rotation=rotation, tilt=0.2, warmth=1.0, gradient=0.6)
    reader = BoardReader(rb.profile(), still_frames=1)
    frame = render(scene)
    assert reader.locate(frame) and reader.homography is not None and reader._papers is not None
    samples = reader.sampler.sample(frame, reader.homography)
    papers, stickers = reader._papers
    for pair in ((0, 1), (1, 2), (2, 3), (3, 0)):
        seen = {m: papers[m] for m in pair}
        ratio = paper_over_board(seen, stickers, samples.gaps, reader.homography, 10, 10)
        assert ratio is not None  # blue and green: red is clipped in the paper where the lamp is bright
        assert np.allclose(ratio[:2], ratios[0][:2], rtol=0.1), (pair, ratio, ratios[0])


def test_an_empty_corner_hole_beside_a_sticker_is_never_read_as_a_peg() -> None:
    # stickers stuck right beside the corner holes (their black edge 6 mm away), located by
    # touching the corners: the corner holes stay empty or unsure, never a colour
    scene = Scene(size=SMALL, stickers=(40.0, 6.0), rotation=4, tilt=0.3)
    session = CalibrationSession(default_profile(), colours=[("R", "red"), ("B", "blue")])
    frame = render(scene)
    board = np.array([[0, 0], [225, 0], [225, 225], [0, 225]], dtype=np.float64)
    for x, y in project(camera_from_board(scene), board):
        assert session.touch_corner(frame, x, y).ok
    assert session.learn_empty(frame).ok
    pegs: dict[int, str] = {}
    for k, (_letter, name) in enumerate(session.colours):
        pegs[session.targets[k]] = name
        assert session.learn_colour(render(replace(scene, pegs=dict(pegs)))).ok
    for game in (
        replace(scene, pegs={11: "red", 88: "blue"}, rotation=-6, tilt=0.5, shift=(10.0, -6.0)),
        replace(scene, pegs={1: "blue", 98: "red"}, glare=0.4, seed=4),
    ):
        letters = read_image(render(game), session.profile).letters
        for corner in (0, 9, 90, 99):
            assert letters[corner] in (".", "?"), (corner, letters[corner])
        assert all(got in ("?", want) for got, want in zip(letters, truth_letters(game), strict=True))


def test_one_channel_far_off_is_unsure_even_when_near_on_average() -> None:
    # an empty hole in a patch of sun looked like a yellow peg in all but its blue
    from vision.classify import Classifier, learn_model

    empty = learn_model(".", "empty", np.zeros((1, 9)))
    yellow = learn_model("Y", "yellow", np.array([[0.0, 0.5, 0.5] * 3]))
    sunlit = np.array([[0.0, 0.5, 0.5, 0.0, 0.5, 0.5, 0.6, 0.5, 0.5]])  # 8.6 spreads off in one channel
    assert Classifier(empty, [yellow]).classify(sunlit).letters == ["?"]
    assert Classifier(empty, [yellow]).classify(np.array([[0.0, 0.5, 0.5] * 3])).letters == ["Y"]


def test_a_hole_far_from_empty_and_from_every_colour_is_never_read_empty() -> None:
    # small red tees on pine, the sampling disc half off the head, were 2-3.3 spreads from
    # empty (the empty holes of the same pictures within 0.7) and read as confident empty
    from vision.classify import EMPTY_MARGIN, EMPTY_REACH, MAX_CHANNEL, MAX_DISTANCE, Classifier, learn_model

    empty = learn_model(".", "empty", np.zeros((1, 9)))
    red = learn_model("R", "red", np.array([[0.0, -0.5, 0.5] * 3]))
    classifier = Classifier(empty, [red])
    far = np.full((1, 9), -0.2)  # something dark the profile does not know, nearer to empty
    distance, worst = classifier.distances_and_worst(far)
    assert EMPTY_REACH < distance[0, 0] < MAX_DISTANCE and worst[0, 0] < MAX_CHANNEL
    assert distance[0, 1] > EMPTY_MARGIN * distance[0, 0]  # clearly not red: the reach decides
    # a picture: the far hole among empty holes that drifted a little from their look
    drifted = np.full((9, 9), 1.0) * np.linspace(-0.05, 0.0, 9)[:, None]
    assert classifier.classify(np.vstack([far, drifted])).letters == ["?"] + ["."] * 9
    # ... but in a picture that moved every hole as far (blur, glare), it is as empty as they are
    blurred = np.full((9, 9), 1.0) * np.linspace(-0.2, -0.16, 9)[:, None]
    assert classifier.classify(np.vstack([far, blurred])).letters == ["."] * 10
    # holes already unsure (a resting hand's shadow: far beyond MAX_DISTANCE) do not widen it
    shadowed = np.full((6, 9), -0.6)
    picture = np.vstack([far, drifted[:4], shadowed])
    assert classifier.classify(picture).letters == ["?"] + ["."] * 4 + ["?"] * 6


def test_a_hole_about_as_near_to_a_colour_as_to_empty_is_never_read_empty() -> None:
    # blurred 0.19-pitch tees on oak, the disc half on the head: 1.2-2.0 spreads from empty and
    # 1.0-1.3 times as far from their colour, read as confident empty (29 missed pegs)
    from vision.classify import EMPTY_MARGIN, EMPTY_REACH, Classifier, learn_model

    empty = learn_model(".", "empty", np.zeros((1, 9)))
    red = learn_model("R", "red", np.array([[0.0, -0.2, 0.2] * 3]))
    classifier = Classifier(empty, [red])
    half_on_head = np.array([[0.0, -0.2, 0.2] * 3]) * 0.42
    distance = classifier.distances(half_on_head)[0]
    assert distance[0] < distance[1] < EMPTY_MARGIN * distance[0] and distance[0] < EMPTY_REACH
    drifted = np.array([[0.0, -0.2, 0.2] * 3]) * np.linspace(0.0, 0.1, 9)[:, None]
    assert classifier.classify(np.vstack([half_on_head, drifted])).letters == ["?"] + ["."] * 9
    assert classifier.classify(np.vstack([half_on_head * 0.5, drifted])).letters == ["."] * 10


def test_a_colour_close_to_empty_needs_a_clearer_margin_to_read_a_hole_empty() -> None:
    # white golf tees on maple under a 2700 K lamp: the colour 1.5 spreads from empty, faint tees
    # far from the calibration's were confident empty at twice as far from white as from empty
    from vision.classify import EMPTY_MARGIN, Classifier, learn_model

    empty = learn_model(".", "empty", np.zeros((1, 9)))
    pale = learn_model("W", "white", np.full((1, 9), 0.105))  # 1.5 spreads from empty
    vivid = learn_model("R", "red", np.array([[0.0, -0.3, 0.3] * 3]))  # 3.5 spreads from empty
    faint = np.full((1, 9), 0.035)  # 0.5 from empty, 1.0 from white: twice as far
    assert Classifier(empty, [pale]).classify(faint).letters == ["?"]
    half = np.array([[0.0, -0.3, 0.3] * 3]) / (1 + 2 * EMPTY_MARGIN)  # red at 2x the margin
    assert Classifier(empty, [vivid]).classify(half * 0.8).letters == ["."]  # far colours as before
    assert Classifier(empty, [pale]).classify(np.zeros((1, 9))).letters == ["."]


def test_a_colour_is_read_only_when_clearly_nearer_than_empty() -> None:
    # an empty hole on pale birch under a warm lamp's reflection (the board's colour there, so no
    # reflection check) lay 1.57 spreads from white and 1.73 from empty: a confident white peg, and
    # three false plays in a clip. A peg clearly nearer its colour is read as before
    from vision.classify import COLOUR_MARGIN, Classifier, learn_model

    empty = learn_model(".", "empty", np.zeros((1, 9)))
    white = learn_model("W", "white", np.array([[0.3, 0.2, 0.1] * 3]))
    classifier = Classifier(empty, [white])
    between = np.array([[0.3, 0.2, 0.1] * 3]) * 0.55  # a little nearer white than empty
    d = classifier.distances(between)[0]
    assert d[1] < d[0] < COLOUR_MARGIN * d[1]
    assert classifier.classify(between).letters == ["?"]
    assert classifier.classify(np.array([[0.3, 0.2, 0.1] * 3]) * 0.9).letters == ["W"]


def test_a_hole_brighter_as_a_whole_than_its_own_empty_look_is_still_empty() -> None:
    # each hole's own empty look, taken brighter or darker as a whole (sun, shadow)
    from vision.classify import Classifier, learn_model

    own = np.array(
        [[-1.0, -0.9, -0.8, -0.3, -0.3, -0.2, 0.0, 0.0, 0.0], [-0.6, -0.6, -0.6, -0.1, 0, 0, 0, 0, 0]]
    )
    empty = learn_model(".", "empty", np.zeros((1, 9)) - 2.0)  # the board-wide look: far from both
    red = learn_model("R", "red", np.array([[0.0, -0.5, 0.5] * 3]))
    classifier = Classifier(empty, [red], empty_holes=own.tolist())
    assert classifier.classify(own + 0.65).letters == [".", "."]
    assert classifier.classify(own).letters == [".", "."]
    peg = np.array([[0.0, -0.5, 0.5] * 3] * 2)
    assert classifier.classify(peg).letters == ["R", "R"]


def test_small_pegs_are_measured_and_read() -> None:
    # pegs 0.17 pitch across in 0.13-pitch holes: a fixed 0.28-pitch disc saw mostly wood
    base = Scene(size=(1280, 960), rotation=4, tilt=0.3, peg_radius=2.1, hole_radius=1.6)
    session = started([("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow")], base)
    pegs: dict[int, str] = {}
    for k, (_letter, name) in enumerate(session.colours):
        pegs[session.targets[k]] = name
        assert session.learn_colour(render(replace(base, pegs=dict(pegs), frame=k + 1))).ok
    assert session.peg_radius is not None and abs(2 * session.peg_radius - 4.2 / 25) < 0.04
    assert session.profile.sample_radius < 0.1
    game = replace(
        base,
        pegs={h: ("red", "blue", "green", "yellow")[h % 4] for h in range(0, 100, 3)},
        rotation=-3,
        tilt=0.45,
        light=0.8,
        seed=6,
    )
    letters = read_image(render(game), session.profile).letters
    truth = truth_letters(game)
    assert all(got in ("?", want) for got, want in zip(letters, truth, strict=True))
    assert sum(got == "?" for got in letters) <= 3


def test_a_colour_is_hard_by_its_distance_from_empty_against_that_distance_s_own_noise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "hard" compares the peg's distance from empty (the nearer of its own look and the board's)
    # with the same distance's noise over the empty holes. A camera that shook between the
    # pictures moves every empty hole from its own tight look (here by 9 spreads) but not from
    # the board's: a clear red peg is not hard. Judged by the own look's noise it was (review).
    import vision.calibration as calibration

    own_change = calibration.own_change

    def shaken(features, own):  # type: ignore[no-untyped-def]
        changed = own_change(features, own)
        return np.where(changed < calibration.PEG_SEEN, changed + 9.0, changed)

    session = started([("R", "red")])
    monkeypatch.setattr(calibration, "own_change", shaken)
    (hole,) = session.targets
    outcome = session.learn_colour(render(replace(BASE, pegs={hole: "red"}, frame=1)))
    assert outcome.ok and outcome.message == "colour-learnt", outcome
    assert session.hard == []


def test_red_pegs_on_reddish_wood_are_read_or_the_refusal_says_what_to_change() -> None:
    cherry = (70, 100, 170)
    base = Scene(size=SMALL, rotation=-2, tilt=0.2, board=cherry)
    session = started([("R", "red"), ("B", "blue")], base)
    red_hole, blue_hole = session.targets
    outcome = session.learn_colour(render(replace(base, pegs={red_hole: "red"}, frame=1)))
    if not outcome.ok:  # refused: then with a sentence naming the hole and what to change
        from vision.calibration_session import MESSAGES

        assert outcome.message in MESSAGES and "light" in MESSAGES[outcome.message]
        return
    assert outcome.message in ("colour-learnt", "colour-learnt-hard")
    assert (outcome.message == "colour-learnt-hard") == (session.hard == ["red"])
    assert session.learn_colour(render(replace(base, pegs={red_hole: "red", blue_hole: "blue"}, frame=2))).ok
    game = replace(base, pegs={3: "red", 15: "red", 47: "blue", 62: "red", 88: "blue"}, rotation=3, seed=8)
    letters = read_image(render(game), session.profile).letters
    assert all(got in ("?", want) for got, want in zip(letters, truth_letters(game), strict=True))
    assert sum(got == "?" for got in letters) <= 3


def test_a_step_learns_the_mean_of_its_frames_not_one_frame_s_noise() -> None:
    # five frames of the still board, each with its own sensor noise: the holes' own empty looks
    # come out closer to the noiseless board's than from any one frame (the mean has less noise)
    noisy = [render(replace(BASE, noise=9.0, frame=k)) for k in range(5)]
    clean = started([("R", "red")]).profile.empty_holes
    errors = []
    for frames in ([noisy[0]], noisy):
        session = CalibrationSession(default_profile(), colours=[("R", "red")])
        session.keep_corners()
        assert session.learn_empty(frames).ok
        own = np.asarray(session.profile.empty_holes)
        errors.append(float(np.median(np.abs(own - np.asarray(clean)))))
    assert errors[1] < 0.7 * errors[0], errors


def test_frames_in_which_something_moved_are_refused_as_moved() -> None:
    session = CalibrationSession(default_profile(), colours=[("R", "red")])
    session.keep_corners()
    frames = [render(BASE), render(BASE), render(replace(BASE, shift=(6.0, 0.0)))]
    outcome = session.learn_empty(frames)
    assert not outcome.ok and outcome.message == "moved" and session.step is Step.EMPTY
    assert session.learn_empty(frames[:2]).ok
    hole = session.targets[0]
    peg = render(replace(BASE, pegs={hole: "red"}))
    moved = render(replace(BASE, pegs={hole: "red"}, shift=(0.0, 6.0)))
    assert session.learn_colour([peg, moved]).message == "moved"
    # the peg put in while the pictures were taken: their mean would hold half a peg
    before = render(replace(BASE, pegs={}, frame=1))
    assert session.learn_colour([before, peg, peg]).message == "moved"
    noisy = [render(replace(BASE, pegs={hole: "red"}, noise=4.0, jpeg=60, frame=k)) for k in range(5)]
    assert session.learn_colour(noisy).ok  # sensor noise and JPEG are no movement


def test_a_pale_peg_on_pale_wood_is_measured_not_taken_for_no_peg() -> None:
    # a white peg on birch under a warm lamp brightens the wood by only ~15 %; it covers the
    # dark hole. Measured as "no peg", the disc stayed 0.56 pitch across and the white peg of
    # birch-pale-pegs-warm was refused in every draw ("No peg seen in row 3, column 3")
    import cv2

    empty = np.full((61, 61, 3), (108, 171, 226), np.uint8)
    cv2.circle(empty, (30, 30), 4, (17, 27, 36), -1)
    for radius in (6, 9):
        peg = empty.copy()
        cv2.circle(peg, (30, 30), radius, (126, 196, 246), -1)
        measured = measure_peg(peg, empty, (30, 30), 48)
        assert measured is not None and abs(measured[2] * 48 - radius) <= 1.5, measured


def test_the_light_s_warmth_is_read_on_the_stickers_paper_and_named_in_the_refusal() -> None:
    from vision.calibration_session import WARM, paper_warmth
    from vision.markers import MarkerFinder

    finder = MarkerFinder()
    warm_scene = replace(BASE, warmth=1.0)
    cool, warm = render(BASE), render(warm_scene)
    assert abs(paper_warmth(cool, finder.find(cool)) or 0.0) < WARM / 2
    assert (paper_warmth(warm, finder.find(warm)) or 0.0) > WARM
    # the same refusal as above (a red peg where blue is asked), under a warm lamp: the
    # sentence says that the light may be the cause and what to change
    session = started([("R", "red"), ("B", "blue")], warm_scene)
    red_hole, blue_hole = session.targets
    assert session.learn_colour(render(replace(warm_scene, pegs={red_hole: "red"}))).ok
    outcome = session.learn_colour(render(replace(warm_scene, pegs={red_hole: "red", blue_hole: "red"})))
    assert not outcome.ok and outcome.message == "looks-like-other-warm" and outcome.values["other"] == "red"


def test_two_tall_pegs_fit_the_lean_so_each_disc_stays_on_its_head() -> None:
    # tees seen at an angle lean away from the point below the camera (at 4.5, 12 here), the
    # more the farther they stand: k * (p - n). Two pegs five holes apart lean differently; their
    # mean shift put each disc a tenth of a pitch off a 0.15-pitch head
    from vision.calibration import fit_head_shift

    k, nadir = 0.04, (4.5, 12.0)
    holes = [(2.0, 2.0), (7.0, 2.0)]
    shifts = [(k * (x - nadir[0]), k * (y - nadir[1])) for x, y in holes]
    fk, mx, my = fit_head_shift(holes, shifts)
    for (x, y), (sx, sy) in zip(holes, shifts, strict=True):
        assert abs(fk * x - mx - sx) < 1e-6 and abs(fk * y - my - sy) < 1e-6
    assert fit_head_shift(holes[:1], shifts[:1]) == (0.0, -shifts[0][0], -shifts[0][1])


@pytest.mark.parametrize(("lean", "features"), [(0.04, 9), (0.0, 18)])
def test_pegs_that_lean_across_the_board_are_read_by_their_head_alone(
    monkeypatch: pytest.MonkeyPatch, lean: float, features: int
) -> None:
    # heads 0.16 pitch across leaning 0.04 pitch per hole from the point below the camera: the
    # hole beside the head shows the head at one place and the stem at another, so one example
    # cannot teach the hole's look (yellow golf tees far from theirs were read as empty)
    built = features_built_with(
        monkeypatch, lambda col, row, _centre: (lean * (col - 4.5), lean * (row - 12.0), 0.08)
    )
    session = started([("R", "red"), ("B", "blue")])
    red_hole, blue_hole = session.targets
    assert session.learn_colour(render(replace(BASE, pegs={red_hole: "red"}))).ok
    assert built[-1] == 18  # one peg: no lean can be told
    assert session.learn_colour(render(replace(BASE, pegs={red_hole: "red", blue_hole: "blue"}))).ok
    assert built[-1] == features


@pytest.mark.parametrize(
    ("lean", "radii", "features"),
    [
        (0.04, (0.08, 0.08, 0.08), (18, 18, 9)),  # tees: judged from the third peg on
        (0.007, (0.07, 0.08, 0.09), (18, 18, 18)),  # a lean within the head's radius: none
        (0.012, (0.05, 0.05, 0.09), (18, 18, 9)),  # ... a lean beyond it is
        # one head over-measured (a shadow counted with it) hid a real lean when the largest
        # head was the measure (review of the third round): the median is
        (0.012, (0.08, 0.08, 0.3), (18, 18, 9)),
        # pale domes on birch, their faint heads measuring the lean high: a drift just beyond
        # the head's radius (1.1 times) is no tee (tees drift 1.4-2.7 times); 1.4 times is
        (0.0088, (0.08, 0.08, 0.08), (18, 18, 18)),
        (0.0112, (0.08, 0.08, 0.08), (18, 18, 9)),
    ],
)
def test_the_lean_is_judged_from_three_pegs_against_the_median_head(
    monkeypatch: pytest.MonkeyPatch, lean: float, radii: tuple[float, ...], features: tuple[int, ...]
) -> None:
    # two domes on birch under a warm lamp: the slope fitted from two pegs was as large as the
    # lean itself, the white one measured small (low contrast), and the pair was taken for
    # leaning tees; the white peg, plain in its hole, was then "no longer seen" by its head alone
    sizes = iter(radii)
    measured: dict[tuple[float, float], float] = {}

    def leaning_peg(col: float, row: float, centre: tuple[float, float]) -> tuple[float, float, float]:
        if centre not in measured:
            measured[centre] = next(sizes)
        return lean * (col - 4.5), lean * (row - 12.0), measured[centre]

    built = features_built_with(monkeypatch, leaning_peg)
    session = started([("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow")])
    pegs: dict[int, str] = {}
    for k, (_letter, name) in enumerate(session.colours[:3]):
        pegs[session.targets[k]] = name
        assert session.learn_colour(render(replace(BASE, pegs=dict(pegs), frame=k + 1))).ok
        assert built[-1] == features[k], (k, built)


@pytest.mark.parametrize("kind", ["jitter", "noise", "exposure"])
def test_a_shaking_stand_a_noisy_webcam_or_changing_exposure_is_not_movement(kind: str) -> None:
    """Review finding 3: fixed levels without brightness correction refused every step with
    ordinary cameras: half a pixel of camera jitter, heavy noise at 640x480, exposure drift."""
    import cv2

    from vision.calibration_session import still_picture

    size = (640, 480)
    scene = replace(BASE, size=size, rotation=-3, tilt=0.2)
    base = render(scene)
    if kind == "jitter":
        shifts = [np.float32([[1, 0, 0.5 * (k % 2)], [0, 1, 0.3 * (k % 2)]]) for k in range(5)]
        frames = [cv2.warpAffine(base, m, size, borderMode=cv2.BORDER_REPLICATE) for m in shifts]
    elif kind == "noise":
        frames = [render(replace(scene, noise=14.0, frame=k)) for k in range(5)]
    else:
        gains = [1 + 0.2 * k / 4 for k in range(5)]
        frames = [np.clip(base.astype(np.float32) * g, 0, 255).astype(np.uint8) for g in gains]
    assert still_picture(frames) is not None
    # ... while a peg put in between the frames still is
    hole = CalibrationSession(default_profile(), colours=[("R", "red")]).targets[0]
    peg = render(replace(scene, pegs={hole: "red"}))
    assert still_picture([frames[0], frames[1], peg, peg, peg]) is None


def test_a_head_only_profile_is_saved_loaded_and_reads_its_pegs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """End to end (review nit 10: the test above stubs the learning): pegs that lean give a
    9-number profile; it is learnt, saved, loaded and reads its own pegs without a wrong hole."""
    import vision.calibration as calibration
    from vision.profile import load_profile
    from vision.reader import read_image

    def leaning_peg(peg, empty, centre, pitch):  # type: ignore[no-untyped-def]
        col, row = (centre[0] / pitch - 0.75, centre[1] / pitch - 0.75)
        return 0.03 * (col - 4.5), 0.03 * (row - 12.0), 0.12

    monkeypatch.setattr(calibration, "measure_peg", leaning_peg)
    session = started([("R", "red"), ("B", "blue")])
    red_hole, blue_hole = session.targets
    pegs = {red_hole: "red", blue_hole: "blue"}
    assert session.learn_colour(render(replace(BASE, pegs={red_hole: "red"}))).ok
    assert session.learn_colour(render(replace(BASE, pegs=pegs))).ok
    assert session.save(tmp_path / "p.json").ok
    profile = load_profile(tmp_path / "p.json")
    assert profile.features == 9 and profile.letters() == {"R": "red", "B": "blue"}
    game = {red_hole: "red", blue_hole: "blue", red_hole + 10: "blue", blue_hole + 10: "red"}
    letters = read_image(render(replace(BASE, pegs=game, frame=2)), profile).letters
    truth = truth_letters(replace(BASE, pegs=game))
    wrong = [h for h, (got, want) in enumerate(zip(letters, truth, strict=True)) if got not in ("?", want)]
    assert wrong == []
    assert letters[red_hole] == "R" and letters[blue_hole] == "B"


def test_colours_brought_together_by_the_lamp_s_reflection_are_judged_without_it() -> None:
    # a green peg on cherry under a 2700 K lamp came within 1.8 spreads of the blue learnt near
    # the reflection; with the reflection taken out of both holes they are far apart. A peg
    # that looks like a learnt colour without any reflection is still refused (test above)
    from vision.calibration_session import LOOKS_LIKE, closest_colour, looks_alike
    from vision.profile import ColourModel

    blue = ColourModel("B", "blue", (0.3, -0.1, -0.9) * 3, (0.2,) * 9, 1)
    # the blue hole without the reflection (2.3 spreads from green, as once measured, is no
    # longer enough: APART_CLEARLY, test below)
    seen_blue = np.array([1.2, -0.4, -1.8] * 3)
    green = np.array([0.05, -0.05, -0.75] * 3)
    seen, _nearest = closest_colour([blue], [np.array(blue.mean)], green)
    assert seen < LOOKS_LIKE  # alike as seen
    apart, closest = closest_colour([blue], [seen_blue], green)
    assert closest == 0 and not looks_alike(seen, apart)
    assert looks_alike(seen, closest_colour([blue], [seen_blue], seen_blue + 0.1)[0])


def test_a_peg_of_the_same_colour_brighter_or_darker_as_a_whole_looks_alike() -> None:
    # the same colour in another hole: lit a little differently, or its shading seen from
    # another side, it is brighter or darker in every number alike. As seen, 1.7 spreads apart
    # (root mean square) between two pegs of one colour and 1.8 between a green and a blue dome
    # under a 2700 K lamp (unseen setups): the hue decides, the brightness is set aside
    from vision.calibration_session import LOOKS_LIKE, closest_colour
    from vision.profile import ColourModel

    blue = ColourModel("B", "blue", (0.3, -0.1, -0.9) * 3, (0.2,) * 9, 1)
    learnt = [np.array(blue.mean)]
    darker_blue = np.array(blue.mean) - 0.2  # 1 spread in every number, as seen
    assert closest_colour([blue], learnt, darker_blue)[0] < 0.01
    assert closest_colour([blue], learnt, np.array(blue.mean) - 0.5)[0] < LOOKS_LIKE  # 2.5 as seen
    hue = np.array(blue.mean) + np.array([-0.5, 0.5, 0.0] * 3)  # another hue: 2 spreads apart
    assert closest_colour([blue], learnt, hue)[0] > LOOKS_LIKE
    # ... but not all of a brightness: black is white, only darker in every number; and a light
    # grey 0.6 darker than white in every number (3 spreads) is no white peg seen in the shade
    assert closest_colour([blue], learnt, np.array(blue.mean) - 0.6)[0] > LOOKS_LIKE
    white = ColourModel("W", "white", (0.4, 0.3, 0.2) * 3, (0.2,) * 9, 1)
    assert closest_colour([white], [np.array(white.mean)], np.array(white.mean) - 2.0)[0] > LOOKS_LIKE


def test_a_peg_alike_as_seen_is_learnt_only_when_clearly_apart_without_the_reflection() -> None:
    # taking the reflection out of one hole is noisy: just apart without it is not enough to
    # learn a peg that looks like a learnt colour (review of the third round) ...
    from vision.calibration_session import LOOKS_LIKE, looks_alike

    assert looks_alike(0.9 * LOOKS_LIKE, 1.5 * LOOKS_LIKE)
    assert not looks_alike(0.9 * LOOKS_LIKE, 2.5 * LOOKS_LIKE)
    # ... and a peg apart as seen but alike without the reflection (the same peg moved into it)
    assert looks_alike(1.6 * LOOKS_LIKE, 0.6 * LOOKS_LIKE)
    assert not looks_alike(3 * LOOKS_LIKE, 1.5 * LOOKS_LIKE)


def test_the_lean_is_judged_at_the_last_colour_even_when_pegs_go_unmeasured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # two of four pegs too close to the board's colour to measure: counting measured pegs, the
    # lean was never judged and leaning tees were read by a disc beside their heads
    calls: dict[tuple[float, float], int] = {}

    def leaning_peg(col: float, row: float, centre: tuple[float, float]) -> tuple[float, float, float] | None:
        calls.setdefault(centre, len(calls))
        if calls[centre] in (1, 2):  # the second and third colour are not measured
            return None
        return 0.04 * (col - 4.5), 0.04 * (row - 12.0), 0.08

    built = features_built_with(monkeypatch, leaning_peg)
    session = started([("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow")])
    pegs: dict[int, str] = {}
    for k, (_letter, name) in enumerate(session.colours):
        pegs[session.targets[k]] = name
        assert session.learn_colour(render(replace(BASE, pegs=dict(pegs), frame=k + 1))).ok
        assert built[-1] == (9 if k == 3 else 18), (k, built)


@pytest.mark.parametrize("board", [(150, 195, 225), (45, 62, 92)])
def test_white_and_black_pegs_are_two_colours(
    board: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # white and black differ in brightness alone: with all of it set aside black "looked white"
    # (review of the fifth round); only as much as one colour varies between holes is set aside
    monkeypatch.setitem(rb.PEG_COLOURS_BGR, "white", (232, 236, 238))
    monkeypatch.setitem(rb.PEG_COLOURS_BGR, "black", (30, 30, 32))
    monkeypatch.setitem(rb.LETTERS, "white", "W")
    monkeypatch.setitem(rb.LETTERS, "black", "K")
    scene = replace(BASE, board=board)
    session = started([("W", "white"), ("K", "black")], scene)
    white_hole, black_hole = session.targets
    assert session.learn_colour(render(replace(scene, pegs={white_hole: "white"}, frame=1))).ok
    both = {white_hole: "white", black_hole: "black"}
    outcome = session.learn_colour(render(replace(scene, pegs=both, frame=2)))
    assert outcome.ok, outcome
    game = replace(scene, pegs={5: "white", 50: "black", 99: "white", 44: "black"}, frame=3)
    letters = read_image(render(game), session.profile).letters
    assert [letters[h] for h in (5, 50, 99, 44)] == ["W", "K", "W", "K"]


@pytest.mark.parametrize("warmth", [0.0, 0.4])
def test_the_same_peg_offered_for_a_second_colour_in_the_reflection_is_refused(warmth: float) -> None:
    # the lamp's reflection lifts one of the two holes: the same blue peg offered again for
    # yellow looked 3 spreads from the blue learnt (more than LOOKS_LIKE) and was learnt as
    # yellow. Without the reflection it is within LOOKS_LIKE: refused. (Under a 2700 K lamp,
    # warmth 0.8, it is still learnt: a limit, docs/vision.md)
    lit = replace(BASE, glare=0.8, warmth=warmth)
    session = started([("B", "blue"), ("Y", "yellow")], lit)
    # the app asks for holes out of the reflection where it can (test below); on a board in glare
    # all over there may be none, so here the second hole lies in it (the holes of before)
    session.targets = [22, 27]
    blue_hole, yellow_hole = session.targets
    assert session.learn_colour(render(replace(lit, pegs={blue_hole: "blue"}, frame=1))).ok
    twice = {blue_hole: "blue", yellow_hole: "blue"}
    outcome = session.learn_colour(render(replace(lit, pegs=twice, frame=2)))
    assert not outcome.ok and outcome.message.startswith("looks-like-other"), outcome
    assert outcome.values["other"] == "blue"


def test_the_lamp_s_colour_is_learnt_from_the_stickers_paper() -> None:
    # a reflection of the lamp has the lamp's colour: the profile keeps it for the reader
    from vision.profile import profile_from_json

    session = started([("R", "red")], replace(BASE, warmth=1.0))
    assert session.learn_colour(render(replace(BASE, warmth=1.0, pegs={session.targets[0]: "red"}))).ok
    b, _g, r = session.profile.lamp
    assert r > 1.2 * b
    assert profile_from_json(session.profile.to_json()).lamp == session.profile.lamp
