"""The app shell headless: home with games and resume, a config problem shown, history, settings."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from app.config import Config
from app.store import GameStore
from tests.ui_support import find, frames, tap

pytestmark = pytest.mark.ui


def build_app(**kwargs: Any) -> Any:
    from app.paths import default_database
    from app.ui.shell import Table99App

    kwargs.setdefault("store", GameStore(default_database()))
    app = Table99App(**kwargs)
    root = app.build()
    return app, root


def texts(root: Any) -> list[str]:
    from tests.ui_support import walk

    return [w.text for w in walk(root) if isinstance(getattr(w, "text", None), str)]


def test_home_lists_games_and_shows_a_config_problem(ui: Any) -> None:
    _app, root = build_app(config=Config(), config_problem="config.toml: [board] sourse: unknown key")
    ui.show(root)
    shown = texts(root)
    assert any("New: The Game of 99" in t for t in shown)
    assert any("sourse: unknown key" in t for t in shown)
    ui.screenshot("shell-home")
    tap(find(root, text="Settings"))
    assert root.current == "settings"
    ui.screenshot("shell-settings")
    tap(find(root, text="Back"))
    tap(find(root, text="New: The Game of 99"))
    assert root.current == "board99-setup"


def test_history_lists_and_exports_a_game_as_its_record(ui: Any) -> None:
    from app.games.board99.game import Board99Game, TableSetup
    from app.paths import data_dir, default_database
    from rules import board99 as rules

    store = GameStore(default_database())
    game = Board99Game.create(store, rules.make_setup(["Ann", "Ben"]), TableSetup({"Ann": "red"}))
    new_state, _ = rules.apply(game.state, rules.Draw("Ann"))
    game.commit(rules.Draw("Ann"), new_state)
    _app, root = build_app(store=store)
    ui.show(root)
    assert any("Unfinished games" in t for t in texts(root))
    tap(find(root, text="History"))
    frames(2)
    ui.screenshot("shell-history")
    assert any(re.search(r"\b1 action\b(?!s)", t) for t in texts(root)), texts(root)
    tap(find(root, text="Export"))
    exported = json.loads((data_dir() / "exports" / f"board99-{game.id}.json").read_text())
    assert exported["format"] == "table99/board99" and "app" not in exported
    assert exported["actions"] == [{"by": "Ann", "do": "draw"}]
    rules.replay(rules.record_from_json(exported))


def test_language_switch_rebuilds_the_screens_in_german(ui: Any) -> None:
    from app import i18n

    _app, root = build_app()
    ui.show(root)
    try:
        tap(find(root, text="Settings"))
        tap(find(root, text="Deutsch"))
        frames(2)
        assert any("Einstellungen" in t for t in texts(root))
        ui.screenshot("shell-settings-de")
        tap(find(root, text="Zurück"))
        assert any("Frühere Spiele" in t for t in texts(root))
    finally:
        i18n.set_language("en")


def test_run_without_a_display_says_so(monkeypatch: Any, capsys: Any) -> None:
    from app.cli import main

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    assert main(["run"]) == 3
    assert "no display" in capsys.readouterr().err


def test_run_takes_the_data_directory_from_the_config(tmp_path: Any, monkeypatch: Any) -> None:
    from app.cli import main

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "TABLE99_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "config.toml"
    config.write_text(f"[app]\ndata_dir = '{tmp_path / 'games'}'\n")
    assert main(["run", "--config", str(config)]) == 3  # no display here, but the config was read
    import os

    assert os.environ["TABLE99_DATA_DIR"] == str(tmp_path / "games")


def test_history_exports_each_game_in_its_own_format(ui: Any) -> None:
    """A count99 game from History comes out as a table99/count99 record that replays."""
    from app.games.count99.game import KeptGame
    from app.paths import data_dir, default_database
    from rules.count99 import Setup, Variant
    from rules.count99.replay import replay_json

    store = GameStore(default_database())
    game = KeptGame.create(store, Setup(Variant.QUENTIN_C, ("Ann", "Ben")))
    game.play("5")
    _app, root = build_app(store=store)
    ui.show(root)
    tap(find(root, text="History"))
    frames(2)
    tap(find(root, text="Export"))
    exported = json.loads((data_dir() / "exports" / f"count99-{game.game_id}.json").read_text())
    assert exported["format"] == "table99/count99"
    assert exported["rounds"][0]["plays"][0]["card"] == "5"
    replayed = replay_json(exported)
    assert replayed["steps"][-1]["count"] == 5 and replayed["steps"][-1]["turn"] == "Ben"


def test_history_exports_a_parlett_rubber_as_its_deals(ui: Any) -> None:
    from app.games.parlett.game import ParlettSession
    from app.paths import data_dir, default_database
    from rules.parlett.replay import replay_json

    store = GameStore(default_database())
    session = ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat")
    deal = {"bids": {"Ann": "CHS", "Ben": 4, "Cat": "DDD"}, "tricks": {"Ann": 6, "Ben": 2, "Cat": 1}}
    session.add_deal(deal)
    _app, root = build_app(store=store)
    ui.show(root)
    tap(find(root, text="History"))
    frames(2)
    tap(find(root, text="Export"))
    exported = json.loads((data_dir() / "exports" / f"parlett-{session.game_id}.json").read_text())
    assert exported["format"] == "table99/parlett" and "actions" not in exported
    assert exported["deals"][0]["tricks"] == deal["tricks"]
    assert replay_json(exported) == replay_json(session.record())
