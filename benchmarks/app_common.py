"""Shared pieces of the app benchmarks: a headless window and a driven board game screen."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def headless() -> None:
    """Kivy offscreen, no config or logs, an empty data directory (call before importing kivy)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG"):
        os.environ.setdefault(name, "1")
    os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "0")  # no frame-pacing sleep inside the timings
    os.environ["TABLE99_DATA_DIR"] = tempfile.mkdtemp(prefix="table99-bench-")


def frames(n: int = 1) -> None:
    from kivy.base import EventLoop

    for _ in range(n):
        EventLoop.idle()


class Bench:
    """The whole app in an 800x480 offscreen window, the game screen's clock faked."""

    def __init__(self) -> None:
        from kivy.base import EventLoop
        from kivy.core.window import Window

        from app.config import Config
        from app.paths import default_database
        from app.store import GameStore
        from app.ui.shell import Table99App

        EventLoop.ensure_window()
        Window.size = (800, 480)
        self.now = 0.0
        self.store = GameStore(default_database())
        self.app = Table99App(config=Config(), store=self.store)
        self.root = self.app.build()
        Window.add_widget(self.root)
        self.screen = self.root.get_screen("board99-game")
        self.screen.clock = lambda: self.now
        self.new_game()

    def new_game(self, players: tuple[str, ...] = ("Ann", "Ben"), computers: dict[str, str] | None = None,
                 seed: int = 0) -> None:
        """Start a game on the simulated board; with computers the deck is dealt on the screen
        (a shuffled deck from ``seed``), as the setup screen does."""
        import random

        from app.games.board99.game import TableSetup
        from rules import board99 as rules

        colours = dict(zip(players, ("red", "blue", "green", "yellow", "white", "black"), strict=False))
        deck = None
        if computers:
            deck = list(range(100))
            random.Random(seed).shuffle(deck)
        self.app.uis["board99"].start_new(rules.make_setup(list(players), layout="rows", deck=deck),
                                          TableSetup(colours, dict(computers or {}), seed), "simulated")
        self.settle()

    def settle(self) -> None:
        self.now += 0.5
        self.screen.pump()
        frames(1)

    def action(self, n: int) -> int | None:
        """Announce action ``n`` of a long game (draw, draw, play, play, ...); for a play, put its peg
        on the board and return the hole. Plays never win, so a game can run for 100 actions."""
        from rules import board99 as rules

        referee = self.screen.referee
        state = self.screen.game.state
        player = state.to_move
        if n % 4 < 2:
            referee.announce_draw()
            return None
        card = next(c for c in range(100) if c not in state.face_up)
        square = next(
            (sq for sq in state.legal_squares(card)
             if rules.apply_unchecked(state, rules.Play(player, card, sq))[0].outcome is None),
            state.legal_squares(card)[0],
        )
        referee.announce_play(card)
        hole = referee.hole_of(square)
        self.screen.source.put(hole)
        return hole
