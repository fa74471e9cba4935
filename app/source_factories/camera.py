"""``[board.camera]``: a camera looking at an ordinary board with four ArUco stickers (docs/vision.md).

    [board.camera]
    camera = "picamera"          # or "webcam:0", a video file, a folder of images
    profile = ""                 # the calibrated board profile; "" = camera_profile.json in the data dir
    width = 1280
    height = 960
    still_frames = 4             # frames that must agree before a reading goes to the referee
    max_fps = 20.0

A missing profile file is not an error here: the source starts, reports "not calibrated" as its
health, and the app offers the camera calibration. A damaged profile is an error that names the
file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.config_checks import ConfigError, Key, check_table, in_range
from app.paths import data_dir
from hardware.board_source import BoardSource

if TYPE_CHECKING:
    from app.config import Config

PROFILE_NAME = "camera_profile.json"


def _camera(value: Any) -> str | None:
    return None if value.strip() else 'must name a camera: "picamera", "webcam:0", a video file or a folder'


SPEC: dict[str, Key] = {
    "camera": Key(str, "picamera", _camera),
    "profile": Key(str, ""),
    "width": Key(int, 1280, in_range(160, 4096)),
    "height": Key(int, 960, in_range(120, 3072)),
    "still_frames": Key(int, 4, in_range(1, 60)),
    "max_fps": Key(float, 20.0, in_range(1.0, 120.0)),
}


def profile_path(options: Mapping[str, Any]) -> Path:
    """Where the camera's profile lives: ``profile`` if given, else in the data directory."""
    given = str(options.get("profile") or "")
    return Path(given).expanduser() if given else data_dir() / PROFILE_NAME


def make(options: Mapping[str, Any], config: Config) -> BoardSource:
    from vision.camera_source import CameraSource
    from vision.capture import open_capture
    from vision.profile import ProfileError, default_profile, load_profile

    where = f"{config.path or 'config.toml'}: [board.camera]"
    values = check_table(where, options, SPEC)
    path = profile_path(values)
    if path.exists():
        try:
            profile = load_profile(path)
        except ProfileError as exc:
            raise ConfigError(f"{where} profile", str(exc)) from exc
    else:
        profile = default_profile()
    spec, width, height = values["camera"], values["width"], values["height"]
    return CameraSource(
        lambda: open_capture(spec, width=width, height=height),
        profile,
        still_frames=values["still_frames"],
        max_fps=values["max_fps"],
    )
