"""Ninety Nine (the adding game) in the app: setup, the count keeper, the game against the computer,
and the table's screens of Ninety Nine with phones (setup, lobby, game: ``phones_*.py``).

The shell imports this package and calls :func:`make_ui`. Games are stored with kind ``count99``;
:meth:`Count99UI.resume` reopens any of them from the store; a phones game is taken from the web
display's registry (``live.phones``), which loads unfinished ones (``resume()``) and drives them.
"""

from __future__ import annotations

from typing import Any

from app.games.count99.game import KIND, ComputerGame, KeptGame, load_session, record_of
from app.games.count99.phones import MODE as PHONES
from app.i18n import tr
from app.ui.count99.computer_screen import NAME as COMPUTER
from app.ui.count99.computer_screen import ComputerScreen
from app.ui.count99.keeper_screen import NAME as TABLE
from app.ui.count99.keeper_screen import KeeperScreen
from app.ui.count99.phones_game import NAME as PHONES_GAME
from app.ui.count99.phones_game import PhonesGameScreen
from app.ui.count99.phones_link import HostActions, refusal_text, registry, web_missing
from app.ui.count99.phones_lobby import NAME as PHONES_LOBBY
from app.ui.count99.phones_lobby import PhonesLobbyScreen
from app.ui.count99.phones_setup import NAME as PHONES_SETUP
from app.ui.count99.phones_setup import PhonesSetupScreen
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
        self.phones_setup: PhonesSetupScreen | None = None
        self.phones_lobby: PhonesLobbyScreen | None = None
        self.phones_game: PhonesGameScreen | None = None
        self.host_actions = HostActions()

    def build(self, ctx: Any) -> None:
        self.ctx = ctx
        ctx.extras["count99"] = self
        self.setup_screen = SetupScreen(ctx, self.start_table, self.start_computer)
        self.keeper = KeeperScreen(ctx)
        self.computer = ComputerScreen(ctx)
        self.phones_setup = PhonesSetupScreen(ctx, self.open_phones_table)
        self.phones_lobby = PhonesLobbyScreen(ctx, self.host_actions, self.phones_started,
                                              self.close_phones_table)
        self.phones_game = PhonesGameScreen(ctx, self.host_actions)
        for screen in (self.setup_screen, self.keeper, self.computer, self.phones_setup, self.phones_lobby,
                       self.phones_game):
            ctx.manager.add_widget(screen)

    def new_game_screen(self) -> str:
        return SETUP

    def more_new_games(self) -> list[tuple[str, str]]:
        """Other ways to start this game from home: (title, screen) (home lists them after ours)."""
        return [(tr("Ninety Nine with phones"), PHONES_SETUP)]

    def resume(self, game_id: int) -> str:
        if self.ctx.store.load(game_id).setup.get("mode") == PHONES:
            return self.resume_phones(game_id)
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

    # -- Ninety Nine with phones ---------------------------------------------------------------------
    def open_phones_table(self, table: Any) -> None:
        assert self.phones_lobby is not None
        self.phones_lobby.open(table)
        self.ctx.go(PHONES_LOBBY)

    def phones_started(self, table: Any) -> None:
        assert self.phones_game is not None
        self.phones_game.open(table)
        self.ctx.go(PHONES_GAME)

    def close_phones_table(self, table: Any) -> None:
        phones = registry(self.ctx)
        if phones is not None and table is not None:
            phones.forget(table.table_id)
        self.ctx.go(PHONES_SETUP)

    def resume_phones(self, game_id: int) -> str:
        """The phones game from the web display's registry (it loads unfinished games from the store
        once; the web server does so when it starts): never a second copy that would fork the game."""
        phones = registry(self.ctx)
        if phones is None:
            raise LookupError(web_missing(self.ctx))
        table = self._phones_table(phones, game_id)
        if table is None:
            phones.resume()
            table = self._phones_table(phones, game_id)
            if table is None:  # why the games layer could not load it, in the reader's language
                why = phones.unloadable(game_id)
                raise LookupError(refusal_text(why) if why else
                                  tr("the web display has not loaded this game yet: try again in a moment"))
        self.phones_started(table)
        return PHONES_GAME

    @staticmethod
    def _phones_table(phones: Any, game_id: int) -> Any:
        return next((t for t in phones.tables() if t.game_id == game_id), None)

    def export_record(self, game_id: int) -> dict[str, Any]:
        """The stored game as its ``table99/count99`` record (for the shell's history export)."""
        return record_of(self.ctx.store.load(game_id))


def make_ui() -> Count99UI:
    return Count99UI()
