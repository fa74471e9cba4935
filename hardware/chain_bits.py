"""What the bits shifted out of a 74HC165 chain mean: input order, active level, sentinels.

The chain can be read two ways (bit-banged on three GPIO pins, :mod:`hardware.shift_register`, or
over the Pi's SPI block, :mod:`hardware.spi_chain`); both hand the *wire levels* to
:class:`ChainBits`, which turns them into the numbered inputs and checks the sentinels, so the
two readers cannot disagree about what a bit means.

Wire levels: bit ``chip * 8 + d`` is pin D\\ *d* of the chip counted from the Pi (chip 0 drives
the Pi's data pin). Numbered inputs: how the maker counts, set by two choices:

- ``chip_order``: ``"nearest_first"`` (chip 1 is the one wired to the Pi, the default) or
  ``"farthest_first"`` (chip 1 is the far end of the chain, e.g. when the chain was built from
  the board's first row towards the Pi);
- ``pin_order``: ``"d0_first"`` (a chip's first input is D0, the default) or ``"d7_first"``.

Standard library only, so the mock board and the benchmarks use it without gpiozero.
"""

from __future__ import annotations

from collections.abc import Sequence

NEAREST_FIRST = "nearest_first"
FARTHEST_FIRST = "farthest_first"
CHIP_ORDERS = (NEAREST_FIRST, FARTHEST_FIRST)
D0_FIRST = "d0_first"
D7_FIRST = "d7_first"
PIN_ORDERS = (D0_FIRST, D7_FIRST)

_REVERSED_BITS = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


class ChainBits:
    """Decodes one scan of a chain of ``chips`` 74HC165s (see the module docstring)."""

    def __init__(
        self,
        chips: int,
        *,
        active_high: bool = False,
        sentinel_bits: int = 8,
        sentinel_level: bool = False,
        tied_low: Sequence[int] = (),
        tied_high: Sequence[int] = (),
        chip_order: str = NEAREST_FIRST,
        pin_order: str = D0_FIRST,
    ) -> None:
        if chips < 1:
            raise ValueError("chips must be at least 1")
        if sentinel_bits < 0:
            raise ValueError("sentinel_bits cannot be negative")
        if chip_order not in CHIP_ORDERS:
            raise ValueError(f"chip_order must be one of {', '.join(CHIP_ORDERS)}, got {chip_order!r}")
        if pin_order not in PIN_ORDERS:
            raise ValueError(f"pin_order must be one of {', '.join(PIN_ORDERS)}, got {pin_order!r}")
        for index in (*tied_low, *tied_high):
            if not 0 <= index < chips * 8:
                raise ValueError(f"tied input {index} is not an input of {chips} chips")
        self.chips = chips
        self.active_high = active_high
        self.sentinel_bits = sentinel_bits
        self.sentinel_level = sentinel_level
        self.chip_order = chip_order
        self.pin_order = pin_order
        self.tied_low = sum(1 << i for i in set(tied_low))
        self.tied_high = sum(1 << i for i in set(tied_high))
        if self.tied_low & self.tied_high:
            raise ValueError("an input cannot be tied both low and high")
        self._full = (1 << self.inputs) - 1

    @property
    def inputs(self) -> int:
        return self.chips * 8

    @property
    def has_tied_inputs(self) -> bool:
        return bool(self.tied_low or self.tied_high)

    def numbered(self, wire_levels: int) -> int:
        """Wire levels (chip 0 = nearest, bit d = Dd) -> levels by the maker's input numbers."""
        if self.chip_order == NEAREST_FIRST and self.pin_order == D0_FIRST:
            return wire_levels
        data = wire_levels.to_bytes(self.chips, "little")
        if self.pin_order == D7_FIRST:
            data = data.translate(_REVERSED_BITS)
        if self.chip_order == FARTHEST_FIRST:
            data = data[::-1]
        return int.from_bytes(data, "little")

    def wire_input(self, index: int) -> int:
        """The wire position (chip from the Pi * 8 + D pin) of numbered input ``index``."""
        chip, pin = divmod(index, 8)
        if self.chip_order == FARTHEST_FIRST:
            chip = self.chips - 1 - chip
        if self.pin_order == D7_FIRST:
            pin = 7 - pin
        return chip * 8 + pin

    def decode(self, wire_levels: int, sentinels_ok: bool) -> tuple[int, bool]:
        """The active-input mask (bit i set when input i senses a magnet) and whether the sentinels
        (the bits after the inputs, ``sentinels_ok``, and the tied inputs) read as wired."""
        levels = self.numbered(wire_levels)
        if levels & self.tied_low or levels & self.tied_high != self.tied_high:
            sentinels_ok = False
        return (levels if self.active_high else levels ^ self._full), sentinels_ok

    def describe(self, index: int) -> str:
        """Input ``index`` as the maker finds it: 'chip 2 pin D7' (chips counted as configured)."""
        chip, position = divmod(index, 8)
        pin = position if self.pin_order == D0_FIRST else 7 - position
        return f"chip {chip + 1} pin D{pin}"


class ChainProperties:
    """What both chain devices (bit-banged and SPI) say about themselves, from their ChainBits.

    A mixin: the device sets ``_bits`` and, after each read, ``_sentinel_ok``, and has ``read_mask``.
    """

    _bits: ChainBits
    _sentinel_ok: bool

    def read_mask(self) -> int:
        raise NotImplementedError

    @property
    def inputs(self) -> int:
        """How many sensor inputs the chain has (8 per chip)."""
        return self._bits.inputs

    @property
    def chips(self) -> int:
        return self._bits.chips

    @property
    def active_high(self) -> bool:
        return self._bits.active_high

    @property
    def sentinel_bits(self) -> int:
        return self._bits.sentinel_bits

    @property
    def has_tied_inputs(self) -> bool:
        return self._bits.has_tied_inputs

    @property
    def bits(self) -> ChainBits:
        """How the shifted-out bits are numbered and checked."""
        return self._bits

    @property
    def sentinel_ok(self) -> bool:
        """Whether the last read saw the sentinels as wired (True when there are none)."""
        return self._sentinel_ok

    @property
    def value(self) -> tuple[bool, ...]:
        """Every input, True where its sensor is active (gpiozero's ``value`` convention)."""
        mask = self.read_mask()
        return tuple(bool(mask >> i & 1) for i in range(self.inputs))

    def describe_input(self, index: int) -> str:
        return self._bits.describe(index)
