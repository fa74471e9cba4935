"""The camera as a board source: readings with colours, health, the factory, and a game refereed
from a rendered video through the camera source."""

from __future__ import annotations

import queue
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.config import ConfigError, parse_config
from app.sources import make_source
from hardware.board_source import BoardReading, HealthState, ReadingQueue, SourceHealth
from tests.render_board import SMALL, Scene, reach_and_place, render, small_profile
from vision.camera_source import CameraSource
from vision.capture import CaptureError, Frames, open_capture
from vision.profile import default_profile


class FeedCapture:
    """A capture the test feeds frame by frame; ``read`` waits for the next (None ends it)."""

    realtime = False

    def __init__(self) -> None:
        self.frames: queue.Queue[Any] = queue.Queue()

    def read(self) -> Any:
        return self.frames.get(timeout=10)

    def close(self) -> None:
        pass


class Processed:
    """Counts frames the source has processed, so the test waits for exactly those it fed."""

    def __init__(self) -> None:
        self.count = 0
        self.cond = threading.Condition()

    def __call__(self, _result: Any) -> None:
        with self.cond:
            self.count += 1
            self.cond.notify_all()

    def wait_for(self, n: int) -> None:
        with self.cond:
            assert self.cond.wait_for(lambda: self.count >= n, timeout=30), f"only {self.count} of {n} frames"


def run_frames(frames: list[Any], **kwargs: Any) -> tuple[CameraSource, list[Any]]:
    events: list[Any] = []
    source = CameraSource(lambda: Frames(frames), small_profile(), **kwargs)
    source.subscribe(events.append)
    source.start()
    assert source.wait(30)
    return source, events


def test_the_camera_source_publishes_stable_readings_with_colour_names() -> None:
    board = Scene(size=SMALL, pegs={0: "red", 57: "blue", 99: "yellow"}, noise=2)
    frames = [render(replace(board, frame=i)) for i in range(5)]
    source, events = run_frames(frames, still_frames=3)
    readings = [e for e in events if isinstance(e, BoardReading)]
    assert len(readings) == 1
    (reading,) = readings
    assert reading.occupied == {0, 57, 99} and reading.unsure == frozenset()
    assert dict(reading.colours or {}) == {0: "red", 57: "blue", 99: "yellow"}
    assert reading.sequence == 1 and source.sees_colour
    states = [e.state for e in events if isinstance(e, SourceHealth)]
    assert states == [HealthState.STARTING, HealthState.CONNECTED, HealthState.STOPPED]


def test_a_recorded_video_file_plays_through_the_camera_source(tmp_path: Path) -> None:
    import cv2

    board = Scene(size=SMALL, pegs={4: "green", 40: "red"}, noise=2)
    writer = cv2.VideoWriter(str(tmp_path / "game.avi"), cv2.VideoWriter_fourcc(*"MJPG"), 10, SMALL)
    assert writer.isOpened()
    for i in range(6):
        writer.write(render(replace(board, frame=i)))
    writer.release()
    events: list[Any] = []
    source = CameraSource(lambda: open_capture(str(tmp_path / "game.avi")), small_profile(), still_frames=3)
    source.subscribe(events.append)
    source.start()
    assert source.wait(30) and source.frames_read == 6
    readings = [e for e in events if isinstance(e, BoardReading)]
    assert [dict(r.colours or {}) for r in readings] == [{4: "green", 40: "red"}]


def test_an_uncalibrated_profile_is_reported_as_an_error_not_read() -> None:
    events: list[Any] = []
    source = CameraSource(lambda: Frames([render(Scene(size=SMALL))]), default_profile())
    source.subscribe(events.append)
    source.start()
    assert source.wait(10)
    assert source.health.state is HealthState.ERROR and "calibrated" in source.health.detail
    assert not [e for e in events if isinstance(e, BoardReading)]
    # the screen shows the health in the app's language
    from app import i18n

    message = source.health.message
    assert message is not None
    i18n.set_language("de")
    try:
        assert message.render(i18n.tr) == "die Kamera ist noch nicht kalibriert (Einstellungen: Kamera)"
    finally:
        i18n.set_language("en")
    source.stop()


def test_a_camera_that_cannot_open_is_an_error_that_says_which() -> None:
    def broken() -> Any:
        raise CaptureError("camera 7: cannot be opened")

    source = CameraSource(broken, small_profile())
    seen = threading.Event()
    source.subscribe(
        lambda e: seen.set() if isinstance(e, SourceHealth) and e.state is HealthState.ERROR else None
    )
    source.start()
    assert seen.wait(10)
    assert "camera 7" in source.health.detail
    source.stop()
    assert source.health.state is HealthState.STOPPED


def test_a_corrupted_frame_is_reported_as_an_error_that_says_what() -> None:
    source = CameraSource(lambda: Frames([np.zeros((48, 64), np.uint8)] * 50), small_profile())
    seen = threading.Event()
    source.subscribe(
        lambda e: seen.set() if isinstance(e, SourceHealth) and e.state is HealthState.ERROR else None
    )
    source.start()
    assert seen.wait(10)
    assert "colour picture" in source.health.detail and "(48, 64)" in source.health.detail
    source.stop()


def test_no_stickers_in_view_means_no_reading_and_not_connected() -> None:
    blank = [np.full((480, 640, 3), 90, np.uint8) for _ in range(6)]
    source, events = run_frames(blank)
    assert source.frames_read == 6
    assert not [e for e in events if isinstance(e, BoardReading)]
    assert HealthState.CONNECTED not in [e.state for e in events if isinstance(e, SourceHealth)]


def test_open_capture_understands_files_folders_and_refuses_nonsense(tmp_path: Path) -> None:
    import cv2

    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((10, 12, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "b.png"), np.zeros((10, 12, 3), np.uint8))
    folder = open_capture(str(tmp_path))
    assert folder.read().shape == (10, 12, 3) and folder.read() is not None and folder.read() is None
    assert open_capture(str(tmp_path / "a.png"), loop=True).read() is not None
    with pytest.raises(CaptureError, match="no such"):
        open_capture(str(tmp_path / "nothing.mp4"))
    with pytest.raises(CaptureError, match="device number"):
        open_capture("webcam:front")
    with pytest.raises(CaptureError, match="picamera2"):
        open_capture("picamera")  # not a Raspberry Pi


def test_the_factory_validates_board_camera_and_finds_the_profile(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"\[board.camera\] stil_frames: unknown key \(did you mean 'still_frames'"
    ):
        make_source(parse_config("[board.camera]\nstil_frames = 3\n"), "camera")
    with pytest.raises(ConfigError, match="still_frames"):
        make_source(parse_config("[board.camera]\nstill_frames = 0\n"), "camera")
    small_profile().save(tmp_path / "p.json")
    options = f'camera = "{tmp_path}"\nprofile = "{tmp_path / "p.json"}"\n'
    config = parse_config(f'[board]\nsource = "camera"\n[board.camera]\n{options}')
    source = make_source(config)
    assert isinstance(source, CameraSource) and source.profile.calibrated and source.sees_colour
    (tmp_path / "bad.json").write_text("[]")
    with pytest.raises(ConfigError, match="profile"):
        make_source(parse_config(f'[board.camera]\nprofile = "{tmp_path / "bad.json"}"\n'), "camera")
    assert not make_source(parse_config("[board.camera]\n"), "camera").profile.calibrated  # none saved yet


# -- a game refereed through the camera -------------------------------------------------------
def test_the_referee_plays_a_short_game_from_a_rendered_video() -> None:
    from app.games.board99.game import Board99Game, TableSetup
    from app.referee import Phase, StabilityWindow
    from app.referee.core import Referee
    from app.store import GameStore
    from rules import board99 as rules

    store = GameStore(":memory:")
    game = Board99Game.create(
        store,
        rules.make_setup(("Ann", "Ben"), layout="rows"),
        TableSetup(colours={"Ann": "red", "Ben": "blue"}),
    )
    now = [100.0]
    referee = Referee(game, StabilityWindow(0.4, lambda: now[0]), sees_colour=True)
    capture, processed = FeedCapture(), Processed()
    source = CameraSource(lambda: capture, small_profile(), still_frames=3, on_frame=processed)
    mailbox = ReadingQueue()
    source.subscribe(mailbox.put)
    referee.start()
    source.start()
    fed = 0

    def show(scenes: list[Scene]) -> None:
        nonlocal fed
        for scene in scenes:
            capture.frames.put(render(scene))
        fed += len(scenes)
        processed.wait_for(fed)
        for settle in (0.0, 0.5):
            now[0] += settle
            for event in mailbox.drain():
                referee.on_board_event(event)
            referee.tick()

    def still(scene: Scene, n: int = 4) -> list[Scene]:
        return [replace(scene, frame=fed + i) for i in range(n)]

    def reach(before: Scene, after: Scene, hole: int) -> list[Scene]:
        return reach_and_place(before, after, hole, fed)

    board = Scene(size=SMALL, noise=2)
    show(still(board))
    referee.announce_draw()
    referee.announce_draw()
    referee.announce_play(40)  # Ann
    assert referee.phase is Phase.PLACE_PEG
    ann = replace(board, pegs={57: "red"})
    show(reach(board, ann, 57))
    assert len(store.load(game.id).actions) == 2, "nothing is judged while the hand is over the board"
    show(still(ann))
    assert store.load(game.id).actions[-1] == {"by": "Ann", "do": "play", "card": 40, "square": 57}

    referee.announce_play(60)  # Ben
    target = min(referee.prompt.holes)
    wrong = replace(ann, pegs={57: "red", target: "red"})  # Ben takes a red peg by mistake
    show(reach(ann, wrong, target) + still(wrong))
    assert referee.phase is Phase.FIX_BOARD and "red" in referee.prompt.text
    ben = replace(ann, pegs={57: "red", target: "blue"})
    show(reach(wrong, ben, target) + still(ben))
    actions = store.load(game.id).actions
    assert actions[-1] == {"by": "Ben", "do": "play", "card": 60, "square": target}
    assert game.state.holes[57] == 0 and game.state.holes[target] == 1
    capture.frames.put(None)
    assert source.wait(10)
    source.stop()
