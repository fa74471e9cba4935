"""Reading the sensors on the Pico: a 74HC165 chain or a 10x10 diode matrix.

Both are the wirings of the GPIO board (docs/hardware.md) moved onto the Pico's pins. A scanner
reads raw *inputs* in a fixed order and maps them to *holes* through ``hole_of_input`` (data, not
code: a hand-wired board has its wires in any order). An input mapped to -1 is not a hole.

Self-test: a 74HC165 chain cannot tell "no peg" from "no chain" by itself, so it is wired as the
Pi's board is (docs/hardware.md): SER of the last chip to GND (sentinel bits), input 102 to GND and
103 to 3V3. When they read wrong, the chain is disconnected or stuck and ``fault`` says so; the
core then reports the fault instead of a board that would be wrong.
"""

from machine import Pin

PULLS = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN, "none": None}


def identity_map(inputs, holes):
    return [i if i < holes else -1 for i in range(inputs)]


class _Mapped:
    def __init__(self, inputs, holes, hole_of_input, active_low):
        self.inputs = inputs
        self.holes = holes
        self.map = list(hole_of_input) if hole_of_input is not None else identity_map(inputs, holes)
        if len(self.map) != inputs:
            raise ValueError("hole_of_input has %d entries for %d inputs" % (len(self.map), inputs))
        self.active = 0 if active_low else 1
        self.raw = bytearray(inputs)
        self.fault = None

    def to_holes(self):
        holes = bytearray(self.holes)
        active = self.active
        raw = self.raw
        mapping = self.map
        for i in range(self.inputs):
            hole = mapping[i]
            if hole >= 0 and raw[i] == active:
                holes[hole] = 1
        return holes


def wire_position(index, chips, chip_order="nearest_first", pin_order="d0_first"):
    """The wire position (chip counted from the reader * 8 + D pin) of numbered input ``index``.

    The same numbering as the Pi's driver (``hardware/chain_bits.py``, docs/hardware.md): input
    ``(chip - 1) * 8 + n`` is pin Dn of chip ``chip``, chip 1 the one wired to the reader, unless
    ``chip_order``/``pin_order`` say the maker counted the other way. One board, one numbering:
    the same ``tied_low``/``tied_high`` and hole map work on the Pi and on the Pico.
    """
    chip, pin = divmod(index, 8)
    if chip_order == "farthest_first":
        chip = chips - 1 - chip
    elif chip_order != "nearest_first":
        raise ValueError("chip_order must be nearest_first or farthest_first, not %r" % chip_order)
    if pin_order == "d7_first":
        pin = 7 - pin
    elif pin_order != "d0_first":
        raise ValueError("pin_order must be d0_first or d7_first, not %r" % pin_order)
    return chip * 8 + pin


class ShiftRegisterChain(_Mapped):
    """Thirteen 74HC165s in a chain: pulse the latch (PL, active low), then clock the bits out.

    Bits arrive D7..D0 of the chip wired to the Pico, then D7..D0 of the next chip, and so on;
    they are stored by the Pi's input numbers (see :func:`wire_position`). After the inputs,
    ``sentinel_bits`` more clocks read the last chip's SER (tied to GND: ``sentinel_level``); with
    one spare input tied to GND and one to 3V3 (``tied_low``, ``tied_high``; docs/hardware.md:
    input 102 to GND, 103 to 3V3) a chain that answers all ones or all zeros is caught. The data
    pin is pulled up, as on the Pi: a loose data wire then reads all ones, never noise.
    """

    def __init__(self, latch, clock, data, chips=13, holes=100, hole_of_input=None, active_low=True,
                 tied_low=(102,), tied_high=(103,), sentinel_bits=8, sentinel_level=0,
                 chip_order="nearest_first", pin_order="d0_first", pull="up"):
        _Mapped.__init__(self, chips * 8, holes, hole_of_input, active_low)
        for index in tuple(tied_low) + tuple(tied_high):
            if not 0 <= index < chips * 8:
                raise ValueError("tied input %d is not an input of %d chips" % (index, chips))
        self.latch = Pin(latch, Pin.OUT, value=1)
        self.clock = Pin(clock, Pin.OUT, value=0)
        pull_mode = PULLS[pull]
        self.data = Pin(data, Pin.IN, pull_mode) if pull_mode is not None else Pin(data, Pin.IN)
        self.tied_low = tuple(tied_low)
        self.tied_high = tuple(tied_high)
        self.sentinel_bits = sentinel_bits
        self.sentinel_level = 1 if sentinel_level else 0
        # the i-th bit shifted out is wire position chip * 8 + (7 - i % 8); store it by input number
        number_of_wire = bytearray(chips * 8)
        for index in range(chips * 8):
            number_of_wire[wire_position(index, chips, chip_order, pin_order)] = index
        self.order = bytearray(number_of_wire[(i // 8) * 8 + 7 - i % 8] for i in range(chips * 8))
        self.sentinels_ok = True

    def scan(self):
        latch = self.latch
        clock = self.clock
        data = self.data
        raw = self.raw
        order = self.order
        latch.value(0)  # load the parallel inputs
        latch.value(1)
        for i in range(self.inputs):
            raw[order[i]] = data.value()
            clock.value(1)
            clock.value(0)
        ok = True
        for _ in range(self.sentinel_bits):
            if data.value() != self.sentinel_level:
                ok = False
            clock.value(1)
            clock.value(0)
        self.sentinels_ok = ok
        self.fault = self.check()
        return self.to_holes()

    def check(self):
        raw = self.raw
        wrong = [i for i in self.tied_low if raw[i] != 0] + [i for i in self.tied_high if raw[i] != 1]
        if wrong or not self.sentinels_ok:
            level = "all ones" if all(raw) else "all zeros" if not any(raw) else "wrong spare levels"
            if not wrong:
                level = "wrong sentinel bits"
            return "74HC165 chain does not answer (%s, tied inputs %s)" % (level, wrong)
        return None

    def active_inputs(self):
        """The inputs whose sensor is active in the last scan (by input number, for tests)."""
        active = self.active
        return [i for i in range(self.inputs) if self.raw[i] == active]


class SensorMatrix(_Mapped):
    """Ten row outputs and ten column inputs with a diode per sensor.

    One row at a time is driven to its active level, the others float (inputs), and the columns
    (pulled the other way) read which sensors of that row conduct. Input ``i`` is
    ``row * columns + column``.
    """

    def __init__(self, rows, columns, holes=100, hole_of_input=None, active_low=True, settle_us=20):
        _Mapped.__init__(self, len(rows) * len(columns), holes, hole_of_input, active_low)
        self.row_ids = tuple(rows)
        self.rows = [Pin(r, Pin.IN) for r in rows]
        pull = Pin.PULL_UP if active_low else Pin.PULL_DOWN
        self.columns = [Pin(c, Pin.IN, pull) for c in columns]
        self.settle_us = settle_us
        try:
            from time import sleep_us
        except ImportError:  # pragma: no cover
            def sleep_us(_):
                return None
        self.sleep_us = sleep_us

    def scan(self):
        raw = self.raw
        width = len(self.columns)
        drive = self.active
        for r, row in enumerate(self.rows):
            row.init(Pin.OUT, value=drive)
            if self.settle_us:
                self.sleep_us(self.settle_us)
            base = r * width
            for c, column in enumerate(self.columns):
                raw[base + c] = column.value()
            row.init(Pin.IN)
        return self.to_holes()
