"""The app plays a short game of 99 from a rendered video through the camera source.

Everything between the video file and the stored game is the real thing: the config names
``[board] source = "camera"`` with the video as the camera, the app builds the source through
its factory, OpenCV decodes the file, the camera source's thread reads the board, and the game
screen's referee judges and stores the plays announced by touch. The only test seam is a gate in
front of the decoded frames: it lets the video run on only when the test has announced the
next play, as a real table's players would wait for each other.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.config import parse_config
from app.store import GameStore
from tests.render_board import SMALL, Scene, reach_and_place, render, small_profile
from tests.test_ui_board99 import Driver, FakeClock
from tests.test_vision_source import Processed
from tests.ui_support import find, frames, tap

pytestmark = pytest.mark.ui

FPS = 10


class Gate:
    """Hands the video's frames to the camera source only as far as the test has allowed."""

    def __init__(self) -> None:
        self.allowed = 0
        self.cond = threading.Condition()
        self.closed = False
        self.on_frame = Processed()  # the camera source calls it after reading each frame

    def wrap(self, capture: Any) -> Any:
        gate = self

        class Gated:
            realtime = capture.realtime

            def read(self) -> Any:
                with gate.cond:
                    if not gate.cond.wait_for(lambda: gate.closed or gate.allowed > 0, timeout=20):
                        return None
                    if gate.closed:
                        return None
                    gate.allowed -= 1
                return capture.read()

            def close(self) -> None:
                capture.close()

        return Gated()

    def play(self, n: int) -> None:
        """Let ``n`` more frames through and wait until the source has read the board on each."""
        target = self.on_frame.count + n  # no frame passes before ``allowed`` grows
        with self.cond:
            self.allowed += n
            self.cond.notify_all()
        self.on_frame.wait_for(target)

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()


def write_video(path: Path, scenes: list[Scene]) -> None:
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SMALL)
    assert writer.isOpened(), "this OpenCV cannot write MJPG video"
    for scene in scenes:
        writer.write(render(scene))
    writer.release()


def still(scene: Scene, first: int, n: int = 6) -> list[Scene]:
    return [replace(scene, frame=first + i) for i in range(n)]


class CameraDriver(Driver):
    """The app configured for the camera, its source built by the app's own factory."""

    def __init__(self, ui: Any, config_text: str, gate: Gate) -> None:
        from app.paths import default_database
        from app.sources import make_source
        from app.ui.shell import Table99App

        config = parse_config(config_text)

        def build(kind: str | None) -> Any:
            source = make_source(config, kind)
            opener = source._open_capture  # the factory's: open_capture(the video file)
            source._open_capture = lambda: gate.wrap(opener())
            source.on_frame = gate.on_frame
            self.source = source
            return source

        self.ui = ui
        self.store = GameStore(default_database())
        self.app = Table99App(config=config, store=self.store, make_source=build)
        self.root = self.app.build()
        ui.show(self.root)
        self.clock = FakeClock()
        self.screen.clock = self.clock


def test_the_app_plays_a_short_game_from_a_rendered_video(ui: Any, tmp_path: Path) -> None:
    from vision.camera_source import CameraSource

    board = Scene(size=SMALL, noise=2, tilt=0.3, rotation=-4)
    ann = replace(board, pegs={57: "red"})
    ben = replace(board, pegs={57: "red", 73: "blue"})
    segments = [
        still(board, 0),  # the empty board
        reach_and_place(board, ann, 57, 6) + still(ann, 11),  # Ann places a red peg in 57
        reach_and_place(ann, ben, 73, 17) + still(ben, 22),  # Ben places a blue peg in 73
    ]
    video = tmp_path / "game.avi"
    write_video(video, [scene for segment in segments for scene in segment])
    profile = tmp_path / "camera_profile.json"
    small_profile().save(profile)
    config = f'[board]\nsource = "camera"\n[board.camera]\ncamera = "{video}"\nprofile = "{profile}"\n'
    gate = Gate()
    d = CameraDriver(ui, config, gate)
    try:
        tap(find(d.root, text="New: The Game of 99"))
        d.setup_tap(find(d.root, text="Rows"))
        tap(find(d.root, text="Start"))
        assert isinstance(d.screen.source, CameraSource) and d.screen.source is d.source
        gate.play(len(segments[0]))
        d.settle()
        assert "Ann's turn" in d.screen.turn_label.text

        d.press("DRAW")
        d.press("DRAW")
        d.press("PLAY")
        d.type_card(40)
        gate.play(len(segments[1]))
        d.settle()
        assert d.stored()[-1] == {"by": "Ann", "do": "play", "card": 40, "square": 57}
        assert d.screen.board.pegs == {57: "red"}
        assert "Ben's turn" in d.screen.turn_label.text

        d.press("PLAY")
        d.type_card(60)
        gate.play(len(segments[2]))
        d.settle()
        assert d.stored()[-1] == {"by": "Ben", "do": "play", "card": 60, "square": 73}
        assert d.screen.board.pegs == {57: "red", 73: "blue"}
        frames(2)
        ui.screenshot("vision-app-game")
    finally:
        gate.close()
        d.screen.stop()
        d.source.stop()
