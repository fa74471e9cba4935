"""Exhibitor mode's attract loop and controller (issue 15), headless, on a fake clock.

The visitor's game here is a placeholder screen (tests only): the real one is
app/ui/exhibit/visitor.py, on the same seam (``start()``, ``stop()``, ``on_end(why)``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.config import Config
from app.exhibit.settings import exhibit_defaults
from app.paths import default_database
from app.store import GameStore
from tests.exhibit_support import exhibit_app, run
from tests.fakes import FakeClock
from tests.ui_support import UI, find, frames, tap

pytestmark = pytest.mark.ui
@pytest.fixture
def exhibit(ui: UI, monkeypatch: pytest.MonkeyPatch) -> Any:
    app = exhibit_app(ui, monkeypatch)
    scratch = app.exhibit["scratch"]
    yield app
    if app.exhibit_controller is not None:
        app.exhibit_controller.release()
    scratch.close()


def test_the_shell_builds_exhibit_mode_with_the_loop_first(exhibit: Any) -> None:
    ctx = exhibit.ctx
    parts = ctx.extras["exhibit"]
    assert set(parts) >= {"settings", "lock", "counts", "scratch"}
    assert ctx.manager.current == "home" and type(ctx.manager.current_screen).__name__ == "AttractScreen"
    assert ctx.manager.has_screen("exhibit_visitor") and ctx.manager.has_screen("exhibit_staff")
    assert parts["scratch"].path != ctx.store.path  # the loop's games are never in the family's store


def test_the_loop_cycles_through_all_three_games_each_played_on_screen(exhibit: Any) -> None:
    loop = exhibit.exhibit_controller.loop
    seen: dict[str, dict[str, int]] = {"board99": {}, "parlett": {}, "count99": {}}
    kinds: list[str] = []
    for _ in range(2000):
        run(exhibit, 0.5, every=1)
        demo = loop.demo
        if demo is None:
            continue
        if not kinds or kinds[-1] != demo.kind:
            kinds.append(demo.kind)
        mark = seen[demo.kind]
        if demo.kind == "board99":
            state = demo.game.state
            mark["pegs"] = max(mark.get("pegs", 0), len(state.pegs))
            mark["penalties"] = max(mark.get("penalties", 0), len(state.penalties))
            mark["verdicts"] = max(mark.get("verdicts", 0), len(demo.game.actions))
        elif demo.kind == "parlett":
            mark["deals"] = max(mark.get("deals", 0), len(demo.session.sheet.deals))
        else:
            mark["count"] = max(mark.get("count", 0), demo.session.table.count)
        if len(kinds) >= 4:
            break
    assert kinds[:4] == ["board99", "parlett", "count99", "board99"]
    assert seen["board99"]["pegs"] >= 3 and seen["board99"]["penalties"] >= 1  # refereeing on show
    assert seen["parlett"]["deals"] >= 3  # the score table filled in
    assert seen["count99"]["count"] >= 30  # the count climbed


def test_the_loop_has_captions_and_touch_to_play(exhibit: Any) -> None:
    loop = exhibit.exhibit_controller.loop
    run(exhibit, 10)
    assert loop.caption_label.text and loop.title_label.text == "The Game of 99"
    assert find(loop, text="Touch to play")


def test_a_touch_on_the_loop_starts_a_visitors_game_and_counts_it(exhibit: Any) -> None:
    controller = exhibit.exhibit_controller
    run(exhibit, 5)
    tap(controller.loop.stage)
    assert exhibit.ctx.manager.current == "exhibit_visitor"
    assert controller.visitor.started == 1 and controller.loop.demo is None
    assert exhibit.ctx.extras["exhibit"]["counts"].summary().today_started == 1


def test_the_staff_button_opens_the_staff_screen_not_a_game(exhibit: Any) -> None:
    controller = exhibit.exhibit_controller
    tap(controller.loop.staff_button)
    assert exhibit.ctx.manager.current == "exhibit_staff" and controller.visitor.started == 0
    controller.staff.on_back()
    assert exhibit.ctx.manager.current == "home"


def test_idle_asks_still_there_then_returns_to_the_loop(exhibit: Any) -> None:
    controller = exhibit.exhibit_controller
    settings = controller.settings
    tap(controller.loop.stage)
    run(exhibit, settings.idle_seconds - 2)
    assert controller.still_there is None
    run(exhibit, 3)
    assert controller.still_there is not None  # "Still there?"
    tap(controller.still_there.keep)  # "Yes, keep playing"
    assert controller.still_there is None and exhibit.ctx.manager.current == "exhibit_visitor"
    run(exhibit, settings.idle_seconds + 1)
    assert controller.still_there is not None
    run(exhibit, settings.still_there_seconds + 1)
    assert exhibit.ctx.manager.current == "home" and controller.still_there is None
    assert controller.visitor.stopped == 1
    summary = exhibit.ctx.extras["exhibit"]["counts"].summary()
    assert summary.today_started == 1 and summary.today_finished == 0
    run(exhibit, 5)
    assert controller.loop.demo is not None  # the loop plays again


def test_a_touch_anywhere_keeps_the_visitor_from_going_idle(exhibit: Any) -> None:
    controller = exhibit.exhibit_controller
    tap(controller.loop.stage)
    for _ in range(4):
        run(exhibit, controller.settings.idle_seconds * 0.6)
        tap(controller.visitor)  # any touch on the window
    assert controller.still_there is None and exhibit.ctx.manager.current == "exhibit_visitor"


def test_every_screen_leads_back_to_the_loop(exhibit: Any) -> None:
    """A game's or history's "home" is the loop; left alone, staff/settings/history return to it."""
    controller = exhibit.exhibit_controller
    for name in ("history", "settings", "exhibit_staff"):
        exhibit.ctx.go(name)
        run(exhibit, controller.settings.idle_seconds + 1)
        assert exhibit.ctx.manager.current == "home", name
    exhibit.ctx.go("history")
    frames(3)
    tap(find(exhibit.ctx.manager.current_screen, text="Back"))
    assert exhibit.ctx.manager.current == "home"
    tap(controller.loop.stage)  # a visitor's game left by its own way home counts as stopped
    exhibit.ctx.go("home")
    assert controller.visitor.stopped == 1 and controller.demo_id is None


def test_a_finished_visitor_game_is_counted_and_the_loop_comes_back(exhibit: Any) -> None:
    controller = exhibit.exhibit_controller
    tap(controller.loop.stage)
    controller.visitor.on_end("finished")
    assert exhibit.ctx.manager.current == "home"
    assert exhibit.ctx.extras["exhibit"]["counts"].summary().today_finished == 1


def test_escape_back_f1_and_close_requests_do_not_quit(exhibit: Any) -> None:
    window = exhibit.exhibit_controller._window
    for key in (27, 1001, 282):
        assert window.dispatch("on_keyboard", key, 0, None, []) is True, key
    assert window.dispatch("on_request_close") is True
    assert exhibit.open_settings() is False
    assert exhibit.ctx.manager.current == "home"


def test_after_the_staff_lets_go_the_window_may_close_again(exhibit: Any) -> None:
    controller = exhibit.exhibit_controller
    controller.release()
    assert not controller.on_request_close() and not controller.on_key(None, 27)


def test_leave_exhibitor_mode_gives_the_family_home_screen(exhibit: Any) -> None:
    exhibit.exhibit_controller.staff.leave_exhibit()
    assert exhibit.ctx.manager.current == "home"
    assert type(exhibit.ctx.manager.current_screen).__name__ == "HomeScreen"
    assert "exhibit" not in exhibit.ctx.extras


def test_nothing_of_the_loop_or_a_visitor_reaches_the_familys_store(exhibit: Any) -> None:
    controller = exhibit.exhibit_controller
    family = exhibit.ctx.store
    scratch = exhibit.ctx.extras["exhibit"]["scratch"]
    run(exhibit, 400)  # all three demos
    tap(controller.loop.stage)
    controller.visitor.on_end("visitor")
    run(exhibit, 30)
    assert family.games() == []  # no game of the loop or the visitor in the family's history
    exhibit.ctx.go("history")
    frames(2)
    assert find(exhibit.ctx.manager.current_screen, text="No games yet.")
    assert len(scratch.games()) <= 1  # only the demo on show: each demo drops its game when done


def test_an_exhibit_without_a_usable_pin_still_starts_locked(ui: UI, monkeypatch: pytest.MonkeyPatch) -> None:
    config = replace(Config(), exhibit={**exhibit_defaults(), "enabled": True, "pin": ""},
                     exhibit_problem="[exhibit] pin is missing")
    app = exhibit_app(ui, monkeypatch, config)
    try:
        assert app.ctx.manager.current == "home" and app.exhibit["settings"].locked_out
    finally:
        app.exhibit_controller.release()
        app.exhibit["scratch"].close()


def test_with_the_real_visitor_and_staff_screens(ui: UI) -> None:
    """The shell's hook with app/ui/exhibit/visitor.py and staff.py: touch, Stop, counted, loop again."""
    app = exhibit_app(ui)
    controller = app.exhibit_controller
    try:
        assert type(controller.visitor).__name__ == "VisitorGameScreen"
        assert type(controller.staff).__name__ == "StaffScreen"
        run(app, 5)
        tap(controller.loop.stage)
        frames(3)
        assert app.ctx.manager.current == "exhibit_visitor" and controller.visitor.game is not None
        tap(controller.visitor.stop_button)
        assert app.ctx.manager.current == "home"
        summary = app.exhibit["counts"].summary()
        assert (summary.today_started, summary.today_finished) == (1, 0)
        assert app.ctx.store.games() == []
        tap(controller.loop.staff_button)
        assert app.ctx.manager.current == "exhibit_staff"
    finally:
        controller.release()
        app.exhibit["scratch"].close()


def test_the_staff_may_show_the_real_boards_readings_in_the_loop(ui: UI) -> None:
    """With a sensor board configured and ``show_board``, the loop shows what the board senses."""
    from kivy.uix.screenmanager import ScreenManager

    from app.speech import Announcer
    from app.ui.context import AppContext
    from app.ui.exhibit.attract import AttractScreen
    from hardware.simulated import SimulatedBoard

    board = SimulatedBoard()  # stands in for the serial board behind the same BoardSource seam
    config = replace(Config(), board_source="serial")
    ctx = AppContext(GameStore(default_database()), config, Announcer(False), ScreenManager(),
                     make_source=lambda kind: board)
    clock = FakeClock()
    scratch = GameStore(default_database().with_name("scratch.sqlite3"))
    loop = AttractScreen(ctx, scratch, ("board99", "parlett"), clock=clock, on_touch=lambda: None,
                         on_staff=lambda: None, show_board=True)
    ctx.manager.add_widget(loop)
    ui.show(ctx.manager)
    loop.start()
    assert loop.demo is not None and loop.demo.kind == "board"
    board.put(10)
    board.put(11)
    clock.now += 1
    loop.tick()
    assert loop.demo.screen.pegs.keys() == {10, 11} and "2" in loop.caption_label.text
    plain = AttractScreen(ctx, scratch, ("board99",), clock=clock, on_touch=lambda: None,
                          on_staff=lambda: None, show_board=False)
    assert plain.games == ("board99",)  # the default: the simulated board's game
    loop.stop()


def test_a_new_language_rebuilds_the_exhibit_with_one_loop_running(exhibit: Any) -> None:
    """The staff's language switch rebuilds every screen: the old loop rests, its demo is dropped."""
    old = exhibit.exhibit_controller
    run(exhibit, 5)
    exhibit.switch_language("de")
    try:
        new = exhibit.exhibit_controller
        assert new is not old and old.loop.demo is None
        exhibit.ctx.go("home")
        run(exhibit, 5)
        assert old.loop.demo is None and new.loop.demo is not None
        assert len(exhibit.exhibit["scratch"].games()) == 1  # only the new loop's demo
    finally:
        from app import i18n

        i18n.set_language("en")


def test_narration_says_the_captions_and_the_qr_code_shows_with_the_web_display(ui: UI) -> None:
    from kivy.uix.screenmanager import ScreenManager

    from app.speech import Announcer
    from app.ui.context import AppContext
    from app.ui.exhibit.attract import AttractScreen

    class Web:
        def view_url(self) -> str:
            return "http://table99.local:8099/view"

    class Live:
        web = Web()

    ctx = AppContext(GameStore(default_database()), Config(), Announcer(False), ScreenManager())
    ctx.extras["live"] = Live()
    clock = FakeClock()
    scratch = GameStore(default_database().with_name("scratch.sqlite3"))
    loop = AttractScreen(ctx, scratch, ("parlett",), clock=clock, on_touch=lambda: None,
                         on_staff=lambda: None, narration=True, language="de")
    loop.narrator._binary = None  # nothing is played on the test machine; what would be said is kept
    ctx.manager.add_widget(loop)
    ui.show(ctx.manager)
    loop.start()
    for _ in range(20):
        clock.now += 1
        loop.tick()
    assert loop.narrator.language == "de"
    assert loop.narrator.spoken[0].startswith("Ninety-Nine (Parlett)")
    assert any(text.startswith("Deal 1") for text in loop.narrator.spoken)
    assert loop.qr.texture is not None and loop.qr.width >= 48
    for _ in range(400):  # a day's narration is not kept
        clock.now += 1
        loop.tick()
    assert 0 < len(loop.narrator.spoken) <= 40
    quiet = AttractScreen(ctx, scratch, ("parlett",), clock=clock, on_touch=lambda: None,
                          on_staff=lambda: None, narration=False)
    quiet.start()
    assert quiet.narrator.spoken == []
    loop.stop()
    quiet.stop()


def test_the_board_demos_end_names_no_button_the_loop_does_not_show(exhibit: Any) -> None:
    """Issue 32, point 15: the demo ended with "Ann won! Tap NEW GAME for another game, or Menu to
    stop." while the loop shows neither button; visitors were told to tap what is not there."""
    loop = exhibit.exhibit_controller.loop
    ended = ""
    for _ in range(2000):
        run(exhibit, 0.5, every=1)
        demo = loop.demo
        if demo is not None and demo.kind == "board99" and demo.game.state.outcome is not None:
            demo.screen.refresh()
            ended = demo.screen.banner.label.text if demo.screen.banner.kind else ""
            break
    assert ended, "the board demo ended without a banner"
    assert "NEW GAME" not in ended and "Menu" not in ended, ended
    assert "won" in ended or "tie" in ended, ended
