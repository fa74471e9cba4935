"""The Table99 board protocol: frames and messages, shared by the Pi and the firmware.

One source of truth: this module runs unchanged under CPython (the Pi's driver, the emulator, the
tests) and under MicroPython (copied onto the Pico next to the firmware). That is why it uses no
``typing``, no dataclasses and no ``from __future__`` import, and why its messages are plain classes
with ``__slots__``. The wire format is documented in ``docs/protocol.md``; in short:

    frame on the wire = COBS(payload + CRC-32(payload), 4 bytes big-endian) + 0x00
    payload           = message type (1 byte) + fields

COBS makes 0x00 appear only as the frame delimiter, so a receiver that starts in the middle of a
frame, or reads garbage, resynchronises at the next 0x00 (the lesson of the DGT protocol, whose
receivers had to guess frame starts). The CRC-32 rejects damaged frames: a damaged frame is
dropped and counted, never misread. Snapshots carry the whole board, so a lost frame costs
nothing but time.
"""

try:  # typing exists only for the type checker's sake; MicroPython has no such module
    from typing import TYPE_CHECKING
except ImportError:  # pragma: no cover - MicroPython
    TYPE_CHECKING = False  # type: ignore[misc]

try:  # MicroPython has binascii.crc32 on most ports; a table fallback covers the rest
    from binascii import crc32 as _crc32
except ImportError:  # pragma: no cover - only on MicroPython builds without it
    _crc32 = None  # type: ignore[assignment]

PROTOCOL_MAJOR = 1
"""Incompatible changes bump the major version; peers with different majors refuse to talk."""
PROTOCOL_MINOR = 0
"""Compatible additions (new message types, trailing fields) bump the minor version."""
MAGIC = b"T9"
"""Starts every HELLO and HELLO_REQUEST, in every version, so peers can recognise each other."""

MAX_PAYLOAD = 200
"""No message is longer; a receiver drops anything longer without buffering it."""
MAX_ENCODED = MAX_PAYLOAD + 4 + MAX_PAYLOAD // 254 + 2
HOLES_MAX = 255

# Board -> host
HELLO = 0x01
SNAPSHOT = 0x02
ERROR = 0x03
ACK = 0x04
# Host -> board
HELLO_REQUEST = 0x81
SNAPSHOT_REQUEST = 0x82
LED = 0x83
BUZZER = 0x84

CAP_LEDS = 0x01
CAP_BUZZER = 0x02
LED_ALL = 255

# Error codes the board reports
ERR_BAD_FRAME = 1  # the board received a frame whose CRC or COBS was wrong
ERR_UNKNOWN_COMMAND = 2  # a message type the firmware does not know (newer host)
ERR_VERSION = 3  # the host's major protocol version is not the firmware's
ERR_UNSUPPORTED = 4  # e.g. an LED command to a board without LEDs
ERR_BAD_ARGUMENT = 5  # e.g. an LED index the board does not have
ERR_SCAN_FAULT = 6  # the sensor chain or matrix does not answer (reads all ones or all zeros)

ERROR_NAMES = {
    ERR_BAD_FRAME: "bad frame",
    ERR_UNKNOWN_COMMAND: "unknown command",
    ERR_VERSION: "protocol version",
    ERR_UNSUPPORTED: "unsupported",
    ERR_BAD_ARGUMENT: "bad argument",
    ERR_SCAN_FAULT: "scan fault",
}


class ProtocolError(ValueError):
    """A payload that passed the CRC but does not make sense as a message."""


# -- CRC-32 (the zlib/Ethernet polynomial) --------------------------------------------------------
_TABLE: list[int] | None = None


def crc32_table(data: bytes) -> int:
    """Table-driven CRC-32 for MicroPython builds without binascii.crc32 (same result as zlib)."""
    global _TABLE
    if _TABLE is None:
        table = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (0xEDB88320 ^ (c >> 1)) if c & 1 else (c >> 1)
            table.append(c)
        _TABLE = table
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes) -> int:
    if _crc32 is None:  # pragma: no cover
        return crc32_table(data)
    return _crc32(data) & 0xFFFFFFFF


# -- COBS -----------------------------------------------------------------------------------------
def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no 0x00 byte (one byte of overhead
    per 254 bytes). Splitting at the zeros keeps it fast in CPython and small in MicroPython."""
    out = bytearray()
    for chunk in bytes(data).split(b"\x00"):
        while len(chunk) >= 254:
            out.append(255)
            out.extend(chunk[:254])
            chunk = chunk[254:]
        out.append(len(chunk) + 1)
        out.extend(chunk)
    return bytes(out)


def cobs_decode(data: "bytes | bytearray") -> bytes:
    """Undo :func:`cobs_encode`; raise ProtocolError on a malformed block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("zero byte inside a frame")
        end = i + code
        if end > n:
            raise ProtocolError("block runs past the end of the frame")
        out.extend(data[i + 1:end])
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    """Wrap a message payload for the wire: COBS(payload + CRC) + 0x00."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes(payload) + crc32(payload).to_bytes(4, "big")
    return cobs_encode(body) + b"\x00"


def decode_frame(encoded: "bytes | bytearray") -> bytes:
    """The payload of one frame without its trailing 0x00; ProtocolError if it is damaged."""
    if len(encoded) > MAX_ENCODED:
        raise ProtocolError("frame too long")
    body = cobs_decode(encoded)
    if len(body) < 5:
        raise ProtocolError("frame too short")
    payload = body[:-4]
    if crc32(payload) != int.from_bytes(body[-4:], "big"):
        raise ProtocolError("CRC mismatch")
    return payload


class FrameParser:
    """Turns a byte stream into checked payloads, whatever the stream's chunking.

    Feed it any chunks (a byte at a time or a whole burst); it returns the payloads completed so
    far. Damaged, truncated or over-long frames are dropped and counted in ``bad_frames``; the
    parser resynchronises at the next 0x00 delimiter and never buffers more than one frame.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._discarding = False
        self.good_frames = 0
        self.bad_frames = 0

    def reset(self) -> None:
        """Forget a partial frame (e.g. after reopening a port)."""
        self._buffer = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> list[bytes]:
        payloads = []
        buffer = self._buffer
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                if not self._discarding:
                    buffer.extend(data[start:])
                    if len(buffer) > MAX_ENCODED:
                        self.bad_frames += 1
                        self._discarding = True
                        buffer = bytearray()
                break
            if self._discarding:
                self._discarding = False
            else:
                buffer.extend(data[start:end])
                if buffer:
                    try:
                        payloads.append(decode_frame(buffer))
                        self.good_frames += 1
                    except ProtocolError:
                        self.bad_frames += 1
            buffer = bytearray()
            start = end + 1
        self._buffer = buffer
        return payloads


# -- messages -------------------------------------------------------------------------------------
def bitmap_from_holes(holes: list[int], count: int) -> bytes:
    """Hole ``i`` is bit ``i % 8`` (least significant first) of byte ``i // 8``."""
    bits = bytearray((count + 7) // 8)
    for hole in holes:
        if not 0 <= hole < count:
            raise ProtocolError(f"hole {hole} out of range 0..{count - 1}")
        bits[hole >> 3] |= 1 << (hole & 7)
    return bytes(bits)


def holes_from_bitmap(bits: bytes, count: int) -> list[int]:
    holes = []
    for hole in range(count):
        if bits[hole >> 3] & (1 << (hole & 7)):
            holes.append(hole)
    return holes


def _need(payload: bytes, length: int, what: str) -> None:
    if len(payload) < length:
        raise ProtocolError(f"{what} needs {length} bytes, got {len(payload)}")


def _text(raw: bytes) -> str:
    return "".join(chr(b) if 32 <= b < 127 else "?" for b in raw)


class Hello:
    """The board introduces itself: protocol version, holes, capabilities, boot id, firmware name.

    ``boot_id`` changes at every start of the firmware, so the host notices a restart even when
    the USB link stayed up.
    """

    __slots__ = ("boot_id", "capabilities", "holes", "leds", "major", "minor", "name")

    def __init__(self, major: int, minor: int, holes: int, capabilities: int, leds: int, boot_id: int,
                 name: str) -> None:
        self.major = major
        self.minor = minor
        self.holes = holes
        self.capabilities = capabilities
        self.leds = leds
        self.boot_id = boot_id
        self.name = name

    def encode(self) -> bytes:
        name = self.name.encode()[:32]
        return (bytes([HELLO]) + MAGIC + bytes([self.major, self.minor, self.holes, self.capabilities,
                                                 self.leds]) + self.boot_id.to_bytes(2, "big") + name)

    @staticmethod
    def decode(payload: bytes) -> "Hello":
        _need(payload, 5, "HELLO")
        if payload[1:3] != MAGIC:
            raise ProtocolError("HELLO without the T9 magic")
        major, minor = payload[3], payload[4]
        if major != PROTOCOL_MAJOR:  # a different major may lay out the rest differently
            return Hello(major, minor, 0, 0, 0, 0, "")
        _need(payload, 10, "HELLO")
        return Hello(major, minor, payload[5], payload[6], payload[7],
                     int.from_bytes(payload[8:10], "big"), _text(payload[10:]))


class Snapshot:
    """The whole board: sent on every change (new ``sequence``) and repeated as a heartbeat."""

    __slots__ = ("boot_id", "holes", "occupied", "sequence")

    def __init__(self, boot_id: int, sequence: int, holes: int, occupied: list[int]) -> None:
        self.boot_id = boot_id
        self.sequence = sequence
        self.holes = holes
        self.occupied = occupied

    def encode(self) -> bytes:
        return (bytes([SNAPSHOT]) + self.boot_id.to_bytes(2, "big") + self.sequence.to_bytes(4, "big")
                + bytes([self.holes]) + bitmap_from_holes(self.occupied, self.holes))

    @staticmethod
    def decode(payload: bytes) -> "Snapshot":
        _need(payload, 8, "SNAPSHOT")
        holes = payload[7]
        _need(payload, 8 + (holes + 7) // 8, f"SNAPSHOT of {holes} holes")
        return Snapshot(int.from_bytes(payload[1:3], "big"), int.from_bytes(payload[3:7], "big"), holes,
                        holes_from_bitmap(payload[8:], holes))


class Error:
    """The board reports a problem: a code, the tag of the command it concerns (0: none), a text."""

    __slots__ = ("code", "tag", "text")

    def __init__(self, code: int, tag: int = 0, text: str = "") -> None:
        self.code = code
        self.tag = tag
        self.text = text

    def encode(self) -> bytes:
        return bytes([ERROR, self.code, self.tag]) + self.text.encode()[:64]

    @staticmethod
    def decode(payload: bytes) -> "Error":
        _need(payload, 3, "ERROR")
        return Error(payload[1], payload[2], _text(payload[3:]))

    def describe(self) -> str:
        name = ERROR_NAMES.get(self.code, f"error {self.code}")
        return name + (": " + self.text if self.text else "")


class Ack:
    """The board carried out the command with this tag."""

    __slots__ = ("tag",)

    def __init__(self, tag: int) -> None:
        self.tag = tag

    def encode(self) -> bytes:
        return bytes([ACK, self.tag])

    @staticmethod
    def decode(payload: bytes) -> "Ack":
        _need(payload, 2, "ACK")
        return Ack(payload[1])


class HelloRequest:
    """The host asks the board to introduce itself, saying which protocol it speaks."""

    __slots__ = ("major", "minor")

    def __init__(self, major: int = PROTOCOL_MAJOR, minor: int = PROTOCOL_MINOR) -> None:
        self.major = major
        self.minor = minor

    def encode(self) -> bytes:
        return bytes([HELLO_REQUEST]) + MAGIC + bytes([self.major, self.minor])

    @staticmethod
    def decode(payload: bytes) -> "HelloRequest":
        _need(payload, 5, "HELLO_REQUEST")
        if payload[1:3] != MAGIC:
            raise ProtocolError("HELLO_REQUEST without the T9 magic")
        return HelloRequest(payload[3], payload[4])


class SnapshotRequest:
    """The host asks for a snapshot now (on connect, or when it doubts what it has)."""

    __slots__ = ()

    def encode(self) -> bytes:
        return bytes([SNAPSHOT_REQUEST])

    @staticmethod
    def decode(payload: bytes) -> "SnapshotRequest":
        return SnapshotRequest()


class Led:
    """Set LED ``index`` (``LED_ALL``: every LED) to a colour; off is (0, 0, 0)."""

    __slots__ = ("blue", "green", "index", "red", "tag")

    def __init__(self, tag: int, index: int, red: int, green: int, blue: int) -> None:
        self.tag = tag
        self.index = index
        self.red = red
        self.green = green
        self.blue = blue

    def encode(self) -> bytes:
        return bytes([LED, self.tag, self.index, self.red, self.green, self.blue])

    @staticmethod
    def decode(payload: bytes) -> "Led":
        _need(payload, 6, "LED")
        return Led(payload[1], payload[2], payload[3], payload[4], payload[5])


class Buzzer:
    """Sound the buzzer at ``frequency`` Hz for ``duration_ms`` (0 Hz: silence)."""

    __slots__ = ("duration_ms", "frequency", "tag")

    def __init__(self, tag: int, frequency: int, duration_ms: int) -> None:
        self.tag = tag
        self.frequency = frequency
        self.duration_ms = duration_ms

    def encode(self) -> bytes:
        return (bytes([BUZZER, self.tag]) + self.frequency.to_bytes(2, "big")
                + self.duration_ms.to_bytes(2, "big"))

    @staticmethod
    def decode(payload: bytes) -> "Buzzer":
        _need(payload, 6, "BUZZER")
        return Buzzer(payload[1], int.from_bytes(payload[2:4], "big"), int.from_bytes(payload[4:6], "big"))


if TYPE_CHECKING:  # MicroPython cannot build this union at run time; annotations name it as text
    from collections.abc import Callable

    Message = Hello | Snapshot | Error | Ack | HelloRequest | SnapshotRequest | Led | Buzzer

DECODERS: "dict[int, Callable[[bytes], Message]]" = {
    HELLO: Hello.decode,
    SNAPSHOT: Snapshot.decode,
    ERROR: Error.decode,
    ACK: Ack.decode,
    HELLO_REQUEST: HelloRequest.decode,
    SNAPSHOT_REQUEST: SnapshotRequest.decode,
    LED: Led.decode,
    BUZZER: Buzzer.decode,
}


def decode_message(payload: bytes) -> "Message | None":
    """The message in a checked payload; None for a type this version does not know (a newer
    peer's addition, ignored on purpose); ProtocolError when a known type is malformed."""
    if not payload:
        raise ProtocolError("empty payload")
    decoder = DECODERS.get(payload[0])
    return None if decoder is None else decoder(payload)


def frame(message: "Message") -> bytes:
    """The bytes to send for a message object."""
    return encode_frame(message.encode())
