"""The web display of exhibitor mode: phones follow the game on the table's screen, and nothing else.

At a store the attract loop shows a QR code so visitors can follow the demo (or a visitor's game) on
their phones. That address reaches strangers, so this server is the family's web display
(:class:`~app.web.server.WebServer`: the same hub, views, pages, event stream and guards, one way to
show a game) with everything else taken away:

* it is built on a :class:`~app.games.live.LiveTable` of the exhibit's **scratch store**: the family's
  database is not even open to it, so no address can reach a family game;
* its routes are only ``/v/TOKEN/`` and ``/v/TOKEN/live`` (both the game on show), its event
  stream and JSON view for ``current``, and ``/static/``. No game list, no ``/game/N``, no
  pairing, no change: every other path is a 404, and a phone can never act on the table;
* its token is made for this run and kept in memory only (``Access(None)``): yesterday's QR code,
  photographed at the stand, leads nowhere today, and nothing is written to the data directory.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from app.games.live import LiveTable
from app.games.views import Tr
from app.web.pairing import Access, Device
from app.web.server import MAX_BODY, WebServer


class FollowOnlyServer(WebServer):
    """Read-only, one page: the game the table's screen shows (see the module docstring)."""

    def __init__(self, live: LiveTable, host: str = "127.0.0.1", port: int = 8099, **kwargs: Any) -> None:
        super().__init__(live, Access(None), host, port, **kwargs)  # a token for this run, never saved

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/v/{token}/", self.game_page)  # the QR code's address: shorter, so bigger modules
        app.router.add_get("/v/{token}/live", self.game_page)
        app.router.add_get("/v/{token}/events", self.events, name="events")
        app.router.add_get("/v/{token}/api/view/{key:current}", self.api_view)
        return app

    def view_url(self) -> str:
        """The QR code's address: ``/v/TOKEN/`` is the live page here (there is no game list), five
        characters fewer than ``/live``, which keeps a LAN address's code at QR version 3 (29 modules,
        not 33): bigger modules in the same room on the loop, read from further away."""
        return f"{self.base_url()}/v/{self.access.token}/"

    def nav_links(self, token: str, tv: bool, _: Tr) -> list[tuple[str, str]]:
        return [(f"/v/{token}/live{'?tv' if tv else ''}", _("Live"))]

    def _device(self, request: web.Request) -> Device | None:
        return None  # nobody is paired here: the page never offers a change

    async def events(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("game", "current") != "current":  # only the game on show
            return web.Response(status=404, text="not found\n")
        return await super().events(request)
