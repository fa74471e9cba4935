"""A diode matrix of sensors (rows driven, columns read), as a gpiozero device.

Ten row outputs and ten column inputs read 100 sensors with 20 pins. One row at a time is driven
to its active level; every other row stays inactive. A sensor in the selected row that senses a
magnet pulls its column to the active level through its diode; the diode stops a sensor in
another row from feeding back (no "ghost" pegs when three corners of a rectangle hold pegs).

With hall switches (open-collector, e.g. A3144/US5881) the usual way is to wire each sensor's
GND leg to its row line: the selected row (driven low) powers its sensors, whose outputs pull
their columns low through the diodes. Sensors need a moment after power-up, hence
``settle_time`` (seconds) between selecting a row and reading the columns. Reed switches need
no settle time.

Input numbering: ``row_line * columns + column_line`` in the order the pins are given.

The check input (optional): a spare GPIO wired through a diode to the first row line reads
active exactly while that row is selected. It proves on every scan that the rows are driven and
the columns read, which is how an empty board is told apart from a matrix that does not answer.

This module imports gpiozero at the top: import it only where GPIO is wanted.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from gpiozero import CompositeDevice, DigitalInputDevice, DigitalOutputDevice

DEFAULT_ROWS = (4, 5, 6, 12, 13, 16, 19, 20, 21, 26)
DEFAULT_COLUMNS = (17, 27, 22, 23, 24, 25, 18, 7, 8, 9)


class SensorMatrix(CompositeDevice):  # type: ignore[misc]
    """A rows x columns diode matrix of sensors.

    :param rows: the row pins (outputs), first row line first.
    :param columns: the column pins (inputs), first column line first.
    :param active_low: True (default) when the selected row is driven low and an active sensor
        pulls its column low against the column's pull-up; False for the mirror image (rows driven
        high, columns pulled down).
    :param select_high: the GPIO level that selects a row; default ``not active_low``. Rows
        switched through an inverting driver (a ULN2803A sinking each row to GND when its input is
        high) use ``select_high=True`` with ``active_low=True`` columns.
    :param settle_time: seconds to wait after selecting a row before reading the columns.
    :param check: an optional pin wired through a diode to the first row line (see above).
    """

    def __init__(
        self,
        rows: Sequence[Any] = DEFAULT_ROWS,
        columns: Sequence[Any] = DEFAULT_COLUMNS,
        *,
        active_low: bool = True,
        select_high: bool | None = None,
        settle_time: float = 0.0,
        check: Any = None,
        pin_factory: Any = None,
    ) -> None:
        if not rows or not columns:
            raise ValueError("a matrix needs at least one row and one column pin")
        if settle_time < 0:
            raise ValueError("settle_time cannot be negative")
        self._active_low = active_low
        self._select_high = (not active_low) if select_high is None else select_high
        self._settle_time = settle_time
        self._row_count = len(rows)
        self._column_count = len(columns)
        self._check_ok = True
        devices: list[Any] = []
        try:
            for pin in rows:  # "on" = selected; idle rows sit at the inactive level
                devices.append(DigitalOutputDevice(
                    pin, active_high=self._select_high, initial_value=False, pin_factory=pin_factory
                ))
            for pin in list(columns) + ([check] if check is not None else []):
                devices.append(DigitalInputDevice(pin, pull_up=active_low, pin_factory=pin_factory))
        except Exception:
            for device in devices:
                device.close()
            raise
        super().__init__(*devices, pin_factory=pin_factory)
        self._rows = tuple(devices[: self._row_count])
        self._columns = tuple(devices[self._row_count : self._row_count + self._column_count])
        self._check = devices[-1] if check is not None else None

    @property
    def inputs(self) -> int:
        return self._row_count * self._column_count

    @property
    def check_ok(self) -> bool:
        """Whether the last scan saw the check input answer (True when there is none)."""
        return self._check_ok

    def idle_columns(self) -> int:
        """With no row selected, the columns that read active (each one a short or a stuck line)."""
        self._check_open()
        active_level = not self._active_low
        for row in self._rows:
            row.pin.state = not self._select_high  # not selected
        mask = 0
        for c, column in enumerate(self._columns):
            if bool(column.pin.state) == active_level:
                mask |= 1 << c
        return mask

    def read_mask(self) -> int:
        """Select each row in turn and read the columns; bit ``r * columns + c`` = active."""
        self._check_open()
        selected = self._select_high
        active_level = not self._active_low
        columns = [c.pin for c in self._columns]
        check = self._check.pin if self._check is not None else None
        check_ok = True
        raw = 0
        width = self._column_count
        for r, row in enumerate(self._rows):
            pin = row.pin
            pin.state = selected
            if self._settle_time:
                time.sleep(self._settle_time)
            base = r * width
            for c, column in enumerate(columns):
                if column.state == active_level:
                    raw |= 1 << (base + c)
            if check is not None and (check.state == active_level) != (r == 0):
                check_ok = False
            pin.state = not selected
        self._check_ok = check_ok
        return raw

    @property
    def value(self) -> tuple[bool, ...]:
        mask = self.read_mask()
        return tuple(bool(mask >> i & 1) for i in range(self.inputs))

    def describe_input(self, index: int) -> str:
        row, column = divmod(index, self._column_count)
        return f"row line {row + 1} / column line {column + 1}"
