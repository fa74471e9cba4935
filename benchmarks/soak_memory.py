"""Memory figures for the exhibit soak (benchmarks/exhibit_soak.py), measured the same way each time.

Why a module of its own: RSS read at an arbitrary frame moves by 10-30 MiB with whatever the demo
on show happens to hold, so one sample at the start and one at the end say little. Here RSS is read
at the *same phase* of every demo cycle: right after the loop's ``malloc_trim`` at a demo change
(:func:`app.memory.release_free_memory`, wrapped), when the dropped demo's memory is gone and the
next one is not built yet. Over a run these samples give a least-squares slope (MiB per hour of
table time) and fitted start/end values, so the growth is not one noisy reading.

``diagnose=True`` adds, at each sample, what tells a leak from malloc keeping freed memory:
glibc's ``mallinfo2`` (bytes in use vs free inside malloc's arenas, over all arenas), anonymous RSS,
the number of memory mappings, Python's allocated blocks, threads and Kivy's Cache categories.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import statistics
import sys
import threading
from collections.abc import Callable
from typing import Any

MIB = 1024 * 1024


def proc_status(*keys: str) -> dict[str, float]:
    """Fields of /proc/self/status in MiB (VmRSS, RssAnon, RssFile, ...)."""
    found: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in keys:
                found[name] = int(rest.split()[0]) / 1024
    return found


def rss_mib() -> float:
    return proc_status("VmRSS").get("VmRSS", float("nan"))


def peak_mib() -> float:
    """The highest RSS the process has had (VmHWM): what the Pi must have room for, which the
    readings right after each trim do not show."""
    return proc_status("VmHWM").get("VmHWM", float("nan"))


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
        "keepcost")]


def _mallinfo2() -> Callable[[], _MallInfo2] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        function = libc.mallinfo2
    except (OSError, AttributeError):
        return None
    function.restype = _MallInfo2
    function.argtypes = []
    return function  # type: ignore[no-any-return]


MALLINFO2 = _mallinfo2()


def malloc_figures() -> dict[str, float]:
    """glibc's view of its heap (all arenas), MiB: in use by the program, free but kept, mmapped."""
    if MALLINFO2 is None:
        return {}
    info = MALLINFO2()
    return {"malloc_in_use": round(info.uordblks / MIB, 2), "malloc_free": round(info.fordblks / MIB, 2),
            "malloc_mmapped": round(info.hblkhd / MIB, 2), "malloc_arena": round(info.arena / MIB, 2)}


def kivy_caches() -> dict[str, int]:
    from kivy.cache import Cache

    objects: dict[str, dict[Any, Any]] = getattr(Cache, "_objects", {})
    return {name: len(items) for name, items in objects.items() if items}


def diagnostics() -> dict[str, Any]:
    with open("/proc/self/maps", encoding="ascii") as maps:
        mappings = sum(1 for _ in maps)
    figures: dict[str, Any] = {**malloc_figures(), **{k: round(v, 1) for k, v in
                                                       proc_status("RssAnon", "RssFile").items()}}
    figures.update(mappings=mappings, py_blocks=sys.getallocatedblocks(), threads=threading.active_count(),
                   kivy_cache=kivy_caches())
    return figures


def least_squares(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Slope and intercept of the straight line nearest the points (y per x)."""
    if len(xs) < 2:
        return 0.0, ys[0] if ys else float("nan")
    slope, intercept = statistics.linear_regression(xs, ys)
    return slope, intercept


class PhaseSamples:
    """RSS right after each of the loop's trims; ``hours()`` gives the table time of a sample."""

    def __init__(self, hours: Callable[[], float], diagnose: bool = False,
                 context: Callable[[], dict[str, Any]] | None = None) -> None:
        self.hours, self.diagnose = hours, diagnose
        self.context = context  # what the soak adds to each diagnostic sample (visitors so far, ...)
        self.recording = True
        self.measuring = False  # False during the warm-up: its samples are kept apart
        self.points: list[tuple[float, float]] = []
        self.details: list[dict[str, Any]] = []
        self.warmup_details: list[dict[str, Any]] = []

    def install(self) -> None:
        """Wrap app.memory.release_free_memory (the loop calls it through the module)."""
        from app import memory

        trim = memory.release_free_memory

        def trimmed() -> bool:
            done = trim()
            if self.recording:
                rss = rss_mib()  # first: the diagnostics below allocate (gc.get_objects' list)
                if self.measuring:
                    self.points.append((self.hours(), rss))
                if self.diagnose:
                    sample = {"h": round(self.hours(), 3), "rss": round(rss, 1), **diagnostics()}
                    sample.update(self.context() if self.context is not None else {})
                    (self.details if self.measuring else self.warmup_details).append(sample)
            return done

        memory.release_free_memory = trimmed  # type: ignore[assignment]

    def summary(self) -> dict[str, Any]:
        """Count, first/last sample, the fitted line's start/end and slope, and the spread around it."""
        if not self.points:
            return {"samples": 0}
        xs = [x for x, _ in self.points]
        ys = [y for _, y in self.points]
        slope, intercept = least_squares(xs, ys)
        fit_start, fit_end = intercept + slope * xs[0], intercept + slope * xs[-1]
        residuals = [y - (intercept + slope * x) for x, y in self.points]
        tenth = max(1, len(ys) // 10)
        return {
            "method": "VmRSS right after the loop's malloc_trim at each demo change after the warm-up; "
                      "least-squares line over hours of table time; fit_growth = line(last) - line(first)",
            "samples": len(ys), "from_h": round(xs[0], 2), "to_h": round(xs[-1], 2),
            "first": round(ys[0], 1), "last": round(ys[-1], 1),
            "median_first_tenth": round(statistics.median(ys[:tenth]), 1),
            "median_last_tenth": round(statistics.median(ys[-tenth:]), 1),
            "fit_start": round(fit_start, 1), "fit_end": round(fit_end, 1),
            "fit_growth": round(fit_end - fit_start, 2), "slope_mib_per_hour": round(slope, 3),
            "residual_sd": round(statistics.pstdev(residuals), 2),
            "min": round(min(ys), 1), "max": round(max(ys), 1),
        }
