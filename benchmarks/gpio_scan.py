"""How fast can the hall-sensor board be scanned? Measured here on mock pins, estimated for a Pi.

Run:  .venv/bin/python benchmarks/gpio_scan.py [--pi-slowdown 8] [--native-us 2.0]

What it measures on this machine (best of several repeats, so noise only makes it look slower):

1. a full scan of the 13-chip 74HC165 chain (latch, 112 clocked bits including 8 sentinel bits)
   and of the 10x10 matrix (with its check input), through the real driver code on gpiozero's
   MockFactory, plus the scanner's debounce/health work;
   (the simulated chips' own work is included, so the figure errs on the slow side);
2. the scanner alone (debounce, stability, health) per scan;
3. one pin write and one pin read through gpiozero on mock pins, and a fixed pure-Python
   reference loop.

How the Pi figure is estimated: on a Pi the same Python runs (driver, gpiozero's pin layer,
scanner), slower by the Python speed ratio between the two machines (``--pi-slowdown``; 8 is a
cautious figure for a Pi 4 against a current x86 desktop core, and running this script on the Pi
prints the reference loop so the real ratio can be read off: divide the Pi's reference time by
this machine's). What the mock pin does in Python (set an attribute) a real pin does in C through
lgpio (an ioctl on /dev/gpiochip), ``--native-us`` microseconds per call on the Pi, added per pin
operation. So: pi_scan = slowdown * scan_here + pin_operations * native_us.
"""

from __future__ import annotations

import argparse
import timeit

from gpiozero.pins.mock import MockFactory

from hardware.gpio_setup import ChainWiring, MatrixWiring, MockBoard
from hardware.scan import Scanner, ScanSettings
from hardware.wiring import WiringMap

TARGET_HZ = 100.0


def best(stmt: object, number: int, repeat: int = 5) -> float:
    """Seconds per call, best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number  # type: ignore[arg-type]


def reference_loop() -> int:
    total = 0
    for i in range(20_000):
        total += (i * 7) & 0xFF
    return total


def scan_cost(wiring: ChainWiring | MatrixWiring) -> tuple[float, int]:
    """Seconds per full scan (read + scanner) and pin operations per scan."""
    board = MockBoard(wiring)
    reader = board.opener()()
    scanner = Scanner(WiringMap.identity(wiring.inputs), ScanSettings())
    board.set_inputs({3, 17, 58, 99})
    clock = [0.0]

    def one_scan() -> None:
        clock[0] += 0.005
        scanner.feed(reader.read_mask(), clock[0])
        reader.fault()

    cost = best(one_scan, 200)
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
    parser.add_argument("--pi-slowdown", type=float, default=8.0,
                        help="how many times slower Python runs on the Pi than here (default 8)")
    parser.add_argument("--native-us", type=float, default=2.0,
                        help="microseconds one lgpio pin call costs on the Pi (default 2.0)")
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
    print("measured here (best of 5):")
    print(f"  reference loop          {reference * 1e3:8.3f} ms   (on the Pi: its time / this = slowdown)")
    print(f"  mock pin write / read   {write * 1e6:8.3f} / {read * 1e6:.3f} us")
    print(f"  scanner per scan        {judge * 1e6:8.1f} us")
    print()
    print(f"Pi estimate: slowdown x{args.pi_slowdown:g}, {args.native_us:g} us per native pin call")
    print(f"  {'wiring':<28}{'here':>10}{'pin ops':>9}{'Pi scan':>10}{'Pi rate':>10}{'vs 100/s':>10}")
    wirings = (("74HC165 chain, 13 chips", ChainWiring()), ("10x10 matrix + check", MatrixWiring()))
    for name, wiring in wirings:
        here, operations = scan_cost(wiring)
        pi = args.pi_slowdown * here + operations * args.native_us * 1e-6
        rate = 1.0 / pi
        print(f"  {name:<28}{here * 1e3:8.3f}ms{operations:>9}{pi * 1e3:8.2f}ms"
              f"{rate:>8.0f}/s{rate / TARGET_HZ:>9.1f}x")


if __name__ == "__main__":
    main()
