"""``[board.gpio]``: hall sensors on the Pi's GPIO (a 74HC165 chain or a diode matrix).

Every key has a default that matches the wiring diagrams in docs/hardware.md, so an empty
``[board.gpio]`` table reads a 13-chip chain on GPIO 17/27/22. ``mock = true`` runs the same
driver on gpiozero's mock pins with a simulated board, for trying the app on a desktop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app import paths
from app.config_checks import ConfigError, Key, check_table, in_range, one_of, shown
from hardware.chain_bits import CHIP_ORDERS, D0_FIRST, NEAREST_FIRST, PIN_ORDERS
from hardware.gpio_setup import (
    MATRIX,
    SHIFT_REGISTER,
    SPI_PINS,
    ChainWiring,
    MatrixWiring,
    MockBoard,
    Wiring,
    opener,
)
from hardware.gpio_source import GpioBoardSource
from hardware.scan import ScanSettings
from hardware.wiring import WiringMap, WiringMapError

if TYPE_CHECKING:
    from app.config import Config

WIRING_FILE = "gpio-wiring.json"


def pin_check(value: Any) -> str | None:
    """A config check for one pin: a BCM number 0..27 or a non-empty name ("GPIO17", "BOARD11")."""
    if isinstance(value, bool):
        return f"expected a pin number (BCM) or name like \"GPIO17\", got {value!r}"
    if isinstance(value, int):
        return None if 0 <= value <= 27 else f"must be a BCM GPIO number 0..27, got {shown(value)}"
    return None if value.strip() else "must name a pin, e.g. \"GPIO17\" or \"BOARD11\""


def pins_check(at_least: int = 0) -> Callable[[Any], str | None]:
    """A config check for a list of different pins (at least ``at_least`` of them)."""

    def check(value: Any) -> str | None:
        if len(value) < at_least:
            return f"needs at least {at_least} pins, got {len(value)}"
        for i, pin in enumerate(value):
            problem = pin_check(pin) if isinstance(pin, (int, str)) else "not a pin"
            if problem is not None:
                return f"item {i + 1}: {problem}"
        if len(set(value)) != len(value):
            return "names the same pin twice"
        return None

    return check


def _inputs(value: Any) -> str | None:
    if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value):
        return "must be a list of input numbers (0 and up)"
    return None


SPEC: dict[str, Key] = {
    "wiring": Key(str, SHIFT_REGISTER, one_of(SHIFT_REGISTER, MATRIX)),
    # the 74HC165 chain
    "latch_pin": Key((int, str), 17, pin_check),
    "clock_pin": Key((int, str), 27, pin_check),
    "data_pin": Key((int, str), 22, pin_check),
    "chips": Key(int, 13, in_range(13, 32)),
    "sensor_active_high": Key(bool, False),
    "sentinel_bits": Key(int, 8, in_range(0, 64)),
    "tied_low": Key(list, [102], _inputs),
    "tied_high": Key(list, [103], _inputs),
    "chip_order": Key(str, NEAREST_FIRST, one_of(*CHIP_ORDERS)),
    "pin_order": Key(str, D0_FIRST, one_of(*PIN_ORDERS)),
    "spi": Key(bool, False),  # clock and data on SPI0's SCLK (GPIO11) and MISO (GPIO9)
    "spi_device": Key(int, 0, in_range(0, 1)),  # the chip select the driver reserves: CE0 or CE1
    # the diode matrix
    "row_pins": Key(list, list(MatrixWiring().rows), pins_check(1)),
    "column_pins": Key(list, list(MatrixWiring().columns), pins_check(1)),
    "columns_active_low": Key(bool, True),
    "row_select_high": Key(bool, False),
    "settle_us": Key(int, 0, in_range(0, 10_000)),
    "check_pin": Key((int, str), 10, pin_check),
    "no_check_pin": Key(bool, False),
    # reading
    "map_file": Key(str, ""),
    "scan_hz": Key(float, 120.0, in_range(10.0, 2000.0)),
    "debounce_scans": Key(int, 3, in_range(1, 50)),
    "flicker_toggles": Key(int, 16, in_range(2, 1000)),
    "flicker_seconds": Key(float, 3.0, in_range(0.1, 600.0)),
    "stuck_seconds": Key(float, 0.0, in_range(0.0, 86_400.0)),
    "mock": Key(bool, False),
}


def wiring_file(options: Mapping[str, Any], default_name: str = WIRING_FILE) -> Path:
    """Where the taught wiring map lives: ``map_file`` or ``default_name`` in the data directory."""
    named = options.get("map_file") or ""
    return Path(named).expanduser() if named else paths.data_dir() / default_name


def wiring_from(values: Mapping[str, Any], where: str) -> Wiring:
    if values["wiring"] == SHIFT_REGISTER:
        inputs = values["chips"] * 8
        for key in ("tied_low", "tied_high"):
            bad = [i for i in values[key] if i >= inputs]
            if bad:
                raise ConfigError(f"{where} {key}", f"inputs {bad} do not exist on {values['chips']} chips")
        if set(values["tied_low"]) & set(values["tied_high"]):
            raise ConfigError(f"{where} tied_high", "an input cannot be tied both low and high")
        if values["spi"]:
            _check_latch_beside_spi(values["latch_pin"], values["spi_device"], where)
        else:
            pins = [values["latch_pin"], values["clock_pin"], values["data_pin"]]
            if len(set(pins)) != 3:
                raise ConfigError(f"{where} data_pin", "latch, clock and data need three different pins")
        return ChainWiring(
            values["latch_pin"], values["clock_pin"], values["data_pin"], chips=values["chips"],
            active_high=values["sensor_active_high"], sentinel_bits=values["sentinel_bits"],
            tied_low=tuple(values["tied_low"]), tied_high=tuple(values["tied_high"]),
            chip_order=values["chip_order"], pin_order=values["pin_order"],
            spi=values["spi"], spi_device=values["spi_device"],
        )
    rows, columns = tuple(values["row_pins"]), tuple(values["column_pins"])
    check = None if values["no_check_pin"] else values["check_pin"]
    if len(rows) * len(columns) < 100:
        raise ConfigError(f"{where} column_pins", f"{len(rows)} rows x {len(columns)} columns < 100 holes")
    if set(rows) & set(columns) or (check is not None and check in set(rows) | set(columns)):
        raise ConfigError(f"{where} check_pin", "rows, columns and the check pin must all be different pins")
    return MatrixWiring(rows, columns, active_low=values["columns_active_low"],
                        select_high=values["row_select_high"], settle_time=values["settle_us"] / 1e6,
                        check=check)


def _check_latch_beside_spi(latch: Any, device: int, where: str) -> None:
    """With ``spi = true`` the latch may not be one of the pins SPI0 takes (given as a BCM number)."""
    taken = {SPI_PINS["clock"]: "SCLK", SPI_PINS["miso"]: "MISO", SPI_PINS["mosi"]: "MOSI",
             SPI_PINS["ce1" if device else "ce0"]: f"CE{device}"}
    if latch in taken:
        raise ConfigError(f"{where} latch_pin", (
            f"GPIO{latch} is SPI0's {taken[latch]} while spi = true: choose another pin (default 17)"))


def load_wiring_map(path: Path, inputs: int, where: str) -> WiringMap:
    """The taught map, or the identity map (input h = hole h) when none has been taught yet."""
    if not path.exists():
        return WiringMap.identity(inputs)
    try:
        wiring = WiringMap.load(path)
    except WiringMapError as exc:
        raise ConfigError(f"{where} map_file", str(exc)) from exc
    if wiring.inputs != inputs:
        raise ConfigError(f"{where} map_file", (
            f"{path} was taught for {wiring.inputs} inputs, the board has {inputs}: teach the board again"
        ))
    return wiring


def make(options: Mapping[str, Any], config: Config) -> GpioBoardSource:
    where = f"{config.path or 'config.toml'}: [board.gpio]"
    values = check_table(where, options, SPEC)
    wiring = wiring_from(values, where)
    wiring_map = load_wiring_map(wiring_file(values), wiring.inputs, where)
    if isinstance(wiring, ChainWiring):
        for tied in (*wiring.tied_low, *wiring.tied_high):
            if (hole := wiring_map.hole_of(tied)) is not None:
                raise ConfigError(f"{where} map_file", (
                    f"hole {hole} is mapped to input {tied}, which is tied as a sentinel: teach the board"
                ))
    settings = ScanSettings(
        agree=values["debounce_scans"], stable_seconds=config.stable_seconds,
        flicker_toggles=values["flicker_toggles"], flicker_window=values["flicker_seconds"],
        stuck_seconds=values["stuck_seconds"],
    )
    try:
        mock = MockBoard(wiring) if values["mock"] else None
    except ImportError as exc:
        raise ConfigError(f"{where} mock", f"the mock board needs gpiozero ({exc})") from exc
    source = GpioBoardSource(
        mock.opener() if mock else opener(wiring), wiring_map, settings, scan_hz=values["scan_hz"]
    )
    source.mock_board = mock
    return source
