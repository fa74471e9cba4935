"""A hand-wired board on USB: the Pi applies a taught wiring map to the serial board's readings,
and the app's teach step learns that map from the emulator over a real pty."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app import paths
from app.config import ConfigError, parse_config
from app.source_factories import serial as serial_factory
from app.sources import make_source
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.serial_source import SerialBoardSource
from hardware.board_source import BoardReading
from hardware.teach import Step
from hardware.wiring import WiringMap
from tests.test_serial_app_ui import frames_within
from tests.ui_support import find, tap

pytest.importorskip("serial", reason="pyserial is part of the dev extra")


def serial_config(link: Path, extra: str = "") -> Any:
    return parse_config(f'[board]\nsource = "serial"\n[board.serial]\nport = "{link}"\n'
                        f"retry_interval = 0.05\n{extra}")


def test_readings_go_through_the_wiring_map_and_inputs_stay_raw_for_teaching(tmp_path: Path) -> None:
    link = tmp_path / "board"
    source = SerialBoardSource(str(link), retry_interval=0.02, handshake_timeout=0.1,
                               wiring=WiringMap.empty(100).with_hole(0, 37))
    readings: list[frozenset[int]] = []
    inputs: list[frozenset[int]] = []
    hole_0_read = threading.Event()

    def note(event: object) -> None:
        if isinstance(event, BoardReading):
            readings.append(event.occupied)
            if event.occupied == {0}:
                hole_0_read.set()

    source.subscribe(note)
    source.subscribe_inputs(inputs.append)
    assert source.input_count == 100
    with BoardEmulator(link=link, heartbeat_ms=50) as board:
        source.start()
        try:
            board.place(37, 50)  # 50 is no hole in this map yet
            assert hole_0_read.wait(10)
            assert frozenset({37, 50}) in inputs
            source.set_wiring(WiringMap.empty(100).with_hole(0, 37).with_hole(9, 50))
            assert readings[-1] == {0, 9}  # the board as it stands, through the new map, at once
        finally:
            source.stop()


def test_the_serial_factory_loads_the_taught_map(tmp_path: Path) -> None:
    link = tmp_path / "board"
    assert make_source(serial_config(link)).wiring is None  # nothing taught: the board's numbers
    path = paths.data_dir() / serial_factory.WIRING_FILE
    WiringMap.empty(100).with_hole(3, 40).save(path)
    source = make_source(serial_config(link))
    assert isinstance(source, SerialBoardSource)
    assert source.wiring is not None and source.wiring.hole_of(40) == 3
    other = tmp_path / "mine.json"
    WiringMap.empty(104).save(other)
    with pytest.raises(ConfigError, match="taught for 104 inputs, the board has 100"):
        make_source(serial_config(link, f'map_file = "{other}"\n'))


def test_teaching_a_serial_board_in_the_app(ui: Any, tmp_path: Path) -> None:
    from app.ui.teach_board import TeachBoardScreen

    link = tmp_path / "board"
    config = serial_config(link)
    ctx = SimpleNamespace(config=config, go=lambda _name: None,
                          make_source=lambda kind: make_source(config, kind))
    with BoardEmulator(link=link, heartbeat_ms=100) as board:
        screen = TeachBoardScreen(ctx)
        ui.show(screen)
        screen.open_board()
        try:
            assert isinstance(screen.source, SerialBoardSource)

            def step_is(step: Step) -> bool:
                screen.poll()
                return screen.session is not None and screen.session.status().step is step

            start = find(screen, text="Start")
            frames_within(lambda: step_is(Step.CLEAR_BOARD) and not start.disabled)
            tap(start)
            assert "row 1, column 1" in screen.message.text
            board.place(37)  # the peg in hole 0 is the board's number 37
            frames_within(lambda: step_is(Step.LIFT))
            board.remove(37)
            frames_within(lambda: step_is(Step.PLACE) and screen.session.status().hole == 1)
            tap(find(screen, text="Save"))
            assert "Saved: 1 of 100 holes are known." in screen.message.text
            saved = WiringMap.load(paths.data_dir() / serial_factory.WIRING_FILE)
            assert saved.input_of(0) == 37
            board.place(37)
            frames_within(lambda: screen.source.last_reading is not None
                   and screen.source.last_reading.occupied == {0})  # the app now reads hole 0
        finally:
            screen.close_board()
