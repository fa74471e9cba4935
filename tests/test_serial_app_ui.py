"""The real app on the emulated serial board: link state on screen, a play the referee accepts.

The emulator speaks the protocol over a real pty; the app builds its source from a config naming
the port, exactly as for a board on USB (``[board.serial] port = ...``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app import i18n
from app.config import parse_config
from app.referee import Phase
from app.sources import make_source
from firmware_bridge.emulator import BoardEmulator
from tests.test_ui_board99 import Driver
from tests.ui_support import frames


def frames_within(condition: Callable[[], bool], seconds: float = 10.0,
                  state: Callable[[], object] = lambda: "") -> None:
    """Run frames until ``condition()`` holds; the serial thread works in real time meanwhile."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"condition not met in time; {state()}"
        frames(1)


def serial_driver(ui: Any, link: Path) -> Driver:
    config = parse_config(f'[board]\nsource = "serial"\n[board.serial]\nport = "{link}"\n'
                          "retry_interval = 0.05\n")
    d = Driver(ui)
    d.app.ctx.make_source = lambda kind: make_source(config, "serial")
    return d


def test_a_play_on_the_emulated_serial_board_is_accepted_and_the_link_state_shown(
        ui: Any, tmp_path: Path) -> None:
    with BoardEmulator(link=tmp_path / "board", heartbeat_ms=200) as board:
        d = serial_driver(ui, tmp_path / "board")
        d.start_game()
        try:
            info = lambda: d.screen.info_label.text  # noqa: E731
            events: list[object] = []
            d.screen.source.subscribe(events.append)
            frames_within(lambda: "Board: connected (" in info())
            assert f"on {board.port} (protocol 1." in info()
            # after a (re)connect the referee first wants the board to agree with the game, then
            # counts new pegs: let the first (empty) snapshot settle before anyone plays
            frames_within(lambda: d.screen.source.last_reading is not None)
            d.settle()
            d.settle()
            d.press("DRAW")
            d.press("DRAW")
            d.press("PLAY")
            d.type_card(40)
            assert d.screen.referee.phase is Phase.PLACE_PEG, (d.screen.prompt_label.text, d.stored(), events)
            d.screen.referee.subscribe(events.append)
            board.place(57)

            def judged() -> bool:  # the reading crosses a thread: let the board settle until it is
                d.settle()
                return d.stored()[-1].get("do") == "play"

            frames_within(judged, state=lambda: (d.stored(), d.screen.source.last_reading, info(),
                                                 d.screen.prompt_label.text, d.screen.referee.phase, events))
            assert d.stored()[-1] == {"by": d.screen.game.setup.players[0], "do": "play", "card": 40,
                                      "square": 57}
            board.unplug()
            frames_within(lambda: "Board: connection lost, retrying" in info())
            assert "not connected" in d.screen.prompt_label.text
            i18n.set_language("de")
            try:
                d.screen.refresh()
                frames(2)
                ui.screenshot("board99-serial-link-lost-de")
                assert "Brett: Verbindung verloren, neuer Versuch läuft" in info()
                assert "; neuer Versuch)" in info()
            finally:
                i18n.set_language("en")
            board.plug()
            frames_within(lambda: "Board: connected (" in info())
            d.settle()
            assert d.screen.board.pegs == {57: "red"}
        finally:
            d.screen.source.stop()
