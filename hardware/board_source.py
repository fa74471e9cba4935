"""The seam between whatever senses the pegs and the referee that judges them.

Every way of sensing the board (hall sensors on GPIO, a microcontroller over serial, a camera, the
simulated board on the screen, a scripted recording) is a :class:`BoardSource`. A source produces
:class:`BoardReading` values: immutable snapshots of which holes hold a peg. A source never
interprets a reading; stability, legality and penalties are the referee's business.

Holes versus squares: a *hole* is a physical position, numbered ``row * columns + column`` from
the top-left hole as the players see the board. Which *square number* is printed beside a hole is
the board layout's business (``rules``), not the source's. A wiring map (hardware) turns inputs into
holes; a layout (rules) turns holes into square numbers. Keeping the two apart means a re-wired
board and a re-printed board are each one table to change.

Threads: drivers run in their own thread and call :meth:`BoardSource._publish` from there.
Subscribers therefore must not touch a GUI directly: the app subscribes with a
:class:`ReadingQueue` and drains it on its main thread (Kivy's ``Clock``).
"""

from __future__ import annotations

import contextlib
import enum
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

HOLES = 100
"""Holes on the Game of 99 board (10 x 10)."""


class HealthState(enum.Enum):
    """How a source is doing. The app shows it; the referee ignores readings unless CONNECTED."""

    STARTING = "starting"
    CONNECTED = "connected"
    LOST = "lost"  # was connected, no data now (cable pulled, heartbeat stopped); retrying
    ERROR = "error"  # cannot work as configured (no GPIO, self-test failed, camera unreadable)
    STOPPED = "stopped"


@dataclass(frozen=True)
class HealthMessage:
    """A driver's sentence as an English template plus its values, so the app can translate it.

    Drivers may not import the app (nor its ``tr``), yet the screen must speak German too. So a
    driver says ``health_message("no board at {port}", port=port)`` and the app renders it with
    its translation of the template (``render(tr)``); logs and the terminal use the English text.
    A value may itself be a message (translated the same way) or a tuple of messages (joined by
    "; "); anything else, such as a raw exception text, is shown as it is.
    """

    template: str
    values: tuple[tuple[str, HealthValue], ...] = ()

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """The sentence, with the template (and nested messages) passed through ``translate``."""
        look_up = translate or _untranslated
        filled = {name: _render_value(value, look_up) for name, value in self.values}
        return look_up(self.template).format(**filled)

    def __str__(self) -> str:
        return self.render()


HealthValue = str | int | float | HealthMessage | tuple[HealthMessage, ...]
"""What a health message's placeholder may hold."""


def _untranslated(template: str) -> str:
    return template


def _render_value(value: HealthValue, translate: Callable[[str], str]) -> str:
    if isinstance(value, HealthMessage):
        return value.render(translate)
    if isinstance(value, tuple):
        return "; ".join(part.render(translate) for part in value)
    return str(value)


def health_message(template: str, /, **values: HealthValue) -> HealthMessage:
    """A translatable health sentence. Pass the template as a literal: a test checks its German."""
    message = HealthMessage(template, tuple(values.items()))
    message.render()  # a placeholder without a value fails here, in the driver's test, not on screen
    return message


@dataclass(frozen=True)
class SourceHealth:
    """A source's health with a human sentence and any holes that misbehave.

    ``message`` is the sentence in translatable form (see :class:`HealthMessage`); ``detail`` is
    the same sentence in English for logs and the terminal, filled from ``message`` when omitted.
    """

    state: HealthState
    detail: str = ""
    bad_holes: tuple[int, ...] = ()  # holes that flicker or never change, by hole index
    message: HealthMessage | None = None

    def __post_init__(self) -> None:
        if self.message is not None and not self.detail:
            object.__setattr__(self, "detail", self.message.render())

    @property
    def ok(self) -> bool:
        return self.state is HealthState.CONNECTED

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The sentence for a person: the message through ``translate``, else the plain detail."""
        return self.message.render(translate) if self.message is not None else self.detail


@dataclass(frozen=True)
class BoardReading:
    """One snapshot of the board as sensed.

    ``occupied`` holds the hole indexes with a peg. ``colours`` maps an occupied hole to a colour
    name (the same names players pick for their pegs, e.g. ``"red"``) where the source can tell,
    and is ``None`` for sources that cannot. ``unsure`` lists holes the source could not read with
    confidence: the referee neither counts them as empty nor as occupied and waits.
    ``timestamp`` is in seconds on the source's monotonic clock; ``sequence`` increases by one per
    reading from the same source, so a consumer can tell a repeat from a new snapshot.
    """

    occupied: frozenset[int]
    timestamp: float
    sequence: int = 0
    colours: Mapping[int, str] | None = None
    unsure: frozenset[int] = frozenset()
    holes: int = HOLES

    def __post_init__(self) -> None:
        bad = [h for h in self.occupied | self.unsure if not 0 <= h < self.holes]
        if bad:
            raise ValueError(f"hole indexes out of range 0..{self.holes - 1}: {sorted(bad)}")
        if self.colours is not None and not set(self.colours) <= self.occupied:
            stray = sorted(set(self.colours) - self.occupied)
            raise ValueError(f"colours given for holes without a peg: {stray}")

    def same_board(self, other: BoardReading) -> bool:
        """True when both readings show the same pegs, colours and doubts (times aside)."""
        return (
            self.occupied == other.occupied
            and dict(self.colours or {}) == dict(other.colours or {})
            and self.unsure == other.unsure
        )


BoardEvent = BoardReading | SourceHealth
Listener = Callable[[BoardEvent], None]


class BoardSource:
    """Base class of every board source: start, stop, subscribe, health.

    Subclasses implement :meth:`_start` and :meth:`_stop` and call :meth:`_publish` with readings
    and :meth:`_set_health` with health changes, from any thread. Listeners are called in the
    publishing thread and must be quick; exceptions they raise are swallowed so one faulty
    listener cannot stop a driver.
    """

    name = "board"

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._health = SourceHealth(HealthState.STOPPED)
        self._last_reading: BoardReading | None = None
        self._sequence = 0
        self._running = False

    # -- public API -------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every reading and health change; returns an unsubscribe."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def start(self) -> None:
        if self._running:
            return
        self._running = True
        self._set_health(SourceHealth(HealthState.STARTING))
        self._start()

    def stop(self) -> None:
        if not self._running:
            return
        self._running = False
        self._stop()
        self._set_health(SourceHealth(HealthState.STOPPED))

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> BoardSource:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._running

    @property
    def health(self) -> SourceHealth:
        return self._health

    @property
    def last_reading(self) -> BoardReading | None:
        return self._last_reading

    @property
    def sees_colour(self) -> bool:
        """Whether readings carry colours (cameras do, hall sensors do not)."""
        return False

    # -- for subclasses -------------------------------------------------------------------
    def _start(self) -> None:
        """Begin producing readings (start a thread, open a port...)."""

    def _stop(self) -> None:
        """Stop producing readings and release resources."""

    def _next_sequence(self) -> int:
        with self._lock:
            self._sequence += 1
            return self._sequence

    def _publish(self, reading: BoardReading) -> None:
        self._last_reading = reading
        self._emit(reading)

    def _set_health(self, health: SourceHealth) -> None:
        if health == self._health:
            return
        self._health = health
        self._emit(health)

    def _emit(self, event: BoardEvent) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            with contextlib.suppress(Exception):
                listener(event)


@dataclass
class ReadingQueue:
    """A thread-safe mailbox between a driver thread and the main thread.

    Subscribe it to a source (``source.subscribe(q.put)``) and call :meth:`drain` from the main
    thread. Readings are coalesced: only the newest reading matters to the referee, but every
    health change is kept in order.
    """

    maxsize: int = 1000
    _queue: queue.Queue[BoardEvent] = field(init=False)

    def __post_init__(self) -> None:
        self._queue = queue.Queue(self.maxsize)

    def put(self, event: BoardEvent) -> None:
        try:
            self._queue.put_nowait(event)
        except queue.Full:  # the main thread is stalled; drop the oldest, keep the newest
            with contextlib.suppress(queue.Empty):
                self._queue.get_nowait()
            self._queue.put_nowait(event)

    def drain(self) -> list[BoardEvent]:
        """Return waiting events in order, keeping only the last of consecutive readings."""
        events: list[BoardEvent] = []
        while True:
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                return events
            if isinstance(event, BoardReading) and events and isinstance(events[-1], BoardReading):
                events[-1] = event
            else:
                events.append(event)
