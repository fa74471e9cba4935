"""Where frames come from, behind one interface: Pi camera, USB webcam, video file, image files.

A :class:`Capture` has ``read() -> frame | None`` (BGR uint8; None when no frame came: end of a
file, a camera unplugged) and ``close()``. :func:`open_capture` picks one from a spec string:

- ``picamera`` or ``picamera:WIDTHxHEIGHT``: the Raspberry Pi camera through picamera2 (imported
  only here, only when asked for: it exists only on a Pi);
- ``webcam:N`` (or just ``N``): OpenCV ``VideoCapture`` device N;
- a video file (``.mp4``, ``.avi``, ...): frame by frame, for demos and tests;
- an image file, a folder of images, or a glob: the images in name order, for tests and demos.
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"}


class CaptureError(RuntimeError):
    """A capture that cannot be opened, saying which and why."""


def load_image(path: str | Path) -> NDArray[np.uint8]:
    """Read an image file as BGR (EXIF orientation applied), or raise CaptureError saying why."""
    import cv2
    import numpy as np

    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as exc:
        raise CaptureError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise CaptureError(f"{path}: not a readable image")
    return np.asarray(image, dtype=np.uint8)


class Capture(Protocol):
    realtime: bool  # True for cameras: frames come at the camera's pace; False for files

    def read(self) -> NDArray[np.uint8] | None: ...

    def close(self) -> None: ...


class ImageFiles:
    """Images read in order; ``loop`` repeats them (a still board for a demo)."""

    realtime = False

    def __init__(self, paths: list[Path], loop: bool = False) -> None:
        if not paths:
            raise CaptureError("no image files given")
        self.paths, self.loop, self._next = paths, loop, 0

    def read(self) -> NDArray[np.uint8] | None:
        if self._next >= len(self.paths):
            if not self.loop:
                return None
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        return load_image(path)

    def close(self) -> None:
        self._next = len(self.paths)


class Frames:
    """Frames already in memory (tests, the synthetic renderer)."""

    realtime = False

    def __init__(self, frames: list[NDArray[np.uint8]]) -> None:
        self.frames, self._next = list(frames), 0

    def read(self) -> NDArray[np.uint8] | None:
        if self._next >= len(self.frames):
            return None
        self._next += 1
        return self.frames[self._next - 1]

    def close(self) -> None:
        self._next = len(self.frames)


class OpenCVCapture:
    """A webcam (device index) or a video file through ``cv2.VideoCapture``."""

    def __init__(self, target: int | str, width: int = 1280, height: int = 960) -> None:
        import cv2

        self.realtime = isinstance(target, int)
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            what = f"camera {target}" if self.realtime else f"video {target}"
            raise CaptureError(f"{what}: cannot be opened")
        if self.realtime:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            # keep as few old frames as the backend allows (not every one honours it; the
            # calibration also drops what was buffered, see app/commands/vision_calibrate.py)
            self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def read(self) -> NDArray[np.uint8] | None:
        import numpy as np

        ok, frame = self._cap.read()
        return np.asarray(frame, dtype=np.uint8) if ok and frame is not None else None

    def close(self) -> None:
        self._cap.release()


class PiCamera:
    """The Raspberry Pi camera through picamera2, delivering BGR frames like OpenCV."""

    realtime = True

    def __init__(self, width: int = 1280, height: int = 960) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CaptureError("picamera2 is not installed (it comes with Raspberry Pi OS)") from exc
        try:
            self._camera = Picamera2()
            config = self._camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}
            )
            self._camera.configure(config)
            self._camera.start()
        except Exception as exc:  # picamera2 raises many kinds; all mean "no camera"
            raise CaptureError(f"Pi camera: cannot be started: {exc}") from exc

    def read(self) -> NDArray[np.uint8] | None:
        try:
            frame: NDArray[np.uint8] = self._camera.capture_array()  # RGB888 is BGR in memory
        except Exception:
            return None
        return frame[:, :, :3]

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CaptureError(f"expected WIDTHxHEIGHT like 1280x960, got {text!r}") from None
    return w, h


def open_capture(spec: str, *, width: int = 1280, height: int = 960, loop: bool = False) -> Capture:
    """Open the capture that ``spec`` names (see the module's docstring)."""
    kind, _, rest = spec.partition(":")
    if kind == "picamera":
        return PiCamera(*(_size(rest) if rest else (width, height)))
    if kind == "webcam":
        rest = rest or "0"
        if not rest.isdigit():
            raise CaptureError(f"webcam: expected a device number, got {rest!r}")
        return OpenCVCapture(int(rest), width, height)
    if spec.isdigit():
        return OpenCVCapture(int(spec), width, height)
    path = Path(spec)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        return ImageFiles(files, loop)
    if path.suffix.lower() in IMAGE_SUFFIXES and path.exists():
        return ImageFiles([path], loop)
    if any(ch in spec for ch in "*?["):
        return ImageFiles([Path(p) for p in sorted(glob.glob(spec))], loop)
    if path.exists():
        return OpenCVCapture(str(path))
    raise CaptureError(f"{spec}: no such camera, video, image or folder")
