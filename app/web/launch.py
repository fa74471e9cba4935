"""Starting the web display beside the app: from the config, never stopping the app when it cannot.

Used by ``table99 run`` (beside Kivy) and ``table99 web`` (no screen). A problem (aiohttp missing,
the port taken) becomes one line for the home screen and the journal, like every other start-up
problem: the table keeps working without the web display.
"""

from __future__ import annotations

import logging
from typing import Any

from app.games.live import LiveTable
from app.paths import data_dir

log = logging.getLogger(__name__)


def start_web(config: Any, live: LiveTable, port: int | None = None,
              bind: str | None = None) -> tuple[Any, str | None]:
    """(server or None, problem or None). ``port`` 0 picks a free port (tests); None: the config's."""
    if port is None and not config.web["enabled"]:
        return None, None

    def family_server(server_class: Any, web_config: dict[str, Any], port: int) -> Any:
        from app.web.pairing import Access

        return server_class(live, Access(data_dir()), bind or web_config["bind"], port,
                            max_streams=web_config["max_viewers"], public_host=web_config["address"])

    return _started("app.web.server", "WebServer", family_server, config, port)


def start_follow_only(config: Any, live: LiveTable, port: int | None = None) -> tuple[Any, str | None]:
    """The exhibit's web display (:mod:`app.web.follow`) on ``live`` (the scratch store's table):
    (server or None, problem or None), on the config's ``[web]`` port, bind and address unless
    ``port`` is given (0: a free port)."""

    def follow_server(server_class: Any, web_config: dict[str, Any], port: int) -> Any:
        return server_class(live, web_config["bind"], port, max_streams=web_config["max_viewers"],
                            public_host=web_config["address"])

    return _started("app.web.follow", "FollowOnlyServer", follow_server, config, port)


def _started(module: str, name: str, build: Any, config: Any, port: int | None) -> tuple[Any, str | None]:
    """Import the server class (aiohttp may be missing), build it and start it: one problem line."""
    import importlib

    web_config = dict(config.web)
    try:
        server_class = getattr(importlib.import_module(module), name)
        from app.web.server import WebError
    except ImportError as exc:
        return None, f"the web display needs aiohttp ({exc}); install table99[web]"
    server = build(server_class, web_config, web_config["port"] if port is None else port)
    try:
        server.start()
    except WebError as exc:
        return None, str(exc)
    return server, None
