"""``[board.serial]``: a board-scanning microcontroller on a serial port (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.config_checks import ConfigError, Key, check_table, in_range, shown
from app.source_factories.gpio import load_wiring_map, wiring_file
from firmware_bridge.serial_source import DEFAULT_PORT, SerialBoardSource
from hardware.board_source import HOLES, BoardSource

if TYPE_CHECKING:
    from app.config import Config

BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)


def _baud(value: Any) -> str | None:
    if value in BAUD_RATES:
        return None
    return f"must be one of {', '.join(map(str, BAUD_RATES))}, got {shown(value)}"


def _port(value: Any) -> str | None:
    return None if value.strip() else "must name a serial device, e.g. /dev/table99-board"


SPEC: dict[str, Key] = {
    "port": Key(str, DEFAULT_PORT, _port),
    "baud": Key(int, 115200, _baud),
    "heartbeat_timeout": Key(float, 2.0, in_range(1.0, 60.0)),  # the firmware beats every 0.5 s
    "retry_interval": Key(float, 0.5, in_range(0.01, 60.0)),
    "handshake_timeout": Key(float, 0.5, in_range(0.05, 10.0)),
    "map_file": Key(str, ""),  # the map taught for this board (default: the data directory)
}
WIRING_FILE = "serial-wiring.json"
"""The taught map of a board on USB: another board than the one on GPIO, so another file."""


def make(options: Mapping[str, Any], config: Config) -> BoardSource:
    where = f"{config.path or 'config.toml'}: [board.serial]"
    values = check_table(where, options, SPEC)
    if values["heartbeat_timeout"] <= values["handshake_timeout"]:
        raise ConfigError(f"{where} heartbeat_timeout",
                          "must be longer than handshake_timeout, or the link dies before it greets")
    path = wiring_file(values, WIRING_FILE)
    wiring = load_wiring_map(path, HOLES, where) if path.exists() else None
    return SerialBoardSource(
        values["port"], values["baud"], heartbeat_timeout=values["heartbeat_timeout"],
        retry_interval=values["retry_interval"], handshake_timeout=values["handshake_timeout"],
        wiring=wiring)
