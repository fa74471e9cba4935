"""Starting the web display beside the app: from the config, never stopping the app when it cannot.

Used by ``table99 run`` (beside Kivy) and ``table99 web`` (no screen). A problem (aiohttp missing,
the port taken) becomes one line for the home screen and the journal, like every other start-up
problem: the table keeps working without the web display.
"""

from __future__ import annotations

import logging
from typing import Any

from app.live import LiveTable
from app.paths import data_dir

log = logging.getLogger(__name__)


def start_web(config: Any, live: LiveTable, port: int | None = None,
              bind: str | None = None) -> tuple[Any, str | None]:
    """(server or None, problem or None). ``port`` 0 picks a free port (tests); None: the config's."""
    web_config = dict(config.web)
    if port is None and not web_config["enabled"]:
        return None, None
    try:
        from app.web.pairing import Access
        from app.web.server import WebError, WebServer
    except ImportError as exc:
        return None, f"the web display needs aiohttp ({exc}); install table99[web]"
    server = WebServer(live, Access(data_dir()), bind or web_config["bind"],
                       web_config["port"] if port is None else port,
                       max_streams=web_config["max_viewers"], public_host=web_config["address"])
    try:
        server.start()
    except WebError as exc:
        return None, str(exc)
    return server, None


def start_follow_only(config: Any, live: LiveTable, port: int | None = None) -> tuple[Any, str | None]:
    """The exhibit's web display (:mod:`app.web.follow`) on ``live`` (the scratch store's table):
    (server or None, problem or None), on the config's ``[web]`` port, bind and address unless
    ``port`` is given (0: a free port)."""
    web_config = dict(config.web)
    try:
        from app.web.follow import FollowOnlyServer
        from app.web.server import WebError
    except ImportError as exc:
        return None, f"the web display needs aiohttp ({exc}); install table99[web]"
    server = FollowOnlyServer(live, web_config["bind"], web_config["port"] if port is None else port,
                              max_streams=web_config["max_viewers"], public_host=web_config["address"])
    try:
        server.start()
    except WebError as exc:
        return None, str(exc)
    return server, None
