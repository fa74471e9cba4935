"""A chain of 74HC165 parallel-in/serial-out shift registers, as a gpiozero device.

gpiozero has no class for the 74HC165, so this is one in its style: built on gpiozero's
:class:`~gpiozero.DigitalOutputDevice` and :class:`~gpiozero.DigitalInputDevice`, taking
``pin_factory=`` (tests pass a ``MockFactory``), with ``close()`` and ``with`` support.

How the chip works (and how :meth:`ShiftRegisterChain.read_mask` drives it): pulling SH/LD
(``latch``) low copies the eight inputs D0..D7 of every chip into its register at once; with
SH/LD high, each rising edge of CLK shifts the chain one bit towards the Pi. QH of the chip
nearest the Pi (chip 0) drives ``data``; each chip's SER input takes the QH of the next chip
further away. So the bits arrive D7..D0 of chip 0, then D7..D0 of chip 1, and so on (messages and
docs count chips from 1, as people do); input
number ``chip * 8 + d`` is pin D\\ *d* of chip *chip*. CLK INH is tied to GND.

The sentinels: SER of the *last* chip is tied to GND (``sentinel_level=False``). After the
``chips * 8`` input bits the chain shifts out that level, so ``sentinel_bits`` extra clocks must
read it. A chain with a broken link, a loose data wire or no power cannot produce it: that is how
an empty board (all sensors idle) is told apart from a chain that does not answer, on every scan.
A floating data wire (pulled up) reads ones, a chain without power reads zeros; two spare inputs
tied one to GND and one to 3V3 (``tied_low``, ``tied_high``) catch both.

This module imports gpiozero at the top: import it only where GPIO is wanted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpiozero import CompositeDevice, DigitalInputDevice, DigitalOutputDevice

from hardware.chain_bits import D0_FIRST, NEAREST_FIRST, ChainBits, ChainProperties


class ShiftRegisterChain(ChainProperties, CompositeDevice):  # type: ignore[misc]
    """``chips`` daisy-chained 74HC165s read through three GPIO pins.

    :param latch: the pin wired to every chip's SH/LD (active low: low loads the inputs).
    :param clock: the pin wired to every chip's CLK (rising edge shifts).
    :param data: the pin wired to QH of chip 0 (the chip nearest the Pi).
    :param chips: how many chips are chained (13 give 104 inputs for 100 holes).
    :param active_high: True when an input reads high while its sensor senses a magnet. Hall
        switches such as the A3144 or US5881 pull their output low (so the default is False).
    :param sentinel_bits: extra clocks after the inputs that must read ``sentinel_level``
        (0 disables the check).
    :param tied_low: spare inputs wired to GND; :param tied_high: spare inputs wired to 3V3.
        With one of each on the last chip, a chain reading all ones *or* all zeros is caught.
    :param chip_order: ``"nearest_first"`` or ``"farthest_first"``: which chip holds inputs 0..7;
        :param pin_order: ``"d0_first"`` or ``"d7_first"`` within a chip (see
        :mod:`hardware.chain_bits`; tied inputs are numbered the same way).
    """

    def __init__(
        self,
        latch: Any = 17,
        clock: Any = 27,
        data: Any = 22,
        *,
        chips: int = 13,
        active_high: bool = False,
        sentinel_bits: int = 8,
        sentinel_level: bool = False,
        tied_low: Sequence[int] = (),
        tied_high: Sequence[int] = (),
        chip_order: str = NEAREST_FIRST,
        pin_order: str = D0_FIRST,
        pin_factory: Any = None,
    ) -> None:
        self._bits = ChainBits(
            chips, active_high=active_high, sentinel_bits=sentinel_bits, sentinel_level=sentinel_level,
            tied_low=tied_low, tied_high=tied_high, chip_order=chip_order, pin_order=pin_order,
        )
        self._sentinel_ok = True
        devices: dict[str, Any] = {}
        try:
            # latch idles high (shift mode); "on" = loading, so active_high=False
            devices["latch"] = DigitalOutputDevice(
                latch, active_high=False, initial_value=False, pin_factory=pin_factory
            )
            devices["clock"] = DigitalOutputDevice(clock, initial_value=False, pin_factory=pin_factory)
            # pulled up: a loose data wire then reads ones (and fails the sentinel) instead of noise
            devices["data"] = DigitalInputDevice(data, pull_up=True, pin_factory=pin_factory)
        except Exception:
            for device in devices.values():
                device.close()
            raise
        super().__init__(_order=("latch", "clock", "data"), pin_factory=pin_factory, **devices)

    def read_mask(self) -> int:
        """Latch all inputs and shift them in; bit ``i`` set when input ``i`` is active.

        Works on the pins directly (not through the devices' ``value``) because this runs
        100+ times a second: every layer saved is time saved on a Pi.
        """
        self._check_open()
        latch = self.latch.pin
        clock = self.clock.pin
        data = self.data.pin
        latch.state = False  # load D0..D7 of every chip
        latch.state = True  # back to shift mode; chip 0's D7 is now on QH
        raw = 0
        total = self._bits.inputs
        for position in range(total):
            if data.state:
                chip, rest = divmod(position, 8)
                raw |= 1 << (chip * 8 + 7 - rest)
            clock.state = True
            clock.state = False
        sentinel_ok = True
        level = self._bits.sentinel_level
        for _ in range(self._bits.sentinel_bits):
            if bool(data.state) != level:
                sentinel_ok = False
            clock.state = True
            clock.state = False
        mask, self._sentinel_ok = self._bits.decode(raw, sentinel_ok)
        return mask
