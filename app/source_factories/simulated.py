"""``[board.simulated]``: the on-screen board (tap a hole to put a peg in or take it out)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.config_checks import Key, check_table
from hardware.simulated import SimulatedBoard

if TYPE_CHECKING:
    from app.config import Config

SPEC = {
    # Pretend to be a camera that can tell peg colours (exercises the wrong-colour check).
    "sees_colour": Key(bool, False),
}


def make(options: Mapping[str, Any], config: Config) -> SimulatedBoard:
    checked = check_table(f"{config.path or 'config.toml'}: [board.simulated]", options, SPEC)
    return SimulatedBoard(sees_colour=checked["sees_colour"])
