"""The firmware's brain: debounce the scans, number the changes, answer the host.

Pure logic with no hardware and no clock of its own, so the same code runs on the Pico
(``main.py`` feeds it USB bytes, scans and milliseconds), inside the emulator on the Pi (which
feeds it a virtual board and a pseudo-terminal) and in the tests. It runs under MicroPython and
CPython alike, hence no ``typing`` and plain classes.

Why a snapshot and not a list of changes: a snapshot is idempotent. It is sent on every debounced
change with a new sequence number, and repeated unchanged as a heartbeat, so a lost or damaged
frame costs the host at most one heartbeat period, never a wrong board.
"""

try:  # on the Pi (emulator, tests) the protocol lives in the package ...
    from firmware_bridge import protocol
except ImportError:  # ... on the Pico it is a file next to this one
    import protocol  # type: ignore[import-not-found,no-redef]

try:  # for the type checker only; MicroPython has no typing module
    from typing import TYPE_CHECKING
except ImportError:
    TYPE_CHECKING = False  # type: ignore[misc]

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    class Scanner(Protocol):
        fault: str | None

        def scan(self) -> bytearray: ...

    LedSetter = Callable[[int, int, int, int], None]
    BuzzerSetter = Callable[[int, int], None]

FIRMWARE_NAME = "table99-pico 1.0"


class BoardCore:
    """One board's protocol state machine.

    ``scanner.scan()`` returns a bytearray with 1 for each hole whose sensor is active now;
    ``scanner.fault`` is None or a sentence when the chain does not answer. ``write(data)`` sends
    bytes to the host. ``leds(index, r, g, b)`` and ``buzzer(frequency, ms)`` drive outputs and
    are None on boards without them. Call :meth:`step` every scan period with the time in
    milliseconds (a counter that does not wrap) and the bytes received since the last call.
    """

    def __init__(self, scanner: "Scanner", write: "Callable[[bytes], Any]", holes: int = 100,
                 boot_id: int = 0, name: str = FIRMWARE_NAME, heartbeat_ms: int = 500,
                 debounce_scans: int = 3,
                 leds: "LedSetter | None" = None, led_count: int = 0, buzzer: "BuzzerSetter | None" = None,
                 major: int = protocol.PROTOCOL_MAJOR, minor: int = protocol.PROTOCOL_MINOR) -> None:
        self.scanner = scanner
        self.write = write
        self.holes = holes
        self.boot_id = boot_id & 0xFFFF
        self.name = name
        self.heartbeat_ms = heartbeat_ms
        self.debounce_scans = debounce_scans
        self.leds = leds
        self.led_count = led_count if leds is not None else 0
        self.buzzer = buzzer
        self.major = major
        self.minor = minor
        self.parser = protocol.FrameParser()
        self.stable = bytearray(holes)
        self.pending = bytearray(holes)  # agreeing scans so far for a hole that differs
        self.sequence = 0
        self.last_sent: int | None = None
        self.fault: str | None = None
        self.started = False

    # -- output ------------------------------------------------------------------------------
    def send(self, message: "protocol.Message") -> None:
        self.write(protocol.frame(message))

    def hello(self) -> protocol.Hello:
        caps = (protocol.CAP_LEDS if self.leds is not None else 0) | (
            protocol.CAP_BUZZER if self.buzzer is not None else 0)
        return protocol.Hello(self.major, self.minor, self.holes, caps, self.led_count, self.boot_id,
                              self.name)

    def occupied(self) -> list[int]:
        return [hole for hole in range(self.holes) if self.stable[hole]]

    def send_state(self, now: int) -> None:
        """A snapshot, or the fault while the sensors do not answer (a fault is not a board)."""
        if self.fault is not None:
            self.send(protocol.Error(protocol.ERR_SCAN_FAULT, 0, self.fault))
        else:
            self.send(protocol.Snapshot(self.boot_id, self.sequence, self.holes, self.occupied()))
        self.last_sent = now

    # -- input -------------------------------------------------------------------------------
    def handle(self, payload: bytes, now: int) -> None:
        try:
            message = protocol.decode_message(payload)
        except protocol.ProtocolError as exc:
            self.send(protocol.Error(protocol.ERR_BAD_ARGUMENT, 0, str(exc)))
            return
        if message is None:
            self.send(protocol.Error(protocol.ERR_UNKNOWN_COMMAND, 0, "type 0x%02x" % payload[0]))
        elif isinstance(message, protocol.HelloRequest):
            if message.major != self.major:
                self.send(protocol.Error(protocol.ERR_VERSION, 0, "firmware speaks %d.%d, host %d.%d" % (
                    self.major, self.minor, message.major, message.minor)))
            self.send(self.hello())
        elif isinstance(message, protocol.SnapshotRequest):
            self.send_state(now)
        elif isinstance(message, protocol.Led):
            self.led(message)
        elif isinstance(message, protocol.Buzzer):
            if self.buzzer is None:
                self.send(protocol.Error(protocol.ERR_UNSUPPORTED, message.tag, "no buzzer"))
            else:
                self.buzzer(message.frequency, message.duration_ms)
                self.send(protocol.Ack(message.tag))
        else:  # a board-to-host message sent to the board: a confused or looped-back host
            self.send(protocol.Error(protocol.ERR_UNKNOWN_COMMAND, 0, "type 0x%02x" % payload[0]))

    def led(self, message: protocol.Led) -> None:
        if self.leds is None:
            self.send(protocol.Error(protocol.ERR_UNSUPPORTED, message.tag, "no LEDs"))
        elif message.index != protocol.LED_ALL and message.index >= self.led_count:
            self.send(protocol.Error(protocol.ERR_BAD_ARGUMENT, message.tag,
                                     "LED %d of %d" % (message.index, self.led_count)))
        else:
            self.leds(message.index, message.red, message.green, message.blue)
            self.send(protocol.Ack(message.tag))

    # -- the loop ----------------------------------------------------------------------------
    def debounce(self, raw: bytearray) -> bool:
        """A hole changes after ``debounce_scans`` consecutive scans agree; True if any changed."""
        if raw == self.stable:
            if any(self.pending):
                self.pending = bytearray(self.holes)
            return False
        changed = False
        stable = self.stable
        pending = self.pending
        for hole in range(self.holes):
            if raw[hole] != stable[hole]:
                pending[hole] += 1
                if pending[hole] >= self.debounce_scans:
                    stable[hole] = raw[hole]
                    pending[hole] = 0
                    changed = True
            else:
                pending[hole] = 0
        return changed

    def step(self, now: int, incoming: bytes = b"") -> None:
        if not self.started:  # announce ourselves at boot: the host learns of a restart at once
            self.started = True
            self.send(self.hello())
            first = self.scanner.scan()  # the board as found at boot needs no debounce history
            if self.scanner.fault is None:
                self.stable = bytearray(first)
        if incoming:
            bad = self.parser.bad_frames
            for payload in self.parser.feed(incoming):
                self.handle(payload, now)
            if self.parser.bad_frames != bad:
                self.send(protocol.Error(protocol.ERR_BAD_FRAME, 0, "%d bad" % self.parser.bad_frames))
        raw = self.scanner.scan()
        fault = self.scanner.fault
        if fault != self.fault:
            self.fault = fault
            if fault is None:  # sensors answer again: forget half-debounced holes
                self.pending = bytearray(self.holes)
            self.send_state(now)
            return
        if fault is None and self.debounce(raw):
            self.sequence = (self.sequence + 1) & 0xFFFFFFFF
            self.send_state(now)
        elif self.last_sent is None or now - self.last_sent >= self.heartbeat_ms:
            self.send_state(now)
