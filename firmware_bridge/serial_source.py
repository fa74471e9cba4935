"""The Pi's side of the serial link: a :class:`BoardSource` for a board-scanning microcontroller.

One driver thread owns the port and runs a small loop, as picochess's DGT driver does: open the
port (retrying while the board is absent), ask for HELLO, check the protocol version, ask for a
snapshot, then read frames; a watchdog declares the link dead when no valid frame has arrived for
``heartbeat_timeout`` seconds, and the loop closes the port and starts again. Nothing raised in the
thread escapes: every failure becomes a :class:`SourceHealth` the app shows.

Why readings are trusted only this far: a frame must pass COBS and CRC-32 (``protocol``), come
from the boot the last HELLO announced, and carry a sequence number that is not older than the
last one; a snapshot that repeats a sequence number with a different board is a contradiction
and is dropped. pyserial is imported only when a port is opened.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from firmware_bridge import protocol
from hardware.board_source import (
    HOLES,
    BoardReading,
    BoardSource,
    HealthMessage,
    HealthState,
    SourceHealth,
    health_message,
)

log = logging.getLogger(__name__)

DEFAULT_PORT = "/dev/table99-board"
"""The stable name the udev rule in deploy/udev/99-table99-board.rules gives a Table99 Pico."""


class SerialLike(Protocol):
    """What the driver needs of a pyserial ``Serial`` (tests may pass their own)."""

    def read(self, size: int = 1) -> bytes: ...

    @property
    def in_waiting(self) -> int: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


class _LinkProblem(Exception):
    """A link problem whose sentence the app can translate (``message``)."""

    def __init__(self, message: HealthMessage) -> None:
        super().__init__(str(message))
        self.message = message


class HoleMap(Protocol):
    """A wiring map (``hardware.wiring.WiringMap``): the board's numbers -> the holes they are."""

    def holes_of(self, active_inputs: Iterable[int]) -> frozenset[int]: ...


class LinkDead(_LinkProblem):
    """No valid frame for too long: the board hangs, or the cable is gone."""


class VersionMismatch(_LinkProblem):
    """The board speaks another major version of the protocol."""


@dataclass
class LinkStats:
    """Counters for the link, for the health screen and the benchmarks."""

    good_frames: int = 0
    bad_frames: int = 0  # failed COBS or CRC (or too long): dropped
    malformed: int = 0  # passed the CRC but made no sense as a message: dropped
    stale_snapshots: int = 0  # older sequence number or previous boot: dropped
    contradictions: int = 0  # same sequence number, different board: dropped
    board_errors: int = 0
    sessions: int = 0  # successful connections (handshake and first snapshot)
    restarts: int = 0  # the board announced a new boot while we listened
    readings: int = 0


def open_pyserial(port: str, baud: int, timeout: float) -> SerialLike:
    import serial  # type: ignore[import-untyped]  # here: the app runs without pyserial unless it is used

    return serial.Serial(port, baud, timeout=timeout, exclusive=True)  # type: ignore[no-any-return]


def _newer(sequence: int, than: int) -> bool:
    """Serial-number arithmetic, so the 32-bit sequence may wrap without looking old."""
    difference = (sequence - than) & 0xFFFFFFFF
    return 0 < difference < 0x80000000


class SerialBoardSource(BoardSource):
    """Readings from a Table99 board on a serial port (a Pico over USB, or the emulator's pty)."""

    name = "serial"

    def __init__(
        self,
        port: str = DEFAULT_PORT,
        baud: int = 115200,
        *,
        holes: int = HOLES,
        heartbeat_timeout: float = 2.0,
        retry_interval: float = 0.5,
        handshake_timeout: float = 0.5,
        read_timeout: float = 0.02,
        opener: Callable[[str, int, float], SerialLike] = open_pyserial,
        clock: Callable[[], float] = time.monotonic,
        wiring: HoleMap | None = None,
    ) -> None:
        super().__init__()
        self.port = port
        self.baud = baud
        self.holes = holes
        self.heartbeat_timeout = heartbeat_timeout
        self.retry_interval = retry_interval
        self.handshake_timeout = handshake_timeout
        self.read_timeout = read_timeout
        self._opener = opener
        self._clock = clock
        self.stats = LinkStats()
        self.board: protocol.Hello | None = None
        self.last_board_error: str | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: SerialLike | None = None
        self._write_lock = threading.Lock()
        self._tag = 0
        self._ever_connected = False
        self._last_boot: int | None = None
        self._wiring = wiring
        self._input_listeners: list[Callable[[frozenset[int]], None]] = []
        self._last_inputs: frozenset[int] | None = None

    # -- the wiring map (hand-wired boards; docs/firmware.md) -----------------------------------
    @property
    def wiring(self) -> HoleMap | None:
        return self._wiring

    @property
    def input_count(self) -> int:
        """How many inputs the teach step can learn: the board's holes as it numbers them."""
        return self.holes

    def subscribe_inputs(self, listener: Callable[[frozenset[int]], None]) -> Callable[[], None]:
        """Call ``listener`` with the board's own hole numbers (before the Pi's wiring map) on
        every change: the teach step learns which of them is which hole."""
        self._input_listeners.append(listener)
        if self._last_inputs is not None:
            listener(self._last_inputs)

        def unsubscribe() -> None:
            if listener in self._input_listeners:
                self._input_listeners.remove(listener)

        return unsubscribe

    def set_wiring(self, wiring: HoleMap | None) -> None:
        """Use a new map (after teaching) now: the current board is published through it."""
        self._wiring = wiring
        inputs, last = self._last_inputs, self.last_reading
        if inputs is not None and last is not None and self.health.ok:
            self._publish(BoardReading(self._holes_of(inputs), self._clock(), self._next_sequence(),
                                       holes=self.holes))

    def _holes_of(self, inputs: frozenset[int]) -> frozenset[int]:
        return inputs if self._wiring is None else self._wiring.holes_of(inputs)

    # -- commands to the board ---------------------------------------------------------------
    def set_led(self, index: int, red: int, green: int, blue: int) -> bool:
        """Light LED ``index`` (255: all). False when not connected or the board has no LEDs."""
        if self.board is None or not self.board.capabilities & protocol.CAP_LEDS:
            return False
        return self._send(protocol.Led(self._next_tag(), index, red, green, blue))

    def buzz(self, frequency: int, duration_ms: int) -> bool:
        """Sound the board's buzzer. False when not connected or the board has none."""
        if self.board is None or not self.board.capabilities & protocol.CAP_BUZZER:
            return False
        return self._send(protocol.Buzzer(self._next_tag(), frequency, duration_ms))

    def request_snapshot(self) -> bool:
        return self._send(protocol.SnapshotRequest())

    def _next_tag(self) -> int:
        self._tag = self._tag % 255 + 1
        return self._tag

    def _send(self, message: Any) -> bool:
        with self._write_lock:
            port = self._serial
            if port is None:
                return False
            try:
                port.write(protocol.frame(message))
                return True
            except Exception as exc:  # the reader notices a dead port and reconnects
                log.debug("write to %s failed: %s", self.port, exc)
                return False

    # -- thread ------------------------------------------------------------------------------
    def _start(self) -> None:
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name=f"serial-board {self.port}", daemon=True)
        self._thread.start()

    def _stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._session()
            except VersionMismatch as exc:
                self._set_health(SourceHealth(HealthState.ERROR, message=exc.message))
            except LinkDead as exc:
                self._lost(exc.message)
            except Exception as exc:  # pyserial, OS, or a bug: never into the app
                self._lost(self._describe(exc))
            finally:
                self._close()
            self._stopping.wait(self.retry_interval)

    def _lost(self, problem: HealthMessage) -> None:
        state = HealthState.LOST if self._ever_connected else HealthState.STARTING
        self._set_health(SourceHealth(state, message=health_message("{problem}; retrying", problem=problem)))

    def _describe(self, exc: Exception) -> HealthMessage:
        if isinstance(exc, FileNotFoundError) or "No such file" in str(exc):
            return health_message("no board at {port}", port=self.port)
        if isinstance(exc, ImportError):
            return health_message("pyserial is not installed (pip install 'table99[serial]')")
        return health_message("{port}: {reason}", port=self.port, reason=str(exc))

    def _close(self) -> None:
        with self._write_lock:
            port, self._serial = self._serial, None
        self.board = None
        if port is not None:
            try:
                port.close()
            except Exception as exc:
                log.debug("closing %s: %s", self.port, exc)

    def _session(self) -> None:
        """One connection, from opening the port until the link dies or we are stopped."""
        port = self._opener(self.port, self.baud, self.read_timeout)
        with self._write_lock:
            self._serial = port
        parser = protocol.FrameParser()
        session = _Session(self._clock())
        self._send(protocol.HelloRequest())
        session.asked_hello = session.last_valid
        while not self._stopping.is_set():
            data = port.read(1)  # returns at the first byte (or after read_timeout): no added latency
            if data and (waiting := port.in_waiting):
                data += port.read(waiting)
            now = self._clock()
            if data:
                bad_before = parser.bad_frames
                for payload in parser.feed(data):
                    self.stats.good_frames += 1
                    session.last_valid = now
                    self._handle(payload, session, now)
                self.stats.bad_frames += parser.bad_frames - bad_before
            self._watchdog(session, now)

    def _watchdog(self, session: _Session, now: float) -> None:
        silent = now - session.last_valid
        if silent > self.heartbeat_timeout:
            if session.connected:
                raise LinkDead(health_message("no heartbeat from the board on {port} for {seconds} s",
                                              port=self.port, seconds=f"{silent:.1f}"))
            raise LinkDead(health_message("no answer from the board on {port} for {seconds} s",
                                          port=self.port, seconds=f"{silent:.1f}"))
        if self.board is None and now - session.asked_hello > self.handshake_timeout:
            self._send(protocol.HelloRequest())
            session.asked_hello = now
        elif self.board is not None and not session.connected and \
                now - session.asked_snapshot > self.handshake_timeout:
            self._send(protocol.SnapshotRequest())
            session.asked_snapshot = now

    # -- messages ----------------------------------------------------------------------------
    def _handle(self, payload: bytes, session: _Session, now: float) -> None:
        try:
            message = protocol.decode_message(payload)
        except protocol.ProtocolError as exc:
            self.stats.malformed += 1
            log.debug("malformed message from %s: %s", self.port, exc)
            return
        if isinstance(message, protocol.Hello):
            self._hello(message, session, now)
        elif isinstance(message, protocol.Snapshot):
            self._snapshot(message, session, now)
        elif isinstance(message, protocol.Error):
            self._board_error(message, session)
        # ACKs and message types from newer firmware need nothing from us

    def _hello(self, hello: protocol.Hello, session: _Session, now: float) -> None:
        if hello.major != protocol.PROTOCOL_MAJOR:
            raise VersionMismatch(health_message(
                "the board on {port} speaks protocol {board}, this app speaks {app}: flash matching "
                "firmware (docs/firmware.md)", port=self.port, board=f"{hello.major}.{hello.minor}",
                app=f"{protocol.PROTOCOL_MAJOR}.{protocol.PROTOCOL_MINOR}"))
        if hello.holes != self.holes:
            raise VersionMismatch(health_message("the board on {port} has {holes} holes, expected {expected}",
                                                 port=self.port, holes=hello.holes, expected=self.holes))
        if self._last_boot is not None and hello.boot_id != self._last_boot:
            self.stats.restarts += 1
            log.info("board on %s restarted (boot %04x)", self.port, hello.boot_id)
        if self.board is None or hello.boot_id != self.board.boot_id:
            session.connected = False
        # Every HELLO starts the sequence afresh: a board that restarted and drew the same 16-bit
        # boot id as before (1 in 65,536) numbers its snapshots from 0 again, and keeping the old
        # session's number would drop them all as stale. The link is in order, so nothing older
        # than this HELLO can arrive after it.
        session.sequence = None
        self._send(protocol.SnapshotRequest())
        session.asked_snapshot = now
        self._last_boot = hello.boot_id
        self.board = hello

    def _snapshot(self, snap: protocol.Snapshot, session: _Session, now: float) -> None:
        board = self.board
        if board is None or snap.boot_id != board.boot_id:
            self.stats.stale_snapshots += 1  # from before the HELLO we believe, or a missed HELLO
            if now - session.asked_hello > self.handshake_timeout:
                self._send(protocol.HelloRequest())
                session.asked_hello = now
            return
        if snap.holes != self.holes:
            self.stats.malformed += 1
            return
        occupied = frozenset(snap.occupied)
        if session.sequence is not None:
            if snap.sequence == session.sequence:
                if occupied != session.occupied:
                    self.stats.contradictions += 1
                    self._send(protocol.SnapshotRequest())
                    return
            elif not _newer(snap.sequence, session.sequence):
                self.stats.stale_snapshots += 1
                return
        changed = session.sequence is None or occupied != session.occupied
        session.sequence = snap.sequence
        session.occupied = occupied
        if not session.connected:
            session.connected = True
            self._ever_connected = True
            self.stats.sessions += 1
            self.last_board_error = None
            self._set_health(SourceHealth(HealthState.CONNECTED, message=health_message(
                "{name} on {port} (protocol {version})", name=board.name, port=self.port,
                version=f"{board.major}.{board.minor}")))
            changed = True
        if changed:
            self.stats.readings += 1
            self._last_inputs = occupied
            for listener in list(self._input_listeners):
                with contextlib.suppress(Exception):  # a faulty listener must not stop the link
                    listener(occupied)
            holes = self._holes_of(occupied)
            self._publish(BoardReading(holes, now, self._next_sequence(), holes=self.holes))

    def _board_error(self, error: protocol.Error, session: _Session) -> None:
        self.stats.board_errors += 1
        self.last_board_error = error.describe()
        log.warning("board on %s reports %s", self.port, self.last_board_error)
        if error.code == protocol.ERR_SCAN_FAULT:  # its sensors do not answer: no board to trust
            session.connected = False
            session.sequence = None
            self._set_health(SourceHealth(HealthState.ERROR, message=health_message(
                "the board reports that its sensors do not answer ({error})", error=error.describe())))


@dataclass
class _Session:
    last_valid: float
    asked_hello: float = 0.0
    asked_snapshot: float = 0.0
    connected: bool = False
    sequence: int | None = None
    occupied: frozenset[int] = frozenset()
