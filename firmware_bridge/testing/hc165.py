"""A chain of 74HC165s as the datasheet describes it, for CPython and MicroPython alike.

One model of the physical board, read both through the Pi's gpiozero driver and through the
Pico firmware under the real MicroPython interpreter (``tests/test_board_wiring.py``), so the two
cannot each agree with a mock of their own making. Plain Python (no typing, no dataclasses): the
MicroPython unix port imports this very file.

From the datasheet (TI SN74HC165): while SH/LD is low the parallel inputs A..H are loaded into
the register asynchronously; with SH/LD high each rising edge of CLK shifts the register one
stage towards QH (A <- SER, B <- A, ... H <- G); QH is stage H. In a chain, each chip's SER is
the QH of the next chip further from the reader; the last chip's SER is tied to a fixed level.
The project calls the inputs D0..D7 (A = D0 ... H = D7), so D7 of chip 0 is the first bit read.

``levels[chip * 8 + d]`` is the wire level on pin Dd of chip ``chip`` (counted from the reader).
A data wire that is off reads the reader's pull (up: 1, down: 0) or, with no pull, noise.
"""

try:
    import random
except ImportError:  # pragma: no cover - every MicroPython port we use has it
    random = None


class HC165Chain:
    def __init__(self, chips=13, ser_level=0, seed=1):
        self.chips = chips
        self.ser_level = ser_level
        self.levels = bytearray(chips * 8)
        self.register = bytearray(chips * 8)  # index chip * 8 + stage, stage 0 = A ... 7 = H
        self.latch_level = 1
        self.clock_level = 0
        self.powered = True
        self.data_connected = True
        self._noise = seed

    def set_latch(self, level):
        self.latch_level = 1 if level else 0
        if not self.latch_level:
            self.register[:] = self.levels  # asynchronous parallel load

    def set_clock(self, level):
        level = 1 if level else 0
        rising = level and not self.clock_level
        self.clock_level = level
        if rising and self.latch_level:
            self._shift()

    def _shift(self):
        old = bytes(self.register)
        for chip in range(self.chips):
            base = chip * 8
            for stage in range(7, 0, -1):
                self.register[base + stage] = old[base + stage - 1]
            if chip + 1 < self.chips:
                self.register[base] = old[(chip + 1) * 8 + 7]  # SER <- QH of the next chip
            else:
                self.register[base] = self.ser_level

    def qh(self):
        """The level on chip 0's QH pin (0 without power)."""
        return self.register[7] if self.powered else 0

    def data_level(self, pull):
        """What the reader's data pin reads: QH, or with the wire off, its pull or noise."""
        if self.data_connected:
            return self.qh()
        if pull == "up":
            return 1
        if pull == "down":
            return 0
        self._noise = (self._noise * 1103515245 + 12345) & 0x7FFFFFFF
        return (self._noise >> 16) & 1

    def wire(self, magnets, active_low=True, tied_low=(), tied_high=()):
        """Set every input: sensors at ``magnets`` active, the others idle, tied inputs fixed."""
        active = 0 if active_low else 1
        for index in range(self.chips * 8):
            self.levels[index] = active if index in magnets else 1 - active
        for index in tied_low:
            self.levels[index] = 0
        for index in tied_high:
            self.levels[index] = 1


class MicroPythonPins:
    """Connects a chain to the fake ``machine`` module's pins (``machine.DEVICES``)."""

    def __init__(self, chain, latch, clock, data):
        self.chain = chain
        self.latch = latch
        self.clock = clock
        self.data = data

    def written(self, pin):
        if pin.id == self.latch:
            self.chain.set_latch(pin.level)
        elif pin.id == self.clock:
            self.chain.set_clock(pin.level)

    def read(self, pin):
        if pin.id != self.data:
            return None
        pull = {1: "up", 2: "down"}.get(pin.pull, "none")
        return self.chain.data_level(pull)
