"""The teach-the-board screen, headless, on a mock GPIO board scanned by its real thread."""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace
from typing import Any

import pytest

from app import paths
from app.config import Config, ConfigError
from app.source_factories import gpio as gpio_factory
from hardware.gpio_setup import ChainWiring, MockBoard
from hardware.gpio_source import GpioBoardSource
from hardware.scan import ScanSettings
from hardware.teach import Step
from hardware.wiring import WiringMap
from tests.ui_support import find, frames_until, tap


def context(**kwargs: Any) -> Any:
    went: list[str] = []
    return SimpleNamespace(config=Config(), go=went.append, went=went, **kwargs)


@pytest.mark.skipif(importlib.util.find_spec("gpiozero") is None, reason="needs gpiozero for the mock board")
def test_teaching_two_holes_and_saving_the_map(ui: Any) -> None:
    from app.ui.teach_board import TeachBoardScreen

    mock = MockBoard(ChainWiring())
    source = GpioBoardSource(mock.opener(), WiringMap.identity(104), ScanSettings(agree=2), scan_hz=500)
    screen = TeachBoardScreen(context(), source=source)
    ui.show(screen)
    screen.open_board()
    try:
        assert screen.session is not None
        assert "Take every peg off the board" in screen.message.text
        start = find(screen, text="Start")
        assert start.disabled  # not before the board has been read once

        def step_is(step: Step) -> bool:
            screen.poll()
            return screen.session is not None and screen.session.status().step is step

        frames_until(lambda: step_is(Step.CLEAR_BOARD) and not start.disabled, limit=2000)
        tap(start)

        assert "row 1, column 1" in screen.message.text
        assert screen.cells[0].background_color == [0.95, 0.80, 0.12, 1]  # the hole to fill
        mock.set_inputs({37})  # the peg in hole 0 is sensed on input 37
        frames_until(lambda: step_is(Step.LIFT), limit=2000)
        assert "Take the peg out" in screen.message.text
        mock.set_inputs(set())
        frames_until(lambda: step_is(Step.PLACE) and screen.session.status().hole == 1, limit=2000)
        mock.set_inputs({5})
        frames_until(lambda: step_is(Step.LIFT), limit=2000)
        mock.set_inputs(set())
        frames_until(lambda: step_is(Step.PLACE), limit=2000)
        tap(find(screen, text="Skip hole"))
        assert "row 1, column 4" in screen.message.text
        ui.screenshot("teach-board")
        tap(find(screen, text="Save"))
        assert "Saved: 2 of 100 holes are known." in screen.message.text
        saved = WiringMap.load(paths.data_dir() / gpio_factory.WIRING_FILE)
        assert saved.input_of(0) == 37 and saved.input_of(1) == 5 and saved.input_of(2) is None
    finally:
        screen.close_board()
    assert source.reader is None


@pytest.mark.skipif(importlib.util.find_spec("gpiozero") is None, reason="needs gpiozero for the mock board")
def test_a_chain_that_answers_late_is_waited_for(ui: Any) -> None:
    from app.ui.teach_board import TeachBoardScreen

    mock = MockBoard(ChainWiring())
    mock.sim.disconnected = True
    source = GpioBoardSource(mock.opener(), None, ScanSettings(agree=2), scan_hz=500, retry_seconds=0.01)
    screen = TeachBoardScreen(context(), source=source)
    ui.show(screen)
    screen.open_board()
    try:
        assert "does not answer" in screen.message.text and "all ones" in screen.message.text
        assert find(screen, text="Save").disabled and screen.session is None
        mock.sim.disconnected = False  # the ribbon cable goes in

        def ready() -> bool:
            screen.poll()
            return screen.session is not None and not find(screen, text="Start").disabled

        frames_until(ready, limit=2000)
        assert "Take every peg off the board" in screen.message.text
    finally:
        screen.close_board()


def test_a_board_that_cannot_open_is_explained_on_screen(ui: Any) -> None:
    from app.ui.teach_board import TeachBoardScreen

    def broken(kind: str | None) -> Any:
        raise ConfigError("config.toml: [board.gpio] chip", "unknown key (did you mean 'chips'?)")

    ctx = context(make_source=broken)
    screen = TeachBoardScreen(ctx)
    ui.show(screen)
    screen.open_board()
    assert "did you mean 'chips'" in screen.message.text
    assert find(screen, text="Save").disabled
    tap(find(screen, text="Close"))
    assert ctx.went == ["home"]


def test_the_shell_can_build_it(ui: Any) -> None:
    from app.ui.teach_board import NAME, make_screen

    assert make_screen(context()).name == NAME


@pytest.mark.skipif(importlib.util.find_spec("gpiozero") is None, reason="needs gpiozero for the mock board")
def test_known_holes_are_skipped_and_check_mode_finds_and_corrects_a_wrong_hole(ui: Any) -> None:
    """A saved map with holes 0 and 1: teaching starts at hole 2. Check shows pegs where the map
    puts them and names sensed pegs that are no hole; tapping hole 1 re-teaches it, and a sensor
    that belongs to hole 0 is only moved after "Yes, it is there"."""
    from app.ui.teach_board import BLUE, TeachBoardScreen

    path = paths.data_dir() / gpio_factory.WIRING_FILE
    WiringMap.empty(104).with_hole(0, 37).with_hole(1, 5).save(path)
    mock = MockBoard(ChainWiring())
    source = GpioBoardSource(mock.opener(), WiringMap.identity(104), ScanSettings(agree=2), scan_hz=500)
    screen = TeachBoardScreen(context(), source=source)
    ui.show(screen)
    screen.open_board()
    try:
        def step_is(step: Step) -> bool:
            screen.poll()
            return screen.session is not None and screen.session.status().step is step

        start = find(screen, text="Start")
        frames_until(lambda: step_is(Step.CLEAR_BOARD) and not start.disabled, limit=2000)
        tap(start)
        assert "row 1, column 3" in screen.message.text  # holes 0 and 1 are known: skipped
        tap(find(screen, text="Check"))
        mock.set_inputs({37, 80})  # hole 0's sensor, and a sensor that is no hole yet
        frames_until(lambda: step_is(Step.CHECK) and screen.session.checked_holes() == {0}, limit=2000)
        assert tuple(screen.cells[0].background_color) == BLUE  # sensed where the map puts it
        assert "1 sensed peg belongs to no hole yet." in screen.message.text
        ui.screenshot("teach-board-check")
        mock.set_inputs(set())
        frames_until(lambda: step_is(Step.CHECK) and not screen.session.checked_holes(), limit=2000)
        tap(screen.cells[1])  # hole 1 looks wrong: teach it again
        assert "Put a peg in the hole at row 1, column 2." in screen.message.text
        mock.set_inputs({37})  # ...but the peg is sensed by hole 0's sensor
        frames_until(lambda: step_is(Step.CONFLICT), limit=2000)
        assert "already the hole at row 1, column 1" in screen.message.text
        ui.screenshot("teach-board-conflict")
        tap(find(screen, text="Yes, it is there"))
        mock.set_inputs(set())
        frames_until(lambda: step_is(Step.PLACE), limit=2000)
        tap(find(screen, text="Save"))
        saved = WiringMap.load(path)
        assert saved.input_of(1) == 37 and saved.input_of(0) is None
    finally:
        screen.close_board()
