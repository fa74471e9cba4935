"""The web display: an aiohttp server in its own thread and asyncio loop, beside Kivy's.

* It learns of every committed change from the store (:meth:`GameStore.add_listener`, called in
  the committing thread: it only hands the game id to this loop), rebuilds that game's view from the
  committed record (:mod:`app.web.views`) and pushes it to the pages that watch it as a Server-Sent
  Event. Each event carries the whole view, and its id is a hash of it, so a page that reconnects
  (the Pi restarted, the Wi-Fi dropped) sends ``Last-Event-ID`` and gets the view again only if it
  changed meanwhile.
* A paired browser's change is queued to the app's main thread (:meth:`LiveTable.submit`) and runs
  through the table's own session (:mod:`app.web.commands`); the page waits for the result.
* Security model (docs/web.md): every page and stream needs the view token in its path; every
  change needs a paired device's cookie, its CSRF token in a header, a same-origin ``Origin`` (or
  ``Sec-Fetch-Site``), and a JSON body under ``MAX_BODY`` bytes. Streams are capped overall and per
  client address, requests in flight too, so a flood gets 503s and the main thread is never asked
  for more than one queued command at a time per request.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import json
import logging
import re
import socket
import threading
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from app.live import LiveTable
from app.web import commands
from app.web.pairing import COOKIE, Access, Device, PairingError
from app.web.views import LANGUAGES, Tr, build_view, game_title, status_text

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024
KEEPALIVE = 15.0
COMMAND_TIMEOUT = 5.0  # waiting for the main thread to take a command
COMMAND_WAIT_MORE = 30.0  # then, once it has started it, for its answer
PUBLISH_DELAY = 0.005  # coalesces a burst of commits (a round's end and the next start) into one view
LANG_COOKIE = "t99lang"
GAME_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() also takes "²" and "١٢٣"
KEEPALIVE_TIMEOUT = 10.0  # an idle keep-alive connection is closed after this many seconds
# Bound to every network, the address in the QR code is worked out in the server's thread when it
# starts and again this often (a new DHCP lease, the Wi-Fi back): never on Kivy's main thread, where
# a name lookup without DNS can block the screen for seconds (the loop asks at every demo).
ADDRESS_REFRESH = 300.0


class WebError(Exception):
    """The server could not start (port taken, address not on this machine): one line."""


# ---------------------------------------------------------------------------------------------
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
                if targets:
                    event_id, message = self.message(game_id, lang)
                    for stream in targets:
                        stream.push(event_id, message)
                    self.published += 1

    def message(self, game_id: int | None, lang: str) -> tuple[str, bytes]:
        event_id, message, _data = self.cached(game_id, lang)
        return event_id, message

    def cached(self, game_id: int | None, lang: str) -> tuple[str, bytes, str]:
        """(event id, SSE message, JSON) of a view: built once per change (any thread may ask)."""
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
        if stored.kind == "count99" and not view.get("computer") and "error" not in view:
            view["cards"] = count99_cards(stored, int(view["count"]))
        built = {"view": view}
        with self._cache_lock:
            if self._view_generation.get(game_id) == generation:
                if len(self._views) >= 256:
                    self._views.clear()
                self._views[(game_id, lang)] = built
        return built


HELD_WORDS = {"play": "PLAY", "draw": "DRAW", "discard": "DISCARD", "dead-hand": "DEAD HAND"}


def pending_text(state: dict[str, Any], _: Tr) -> str:
    """The table's in-between state in the viewer's language, as the table's screen words it:
    "Wait: the pegs are settling. Then: Ben: PLAY 50.", "Ben (computer) is choosing. Then: DRAW." """
    parts = []
    if state.get("thinking"):  # a computer is choosing: a tap made meanwhile waits for its move
        parts.append(_("{name} (computer) is choosing.", name=str(state["thinking"])))
    if state.get("settling"):
        parts.append(_("Wait: the pegs are settling") + ".")
    held = []
    for item in state.get("held") or ():
        what = _(HELD_WORDS.get(str(item.get("kind")), "PLAY"))
        if item.get("card") is not None:
            what = f"{what} {int(item['card'])}"
        if item.get("by"):
            what = _("{name}: {what}", name=str(item["by"]), what=what)
        held.append(what)
    if held:
        parts.append(_("Then: {what}.", what=", ".join(held)))
    return " ".join(parts)


def count99_cards(stored: Any, count: int) -> list[dict[str, Any]]:
    """The card buttons of the keeper (a paired phone taps them): names and Ace/10 choices now."""
    from rules.count99.cards import CARD_NAMES, choices_for
    from rules.count99.record import setup_from_record

    setup = setup_from_record(stored.setup)
    return [{"card": c, "choices": list(choices_for(setup.variant, c, count))}
            for c in CARD_NAMES[setup.variant]]


# ---------------------------------------------------------------------------------------------
def choose_language(request: web.Request) -> str:
    asked = request.query.get("lang")
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGUAGES:
        return cookie
    best, best_q = "en", -1.0
    for part in request.headers.get("Accept-Language", "")[:200].split(","):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()[:2]
        q = 1.0
        for bit in bits[1:]:
            if bit.strip().startswith("q="):
                try:
                    q = float(bit.strip()[2:])
                except ValueError:
                    q = 0.0
        if tag in LANGUAGES and q > best_q:
            best, best_q = tag, q
    return best


SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                                "form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token is in the address: never sent anywhere
    "X-Frame-Options": "DENY",
}


class WebServer:
    """Start with :meth:`start` (returns once listening, or raises WebError); :meth:`stop` ends it."""

    def __init__(self, live: LiveTable, access: Access, host: str = "127.0.0.1", port: int = 8099, *,
                 max_streams: int = 250, max_streams_per_client: int = 40, max_requests: int = 64,
                 public_host: str = "") -> None:
        self.live, self.access = live, access
        self.host, self.port = host, port
        self.max_streams, self.max_streams_per_client = max_streams, max_streams_per_client
        self.max_requests = max_requests
        self.public_host = public_host
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        self._in_flight = 0
        self.hub = Hub(live)
        self.address_refresh = ADDRESS_REFRESH
        self._lan: str | None = None  # lan_address(), kept by the server's thread (see ADDRESS_REFRESH)

    # -- the thread ------------------------------------------------------------------------------
    def start(self) -> None:
        ready = threading.Event()
        problem: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._serve(ready))
            except BaseException as exc:
                problem.append(exc)
                ready.set()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="table99-web", daemon=True)
        self._thread.start()
        ready.wait(30)
        if problem:
            exc = problem[0]
            raise WebError(f"the web display cannot listen on {self.host}:{self.port}: "
                           f"{getattr(exc, 'strerror', None) or exc}") from exc
        self.live.store.add_listener(self._on_commit)
        self.live.show_listeners.append(self._on_show)
        self.live.transient_listeners.append(self._on_transient)
        self.live.web = self
        if self.live.open_game is not None:  # the game the table's screen has open now
            self.live.later(self.live.screen_changed)

    def stop(self) -> None:
        self.live.store.remove_listener(self._on_commit)
        if self._on_show in self.live.show_listeners:
            self.live.show_listeners.remove(self._on_show)
        if self._on_transient in self.live.transient_listeners:
            self.live.transient_listeners.remove(self._on_transient)
        if self.live.web is self:
            self.live.web = None
        loop, stopped = self._loop, self._stopped
        if loop is not None and stopped is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopped.set)
        if self._thread is not None:
            self._thread.join(10)

    def _on_commit(self, game_id: int) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            self.hub.commit_times[game_id] = time.perf_counter()
            self.live.committed(game_id)  # the old in-between state never rides on the new view
            self.hub.invalidate(game_id)
            def tell() -> None:  # on the main thread (LiveTable.later), once the table has drawn
                open_game = self.live.open_game
                shown = open_game() if open_game is not None else None
                follow = open_game is None and any(g.id == game_id for g in self.live.store.unfinished())
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is watching
                    loop.call_soon_threadsafe(self.hub.changed, game_id, shown, follow)

            self.live.later(tell)  # once the table has drawn its verdict

    def _on_transient(self, game_id: int) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.hub.transient_changed, game_id)

    def _on_show(self, game_id: int | None) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.hub.show, game_id)

    async def _serve(self, ready: threading.Event) -> None:
        self._stopped = asyncio.Event()
        app = self.make_app()
        # handler_cancellation: a stream whose page went away ends at once, not at its next keepalive write
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True,
                               keepalive_timeout=KEEPALIVE_TIMEOUT)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, backlog=128, reuse_address=True)
        await site.start()
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        keeper: asyncio.Task[None] | None = None
        if self._every_network():
            await self._refresh_address()  # before start() returns: the first QR code has it
            keeper = asyncio.create_task(self._keep_address())
        ready.set()
        log.info("web display on http://%s:%s/v/<token>/", self.host, self.port)
        await self._stopped.wait()
        if keeper is not None:
            keeper.cancel()
        for group in list(self.hub.streams.values()):
            for stream in list(group):
                stream.close()
        await runner.cleanup()
        # A view still being built in the executor reads the store: wait for it, so once stop() has
        # returned nothing of this server reads the store (the exhibit closes its scratch store next).
        await asyncio.get_running_loop().shutdown_default_executor()

    async def _refresh_address(self) -> None:
        try:  # in the executor: the name lookup may block, the server's loop goes on serving
            self._lan = await asyncio.get_running_loop().run_in_executor(None, lan_address)
        except Exception:  # the old address (or none) stays; the next round tries again
            log.exception("the web display's address could not be worked out")

    async def _keep_address(self) -> None:
        while True:
            await asyncio.sleep(self.address_refresh)
            await self._refresh_address()

    # -- addresses for the table's screen ----------------------------------------------------------
    def _every_network(self) -> bool:
        return (self.public_host or self.host) in ("0.0.0.0", "::", "")

    def base_url(self) -> str:
        """The address phones use. Bound to every network: the machine's LAN address as the
        server's thread last worked it out (the table's screen asks often, on Kivy's main thread);
        asked here only for a server not started (``table99 web`` printing its address)."""
        host = self.public_host or self.host
        if self._every_network():
            host = self._lan or lan_address()
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def view_url(self) -> str:
        return f"{self.base_url()}/v/{self.access.token}/live"

    def pair_url(self, code: str) -> str:
        return f"{self.base_url()}/v/{self.access.token}/pair?code={code}"

    # -- the application ----------------------------------------------------------------------------
    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/", self.root)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/v/{token}/", self.home)
        app.router.add_get("/v/{token}/live", self.game_page)
        app.router.add_get("/v/{token}/game/{game_id:[0-9]{1,9}}", self.game_page)
        app.router.add_get("/v/{token}/pair", self.pair_page)
        app.router.add_get("/v/{token}/events", self.events, name="events")
        app.router.add_get("/v/{token}/api/view/{key}", self.api_view)
        app.router.add_post("/v/{token}/api/pair", self.api_pair)
        app.router.add_post("/v/{token}/api/game/{game_id:[0-9]{1,9}}/{op}", self.api_change)
        return app

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        # An event stream lives as long as its page: it is capped by max_streams (in the handler), not
        # counted here, or 64 open pages would refuse every other request.
        streaming = request.match_info.route.name == "events"
        if not streaming and self._in_flight >= self.max_requests:
            return web.Response(status=503, text="busy: too many requests at once\n",
                                headers={"Retry-After": "2"})
        token = request.match_info.get("token")
        if token is not None and not self.access.token_ok(token):
            return web.Response(status=404, text="not found: use the address shown on the table's screen\n")
        counted = 0 if streaming else 1
        self._in_flight += counted
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            for name, value in SECURITY_HEADERS.items():
                exc.headers.setdefault(name, value)
            raise
        finally:
            self._in_flight -= counted
        if not response.prepared:
            for name, value in SECURITY_HEADERS.items():
                response.headers.setdefault(name, value)
        return response

    async def root(self, request: web.Request) -> web.Response:
        return web.Response(status=404,
                            text="Table99: use the address in the QR code on the table's screen.\n")

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = STATIC / name
        if "/" in name or name.startswith(".") or not path.is_file():
            return web.Response(status=404, text="not found\n")
        return web.FileResponse(path, headers={"Cache-Control": "max-age=300"})

    # -- pages -------------------------------------------------------------------------------------------
    def _device(self, request: web.Request) -> Device | None:
        return self.access.device_for(request.cookies.get(COOKIE))

    def _page(self, request: web.Request, lang: str, title: str, body: str,
              boot: dict[str, Any]) -> web.Response:
        _ = Tr(lang)
        tv = "tv" in request.query
        token = request.match_info["token"]
        other = "de" if lang == "en" else "en"
        switch = language_switch(request.query, other)
        boot_json = script_json(boot)
        pages = self.nav_links(token, tv, _)
        links = "".join(f'<li><a href="{href}">{words}</a></li>' for href, words in pages)
        nav = (f'<nav aria-label="{_("Pages")}"><ul>{links}'
               f'<li><a href="{switch}" lang="{other}" hreflang="{other}">'
               f'{"Deutsch" if other == "de" else "English"}</a></li></ul></nav>')
        text = html_page(lang, tv, title, skip=_("Skip to the game"), brand="Table99", nav=nav, main=body,
                         head='<script src="/static/app.js" defer></script>',
                         after=('<div id="announce" class="sr-only" role="status" aria-live="polite" '
                                f'aria-atomic="true"></div>\n<script id="boot" type="application/json">'
                                f'{boot_json}</script>'))
        response = web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})
        if request.query.get("lang") in LANGUAGES:
            response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="Strict", httponly=True)
        return response

    def nav_links(self, token: str, tv: bool, _: Tr) -> list[tuple[str, str]]:
        """(href, words) of the pages every page links to (besides the other language)."""
        return [(f"/v/{token}/live{'?tv' if tv else ''}", _("Live")), (f"/v/{token}/", _("All games"))]

    async def home(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        token = request.match_info["token"]
        games = self.live.store.games(limit=100)
        rows = []
        for g in games:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.updated))
            name = html.escape(g.title or str(g.id))
            status = html.escape(status_text(g.status, _))
            status += f" - {html.escape(g.result)}" if g.result else ""
            rows.append(f'<tr><td><a href="/v/{token}/game/{g.id}">{name}</a></td>'
                        f"<td>{html.escape(game_title(g.kind, _))}</td><td>{status}</td><td>{when}</td></tr>")
        table = (f'<table><caption>{_("Games at this table")}</caption><thead><tr>'
                 f'<th scope="col">{_("Players")}</th>'
                 f'<th scope="col">{_("Game")}</th><th scope="col">{_("Status")}</th>'
                 f'<th scope="col">{_("Last change")}</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
                 if rows else f"<p>{_('No games yet.')}</p>")
        body = (f'<h1>{_("Games at this table")}</h1><p><a class="big-link" href="/v/{token}/live">'
                f'{_("Follow the game being played now")}</a></p>{table}')
        return self._page(request, lang, _("All games"), body, {"page": "home", "lang": lang})

    async def game_page(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        raw = request.match_info.get("game_id")
        key = "current" if raw is None else str(int(raw))
        game_id = self.hub.current_game() if raw is None else int(raw)
        loop = asyncio.get_running_loop()
        event_id, message = await loop.run_in_executor(None, self.hub.message, game_id, lang)
        payload = json.loads(message.decode().split("data: ", 1)[1])
        device = self._device(request)
        token = request.match_info["token"]
        boot = {"page": "game", "key": key, "lang": lang, "token": token, "ui": ui_strings(_),
                "payload": payload, "event_id": event_id, "csrf": device.csrf if device else None,
                "device": device.name if device else None}
        title = payload["view"]["game"] if payload.get("view") else _("Live")
        body = (f'<h1 id="title">{html.escape(title)}</h1>'
                '<p id="connection" class="connection" role="status"></p>'
                '<div id="view"><noscript>' + _("This page needs JavaScript to follow the game.") +
                "</noscript></div>")
        return self._page(request, lang, title, body, boot)

    async def pair_page(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        code = request.query.get("code", "")
        code = code if re.fullmatch(r"[0-9]{6}", code) else ""
        token = request.match_info["token"]
        body = (f'<h1>{_("Pair this device")}</h1>'
                "<p>" + _("A paired device may enter Parlett deals and tap cards for the Ninety Nine keeper.")
                + "</p>"
                '<form id="pair-form">'
                f'<label for="code">{_("Pairing code from the table")}</label>'
                '<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" '
                f'pattern="[0-9]{{6}}" maxlength="6" required value="{code}">'
                f'<label for="name">{_("Name of this device")}</label>'
                f'<input id="name" name="name" maxlength="40" value="">'
                f'<button type="submit">{_("Pair")}</button></form>'
                '<p id="pair-result" role="alert"></p>')
        return self._page(request, lang, _("Pair this device"), body,
                          {"page": "pair", "lang": lang, "token": token, "ui": ui_strings(_)})

    async def api_view(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        key = request.match_info["key"]
        if key != "current" and not GAME_NUMBER.fullmatch(key):
            return web.json_response({"error": "unknown view"}, status=404)
        game_id = self.hub.current_game() if key == "current" else int(key)
        _id, _message, data = await asyncio.get_running_loop().run_in_executor(None, self.hub.cached, game_id,
                                                                                 lang)
        return web.Response(text=data, content_type="application/json", headers={"Cache-Control": "no-store"})

    # -- the event stream ---------------------------------------------------------------------------------
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
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store", "X-Accel-Buffering": "no",
                                               **SECURITY_HEADERS})
        try:
            await response.prepare(request)
            await response.write(b"retry: 1500\n\n")
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

    # -- changes -------------------------------------------------------------------------------------------
    def _cross_site(self, request: web.Request) -> str | None:
        """Why this POST is not from one of our own pages, or None."""
        origin = request.headers.get("Origin")
        fetch_site = request.headers.get("Sec-Fetch-Site")
        if origin is not None:
            if origin != f"{request.scheme}://{request.host}":
                return "cross-site request refused"
        elif fetch_site is not None:
            if fetch_site not in ("same-origin", "none"):
                return "cross-site request refused"
        else:
            return "request without Origin refused"
        if request.content_type != "application/json":
            return "the body must be JSON (Content-Type: application/json)"
        return None

    async def _json_body(self, request: web.Request) -> dict[str, Any]:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
        raw = await request.read()
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise web.HTTPBadRequest(text=json.dumps({"error": f"the body is not JSON: {str(exc)[:80]}"}),
                                     content_type="application/json") from exc
        if not isinstance(data, dict):
            raise web.HTTPBadRequest(text=json.dumps({"error": "the body must be a JSON object"}),
                                     content_type="application/json")
        return data

    async def api_pair(self, request: web.Request) -> web.Response:
        problem = self._cross_site(request)
        if problem:
            return web.json_response({"error": problem}, status=403)
        body = await self._json_body(request)
        try:
            device, cookie = self.access.pair(body.get("code"), body.get("name"), request.remote or "?")
        except PairingError as exc:
            status = 429 if "too many" in str(exc) else 403
            return web.json_response({"error": _tr_error(str(exc), choose_language(request))}, status=status)
        response = web.json_response({"ok": True, "device": device.name, "csrf": device.csrf})
        response.set_cookie(COOKIE, cookie, max_age=180 * 86400, httponly=True, samesite="Strict",
                            path=f"/v/{request.match_info['token']}/")
        log.info("web: paired device %s (%s) from %s", device.id, device.name, request.remote)
        return response

    async def api_change(self, request: web.Request) -> web.Response:
        problem = self._cross_site(request)
        if problem:
            return web.json_response({"error": problem}, status=403)
        device = self._device(request)
        if device is None:
            return web.json_response({"error": "this device is not paired (or was revoked)"}, status=401)
        if not hmac.compare_digest(request.headers.get("X-CSRF-Token", "").encode(), device.csrf.encode()):
            return web.json_response({"error": "missing or wrong CSRF token: reload the page"}, status=403)
        body = await self._json_body(request)
        game_id = int(request.match_info["game_id"])
        op = request.match_info["op"]
        try:
            kind = self.live.store.load(game_id).kind
        except KeyError:
            return web.json_response({"error": f"there is no game {game_id}"}, status=404)
        handler = commands.KINDS.get(kind)
        if handler is None:
            return web.json_response({"error": "this game is played on the board and the table's screen"},
                                     status=403)
        future = self.live.submit(lambda: handler(self.live, game_id, op, body))
        waiting = asyncio.wrap_future(future)
        try:
            try:
                # shield: a timeout must not cancel a command the main thread is already running
                result = await asyncio.wait_for(asyncio.shield(waiting), COMMAND_TIMEOUT)
            except TimeoutError:
                if future.cancel():  # still queued: it will never run
                    return web.json_response(
                        {"error": "the table did not answer in time; nothing was changed"}, status=503)
                # the main thread is running it (it may commit): wait for its real answer
                log.warning("web: a %s %s on game %s is slow; waiting for it", kind, op, game_id)
                try:
                    result = await asyncio.wait_for(asyncio.shield(waiting), COMMAND_WAIT_MORE)
                except TimeoutError:
                    return web.json_response(
                        {"error": "the table is still doing it: reload the page to see whether it was saved"},
                        status=504)
        except commands.CommandRefused as exc:
            return web.json_response({"error": str(exc)}, status=422)
        except commands.Stale as exc:
            return web.json_response({"error": str(exc), "stale": True}, status=409)
        except Exception as exc:  # a bug must not look like success
            log.exception("web command failed")
            return web.json_response({"error": f"the table could not do it: {exc}"}, status=500)
        log.info("web: %s %s on game %s by device %s", kind, op, game_id, device.id)
        return web.json_response({"ok": True, **result})



def language_switch(query: Any, other: str) -> str:
    """The same page in the other language, for an href: the query kept but re-encoded and
    escaped, so a crafted query string adds no markup (bare keys such as ``?tv`` stay bare)."""
    from urllib.parse import quote

    parts = [quote(k) + (f"={quote(v)}" if v else "") for k, v in query.items() if k != "lang"]
    return html.escape("?" + "&".join([*parts, f"lang={other}"]))


def html_page(lang: str, tv: bool, title: str, *, skip: str, brand: str, nav: str, main: str,
              head: str = "", after: str = "") -> str:
    """The page around a view, shared by the table's web display and the club hub: the same
    skip link, header, landmarks and stylesheet, no inline script."""
    return f"""<!doctype html>
<html lang="{lang}"{' class="tv"' if tv else ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{html.escape(title)} · Table99</title>
<link rel="stylesheet" href="/static/style.css">
{head}
</head>
<body>
<a class="skip" href="#main">{skip}</a>
<header><p class="brand">{brand}</p>{nav}</header>
<main id="main" tabindex="-1">
{main}
</main>
{after}
</body>
</html>
"""

def script_json(data: Any) -> str:
    """JSON for a <script type="application/json"> block: every "<" escaped, so no text in it (a
    player's name with "</script>" or "<!--<script") can end the block or change how it is parsed."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def _tr_error(text: str, lang: str) -> str:
    return Tr(lang)(text)


def ui_strings(_: Tr) -> dict[str, str]:
    """The page's own words, in the viewer's language."""
    words = {
        "connected": _("Live"), "reconnecting": _("Connection lost, reconnecting..."),
        "turn": _("Turn"), "deck": _("Deck"), "hand": _("Cards in hand"), "penalties": _("Penalties"),
        "log": _("What happened"), "board": _("The board"), "last_play": _("Last play"),
        "winning": _("Winning line"), "players": _("Players"), "count": _("Count"),
        "direction": _("Direction"), "tokens": _("Tokens"), "last_plays": _("Last plays"),
        "round": _("Round"), "dealer": _("Dealer"), "trump": _("Trump"), "totals": _("Totals"),
        "game_total": _("This game"), "rubber": _("Rubber"), "chart": _("Chart"),
        "chart_desc": _("Running totals after each deal"), "deals": _("Deals"), "deal": _("Deal"),
        "bids": _("Bids"), "tricks": _("Tricks"), "score": _("Score"), "made": _("made"),
        "missed": _("missed"), "new_game": _("Now showing: {title}"), "taken_back": _("Taken back."),
        "out": _("out"), "computer": _("computer"), "empty_square": _("empty"),
        "enter_deal": _("Enter the next deal"), "send": _("Save the deal"),
        "delete_last": _("Delete the last deal"), "paired_as": _("Paired as {name}"),
        "keeper": _("Tap the card just played"), "no_cards": _("No cards"), "no_safe": _("No safe card"),
        "undo": _("Undo"), "saved": _("Saved."), "choose": _("Which way does it count?"),
        "peg": _("peg"), "square": _("square"), "none": _("none"), "result": _("Result"),
        "games": _("Games"), "correct": _("Correct"), "next_deal": _("Next deal"),
        "pair_ok": _("Paired. This device may now keep the score."),
        "premium": _("Premium"), "declare": _("declare"), "reveal": _("reveal"),
        "turn_up": _("Turned-up card (for example 9H)"), "correcting": _("Correct deal {n}"),
        "save_correction": _("Save the correction"), "cancel": _("Cancel"),
        "stale": _("The game changed meanwhile (at the table or on another device), so nothing was "
                   "changed. This is how it stands now: check, then try again."),
    }
    return words


# Where a datagram socket would go to find the outgoing interface: TEST-NET-1 (RFC 5737, never routed
# anywhere) by the default route, then private ranges for a LAN without one. connect() on UDP only
# picks the route and the source address: nothing is sent.
ROUTE_PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")


def lan_address() -> str:
    """This machine's IPv4 address on the local network, for the QR code (no packet is sent).

    The outgoing interface's address first: on Raspberry Pi OS the hostname maps to 127.0.1.1 in
    /etc/hosts, so asking for the hostname's address gives nothing a phone can use, and many
    Android phones cannot resolve ``raspberrypi.local`` (a longer address, a bigger QR code, too).
    Then the hostname's addresses, then ``HOSTNAME.local`` (mDNS) as the last resort."""
    for probe in ROUTE_PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                address = str(udp.getsockname()[0])
        except OSError:
            continue
        if address and not address.startswith(("127.", "0.")):
            return address
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        for info in infos:
            address = str(info[4][0])
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    return socket.gethostname() + ".local"
