"""The frame format and messages (firmware_bridge/protocol.py): damaged frames are dropped, never misread."""

from __future__ import annotations

import contextlib
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol as p

payloads = st.binary(min_size=1, max_size=p.MAX_PAYLOAD)
hole_sets = st.frozensets(st.integers(0, 99), max_size=100)


def snapshot_payload(boot: int, seq: int, holes: frozenset[int]) -> bytes:
    return bytes(p.Snapshot(boot, seq, 100, sorted(holes)).encode())


@given(st.binary(max_size=700))
def test_cobs_round_trips_and_never_contains_the_delimiter(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert b"\x00" not in encoded
    assert p.cobs_decode(encoded) == data
    assert len(encoded) <= len(data) + len(data) // 254 + 1


@given(st.binary(max_size=300))
def test_table_crc_matches_zlib(data: bytes) -> None:
    """The fallback for MicroPython builds without binascii.crc32 computes the same CRC."""
    assert p.crc32_table(data) == zlib.crc32(data) == p.crc32(data)


@given(st.lists(payloads, min_size=1, max_size=6), st.data())
def test_any_chunking_of_a_stream_gives_the_same_payloads(messages: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(p.encode_frame(m) for m in messages)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    parser = p.FrameParser()
    got: list[bytes] = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += parser.feed(stream[start:end])
    assert got == messages
    assert parser.bad_frames == 0


def test_a_burst_split_at_every_position_gives_the_same_payloads() -> None:
    messages = [snapshot_payload(1, n, frozenset(range(n, 100, 7))) for n in range(3)]
    stream = b"".join(p.encode_frame(m) for m in messages)
    for cut in range(len(stream) + 1):
        parser = p.FrameParser()
        assert parser.feed(stream[:cut]) + parser.feed(stream[cut:]) == messages, cut


@given(payloads, st.data())
def test_any_one_two_or_three_bit_flips_are_detected(payload: bytes, data: st.DataObject) -> None:
    """CRC-32 catches every 1-3 bit error in a body of our size; a flip in a COBS code byte scrambles
    the body instead, which the CRC catches with probability 1 - 2**-32."""
    frame = bytearray(p.encode_frame(payload)[:-1])
    positions = data.draw(st.sets(st.integers(0, len(frame) * 8 - 1), min_size=1, max_size=3))
    for bit in positions:
        frame[bit // 8] ^= 1 << (bit % 8)
    parser = p.FrameParser()
    got = parser.feed(bytes(frame) + b"\x00")
    # a flip may create a 0x00, which splits the frame: whatever comes out must not be a payload
    assert payload not in got or bytes(frame) == p.encode_frame(payload)[:-1]
    assert got == []
    assert parser.bad_frames >= 1


@given(payloads, st.data())
def test_truncated_frames_are_dropped(payload: bytes, data: st.DataObject) -> None:
    frame = p.encode_frame(payload)
    keep = data.draw(st.integers(1, len(frame) - 2))
    parser = p.FrameParser()
    assert parser.feed(frame[:keep] + b"\x00") == []
    assert parser.bad_frames == 1
    assert parser.feed(frame) == [payload]  # and the next whole frame is read


@given(st.lists(st.tuples(st.binary(max_size=60), payloads), min_size=1, max_size=6))
def test_garbage_between_frames_is_dropped_and_the_parser_resynchronises(
    chunks: list[tuple[bytes, bytes]],
) -> None:
    stream = b""
    sent = []
    intact = []
    for garbage, payload in chunks:
        stream += garbage
        # a frame survives when the garbage before it ended with a delimiter (or there was none)
        if not stream or stream.endswith(b"\x00"):
            intact.append(payload)
        stream += p.encode_frame(payload)
        sent.append(payload)
    got = p.FrameParser().feed(stream)
    assert all(g in sent or _is_in_garbage(g, chunks) for g in got)
    assert all(payload in got for payload in intact)


def _is_in_garbage(payload: bytes, chunks: list[tuple[bytes, bytes]]) -> bool:
    """Hypothesis may build garbage that contains a valid frame; that frame is then real data."""
    return any(p.encode_frame(payload)[:-1] in garbage for garbage, _ in chunks)


@given(st.binary(max_size=2000))
def test_random_bytes_never_crash_the_parser_or_yield_unchecked_payloads(data: bytes) -> None:
    parser = p.FrameParser()
    for payload in parser.feed(data):
        assert p.encode_frame(payload)[:-1] in data  # only what was truly framed comes out
        with contextlib.suppress(p.ProtocolError):
            p.decode_message(payload)


def test_an_over_long_run_without_delimiter_is_dropped_without_buffering_it_all() -> None:
    parser = p.FrameParser()
    assert parser.feed(b"\x01" * 10_000) == []
    assert len(parser._buffer) <= p.MAX_ENCODED
    good = p.encode_frame(b"\x82")
    assert parser.feed(b"\x00" + good) == [b"\x82"]
    assert parser.bad_frames == 1


def test_duplicated_frames_give_duplicated_identical_payloads() -> None:
    frame = p.encode_frame(snapshot_payload(9, 4, frozenset({1, 2})))
    assert p.FrameParser().feed(frame * 3) == [snapshot_payload(9, 4, frozenset({1, 2}))] * 3


@given(st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFFFF), hole_sets)
def test_snapshot_round_trips(boot: int, seq: int, holes: frozenset[int]) -> None:
    message = p.decode_message(snapshot_payload(boot, seq, holes))
    assert isinstance(message, p.Snapshot)
    got = (message.boot_id, message.sequence, message.holes, set(message.occupied))
    assert got == (boot, seq, 100, holes)


def test_other_messages_round_trip() -> None:
    hello = p.decode_message(p.Hello(1, 3, 100, p.CAP_LEDS, 4, 0xBEEF, "pico").encode())
    assert isinstance(hello, p.Hello)
    assert (hello.major, hello.minor, hello.holes, hello.capabilities, hello.leds, hello.boot_id,
            hello.name) == (1, 3, 100, p.CAP_LEDS, 4, 0xBEEF, "pico")
    led = p.decode_message(p.Led(7, 2, 255, 0, 10).encode())
    assert isinstance(led, p.Led)
    assert (led.tag, led.index, led.red, led.green, led.blue) == (7, 2, 255, 0, 10)
    buzz = p.decode_message(p.Buzzer(3, 880, 250).encode())
    assert isinstance(buzz, p.Buzzer)
    assert (buzz.tag, buzz.frequency, buzz.duration_ms) == (3, 880, 250)
    error = p.decode_message(p.Error(p.ERR_SCAN_FAULT, 0, "chain open").encode())
    assert isinstance(error, p.Error)
    assert error.describe() == "scan fault: chain open"
    request = p.decode_message(p.HelloRequest().encode())
    assert isinstance(request, p.HelloRequest)
    assert (request.major, request.minor) == (p.PROTOCOL_MAJOR, p.PROTOCOL_MINOR)
    ack = p.decode_message(p.Ack(9).encode())
    assert isinstance(ack, p.Ack)
    assert ack.tag == 9


def test_versioning_newer_minor_fields_are_ignored_and_unknown_types_are_skipped() -> None:
    longer = p.Snapshot(1, 2, 100, [5]).encode() + b"future fields"
    snap = p.decode_message(longer)
    assert isinstance(snap, p.Snapshot)
    assert snap.occupied == [5]
    assert p.decode_message(b"\x42whatever") is None


def test_a_hello_of_another_major_is_recognised_whatever_follows() -> None:
    """Only type, magic and version are fixed forever; a v2 board may lay out the rest anew."""
    hello = p.decode_message(b"\x01T9\x02\x00")
    assert isinstance(hello, p.Hello)
    assert (hello.major, hello.minor) == (2, 0)


@pytest.mark.parametrize("payload, reason", [
    (b"\x02\x00\x01", "SNAPSHOT needs 8 bytes"),
    (p.Snapshot(1, 2, 100, [5]).encode()[:-1], "SNAPSHOT of 100 holes needs 21 bytes"),
    (b"\x01XX\x01\x00", "without the T9 magic"),
    (b"\x01T9\x01\x00\x64", "HELLO needs 10 bytes"),
    (b"\x83\x01\x02", "LED needs 6 bytes"),
    (b"", "empty payload"),
])
def test_malformed_messages_say_what_is_wrong(payload: bytes, reason: str) -> None:
    with pytest.raises(p.ProtocolError, match=reason):
        p.decode_message(payload)


def test_oversized_payloads_are_refused_at_the_sender() -> None:
    with pytest.raises(p.ProtocolError, match="exceeds"):
        p.encode_frame(bytes(p.MAX_PAYLOAD + 1))
    with pytest.raises(p.ProtocolError, match="out of range"):
        p.bitmap_from_holes([100], 100)
