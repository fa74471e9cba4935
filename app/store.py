"""Crash-safe game storage: every accepted action is committed before the screen shows it.

A game is stored as its setup plus the ordered list of actions, exactly what a game record holds,
so any stored game replays through the rules and exports as a record. The store knows nothing about
any game's rules: setup and actions are JSON objects owned by the game's module.

Durability: SQLite in WAL mode with ``synchronous=FULL``. A committed action survives a SIGKILL or
a power cut; an action whose commit did not return was never shown as accepted.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,              -- 'board99', 'parlett', 'count99'
    title TEXT NOT NULL DEFAULT '',
    setup TEXT NOT NULL,             -- JSON: everything a record holds except the actions
    status TEXT NOT NULL DEFAULT 'playing',   -- 'playing' | 'finished' | 'abandoned'
    result TEXT NOT NULL DEFAULT '',          -- a short human summary once finished
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,            -- 0-based index in the game's action list
    action TEXT NOT NULL,            -- JSON
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


def _create_shareable(path: Path) -> None:
    """Create a new database file with the process's umask applied to 0666, not SQLite's 0644.

    SQLite creates its file 0644 & ~umask, so under the service's ``UMask=0007`` the games were
    0640 and the desktop user of the ``table99`` group could not write them ("attempt to write a
    readonly database") after switching from console to desktop mode. The -wal and -shm files
    SQLite creates later copy this file's permissions. An empty file is a valid new database.
    """
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
    except FileExistsError:
        return
    except OSError:
        return  # sqlite3 says what is wrong with the place, in its own words
    os.close(fd)


class StoreError(Exception):
    """The database cannot be opened or holds something we cannot read."""


@dataclass(frozen=True)
class StoredGame:
    id: int
    kind: str
    title: str
    setup: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    status: str
    result: str
    created: float
    updated: float


@dataclass(frozen=True)
class GameSummary:
    id: int
    kind: str
    title: str
    status: str
    result: str
    actions: int
    created: float
    updated: float


class GameStore:
    """A SQLite file of games. Safe to share between threads (one connection, one lock)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _create_shareable(self.path)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from exc
        self._lock = threading.Lock()
        # --- web display (issue 14): told the game id after every committed change -----------
        self._listeners: list[Callable[[int], None]] = []

    def add_listener(self, listener: Callable[[int], None]) -> None:
        """Call ``listener(game_id)`` after each committed change, in the committing thread.

        A listener must be quick and must not raise (the web server only queues the id for its own
        loop); one that raises is logged and the commit stands."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[int], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _changed(self, game_id: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id)
            except Exception:  # a viewer's trouble never undoes or blocks a commit
                logging.getLogger(__name__).exception("a store listener failed")
    # --- end web display ---------------------------------------------------------------------

    def close(self, *, for_exit: bool = False) -> None:
        """Close the file; SQLite then folds its write-ahead log back in (no -wal file is left).

        ``for_exit``: the process ends right after (app/quick_exit.py, from another thread than the
        one drawing), so the lock is kept: no thread starts a read or write on the closed connection
        in between. A commit in progress is waited for and stands."""
        self._lock.acquire()
        try:
            self._db.close()
        finally:
            if not for_exit:
                self._lock.release()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, game_id: int | None = None) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        if game_id is not None:
            self._changed(game_id)  # web display: after the commit, outside the lock

    # -- writing --------------------------------------------------------------------------
    def create_game(self, kind: str, setup: dict[str, Any], title: str = "") -> int:
        now = time.time()
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO games(kind, title, setup, created, updated) VALUES (?,?,?,?,?)",
                (kind, title, json.dumps(setup, ensure_ascii=False), now, now),
            )
            assert cur.lastrowid is not None
            game_id = cur.lastrowid
        self._changed(game_id)  # web display
        return game_id

    def append(self, game_id: int, action: dict[str, Any], *, finished: str | None = None) -> int:
        """Commit one action at the end of the game; returns its 0-based index.

        ``finished`` (the result in words) marks the game finished *in the same transaction*: a
        kill between the winning action and a separate status change left a won game "playing"
        and offered for Resume.
        """
        return self.extend(game_id, [action], finished=finished)

    def extend(self, game_id: int, actions: list[dict[str, Any]], *, finished: str | None = None) -> int:
        """Commit several actions (and optionally the finished status) at once; returns the first index."""
        now = time.time()
        with self._transaction(game_id) as db:
            (count,) = db.execute(
                "SELECT COUNT(*) FROM actions WHERE game_id=?", (game_id,)
            ).fetchone()
            db.executemany(
                "INSERT INTO actions(game_id, seq, action, created) VALUES (?,?,?,?)",
                [(game_id, count + i, json.dumps(a, ensure_ascii=False), now) for i, a in enumerate(actions)],
            )
            if finished is None:
                db.execute("UPDATE games SET updated=? WHERE id=?", (now, game_id))
            else:
                db.execute("UPDATE games SET updated=?, status='finished', result=? WHERE id=?",
                           (now, finished, game_id))
            return int(count)

    def pop_last(self, game_id: int) -> dict[str, Any] | None:
        """Remove and return the game's last action (an undo), or None when there is none."""
        with self._transaction(game_id) as db:
            row = db.execute(
                "SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM actions WHERE game_id=? AND seq=?", (game_id, row[0]))
            db.execute(
                "UPDATE games SET updated=?, status='playing', result='' WHERE id=?",
                (time.time(), game_id),
            )
            return dict(json.loads(row[1]))

    def replace_actions(self, game_id: int, actions: list[dict[str, Any]]) -> None:
        """Rewrite a game's whole action list in one transaction (corrections to earlier entries)."""
        now = time.time()
        with self._transaction(game_id) as db:
            db.execute("DELETE FROM actions WHERE game_id=?", (game_id,))
            db.executemany(
                "INSERT INTO actions(game_id, seq, action, created) VALUES (?,?,?,?)",
                [(game_id, i, json.dumps(a, ensure_ascii=False), now) for i, a in enumerate(actions)],
            )
            db.execute("UPDATE games SET updated=? WHERE id=?", (now, game_id))

    def update_setup(self, game_id: int, setup: dict[str, Any]) -> None:
        with self._transaction(game_id) as db:
            db.execute(
                "UPDATE games SET setup=?, updated=? WHERE id=?",
                (json.dumps(setup, ensure_ascii=False), time.time(), game_id),
            )

    def set_status(self, game_id: int, status: str, result: str = "") -> None:
        if status not in ("playing", "finished", "abandoned"):
            raise ValueError(f"unknown game status {status!r}")
        with self._transaction(game_id) as db:
            db.execute(
                "UPDATE games SET status=?, result=?, updated=? WHERE id=?",
                (status, result, time.time(), game_id),
            )

    def delete_game(self, game_id: int) -> None:
        with self._transaction(game_id) as db:
            db.execute("DELETE FROM games WHERE id=?", (game_id,))

    # -- reading --------------------------------------------------------------------------
    def load(self, game_id: int) -> StoredGame:
        with self._lock:
            row = self._db.execute(
                "SELECT id, kind, title, setup, status, result, created, updated"
                " FROM games WHERE id=?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise KeyError(f"no game with id {game_id}")
            actions = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq", (game_id,)
            ).fetchall()
        try:
            setup = json.loads(row[3])
            parsed = tuple(json.loads(a) for _, a in actions)
        except json.JSONDecodeError as exc:
            raise StoreError(f"game {game_id} in {self.path} is damaged: {exc}") from exc
        return StoredGame(row[0], row[1], row[2], setup, parsed, row[4], row[5], row[6], row[7])

    def games(
        self, kind: str | None = None, status: str | None = None, limit: int = 200
    ) -> list[GameSummary]:
        """Games, newest first, optionally of one kind and status."""
        query = (
            "SELECT g.id, g.kind, g.title, g.status, g.result,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id=g.id), g.created, g.updated"
            " FROM games g WHERE (? IS NULL OR g.kind=?) AND (? IS NULL OR g.status=?)"
            " ORDER BY g.updated DESC LIMIT ?"
        )
        with self._lock:
            rows = self._db.execute(query, (kind, kind, status, status, limit)).fetchall()
        return [GameSummary(*row) for row in rows]

    # --- exhibitor mode (issue 15): app/exhibit/counts.py keeps its own table in this file ---------
    def add_schema(self, script: str) -> None:
        """Create more tables (``CREATE ... IF NOT EXISTS``) in this database, as its own are made."""
        with self._lock:
            self._db.executescript(script)

    def write(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        """One statement in its own transaction, committed (durable like an action) when this
        returns; the new row's id for an INSERT. Not a game change: no listener is told."""
        with self._transaction() as db:
            return db.execute(sql, params).lastrowid

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, params).fetchall())
    # --- end exhibitor mode ------------------------------------------------------------------

    def unfinished(self, kind: str | None = None) -> list[GameSummary]:
        return self.games(kind=kind, status="playing")
