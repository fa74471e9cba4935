"""Reading the sensors on the Pico: a 74HC165 chain or a 10x10 diode matrix.

Both are the wirings of the GPIO board (docs/hardware.md) moved onto the Pico's pins. A scanner
reads raw *inputs* in a fixed order and maps them to *holes* through ``hole_of_input`` (data, not
code: a hand-wired board has its wires in any order). An input mapped to -1 is not a hole.

Self-test: a 74HC165 chain cannot tell "no peg" from "no chain" by itself, so wire the spare
inputs of the last chip to known levels (``spare_low`` to GND, ``spare_high`` to 3V3). When they
read wrong, the chain is disconnected or stuck and ``fault`` says so; the core then reports the
fault instead of a board that would be wrong.
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


class ShiftRegisterChain(_Mapped):
    """Thirteen 74HC165s in a chain: pulse the latch (PL, active low), then clock the bits out.

    Input ``i`` is the ``i``-th bit shifted out: input 0 is pin D7 of the chip whose QH goes to
    the Pico, input 8 is D7 of the next chip, and so on.
    """

    def __init__(self, latch, clock, data, chips=13, holes=100, hole_of_input=None, active_low=True,
                 spare_low=(), spare_high=(), pull="none"):
        _Mapped.__init__(self, chips * 8, holes, hole_of_input, active_low)
        self.latch = Pin(latch, Pin.OUT, value=1)
        self.clock = Pin(clock, Pin.OUT, value=0)
        pull_mode = PULLS[pull]
        self.data = Pin(data, Pin.IN, pull_mode) if pull_mode is not None else Pin(data, Pin.IN)
        self.spare_low = tuple(spare_low)
        self.spare_high = tuple(spare_high)

    def scan(self):
        latch = self.latch
        clock = self.clock
        data = self.data
        raw = self.raw
        latch.value(0)  # load the parallel inputs
        latch.value(1)
        for i in range(self.inputs):
            raw[i] = data.value()
            clock.value(1)
            clock.value(0)
        self.fault = self.check()
        return self.to_holes()

    def check(self):
        raw = self.raw
        wrong = [i for i in self.spare_low if raw[i] != 0] + [i for i in self.spare_high if raw[i] != 1]
        if wrong:
            level = "all ones" if all(raw) else "all zeros" if not any(raw) else "wrong spare levels"
            return "74HC165 chain does not answer (%s, spare inputs %s)" % (level, wrong)
        return None


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
