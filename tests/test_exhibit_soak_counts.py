"""The all-day loop holds nothing over from one demo to the next (issue 15's soak, as counts).

The soak (benchmarks/exhibit_soak.py) measures memory; these tests pin down what can be counted
exactly: after each round of the three demos and a visitor's game, the same number of threads
(the computers' thinker threads end with their games), Kivy Clock events and Python objects, and
the loop hands freed memory back to the system at each demo change (app.memory).
"""

from __future__ import annotations

import gc
import logging
import threading
from collections import Counter
from typing import Any

import pytest

from app import memory
from app.paths import default_database
from app.store import GameStore
from tests.exhibit_support import exhibit_config, run
from tests.fakes import FakeClock
from tests.ui_support import UI, frames, frames_for

pytestmark = pytest.mark.ui


@pytest.fixture
def real_exhibit(ui: UI) -> Any:
    """The shell's exhibit with the real visitor's game (its computer thinks on a thread)."""
    from app.ui.shell import Table99App

    app = Table99App(config=exhibit_config(), store=GameStore(default_database()))
    app.exhibit_clock = FakeClock()
    app.exhibit_autotick = False
    ui.show(app.build())
    app.exhibit_controller.start(ui.window)
    parts = app.exhibit
    assert parts is not None
    yield app
    app.exhibit_controller.release()
    parts["scratch"].close()


def one_round(app: Any) -> None:
    """The three demos once each, then a visitor who plays a little and leaves."""
    controller = app.exhibit_controller
    loop = controller.loop
    start = loop.round
    while loop.round < start + 3:
        run(app, 5, every=2)
    controller.start_visitor()
    frames(3)
    assert app.ctx.manager.current == "exhibit_visitor"
    frames_for(40 / 60)  # the visitor's computer thinks (on its thread) and moves on the real clock
    controller.visitor_ended("visitor")
    frames(3)
    assert app.ctx.manager.current == "home"


def counts() -> tuple[int, int, Counter[str]]:
    """Live threads, repeating Kivy Clock events (a one-shot trigger may be pending at any moment;
    an interval left running would tick all day) and Python objects by type."""
    from kivy.clock import Clock

    frames(5)  # a finished thinker thread is joined by nobody: give it a moment to end
    for _ in range(50):
        if not [t for t in threading.enumerate() if t.name == "computer-thinker" and t.is_alive()]:
            break
        threading.Event().wait(0.02)
    # a ScrollView's bar fade or bounce is a Kivy Animation: an interval while it runs (a fraction
    # of a second of real time, however the loop's clock is faked); let those end before counting,
    # so only what stays scheduled is compared (an animation that never ends is still counted)
    for _ in range(150):
        if not any(e.loop and "Animation" in repr(e.get_callback()) for e in Clock.get_events()):
            break
        frames(1)
        threading.Event().wait(0.02)
    gc.collect()
    intervals = sum(1 for e in Clock.get_events() if e.loop)
    return threading.active_count(), intervals, Counter(type(o).__name__ for o in gc.get_objects())


def test_rounds_of_demos_and_visitors_leave_no_threads_clock_events_or_objects_behind(
        real_exhibit: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)  # pytest keeps every captured record: the screens log each move
    for _ in range(2):  # warm-up: every screen built once, caches filled (a thread the second starts)
        one_round(real_exhibit)
    threads, events, objects = counts()
    # Two rounds are enough to see what this test is for (a leak of a screen or referee per demo
    # grows the count by thousands per demo); the all-day soak is benchmarks/exhibit_soak.py.
    for _ in range(2):
        one_round(real_exhibit)
    threads_after, events_after, objects_after = counts()
    assert threads_after <= threads
    assert events_after <= events
    # Object counts depend on what is on screen at that moment (a hand of cards, the log, a visitor's
    # random deal): a few thousand either way. A screen or referee kept per demo would add thousands
    # per demo (8 demos here), so the total may not grow by more than 5 %.
    total, total_after = sum(objects.values()), sum(objects_after.values())
    print(f"objects: {total} -> {total_after}; threads {threads} -> {threads_after}; "
          f"clock intervals {events} -> {events_after}")
    grown = {name: n for name, n in (objects_after - objects).most_common(6)}
    assert total_after < total * 1.05, f"{total} -> {total_after} objects; grew most: {grown}"


def test_the_loop_gives_freed_memory_back_at_each_demo_change(real_exhibit: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def count() -> bool:
        calls.append(1)
        return True

    monkeypatch.setattr(memory, "release_free_memory", count)
    loop = real_exhibit.exhibit_controller.loop
    start = loop.round
    while loop.round < start + 3:
        run(real_exhibit, 5, every=5)
    assert len(calls) >= 3


def test_release_free_memory_asks_glibc_or_says_it_could_not(monkeypatch: pytest.MonkeyPatch) -> None:
    import platform

    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert memory.release_free_memory() is True
    monkeypatch.setattr(memory, "_looked", True)
    monkeypatch.setattr(memory, "_trim", None)
    assert memory.release_free_memory() is False
