"""How fast can the hall-sensor board be scanned? Measured here on mock pins, estimated for a Pi.

Run:  .venv/bin/python benchmarks/gpio_scan.py [--pi-slowdown N --native-us U]

What it measures on this machine (best of several repeats, so noise only makes it look slower; the scan
cost is also printed as a ratio to a fixed reference loop, which machine load changes far less):

1. a full scan of the 13-chip 74HC165 chain (latch, 112 clocked bits including 8 sentinel bits)
   and of the 10x10 matrix (with its check input), through the real driver code on gpiozero's
   MockFactory, plus the scanner's debounce/health work;
   (the simulated chips' own work is included, so the figure errs on the slow side);
2. the scanner alone (debounce, stability, health) per scan;
3. one pin write and one pin read through gpiozero on mock pins, and a fixed pure-Python
   reference loop;
4. the chain read over SPI (``spi = true``): everything but the SPI transfer itself (the latch,
   turning the bytes into the mask, the sentinels, the scanner), with the transfer answered at
   once by the bytes the simulated chips gave; on mock pins gpiozero's SPI is bit-banged Python,
   which says nothing about the Pi's SPI block.

How the Pi figure is estimated: on a Pi the same Python runs (driver, gpiozero's pin layer,
scanner), slower by the Python speed ratio between the two machines; what the mock pin does in
Python (set an attribute) a real pin does through lgpio (an ioctl on /dev/gpiochip), a cost added
per pin operation. So: pi_scan = slowdown * scan_here + pin_operations * native_us. The printed
scenarios are assumptions (a typical and a pessimistic Pi 4, a pessimistic Pi Zero 2 W); running
this script on the Pi prints the reference loop, whose time divided by this machine's is the real
slowdown, to pass with ``--pi-slowdown`` (and ``--native-us`` from a toggle loop on the Pi).

Over SPI the pin operations are the two latch writes, and the transfer costs its wire time
(112 bits at spidev's 500 kHz in gpiozero: 224 us) plus one ioctl, assumed to cost 5 native pin
calls: pi_scan = slowdown * scan_here + 2 * native_us + 224 us + 5 * native_us.
"""

from __future__ import annotations

import argparse
import timeit

from gpiozero.pins.mock import MockFactory

from hardware.gpio_setup import ChainWiring, MatrixWiring, MockBoard
from hardware.scan import Scanner, ScanSettings
from hardware.wiring import WiringMap

TARGET_HZ = 100.0
SPI_HZ = 500_000  # gpiozero's hardware SPI sets spidev to this rate
IOCTL_PIN_CALLS = 5  # assumed cost of one spidev transfer ioctl, in native pin calls
# (label, Python slowdown against this machine, microseconds per native pin call on the Pi).
# Assumptions, not measurements: replace them with figures measured on the Pi (see the docstring).
SCENARIOS = (
    ("Pi 4, typical", 8.0, 2.0),
    ("Pi 4, pessimistic", 15.0, 10.0),
    ("Pi Zero 2 W, pessimistic", 25.0, 20.0),
)


def best(stmt: object, number: int, repeat: int = 9) -> float:
    """Seconds per call, best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number  # type: ignore[arg-type]


def reference_loop() -> int:
    total = 0
    for i in range(20_000):
        total += (i * 7) & 0xFF
    return total


class InstantSpi:
    """Stands in for the SPI interface: answers a transfer at once with the bytes it was given."""

    def __init__(self, words: list[int]) -> None:
        self.words = words

    def transfer(self, data: list[int]) -> list[int]:
        return self.words


def scan_cost(wiring: ChainWiring | MatrixWiring) -> tuple[float, int]:
    """Seconds per full scan (read + scanner) and pin operations per scan (the SPI transfer apart)."""
    board = MockBoard(wiring)
    reader = board.opener()()
    spi = None
    if isinstance(wiring, ChainWiring) and wiring.spi:
        board.set_inputs({3, 17, 58, 99})
        chain = reader.chain  # type: ignore[attr-defined]
        spi, latched = chain._spi, chain._spi.transfer(chain._request)
        chain._spi = InstantSpi(latched)
    scanner = Scanner(WiringMap.identity(wiring.inputs), ScanSettings())
    board.set_inputs({3, 17, 58, 99})
    clock = [0.0]

    def one_scan() -> None:
        clock[0] += 0.005
        scanner.feed(reader.read_mask(), clock[0])
        reader.fault()

    cost = best(one_scan, 200)
    if spi is not None:
        reader.chain._spi = spi  # type: ignore[attr-defined]
        reader.close()
        return cost, 2
    reader.close()
    if isinstance(wiring, ChainWiring):
        bits = wiring.chips * 8 + wiring.sentinel_bits
        operations = 2 + bits * 3  # latch low/high; per bit: read data, clock high, clock low
    else:
        columns = len(wiring.columns) + (wiring.check is not None)
        operations = len(wiring.rows) * (2 + columns)  # select, read the columns, deselect
    return cost, operations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pi-slowdown", type=float, default=None,
                        help="add a scenario: how many times slower Python runs on the Pi than here")
    parser.add_argument("--native-us", type=float, default=2.0,
                        help="with --pi-slowdown: microseconds one lgpio pin call costs on the Pi")
    args = parser.parse_args()

    factory = MockFactory()
    pin = factory.pin(5)
    pin.function = "output"
    write = best(lambda: setattr(pin, "state", True), 20_000)
    read = best(lambda: pin.state, 20_000)
    reference = best(reference_loop, 20)
    scanner = Scanner(WiringMap.identity(104), ScanSettings())
    t = [0.0]

    def feed() -> None:
        t[0] += 0.005
        scanner.feed(0b1011 << 40, t[0])

    judge = best(feed, 2000)
    print("measured here (best of 9; the ratio to the reference loop varies less with machine load):")
    print(f"  reference loop          {reference * 1e3:8.3f} ms   (on the Pi: its time / this = slowdown)")
    print(f"  mock pin write / read   {write * 1e6:8.3f} / {read * 1e6:.3f} us")
    print(f"  scanner per scan        {judge * 1e6:8.1f} us")
    print()
    scenarios = list(SCENARIOS)
    if args.pi_slowdown is not None:
        scenarios.append(("your figures", args.pi_slowdown, args.native_us))
    wirings = (("74HC165 chain, 13 chips", ChainWiring()), ("10x10 matrix + check", MatrixWiring()),
               ("chain over SPI", ChainWiring(spi=True)))
    costs = [(name, *scan_cost(wiring), isinstance(wiring, ChainWiring) and wiring.spi)
             for name, wiring in wirings]
    spi_bits = ChainWiring().chips * 8 + ChainWiring().sentinel_bits
    for name, here, operations, over_spi in costs:
        extra = f" + one transfer of {spi_bits} bits" if over_spi else ""
        print(f"  {name:<28}{here * 1e3:8.3f} ms per scan = {here / reference:5.2f} reference loops, "
              f"{operations} pin operations{extra}")
    print()
    print("Pi estimate = slowdown x scan here + pin operations x native call (scans per second, vs 100):")
    print(f"  {'scenario':<40}" + "".join(f"{name:>26}" for name, _, _, _ in costs))
    for label, slowdown, native_us in scenarios:
        cells = []
        for _, here, operations, over_spi in costs:
            pi = slowdown * here + operations * native_us * 1e-6
            if over_spi:
                pi += spi_bits / SPI_HZ + IOCTL_PIN_CALLS * native_us * 1e-6
            cells.append(f"{pi * 1e3:6.2f} ms {1 / pi:5.0f}/s {1 / pi / TARGET_HZ:4.1f}x")
        print(f"  {f'{label} (x{slowdown:g}, {native_us:g} us)':<40}" + "".join(f"{c:>26}" for c in cells))

if __name__ == "__main__":
    main()
