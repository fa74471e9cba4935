"""``table99 hub``: hears every table through the broker and keeps it in its own SQLite store.

A message's id (``table:store:row``, given by the table's outbox) is the primary key of
``messages``: a message heard twice (the table sent it again after a lost PUBACK, the broker
redelivered it after a restart) is stored once. A finished game is keyed by its game key
(``table-store-game``): a correction at the table replaces its record, never adds a second one.
The table's name is taken from the topic (the broker's ACL lets a table write only its own).

A win taken back at the table (the last deal deleted, the winning play undone, then the game
abandoned) is taken back here too: a record is counted only while its newest word, record or live
state, says "finished"; the table also sends a record of the game when it leaves "finished", so
the withdrawal is confirmed end to end like the win was.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.club import MAX_PAYLOAD, TOPIC_ROOT, ack_topic
from app.club.outcome import outcome, player_key
from app.club.worker import HeavyWorker

log = logging.getLogger(__name__)
# A real message nests 7 deep (message, game, actions, action, its fields); a crafted one 978 deep
# was stored, then every later json.loads of it (each /panel, after a restart too) hit Python's
# recursion limit and the TV page failed for every table.
MAX_DEPTH = 32
# Times a table may send: finite, after 1970 and before the year 5000 (1e300 made
# time.localtime raise outside the message's checks: a traceback, not one line).
LATEST_TIME = 1e11

_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, topic TEXT NOT NULL, received REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY, state TEXT NOT NULL DEFAULT '{}', heard REAL NOT NULL, state_sent REAL
);
CREATE TABLE IF NOT EXISTS records (
    game TEXT PRIMARY KEY, table_name TEXT NOT NULL, kind TEXT NOT NULL, evening TEXT NOT NULL,
    players TEXT NOT NULL, winners TEXT NOT NULL, result TEXT NOT NULL, record TEXT NOT NULL,
    message TEXT NOT NULL, finished REAL NOT NULL, received REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY, table_name TEXT NOT NULL, game TEXT NOT NULL, body TEXT NOT NULL,
    sent REAL NOT NULL, received REAL NOT NULL
);
"""


def check_game(game: Any, table: str) -> None:
    """A game as the hub keeps and shows it, or ValueError: the right types, and a key of this table.

    The key is the outbox's ``table-store-game`` (the store's id has no '-'): bound to the topic's
    table, one table cannot overwrite another's game (the ACL ties the topic to the broker user,
    nothing ties a payload's fields to it). The types are what the TV page reads: one table's
    malformed state must not break the page for the others.
    """
    if not isinstance(game, dict):
        raise ValueError("no game")
    check_key(game.get("key"), table)
    if game.get("kind") not in KINDS:
        raise ValueError(f"unknown kind {str(game.get('kind'))[:20]!r}")
    types = {"setup": dict, "actions": list, "status": str, "created": (int, float), "updated": (int, float)}
    for field, kind in types.items():
        value = game.get(field)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ValueError(f"game {field} missing or of the wrong type")
    for field in ("created", "updated"):
        check_time(game[field], f"game {field}")
    if not isinstance(game.get("title", ""), str) or not isinstance(game.get("result", ""), str):
        raise ValueError("game title or result is not text")


def check_time(value: float, what: str) -> float:
    """A time a table sent, or ValueError: finite, from 1970 to the year 5000."""
    if not math.isfinite(value) or not 0 <= value < LATEST_TIME:
        raise ValueError(f"{what} {str(value)[:20]!r} is not a time")
    return float(value)


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """ValueError when ``value`` nests lists and objects deeper than ``limit``; walked level by
    level without recursion (so the check cannot hit the recursion limit itself), looking only at
    containers: a 1 MiB state takes 14 ms, not the 47 ms of a walk of every value, and the hub's
    listener holds Python's lock for it while viewers wait."""
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            raise ValueError(f"nested deeper than {limit}")
        inner: list[Any] = []
        for item in level:
            for child in item.values() if isinstance(item, dict) else item:
                if isinstance(child, (dict, list)):
                    inner.append(child)
        level = inner


def check_key(key: Any, table: str) -> None:
    """A game key of ``table`` (``table-store-game``), or ValueError: states, records and events
    name only their own table's games."""
    if not isinstance(key, str) or not re.fullmatch(re.escape(table) + r"-[^-/]+-[0-9]+", key):
        raise ValueError(f"game key {str(key)[:40]!r} is not one of table {table}'s")


def check_sent(sent: Any) -> float | None:
    """The table's send time (None: not given), or ValueError: a finite number. Text used to raise
    out of the hub with a traceback, and inf/nan froze the table's state (none is newer than inf)."""
    if sent is None:
        return None
    if isinstance(sent, bool) or not isinstance(sent, (int, float)) or not math.isfinite(sent):
        raise ValueError(f"sent {str(sent)[:20]!r} is not a finite time")
    return check_time(sent, "sent")


def evening_of(timestamp: float) -> str:
    """The evening a game belongs to: its local date, with play after midnight (until 6:00) counted
    to the evening before."""
    return time.strftime("%Y-%m-%d", time.localtime(timestamp - 6 * 3600))


# A message this big (bytes) is parsed and checked in the hub's worker process, and its stored
# state is parsed there only (to build its card, hub_web): a 1 MiB state held Python's lock in the
# pages' process for 150-270 ms (decode, depth walk, re-encode), and every viewer who came then
# waited (/panel p99 157 ms with 20 viewers, benchmarks/club_panel.py).
HEAVY_OVER = 64 * 1024


def examine(table: str, what: str, payload: bytes) -> dict[str, Any]:
    """What the hub keeps of one message of ``table`` on its ``what`` topic, or ValueError: the
    checks of :meth:`HubStore.receive`, free of the store (so the worker process can run them).
    Only small values and texts come back: no parsed state crosses back into the pages' process."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"{len(payload)} bytes, over {MAX_PAYLOAD}")
    text = payload.decode("utf-8")  # strictly: json.loads would take UTF-16 and store it raw
    try:
        body = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH}") from None
    check_depth(body)
    if not isinstance(body, dict) or not isinstance(body.get("id"), str):
        raise ValueError("not an object with an id")
    message_id = body["id"]
    if not message_id.startswith(f"{table}:"):  # ':' is never in a table's name
        raise ValueError(f"message id {message_id[:40]!r} is not one of table {table}'s")
    kept: dict[str, Any] = {"id": message_id, "sent": check_sent(body.get("sent")), "text": text}
    if what in ("state", "record"):
        game = body["game"]
        check_game(game, table)
        players: list[str] = []
        winners: list[str] = []
        if what == "record" and game["status"] == "finished":  # else a win taken back: not replayed
            players, winners = outcome(str(game["kind"]), dict(game["setup"]), list(game["actions"]))
        kept.update(game_text=json.dumps(game, ensure_ascii=False), status=str(game["status"]),
                    updated=float(game["updated"]), key=str(game["key"]), kind=str(game["kind"]),
                    result=str(game.get("result", "")), players=players, winners=winners,
                    game=game if len(payload) <= HEAVY_OVER else None)
    else:
        if "game" in body:  # an event about a game: one of this table's
            check_key(body["game"], table)
        kept["game_key"] = str(body.get("game", ""))
    return kept


class HubStore:
    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(records)")}
        if "status" not in columns:  # a store from before withdrawn wins: every record was finished
            self._db.execute("ALTER TABLE records ADD COLUMN status TEXT NOT NULL DEFAULT 'finished'")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "version" not in columns:
            self._db.execute("ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
        self._db.execute(
            "CREATE TRIGGER IF NOT EXISTS state_version AFTER UPDATE OF state ON tables"
            " BEGIN UPDATE tables SET version = OLD.version + 1 WHERE name = NEW.name; END")
        self._lock = threading.Lock()
        # The pages read through a connection of their own: in WAL mode a reader never waits for a
        # writer, so a viewer's /panel never waits while a 1 MiB state is written and synced
        # (it did: 0.3-0.6 s for the viewers who came meanwhile). A store in memory has one.
        self._reader = self._db
        if str(path) != ":memory:":
            self._reader = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._read_lock = threading.Lock() if self._reader is not self._db else self._lock
        self.listeners: list[Callable[[str], None]] = []
        # name -> (its row's version, the state's text, its game or None, why it cannot be shown, a
        # short digest): a state is parsed once per change, not once per /panel
        self._states: dict[str, tuple[int, str, dict[str, Any] | None, str, str]] = {}
        self.worker = HeavyWorker()  # parses messages over HEAVY_OVER (see app.club.worker)

    def close(self) -> None:
        self.worker.close()
        with self._read_lock:
            self._reader.close()
        with self._lock:
            self._db.close()

    def receive(self, topic: str, payload: bytes) -> bool:
        """Keep one message; False when it was a repeat or unusable (logged, one line)."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != TOPIC_ROOT or parts[2] not in ("state", "event", "record"):
            log.warning("hub: ignored a message on %s (not table99/<table>/state|event|record)", topic)
            return False
        table, what = parts[1], parts[2]
        try:
            if len(payload) > HEAVY_OVER:  # the listener's thread waits; the pages go on meanwhile
                kept = self.worker.run(examine, table, what, payload)
            else:
                kept = examine(table, what, payload)
        except Exception as exc:
            log.warning("hub: ignored a message from table %r on %s: %s", table, topic,
                        " ".join(str(exc).split())[:160])
            return False
        now = time.time()
        message_id, sent_at = kept["id"], kept["sent"]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute("INSERT OR IGNORE INTO messages(id, topic, received) VALUES (?,?,?)",
                                       (message_id, topic, now))
                if cur.rowcount == 0:
                    self._db.execute("COMMIT")
                    return False
                self._db.execute("INSERT OR IGNORE INTO tables(name, heard) VALUES (?, ?)", (table, now))
                self._db.execute("UPDATE tables SET heard=? WHERE name=?", (now, table))
                sent = now if sent_at is None else sent_at
                if what == "state":
                    state_text = kept["game_text"]
                    stored = self._db.execute(
                        "UPDATE tables SET state=?, state_sent=? WHERE name=? AND"
                        " (state_sent IS NULL OR state_sent <= ?)",
                        (state_text, sent, table, sent)).rowcount
                    if stored:  # parsed and checked just now: the page need not parse it again
                        (version,) = self._db.execute("SELECT version FROM tables WHERE name=?",
                                                      (table,)).fetchone()  # (a heavy one: never here)
                        self._states[table] = (version, state_text, kept["game"], "", _digest(state_text))
                    if kept["status"] != "finished":  # a newer word than its record: no longer won
                        self._db.execute(
                            "UPDATE records SET status=?, finished=?, received=?"
                            " WHERE game=? AND finished < ?",
                            (kept["status"], kept["updated"], now, kept["key"], kept["updated"]))
                elif what == "event":
                    self._db.execute(
                        "INSERT INTO events(id, table_name, game, body, sent, received) VALUES (?,?,?,?,?,?)",
                        (message_id, table, kept["game_key"], kept["text"], sent, now))
                else:
                    finished = kept["updated"]
                    # a corrected game replaces its record, but a late resend of an older version
                    # (taken by a broker that then died) never replaces a newer one
                    # (a record of a game no longer finished is kept too, uncounted: it takes the win back)
                    self._db.execute(
                        "INSERT INTO records(game, table_name, kind, evening, players, winners,"
                        " result, record, message, finished, received, status)"
                        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
                        " ON CONFLICT(game) DO UPDATE SET table_name=excluded.table_name,"
                        " kind=excluded.kind, evening=excluded.evening, players=excluded.players,"
                        " winners=excluded.winners, result=excluded.result, record=excluded.record,"
                        " message=excluded.message, finished=excluded.finished, received=excluded.received,"
                        " status=excluded.status WHERE excluded.finished >= records.finished",
                        (kept["key"], table, kept["kind"], evening_of(finished),
                         json.dumps(kept["players"], ensure_ascii=False),
                         json.dumps(kept["winners"], ensure_ascii=False), kept["result"], kept["game_text"],
                         message_id, finished, now, kept["status"]))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        for listener in list(self.listeners):
            try:
                listener(table)
            except Exception:
                log.exception("a hub listener failed")
        return True

    # -- reading ----------------------------------------------------------------------------------
    def tables(self) -> list[dict[str, Any]]:
        """Every table: ``name``, ``game`` (its live state, or None), ``heard``, ``problem`` (why its
        stored state cannot be shown, "" if it can), ``version`` (changes with the state: the page
        caches what it builds from a state under it), ``size`` and ``text`` (the state as stored:
        a big one's card is built in a worker process, which is sent the text, not the objects).
        A state is read and parsed only when its row's ``version`` moved (a trigger counts every
        change): a 1 MiB state is not read for every viewer's /panel."""
        with self._read_lock:
            rows = self._reader.execute("SELECT name, version, heard FROM tables ORDER BY name").fetchall()
            result = []
            for name, version, heard in rows:
                cached = self._states.get(name)
                if cached is None or cached[0] != version:
                    (text,) = self._reader.execute("SELECT state FROM tables WHERE name=?",
                                                   (name,)).fetchone()
                    # a heavy state is parsed (and checked) only where its card is built, in the
                    # worker process (hub_web): never in the pages' process
                    heavy = len(text) > HEAVY_OVER
                    cached = (version, text, None, "", _digest(text)) if heavy else (version, text,
                                                                                      *_parse_state(text))
                    self._states[name] = cached
                _, text, game, problem, digest = cached
                result.append({"name": name, "game": game, "heard": heard, "problem": problem,
                               "version": digest, "size": len(text), "text": text})
            for gone in set(self._states) - {r[0] for r in rows}:
                del self._states[gone]
        return result

    def evenings(self) -> list[str]:
        with self._read_lock:
            rows = self._reader.execute("SELECT DISTINCT evening FROM records WHERE status='finished'"
                                    " ORDER BY evening DESC").fetchall()
        return [r[0] for r in rows]

    def records(self, evening: str | None = None) -> list[dict[str, Any]]:
        """The finished games (of one evening, or all): a game whose win was taken back is not one."""
        with self._read_lock:
            rows = self._reader.execute(
                "SELECT game, table_name, kind, evening, players, winners, result, finished FROM records"
                " WHERE status='finished' AND (? IS NULL OR evening = ?) ORDER BY finished",
                (evening, evening)).fetchall()
        return [{"game": r[0], "table": r[1], "kind": r[2], "evening": r[3], "players": json.loads(r[4]),
                 "winners": json.loads(r[5]), "result": r[6], "finished": r[7]} for r in rows]

    def record_messages(self, table: str, limit: int = 500) -> list[str]:
        """The ids of the record messages heard from ``table`` (the newest ``limit``): the hub's
        confirmation, so the table stops sending them again."""
        with self._lock:
            rows = self._db.execute("SELECT id FROM messages WHERE topic=? ORDER BY received DESC LIMIT ?",
                                    (f"{TOPIC_ROOT}/{table}/record", limit)).fetchall()
        return [r[0] for r in rows]

    def count(self, what: str) -> int:
        if what not in ("messages", "records", "events", "tables"):
            raise ValueError(what)
        with self._lock:
            (n,) = self._db.execute(f"SELECT COUNT(*) FROM {what}").fetchone()
        return int(n)


KINDS = ("parlett", "board99", "count99")


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _parse_state(text: str) -> tuple[dict[str, Any] | None, str, str]:
    """(game or None, problem, digest) of a stored state. A state an older hub kept unchecked (978
    deep, say) is a problem on that table's card, not an exception for every table's page."""
    digest = _digest(text)
    try:
        game = json.loads(text)
        check_depth(game)
    except (ValueError, RecursionError) as exc:
        return None, f"stored state unreadable: {' '.join(str(exc).split())[:80]}", digest
    return (game if isinstance(game, dict) and game else None), "", digest


def standings(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player (matched by :func:`player_key`): games played and won per kind, and per table.

    Parlett counts rubbers, the board game and Ninety Nine count games. Sorted by total wins, then
    fewest games, then name."""
    rows: dict[str, dict[str, Any]] = {}
    for rec in records:
        winners = {player_key(w) for w in rec["winners"]}
        for name in rec["players"]:
            key = player_key(name)
            row = rows.setdefault(key, {"player": " ".join(name.split()), "played": dict.fromkeys(KINDS, 0),
                                        "won": dict.fromkeys(KINDS, 0), "tables": {}})
            row["played"][rec["kind"]] = row["played"].get(rec["kind"], 0) + 1
            won = key in winners
            row["won"][rec["kind"]] = row["won"].get(rec["kind"], 0) + int(won)
            per_table = row["tables"].setdefault(rec["table"], {"played": 0, "won": 0})
            per_table["played"] += 1
            per_table["won"] += int(won)
    result = list(rows.values())
    for row in result:
        row["wins"] = sum(row["won"].values())
        row["games"] = sum(row["played"].values())
    result.sort(key=lambda r: (-r["wins"], r["games"], r["player"].casefold()))
    return result


# The broker line, as a template and its values: the log writes it in English, the hub's page in
# the viewer's language (app/locale/de/club.json; tests/test_club_hub_web.py checks every one).
CONNECTING = "hub: connecting to the broker"
REFUSED = "hub: the broker refused the hub: {reason}"
LISTENING = "hub: listening on {address}"
AWAY = "hub: the broker is away ({reason}); reconnecting"
STATUS_TEMPLATES = (CONNECTING, REFUSED, LISTENING, AWAY)


class HubListener:
    """The hub's MQTT client: a persistent session (the broker keeps QoS 1 messages while the hub
    is away), subscribed to every table's state, events and records."""

    def __init__(self, store: HubStore, host: str, port: int, username: str = "", password: str = "",
                 tls_ca: str = "", client_id: str = "table99-hub") -> None:
        import paho.mqtt.client as mqtt

        self.store = store
        self.status_parts: tuple[str, dict[str, str]] = (CONNECTING, {})
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        if username:
            self.client.username_pw_set(username, password)
        if tls_ca:
            import ssl

            self.client.tls_set(ca_certs=tls_ca, cert_reqs=ssl.CERT_REQUIRED)
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.on_disconnect = self._disconnected
        self.subscribed = threading.Event()  # the broker granted the subscriptions (tests wait on it)
        self.client.on_subscribe = lambda *_args: self.subscribed.set()
        self._host, self._port = host, port

    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.status_parts = (REFUSED, {"reason": str(reason)})
            log.warning("%s", self.status)
            return
        self.status_parts = (LISTENING, {"address": f"{self._host}:{self._port}"})
        client.subscribe([(f"{TOPIC_ROOT}/+/{what}", 1) for what in ("state", "event", "record")])

    def _disconnected(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.status_parts = (AWAY, {"reason": str(reason)})

    @property
    def status(self) -> str:
        """The broker line in English, for the log and the tests."""
        template, values = self.status_parts
        return template.format(**values)

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            self.store.receive(message.topic, message.payload)
            parts = message.topic.split("/")
            if len(parts) == 3 and parts[2] == "record":  # confirm, a repeat too (its sender missed it)
                ids = self.store.record_messages(parts[1])
                client.publish(ack_topic(parts[1]), json.dumps({"records": ids}), qos=1, retain=True)
        except Exception:  # never lose the connection over one message
            log.exception("hub: could not keep a message on %s", message.topic)

    def start(self) -> HubListener:
        self.client.connect_async(self._host, self._port, keepalive=30)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
