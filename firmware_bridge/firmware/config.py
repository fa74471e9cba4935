"""This board's wiring. Edit it before copying the firmware to the Pico (docs/firmware.md).

GPIO numbers are the Pico's GP numbers. Choose ``WIRING = "chain"`` (74HC165 shift registers) or
``"matrix"`` (10 rows x 10 columns with a diode per sensor).
"""

WIRING = "chain"
HOLES = 100
ACTIVE_LOW = True  # hall switches such as the A3144 pull their output low when a magnet is near

# 74HC165 chain: PL (latch), CP (clock), QH of the first chip (data)
# Inputs are numbered as on the Pi (docs/hardware.md): input (chip - 1) * 8 + n is pin Dn of chip
# `chip`, chip 1 wired to the Pico; the same board works on either. The self-test wiring is the
# Pi's too: SER of the last chip to GND (8 sentinel bits), input 102 to GND, input 103 to 3V3.
CHAIN = {"latch": 2, "clock": 3, "data": 4, "chips": 13,
         "tied_low": (102,), "tied_high": (103,), "sentinel_bits": 8,
         "chip_order": "nearest_first", "pin_order": "d0_first", "pull": "up"}

# 10x10 matrix: row outputs and column inputs
MATRIX = {"rows": (6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
          "columns": (16, 17, 18, 19, 20, 21, 22, 26, 27, 28)}

# Input -> hole; None means input i is hole i (inputs beyond HOLES are not holes). A list of
# one hole index (or -1) per input, e.g. from the app's "teach the board" step.
HOLE_OF_INPUT = None

SCAN_MS = 5  # a scan every 5 ms: 200 scans a second
DEBOUNCE_SCANS = 3  # a change counts after 3 agreeing scans (15 ms)
HEARTBEAT_MS = 500  # the whole board at least twice a second, changed or not
SAFE_MODE_MS = 1000  # hold BOOTSEL this long to stop the firmware and get the REPL back

LED_PIN = None  # e.g. 0 for a WS2812 strip on GP0
LED_COUNT = 0
BUZZER_PIN = None  # e.g. 1 for a piezo on GP1
