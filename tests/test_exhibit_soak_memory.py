"""How the exhibit soak measures memory (benchmarks/soak_memory.py): the same phase of every demo
cycle, and a least-squares line rather than two single readings."""

from __future__ import annotations

import pytest

from app import memory
from benchmarks.soak_memory import PhaseSamples, least_squares, malloc_figures


def test_least_squares_finds_the_slope_through_noise() -> None:
    xs = [0.0, 1.0, 2.0, 3.0, 4.0]
    ys = [200.0 + 2 * x + noise for x, noise in zip(xs, [1.0, -1.0, 0.0, 1.0, -1.0], strict=True)]
    slope, intercept = least_squares(xs, ys)
    assert slope == pytest.approx(1.8) and intercept == pytest.approx(200.4)


def test_samples_are_taken_at_each_trim_after_the_warm_up_only(monkeypatch: pytest.MonkeyPatch) -> None:
    hours = iter([0.5, 1.0, 2.0, 3.0])
    monkeypatch.setattr(memory, "release_free_memory", lambda: True)
    phase = PhaseSamples(lambda: next(hours))
    phase.install()
    memory.release_free_memory()  # in the warm-up: not measured
    assert phase.points == []
    phase.measuring = True
    for _ in range(3):
        assert memory.release_free_memory() is True  # the trim's own answer passes through
    assert [h for h, _ in phase.points] == [0.5, 1.0, 2.0]
    summary = phase.summary()
    assert summary["samples"] == 3 and summary["from_h"] == 0.5 and summary["to_h"] == 2.0
    assert summary["fit_growth"] == pytest.approx(summary["slope_mib_per_hour"] * 1.5, abs=0.02)
    assert "malloc_trim" in summary["method"]


def test_malloc_figures_where_glibc_tells_them() -> None:
    figures = malloc_figures()
    if figures:  # glibc: in use and free are sizes, never negative
        assert figures["malloc_in_use"] > 0 and figures["malloc_free"] >= 0
