"""A virtual Table99 board on a pseudo-terminal, running the real firmware core.

The emulator is the firmware's :class:`~firmware_bridge.firmware.core.BoardCore` (the very code
that runs on the Pico) fed with a virtual set of pegs instead of hall sensors, and wired to a
pty instead of USB. The app connects to the pty's name exactly as to ``/dev/table99-board``; with
``link`` the emulator keeps a symlink pointing at its current pty, as udev does for a real board,
so "pull the cable" (:meth:`unplug`) and "plug it back in" (:meth:`plug`) behave like the real
thing: the port disappears and comes back under the same name.

For fault injection the emulator can corrupt its own output (``corrupt``), write raw bytes
(:meth:`inject`), hang (:meth:`freeze`), and restart its firmware mid-game (:meth:`restart`).
With ``baud`` it paces its output as a UART at that rate would, so latencies are realistic.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable, Iterable
from pathlib import Path

from firmware_bridge import protocol
from firmware_bridge.firmware.core import BoardCore

EMULATOR_NAME = "table99-emulator 1.0"


class VirtualSensors:
    """The emulator's "scanner": whatever pegs the script or the keyboard put on the board."""

    def __init__(self, holes: int) -> None:
        self.holes = holes
        self.pegs: frozenset[int] = frozenset()
        self.fault: str | None = None

    def scan(self) -> bytearray:
        raw = bytearray(self.holes)
        for hole in self.pegs:
            raw[hole] = 1
        return raw


class BoardEmulator:
    """A board on a pty. ``start()``, then connect a :class:`SerialBoardSource` to :attr:`port`.

    Open the host side first when it matters: opening a serial port discards bytes already
    waiting, which is harmless here (the host asks for HELLO and a snapshot) but costs time.
    """

    def __init__(
        self,
        *,
        link: str | os.PathLike[str] | None = None,
        holes: int = 100,
        heartbeat_ms: int = 500,
        scan_ms: int = 5,
        debounce_scans: int = 1,
        baud: int = 115200,
        led_count: int = 8,
        buzzer: bool = True,
        major: int = protocol.PROTOCOL_MAJOR,
        minor: int = protocol.PROTOCOL_MINOR,
        seed: int | None = None,
    ) -> None:
        self.link = Path(link) if link is not None else None
        self.holes = holes
        self.heartbeat_ms = heartbeat_ms
        self.scan_ms = scan_ms
        self.debounce_scans = debounce_scans
        self.baud = baud
        self.led_count = led_count
        self.has_buzzer = buzzer
        self.major = major
        self.minor = minor
        self.sensors = VirtualSensors(holes)
        self.corrupt: Callable[[bytes], bytes] | None = None
        self.leds: dict[int, tuple[int, int, int]] = {}
        self.buzzes: list[tuple[int, int]] = []
        self.history: list[frozenset[int]] = [frozenset()]  # every board the pegs have shown
        self._random = random.Random(seed)
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._port: str | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._frozen = threading.Event()
        self._wire_free = 0.0
        self._epoch = time.monotonic()
        self.core = self._new_core()

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def port(self) -> str:
        """The name to connect to: the link if there is one, else the pty's name."""
        if self.link is not None:
            return str(self.link)
        if self._port is None:
            raise RuntimeError("the emulator is not started")
        return self._port

    @property
    def pty_name(self) -> str | None:
        return self._port

    def start(self) -> BoardEmulator:
        self.plug()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self.unplug()

    def __enter__(self) -> BoardEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def plug(self) -> None:
        """Create the pty (a board appearing on USB) and point the link at it."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing: before the host opens it, bytes stay bytes
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._port = os.ttyname(slave)
            if self.link is not None:
                temporary = self.link.with_name(self.link.name + ".new")
                with contextlib.suppress(FileNotFoundError):
                    temporary.unlink()
                temporary.symlink_to(self._port)
                temporary.replace(self.link)

    def unplug(self) -> None:
        """The cable is pulled: the pty and the link vanish; the host's reads fail."""
        with self._lock:
            if self.link is not None:
                with contextlib.suppress(FileNotFoundError):
                    self.link.unlink()
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None

    def restart(self, same_boot_id: bool = False) -> None:
        """The firmware restarts (watchdog, brown-out, reset button): new boot id, sequence 0.

        ``same_boot_id``: the 16-bit boot id drawn at start happens to equal the last one (1 in
        65,536 restarts), so only the sequence numbers starting again tell the host.
        """
        with self._lock:
            old = self.core.boot_id
            self.core = self._new_core(boot_id=old if same_boot_id else None)

    def freeze(self) -> None:
        """The firmware hangs: no scans, no heartbeats, no answers (the port stays)."""
        self._frozen.set()

    def thaw(self) -> None:
        self._frozen.clear()

    # -- the pegs ----------------------------------------------------------------------------
    def set_pegs(self, holes: Iterable[int]) -> None:
        pegs = frozenset(holes)
        bad = sorted(h for h in pegs if not 0 <= h < self.holes)
        if bad:
            raise ValueError(f"holes out of range 0..{self.holes - 1}: {bad}")
        with self._lock:
            self.sensors.pegs = pegs
            if pegs != self.history[-1]:
                self.history.append(pegs)

    def place(self, *holes: int) -> None:
        self.set_pegs(self.sensors.pegs | set(holes))

    def remove(self, *holes: int) -> None:
        self.set_pegs(self.sensors.pegs - set(holes))

    @property
    def pegs(self) -> frozenset[int]:
        return self.sensors.pegs

    # -- raw output, for fault injection -----------------------------------------------------
    def inject(self, data: bytes) -> None:
        """Write bytes as they are (garbage, a damaged frame, half a burst)."""
        self._write_raw(data)

    def random_bytes(self, n: int) -> bytes:
        return bytes(self._random.getrandbits(8) for _ in range(n))

    # -- internals ---------------------------------------------------------------------------
    def _new_core(self, boot_id: int | None = None) -> BoardCore:
        return BoardCore(
            self.sensors, self._write, holes=self.holes,
            boot_id=self._random.getrandbits(16) if boot_id is None else boot_id,
            name=EMULATOR_NAME, heartbeat_ms=self.heartbeat_ms, debounce_scans=self.debounce_scans,
            leds=self._set_led if self.led_count else None, led_count=self.led_count,
            buzzer=self._buzz if self.has_buzzer else None, major=self.major, minor=self.minor)

    def _set_led(self, index: int, red: int, green: int, blue: int) -> None:
        for i in range(self.led_count) if index == protocol.LED_ALL else (index,):
            self.leds[i] = (red, green, blue)

    def _buzz(self, frequency: int, duration_ms: int) -> None:
        self.buzzes.append((frequency, duration_ms))

    def _write(self, data: bytes) -> None:
        corrupt = self.corrupt
        self._write_raw(corrupt(data) if corrupt is not None else data)

    def _write_raw(self, data: bytes) -> None:
        if self.baud:  # a UART sends 10 bits a byte: the last byte lands when the wire is done
            now = time.monotonic()
            self._wire_free = max(now, self._wire_free) + len(data) * 10 / self.baud
            time.sleep(self._wire_free - now)
        with self._lock:
            master = self._master
            if master is None:
                return  # unplugged: the bytes go nowhere
            with contextlib.suppress(OSError):  # buffer full (nobody reading) or pty gone: dropped
                os.write(master, data)

    def _read_host(self, timeout: float) -> bytes:
        master = self._master
        if master is None:
            time.sleep(timeout)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], timeout)
            return os.read(master, 4096) if ready else b""
        except (OSError, ValueError):  # no host has the port open, or unplugged meanwhile
            time.sleep(timeout)
            return b""

    def _run(self) -> None:
        period = self.scan_ms / 1000
        next_scan = time.monotonic()
        while not self._stopping.is_set():
            if self._frozen.is_set():  # a hung board reads nothing: the host's bytes wait in the pty
                time.sleep(period)
                next_scan = time.monotonic()
                continue
            incoming = self._read_host(max(0.0, next_scan - time.monotonic()))
            now = time.monotonic()
            if incoming or now >= next_scan:
                with self._lock:
                    core = self.core
                core.step(int((now - self._epoch) * 1000), incoming)
                if now >= next_scan:
                    next_scan = now + period
