"""The board game's screens: setup and the refereed game (see docs/app.md)."""

from __future__ import annotations

import logging
from typing import Any

from app.games.board99.game import KIND, Board99Game, TableSetup, record_json
from app.i18n import tr
from app.ui.board99.game_screen import NAME as GAME
from app.ui.board99.game_screen import GameScreen
from app.ui.board99.setup_screen import NAME as SETUP
from app.ui.board99.setup_screen import SetupScreen
from hardware.board_source import BoardSource
from hardware.simulated import SimulatedBoard
from rules import board99 as rules

log = logging.getLogger(__name__)


class Board99UI:
    kind = KIND
    title = "The Game of 99"

    def __init__(self) -> None:
        self.ctx: Any = None
        self.game_screen: GameScreen | None = None
        self.setup_screen: SetupScreen | None = None
        self.source: BoardSource | None = None
        self.source_kind: str | None = None

    def build(self, ctx: Any) -> None:
        self.ctx = ctx
        ctx.extras["board99"] = self
        self.setup_screen = SetupScreen(ctx, self.start_new)
        self.game_screen = GameScreen(ctx)
        ctx.manager.add_widget(self.setup_screen)
        ctx.manager.add_widget(self.game_screen)

    def new_game_screen(self) -> str:
        return SETUP

    def resume(self, game_id: int) -> str:
        game = Board99Game.load(self.ctx.store, game_id)
        self._play(game, self.ctx.config.board_source)
        return GAME

    def export_record(self, game_id: int) -> dict[str, Any]:
        """The stored game as a ``table99/board99`` record (what ``table99 replay`` reads)."""
        stored = self.ctx.store.load(game_id)
        return record_json(stored.setup, list(stored.actions))

    def start_new(self, setup: rules.Setup, table: TableSetup, source_kind: str) -> None:
        game = Board99Game.create(self.ctx.store, setup, table)
        self._play(game, source_kind)
        self.ctx.go(GAME)

    def board_source(self, kind: str | None) -> BoardSource:
        """The board source of that kind, reused across games (one physical board); the simulated
        board stands in, with a message, when the chosen one cannot be built."""
        kind = kind or self.ctx.config.board_source
        if self.source is not None and self.source_kind == kind:
            return self.source
        if self.source is not None:
            self.source.stop()
        source: BoardSource
        try:
            if self.ctx.make_source is None:
                raise RuntimeError(tr("no board sources are available"))
            source = self.ctx.make_source(kind)
        except Exception as exc:  # a missing library, a config typo: never a black screen
            log.error("board source %s unusable: %s", kind, exc)
            self.ctx.config_problem = tr("Board {kind} unusable ({reason}); using the on-screen board.",
                                         kind=kind, reason=str(exc))
            source, kind = SimulatedBoard(), "simulated"
        self.source, self.source_kind = source, kind
        return source

    def _play(self, game: Board99Game, source_kind: str) -> None:
        assert self.game_screen is not None
        source = self.board_source(source_kind)
        self.game_screen.start(game, source, self.ctx.config.stable_seconds)


def make_ui() -> Board99UI:
    return Board99UI()
