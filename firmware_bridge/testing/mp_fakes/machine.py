"""A fake ``machine`` module for running the firmware on MicroPython's unix port.

Pins remember their mode and level; simulated devices (a 74HC165 chain, a diode matrix) watch
pin writes and answer pin reads, so the firmware's scanners run unchanged against them.
"""

DEVICES = []


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=None, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 0
        if value is not None:
            self.level = 1 if value else 0

    def init(self, mode=-1, pull=None, value=None):
        if mode != -1:
            self.mode = mode
        if pull is not None:
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            for device in DEVICES:
                answer = device.read(self)
                if answer is not None:
                    return answer
            if self.mode == Pin.OUT:
                return self.level
            return 1 if self.pull == Pin.PULL_UP else 0
        self.level = 1 if v else 0
        for device in DEVICES:
            device.written(self)
        return None

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def __call__(self, v=None):
        return self.value(v)


PWM_LOG = []  # ("freq", hz) and ("duty", u16) in the order the firmware set them


class PWM:

    def __init__(self, pin):
        self.pin = pin
        self._freq = 0
        self._duty = 0

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        PWM_LOG.append(("freq", f))

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        PWM_LOG.append(("duty", d))


class FakeChain:
    """A chain of 74HC165s behind three fake pins: the datasheet model of ``hc165.py``.

    ``levels[i]`` is the wire level of input ``i`` by the Pi's numbering (pin D(i % 8) of chip
    i // 8, chip 0 wired to the reader). ``connected = False`` models a cable off the data pin:
    it then reads the pin's pull (up: all ones) or noise when it has none.
    """

    def __init__(self, latch, clock, data, chips=13):
        from hc165 import HC165Chain, MicroPythonPins

        self.model = HC165Chain(chips)
        self.pins = MicroPythonPins(self.model, latch, clock, data)
        self.levels = self.model.levels
        for i in range(len(self.levels)):
            self.levels[i] = 1  # idle active-low sensors
        self.latches = 0

    @property
    def connected(self):
        return self.model.data_connected

    @connected.setter
    def connected(self, value):
        self.model.data_connected = value

    def written(self, pin):
        if pin.id == self.pins.latch and pin.level == 0:
            self.latches += 1
        self.pins.written(pin)

    def read(self, pin):
        return self.pins.read(pin)


class FakeMatrix:
    """Rows driven low one at a time; ``active`` holds (row, column) pairs whose sensor conducts."""

    def __init__(self, rows, columns):
        self.rows = tuple(rows)
        self.columns = tuple(columns)
        self.active = set()
        self.pins = {}

    def written(self, pin):
        if pin.id in self.rows:
            self.pins[pin.id] = pin

    def read(self, pin):
        if pin.id not in self.columns:
            return None
        c = self.columns.index(pin.id)
        for r, row in enumerate(self.rows):
            p = self.pins.get(row)
            if p is not None and p.mode == Pin.OUT and p.level == 0 and (r, c) in self.active:
                return 0
        return 1


def freq(f=None):
    return 125_000_000
