"""The camera as a :class:`~hardware.board_source.BoardSource`: readings with peg colours.

A driver thread reads frames from a :class:`~vision.capture.Capture`, runs the
:class:`~vision.reader.BoardReader` on each, and publishes a :class:`BoardReading` only when the
reader releases one (the board still, several frames agreeing). Unsure holes go out as
``unsure``; occupied holes carry the colour name from the profile, so the referee can tell
whose peg it is.

Health: STARTING until the board is found, CONNECTED while it is seen, LOST when frames stop
coming or the stickers have not been found for a while (the camera keeps being retried), ERROR
when the camera cannot be opened or the profile is not calibrated. A file capture (a recorded
video, test frames) ends with STOPPED once its frames are used up.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from hardware.board_source import BoardReading, BoardSource, HealthState, SourceHealth, health_message
from vision.capture import Capture, CaptureError
from vision.profile import EMPTY, UNSURE, BoardProfile

if TYPE_CHECKING:
    from vision.reader import BoardReader, FrameResult

log = logging.getLogger(__name__)
LOST_AFTER_FRAMES = 30  # frames without the stickers before the source says the board is lost
RETRY_SECONDS = 1.0


def reading_from_letters(
    letters: Sequence[str], profile: BoardProfile, timestamp: float, sequence: int
) -> BoardReading:
    names = profile.letters()
    occupied = {i for i, letter in enumerate(letters) if letter not in (EMPTY, UNSURE)}
    unsure = {i for i, letter in enumerate(letters) if letter == UNSURE}
    colours = {i: names.get(letters[i], letters[i]) for i in occupied}
    return BoardReading(
        occupied=frozenset(occupied),
        timestamp=timestamp,
        sequence=sequence,
        colours=colours,
        unsure=frozenset(unsure),
        holes=profile.hole_count,
    )


class CameraSource(BoardSource):
    name = "camera"

    def __init__(
        self,
        open_capture: Callable[[], Capture],
        profile: BoardProfile,
        *,
        still_frames: int = 4,
        max_fps: float = 30.0,
        on_frame: Callable[[FrameResult], None] | None = None,
    ) -> None:
        super().__init__()
        self._open_capture = open_capture
        self.profile = profile
        self.still_frames = still_frames
        self.max_fps = max_fps
        self.on_frame = on_frame  # e.g. the calibration screen's live preview
        self._thread: threading.Thread | None = None
        self._stop_event = threading.Event()
        self.frames_read = 0

    @property
    def sees_colour(self) -> bool:
        return True

    def _start(self) -> None:
        self._stop_event.clear()
        self._thread = threading.Thread(target=self._run, name="camera-source", daemon=True)
        self._thread.start()

    def _stop(self) -> None:
        self._stop_event.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        self._thread = None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a file capture to be used up; True when the driver thread has ended."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    # -- the driver thread -----------------------------------------------------------------
    def _make_reader(self) -> BoardReader:
        from vision.reader import BoardReader

        return BoardReader(self.profile, still_frames=self.still_frames)

    def _run(self) -> None:
        if not self.profile.calibrated:
            self._set_health(
                SourceHealth(HealthState.ERROR, message=health_message(
                    "the camera is not calibrated yet (settings: camera)"))
            )
            return
        reader = self._make_reader()
        capture: Capture | None = None
        while not self._stop_event.is_set():
            if capture is None:
                try:
                    capture = self._open_capture()
                except CaptureError as exc:
                    self._set_health(SourceHealth(HealthState.ERROR, message=health_message(
                        "the camera cannot be opened: {reason}", reason=str(exc))))
                    if self._stop_event.wait(RETRY_SECONDS):
                        break
                    continue
            try:
                capture = self._step(capture, reader)
            except Exception as exc:  # a bug must not die silently in a thread: say so, keep trying
                log.exception("camera source: a frame could not be processed")
                self._set_health(SourceHealth(HealthState.ERROR, message=health_message(
                    "a frame could not be processed: {reason}", reason=str(exc))))
                if self._stop_event.wait(RETRY_SECONDS):
                    break
                continue
            if capture is None and self._health.state is HealthState.STOPPED:
                return
        if capture is not None:
            capture.close()

    def _step(self, capture: Capture, reader: BoardReader) -> Capture | None:
        """Read and process one frame; returns the capture, or None when it must be reopened."""
        started = time.monotonic()
        try:
            frame = capture.read()
        except CaptureError as exc:
            frame = None
            self._set_health(SourceHealth(HealthState.LOST, message=health_message(
                "the camera delivers no picture: {reason}", reason=str(exc))))
        if frame is None:
            capture.close()
            if not capture.realtime:
                self._running = False
                self._set_health(SourceHealth(HealthState.STOPPED, message=health_message("no more frames")))
                return None
            self._set_health(SourceHealth(HealthState.LOST, message=health_message(
                "the camera delivers no frames; retrying")))
            self._stop_event.wait(RETRY_SECONDS)
            return None
        self.frames_read += 1
        result = reader.process(frame)
        if self.on_frame is not None:
            self.on_frame(result)
        if reader.homography is None or reader.frames_unlocated > LOST_AFTER_FRAMES:
            state = HealthState.STARTING if reader.homography is None else HealthState.LOST
            self._set_health(SourceHealth(state, message=health_message("looking for the board's stickers")))
        else:
            self._set_health(SourceHealth(HealthState.CONNECTED))
        if result.released is not None:
            self._publish(
                reading_from_letters(result.released, self.profile, time.monotonic(), self._next_sequence())
            )
        if capture.realtime and self.max_fps > 0:
            self._stop_event.wait(max(0.0, 1.0 / self.max_fps - (time.monotonic() - started)))
        return capture
