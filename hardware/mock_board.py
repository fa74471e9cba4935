"""Simulated sensor boards on gpiozero's MockFactory: the 74HC165 chain and the diode matrix.

Custom :class:`~gpiozero.pins.mock.MockPin` subclasses react to what the driver does to them
(latch low loads the chain, a rising clock shifts it, selecting a row puts that row's sensors on
the columns), so :class:`~hardware.shift_register.ShiftRegisterChain` and
:class:`~hardware.matrix.SensorMatrix` run unmodified against them. Tests use them to stage
contact bounce, stuck sensors, broken chains and pegs carried over the board; ``table99 sensors
--mock`` uses them for a demonstration without a Pi.

Faults are plain attributes so a test reads like the fault it stages: ``chain.broken_after = 4``
(the link from chip 5 to chip 4 is cut), ``chain.stuck[37] = True`` (that sensor always senses
a magnet), ``matrix.disconnected = True``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin


class _SimulatedSensors:
    """Which inputs sense a magnet now, with stuck sensors applied."""

    def __init__(self, inputs: int) -> None:
        self.inputs = inputs
        self.magnets: set[int] = set()
        self.stuck: dict[int, bool] = {}  # input -> always active (True) / never active (False)

    def sensing(self, index: int) -> bool:
        if index in self.stuck:
            return self.stuck[index]
        return index in self.magnets

    def set_magnets(self, inputs: Iterable[int]) -> None:
        self.magnets = set(inputs)


class MockLinePin(MockPin):  # type: ignore[misc]
    """A mock pin that keeps no history of its states.

    gpiozero's MockPin appends every change to ``states`` (for ``assert_states``); a board
    scanned 200 times a second toggles its clock 45,000 times a second, so that list would grow
    without end in ``table99 sensors --mock`` and distort the benchmark.
    """

    def _change_state(self, value: bool) -> bool:
        if self._state != value:
            self._state = value
            return True
        return False


# -- the 74HC165 chain ------------------------------------------------------------------------
class Mock165LatchPin(MockLinePin):
    """SH/LD of every chip: going low copies the sensors into the registers."""

    def __init__(self, factory: MockFactory, info: Any, chain: MockShiftChain | None = None) -> None:
        super().__init__(factory, info)
        self.chain = chain

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and not value and self.chain is not None:
            self.chain.load()
        return changed


class Mock165ClockPin(MockLinePin):
    """CLK of every chip: a rising edge shifts the chain one bit towards the Pi."""

    def __init__(self, factory: MockFactory, info: Any, chain: MockShiftChain | None = None) -> None:
        super().__init__(factory, info)
        self.chain = chain

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and value and self.chain is not None:
            self.chain.shift()
        return changed


class MockShiftChain(_SimulatedSensors):
    """``chips`` simulated 74HC165s behind three mock pins, SER of the last chip tied to GND."""

    def __init__(
        self, factory: MockFactory, latch: Any = 17, clock: Any = 27, data: Any = 22, *,
        chips: int = 13, active_high: bool = False,
    ) -> None:
        super().__init__(chips * 8)
        self.chips = chips
        self.active_high = active_high
        self.tied: dict[int, bool] = {}  # inputs wired to a fixed level instead of a sensor
        self.broken_after: int | None = None  # chip index whose SER input floats (reads high)
        self.disconnected = False  # data wire loose: the Pi's pull-up reads high
        self.unpowered = False  # no supply: QH stays low
        self.loads = 0
        self._register: list[bool] = []
        self.latch_pin = factory.pin(latch, pin_class=Mock165LatchPin, chain=self)
        self.clock_pin = factory.pin(clock, pin_class=Mock165ClockPin, chain=self)
        self.data_pin = factory.pin(data, pin_class=MockLinePin)

    def _level(self, index: int) -> bool:
        if index in self.tied:
            return self.tied[index]
        return self.sensing(index) == self.active_high

    def load(self) -> None:
        self.loads += 1
        reachable = self.chips if self.broken_after is None else self.broken_after + 1
        self._register = [self._level(chip * 8 + 7 - bit) for chip in range(reachable) for bit in range(8)]
        self._output()

    def shift(self) -> None:
        if self._register:
            self._register.pop(0)
        # SER of the last reachable chip: GND when the chain is whole, floating (high) if broken
        self._register.append(self.broken_after is not None)
        self._output()

    def _output(self) -> None:
        if self.data_pin.function != "input":
            return
        if self.disconnected:
            level = True
        elif self.unpowered:
            level = False
        else:
            level = self._register[0] if self._register else False
        if level:
            self.data_pin.drive_high()
        else:
            self.data_pin.drive_low()


# -- the diode matrix -------------------------------------------------------------------------
class MockMatrixRowPin(MockLinePin):
    """A row line: whenever it changes, the columns show the selected rows' sensors."""

    def __init__(self, factory: MockFactory, info: Any, matrix: MockMatrix | None = None) -> None:
        super().__init__(factory, info)
        self.matrix = matrix

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix.update()
        return changed


class MockMatrix(_SimulatedSensors):
    """A diode matrix of sensors behind mock row (output) and column (input) pins."""

    def __init__(
        self, factory: MockFactory, rows: Sequence[Any], columns: Sequence[Any], *,
        active_low: bool = True, select_high: bool | None = None, check: Any = None,
    ) -> None:
        super().__init__(len(rows) * len(columns))
        self.active_low = active_low
        self.select_high = (not active_low) if select_high is None else select_high
        self.disconnected = False  # no row reaches the sensors
        self.shorted_columns: set[int] = set()  # column lines stuck at the active level
        self.row_pins = [factory.pin(p, pin_class=MockMatrixRowPin, matrix=self) for p in rows]
        self.column_pins = [factory.pin(p, pin_class=MockLinePin) for p in columns]
        self.check_pin = factory.pin(check, pin_class=MockLinePin) if check is not None else None

    def short_column(self, column: int) -> None:
        """Stage a column line shorted to the active level (takes effect at once)."""
        self.shorted_columns.add(column)
        self.update()

    def _selected_rows(self) -> list[int]:
        level = self.select_high
        return [r for r, pin in enumerate(self.row_pins) if pin.function == "output" and pin.state == level]

    def update(self) -> None:
        selected = [] if self.disconnected else self._selected_rows()
        width = len(self.column_pins)
        for c, pin in enumerate(self.column_pins):
            active = c in self.shorted_columns or any(self.sensing(r * width + c) for r in selected)
            self._drive(pin, active)
        if self.check_pin is not None:
            self._drive(self.check_pin, 0 in selected)

    def _drive(self, pin: MockPin, active: bool) -> None:
        if pin.function != "input":
            return
        if active != self.active_low:  # active-high and active, or active-low and idle
            pin.drive_high()
        else:
            pin.drive_low()
