"""Starting the club reporter beside the app, from ``[club]``; never stopping the app when it cannot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def club_problem(options: Any) -> str | None:
    """Why an enabled ``[club]`` cannot report (None: it can). ``table99 config`` says the same
    words before ``run`` does: it used to call such a file fine, and ``run`` then refused it."""
    user, table = options.get("username") or options.get("table"), options.get("table")
    if user != table:  # the ACL lets user X write only under table99/X: every message would be dropped
        return (f"club: [club] username {user!r} must be the table's name {table!r} (the broker "
                "lets each table write only under its own name); the table does not report")
    return None


def start_club(config: Any, store: Any,
               on_status: Callable[[str], None] | None = None) -> tuple[Any, str | None]:
    """(reporter or None, problem or None); off by default ([club] enabled = false)."""
    options = dict(config.club)
    if not options.get("enabled"):
        return None, None
    problem = club_problem(options)
    if problem:
        return None, problem
    try:
        from app.club.reporter import ClubReporter
    except ImportError as exc:
        return None, f"the club hub needs paho-mqtt ({exc}); install table99[club]"
    try:
        return ClubReporter(store, options, on_status=on_status).start(), None
    except Exception as exc:  # e.g. an unreadable TLS CA file
        return None, f"club: cannot report to the hub: {' '.join(str(exc).split())[:160]}"
