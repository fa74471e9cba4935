"""One worker process for the hub's heavy parsing, started when first needed and replaced when it dies.

Why a process: decoding, checking and re-encoding a 1 MiB table state takes 150-270 ms of Python
that holds the interpreter's lock; done in the hub's own process, every viewer's ``/panel`` waited
behind it. Both the listener (:class:`app.club.hub.HubStore`, messages over ``HEAVY_OVER``) and the
pages (:class:`app.club.hub_web.HubWeb`, a heavy state's card) hand such work to a
:class:`HeavyWorker` of their own.

Why "spawn": the hub runs threads (the MQTT client's, aiohttp's executor); a forked child may inherit
a lock another thread held at the fork and wait on it forever.

Why replaced: a worker killed (by the kernel for memory, say) leaves its pool broken, and a broken
pool refuses every later task, so every heavy message or card would fail until the hub restarted.
A task that meets a dead worker is tried once more in a fresh one; a second death is raised.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

Result = TypeVar("Result")


class HeavyWorker:
    """A single spawn worker process shared by the threads of one owner; thread-safe."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    @property
    def pool(self) -> ProcessPoolExecutor | None:
        """The worker's executor, or None before the first task (and after :meth:`close`)."""
        return self._pool

    def _started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            return self._pool

    def run(self, task: Callable[..., Result], *args: Any) -> Result:
        """``task(*args)`` in the worker process, waiting for its result (its exception is raised
        here). ``task`` must be a module-level function: spawn pickles it by name."""
        for attempt in (1, 2):
            pool = self._started()
            try:
                return pool.submit(task, *args).result()
            except BrokenProcessPool:
                with self._lock:
                    if self._pool is pool:  # another thread may have replaced it already
                        self._pool = None
                pool.shutdown(wait=False)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stops the worker process, if one was started; a later task starts a new one."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(cancel_futures=True)
