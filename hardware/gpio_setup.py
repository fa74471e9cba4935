"""Opening the sensor board: real pins, gpiozero's mock pins, or a clear "no GPIO here".

The board source gets an *opener* (a function returning a reader) so that pins are claimed when
the source starts and released when it stops, and so that the same source runs on a Pi, on a
desktop with ``mock=True`` (gpiozero's MockFactory plus a simulated chain or matrix) and in tests.
gpiozero is imported inside the functions here, so importing this module never needs it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hardware.chain_bits import D0_FIRST, NEAREST_FIRST, ChainBits
from hardware.gpio_source import ChainReader, MatrixReader, SensorReader

SPI_PINS = {"clock": 11, "miso": 9, "mosi": 10, "ce0": 8, "ce1": 7}
"""BCM numbers of the Pi's SPI0 (the chain over SPI uses SCLK and MISO; the driver reserves a CE)."""

SHIFT_REGISTER = "shift_register"
MATRIX = "matrix"


class NoGpioError(RuntimeError):
    """This machine has no GPIO that gpiozero can drive."""


@dataclass(frozen=True)
class ChainWiring:
    """How a 74HC165 chain is connected (the defaults match docs/hardware.md)."""

    latch: Any = 17
    clock: Any = 27
    data: Any = 22
    chips: int = 13
    active_high: bool = False
    sentinel_bits: int = 8
    tied_low: tuple[int, ...] = (102,)
    tied_high: tuple[int, ...] = (103,)
    chip_order: str = NEAREST_FIRST
    pin_order: str = D0_FIRST
    spi: bool = False  # clock and data on SPI0 (GPIO11 SCLK, GPIO9 MISO) instead of clock/data
    spi_device: int = 0  # the chip select the SPI driver reserves: 0 = CE0 (GPIO8), 1 = CE1 (GPIO7)

    @property
    def inputs(self) -> int:
        return self.chips * 8

    def bits(self) -> ChainBits:
        """How this chain's bits are numbered (for mocks and messages)."""
        return ChainBits(self.chips, chip_order=self.chip_order, pin_order=self.pin_order)


@dataclass(frozen=True)
class MatrixWiring:
    """How a diode matrix is connected (the defaults match docs/hardware.md)."""

    rows: tuple[Any, ...] = (4, 5, 6, 12, 13, 16, 19, 20, 21, 26)
    columns: tuple[Any, ...] = (17, 27, 22, 23, 24, 25, 18, 7, 8, 9)
    active_low: bool = True
    select_high: bool = False
    settle_time: float = 0.0
    check: Any = 10

    @property
    def inputs(self) -> int:
        return len(self.rows) * len(self.columns)


Wiring = ChainWiring | MatrixWiring


def no_gpio_reason() -> str | None:
    """Why gpiozero cannot drive pins here, or None when it can (a Pi, or a mock factory)."""
    try:
        from gpiozero import Device
    except ImportError:
        return "gpiozero is not installed (pip install 'table99[gpio]')"
    if Device.pin_factory is not None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Device.ensure_pin_factory()
    except Exception as exc:  # BadPinFactory and friends: the message says which libraries failed
        return f"no GPIO pins here ({exc})"
    return None


def opener(wiring: Wiring, pin_factory: Any = None) -> Callable[[], SensorReader]:
    """A function that claims the pins and returns a reader (raises NoGpioError without GPIO)."""

    def open_reader() -> SensorReader:
        if pin_factory is None and (reason := no_gpio_reason()) is not None:
            raise NoGpioError(reason)
        if isinstance(wiring, ChainWiring):
            chain_options: dict[str, Any] = {
                "chips": wiring.chips, "active_high": wiring.active_high,
                "sentinel_bits": wiring.sentinel_bits, "tied_low": wiring.tied_low,
                "tied_high": wiring.tied_high, "chip_order": wiring.chip_order,
                "pin_order": wiring.pin_order, "pin_factory": pin_factory,
            }
            if wiring.spi:
                from hardware.spi_chain import SpiShiftRegisterChain

                return ChainReader(SpiShiftRegisterChain(wiring.latch, device=wiring.spi_device,
                                                         **chain_options))
            from hardware.shift_register import ShiftRegisterChain

            return ChainReader(ShiftRegisterChain(wiring.latch, wiring.clock, wiring.data, **chain_options))
        from hardware.matrix import SensorMatrix

        return MatrixReader(SensorMatrix(
            wiring.rows, wiring.columns, active_low=wiring.active_low, select_high=wiring.select_high,
            settle_time=wiring.settle_time,
            check=wiring.check, pin_factory=pin_factory,
        ), has_check=wiring.check is not None)

    return open_reader


@dataclass
class MockBoard:
    """gpiozero's MockFactory with a simulated chain or matrix wired as ``wiring`` says.

    ``sim`` is the :class:`~hardware.mock_board.MockShiftChain` or
    :class:`~hardware.mock_board.MockMatrix`; put magnets on its *inputs* to stage pegs.
    """

    wiring: Wiring
    factory: Any = field(init=False)
    sim: Any = field(init=False)

    def __post_init__(self) -> None:
        from gpiozero.pins.mock import MockFactory

        from hardware.mock_board import MockMatrix, MockShiftChain

        self.factory = MockFactory()
        w = self.wiring
        if isinstance(w, ChainWiring):
            clock, data = (SPI_PINS["clock"], SPI_PINS["miso"]) if w.spi else (w.clock, w.data)
            self.sim = MockShiftChain(self.factory, w.latch, clock, data, chips=w.chips,
                                      active_high=w.active_high)
            wire = w.bits().wire_input
            self.sim.tied = {**{wire(i): False for i in w.tied_low}, **{wire(i): True for i in w.tied_high}}
            if w.spi:
                _let_software_spi_find_a_factory(self.factory)
        else:
            self.sim = MockMatrix(self.factory, w.rows, w.columns, active_low=w.active_low,
                                  select_high=w.select_high, check=w.check)

    def opener(self) -> Callable[[], SensorReader]:
        return opener(self.wiring, self.factory)

    def set_inputs(self, inputs: Sequence[int] | set[int] | frozenset[int]) -> None:
        """Magnets on these (numbered) inputs, on the wires the chain order puts them."""
        if isinstance(self.wiring, ChainWiring):
            wire = self.wiring.bits().wire_input
            inputs = {wire(i) for i in inputs}
        self.sim.set_magnets(inputs)


def _let_software_spi_find_a_factory(factory: Any) -> None:
    """gpiozero's software SPI bus (the mock's SPI) asks for a default pin factory even when it is
    given one; on a machine without GPIO there is none, so offer the mock factory as the default
    (only then: a default gpiozero can make, e.g. GPIOZERO_PIN_FACTORY=mock, is left alone)."""
    from gpiozero import Device

    if Device.pin_factory is not None:
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Device.ensure_pin_factory()
    except Exception:  # no GPIO here: the mock board's factory is the only one there is
        Device.pin_factory = factory
