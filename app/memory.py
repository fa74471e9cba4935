"""Giving freed memory back to the system between an exhibit's demos (issue 15's all-day soak).

Why: the loop builds and drops a game every minute or so, and since the computers think on a
worker thread per game, glibc's malloc serves those threads from arenas of their own. What the
games free stays in those arenas as scattered free chunks that glibc returns to the system only
at the very top of a heap, so the resident size (RSS) crept up by tens of MiB over a day of
table time although nothing was leaked: Python's object counts, threads and Clock events stay
flat (see docs/exhibit.md, "The all-day soak"). ``malloc_trim(0)`` hands every free whole page of
every arena back (madvise), at the moment a demo has just been dropped.

Only glibc has ``malloc_trim``; elsewhere (macOS, musl, Windows) :func:`release_free_memory` does
nothing and says so by returning False. It never raises: the loop must go on whatever happens.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)
_trim: Callable[[int], int] | None = None
_looked = False


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, looked up once; None where the C library has none."""
    global _trim, _looked
    if not _looked:
        _looked = True
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            function = libc.malloc_trim
            function.argtypes = [ctypes.c_size_t]
            function.restype = ctypes.c_int
            _trim = function
        except (OSError, AttributeError):
            _trim = None
    return _trim


def release_free_memory() -> bool:
    """Return malloc's free pages to the system (glibc); True if the C library was asked."""
    trim = _malloc_trim()
    if trim is None:
        return False
    try:
        trim(0)
    except Exception:  # never stop the loop for this
        log.debug("malloc_trim failed", exc_info=True)
        return False
    return True
