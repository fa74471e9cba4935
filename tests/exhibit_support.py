"""Exhibitor mode in tests: its config, the app built by the shell's own hook on a fake clock, and
table time passing. Shared by the exhibit's test files (they used to import one another's)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from kivy.uix.screenmanager import Screen

from app.config import Config
from app.exhibit.settings import exhibit_defaults
from app.paths import default_database
from app.store import GameStore
from tests.fakes import FakeClock
from tests.ui_support import UI, frames

PIN = "2468"


class PlaceholderVisitor(Screen):
    """Stands in for VisitorGameScreen: a game on the scratch store, started and stopped."""

    def __init__(self, ctx: Any, scratch: GameStore, on_end: Any) -> None:
        super().__init__(name="exhibit_visitor")
        self.scratch, self.on_end = scratch, on_end
        self.started = self.stopped = 0
        self.game_id: int | None = None

    def start(self) -> None:
        self.started += 1
        self.game_id = self.scratch.create_game("board99", {"players": ["You", "Computer"]}, "visitor")
        self.scratch.append(self.game_id, {"by": "You", "do": "draw"})

    def stop(self) -> None:
        self.stopped += 1
        if self.game_id is not None:
            self.scratch.delete_game(self.game_id)
            self.game_id = None


class PlaceholderStaff(Screen):
    def __init__(self, ctx: Any, lock: Any, counts: Any, on_back: Any, on_leave: Any) -> None:
        super().__init__(name="exhibit_staff")
        self.on_back, self.leave_exhibit = on_back, on_leave


def exhibit_config(**exhibit: Any) -> Config:
    return replace(Config(), exhibit={**exhibit_defaults(), "enabled": True, "pin": PIN, "narration": False,
                                      **exhibit})


def exhibit_app(ui: UI, monkeypatch: pytest.MonkeyPatch | None = None, config: Config | None = None,
                **app_options: Any) -> Any:
    """The real app in exhibitor mode (the shell's hook), on a fake clock, its loop started; with
    placeholder visitor and staff screens when ``monkeypatch`` is given, else the real ones.
    ``app_options`` go to :class:`Table99App` (``make_source=`` for a real board's readings)."""
    from app.ui.exhibit import controller
    from app.ui.shell import Table99App

    if monkeypatch is not None:
        monkeypatch.setattr(controller, "make_visitor", PlaceholderVisitor)
        monkeypatch.setattr(controller, "make_staff", PlaceholderStaff)
    app = Table99App(config=config or exhibit_config(), store=GameStore(default_database()), **app_options)
    app.exhibit_clock = FakeClock()
    app.exhibit_autotick = False
    root = app.build()
    ui.show(root)
    app.exhibit_controller.start(ui.window)
    return app


def run(app: Any, seconds: float, step: float = 0.5, every: int = 10) -> None:
    """Table time passes: the controller ticks on the fake clock; a frame every few ticks."""
    clock = app.exhibit_clock
    for i in range(int(seconds / step)):
        clock.now += step
        app.exhibit_controller.tick()
        if i % every == 0:
            frames(1)
