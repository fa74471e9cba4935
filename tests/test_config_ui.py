"""A config typo on the real screen: ``table99 run`` with a broken file shows the message, logs it, and
the board game then runs on the simulated (on-screen) board instead of a black screen.

These drive ``table99 run`` itself (config path from ``$TABLE99_CONFIG``, the loader, the log line,
the app) with only ``App.run`` replaced by building the root widget into the test window, so what
the screenshots in ``test-artifacts/screens/config-*.png`` show is what the Pi would show.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli import main as table99
from tests.ui_support import find, frames, tap, walk

pytestmark = pytest.mark.ui


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    """A config with language = "de" switches the app's language; the next test must not inherit it."""
    from app import i18n

    yield
    i18n.set_language("en")


def start_app(ui: Any, monkeypatch: pytest.MonkeyPatch, config_text: str, tmp_path: Path) -> Any:
    """``table99 run`` with $TABLE99_CONFIG naming a file with ``config_text``; returns the app."""
    from app.ui.shell import Table99App

    path = tmp_path / "config.toml"
    path.write_text(config_text, encoding="utf-8")
    monkeypatch.setenv("TABLE99_CONFIG", str(path))
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG"):  # run sets these; restore them
        monkeypatch.setenv(name, "1")
    started: list[Any] = []

    def run_in_test_window(app: Any) -> None:
        app.root = app.build()  # what App.run does before it shows the window
        ui.show(app.root)
        started.append(app)

    monkeypatch.setattr(Table99App, "run", run_in_test_window)
    # --web-port 0: no web display. The config's default would listen on 0.0.0.0:8099, which a test
    # must not (and two tests at once collided there: "address already in use" became a second
    # problem line on the home screen).
    assert table99(["run", "--web-port", "0"]) == 0
    assert len(started) == 1
    return started[0]


def shown_texts(root: Any) -> str:
    return "\n".join(w.text for w in walk(root) if isinstance(getattr(w, "text", None), str))


def start_board_game(app: Any) -> Any:
    root = app.root
    tap(find(root, text="New: The Game of 99"))
    tap(find(root, text="Start"))
    frames(2)
    assert root.current == "board99-game"
    return root.get_screen("board99-game")


def test_a_typo_is_on_the_home_screen_and_in_the_log_and_the_game_uses_the_on_screen_board(
    ui: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from hardware.simulated import SimulatedBoard

    with caplog.at_level(logging.ERROR, logger="table99"):
        app = start_app(ui, monkeypatch, '[board]\nsourse = "gpio"\n', tmp_path)
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("[board] sourse" in m and "did you mean 'source'" in m for m in logged), logged
    home = shown_texts(app.root)
    assert "Problem:" in home
    assert "config.toml: [board] sourse: unknown key (did you mean 'source'?)" in home
    assert "using the simulated board until it is fixed" in home
    ui.screenshot("config-typo-home")
    screen = start_board_game(app)
    assert isinstance(screen.source, SimulatedBoard)
    ui.screenshot("config-typo-game")


def test_a_file_that_is_not_toml_still_starts_the_app(
    ui: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    app = start_app(ui, monkeypatch, '[app\nlanguage = "de"\n', tmp_path)
    home = shown_texts(app.root)
    assert "not valid TOML" in home and "line 1" in home
    assert app.ctx.config.board_source == "simulated"


def test_a_typo_in_the_chosen_boards_own_table_is_on_the_home_screen_and_the_rest_still_applies(
    ui: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """[board.serial] is the serial source's own table: a typo there keeps the German language and
    shows the message from the start (not only after a game tried that board), in German."""
    from hardware.simulated import SimulatedBoard

    app = start_app(ui, monkeypatch, '[app]\nlanguage = "de"\n[board]\nsource = "serial"\n'
                                     '[board.serial]\nbaud = "fast"\n', tmp_path)
    home = shown_texts(app.root)
    assert "[board.serial] baud: expected an integer, got 'fast'" in home
    assert "Neu: " in home  # the rest of the file still applies: German
    ui.screenshot("config-board-typo-home-de")
    tap(find(app.root, text="Neu: Das Spiel 99"))
    assert app.root.current == "board99-setup"
    tap(find(app.root, text="Los"))
    frames(2)
    assert isinstance(app.root.get_screen("board99-game").source, SimulatedBoard)

