"""``[board.scripted]``: play back a recorded JSON Lines file (see docs/referee.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.config_checks import ConfigError, Key, check_table, in_range
from hardware.scripted import ScriptedBoard, ScriptError, load_script

if TYPE_CHECKING:
    from app.config import Config

SPEC = {
    "file": Key(str, ""),
    "speed": Key(float, 1.0, in_range(0.01, 100.0)),
    "loop": Key(bool, False),
}


def make(options: Mapping[str, Any], config: Config) -> ScriptedBoard:
    where = f"{config.path or 'config.toml'}: [board.scripted]"
    checked = check_table(where, options, SPEC)
    if not checked["file"]:
        raise ConfigError(f"{where} file", "the scripted board needs a file of readings (JSON Lines)")
    try:
        readings = load_script(checked["file"])
    except ScriptError as exc:
        raise ConfigError(f"{where} file", str(exc)) from exc
    return ScriptedBoard(readings, speed=checked["speed"], loop=checked["loop"])
