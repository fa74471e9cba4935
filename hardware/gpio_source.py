"""The hall-sensor board on the Pi's GPIO as a :class:`~hardware.board_source.BoardSource`.

A scan thread reads every input (a 74HC165 chain or a diode matrix, through a *reader*), hands
the bit mask to a :class:`~hardware.scan.Scanner` (debounce, stability, health) and publishes a
:class:`BoardReading` whenever the debounced holes or the doubtful (``unsure``) holes change, and
once more, unchanged, when the board has been quiet for ``stable_seconds``: that repeat (same
board, new sequence, nothing unsure) is the stable-board signal; :attr:`GpioBoardSource.stable`
says the same to anyone who asks.

Health: a self-test at start (does the chain or matrix answer at all?) and a check on every
scan (the chain's sentinel bits, the matrix's check input). A chain that stops answering during a
game turns the source LOST and nothing is published until it answers again: a loose wire must
not look like every peg being lifted. Flickering or stuck holes are named in the health detail.

gpiozero is only imported when a reader is opened, so this module imports anywhere.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from hardware.board_source import (
    BoardReading,
    BoardSource,
    HealthMessage,
    HealthState,
    SourceHealth,
    health_message,
)
from hardware.scan import Scanner, ScanSettings, bits
from hardware.wiring import WiringMap, hole_name


class SensorReader(Protocol):
    """What the source needs from a chain or matrix adapter."""

    inputs: int

    def read_mask(self) -> int: ...

    def fault(self) -> HealthMessage | None:
        """After a read: why this scan cannot be trusted, or None."""

    def self_test(self) -> tuple[HealthState, HealthMessage]:
        """At start: CONNECTED or ERROR, with a sentence for the user."""

    def describe_input(self, index: int) -> str: ...

    def close(self) -> None: ...


def _all(mask: int, width: int) -> bool:
    return mask == (1 << width) - 1


class ChainReader:
    """Adapts a :class:`~hardware.shift_register.ShiftRegisterChain` to :class:`SensorReader`."""

    def __init__(self, chain: Any) -> None:
        self.chain = chain
        self.inputs: int = chain.inputs

    def read_mask(self) -> int:
        mask: int = self.chain.read_mask()
        return mask

    def fault(self) -> HealthMessage | None:
        if self.chain.sentinel_ok:
            return None
        return health_message(
            "the shift-register chain stopped answering (its sentinel bits are wrong): check the wires")

    def self_test(self, tries: int = 3) -> tuple[HealthState, HealthMessage]:
        masks = []
        sentinel_ok = True
        for _ in range(tries):
            masks.append(self.read_mask())
            sentinel_ok = sentinel_ok and self.chain.sentinel_ok
        # back to pin levels: which way the sensors are active does not matter here
        flip = 0 if self.chain.active_high else (1 << self.inputs) - 1
        levels = [mask ^ flip for mask in masks]
        ones = all(_all(level, self.inputs) for level in levels)
        zeros = all(level == 0 for level in levels)
        uses_sentinel = self.chain.sentinel_bits > 0 or self.chain.has_tied_inputs
        if uses_sentinel and not sentinel_ok:
            if ones:
                why = health_message("the shift-register chain does not answer: it reads all ones: "
                                     "the data wire is loose or a link in the chain is broken")
            elif zeros:
                why = health_message("the shift-register chain does not answer: it reads all zeros: "
                                     "the chain has no power or its latch is not connected")
            else:
                why = health_message("the shift-register chain does not answer: a link in the chain is "
                                     "broken or a sentinel input is not tied as configured")
            return HealthState.ERROR, why
        if zeros and not self.chain.active_high:
            return HealthState.ERROR, health_message(
                "the chain reads all zeros: no power, or every sensor reads a magnet")
        if all(_all(m, self.inputs) for m in masks):
            return HealthState.ERROR, health_message(
                "every input of the chain reads a magnet: check the active level")
        if not uses_sentinel and (ones or zeros):
            if ones:
                return HealthState.CONNECTED, health_message(
                    "the chain reads all ones; without sentinel bits an empty board and a silent chain "
                    "look the same")
            return HealthState.CONNECTED, health_message(
                "the chain reads all zeros; without sentinel bits an empty board and a silent chain "
                "look the same")
        return HealthState.CONNECTED, health_message("{chips} shift registers answer", chips=self.chain.chips)

    def describe_input(self, index: int) -> str:
        text: str = self.chain.describe_input(index)
        return text

    def close(self) -> None:
        self.chain.close()


class MatrixReader:
    """Adapts a :class:`~hardware.matrix.SensorMatrix` to :class:`SensorReader`."""

    def __init__(self, matrix: Any, has_check: bool) -> None:
        self.matrix = matrix
        self.inputs: int = matrix.inputs
        self.has_check = has_check

    def read_mask(self) -> int:
        mask: int = self.matrix.read_mask()
        return mask

    def fault(self) -> HealthMessage | None:
        if self.matrix.check_ok:
            return None
        return health_message(
            "the sensor matrix stopped answering (its check input is silent): check the row wires")

    def self_test(self) -> tuple[HealthState, HealthMessage]:
        idle = self.matrix.idle_columns()
        if idle:
            lines = ", ".join(str(c + 1) for c in bits(idle))
            return HealthState.ERROR, health_message(
                "column line(s) {lines} read active with no row selected: a short?", lines=lines)
        mask = self.read_mask()
        if self.has_check and not self.matrix.check_ok:
            return HealthState.ERROR, health_message(
                "the sensor matrix does not answer: its check input stays silent")
        if _all(mask, self.inputs):
            return HealthState.ERROR, health_message(
                "every input of the matrix reads a magnet: check the active level")
        if not self.has_check and mask == 0:
            return HealthState.CONNECTED, health_message(
                "the matrix reads empty; without a check input it cannot prove more")
        return HealthState.CONNECTED, health_message("the sensor matrix answers")

    def describe_input(self, index: int) -> str:
        text: str = self.matrix.describe_input(index)
        return text

    def close(self) -> None:
        self.matrix.close()


def _read_failed(exc: Exception) -> HealthMessage:
    return health_message("reading the sensors failed: {reason}", reason=str(exc))


def _where(hole: int) -> dict[str, int]:
    """A hole's number and place (counted from 1, as in :func:`~hardware.wiring.hole_name`)."""
    row, column = divmod(hole, 10)
    return {"hole": hole, "row": row + 1, "column": column + 1}


InputListener = Callable[[frozenset[int]], None]
MIN_GAP = 0.001  # seconds the scan thread always sleeps between scans, however late it runs


class GpioBoardSource(BoardSource):
    """Hall sensors read by a scan thread; see the module docstring for what it publishes."""

    name = "gpio"

    def __init__(
        self,
        open_reader: Callable[[], SensorReader],
        wiring: WiringMap | None = None,
        settings: ScanSettings | None = None,
        *,
        scan_hz: float = 120.0,
        retry_seconds: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        if scan_hz <= 0:
            raise ValueError("scan_hz must be positive")
        self._open_reader = open_reader
        self._wiring = wiring
        self._settings = settings or ScanSettings()
        self._period = 1.0 / scan_hz
        self._retry_seconds = retry_seconds
        self._answering = False
        self._clock = clock
        self._reader: SensorReader | None = None
        self.scanner: Scanner | None = None
        self._thread: threading.Thread | None = None
        self._stop_event = threading.Event()
        self._input_listeners: list[InputListener] = []
        self._last_inputs: frozenset[int] | None = None
        self._fault: HealthMessage | None = None
        self._base_message: HealthMessage | None = None
        self._rate_window: deque[float] = deque()
        self.scan_rate = 0.0
        self.scan_cost = 0.0  # seconds the last scan took (reading + judging)
        self.mock_board: Any = None  # the simulated board when running on mock pins (hardware.gpio_setup)

    # -- lifecycle ------------------------------------------------------------------------
    def open(self) -> bool:
        """Open the reader and run the self-test; False (health ERROR says why) when unusable.

        :meth:`start` calls this; tests and the teach step may call it and then drive
        :meth:`scan_once` themselves, without the thread.
        """
        self._last_inputs = None  # a new session: nothing sensed yet
        self._fault = None
        try:
            self._reader = self._open_reader()
        except Exception as exc:  # no GPIO, pin busy, bad pin name: all say why in the health
            self._set_health(SourceHealth(HealthState.ERROR, message=health_message(
                "cannot open the GPIO sensors: {reason}", reason=str(exc))))
            return False
        if self._wiring is None:
            self._wiring = WiringMap.identity(self._reader.inputs)
        elif self._wiring.inputs != self._reader.inputs:
            self._set_health(SourceHealth(HealthState.ERROR, message=health_message(
                "the wiring map is for {mapped} inputs but the sensors have {inputs}: teach the board again",
                mapped=self._wiring.inputs, inputs=self._reader.inputs)))
            return False
        self.scanner = Scanner(self._wiring, self._settings)
        return self._self_test()

    def _self_test(self) -> bool:
        assert self._reader is not None
        state, message = self._reader.self_test()
        self._base_message = message
        self._answering = state is HealthState.CONNECTED
        self._set_health(SourceHealth(state, message=message))
        return self._answering

    def _start(self) -> None:
        self._stop_event.clear()
        self.open()
        if self.scanner is None:  # the pins could not be opened at all: nothing to retry
            return
        # a chain or matrix that fails its self-test is tried again every retry_seconds, so
        # plugging the cable in later is enough; until then the health says what is wrong
        self._thread = threading.Thread(target=self._run, name="gpio-scan", daemon=True)
        self._thread.start()

    def _stop(self) -> None:
        self._stop_event.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _run(self) -> None:
        while not self._answering:
            if self._stop_event.wait(self._retry_seconds):
                return
            try:
                self._self_test()
            except Exception as exc:
                self._set_health(SourceHealth(HealthState.ERROR, message=_read_failed(exc)))
        next_time = self._clock()
        while not self._stop_event.is_set():
            try:
                self.scan_once()
            except Exception as exc:  # a pin error mid-game: say so, keep trying
                self._set_health(SourceHealth(HealthState.LOST, message=_read_failed(exc)))
            next_time += self._period
            delay = next_time - self._clock()
            if delay < MIN_GAP:  # running late: do not catch up in a burst, and leave the
                next_time = self._clock()  # interpreter to the UI thread for a moment (the GIL)
                delay = MIN_GAP
            self._stop_event.wait(delay)

    # -- scanning -------------------------------------------------------------------------
    @property
    def wiring(self) -> WiringMap | None:
        return self._wiring

    @property
    def reader(self) -> SensorReader | None:
        return self._reader

    @property
    def input_count(self) -> int | None:
        """How many inputs the teach step can learn; None while the pins are not open."""
        return None if self._reader is None else self._reader.inputs

    @property
    def stable(self) -> bool:
        """True when the board has been quiet for ``stable_seconds`` *and* the chain answers.

        A LOST or faulty chain publishes nothing, so its last quiet board is not the board now.
        """
        if self.health.state is not HealthState.CONNECTED or self._fault is not None:
            return False
        return self.scanner is not None and self.scanner.stable

    def subscribe_inputs(self, listener: InputListener) -> Callable[[], None]:
        """Call ``listener`` with the debounced active *inputs* (before the wiring map) on change.

        The teach step uses this: it must see inputs that are no hole yet.
        """
        self._input_listeners.append(listener)
        if self._last_inputs is not None:
            listener(self._last_inputs)

        def unsubscribe() -> None:
            if listener in self._input_listeners:
                self._input_listeners.remove(listener)

        return unsubscribe

    def set_wiring(self, wiring: WiringMap) -> None:
        """Use a new wiring map (after teaching) from the next scan on."""
        self._wiring = wiring
        if self.scanner is not None:
            self.scanner = Scanner(wiring, self._settings)

    def scan_once(self, now: float | None = None) -> None:
        """Read the sensors once and publish what changed. Runs in the scan thread (or a test)."""
        reader, scanner = self._reader, self.scanner
        if reader is None or scanner is None:
            raise RuntimeError("open() the source before scanning")
        started = self._clock()
        now = started if now is None else now
        mask = reader.read_mask()
        fault = reader.fault()
        self._count_rate(now)
        if fault is not None:
            self._fault = fault
            self._set_health(SourceHealth(HealthState.LOST, message=fault))
            self.scan_cost = self._clock() - started
            return
        outcome = scanner.feed(mask, now)
        recovering = self._fault is not None or self.health.state is not HealthState.CONNECTED
        if recovering or outcome.health_changed:
            self._fault = None
            self._set_health(self._judged_health())
        if outcome.changed or outcome.became_stable:
            self._publish(BoardReading(
                occupied=scanner.occupied, timestamp=now, sequence=self._next_sequence(),
                unsure=scanner.unsure,
            ))
        if outcome.changed:
            inputs = scanner.active_inputs
            if inputs != self._last_inputs:
                self._last_inputs = inputs
                for listener in list(self._input_listeners):
                    with contextlib.suppress(Exception):  # a faulty listener must not stop the scan
                        listener(inputs)
        self.scan_cost = self._clock() - started

    def _count_rate(self, now: float) -> None:
        window = self._rate_window
        window.append(now)
        while window and now - window[0] > 1.0:
            window.popleft()
        if len(window) > 1 and window[-1] > window[0]:
            self.scan_rate = (len(window) - 1) / (window[-1] - window[0])

    def _judged_health(self) -> SourceHealth:
        scanner = self.scanner
        assert scanner is not None
        problems = [health_message("hole {hole} (row {row}, column {column}) flickers", **_where(h))
                    for h in sorted(scanner.flickering)]
        stuck = sorted(scanner.stuck - scanner.flickering)
        problems += [health_message("hole {hole} (row {row}, column {column}) may be stuck", **_where(h))
                     for h in stuck]
        bad = tuple(sorted(scanner.flickering | scanner.stuck))
        message = health_message("{problems}", problems=tuple(problems)) if problems else self._base_message
        return SourceHealth(HealthState.CONNECTED, bad_holes=bad, message=message)

    def describe_hole(self, hole: int) -> str:
        """A hole with the input it is wired to, for messages: 'hole 23 (row 3, column 4; chip 2 pin D7)'."""
        where = hole_name(hole)
        if self._wiring is not None and self._reader is not None:
            entry = self._wiring.input_of(hole)
            if entry is not None:
                where += f"; {self._reader.describe_input(entry)}"
        return f"hole {hole} ({where})"
