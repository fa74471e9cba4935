"""A chain of 74HC165s read over the Pi's SPI block, as a gpiozero device.

Why: bit-banged, a scan of 13 chips costs 338 pin operations, each a call from Python through
lgpio into the kernel; on a Pi Zero 2 W that may fall short of 100 scans a second
(docs/hardware.md). The SPI block clocks the same bits in hardware: one ``xfer2`` of 14 bytes and
two latch writes per scan.

Wiring (docs/hardware.md): SH/LD on any GPIO (``latch``), every chip's CLK on SCLK (GPIO11), QH of
the nearest chip on MISO (GPIO9), CLK INH to GND as before. CE0/CE1 (GPIO8/7) stay unconnected;
the SPI driver reserves the one named by ``device``.

SPI mode 2 (clock idles high, data sampled on the falling edge): the 74HC165 shifts on the rising
edge, so each bit is read while it stands still, the first one (D7 of the nearest chip) before
any shift. gpiozero's software SPI (what its MockFactory provides, and its fallback without
spidev) samples the same way in mode 2, so tests on mock pins exercise the real sequence.

This module imports gpiozero at the top: import it only where GPIO is wanted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpiozero import DigitalOutputDevice, SPIDevice

from hardware.chain_bits import D0_FIRST, NEAREST_FIRST, ChainBits, ChainProperties

SPI_MODE = 2


class SpiShiftRegisterChain(ChainProperties, SPIDevice):  # type: ignore[misc]
    """``chips`` daisy-chained 74HC165s on SPI0 (port 0, ``device`` 0 or 1) plus a latch pin.

    The same parameters as :class:`~hardware.shift_register.ShiftRegisterChain` except the clock
    and data pins, which are the SPI block's. ``read_mask``, ``sentinel_ok`` and ``describe_input``
    mean the same, so either chain serves :class:`~hardware.gpio_source.ChainReader`.
    """

    def __init__(
        self,
        latch: Any = 17,
        *,
        port: int = 0,
        device: int = 0,
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
        self._latch: Any = None
        sentinel_bytes = -(-sentinel_bits // 8)
        self._request = [0] * (chips + sentinel_bytes)
        expected = (1 << sentinel_bits) - 1 if sentinel_level else 0
        # the sentinel bits come first (MSB first) in the bytes after the inputs
        self._sentinel_shift = sentinel_bytes * 8 - sentinel_bits
        self._sentinel_expected = expected
        super().__init__(port=port, device=device, pin_factory=pin_factory)
        try:
            self._spi.clock_mode = SPI_MODE
            # latch idles high (shift mode); "on" = loading, so active_high=False
            self._latch = DigitalOutputDevice(latch, active_high=False, initial_value=False,
                                              pin_factory=self.pin_factory)
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        if self._latch is not None:
            self._latch.close()
            self._latch = None
        super().close()

    def read_mask(self) -> int:
        """Latch all inputs and clock them in over SPI; bit ``i`` set when input ``i`` is active."""
        self._check_open()
        latch = self._latch.pin
        latch.state = False  # load D0..D7 of every chip
        latch.state = True  # shift mode: D7 of the nearest chip is on QH
        words = self._spi.transfer(self._request)
        chips = self._bits.chips
        # byte c is chip c from the Pi, MSB first: D7..D0, so bit d of the byte is pin Dd
        wire = int.from_bytes(bytes(words[:chips]), "little")
        sentinel_ok = True
        if self._bits.sentinel_bits:
            tail = int.from_bytes(bytes(words[chips:]), "big") >> self._sentinel_shift
            sentinel_ok = tail == self._sentinel_expected
        mask, self._sentinel_ok = self._bits.decode(wire, sentinel_ok)
        return mask
