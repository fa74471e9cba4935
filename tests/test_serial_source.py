"""The Pi's serial driver against the emulator over a real pseudo-terminal, with faults injected.

The invariant in every test: each reading the app receives is a board the emulator really showed
(``emulator.history``); damaged frames are dropped and counted, never misread. Timings are
shortened (50 ms heartbeats, 0.3 s dead-link timeout) and every wait is on a condition.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.serial_source import SerialBoardSource
from hardware.board_source import BoardEvent, BoardReading, HealthState, SourceHealth

pytest.importorskip("serial", reason="pyserial is part of the dev extra")

WAIT = 5.0  # generous: CI machines are shared; the waits end as soon as the condition holds


class Recorder:
    """Collects a source's events and waits for conditions on them."""

    def __init__(self) -> None:
        self.events: list[BoardEvent] = []
        self._changed = threading.Condition()

    def __call__(self, event: BoardEvent) -> None:
        with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    @property
    def readings(self) -> list[BoardReading]:
        return [e for e in list(self.events) if isinstance(e, BoardReading)]

    @property
    def health(self) -> list[SourceHealth]:
        return [e for e in list(self.events) if isinstance(e, SourceHealth)]

    def wait(self, condition: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        with self._changed:
            if not self._changed.wait_for(condition, timeout):
                raise AssertionError(f"timed out waiting for {what}; events: {self.events[-8:]}")

    def wait_state(self, state: HealthState, source: SerialBoardSource) -> None:
        self.wait(lambda: source.health.state is state, f"health {state.value}")

    def wait_board(self, pegs: set[int] | frozenset[int], timeout: float = WAIT) -> None:
        self.wait(lambda: bool(self.readings) and self.readings[-1].occupied == frozenset(pegs),
                  f"a reading of {sorted(pegs)}", timeout)


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "table99-board"


@pytest.fixture
def emulator(link: Path) -> Iterator[BoardEmulator]:
    board = BoardEmulator(link=link, heartbeat_ms=50, seed=7)
    yield board
    board.stop()


@pytest.fixture
def source(link: Path) -> Iterator[SerialBoardSource]:
    src = SerialBoardSource(str(link), heartbeat_timeout=0.3, retry_interval=0.02, handshake_timeout=0.1)
    yield src
    src.stop()


@pytest.fixture
def seen(source: SerialBoardSource) -> Recorder:
    recorder = Recorder()
    source.subscribe(recorder)
    return recorder


def assert_never_wrong(seen: Recorder, emulator: BoardEmulator) -> None:
    shown = set(emulator.history)
    wrong = [r.occupied for r in seen.readings if r.occupied not in shown]
    assert not wrong, f"readings the board never showed: {wrong}"
    sequences = [r.sequence for r in seen.readings]
    assert sequences == sorted(set(sequences))


def connect(source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder) -> None:
    source.start()  # host first: opening a port discards bytes already waiting
    emulator.start()
    seen.wait_state(HealthState.CONNECTED, source)


def test_waits_for_an_absent_board_then_connects_and_follows_the_pegs(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    source.start()
    seen.wait(lambda: any("no board at" in h.detail for h in seen.health), "the absent-board message")
    assert source.health.state is HealthState.STARTING
    emulator.set_pegs({0, 11})
    emulator.start()
    seen.wait_board({0, 11})
    seen.wait_state(HealthState.CONNECTED, source)  # (a loaded CI machine may have missed a heartbeat)
    assert source.board is not None and source.board.name == "table99-emulator 1.0"
    for pegs in ({0, 11, 22}, {11, 22}, set(), {99}):
        emulator.set_pegs(pegs)
        seen.wait_board(pegs)
    assert_never_wrong(seen, emulator)
    if source.stats.sessions == 1:  # a reconnect on a stalled CI machine may open mid-frame
        assert source.stats.bad_frames == 0


def _flip_a_bit(rng: random.Random) -> Callable[[bytes], bytes]:
    def corrupt(data: bytes) -> bytes:
        damaged = bytearray(data)
        bit = rng.randrange(len(data) * 8)
        damaged[bit // 8] ^= 1 << (bit % 8)
        return bytes(damaged)
    return corrupt


FAULTS: dict[str, Callable[[random.Random], Callable[[bytes], bytes]]] = {
    "bit flips": _flip_a_bit,
    "truncated frames": lambda rng: lambda data: data[: rng.randrange(1, len(data) - 1)] + b"\x00",
    "duplicated frames": lambda rng: lambda data: data * rng.randrange(2, 4),
    "random garbage": lambda rng: lambda data: bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 40)))
    + data,
    "lost frames": lambda rng: lambda data: b"",
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_damaged_frames_are_dropped_never_misread(
    fault: str, source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    connect(source, emulator, seen)
    rng = random.Random(fault)
    damage = FAULTS[fault](rng)
    emulator.corrupt = lambda data: damage(data) if rng.random() < 0.5 else data  # every other frame
    pegs: set[int] = set()
    for step in range(25):
        hole = rng.randrange(100)
        pegs ^= {hole}
        emulator.set_pegs(pegs)
        if step % 5 == 4:  # let a heartbeat repair what was lost, and check it did
            seen.wait_board(pegs)
        else:
            time.sleep(0.01)
    seen.wait_board(pegs)
    assert_never_wrong(seen, emulator)
    if fault in ("bit flips", "truncated frames"):
        assert source.stats.bad_frames > 0
    if fault == "random garbage":
        assert source.stats.bad_frames + source.stats.malformed > 0


def test_a_burst_split_at_every_position_is_read_whole(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    emulator.baud = 0  # no UART pacing: the split positions are what we test
    source.heartbeat_timeout = 5.0  # the frozen emulator cannot answer a re-handshake: no reconnects here
    connect(source, emulator, seen)
    emulator.freeze()  # our injected frames are the only traffic now (they feed the watchdog too)
    boot = emulator.core.boot_id
    first, second = frozenset({1, 2, 3}), frozenset({50, 60})
    emulator.history += [first, second]
    sequence = 1000
    burst_len = len(p.frame(p.Snapshot(boot, 0, 100, sorted(first))) * 2)
    for cut in range(burst_len + 1):
        sequence += 2
        burst = (p.frame(p.Snapshot(boot, sequence, 100, sorted(first)))
                 + p.frame(p.Snapshot(boot, sequence + 1, 100, sorted(second))))
        before = len(seen.readings)
        emulator.inject(burst[:cut])
        time.sleep(0.002)
        emulator.inject(burst[cut:])
        # ">=": a reading the emulator sent just before it froze may still land after ``before``
        # was counted (seen once in CI at cut 0); the burst's two must still come last, in order.
        seen.wait(lambda before=before: len(seen.readings) >= before + 2
                  and [r.occupied for r in seen.readings[-2:]] == [first, second],
                  f"two readings at cut {cut}")
        assert [r.occupied for r in seen.readings[-2:]] == [first, second]
    assert source.stats.bad_frames == 0
    seen.wait_state(HealthState.CONNECTED, source)  # (a loaded CI machine may have missed a heartbeat)
    assert_never_wrong(seen, emulator)


def test_the_cable_pulled_and_plugged_back_in(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    connect(source, emulator, seen)
    emulator.set_pegs({5})
    seen.wait_board({5})
    emulator.unplug()
    seen.wait_state(HealthState.LOST, source)
    emulator.set_pegs({5, 6})  # a peg placed while the cable was out
    emulator.plug()
    seen.wait_board({5, 6})
    seen.wait_state(HealthState.CONNECTED, source)  # (a loaded CI machine may have missed a heartbeat)
    assert source.stats.sessions >= 2
    assert_never_wrong(seen, emulator)


def test_a_board_that_restarts_mid_game(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    connect(source, emulator, seen)
    emulator.set_pegs({7, 8})
    seen.wait_board({7, 8})
    emulator.set_pegs({7, 8, 9})
    emulator.restart()  # sequence numbers start again at 0: they must not look stale
    seen.wait_board({7, 8, 9})
    emulator.set_pegs({8, 9})
    seen.wait_board({8, 9})
    assert source.stats.restarts == 1
    seen.wait_state(HealthState.CONNECTED, source)  # (a loaded CI machine may have missed a heartbeat)
    assert_never_wrong(seen, emulator)


def test_a_restart_that_draws_the_same_boot_id_is_still_followed(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    """Issue 17, point 6: the host kept the old board's sequence and dropped the new boot's
    snapshots (numbered from 0 again) as stale for more than 15 s."""
    connect(source, emulator, seen)
    for pegs in ({1}, {1, 2}, {1, 2, 3}, {2, 3}):
        emulator.set_pegs(pegs)
        seen.wait_board(pegs)
    emulator.set_pegs({40, 41})
    emulator.restart(same_boot_id=True)
    seen.wait_board({40, 41}, timeout=3.0)
    emulator.set_pegs({41})
    seen.wait_board({41}, timeout=3.0)
    assert_never_wrong(seen, emulator)


def test_a_silent_board_is_a_dead_link_and_recovers(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    connect(source, emulator, seen)
    emulator.freeze()
    seen.wait_state(HealthState.LOST, source)
    assert "no heartbeat" in source.health.detail
    emulator.set_pegs({42})
    emulator.thaw()
    seen.wait_board({42})
    seen.wait_state(HealthState.CONNECTED, source)  # (a loaded CI machine may have missed a heartbeat)
    assert_never_wrong(seen, emulator)


def test_another_major_version_is_refused_with_a_clear_message(link: Path, seen: Recorder,
                                                               source: SerialBoardSource) -> None:
    with BoardEmulator(link=link, heartbeat_ms=50, major=2) as future_board:
        source.start()
        seen.wait_state(HealthState.ERROR, source)
        assert "speaks protocol 2.0, this app speaks 1.0" in source.health.detail
        assert seen.readings == []
        future_board.set_pegs({1})


def test_scan_fault_reported_by_the_board_is_an_error_until_it_clears(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    connect(source, emulator, seen)
    emulator.sensors.fault = "74HC165 chain does not answer"
    seen.wait_state(HealthState.ERROR, source)
    assert "scan fault: 74HC165 chain does not answer" in source.health.detail
    emulator.sensors.fault = None
    seen.wait_state(HealthState.CONNECTED, source)


def test_led_and_buzzer_commands_reach_the_board(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    assert not source.set_led(0, 1, 2, 3)  # not connected yet
    connect(source, emulator, seen)
    assert source.set_led(2, 255, 0, 0)
    assert source.buzz(440, 100)
    deadline = time.monotonic() + WAIT
    while (emulator.leds.get(2) != (255, 0, 0) or not emulator.buzzes) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert emulator.leds[2] == (255, 0, 0)
    assert emulator.buzzes == [(440, 100)]


class Exploding:
    """A port whose every call fails in a different way: nothing may escape the driver thread."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def read(self, size: int = 1) -> bytes:
        raise self.error

    @property
    def in_waiting(self) -> int:
        raise self.error

    def write(self, data: bytes) -> int:
        raise self.error

    def close(self) -> None:
        raise self.error


def test_no_exception_ever_escapes_the_driver() -> None:
    errors = [OSError(5, "Input/output error"), TypeError("driver bug"), ValueError("odd"),
              RuntimeError("boom")]
    calls = []

    def opener(port: str, baud: int, timeout: float) -> Exploding:
        calls.append(port)
        if len(calls) % 2:
            raise errors[len(calls) % len(errors)]
        return Exploding(errors[len(calls) % len(errors)])

    source = SerialBoardSource("/dev/nowhere", opener=opener, retry_interval=0.005)
    seen = Recorder()
    source.subscribe(seen)
    with source:
        seen.wait(lambda: len(calls) >= 8, "eight attempts")
        assert source.health.state is HealthState.STARTING
        assert "retrying" in source.health.detail
    assert source.health.state is HealthState.STOPPED


def test_stale_contradicting_and_previous_boot_snapshots_are_dropped(
    source: SerialBoardSource, emulator: BoardEmulator, seen: Recorder
) -> None:
    """Frames that pass the CRC but cannot be the board now: an older sequence, the same sequence
    with another board, or a boot the board has left. None of them becomes a reading."""
    emulator.baud = 0
    source.heartbeat_timeout = 5.0
    connect(source, emulator, seen)
    emulator.set_pegs({1})
    seen.wait_board({1})
    emulator.freeze()
    boot, sequence = emulator.core.boot_id, emulator.core.sequence
    readings = len(seen.readings)
    emulator.inject(p.frame(p.Snapshot(boot, sequence - 1, 100, [2])))  # older
    emulator.inject(p.frame(p.Snapshot(boot, sequence, 100, [3])))  # same number, other board
    emulator.inject(p.frame(p.Snapshot(boot ^ 1, sequence + 5, 100, [4])))  # another boot
    emulator.inject(p.frame(p.Snapshot(boot, sequence + 1, 100, [1, 5])))  # a real change, last
    emulator.history.append(frozenset({1, 5}))
    seen.wait_board({1, 5})
    assert len(seen.readings) == readings + 1
    assert source.stats.stale_snapshots >= 2 and source.stats.contradictions == 1
    assert_never_wrong(seen, emulator)


def test_a_newer_minor_version_is_accepted_and_named(link: Path, seen: Recorder,
                                                     source: SerialBoardSource) -> None:
    with BoardEmulator(link=link, heartbeat_ms=50, minor=7) as newer_board:
        source.start()
        newer_board.set_pegs({3})
        seen.wait_board({3})
        assert source.board is not None and (source.board.major, source.board.minor) == (1, 7)
        assert "protocol 1.7" in source.health.detail
