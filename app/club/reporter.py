"""The table reports to the club's hub: a thread that fills the outbox and publishes it (QoS 1).

The game never waits: the store's listener only puts the game id on a queue. One thread of ours
captures the game into the outbox and publishes; paho-mqtt's own thread talks to the broker and
reconnects by itself (1 s, doubling to 60 s). A row leaves the outbox only on the broker's PUBACK;
after every (re)connection everything still in the outbox is published again, in order, with the
same message id, so an hour without Wi-Fi costs nothing but the wait.
"""

from __future__ import annotations

import logging
import queue
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from app.club import ack_topic
from app.club.outbox import Outbox
from app.store import GameStore

log = logging.getLogger(__name__)
RETRY_AFTER = 5.0  # seconds before a capture that failed (the store busy) is tried again


class ClubReporter:
    def __init__(self, store: GameStore, options: Mapping[str, Any],
                 on_status: Callable[[str], None] | None = None, window: int = 100) -> None:
        import paho.mqtt.client as mqtt  # the club extra; imported only when the club is on

        self.store = store
        self.table = str(options["table"])
        self.outbox = Outbox(store.path, self.table)
        self.status = "club: connecting to the hub's broker"
        self._on_status = on_status
        self._window = window
        self._wake: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._confirms: queue.SimpleQueue[list[str]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._connected = False
        self._generation = 0  # bumped on every (re)connection: publish everything again
        self._stop = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=f"table99-{self.table}-{self.outbox.store_id}",
                                  clean_session=True)
        if options.get("username"):
            self.client.username_pw_set(str(options["username"]), str(options.get("password", "")))
        if options.get("tls_ca"):
            self.client.tls_set(ca_certs=str(options["tls_ca"]), cert_reqs=ssl.CERT_REQUIRED)
        self.client.reconnect_delay_set(1, 60)
        self.client.max_inflight_messages_set(window)
        self.client.on_connect = self._connected_cb
        self.client.on_disconnect = self._disconnected_cb
        self.client.on_publish = self._published_cb
        self.client.on_message = self._message_cb
        self._host, self._port = str(options["host"]), int(options["port"])
        self._thread = threading.Thread(target=self._run, name="club-reporter", daemon=True)

    # -- the game's side: quick, never raises ------------------------------------------------------
    def _on_commit(self, game_id: int) -> None:
        self._wake.put(game_id)

    def start(self) -> ClubReporter:
        self.store.add_listener(self._on_commit)
        self.client.connect_async(self._host, self._port, keepalive=30)
        self.client.loop_start()
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self.store.remove_listener(self._on_commit)
        self._stop.set()
        self._wake.put(None)
        self._thread.join(timeout)
        self.client.disconnect()
        self.client.loop_stop()
        self.outbox.close()

    def _say(self, text: str) -> None:
        if text != self.status:
            self.status = text
            log.info("%s", text)
            if self._on_status is not None:
                try:
                    self._on_status(text)
                except Exception:
                    log.exception("the club status listener failed")

    # -- paho's thread ---------------------------------------------------------------------------
    def _connected_cb(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self._say(f"club: the broker refused table {self.table!r}: {reason}")
            return
        with self._lock:
            self._connected = True
            self._generation += 1
        self._say(f"club: reporting to {self._host}:{self._port} as table {self.table!r}")
        client.subscribe(ack_topic(self.table), qos=1)
        self._wake.put(-1)

    def _disconnected_cb(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self._lock:
            self._connected = False
        if not self.status.startswith("club: the broker refused"):
            self._say(f"club: the hub's broker is away ({reason}); results are kept and sent later")

    def _published_cb(self, client: Any, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        self._acks.put(mid)

    def _message_cb(self, client: Any, userdata: Any, message: Any) -> None:
        """The hub's confirmation: the message ids of the records it keeps from this table."""
        import json

        try:
            ids = json.loads(message.payload)["records"]
            if isinstance(ids, list):
                self._confirms.put([str(i) for i in ids])
        except (ValueError, KeyError, TypeError):
            log.warning("club: ignored an unreadable confirmation on %s", message.topic)

    # -- our thread: capture, publish, mark delivered ----------------------------------------------
    def _run(self) -> None:
        inflight: dict[int, int] = {}  # mid -> outbox row
        retry: dict[int, float] = {}  # game id -> when to try its capture again (the store was busy)
        sent_up_to = 0
        generation = 0
        for summary in self.store.games(limit=10_000):  # anything changed while we were off
            if summary.updated >= self.outbox.since:
                self._wake.put(summary.id)
        while not self._stop.is_set():
            try:
                first = self._wake.get(timeout=0.2)
            except queue.Empty:
                first = -1
            ids = {first}
            while True:
                try:
                    ids.add(self._wake.get_nowait())
                except queue.Empty:
                    break
            if None in ids:
                break
            now = time.monotonic()
            ids |= {g for g, when in retry.items() if when <= now}
            for game_id in sorted(i for i in ids if i is not None and i >= 0):
                retry.pop(game_id, None)
                try:
                    self.outbox.capture(self.store.load(game_id))
                except KeyError:
                    pass  # deleted meanwhile
                except Exception as exc:  # e.g. the database busy: try again, nothing is lost meanwhile
                    log.warning("club: could not capture game %s (%s); trying again in %.0f s", game_id,
                                " ".join(str(exc).split())[:120], RETRY_AFTER)
                    retry[game_id] = now + RETRY_AFTER
            done = []
            while True:
                try:
                    mid = self._acks.get_nowait()
                except queue.Empty:
                    break
                if mid in inflight:
                    done.append(inflight.pop(mid))
            self.outbox.delivered(done)
            while True:
                try:
                    self.outbox.confirmed(self._confirms.get_nowait())
                except queue.Empty:
                    break
            with self._lock:
                connected, now_generation = self._connected, self._generation
            if not connected:
                continue
            self.outbox.resend_due()
            if now_generation != generation:  # a new connection: everything unacknowledged again
                generation, sent_up_to = now_generation, 0
                inflight.clear()
            room = self._window - len(inflight)
            if room <= 0:
                continue
            for message in self.outbox.pending(limit=room, after=sent_up_to):
                info = self.client.publish(message.topic, message.payload, qos=1, retain=message.retain)
                if info.rc != 0:
                    break  # the connection went meanwhile; the next connection sends it again
                inflight[info.mid] = message.row
                sent_up_to = message.row
