"""A fake ``neopixel`` module: remembers what the firmware last wrote to the strip."""

WRITES = []


class NeoPixel:
    def __init__(self, pin, n):
        self.pin = pin
        self.n = n
        self.buf = [(0, 0, 0)] * n

    def __setitem__(self, i, colour):
        self.buf[i] = colour

    def __getitem__(self, i):
        return self.buf[i]

    def write(self):
        WRITES.append(list(self.buf))
