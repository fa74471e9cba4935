"""Live views pushed to the pages that watch a game, one Server-Sent Events stream per page.

Every committed change reaches the server's loop as a game id; :class:`Hub` rebuilds that game's
view once per change and language (from the committed record, :mod:`app.games.views`) and pushes it
to every stream watching it. Each event carries the whole view and its id is a hash of it, so a page
that reconnects sends ``Last-Event-ID`` and gets the view again only if it changed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import threading
from collections import defaultdict
from typing import Any

from aiohttp import web

from app.games.live import LiveTable
from app.games.views import LANGUAGES, Tr, build_view, count99_cards, pending_text
from app.pages import SECURITY_HEADERS, choose_language
from app.web.guards import GAME_NUMBER

KEEPALIVE = 15.0
PUBLISH_DELAY = 0.005  # coalesces a burst of commits (a round's end and the next start) into one view
# An event stream's response (the game's page and the phones' pages): never cached, never held back
# by a buffering proxy, with the pages' security headers.
EVENT_STREAM_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                        "X-Accel-Buffering": "no", **SECURITY_HEADERS}


async def begin_event_stream(response: web.StreamResponse, request: web.Request) -> None:
    """Sends an event stream's headers and asks the browser to reconnect 1.5 s after a drop."""
    await response.prepare(request)
    await response.write(b"retry: 1500\n\n")


class Stream:
    """One open event stream: holds only the newest message (every message is a whole view)."""

    def __init__(self, key: str, lang: str, client: str) -> None:
        self.key, self.lang, self.client = key, lang, client
        self.last_id: str | None = None
        self.offered = 0  # messages offered by changes (sent or not): see WebServer.events
        self._message: bytes | None = None
        self._ready = asyncio.Event()
        self.closed = False

    def push(self, event_id: str, message: bytes) -> None:
        self.offered += 1
        if event_id == self.last_id:
            return
        self.last_id = event_id
        self._message = message  # an older message not yet sent is replaced: it is out of date
        self._ready.set()

    def close(self) -> None:
        self.closed = True
        self._ready.set()

    async def next(self, timeout: float) -> bytes | None:
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            return b": keepalive\n\n"
        self._ready.clear()
        message, self._message = self._message, None
        return message


class Hub:
    """Views of the games being watched, rebuilt after each commit and pushed to their streams."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live
        self.streams: dict[tuple[str, str], set[Stream]] = defaultdict(set)
        self.current: int | None = None
        self._dirty: set[int] = set()
        self._flushing = False
        self.published = 0  # views pushed (for the benchmark)
        self.commit_times: dict[int, float] = {}  # game id -> perf_counter of the last commit seen
        # (game id, language) -> (event id, message, data): built once per change, not per connection
        self._cache: dict[tuple[int | None, str], tuple[str, bytes, str]] = {}
        self._generation: dict[int | None, int] = defaultdict(int)  # bumped by each change
        # (game id, language) -> the committed game's view: a change of the in-between state alone
        # (pegs settling) re-sends it with the new state but does not replay the record again
        self._views: dict[tuple[int | None, str], dict[str, Any]] = {}
        self._view_generation: dict[int | None, int] = defaultdict(int)  # bumped by each commit
        self._cache_lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once it serves
        self._data_version: int | None = None  # the store's PRAGMA data_version at the last look
        self.built = 0  # views built (for the tests and the benchmark)
        self.changes = 0  # commits this loop has heard of (for the tests)

    def count(self) -> int:
        return sum(len(s) for s in self.streams.values())

    def per_client(self, client: str) -> int:
        return sum(1 for group in self.streams.values() for s in group if s.client == client)

    def current_game(self) -> int | None:
        if self.current is not None:
            return self.current
        games = self.live.store.unfinished() or self.live.store.games(limit=1)
        return games[0].id if games else None

    def show(self, game_id: int | None) -> None:
        """In this loop: the game /live follows is now ``game_id`` (None: keep the one it follows)."""
        if game_id is None or game_id == self.current:
            return
        self.current = game_id
        self._dirty.add(game_id)
        self._schedule()

    def changed(self, game_id: int, shown: int | None = None, follow: bool = False) -> None:
        """In this loop, after a commit: coalesce, then rebuild once. ``shown``: the game the table's
        screen has open; ``follow``: (no screen) this game is unfinished, so /live moves to it. A
        commit alone never moves /live (a correction to an old rubber, a draft, a deletion)."""
        self.changes += 1
        exists = self._exists(game_id)
        if shown is not None:
            self.current = shown
        elif follow:
            self.current = game_id
        elif game_id == self.current and not exists:
            self.current = None  # deleted: fall back to the newest unfinished game
        self.invalidate(game_id)
        if not exists:  # deleted (ids are never reused): nothing of it kept
            self.forget(game_id)
        self._dirty.add(game_id)
        if self.current is not None:
            self._dirty.add(self.current)
        self._schedule()

    def invalidate(self, game_id: int, committed: bool = True) -> None:
        """Forget the built views of ``game_id`` (any thread: the store's listener calls it at once,
        so no page is ever served a view older than the last commit). ``committed=False``: only the
        in-between state changed; the committed view is kept."""
        with self._cache_lock:
            for gid in (game_id, None):  # "no game yet" may have become a game
                self._generation[gid] += 1
                if committed:
                    self._view_generation[gid] += 1
                for lang in LANGUAGES:
                    self._cache.pop((gid, lang), None)
                    if committed:
                        self._views.pop((gid, lang), None)

    def outside_changes(self) -> bool:
        """Whether another process (``table99 play`` beside ``table99 web``, a second GameStore on the
        same file) has committed to the store since the last look; if so every kept view is dropped.
        Its commits call no listener of ours: SQLite's ``PRAGMA data_version`` tells, and costs no
        disk read (our own connection's commits do not change it; the listener covers those)."""
        version = self.live.store.read("PRAGMA data_version")[0][0]
        with self._cache_lock:
            if version == self._data_version:
                return False
            first, self._data_version = self._data_version is None, version
            if first:
                return False
            for gid in set(self._generation) | set(self._view_generation) | {None}:
                self._generation[gid] += 1
                self._view_generation[gid] += 1
            self._cache.clear()
            self._views.clear()
        return True

    def outside_changed(self) -> None:
        """In this loop, after :meth:`outside_changes` said yes: every watched game's view again
        (whatever changed, the streams show it; unchanged views keep their event ids and are not
        re-sent), and /live's game again when the table has no screen telling it."""
        if self.live.open_game is None:
            games = self.live.store.unfinished()
            if games:
                self.current = games[0].id
        for key, _lang in list(self.streams):
            if key != "current" and GAME_NUMBER.fullmatch(key):
                self._dirty.add(int(key))
        if self.current is not None:
            self._dirty.add(self.current)
        self._schedule()

    def forget(self, game_id: int) -> None:
        """Drop everything kept for a deleted game. The exhibit's loop makes and deletes a demo game
        every few minutes all day: without this the counters grew by one entry per demo. A view
        being built meanwhile is not cached (its generation is gone: see :meth:`cached`)."""
        with self._cache_lock:
            self._generation.pop(game_id, None)
            self._view_generation.pop(game_id, None)
            self.commit_times.pop(game_id, None)
            for lang in LANGUAGES:
                self._cache.pop((game_id, lang), None)
                self._views.pop((game_id, lang), None)

    def transient_changed(self, game_id: int) -> None:
        """In this loop: the table's in-between state of ``game_id`` changed (nothing committed)."""
        self.invalidate(game_id, committed=False)
        self._dirty.add(game_id)
        self._schedule()

    def _exists(self, game_id: int) -> bool:
        return bool(self.live.store.read("SELECT 1 FROM games WHERE id=?", (game_id,)))  # no replay

    def _schedule(self) -> None:
        if not self._flushing:
            self._flushing = True
            # Building a view replays the record (~10 ms for a long board game) under the GIL: the
            # commit reaches this loop only after the table's frame (LiveTable.later), see docs/web.md.
            asyncio.get_running_loop().call_later(PUBLISH_DELAY, self._flush)

    def _flush(self) -> None:
        self._flushing = False
        dirty, self._dirty = self._dirty, set()
        for game_id in dirty:
            for lang in LANGUAGES:
                targets = set(self.streams.get((str(game_id), lang), ()))
                if game_id == self.current:
                    targets |= self.streams.get(("current", lang), set())
                if targets:  # right after a commit or a look at the store: no need to ask it again
                    event_id, message, _data = self.cached(game_id, lang, look=False)
                    for stream in targets:
                        stream.push(event_id, message)
                    self.published += 1

    def message(self, game_id: int | None, lang: str) -> tuple[str, bytes]:
        event_id, message, _data = self.cached(game_id, lang)
        return event_id, message

    def cached(self, game_id: int | None, lang: str, look: bool = True) -> tuple[str, bytes, str]:
        """(event id, SSE message, JSON) of a view: built once per change (any thread may ask).
        ``look``: first ask the store whether another process committed (a page, a view, a new
        stream: in the executor; the loop's own pushes skip it, as the store's lock may be held by
        a commit's fsync)."""
        if look and self.outside_changes():  # a reload after another process's commit: never an old view
            loop = self.loop
            if loop is not None and not loop.is_closed():  # and the open pages hear of it too
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self.outside_changed)
        with self._cache_lock:
            hit = self._cache.get((game_id, lang))
            generation = self._generation[game_id]
        if hit is not None:
            return hit
        payload = self.payload(game_id, lang)
        self.built += 1
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        event_id = hashlib.sha256(data.encode()).hexdigest()[:20]
        entry = (event_id, f"id: {event_id}\nevent: view\ndata: {data}\n\n".encode(), data)
        with self._cache_lock:
            if self._generation.get(game_id) == generation:  # no change (nor deletion) meanwhile
                if len(self._cache) >= 256:
                    self._cache.clear()
                self._cache[(game_id, lang)] = entry
        return entry

    def payload(self, game_id: int | None, lang: str) -> dict[str, Any]:
        committed = self.committed_payload(game_id, lang)
        view = committed.get("view")
        pending = self.live.transient.get(game_id) if game_id is not None else None
        if pending and isinstance(view, dict) and view.get("kind") == "board99" and not view.get("result"):
            return {**committed, "view": {**view, "pending": pending_text(pending, Tr(lang))}}
        return committed

    def committed_payload(self, game_id: int | None, lang: str) -> dict[str, Any]:
        """The view of what the store holds: replays the record once per commit (any thread)."""
        with self._cache_lock:
            hit = self._views.get((game_id, lang))
            generation = self._view_generation[game_id]
        if hit is not None:
            return hit
        _ = Tr(lang)
        if game_id is None:
            return {"view": None, "empty": _("No game at the table yet.")}
        try:
            stored = self.live.store.load(game_id)
        except KeyError:
            return {"view": None, "empty": _("There is no game {id}.", id=game_id)}
        view = build_view(stored, _)
        if stored.kind == "count99" and not view.get("computer") and not view.get("phones") \
                and "error" not in view:  # the keeper's buttons: for a real deck only
            view["cards"] = count99_cards(stored, int(view["count"]), _)
        built = {"view": view}
        with self._cache_lock:
            if self._view_generation.get(game_id) == generation:
                if len(self._views) >= 256:
                    self._views.clear()
                self._views[(game_id, lang)] = built
        return built


class StreamRoutes:
    """The event stream's route (a part of :class:`~app.web.server.WebServer`, which owns the hub
    and the caps on streams)."""

    hub: Hub
    max_streams: int
    max_streams_per_client: int

    async def events(self, request: web.Request) -> web.StreamResponse:
        lang = choose_language(request)
        key = request.query.get("game", "current")
        if key != "current" and not GAME_NUMBER.fullmatch(key):
            return web.Response(status=400, text="game must be 'current' or a game number\n")
        client = request.remote or "?"
        if self.hub.count() >= self.max_streams or self.hub.per_client(client) >= self.max_streams_per_client:
            return web.Response(status=503, text="too many viewers\n", headers={"Retry-After": "10"})
        stream = Stream(key, lang, client)
        stream.last_id = request.headers.get("Last-Event-ID", "")[:40] or None
        group = self.hub.streams[(key, lang)]
        group.add(stream)
        response = web.StreamResponse(headers=EVENT_STREAM_HEADERS)
        try:
            await begin_event_stream(response, request)
            game_id = self.hub.current_game() if key == "current" else int(key)
            offered = stream.offered
            event_id, message = await asyncio.get_running_loop().run_in_executor(
                None, self.hub.message, game_id, lang)
            # Skipped when Last-Event-ID says the page has it, and when a change was pushed while
            # this view was being built: that one is newer (a verdict committed meanwhile), and
            # pushing this one after it would leave the page on the older view until the next change.
            if stream.offered == offered:
                stream.push(event_id, message)
            while not stream.closed:
                chunk = await stream.next(KEEPALIVE)
                if chunk:
                    await response.write(chunk)
        except ConnectionResetError:
            pass
        finally:
            group.discard(stream)
            if not group and self.hub.streams.get((key, lang)) is group:
                del self.hub.streams[(key, lang)]  # else every ?game= ever asked for keeps a group
        return response
