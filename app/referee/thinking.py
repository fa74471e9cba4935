"""Where a computer player thinks: at once on the caller's thread, or on one worker thread.

The referee asks a :class:`Thinker` for a computer's choice and gets a
:class:`concurrent.futures.Future`. It never waits for it on the screen's thread: it looks at the
future from :meth:`Referee.tick <app.referee.core.Referee.tick>` (the screen's 30 Hz pump) and
applies a finished choice there, on the main thread, through its one normal path. So the worker
only *computes* (from an immutable ``PlayerView``, a level and a seeded ``Random`` made on the main
thread): it never touches the game, the store or a widget, and a choice made for a game that has
moved on meanwhile (undo, an out-of-turn action, the screen left) is simply dropped.

:class:`InlineThinker` keeps the old behaviour (the choice is ready when ``submit`` returns) for
the terminal game, the referee's unit tests and anything that builds a ``Referee`` without a
thinker. The game screen uses :class:`ThreadThinker`: a slow level on a slow board computer no
longer holds up the frame that shows a person's verdict (docs/referee.md, "Computer opponents").
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol


class Thinker(Protocol):
    """Runs a computer's choice somewhere and hands back a future for it."""

    def submit(self, think: Callable[[], Any]) -> Future[Any]: ...

    def poll(self) -> None:
        """Called from the referee's tick (the main thread): start what was submitted since."""

    def close(self) -> None: ...


class InlineThinker:
    """Computes at once, on the caller's thread: the future is done when ``submit`` returns."""

    def submit(self, think: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(think())
        except Exception as exc:  # reported by the referee like a worker's error, never raised here
            future.set_exception(exc)
        return future

    def poll(self) -> None:
        """Everything was computed in ``submit``: nothing waits to start."""

    def close(self) -> None:
        """Nothing runs anywhere else: nothing to stop."""


class ThreadThinker:
    """One worker thread for one game's computers, so their choices are made in order.

    A choice submitted during a tick starts at the *next* :meth:`poll` (the referee's next tick,
    1/30 s later on the screen), not at once: the choice is asked for in the very pump that judged
    a person's peg, and the worker, holding Python's GIL for its pure-Python search, would slow the
    frame that shows that verdict. One tick later the verdict is on screen.

    ``close`` cancels a choice not yet started and does not wait for one being computed: that
    one finishes on its own and is dropped, as the referee that asked for it is gone; the worker
    ends after it. The worker is a *daemon* thread (not a ``ThreadPoolExecutor``, whose workers
    Python joins at exit): a choice that hangs never keeps the app from closing. The referee
    reports a choice that takes too long (``Referee(think_timeout=...)``).
    """

    def __init__(self) -> None:
        self._work: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._queued: list[tuple[Callable[[], Any], Future[Any]]] = []
        self._closed = False

    def submit(self, think: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        if self._closed:  # a referee closed with its screen: nothing more to compute
            future.cancel()
        else:
            self._queued.append((think, future))
        return future

    def poll(self) -> None:
        queued, self._queued = self._queued, []
        if not queued or self._closed:
            return
        if self._worker is None:
            self._worker = threading.Thread(target=_work, args=(self._work,), name="computer-thinker",
                                            daemon=True)
            self._worker.start()
        for item in queued:
            self._work.put(item)

    def close(self) -> None:
        self._closed = True
        for _, future in self._queued:
            future.cancel()
        self._queued = []
        while True:  # started at a poll but not begun on the worker: cancelled too
            try:
                item = self._work.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[1].cancel()
        self._work.put(None)  # the worker ends after the choice it may be computing


def _work(work: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None]) -> None:
    """The worker's loop: compute each choice in order until told to stop (None)."""
    while (item := work.get()) is not None:
        _run(*item)


def _run(think: Callable[[], Any], future: Future[Any]) -> None:
    """On the worker: compute and hand the result (or the error) to the referee's future."""
    if not future.set_running_or_notify_cancel():
        return
    try:
        future.set_result(think())
    except BaseException as exc:  # every failure must reach the referee: never a future left pending
        future.set_exception(exc)
