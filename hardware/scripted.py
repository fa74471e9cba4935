"""The scripted board: plays back a timed recording of readings, for tests, demos and bug reports.

File format (JSON Lines, one reading per line, written by ``table99 sensors --record FILE``)::

    {"t": 0.0, "holes": []}
    {"t": 1.25, "holes": [44], "colours": {"44": "red"}}
    {"t": 1.31, "holes": [44, 45], "unsure": [45]}

``t`` is seconds since the recording started (non-decreasing), ``holes`` the occupied hole indexes
0..99, ``colours`` (optional) maps a hole (as a string, JSON keys are strings) to a colour name,
``unsure`` (optional) lists holes the sensor could not read. Blank lines and lines starting with
``#`` are skipped. Any other problem is a :class:`ScriptError` naming the file and line.

Playback runs in its own thread like a real driver (``speed`` scales time: 2.0 plays twice as
fast). Tests step through the script without a thread or real time with :meth:`step`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.board_source import HOLES, BoardReading, BoardSource, HealthState, SourceHealth, health_message


class ScriptError(ValueError):
    """A script line that cannot be played, with where it is."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass(frozen=True)
class ScriptedReading:
    """One line of a script: when (seconds from the start) and what the board showed."""

    t: float
    holes: frozenset[int]
    colours: dict[int, str] | None = None
    unsure: frozenset[int] = frozenset()

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"t": round(self.t, 4), "holes": sorted(self.holes)}
        if self.colours is not None:
            line["colours"] = {str(h): c for h, c in sorted(self.colours.items())}
        if self.unsure:
            line["unsure"] = sorted(self.unsure)
        return line


def _holes(value: Any, where: str, key: str) -> frozenset[int]:
    if not isinstance(value, list):
        raise ScriptError(where, f'"{key}" must be a list of hole numbers, got {value!r}')
    for hole in value:
        if isinstance(hole, bool) or not isinstance(hole, int) or not 0 <= hole < HOLES:
            raise ScriptError(where, f'"{key}" holds {hole!r}, not a hole number 0..{HOLES - 1}')
    return frozenset(value)


def parse_line(data: Any, where: str) -> ScriptedReading:
    """One decoded JSON line -> a reading, or ScriptError saying what is wrong."""
    if not isinstance(data, dict):
        raise ScriptError(where, "each line must be a JSON object like {\"t\": 0.5, \"holes\": [3]}")
    unknown = set(data) - {"t", "holes", "colours", "unsure"}
    if unknown:
        raise ScriptError(where, f"unknown key(s) {sorted(unknown)}; allowed: t, holes, colours, unsure")
    if "t" not in data or "holes" not in data:
        raise ScriptError(where, 'a line needs "t" (seconds) and "holes" (a list)')
    t = data["t"]
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0:
        raise ScriptError(where, f'"t" must be a number of seconds >= 0, got {t!r}')
    holes = _holes(data["holes"], where, "holes")
    colours: dict[int, str] | None = None
    if "colours" in data:
        raw = data["colours"]
        if not isinstance(raw, dict):
            raise ScriptError(where, f'"colours" must be an object {{"hole": "colour"}}, got {raw!r}')
        colours = {}
        for key, colour in raw.items():
            if not str(key).isdigit() or int(key) not in holes:
                raise ScriptError(where, f'"colours" names hole {key!r}, which is not in "holes"')
            if not isinstance(colour, str) or not colour:
                raise ScriptError(where, f'"colours" for hole {key} must be a colour name, got {colour!r}')
            colours[int(key)] = colour
    unsure = _holes(data.get("unsure", []), where, "unsure")
    return ScriptedReading(float(t), holes, colours, unsure)


def parse_script(lines: Iterable[str], name: str = "script") -> list[ScriptedReading]:
    readings: list[ScriptedReading] = []
    for number, text in enumerate(lines, start=1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{name}:{number}"
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScriptError(where, f"not valid JSON: {exc.msg} (column {exc.colno})") from exc
        reading = parse_line(data, where)
        if readings and reading.t < readings[-1].t:
            raise ScriptError(where, f'"t" goes back in time ({reading.t} after {readings[-1].t})')
        readings.append(reading)
    return readings


def load_script(path: Path | str) -> list[ScriptedReading]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ScriptError(str(path), f"not UTF-8 text (byte {exc.start})") from exc
    return parse_script(text.splitlines(), str(path))


def dump_script(readings: Iterable[ScriptedReading]) -> str:
    return "".join(json.dumps(r.to_json()) + "\n" for r in readings)


class ScriptedBoard(BoardSource):
    """Publishes a script's readings at their times (in a thread), or one by one with :meth:`step`."""

    name = "scripted"

    def __init__(
        self,
        readings: Iterable[ScriptedReading],
        *,
        speed: float = 1.0,
        loop: bool = False,
        threaded: bool = True,
    ) -> None:
        super().__init__()
        if speed <= 0:
            raise ValueError(f"speed must be > 0, got {speed}")
        self.readings = list(readings)
        self.speed = speed
        self.loop = loop
        self.threaded = threaded
        self._position = 0
        self._stop_event = threading.Event()
        self._thread: threading.Thread | None = None
        self._sees_colour = any(r.colours is not None for r in self.readings)
        self.finished = threading.Event()

    @property
    def sees_colour(self) -> bool:
        return self._sees_colour

    @property
    def remaining(self) -> int:
        return len(self.readings) - self._position

    def step(self) -> BoardReading | None:
        """Publish the next reading now (timestamp = its script time); None at the end."""
        if self._position >= len(self.readings):
            if not self.loop or not self.readings:
                self.finished.set()
                return None
            self._position = 0
        line = self.readings[self._position]
        self._position += 1
        reading = BoardReading(
            line.holes, line.t, self._next_sequence(), line.colours, line.unsure
        )
        self._publish(reading)
        return reading

    def _start(self) -> None:
        self._set_health(SourceHealth(HealthState.CONNECTED, message=health_message(
            "scripted board, {count} readings", count=len(self.readings))))
        self._stop_event.clear()
        self.finished.clear()
        if self.threaded:
            self._thread = threading.Thread(target=self._run, name="scripted-board", daemon=True)
            self._thread.start()

    def _stop(self) -> None:
        self._stop_event.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None

    def _run(self) -> None:
        previous_t = 0.0
        while not self._stop_event.is_set():
            if self._position >= len(self.readings) and not self.loop:
                break
            if self._position >= len(self.readings):
                previous_t = 0.0
            next_line = self.readings[self._position % max(1, len(self.readings))] if self.readings else None
            if next_line is None:
                break
            delay = max(0.0, next_line.t - previous_t) / self.speed
            if self._stop_event.wait(delay):
                return
            previous_t = next_line.t
            self.step()
        self.finished.set()
