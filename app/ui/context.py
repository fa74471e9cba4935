"""What every screen gets from the app: the store, the config, speech, the screen manager.

Each game's UI package (``app/ui/board99``, ``app/ui/parlett``, ``app/ui/count99``) exposes
``make_ui() -> GameUI``. The home screen (``app/ui/home.py``) lists them on the home screen in the order
of :data:`GAMES`, offers their unfinished games for resume, and shows their past games in history.
This module imports no kivy, so it can be imported anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.config import Config
from app.speech import Announcer
from app.store import GameStore


@dataclass
class AppContext:
    store: GameStore
    config: Config
    announcer: Announcer
    manager: Any  # kivy.uix.screenmanager.ScreenManager
    config_problem: str | None = None  # shown on the home screen when the config was unusable
    # Builds a board source by kind ("simulated", "gpio", ...); the board game uses it.
    make_source: Callable[[str | None], Any] | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    def go(self, screen_name: str) -> None:
        self.manager.current = screen_name


class GameUI(Protocol):
    kind: str  # the store's game kind: "board99", "parlett", "count99"
    title: str  # English, translated with tr() when shown

    def build(self, ctx: AppContext) -> None:
        """Add this game's screens to ``ctx.manager``."""

    def new_game_screen(self) -> str:
        """The name of the screen that starts a new game (its setup)."""

    def resume(self, game_id: int) -> str:
        """Load a stored unfinished game and return the screen that continues it."""

    def export_record(self, game_id: int) -> dict[str, Any]:
        """A stored game as this game's JSON record (the format ``table99 replay`` reads)."""


# kind -> module exposing make_ui(); order is the home screen's order.
GAMES: dict[str, str] = {
    "board99": "app.ui.board99",
    "parlett": "app.ui.parlett",
    "count99": "app.ui.count99",
}
