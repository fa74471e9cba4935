"""Exhibitor mode with the real loop, visitor and staff screens together, all day long (issue 15).

What only shows when the parts meet: each game's computer worker ends with its game, and nothing a
visitor's game opened is left over the loop to swallow the next visitor's touch.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from app.paths import default_database
from app.store import GameStore
from tests.exhibit_support import exhibit_app, exhibit_config, run
from tests.fakes import FakeClock
from tests.ui_support import UI, frames, tap

pytestmark = pytest.mark.ui


@pytest.fixture
def real_exhibit(ui: UI) -> Iterator[Any]:
    """The shell's exhibit hook with the real visitor and staff screens, on a fake clock."""
    app = exhibit_app(ui)
    visitor = app.exhibit_controller.visitor
    visitor.computer_pace = 0.0
    visitor.clock = FakeClock()  # the stability window of the visitor's board, stepped by the test
    yield app
    app.exhibit_controller.release()
    app.exhibit["scratch"].close()


def _workers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("computer-thinker") and t.is_alive()}


def _modals() -> list[Any]:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    return [w for w in Window.children if isinstance(w, ModalView)]


def _play_a_little(app: Any) -> None:
    """The visitor draws twice, so the computer thinks (on its worker) in between."""
    from tests.ui_support import find

    visitor = app.exhibit_controller.visitor
    for _ in range(2):
        tap(find(visitor, text="DRAW"))
        for _ in range(6):
            frames(1)
            visitor.clock.now += 0.5
            visitor.pump()
            visitor.referee.finish_thinking(5)


def _until_the_board_agrees(visitor: Any) -> None:
    """Step the visitor's board (frames, its fake clock, the pump) until the referee has judged the
    empty board the game started on, for 20 real seconds at most (a loaded machine). A peg put in
    before that is one the new game found on the board: "take it out", not "who played it?"."""
    import time

    deadline = time.monotonic() + 20
    while not visitor.referee.board_agrees:
        assert time.monotonic() < deadline, f"the board never agreed: {visitor.referee.prompt.text}"
        frames(1)
        visitor.clock.now += 0.5
        visitor.pump()


def test_each_game_ends_its_computer_worker_all_day(real_exhibit: Any) -> None:
    """Game after game (the loop's and visitors'): at most the game on show has a worker alive."""
    import time

    controller = real_exhibit.exhibit_controller
    before = _workers()  # other tests' workers, if any: not this test's business
    for _ in range(4):
        run(real_exhibit, 20)  # the loop's Game of 99 (two computers) plays on
        tap(controller.loop.stage)
        frames(2)
        assert real_exhibit.ctx.manager.current == "exhibit_visitor"
        _play_a_little(real_exhibit)
        tap(controller.visitor.stop_button)
        frames(2)
        assert real_exhibit.ctx.manager.current == "home"
    deadline = time.monotonic() + 5
    while len(_workers() - before) > 1:  # the loop's demo on show may have one
        assert time.monotonic() < deadline, f"{len(_workers() - before)} computer workers alive"
        time.sleep(0.01)
    controller.release()
    deadline = time.monotonic() + 5
    while _workers() - before:
        assert time.monotonic() < deadline, f"{len(_workers() - before)} workers alive after release"
        time.sleep(0.01)


@pytest.mark.parametrize("loop_board,shown", [(True, "board"), (False, "board99")])
def test_the_config_key_loop_board_shows_the_real_boards_readings(ui: UI, loop_board: bool,
                                                                  shown: str) -> None:
    """``[exhibit] loop_board`` reaches the loop through the shell's hook (a sensor board configured)."""
    from dataclasses import replace

    from app.ui.shell import Table99App
    from hardware.simulated import SimulatedBoard

    board = SimulatedBoard()  # stands in for the serial board behind the same BoardSource seam
    config = replace(exhibit_config(loop_board=loop_board, games=["board99"]), board_source="serial")
    app = Table99App(config=config, store=GameStore(default_database()), make_source=lambda kind: board)
    app.exhibit_clock = FakeClock()
    app.exhibit_autotick = False
    ui.show(app.build())
    controller = app.exhibit_controller
    try:
        assert controller.settings.loop_board is loop_board
        assert controller.loop.demo is not None and controller.loop.demo.kind == shown
    finally:
        controller.release()
        app.exhibit["scratch"].close()


@pytest.mark.parametrize("pad", ["play", "who-played"])
@pytest.mark.parametrize("how", ["idle", "left"])
def test_a_card_pad_left_open_never_swallows_the_next_visitors_touch(real_exhibit: Any, pad: str,
                                                                     how: str) -> None:
    """The soak's lost arrival: a visitor walks away with a card pad open; the game ends (idle, or
    left); the next visitor's one touch on the loop must start a game, with no popup over the loop."""
    from tests.ui_support import find

    app, controller = real_exhibit, real_exhibit.exhibit_controller
    counts = app.exhibit["counts"]
    visitor = controller.visitor
    run(app, 5)
    tap(controller.loop.stage)
    frames(2)
    assert app.ctx.manager.current == "exhibit_visitor"
    if pad == "play":
        _play_a_little(app)
        tap(find(visitor, text="PLAY"))
    else:  # a peg without PLAY: the screen asks which card it is for
        _until_the_board_agrees(visitor)  # else the peg is on the board the game started from
        visitor.source.put(visitor.referee.hole_of(99), "red")
        for _ in range(20):
            frames(1)
            visitor.clock.now += 0.5
            visitor.pump()
            if _modals():
                break
    frames(2)
    assert _modals(), f"no card pad open: {visitor.referee.phase} {visitor.referee.prompt.text}"
    if how == "idle":
        run(app, controller.settings.idle_seconds + controller.settings.still_there_seconds + 2)
    else:
        controller.visitor_ended("visitor")  # the soak's visitor leaves (the game's own way home)
    frames(3)
    assert app.ctx.manager.current == "home"
    assert _modals() == [], [type(m).__name__ for m in _modals()]
    started = counts.summary().today_started
    run(app, 5)
    frames(3)
    assert _modals() == [], [type(m).__name__ for m in _modals()]
    tap(controller.loop.stage)  # the next visitor's one touch
    frames(2)
    assert app.ctx.manager.current == "exhibit_visitor"
    assert counts.summary().today_started == started + 1


@pytest.mark.parametrize("how", ["stop", "left", "idle"])
def test_a_touch_in_the_first_frame_back_on_the_loop_starts_a_game(real_exhibit: Any, how: str) -> None:
    """The soak's lost arrival (58 arrivals, 57 counted): the next visitor touched the loop in the very
    frame the last game returned to it, when Kivy's manager still counted the (instant) change of
    screen as a transition and dropped the touch. Touches here go through the window, as a finger's."""
    from kivy.tests.common import UnitTestTouch

    app, controller = real_exhibit, real_exhibit.exhibit_controller
    counts = app.exhibit["counts"]
    run(app, 5)
    tap(controller.loop.stage)
    frames(2)
    assert app.ctx.manager.current == "exhibit_visitor"
    if how == "stop":
        tap(controller.visitor.stop_button)  # (tap draws one frame: the change of screen is over)
    elif how == "left":
        controller.visitor_ended("visitor")
    else:
        clock = app.exhibit_clock
        clock.now += controller.settings.idle_seconds + 1
        controller.tick()  # "Still there?"
        clock.now += controller.settings.still_there_seconds + 1
        controller.tick()  # nobody answered: back to the loop
    assert app.ctx.manager.current == "home" and _modals() == []
    started = counts.summary().today_started
    touch = UnitTestTouch(400, 300)  # no frame in between
    touch.touch_down()
    touch.touch_up()
    assert app.ctx.manager.current == "exhibit_visitor"
    assert counts.summary().today_started == started + 1


def test_pegs_moved_on_a_real_board_keep_still_there_away(ui: UI) -> None:
    """A visitor who only moves pegs on the table's sensor board (no touch on the screen) is someone
    at the table: "Still there?" does not come while pegs move, and a peg answers it like a touch.
    The same pegs read again (a sensor board's rescan) are not a move."""
    from dataclasses import replace

    from tests.test_ui_exhibit_visitor import RealBoard

    real = RealBoard()
    app = exhibit_app(ui, config=replace(exhibit_config(), board_source="gpio"), make_source=real.make_source)
    clock = app.exhibit_clock
    controller = app.exhibit_controller
    try:
        visitor = controller.visitor
        run(app, 5)
        tap(controller.loop.stage)
        frames(2)
        assert app.ctx.manager.current == "exhibit_visitor" and visitor.source is real.board
        idle = controller.settings.idle_seconds
        pegs: set[int] = set()
        for hole in range(4):  # four moves, each within the idle time, together well past it
            clock.now += idle * 0.75
            controller.tick()
            assert controller.still_there is None, f"asked after peg {hole}"
            pegs ^= {hole}
            real.board.pegs(pegs)
            visitor.pump()
        clock.now += idle * 0.75
        real.board.pegs(pegs)  # the same pegs again: nobody moved
        visitor.pump()
        clock.now += idle * 0.5
        controller.tick()
        assert controller.still_there is not None  # nothing moved for longer than the idle time
        clock.now += 1
        real.board.pegs(pegs | {10})  # a peg answers it, as a touch would
        visitor.pump()
        controller.tick()
        assert controller.still_there is None and app.ctx.manager.current == "exhibit_visitor"
    finally:
        controller.release()
        app.exhibit["scratch"].close()


def test_leave_exhibitor_mode_from_the_real_staff_screen_gives_a_working_family_app(ui: UI) -> None:
    """The staff's way out, as a finger takes it: Staff, PIN, Leave exhibitor mode, Yes. The family's
    home screen comes, in the family's language (the exhibit's here is German), saying the exhibit is
    off until the table restarts; nothing of the exhibit is left running or blocking, and the family's
    app works (a game's setup opens, home leads home, no loop comes back)."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    from app import i18n
    from app.i18n import tr
    from app.ui.shell import Table99App
    from tests.exhibit_support import PIN
    from tests.ui_support import find, walk

    app = Table99App(config=exhibit_config(language="de"), store=GameStore(default_database()))
    app.exhibit_clock = clock = FakeClock()
    app.exhibit_autotick = False
    ui.show(app.build())
    controller = app.exhibit_controller
    controller.start(ui.window)
    scratch = app.exhibit["scratch"]
    manager = app.ctx.manager
    try:
        assert i18n.language() == "de"
        run(app, 5)
        tap(controller.loop.staff_button)
        staff = controller.staff
        for key in (*PIN, "ok"):
            tap(next(w for w in walk(staff) if getattr(w, "pin_key", None) == key))
        assert staff.unlocked
        leave = tr("Leave exhibitor mode")
        tap(find(staff, text=leave))
        frames(1)
        (dialog,) = [w for w in Window.children if isinstance(w, ModalView)]
        tap(find(dialog, text=leave))
        frames(2)
        assert manager.current == "home" and type(manager.current_screen).__name__ == "HomeScreen"
        assert i18n.language() == "en"  # the family's (its settings and config say nothing: English)
        texts = [str(getattr(w, "text", "")) for w in walk(manager.current_screen)]
        assert "Exhibitor mode is off until the table restarts." in texts
        assert app.exhibit is None and app.exhibit_controller is None and "exhibit" not in app.ctx.extras
        assert not [w for w in Window.children if isinstance(w, ModalView)]  # nothing left over home
        assert not manager.has_screen("exhibit_staff") and not manager.has_screen("exhibit_visitor")
        assert controller.loop.demo is None and not controller.blocking
        assert Window.dispatch("on_request_close") is not True  # the window may close again
        clock.now += 3600
        controller.tick()  # autotick is off here: tick the released controller (and its loop) by hand
        controller.loop.tick()
        frames(2)
        assert manager.current == "home"  # no exhibit timer brings a loop back
        setups = [n for n in manager.screen_names if n.endswith("-setup")]
        assert setups
        app.ctx.go(setups[0])
        frames(1)
        app.ctx.go("home")
        frames(1)
        assert type(manager.current_screen).__name__ == "HomeScreen"
        ui.screenshot("exhibit-left-family-home")
    finally:
        i18n.set_language("en")
        if app.exhibit_controller is not None:
            app.exhibit_controller.release()
        scratch.close()
