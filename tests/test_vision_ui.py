"""The camera calibration screen, driven headless with a rendered camera: touch the corners, learn
the empty board and the colours, save, and read a game with the saved profile."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from app.config import parse_config
from tests.render_board import SMALL, Scene, camera_from_board, render, truth_letters
from tests.ui_support import UI, find, frames, tap
from vision.calibration_session import CalibrationSession, Step
from vision.profile import default_profile, load_profile
from vision.reader import read_image
from vision.sampling import project


def grid_looked_for(screen: Any) -> None:
    """The screen looks for a board's grid on a worker thread: wait for it, then let the Clock
    hand its result to the screen."""
    assert screen.grid_tries > 0, "the screen did not look for the grid"
    search = screen.grid_search
    if search is not None:  # else it has answered already
        search.join(30)
    frames(2)



def still(screen: Any) -> None:
    """Half a second of the still board: the frames a step of the calibration learns from."""
    from vision.calibration_session import FRAMES

    for _ in range(FRAMES):
        screen.next_frame()


class SceneCamera:
    """A camera looking at whatever scene the test sets."""

    realtime = True

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.closed = False
        self._cache: dict[str, Any] = {}

    def read(self) -> Any:
        key = repr(self.scene)
        if key not in self._cache:
            self._cache[key] = render(self.scene)
        return self._cache[key]

    def close(self) -> None:
        self.closed = True


def corner_pixels(scene: Scene) -> np.ndarray:
    board = np.array([[0, 0], [225, 0], [225, 225], [0, 225]], dtype=np.float64)
    return project(camera_from_board(scene), board)


def touch_at(x: float, y: float) -> None:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(1)


def test_the_session_learns_corners_empty_and_colours_from_frames(tmp_path: Path) -> None:
    scene = Scene(size=SMALL, rotation=5, tilt=0.3)
    session = CalibrationSession(default_profile(), colours=[("R", "red"), ("B", "blue")])
    frame = render(scene)
    for x, y in corner_pixels(scene):
        assert session.touch_corner(frame, x + 1.5, y - 1.0).ok
    assert session.step is Step.EMPTY
    assert np.abs(np.array(session.profile.holes) - [[0, 0], [225, 0], [225, 225], [0, 225]]).max() < 2.5
    # the stickers are measured where the renderer stuck them (the default layout), to ~1 mm
    for measured, default in zip(session.profile.markers, default_profile().markers, strict=True):
        assert measured.id == default.id and abs(measured.size - default.size) < 1.5
        assert np.hypot(*np.subtract(measured.centre, default.centre)) < 2.5 and abs(measured.angle) < 2
    assert session.save(tmp_path / "p.json").message == "not-calibrated"
    assert session.learn_empty(frame).ok and session.step is Step.COLOUR
    assert session.learn_colour(render(Scene(size=SMALL, rotation=5, tilt=0.3))).message == "no-peg-in-hole"
    red = session.target_hole
    outcome = session.learn_colour(render(Scene(size=SMALL, rotation=5, tilt=0.3, pegs={red: "red"})))
    assert outcome.ok and outcome.holes == (red,)
    session.skip_colour()
    assert session.step is Step.DONE and session.learnt == ["red"]
    # no stickers in view: the taps are a sticker-less board's corner points, kept as tapped when
    # no printed lines are near them, and shown for the user to confirm
    blank = np.zeros((480, 640, 3), np.uint8)
    bare = CalibrationSession(default_profile())
    taps = [(100.0, 60.0), (500.0, 60.0), (500.0, 420.0), (100.0, 420.0)]
    said = [bare.touch_corner(blank, x, y).message for x, y in taps]
    assert said == ["corner-noted"] * 3 + ["grid-from-taps"] and bare.profile.picture_corners == tuple(taps)
    assert bare.step is Step.CORNERS and bare.confirm_grid().ok and bare.step is Step.EMPTY


def test_the_calibration_screen_walks_through_every_step_and_saves(ui: UI, tmp_path: Path) -> None:
    from app.ui.camera_calibration import CameraCalibrationScreen, make_screen

    scene = Scene(size=SMALL, rotation=-4, tilt=0.2)
    camera = SceneCamera(scene)
    ctx = SimpleNamespace(config=parse_config(""), manager=None)
    screen = CameraCalibrationScreen(ctx, open_capture=lambda: camera, save_to=tmp_path / "camera.json")
    ui.show(screen)
    screen.on_enter()
    frames(2)
    assert screen.picture.texture is not None and screen.picture.texture.size == (640, 480)
    assert "top left" in screen.instruction.text

    # touch the four corner holes on the picture
    for x, y in corner_pixels(scene):
        height, width = 480, 640
        scale = min(screen.picture.width / width, screen.picture.height / height)
        left = screen.picture.x + (screen.picture.width - width * scale) / 2
        bottom = screen.picture.y + (screen.picture.height - height * scale) / 2
        wx, wy = left + x * scale, bottom + (height - y) * scale
        assert screen.picture_to_frame(wx, wy) == pytest.approx((x, y))
        touch_at(*screen.picture.to_window(wx, wy))
    assert screen.session.step is Step.EMPTY, screen.status.text
    assert "Take every peg off" in screen.instruction.text

    tap(find(screen, text="Learn"))
    assert screen.session.step is Step.COLOUR and "red" in screen.instruction.text
    # every colour players can pick is offered; green, white and black are skipped here
    placed = {"red": True, "blue": True, "green": False, "yellow": True, "white": False, "black": False}
    pegs: dict[int, str] = {}  # the pegs put in before stay on the board
    for colour, place in placed.items():
        assert colour in screen.instruction.text
        hole = screen.session.target_hole
        assert f"row {hole // 10 + 1}, column {hole % 10 + 1}" in screen.instruction.text
        if not place:
            tap(find(screen, text="Skip this colour"))
            continue
        if colour == "red":  # in the wrong hole first: refused, and the sentence says where
            camera.scene = Scene(size=SMALL, rotation=-4, tilt=0.2, pegs={hole + 2: colour})
            still(screen)
            ui.screenshot("camera-calibration-colour")
            tap(find(screen, text="Learn"))
            where = f"row {hole // 10 + 1}, column {hole % 10 + 1}"
            assert screen.status.text.startswith(f"No peg seen in {where}")
            ui.screenshot("camera-calibration-refused")
        pegs[hole] = colour
        camera.scene = Scene(size=SMALL, rotation=-4, tilt=0.2, pegs=dict(pegs))
        if colour == "red":  # Learn tapped the moment the peg went in: its frames disagree
            screen.next_frame()
            tap(find(screen, text="Learn"))
            assert screen.status.text.startswith("Something moved"), screen.status.text
            ui.screenshot("camera-calibration-moved")
        still(screen)
        tap(find(screen, text="Learn"))
        assert screen.status.text.startswith(f"Colour {colour} learnt"), screen.status.text
    assert "red, blue, yellow" in screen.instruction.text
    ui.screenshot("camera-calibration-done")
    tap(find(screen, text="Save"))
    assert "Saved" in screen.status.text
    profile = load_profile(tmp_path / "camera.json")
    assert [c.name for c in profile.colours] == ["red", "blue", "yellow"]

    game = Scene(size=SMALL, pegs={0: "red", 50: "blue", 99: "yellow"}, tilt=0.5)
    assert read_image(render(game), profile).letters == truth_letters(game)
    screen.on_leave()
    assert camera.closed
    assert make_screen(SimpleNamespace(config=parse_config(""), manager=None)).name == "camera_calibration"


def test_no_camera_is_said_on_screen(ui: UI, tmp_path: Path) -> None:
    from app.ui.camera_calibration import CameraCalibrationScreen
    from vision.capture import CaptureError

    def broken() -> Any:
        raise CaptureError("camera 0: cannot be opened")

    ctx = SimpleNamespace(config=parse_config(""), manager=None)
    screen = CameraCalibrationScreen(ctx, open_capture=broken, save_to=tmp_path / "c.json")
    ui.show(screen)
    screen.on_enter()
    assert "No camera picture" in screen.status.text
    tap(find(screen, text="Keep the holes"))
    tap(find(screen, text="Learn"))
    assert "No camera picture" in screen.status.text and screen.session.step is Step.EMPTY


def test_pegs_of_colours_already_learnt_may_stay_on_the_board() -> None:
    # players put their calibration pegs in one after the other and leave them: the red one
    # must not be learnt as blue too (that made blue a mix of red and blue)
    base = Scene(size=SMALL, rotation=-3, tilt=0.2)
    session = CalibrationSession(default_profile(), colours=[("R", "red"), ("B", "blue"), ("Y", "yellow")])
    session.keep_corners()
    assert session.learn_empty(render(base)).ok
    red, blue, _yellow = session.targets
    with_red = replace(base, pegs={red: "red"})
    assert session.learn_colour(render(with_red)).holes == (red,)
    with_blue = replace(base, pegs={red: "red", blue: "blue"})
    outcome = session.learn_colour(render(with_blue))
    assert outcome.ok and outcome.holes == (blue,)
    blue_model = next(c for c in session.profile.colours if c.letter == "B")
    assert blue_model.samples == 1
    # only the old pegs in view: no yellow peg in its hole
    assert session.learn_colour(render(with_blue)).message == "no-peg-in-hole"
    game = Scene(size=SMALL, rotation=-3, tilt=0.2, pegs={5: "blue", 50: "red", 99: "blue"})
    session.skip_colour()
    assert read_image(render(game), session.profile).letters == truth_letters(game)


def test_stickers_placed_elsewhere_work_once_the_corner_holes_are_touched() -> None:
    # the sheet says: anywhere else is fine too, then touch the four corner holes in the app.
    # Small stickers far out: the profile's layout was fitted to them before, and views that
    # saw different stickers placed the holes differently (a blue peg in 12 was read in 32)
    scene = Scene(size=SMALL, stickers=(30.0, 60.0))
    session = CalibrationSession(default_profile(), colours=[("R", "red"), ("B", "blue")])
    turned = replace(scene, rotation=7, tilt=0.35)  # sticker 2 is out of the picture here
    for x, y in corner_pixels(turned):
        outcome = session.touch_corner(render(turned), x, y)
    # three are enough; the one not seen is left out (the others are not where the sheet says)
    assert outcome.ok and sorted(m.id for m in session.profile.markers) == [0, 1, 3]
    session = CalibrationSession(default_profile(), colours=[("R", "red"), ("B", "blue")])
    frame = render(scene)
    for x, y in corner_pixels(scene):
        assert session.touch_corner(frame, x, y).ok
    assert session.step is Step.EMPTY
    sizes = [m.size for m in session.profile.markers]
    assert max(abs(s - 30.0) for s in sizes) < 1.5  # measured, not the default 40 mm
    assert session.learn_empty(frame).ok
    red, blue = session.targets
    assert session.learn_colour(render(replace(scene, pegs={red: "red"}))).holes == (red,)
    assert session.learn_colour(render(replace(scene, pegs={red: "red", blue: "blue"}))).holes == (blue,)
    for game in (
        replace(turned, pegs={0: "red", 9: "blue", 55: "red", 90: "blue", 99: "red"}),
        replace(scene, pegs={12: "blue", 87: "red"}, rotation=-5, tilt=0.6, shift=(12.0, -8.0)),
    ):
        assert read_image(render(game), session.profile).letters == truth_letters(game)


def test_the_calibration_screen_walks_through_in_german(
    ui: UI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import i18n
    from app.ui.camera_calibration import CameraCalibrationScreen

    monkeypatch.setattr(i18n, "_language", "de")
    scene = Scene(size=SMALL, rotation=-4, tilt=0.2)
    camera = SceneCamera(scene)
    ctx = SimpleNamespace(config=parse_config(""), manager=None)
    screen = CameraCalibrationScreen(ctx, open_capture=lambda: camera, save_to=tmp_path / "camera.json")
    ui.show(screen)
    screen.on_enter()
    frames(2)
    assert "Schritt 1 von 4" in screen.title.text and "Eckloch oben links" in screen.instruction.text
    ui.screenshot("camera-calibration-de-corners")
    tap(find(screen, text="Löcher behalten"))
    assert "Alle Stifte vom Brett" in screen.instruction.text
    tap(find(screen, text="Lernen"))
    hole = screen.session.target_hole
    assert f"Reihe {hole // 10 + 1}, Spalte {hole % 10 + 1}" in screen.instruction.text
    camera.scene = replace(scene, pegs={hole + 2: "red"})
    still(screen)
    tap(find(screen, text="Lernen"))
    assert screen.status.text.startswith(f"In Reihe {hole // 10 + 1}, Spalte {hole % 10 + 1} ist kein Stift")
    ui.screenshot("camera-calibration-de-refused")
    camera.scene = replace(scene, pegs={hole: "red"})
    screen.next_frame()
    tap(find(screen, text="Lernen"))
    assert screen.status.text.startswith("Während der Aufnahme hat sich etwas bewegt"), screen.status.text
    ui.screenshot("camera-calibration-de-moved")
    still(screen)
    tap(find(screen, text="Lernen"))
    assert screen.status.text.startswith("Farbe rot gelernt"), screen.status.text
    ui.screenshot("camera-calibration-de-colour")


class GridCamera:
    """A fixed camera over a board without stickers (printed lines), with the pieces the test sets."""

    realtime = True

    def __init__(self) -> None:
        self.pieces: dict[int, str] = {}
        self.closed = False

    def read(self) -> Any:
        from tests.render_grid_board import grid_board

        return grid_board(dict(self.pieces))

    def close(self) -> None:
        self.closed = True



def grid_camera_screen(ui: UI, tmp_path: Path) -> tuple[GridCamera, Any]:
    """The camera calibration screen shown over a :class:`GridCamera` (a board without stickers),
    entered and given its first frames: where every test of a board without stickers starts."""
    from app.ui.camera_calibration import CameraCalibrationScreen

    camera = GridCamera()
    ctx = SimpleNamespace(config=parse_config(""), manager=None)
    screen = CameraCalibrationScreen(ctx, open_capture=lambda: camera, save_to=tmp_path / "camera.json")
    ui.show(screen)
    screen.on_enter()
    frames(2)
    return camera, screen

def frame_to_window(screen: Any, x: float, y: float) -> tuple[float, float]:
    """A pixel of the camera's frame -> where a finger touches it on the screen."""
    height, width = screen.frame.shape[:2]
    scale = min(screen.picture.width / width, screen.picture.height / height)
    left = screen.picture.x + (screen.picture.width - width * scale) / 2
    bottom = screen.picture.y + (screen.picture.height - height * scale) / 2
    return screen.picture.to_window(left + x * scale, bottom + (height - y) * scale)


def test_a_board_without_stickers_is_found_by_four_rough_taps_confirmed_and_learnt(
    ui: UI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No stickers in view and the grid not found by itself (refused here, as on a board it
    cannot find): the screen asks for the board's corner points, four taps 0.3 pitch off are
    refined onto the printed lines and drawn for confirmation, and the guided steps go on to a
    learnt colour; the saved profile reads a game with no corners given (the code before refused
    every tap: "does not see enough of the board's stickers")."""
    from app import i18n
    from tests.render_grid_board import CORNERS, grid_board, rough_taps
    from vision import grid_find

    def refuse(*_args: Any) -> Any:
        raise grid_find.GridNotFoundHere("test")

    monkeypatch.setattr(grid_find, "find_corners", refuse)
    camera, screen = grid_camera_screen(ui, tmp_path)
    grid_looked_for(screen)
    assert "No stickers seen" in screen.instruction.text and "top left" in screen.instruction.text
    assert screen.status.text.startswith("No stickers seen, and the board's grid was not found")
    assert find(screen, text="Clear the taps").height >= 48
    for k, (x, y) in enumerate(rough_taps(off=0.3)):
        touch_at(*frame_to_window(screen, x, y))
        if k < 3:
            assert screen.status.text == "Corner noted.", screen.status.text
        if k == 1:
            screen.next_frame()
            ui.screenshot("camera-calibration-taps-en")  # rings where the two corners were tapped
    assert screen.session.step is Step.CORNERS and screen.session.grid_to_confirm
    assert screen.status.text.startswith("The grid was found on the board's printed lines")
    kept = np.array(screen.session.profile.picture_corners)
    assert np.abs(kept - CORNERS).max() < 0.15 * 358 / 9  # on the lines, not where the finger was
    screen.next_frame()
    ui.screenshot("camera-calibration-grid-en")
    i18n.set_language("de")
    screen.refresh()
    assert "Raster" in find(screen, text=i18n.tr("Grid is right")).text
    ui.screenshot("camera-calibration-grid-de")
    i18n.set_language("en")
    screen.refresh()
    tap(find(screen, text="Grid is right"))
    assert screen.session.step is Step.EMPTY and "Take every peg off" in screen.instruction.text
    still(screen)
    tap(find(screen, text="Learn"))
    assert screen.session.step is Step.COLOUR and "red" in screen.instruction.text, screen.status.text
    for colour in ("red", "blue", "green", "yellow", "white", "black"):
        assert colour in screen.instruction.text
        if colour not in ("red", "black"):
            tap(find(screen, text="Skip this colour"))
            continue
        camera.pieces[screen.session.target_hole] = colour
        still(screen)
        tap(find(screen, text="Learn"))
        assert screen.status.text.startswith(f"Colour {colour} learnt"), screen.status.text
    tap(find(screen, text="Save"))
    assert "Saved" in screen.status.text
    profile = load_profile(tmp_path / "camera.json")
    assert [c.name for c in profile.colours] == ["red", "black"] and profile.picture_corners is not None
    game = {0: "red", 9: "black", 44: "red", 90: "black", 99: "red"}
    letters = ["."] * 100
    for point, name in game.items():
        letters[point] = {"red": "R", "black": "K"}[name]
    assert read_image(grid_board(game, seed=7), profile).letters == letters
    screen.on_leave()


def test_a_board_without_stickers_has_its_grid_found_by_itself_and_proposed_to_confirm(
    ui: UI, tmp_path: Path
) -> None:
    """No stickers in view: the screen finds the board's grid on the picture by itself
    (``vision/grid_find.py``) and draws it to be confirmed, no taps needed; "Grid is right" goes
    on to the empty board. Tapping the corners instead rejects it (the taps' grid replaces it)."""
    from app import i18n
    from tests.render_grid_board import CORNERS, rough_taps

    _camera, screen = grid_camera_screen(ui, tmp_path)
    grid_looked_for(screen)
    assert screen.session.step is Step.CORNERS and screen.session.grid_to_confirm
    assert screen.status.text == "The board's grid was found on the picture by itself."
    assert "Grid is right" in screen.instruction.text
    kept = np.array(screen.session.profile.picture_corners)
    assert np.abs(kept - CORNERS).max() < 0.1 * 358 / 9
    assert find(screen, text="Grid is right").height >= 48
    screen.next_frame()
    ui.screenshot("camera-calibration-found-en")
    i18n.set_language("de")
    try:
        screen.refresh()
        assert screen.status.text.startswith("Das Raster des Bretts wurde auf dem Bild von selbst gefunden")
        assert find(screen, text="Zurück") is not None  # every button in the language shown
        ui.screenshot("camera-calibration-found-de")
    finally:
        i18n.set_language("en")
    screen.refresh()
    # the user says no by tapping the corners: the proposal is dropped for the taps' grid
    for x, y in rough_taps(off=0.3):
        touch_at(*frame_to_window(screen, x, y))
    assert screen.status.text.startswith("The grid was found on the board's printed lines")
    tap(find(screen, text="Grid is right"))
    assert screen.session.step is Step.EMPTY and "Take every peg off" in screen.instruction.text
    screen.on_leave()


def test_a_grid_not_found_on_the_first_frames_is_looked_for_again(
    ui: UI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A camera's first frames are dark while its exposure settles: a refused search is tried
    again a little later (on a worker thread, so the screen never freezes), and the grid found
    then is proposed (the code before looked once per session and asked for taps)."""
    from app.ui import camera_calibration
    from vision import grid_find

    real = grid_find.find_corners
    calls: list[int] = []

    def dark_first(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise grid_find.GridNotFoundHere("too dark")
        return real(*args)

    monkeypatch.setattr(grid_find, "find_corners", dark_first)
    monkeypatch.setattr(camera_calibration, "GRID_RETRY_S", 0.0)
    _camera, screen = grid_camera_screen(ui, tmp_path)
    for _ in range(5):  # the screen's own 10 frames a second look again; wait for the answer
        grid_looked_for(screen)
        if screen.session.grid_to_confirm:
            break
        screen.next_frame()
    assert len(calls) == 2 and screen.grid_tries == 2
    assert screen.session.grid_to_confirm
    assert screen.status.text == "The board's grid was found on the picture by itself."
    screen.on_leave()
