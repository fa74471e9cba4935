"""The web display: an aiohttp server in its own thread and asyncio loop, beside Kivy's.

This module starts and stops it; its parts are :mod:`app.web.streams` (live views),
:mod:`app.web.routes` (pages and API), :mod:`app.web.guards` (what every request must pass) and
:mod:`app.web.pairing` (devices allowed to change a game).

* It learns of every committed change from the store (:meth:`GameStore.add_listener`, called in
  the committing thread: it only hands the game id to this loop), rebuilds that game's view from the
  committed record (:mod:`app.games.views`) and pushes it to the pages that watch it as a Server-Sent
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
import logging
import threading
import time
from pathlib import Path

from aiohttp import web

from app.games.live import LiveTable
from app.pages import static_file
from app.web import address
from app.web.guards import MAX_BODY, Guards
from app.web.pairing import Access
from app.web.phones import PhoneRoutes
from app.web.routes import Routes
from app.web.streams import Hub, StreamRoutes

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")  # the page's script (the style is app/pages' own)
KEEPALIVE_TIMEOUT = 10.0  # an idle keep-alive connection is closed after this many seconds
LINGERING = 1.0  # after a refused request, the rest of its body is read (and dropped) this long at most
# Bound to every network, the address in the QR code is worked out in the server's thread when it
# starts and again this often (a new DHCP lease, the Wi-Fi back): never on Kivy's main thread, where
# a name lookup without DNS can block the screen for seconds (the loop asks at every demo).
ADDRESS_REFRESH = 300.0
# How often the store is asked whether another process committed (``table99 play`` beside
# ``table99 web`` on one data directory): its pages follow those changes within this many seconds.
OUTSIDE_POLL = 1.0


class WebError(Exception):
    """The server could not start (port taken, address not on this machine): one line."""


class WebServer(Guards, Routes, StreamRoutes, PhoneRoutes):
    """Start with :meth:`start` (returns once listening, or raises WebError); :meth:`stop` ends it."""

    def __init__(self, live: LiveTable, access: Access, host: str = "127.0.0.1", port: int = 8099, *,
                 max_streams: int = 250, max_streams_per_client: int = 40, max_requests: int = 64,
                 max_requests_per_client: int = 16, public_host: str = "") -> None:
        self.live, self.access = live, access
        self.host, self.port = host, port
        self.max_streams, self.max_streams_per_client = max_streams, max_streams_per_client
        self.max_requests, self.max_requests_per_client = max_requests, max_requests_per_client
        self.public_host = public_host
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        self._in_flight = 0
        self._in_flight_by: dict[str, int] = {}
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
                               keepalive_timeout=KEEPALIVE_TIMEOUT, lingering_time=LINGERING)
        await runner.setup()
        await self.phones_resume()  # Ninety Nine with phones: unfinished tables, before phones reconnect
        site = web.TCPSite(runner, self.host, self.port, backlog=128, reuse_address=True)
        await site.start()
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        keeper: asyncio.Task[None] | None = None
        if self._every_network():
            await self._refresh_address()  # before start() returns: the first QR code has it
            keeper = asyncio.create_task(self._keep_address())
        self.hub.loop = asyncio.get_running_loop()
        watcher = asyncio.create_task(self._watch_store())
        phone_tasks = self.phones_started(asyncio.get_running_loop())
        ready.set()
        log.info("web display on http://%s:%s/v/<token>/", self.host, self.port)
        await self._stopped.wait()
        watcher.cancel()
        for task in phone_tasks:
            task.cancel()
        self.phones_stopped()
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
            self._lan = await asyncio.get_running_loop().run_in_executor(None, address.lan_address)
        except Exception:  # the old address (or none) stays; the next round tries again
            log.exception("the web display's address could not be worked out")

    async def _watch_store(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(OUTSIDE_POLL)
            try:  # in the executor: the store's lock may be held by a commit's fsync
                if await loop.run_in_executor(None, self.hub.outside_changes):
                    self.hub.outside_changed()
            except Exception:  # a closed store at shutdown, a locked file: the next round asks again
                log.debug("the store's change counter could not be read", exc_info=True)

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
            host = self._lan or address.lan_address()
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def view_url(self) -> str:
        return f"{self.base_url()}/v/{self.access.token}/live"

    def phones_url(self, table_id: str) -> str:
        """Where phones join a table of Ninety Nine with phones (the host's QR code holds it)."""
        return f"{self.base_url()}/v/{self.access.token}/phones/{table_id}"

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
        self.add_phone_routes(app)  # Ninety Nine with phones (app.web.phones)
        return app

    async def root(self, request: web.Request) -> web.Response:
        return web.Response(status=404,
                            text="Table99: use the address in the QR code on the table's screen.\n")

    async def static(self, request: web.Request) -> web.StreamResponse:
        return static_file(request.match_info["name"], STATIC)
