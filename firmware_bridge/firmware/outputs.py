"""Optional outputs on the Pico: a WS2812 (NeoPixel) strip and a piezo buzzer on PWM.

Each is built only when ``config.py`` names its pin, so a board without them reports no such
capability in its HELLO and the host never asks for them.
"""

from machine import PWM, Pin


class LedStrip:
    """``count`` WS2812 LEDs on one pin; ``set(index, r, g, b)`` with index 255 meaning all."""

    def __init__(self, pin, count):
        import neopixel

        self.count = count
        self.pixels = neopixel.NeoPixel(Pin(pin), count)

    def set(self, index, red, green, blue):
        indexes = range(self.count) if index == 255 else (index,)
        for i in indexes:
            self.pixels[i] = (red, green, blue)
        self.pixels.write()


class Buzzer:
    """A piezo on a PWM pin, switched off by :meth:`poll` once its time is up (never blocking)."""

    def __init__(self, pin):
        self.pwm = PWM(Pin(pin))
        self.pwm.duty_u16(0)
        self.until = None
        self.now = 0

    def sound(self, frequency, duration_ms):
        if frequency == 0 or duration_ms == 0:
            self.pwm.duty_u16(0)
            self.until = None
            return
        self.pwm.freq(frequency)
        self.pwm.duty_u16(32768)
        self.until = self.now + duration_ms

    def poll(self, now):
        self.now = now
        if self.until is not None and now >= self.until:
            self.pwm.duty_u16(0)
            self.until = None
