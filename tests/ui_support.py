"""Drive Kivy widgets headless (SDL2 offscreen) the way a finger would.

Usage in a test::

    from tests.ui_support import ui, tap, find, frames

    def test_something(ui):              # the fixture gives a clean 800x480 window
        screen = MyScreen(...)
        ui.show(screen)
        tap(find(screen, text="PLAY"))
        frames(2)
        ui.screenshot("board99-play")    # saved under test-artifacts/, never committed

Wait for frames, not seconds: ``frames(n)`` runs n iterations of Kivy's event loop (Clock
callbacks, layout, drawing). The frames are not paced: Kivy's clock would sleep until the next
1/60 s (its ``maxfps``), which was half of a UI test's time; here each frame follows the last at
once, as Kivy's own test fixtures run it (``Clock._max_fps = 0``). What happens after some time
(a ``Clock.schedule_once(..., 0.5)``, another thread's answer) is waited for with
``frames_until``, which runs frames until it holds and gives up only after both ``limit`` frames
and the time those frames took at 60 fps. ``steps(n)`` runs the loop without drawing (a tap, a
fast-forward of table time): drawing the window in software is most of a frame's cost, and whatever
reads pixels (``screen_audit.Frame``, ``UI.screenshot``) runs ``frames`` first, which draws.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"


PACED_FPS = 60  # Kivy's default maxfps: the pace a ``limit`` in frames was written for
YIELD_S = 0.001  # between frames that wait: the thread being waited for gets the GIL and a core


def frames(n: int = 2) -> None:
    from kivy.base import EventLoop
    from kivy.clock import Clock

    Clock._max_fps = 0  # no sleep until the next 1/60 s (only tests ever step this loop by hand)
    for _ in range(n):
        EventLoop.idle()
        # A test that waits for another thread (a computer player, a server) steps frames in a
        # loop: a short sleep gives that thread the GIL and the core instead of a busy loop.
        time.sleep(YIELD_S)


def steps(n: int = 1) -> None:
    """Run n iterations of Kivy's event loop without drawing the window: Clock callbacks, input and
    layout as in ``frames`` (``EventLoop.idle`` less its ``on_draw``). For a test that fast-forwards
    table time and looks only at the end: a frame of the 800x480 window takes 20-30 ms to draw in
    software, most of a fast-forward's time; the next ``frames`` draws what the steps changed."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.lang import Builder

    Clock._max_fps = 0
    for _ in range(n):
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()
        time.sleep(YIELD_S)


def frames_for(seconds: float) -> None:
    """Run frames for ``seconds`` of real time, for a test whose other threads act on the real
    clock meanwhile (what ``frames(round(seconds * 60))`` gave when Kivy paced the frames)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frames(1)


def frames_until(condition: Callable[[], bool], limit: int = 200) -> None:
    """Run frames until ``condition()`` holds; fail once ``limit`` frames have run and as much time
    has passed as they took at 60 fps (a Clock timeout or another thread keeps its time to answer)."""
    deadline = time.monotonic() + limit / PACED_FPS
    ran = 0
    while not condition():
        if ran >= limit and time.monotonic() >= deadline:
            raise AssertionError(f"condition not met after {ran} frames ({limit / PACED_FPS:.1f} s)")
        frames(1)
        ran += 1


def tap(widget: Any) -> None:
    """Touch down and up at the widget's centre, in window coordinates."""
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    steps(1)  # drawn by the next frames(), as everything that reads pixels runs frames first


def tap_at(x: float, y: float) -> None:
    """Touch down and up at a point in window coordinates."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    steps(1)


def tap_hole(board: Any, hole: int) -> None:
    """Tap the middle of a hole of a board view (``hole_rect``), as a finger on the screen's board."""
    x, y, size = board.hole_rect(hole)
    tap_at(*board.to_window(x + size / 2, y + size / 2))


def open_modal() -> Any:
    """The pad or dialog open on top of the window (a ModalView)."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    return next(w for w in Window.children if isinstance(w, ModalView))


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", []):
        yield from walk(child)


def find(root: Any, **attrs: Any) -> Any:
    """The first widget under ``root`` whose attributes equal ``attrs`` (e.g. ``text="DRAW"``)."""
    for widget in walk(root):
        if all(getattr(widget, k, object()) == v for k, v in attrs.items()):
            return widget
    raise LookupError(f"no widget with {attrs} under {root!r}")


def find_all(root: Any, predicate: Callable[[Any], bool]) -> list[Any]:
    return [w for w in walk(root) if predicate(w)]


def _stop_games(root: Any) -> None:
    """Stop every game screen a test left running (screens not on show too), as leaving it would:
    its referee closes and its computer worker ends, instead of waiting for ever in this process;
    likewise every camera screen's frame reader."""
    from kivy.uix.screenmanager import ScreenManager

    from app.ui.board99.game_screen import GameScreen

    seen: set[int] = set()
    todo = [root]
    while todo:
        widget = todo.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        if isinstance(widget, GameScreen) and widget.referee is not None:
            widget.stop()
        if callable(getattr(widget, "stop_camera", None)):
            # A camera screen shown without a manager never gets on_leave: its 10 Hz frame reader
            # went on in every later test of the process (the screen audit's render of a synthetic
            # camera, each frame, made the last tests of a worker minutes slower).
            widget.stop_camera()
        todo.extend(widget.children)
        if isinstance(widget, ScreenManager):
            todo.extend(widget.screens)


class UI:
    """The window, cleared between tests."""

    def __init__(self) -> None:
        from kivy.base import EventLoop
        from kivy.core.window import Window

        EventLoop.ensure_window()
        self.window = Window
        self.window.size = (800, 480)

    def show(self, widget: Any) -> Any:
        self.window.add_widget(widget)
        frames(3)
        return widget

    def clear(self) -> None:
        for child in list(self.window.children):
            _stop_games(child)
            stop_phone_view = getattr(getattr(child, "app", None), "stop_phone_view", None)
            if stop_phone_view is not None:  # an exhibit app's web server (tests/exhibit_catalog.py)
                stop_phone_view()
            self.window.remove_widget(child)
        frames(1)

    def resize(self, width: int, height: int) -> None:
        self.window.size = (width, height)
        frames(3)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        frames(2)
        # Kivy numbers its screenshots (name0001.png...); keep one file per name, the latest.
        saved = Path(self.window.screenshot(str(ARTIFACTS / f"{name}.png")))
        return saved.replace(ARTIFACTS / f"{name}.png")


@pytest.fixture
def ui() -> Iterator[UI]:
    surface = UI()
    surface.clear()
    yield surface
    surface.clear()
    surface.resize(800, 480)
