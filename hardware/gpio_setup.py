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

from hardware.gpio_source import ChainReader, MatrixReader, SensorReader

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

    @property
    def inputs(self) -> int:
        return self.chips * 8


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
            from hardware.shift_register import ShiftRegisterChain

            return ChainReader(ShiftRegisterChain(
                wiring.latch, wiring.clock, wiring.data, chips=wiring.chips,
                active_high=wiring.active_high, sentinel_bits=wiring.sentinel_bits,
                tied_low=wiring.tied_low, tied_high=wiring.tied_high, pin_factory=pin_factory,
            ))
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
            self.sim = MockShiftChain(
                self.factory, w.latch, w.clock, w.data, chips=w.chips, active_high=w.active_high
            )
            self.sim.tied = {**dict.fromkeys(w.tied_low, False), **dict.fromkeys(w.tied_high, True)}
        else:
            self.sim = MockMatrix(self.factory, w.rows, w.columns, active_low=w.active_low,
                                  select_high=w.select_high, check=w.check)

    def opener(self) -> Callable[[], SensorReader]:
        return opener(self.wiring, self.factory)

    def set_inputs(self, inputs: Sequence[int] | set[int] | frozenset[int]) -> None:
        self.sim.set_magnets(inputs)
