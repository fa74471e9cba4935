"""Driving a visitor's guided game headless: used by tests/test_ui_exhibit_visitor.py and the screen
catalog (tests/screen_catalog.py)."""

from __future__ import annotations

from typing import Any

from app.config import Config
from app.store import GameStore
from tests.fakes import FakeClock
from tests.ui_support import UI, find, frames, open_modal, tap, tap_hole


class Visitor:
    """The app, a scratch store and the visitor's screen, added as the exhibit controller adds it."""

    def __init__(self, ui: UI, config: Config | None = None, make_source: Any = None) -> None:
        from app.paths import default_database
        from app.ui.exhibit.visitor import VisitorGameScreen
        from app.ui.shell import Table99App

        self.family = GameStore(default_database())
        from dataclasses import replace

        from app import i18n

        # The app sets the language from its config: keep the one the test (or the audit) chose.
        config = replace(config or Config(), language=i18n.language())
        self.app = Table99App(config=config, store=self.family)
        self.root = self.app.build()
        if make_source is not None:
            self.app.ctx.make_source = make_source
        ui.show(self.root)
        from app.exhibit.scratch import scratch_store

        self.scratch = scratch_store()  # as the exhibit's controller gets it (ctx.extras["exhibit"])
        self.ended: list[str] = []
        self.screen = VisitorGameScreen(self.app.ctx, self.scratch, self.ended.append)
        self.screen.computer_pace = 0.0  # the computer's peg goes in at the next frame
        self.clock = FakeClock()
        self.screen.clock = self.clock
        self.root.add_widget(self.screen)
        self.root.current = self.screen.name
        frames(2)

    def start(self) -> None:
        """Start the game and step until the referee has judged the empty board it starts on (on a
        loaded machine the board's first reading comes late; a peg put in before that is one the
        new game found on the board, not a play), then let the computer move if it is first."""
        import time

        self.screen.start()
        deadline = time.monotonic() + 20
        while not self.screen.referee.board_agrees and time.monotonic() < deadline:
            self._step()
        self.settle()

    def settle(self) -> None:
        """Let the board hold still past the stability window (the pump's interval may not fire
        within a few headless frames, so pump once as it would), then let the computer's peg in."""
        import time

        for _ in range(3):
            self._step()
        # A computer may think on a worker thread: pump (as the screen's interval does) until it
        # has chosen, for a few real seconds at most (a busy machine), then go on either way.
        deadline = time.monotonic() + 20  # a loaded CI machine; a quiet one takes a few frames
        while not self._quiet() and time.monotonic() < deadline:
            time.sleep(0.01)
            self._step()

    def _step(self) -> None:
        frames(1)
        self.clock.now += 0.5
        if self.screen.referee is not None:
            self.screen.pump()
        frames(1)

    def _quiet(self) -> bool:
        """Nothing left for the computer to do: the game is over, or it is the visitor's move, or the
        referee waits for a peg or a fix on the board that the test's hand must make.

        The computer's own peg on the screen's board is not such a wait when the screen puts it in
        at once (``computer_pace == 0``): its choice may come one pump later than the visitor's
        verdict (the worker starts at the next tick), so the peg, its stability window and the
        visitor's turn are still to come."""
        from hardware.simulated import SimulatedBoard

        screen = self.screen
        referee, game = screen.referee, screen.game
        if referee is None or game is None or game.state.outcome is not None:
            return True
        if (referee.phase.value == "computer-peg" and isinstance(screen.source, SimulatedBoard)
                and screen.computer_pace == 0):
            return False  # the screen's hand puts the computer's peg in at the next frame
        return game.state.to_move == screen.visitor or referee.phase.value != "announce"

    @property
    def game(self) -> Any:
        return self.screen.game

    def press(self, text: str) -> None:
        tap(find(self.screen, text=text))

    def modal(self) -> Any:
        return open_modal()

    def pick(self, card: int) -> None:
        tap(find(self.modal(), text=str(card)))
        frames(2)

    def tap_hole(self, hole: int) -> None:
        tap_hole(self.screen.board, hole)

    def until_visitor_holds(self, count: int = 1) -> None:
        """Draw (as the guide says while the hand is empty) until the visitor holds ``count`` cards."""
        for _ in range(10):
            if len(self.game.state.known_hand(self.screen.visitor)) >= count:
                return
            assert self.game.state.to_move == self.screen.visitor, self.screen.hint.text
            self.press("DRAW")
            self.settle()
        raise AssertionError("the visitor never got a card")


def dealt(screen: Any, visitor: list[int], computer: list[int], seed: int = 7) -> Any:
    """A ``new_setup`` for the screen that deals known hands (the rest of the deck shuffled by ``seed``)."""
    import random

    from app.games.board99.game import TableSetup
    from rules import board99 as rules

    def new_setup(layout: Any) -> Any:
        hands = {screen.visitor: list(visitor), screen.computer: list(computer)}
        deck = [c for c in range(100) if c not in set(visitor) | set(computer)]
        random.Random(seed).shuffle(deck)
        setup = rules.make_setup([screen.visitor, screen.computer], layout=layout, first=screen.visitor,
                                 hands=hands, deck=deck)
        colours = {screen.visitor: "red", screen.computer: "blue"}
        return setup, TableSetup(colours, {screen.computer: "basic"}, seed)

    return new_setup
