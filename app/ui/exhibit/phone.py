"""The phone view of exhibitor mode: the loop's QR code and the web display behind it.

Visitors scan the QR code on the attract loop and follow on their phones whatever game the table
shows: the loop's current demo, then the visitor's game once someone touches the screen. The server
is the family's web display restricted to that one game (``app/web/follow.py``), built on a
:class:`~app.games.live.LiveTable` of the exhibit's *scratch store*, so the family's games are never
served. ``table99 run`` hands the app a starter (``app.exhibit_web``: a LiveTable in, ``(server,
problem)`` out), so this screen-side module never imports the web server.

It is started once per app (a new language rebuilds the loop's controller, not the server: the game
on show is asked of whichever controller is current) and stopped before the scratch store closes
(Leave exhibitor mode, the app's end). A server that cannot start (the port taken) is one log line;
the loop runs on without a QR code.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.games.live import LiveTable

log = logging.getLogger(__name__)


class PhoneView:
    """The running phone view: :meth:`stop` lets go of the server and the Kivy hooks."""

    def __init__(self, server: Any, live: LiveTable, disconnect: Callable[[], None]) -> None:
        self.server, self.live, self._disconnect = server, live, disconnect

    def url(self) -> str:
        return str(self.server.view_url())

    def stop(self) -> None:
        try:
            self._disconnect()
        finally:
            self.server.stop()


def start_phone_view(app: Any, parts: dict[str, Any]) -> PhoneView | None:
    """Start the phone view of ``app`` in exhibitor mode (``parts``: ``ctx.extras["exhibit"]``), or
    None: no starter (the web display is off), ``[exhibit] phone_view = false``, or it failed."""
    starter = getattr(app, "exhibit_web", None)
    settings = parts.get("settings")
    if starter is None or not getattr(settings, "phone_view", True):
        return None
    from app.ui.web_join import connect_live

    live = LiveTable(parts["scratch"])
    try:
        server, problem = starter(live)
    except Exception as exc:  # never a crash or a black screen: the loop runs without a QR code
        server, problem = None, f"{type(exc).__name__}: {exc}"
    if server is None:
        if problem:
            log.warning("exhibit: no QR code on the loop: %s", problem)
        return None

    def controller() -> Any:
        return getattr(app, "exhibit_controller", None)

    def open_game() -> int | None:
        current = controller()
        return current.game_on_show() if current is not None else None

    def board_screen() -> Any:
        current = controller()
        return current.board_screen_on_show() if current is not None else None

    disconnect = connect_live(app, live, open_game=open_game, board_screen=board_screen, family=False)
    app.ctx.extras["live"] = live
    live.later(live.screen_changed)  # /live follows the game on show from the first page
    log.info("exhibit: phones follow the game on show (QR code on the loop; port %s, demo games only)",
             getattr(server, "port", "?"))
    return PhoneView(server, live, disconnect)
