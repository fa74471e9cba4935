"""How many demos visitors started and finished, today and this event. No kivy.

Kept in the family store's database (one more table, made the way :mod:`app.store` makes its own, and
committed with the same durability), so a power cut at the store loses no count and the numbers
survive a restart. Visitors' *games* never go there (they live in :func:`app.exhibit.scratch.scratch_store`);
only one row per demo: when, which game, which event, and how it ended.

"Today" is the local calendar date when the demo started (a store's day, not UTC's). "This event" is
``[exhibit] event`` from the config (``""``: one event, every demo without a name).
"""

from __future__ import annotations

import csv
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.store import GameStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS exhibit_demos (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,              -- the game: 'board99', ...
    event TEXT NOT NULL DEFAULT '',  -- [exhibit] event when it started
    day TEXT NOT NULL,               -- local date it started, YYYY-MM-DD
    started REAL NOT NULL,           -- Unix time
    ended REAL,                      -- Unix time, NULL while it runs (or when the table lost power)
    outcome TEXT NOT NULL DEFAULT '' -- '' running | 'finished' | 'visitor' (stopped) | 'idle' (timed out)
);
CREATE INDEX IF NOT EXISTS exhibit_demos_day ON exhibit_demos(day);
CREATE INDEX IF NOT EXISTS exhibit_demos_event ON exhibit_demos(event);
"""
STOP_REASONS = ("visitor", "idle")
CSV_HEADER = ("id", "event", "game", "day", "started", "ended", "outcome")


def _local_now() -> datetime:
    return datetime.now().astimezone()


@dataclass(frozen=True)
class CountsSummary:
    day: str  # the local date "today" means
    event: str
    today_started: int
    today_finished: int
    event_started: int
    event_finished: int


class DemoCounts:
    """Counts of visitors' demos in ``store``'s database, for ``event``."""

    def __init__(self, store: GameStore, event: str = "", clock: Callable[[], datetime] = _local_now) -> None:
        self.store, self.event, self._clock = store, event, clock
        store.add_schema(SCHEMA)

    def started(self, kind: str) -> int:
        """A visitor's demo began; returns its id for :meth:`finished` or :meth:`stopped`."""
        now = self._clock()
        demo_id = self.store.write(
            "INSERT INTO exhibit_demos(kind, event, day, started) VALUES (?,?,?,?)",
            (kind, self.event, now.date().isoformat(), now.timestamp()))
        assert demo_id is not None
        return demo_id

    def finished(self, demo_id: int) -> None:
        """The demo reached its game's end. A demo that already ended keeps its first outcome."""
        self._end(demo_id, "finished")

    def stopped(self, demo_id: int, why: str) -> None:
        """The visitor stopped (``"visitor"``) or walked away (``"idle"``)."""
        if why not in STOP_REASONS:
            raise ValueError(f"a demo stops for one of {', '.join(STOP_REASONS)}, not {why!r}")
        self._end(demo_id, why)

    def _end(self, demo_id: int, outcome: str) -> None:
        if not self.store.read("SELECT 1 FROM exhibit_demos WHERE id=?", (demo_id,)):
            raise KeyError(f"no demo with id {demo_id}")
        self.store.write("UPDATE exhibit_demos SET outcome=?, ended=? WHERE id=? AND outcome=''",
                         (outcome, self._clock().timestamp(), demo_id))

    def summary(self) -> CountsSummary:
        day = self._clock().date().isoformat()
        ((today_started, today_finished),) = self.store.read(
            "SELECT COUNT(*), COALESCE(SUM(outcome='finished'), 0) FROM exhibit_demos WHERE day=?", (day,))
        ((event_started, event_finished),) = self.store.read(
            "SELECT COUNT(*), COALESCE(SUM(outcome='finished'), 0) FROM exhibit_demos WHERE event=?",
            (self.event,))
        return CountsSummary(day, self.event, today_started, today_finished, event_started, event_finished)

    def export_csv(self, path: Path) -> Path:
        """Every demo as a CSV row (with a header); ``path`` is a file ending ``.csv``, or a folder
        (made if missing) to put ``exhibit-<day>.csv`` in. Written to a temporary file first:
        never half a file."""
        path = Path(path)
        if path.is_dir() or path.suffix.lower() != ".csv":
            path = path / f"exhibit-{self._clock().date().isoformat()}.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = self.store.read(
            "SELECT id, event, kind, day, started, ended, outcome FROM exhibit_demos ORDER BY id")
        fd, temp = tempfile.mkstemp(prefix=".exhibit-", suffix=".csv", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
                writer = csv.writer(out)
                writer.writerow(CSV_HEADER)
                for demo_id, event, kind, day, started, ended, outcome in rows:
                    writer.writerow([demo_id, _cell(event), _cell(kind), day, _time(started),
                                     "" if ended is None else _time(ended), outcome or "not ended"])
            os.chmod(temp, 0o644)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        return path


def _time(stamp: float) -> str:
    """Local time, to the second, as a spreadsheet reads it."""
    return datetime.fromtimestamp(stamp).astimezone().isoformat(timespec="seconds")


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: a leading = + - @ would start a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
