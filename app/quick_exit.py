"""Leaving at once on SIGTERM: ``systemctl stop`` ends the app within a bounded time, games safe.

Why not Kivy's stop: a signal's handler runs on the main thread, and ``App.stop`` could only run after
the frame being drawn. Under emulation (deploy/rehearse.sh) the first frames take seconds, so the
service stopped 6.1 s after systemd's SIGTERM; after the main loop the web server's and the club
reporter's threads were joined (with 10 s and 5 s timeouts) and Python tore down Kivy, SDL and Mesa
(0.4-1.7 s natively). None of that keeps a game: every accepted action is committed before the screen
shows it (app/store.py). So the first SIGTERM starts one thread that closes what was registered here
(the game store: it waits only for a commit in progress, which then stands, and SQLite folds its
write-ahead log back into the file), flushes the log and ends the process with status 0 without the
interpreter's teardown (``os._exit``). A deadline ends the process anyway if closing hangs. The main
thread is never waited for; Quit on the screen still ends the ordinary way.

No kivy here: a service any front end or command may use.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from typing import NoReturn

log = logging.getLogger("table99")

DEADLINE = 3.0  # seconds from the signal to the end, whatever closing does (systemd waits 90 s)

_closers: list[Callable[[], object]] = []
_closers_lock = threading.Lock()
_leaving = threading.Event()


def close_on_exit(closer: Callable[[], object]) -> None:
    """Have ``closer()`` run, in the order registered, when a signal ends the process.

    It runs on the leaving thread while the main thread may still be drawing: it must be safe to call
    from another thread (GameStore's close is: it takes the store's lock)."""
    with _closers_lock:
        if closer not in _closers:
            _closers.append(closer)


def forget(closer: Callable[[], object]) -> None:
    """Undo :func:`close_on_exit` (the thing was closed the ordinary way)."""
    with _closers_lock:
        if closer in _closers:
            _closers.remove(closer)


def leave(status: int = 0, deadline: float = DEADLINE) -> NoReturn:
    """Run the registered closers, flush the log and end the process with ``status`` now.

    A closer that raises is logged and the others still run; if they all together take longer than
    ``deadline`` seconds, the process ends without them (an unclosed SQLite file is still whole)."""
    timer = threading.Timer(deadline, _give_up, args=(status, deadline))
    timer.daemon = True
    timer.start()
    with _closers_lock:
        closers = list(_closers)
    for closer in closers:
        try:
            closer()
        except Exception:
            log.exception("closing %r before the exit failed; leaving anyway", closer)
    _flush()
    os._exit(status)


def _give_up(status: int, deadline: float) -> None:
    log.error("closing before the exit took over %.0f s; leaving without it (committed games are kept)",
              deadline)
    _flush()
    os._exit(status)


def _flush() -> None:
    """os._exit skips Python's own flushing: the log's last lines must still reach the journal."""
    loggers = [logging.getLogger(), *(item for item in logging.Logger.manager.loggerDict.values()
                                      if isinstance(item, logging.Logger))]
    for logger in loggers:
        for handler in logger.handlers:
            with contextlib.suppress(Exception):
                handler.flush()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()


def leave_on(signals: Iterable[signal.Signals] = (signal.SIGTERM,), deadline: float = DEADLINE) -> None:
    """Make the first of ``signals`` end the process through :func:`leave` (status 0).

    The handler itself only logs and starts the leaving thread: it runs on the main thread between
    two bytecodes, perhaps inside a commit whose lock the store's close then waits for. Call it on the
    main thread, after anything that installs handlers of its own (SDL replaces SIGTERM's when its
    window opens)."""

    def handler(signum: int, _frame: object) -> None:
        if _leaving.is_set():
            return
        _leaving.set()
        log.info("stopping: %s (the service manager or kill)", signal.Signals(signum).name)
        threading.Thread(target=leave, args=(0, deadline), name="table99-leaving", daemon=True).start()

    for sig in signals:
        signal.signal(sig, handler)
