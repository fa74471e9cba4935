"""Ninety Nine (the adding game) in the app: setup, the count keeper, and the game against the computer.

The shell imports this package and calls :func:`make_ui`. Games are stored with kind ``count99``;
:meth:`Count99UI.resume` reopens either kind of session from the store.
"""

from __future__ import annotations

from typing import Any

from app.games.count99.game import KIND, ComputerGame, KeptGame, load_session, record_of
from app.ui.count99.computer_screen import NAME as COMPUTER
from app.ui.count99.computer_screen import ComputerScreen
from app.ui.count99.keeper_screen import NAME as TABLE
from app.ui.count99.keeper_screen import KeeperScreen
from app.ui.count99.setup_screen import NAME as SETUP
from app.ui.count99.setup_screen import SetupScreen
from rules.count99.table import Setup


class Count99UI:
    kind = KIND
    title = "Ninety Nine (count)"

    def __init__(self) -> None:
        self.ctx: Any = None
        self.setup_screen: SetupScreen | None = None
        self.keeper: KeeperScreen | None = None
        self.computer: ComputerScreen | None = None

    def build(self, ctx: Any) -> None:
        self.ctx = ctx
        ctx.extras["count99"] = self
        self.setup_screen = SetupScreen(ctx, self.start_table, self.start_computer)
        self.keeper = KeeperScreen(ctx)
        self.computer = ComputerScreen(ctx)
        for screen in (self.setup_screen, self.keeper, self.computer):
            ctx.manager.add_widget(screen)

    def new_game_screen(self) -> str:
        return SETUP

    def resume(self, game_id: int) -> str:
        session = load_session(self.ctx.store, game_id)
        if isinstance(session, ComputerGame):
            assert self.computer is not None
            self.computer.open(session, session.opening)
            return COMPUTER
        assert self.keeper is not None
        self.keeper.open(session)
        return TABLE

    def start_table(self, setup: Setup) -> None:
        assert self.keeper is not None
        game = KeptGame.create(self.ctx.store, setup)
        self.keeper.open(game)
        self.ctx.go(TABLE)

    def start_computer(self, setup: Setup, level: str, manual_draw: bool) -> None:
        assert self.computer is not None
        session = ComputerGame.create(self.ctx.store, setup, level=level, manual_draw=manual_draw)
        self.ctx.go(COMPUTER)
        self.computer.open(session, session.opening)

    def export_record(self, game_id: int) -> dict[str, Any]:
        """The stored game as its ``table99/count99`` record (for the shell's history export)."""
        return record_of(self.ctx.store.load(game_id))


def make_ui() -> Count99UI:
    return Count99UI()
