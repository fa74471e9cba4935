"""Runs the real firmware on MicroPython's unix port against fake hardware (see mp_fakes/).

A test writes a short MicroPython script that imports this module, builds a board with
:func:`chain_board` or :func:`matrix_board`, changes the simulated sensors and calls
:meth:`Bench.run`; every frame the firmware writes is printed as ``OUT <ms> <hex>`` so the CPython
side of the test decodes it with the very same protocol module.
"""


import binascii

import config
import machine
import main


class Config:
    """A copy of the firmware's config.py with some values replaced."""

    def __init__(self, **overrides):
        for key in dir(config):
            if not key.startswith("_"):
                setattr(self, key, getattr(config, key))
        for key in overrides:
            setattr(self, key, overrides[key])


class Bench:
    def __init__(self, cfg, device):
        self.cfg = cfg
        self.device = device
        machine.DEVICES.append(device)
        self.out = bytearray()
        self.core, self.buzzer = main.make_core(cfg, self.out.extend)
        self.now = 0

    def run(self, ms, incoming=b""):
        """Step the firmware for ``ms`` milliseconds of fake time, one scan per SCAN_MS."""
        end = self.now + ms
        first = True
        while self.now < end:
            self.core.step(self.now, incoming if first else b"")
            first = False
            if self.buzzer is not None:
                self.buzzer.poll(self.now)
            if self.out:
                print("OUT", self.now, binascii.hexlify(self.out).decode())
                self.out[:] = b""
            self.now += self.cfg.SCAN_MS


def chain_board(**overrides):
    cfg = Config(WIRING="chain", **overrides)
    chain = machine.FakeChain(cfg.CHAIN["latch"], cfg.CHAIN["clock"], cfg.CHAIN["data"], cfg.CHAIN["chips"])
    # tied inputs at their wired levels, sensors idle (high: active-low hall switches)
    for i in cfg.CHAIN.get("tied_low", ()):
        chain.levels[i] = 0
    for i in cfg.CHAIN.get("tied_high", ()):
        chain.levels[i] = 1
    return Bench(cfg, chain)


def matrix_board(**overrides):
    cfg = Config(WIRING="matrix", **overrides)
    return Bench(cfg, machine.FakeMatrix(cfg.MATRIX["rows"], cfg.MATRIX["columns"]))


def pegs_to_levels(bench, holes):
    """Set the chain's sensor inputs so exactly ``holes`` hold a peg (identity wiring)."""
    for i in range(bench.cfg.HOLES):
        bench.device.levels[i] = 0 if i in holes else 1


