"""The table's outbox: what the table still has to tell the hub, kept in the table's own store.

After every commit (the store's listener, the same hook the web display uses) the reporter's thread
calls :meth:`Outbox.capture` for that game: it compares the game with what was last captured
(``club_seen``) and adds, in one transaction, an event per new action, the game's live state and,
once it is finished, its record (and again when it stops being finished, which takes the win
back at the hub). Each row's id is part of the message id (``table:store:row``),
so a message sent twice (no PUBACK before the Wi-Fi went) is the same message and the hub keeps
it once. A row is deleted when the broker acknowledged it (PUBACK).

The outbox can always be rebuilt from the games themselves: at start every game changed since the
club was switched on is captured again, so a crash between a game's commit and its capture loses
nothing. That is why the outbox is written with ``synchronous=NORMAL``: a lost outbox write is
captured again, and a lost "delivered" mark is a repeat the hub ignores.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.club import MAX_PAYLOAD, topic

_SCHEMA = """
CREATE TABLE IF NOT EXISTS club_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS club_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: part of the message id
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    retain INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS club_unconfirmed (  -- records the broker took but the hub has not confirmed
    message_id TEXT PRIMARY KEY,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    resend REAL NOT NULL,                      -- when to send it again if still unconfirmed
    tries INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS club_seen (
    game_id INTEGER PRIMARY KEY,
    actions INTEGER NOT NULL,
    status TEXT NOT NULL,
    updated REAL NOT NULL,
    record TEXT NOT NULL DEFAULT ''  -- the hash of the record last queued ('' = none yet)
);
"""


log = logging.getLogger(__name__)
RESEND_AFTER = 10.0  # seconds a delivered record waits for the hub's confirmation before it is sent again


@dataclass(frozen=True)
class Message:
    row: int
    topic: str
    payload: bytes
    retain: bool


def public_game(stored: Any, key: str) -> dict[str, Any]:
    """The game as the hub gets it: the committed record; a Parlett draft (bids being tapped in)
    is never sent, as the web display never shows it; nor a phones game's seats and seed (with the
    actions the seed tells every hand: :func:`app.games.count99.phones.shareable_setup`)."""
    from app.games.count99.phones import shareable_setup

    setup = {k: v for k, v in shareable_setup(stored.setup).items() if k != "draft"}
    return {"key": key, "kind": stored.kind, "title": stored.title, "setup": setup,
            "actions": list(stored.actions), "status": stored.status, "result": stored.result,
            "created": stored.created, "updated": stored.updated}


class Outbox:
    """The outbox tables in the table's store file, on a connection of their own (one thread)."""

    def __init__(self, path: Path | str, table: str) -> None:
        self.table = table
        self._db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self.store_id = self._meta("store_id", secrets.token_hex(6))
        self.since = float(self._meta("since", repr(time.time())))

    def _meta(self, key: str, default: str) -> str:
        self._db.execute("INSERT OR IGNORE INTO club_meta(key, value) VALUES (?, ?)", (key, default))
        (value,) = self._db.execute("SELECT value FROM club_meta WHERE key=?", (key,)).fetchone()
        return str(value)

    def close(self) -> None:
        self._db.close()

    def game_key(self, game_id: int) -> str:
        return f"{self.table}-{self.store_id}-{game_id}"

    def _add(self, what: str, body: dict[str, Any], retain: bool = False) -> None:
        cur = self._db.execute(
            "INSERT INTO club_outbox(topic, payload, retain, created) VALUES (?, '', ?, ?)",
            (topic(self.table, what), int(retain), time.time()))
        row = cur.lastrowid
        body = {"id": f"{self.table}:{self.store_id}:{row}", "table": self.table, "sent": time.time()} | body
        payload = json.dumps(body, ensure_ascii=False)
        if len(payload.encode("utf-8")) > MAX_PAYLOAD:
            # the hub refuses it and the broker closes the connection on it (then paho sends it
            # again on every reconnection, and nothing after it gets through): not sent; the game
            # stays in the table's store, and its next state is sent as usual
            self._db.execute("DELETE FROM club_outbox WHERE id=?", (row,))
            game = body.get("game")
            log.warning("club: game %s's %s is %d bytes, over the hub's %d: not sent",
                        game.get("key") if isinstance(game, dict) else game, what,
                        len(payload.encode("utf-8")), MAX_PAYLOAD)
            return
        self._db.execute("UPDATE club_outbox SET payload=? WHERE id=?", (payload, row))

    def capture(self, stored: Any) -> int:
        """Queue what changed in ``stored`` (a :class:`~app.store.StoredGame`) since it was last
        captured; returns how many messages were added (0: nothing new)."""
        n, status = len(stored.actions), stored.status
        seen = self._db.execute("SELECT actions, status, updated, record FROM club_seen WHERE game_id=?",
                                (stored.id,)).fetchone()
        if seen is not None and (seen[0], seen[1], seen[2]) == (n, status, stored.updated):
            return 0
        key = self.game_key(stored.id)
        (before,) = self._db.execute("SELECT COUNT(*) FROM club_outbox").fetchone()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            base = {"game": key, "kind": stored.kind, "actions": n, "status": status,
                    "committed": stored.updated}
            if seen is None:
                self._add("event", base | {"what": "new", "title": stored.title})
                first = 0
            else:
                first = seen[0]
            if n > first:
                for seq in range(first, n):
                    self._add("event", base | {"what": "action", "seq": seq, "action": stored.actions[seq]})
            elif seen is not None and n < seen[0]:
                self._add("event", base | {"what": "undo"})
            elif seen is not None:
                self._add("event", base | {"what": "change"})
            # the live state is retained: only the newest matters, an older unsent one is dropped
            self._db.execute("DELETE FROM club_outbox WHERE topic=?", (topic(self.table, "state"),))
            game = public_game(stored, key)
            self._add("state", {"game": game}, retain=True)
            record = ""
            if status == "finished":  # once per finished record (clearing a draft changes nothing)
                same = {k: v for k, v in game.items() if k != "updated"}
                record = hashlib.sha256(json.dumps(same, sort_keys=True).encode()).hexdigest()
                if seen is None or record != seen[3]:
                    self._add("record", {"game": game})
            elif seen is not None and seen[3]:
                # a finished game is not any more (its last deal deleted, its winning play undone):
                # its record goes again, not finished, and the hub takes the win back; confirmed end
                # to end like the win itself, so a lost live state cannot leave the win standing
                self._add("record", {"game": game})
            self._db.execute(
                "INSERT OR REPLACE INTO club_seen(game_id, actions, status, updated, record)"
                " VALUES (?,?,?,?,?)",
                (stored.id, n, status, stored.updated, record))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        (after,) = self._db.execute("SELECT COUNT(*) FROM club_outbox").fetchone()
        return int(after) - int(before)

    def pending(self, limit: int = 500, after: int = 0) -> list[Message]:
        rows = self._db.execute(
            "SELECT id, topic, payload, retain FROM club_outbox WHERE id > ? ORDER BY id LIMIT ?",
            (after, limit)).fetchall()
        return [Message(r[0], r[1], r[2].encode("utf-8"), bool(r[3])) for r in rows]

    def delivered(self, rows: list[int], now: float | None = None) -> None:
        """The broker acknowledged these rows (PUBACK): gone from the outbox. A record stays in
        ``club_unconfirmed`` until the hub confirms it: a broker killed before it passed the record
        on (or saved it) would otherwise lose it after its PUBACK."""
        if not rows:
            return
        now = time.time() if now is None else now
        self._db.execute("BEGIN IMMEDIATE")
        for row in rows:
            found = self._db.execute("SELECT topic, payload FROM club_outbox WHERE id=?", (row,)).fetchone()
            if found is not None and found[0].endswith("/record"):
                message_id = json.loads(found[1])["id"]
                self._db.execute(
                    "INSERT INTO club_unconfirmed(message_id, topic, payload, resend) VALUES (?,?,?,?)"
                    " ON CONFLICT(message_id) DO UPDATE SET"
                    " resend = ? + MIN(600.0, ? * (1 << club_unconfirmed.tries))",
                    (message_id, found[0], found[1], now + RESEND_AFTER, now, RESEND_AFTER))
            self._db.execute("DELETE FROM club_outbox WHERE id=?", (row,))
        self._db.execute("COMMIT")

    def confirmed(self, message_ids: list[str]) -> int:
        """The hub has these records (its acknowledgement): they are never sent again."""
        cur = self._db.executemany("DELETE FROM club_unconfirmed WHERE message_id=?",
                                   [(m,) for m in message_ids])
        return int(cur.rowcount)

    def resend_due(self, now: float | None = None) -> int:
        """Records the hub has not confirmed in time go back into the outbox, with the same message
        id (the hub keeps a repeat once); the wait doubles each time, up to 10 minutes."""
        now = time.time() if now is None else now
        due = self._db.execute(
            "SELECT message_id, topic, payload, tries FROM club_unconfirmed WHERE resend <= ?",
            (now,)).fetchall()
        if not due:
            return 0
        self._db.execute("BEGIN IMMEDIATE")
        for message_id, topic_, payload, tries in due:
            self._db.execute("INSERT INTO club_outbox(topic, payload, retain, created) VALUES (?,?,0,?)",
                             (topic_, payload, now))
            self._db.execute("UPDATE club_unconfirmed SET tries=?, resend=? WHERE message_id=?",
                             (tries + 1, now + min(600.0, RESEND_AFTER * 2 ** (tries + 1)), message_id))
        self._db.execute("COMMIT")
        return len(due)

    def unconfirmed(self) -> int:
        (n,) = self._db.execute("SELECT COUNT(*) FROM club_unconfirmed").fetchone()
        return int(n)

    def count(self) -> int:
        (n,) = self._db.execute("SELECT COUNT(*) FROM club_outbox").fetchone()
        return int(n)
