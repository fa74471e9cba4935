"""Entry point on the Pico: scan, debounce and talk to the Pi over USB serial, forever.

MicroPython runs ``main.py`` at boot. Everything the board does is in :mod:`core`; this file only
wires the hardware (``config.py``) to it and moves bytes between USB and the core. ``run`` takes
its streams, clock and sleep as arguments so the tests can drive it on the unix port.
"""

import sys

import config
from core import BoardCore


def make_scanner(cfg):
    import scanners

    mapping = cfg.HOLE_OF_INPUT
    if cfg.WIRING == "chain":
        return scanners.ShiftRegisterChain(holes=cfg.HOLES, hole_of_input=mapping, active_low=cfg.ACTIVE_LOW,
                                           **cfg.CHAIN)
    if cfg.WIRING == "matrix":
        return scanners.SensorMatrix(holes=cfg.HOLES, hole_of_input=mapping, active_low=cfg.ACTIVE_LOW,
                                     **cfg.MATRIX)
    raise ValueError("config.WIRING must be 'chain' or 'matrix', not %r" % cfg.WIRING)


def boot_id():
    """A fresh number at every start, so the host can tell a restarted board from a silent one."""
    try:
        import os

        return int.from_bytes(os.urandom(2), "big")
    except Exception:
        import time

        return time.ticks_cpu() & 0xFFFF


def make_core(cfg, write):
    import outputs

    leds = buzzer = None
    led_count = 0
    if cfg.LED_PIN is not None and cfg.LED_COUNT:
        leds = outputs.LedStrip(cfg.LED_PIN, cfg.LED_COUNT).set
        led_count = cfg.LED_COUNT
    if cfg.BUZZER_PIN is not None:
        buzzer = outputs.Buzzer(cfg.BUZZER_PIN)
    core = BoardCore(make_scanner(cfg), write, holes=cfg.HOLES, boot_id=boot_id(),
                     heartbeat_ms=cfg.HEARTBEAT_MS, debounce_scans=cfg.DEBOUNCE_SCANS, leds=leds,
                     led_count=led_count, buzzer=buzzer.sound if buzzer else None)
    return core, buzzer


def bootsel_reader():
    """The BOOTSEL button, or None off the RP2040."""
    try:
        import rp2

        return rp2.bootsel_button
    except (ImportError, AttributeError):
        return None


def run(cfg=config, stdin=None, stdout=None, ticks_ms=None, sleep_ms=None, steps=None):
    """Scan and serve until power-off (or ``steps`` loops, for tests).

    Ctrl-C is switched off (a 0x03 byte inside a frame must not stop the board), so holding the
    BOOTSEL button for ``SAFE_MODE_MS`` is the way back to the REPL: the loop returns.
    """
    import select
    import time

    import micropython

    micropython.kbd_intr(-1)
    readable = stdin or sys.stdin  # poll the stream object, read raw bytes from its buffer
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    ticks_ms = ticks_ms or time.ticks_ms
    sleep_ms = sleep_ms or time.sleep_ms
    poll = select.poll()
    poll.register(readable, select.POLLIN)

    def write(data):
        stdout.write(data)
        if hasattr(stdout, "flush"):
            stdout.flush()

    core, buzzer = make_core(cfg, write)
    now = 0  # milliseconds since boot, never wrapping (ticks_ms wraps after 2**30)
    last = ticks_ms()
    done = 0
    bootsel = bootsel_reader()
    held_since = None
    while steps is None or done < steps:
        if bootsel is not None and done % 20 == 0:
            if not bootsel():
                held_since = None
            elif held_since is None:
                held_since = now
            elif now - held_since >= cfg.SAFE_MODE_MS:
                micropython.kbd_intr(3)
                stdout.write(b"\r\ntable99 firmware stopped (BOOTSEL held): REPL\r\n")
                return "safe mode"
        incoming = bytearray()
        while len(incoming) < 256 and poll.poll(0):
            chunk = stdin.read(1)
            if not chunk:
                break
            incoming.extend(chunk)
        tick = ticks_ms()
        now += time.ticks_diff(tick, last)
        last = tick
        core.step(now, bytes(incoming))
        if buzzer is not None:
            buzzer.poll(now)
        spent = time.ticks_diff(ticks_ms(), tick)
        if spent < cfg.SCAN_MS:
            sleep_ms(cfg.SCAN_MS - spent)
        done += 1


if __name__ == "__main__":
    run()
