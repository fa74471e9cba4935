"""A visitor's first Game of 99 at the exhibitor's table: one person against one computer, guided.

The screen *is* the table's board game screen (:class:`~app.ui.board99.game_screen.GameScreen`, same
:class:`~app.games.board99.game.Board99Game`, :class:`~app.referee.core.Referee` and store path): a visitor's
announcements and pegs are judged exactly as a family's are. What it adds:

- the game lives in the exhibit's scratch store (never the family's: no history, no resume);
- a guide line in plain words at every step (:mod:`app.ui.exhibit.visitor_hints`): which button,
  which card, where it may go (those squares glow *and* are outlined), and why a play was a penalty,
  under the referee's own verdict;
- on the simulated board the computer's peg goes in by itself after a short pause, so a visitor
  watches the computer play instead of being asked to place its pegs; at a real board (the table's
  config names one) the visitor places it, as the referee asks;
- a big Stop button (``on_end("visitor")``); a finished game shows the result for a few seconds,
  then ``on_end("finished")``; the controller counts and returns to the attract loop.

Nothing here for a family's table (Undo, My cards, who-announces, Menu) is shown: the visitor only
ever announces for themselves.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import sp

from app.games.board99.game import Board99Game, TableSetup
from app.games.board99.texts import event_text
from app.i18n import tr
from app.referee.events import Phase, Prompt
from app.store import GameStore
from app.ui import theme
from app.ui.board99.game_screen import GameScreen
from app.ui.board99.pads import CardPad
from app.ui.exhibit.visitor_hints import Hint, visitor_hint
from app.ui.widgets import READABLE, WARNING, BigButton, WrapLabel
from hardware.board_source import BoardReading, BoardSource
from hardware.simulated import SimulatedBoard
from rules import board99 as rules

log = logging.getLogger(__name__)
NAME = "exhibit_visitor"
COMPUTER_LEVEL = "basic"  # a first game a visitor can win
VISITOR_COLOUR, COMPUTER_COLOUR = "red", "blue"
COMPUTER_PACE = 1.5  # s: the computer's peg goes in this long after its choice (on the screen's board)
RESULT_SECONDS = 8.0  # s: the result stays on screen before the demo goes on
REAL_LAYOUTS = ("spiral-out", "spiral-in", "twisted", "rows")


class VisitorGameScreen(GameScreen):
    """The visitor's guided game; ``start()`` begins one, ``stop()`` drops it (see the module doc)."""

    computer_pace = COMPUTER_PACE
    result_seconds = RESULT_SECONDS

    def __init__(self, ctx: Any, scratch: GameStore, on_end: Callable[[str], None], **kw: Any) -> None:
        kw.setdefault("name", NAME)
        super().__init__(ctx, **kw)
        self.scratch = scratch
        self.on_end = on_end
        self.visitor = ""
        self.computer = ""
        self.owned_source: BoardSource | None = None  # a source this screen built and must stop
        self.last_card: int | None = None  # the card the visitor last announced for a play
        self.hint = Hint("")
        self.ended: str | None = None
        self._timers: list[Any] = []
        self._starting = False
        # Someone moves pegs on the board: told to the exhibit controller (its idle timer), as a touch
        # on the screen is. None: nobody listens (the screen alone, in tests).
        self.activity: Callable[[], None] | None = None
        self._pegs: dict[int, str | None] | None = None  # the board's sure pegs (and colours) as last read
        self._moved_holes: set[int] = set()  # holes that counted as activity since the last touch
        self._own_hand = False  # the screen itself is putting the computer's peg in
        self._build_panel()

    def _build_panel(self) -> None:
        """The table's panel, cut down to what a visitor needs: whose turn, the verdict, the guide,
        their cards, what happened, PLAY / DRAW / DISCARD and Stop."""
        actions = self.play_button.parent
        panel = self.panel
        panel.clear_widgets()
        self.hint_label = WrapLabel("", font_size=READABLE, bold=True)
        with self.hint_label.canvas.before:  # the guide sits on its own framed card
            Color(*theme.SURFACE)
            ground = Rectangle()
            Color(*theme.TEXT_MUTED)
            frame = Line(rectangle=(0, 0, 1, 1), width=1.2)

        def follow(label: Any, _: Any) -> None:
            ground.pos, ground.size = (label.x - 4, label.y - 4), (label.width + 8, label.height + 8)
            frame.rectangle = (label.x - 4, label.y - 4, label.width + 8, label.height + 8)

        self.hint_label.bind(pos=follow, size=follow)
        self.stop_button = BigButton(tr("Stop"), on_press=self.visitor_stops, height=52, font_size=sp(22),
                                     background_color=WARNING)
        for widget in (self.turn_row, self.banner, self.hint_label,
                       self.hand_row, self.log_label, actions, self.stop_button):
            panel.add_widget(widget)

    # -- starting and stopping --------------------------------------------------------------------
    def start(self) -> None:  # type: ignore[override]  # the exhibit's interface: no arguments
        """A fresh guided game: the visitor against one computer, on the configured board."""
        self.stop()
        self.ended = None
        self.last_card = None
        self.visitor, self.computer = tr("Guest"), "Ben"
        source, simulated = self._board_source()
        setup, table = self.new_setup("rows" if simulated else self._real_layout())
        game = Board99Game.create(self.scratch, setup, table, title=tr("A visitor's game"))
        self._starting = True
        self._pegs = None
        self._moved_holes = set()
        try:
            super().start(game, source, self.ctx.config.stable_seconds)
        finally:
            self._starting = False

    def new_setup(self, layout: Any) -> tuple[rules.Setup, TableSetup]:
        """Seed 000's classic game for the visitor (first to move, red) and the computer (blue).

        The app deals from a shuffled deck (the computer's cards are virtual, as at the table's game
        with a computer). Tests replace this to deal known hands.
        """
        seed = random.SystemRandom().randrange(1, 2**31)
        deck = list(range(100))
        random.Random(seed).shuffle(deck)
        setup = rules.make_setup([self.visitor, self.computer], ruleset="classic", layout=layout,
                                 first=self.visitor, deck=deck)
        table = TableSetup({self.visitor: VISITOR_COLOUR, self.computer: COMPUTER_COLOUR},
                           {self.computer: COMPUTER_LEVEL}, seed)
        return setup, table

    def stop(self) -> None:
        """Drop the game from the scratch store and let go of timers, the board and any popup."""
        for timer in self._timers:
            timer.cancel()
        self._timers = []
        if self.modal is not None:
            self.modal.dismiss(animation=False)
            self.modal = None
        self.panel.opacity = 1
        super().stop()
        if self._starting:  # GameScreen.start stops the previous game: nothing else to drop
            return
        game, self.game = self.game, None
        if game is not None:
            try:
                self.scratch.delete_game(game.id)
            except Exception:  # a scratch store already closed: nothing of it can be seen anyway
                log.warning("could not drop the visitor's game %s", game.id, exc_info=True)
        if self.owned_source is not None:
            self.owned_source.stop()
            self.owned_source = None
        self.source = None

    def visitor_stops(self) -> None:
        self._end("visitor")

    def leave(self, new_game: bool = False) -> None:
        """Every way out of the table's screen leads back to the demo here."""
        self._end("visitor")

    def _end(self, why: str) -> None:
        if self.ended is not None:
            return
        state = getattr(self.game, "state", None)
        if getattr(state, "outcome", None) is not None:
            why = "finished"  # Stop (or Menu) while the result shows: the game was played to the end
        self.ended = why
        self.stop()
        self.on_end(why)

    def _board_source(self) -> tuple[BoardSource, bool]:
        """The configured board (shared with the table's game where it owns one), else the screen's."""
        kind = self.ctx.config.board_source
        source: BoardSource
        if kind != "simulated" and self.ctx.make_source is not None:
            shared = self.ctx.extras.get("board99")
            try:
                if shared is not None:  # one physical board: the table's own source object
                    source = shared.board_source(kind)
                else:
                    source = self.owned_source = self.ctx.make_source(kind)
                return source, isinstance(source, SimulatedBoard)  # the table's fallback may be one
            except Exception as exc:  # a missing board must not stop the demo
                log.error("visitor's game: board %s unusable (%s); using the on-screen board", kind, exc)
        source = self.owned_source = SimulatedBoard()
        return source, True

    @staticmethod
    def _real_layout() -> Any:
        """The layout printed on the table's real board: the one its last game was set up with."""
        from app.settings import load_settings
        from app.ui.board99.setup_screen import CUSTOM_KEY, LAYOUT_KEY

        settings = load_settings()
        if settings.get(LAYOUT_KEY) == "custom" and settings.get(CUSTOM_KEY):
            return list(settings[CUSTOM_KEY])
        last = settings.get(LAYOUT_KEY)
        return last if last in REAL_LAYOUTS else "spiral-out"

    def _later(self, seconds: float, action: Callable[[], None]) -> None:
        self._timers.append(Clock.schedule_once(lambda *_: action(), seconds))

    # -- the game's events ----------------------------------------------------------------------
    def _on_referee_event(self, event: Any) -> None:
        super()._on_referee_event(event)
        if isinstance(event, Prompt) and event.phase is Phase.COMPUTER_PEG and event.holes:
            # Each time the referee waits for the computer's peg (its choice, or again after the
            # visitor fixed a stray peg), the app's hand puts it in after a pause.
            hole = event.holes[0]
            self._later(self.computer_pace, lambda: self._place_computer_peg(hole))
        if isinstance(event, (rules.Won, rules.Tied)):
            self._later(self.result_seconds, lambda: self._end("finished"))

    def _place_computer_peg(self, hole: int) -> None:
        """On the screen's board the app is the computer's hand: its peg goes in where it chose."""
        source, referee, game = self.source, self.referee, self.game
        if not isinstance(source, SimulatedBoard) or referee is None or game is None:
            return
        if referee.phase is Phase.COMPUTER_PEG and hole in referee.prompt.holes:
            colour = game.colours.get(self.computer) if source.sees_colour else None
            self._own_hand = True  # the simulated board reports the peg at once, to this pump
            try:
                source.put(hole, colour)
                self.pump()
            finally:
                self._own_hand = False

    def board_events(self, events: list[Any]) -> None:
        """A peg put in, taken out or swapped is someone at the table: the idle timer starts again,
        so "Still there?" never interrupts a visitor who moves pegs without touching the screen.

        Not counted: readings that repeat the same pegs (a sensor board's rescans), holes the board
        is unsure of, the screen's own hand, and a hole that already counted since the last touch
        on the screen: a faulty sensor flickering in one hole would otherwise keep a game nobody
        plays from ever returning to the loop."""
        for event in events:
            if not isinstance(event, BoardReading):
                continue
            colours = event.colours or {}
            pegs = {hole: colours.get(hole) for hole in event.occupied - event.unsure}
            before, self._pegs = self._pegs, pegs
            if before is None or self._own_hand:
                continue
            changed = {hole for hole in pegs.keys() | before.keys()
                       if pegs.get(hole, "-") != before.get(hole, "-")} - event.unsure
            fresh = changed - self._moved_holes
            self._moved_holes |= changed
            if fresh and self.activity is not None:
                self.activity()

    def on_touch_down(self, touch: Any) -> bool:
        """A touch on the screen: every hole may count as the board's activity again."""
        self._moved_holes = set()
        return bool(super().on_touch_down(touch))

    def _announce(self, what: str, card: int | None, by: str | None) -> None:
        if what == "play":
            self.last_card = card
        super()._announce(what, card, by)

    def ask_who_played(self) -> None:
        """A peg without PLAY: only the visitor puts pegs in, so ask just for the card."""
        game, referee = self.game, self.referee
        if game is None or referee is None:
            return
        holes = referee.prompt.holes
        title = tr("Which card is this peg for?")
        if holes:
            title = tr("A peg on square {square} without PLAY: which card is it?",
                       square=referee.square_at(holes[0]))
        self._open(CardPad(title, self._identify_visitor, hand=game.state.known_hand(self.visitor)))

    def _open(self, modal: Any) -> None:
        """A card pad covers the panel: the panel is hidden meanwhile (its words would only show
        through at the pad's edges), and back when the pad closes."""
        super()._open(modal)
        self.panel.opacity = 0
        modal.bind(on_dismiss=lambda *_: setattr(self.panel, "opacity", 1))

    def _identify_visitor(self, card: int) -> None:
        self.last_card = card
        self._identify(self.visitor, card)

    def _show_hand(self) -> None:
        self.cards_visible = True  # nobody else looks at this screen: the visitor's cards show face up
        super()._show_hand()

    # -- what the screen shows --------------------------------------------------------------------
    def refresh(self) -> None:
        super().refresh()
        game, referee = self.game, self.referee
        if game is None or referee is None:
            return
        state = game.state
        simulated = isinstance(self.source, SimulatedBoard)
        self.hint = visitor_hint(game, referee.prompt, self.visitor, simulated=simulated,
                                 square_at=referee.square_at, last_card=self.last_card, refusal=self.refusal,
                                 penalty=self.banner_event)
        self.hint_label.text = self.hint.text
        self.hint_label.color = theme.PROBLEM_TEXT if self.hint.problem else theme.TEXT
        if isinstance(self.banner_event, rules.Penalised):
            # The rules' verdict without "Next: ..." (the heading says whose turn), and no cards:
            # the guide's short next step names the card, and the why needs the room.
            self.banner.show("penalty", event_text(self.banner_event) or "")
            self.hand_row.clear_widgets()
            self.hand_row.height = 0
        over = state.outcome is not None
        if not over and state.to_move == self.visitor:
            self.turn_label.text = tr("Your turn")
        if over:
            self.banner.show("win", referee.prompt.text)  # the result; the guide says what comes next
            self.play_button.text = tr("PLAY")
            for button in (self.play_button, self.draw_button, self.discard_button):
                button.disabled = True
        board = self.board
        if self.hint.card is not None and referee.phase is Phase.ANNOUNCE and not board.allowed:
            # "they glow": the squares the suggested card allows, before PLAY is even tapped
            allowed = frozenset(referee.hole_of(s) for s in state.legal_squares(self.hint.card))
            board.show(board.pegs, sensed=board.sensed, allowed=allowed, attention=board.attention,
                       winning=board.winning)
