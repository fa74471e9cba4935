"""The attract loop's three demonstrations: the table's own games, played by computers on screen.

Each demo plays one game through the very path a family's game takes (the board game's
:class:`~app.ui.board99.game_screen.GameScreen` with its referee and a simulated board; a
:class:`~app.games.parlett.game.ParlettSession` shown by the Parlett totals screen; a
:class:`~app.games.count99.game.ComputerGame` shown by the Ninety Nine computer screen), only on the
scratch store the exhibit gives it, so nothing of it reaches the family's history. A demo moves on
when :meth:`Demo.step` is called with the (injectable) clock's time: one visible thing per
``pace`` seconds, so a test or the soak can run a whole loop on a fast clock. When it ends (or is
stopped) the demo deletes its game from the scratch store: the store stays small all day.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kivy.metrics import sp
from kivy.uix.widget import Widget

from app.games.board99.game import Board99Game, TableSetup
from app.games.count99.game import ComputerGame
from app.games.parlett.game import ParlettSession
from app.i18n import tr
from app.referee import Phase
from app.referee.outputs import EXTRAS_KEY
from app.speech import Announcer
from app.store import GameStore
from rules import board99 as rules
from rules.count99.cards import Variant
from rules.count99.players import make_player
from rules.count99.table import RoundEnded
from rules.count99.table import Setup as CountSetup

log = logging.getLogger(__name__)
Clock = Callable[[], float]
NAMES = ("Ann", "Ben", "Mia")


def demo_context(ctx: Any, store: GameStore) -> Any:
    """The app's context with the scratch store and a silent announcer: a demo's screens speak
    nothing themselves (the loop's narration says what matters, once) and store nothing of the
    family's. The config (board layout, stability window) stays the table's."""
    # No table outputs either: the turn LEDs and buzzer belong to a visitor's game, not the demo.
    return replace(ctx, store=store, announcer=Announcer(False, ctx.announcer.language),
                   extras={EXTRAS_KEY: None})


class Demo:
    """One game on show. ``widget`` is what the loop puts on its stage."""

    kind = ""
    pace = 1.5  # seconds of table time between two visible moves

    def __init__(self, ctx: Any, store: GameStore, clock: Clock, seed: int, screen: Any = None) -> None:
        self.ctx, self.store, self.clock, self.seed = ctx, store, clock, seed
        # The screen of the last demo of this kind, reused: one set of widgets all day, not one per demo.
        self.screen: Any = screen
        self.widget: Widget = Widget()
        self.caption = ""
        self.game_id: int | None = None
        self.started_at = 0.0
        self.next_at = 0.0
        self.done_at: float | None = None
        self.max_seconds = 150.0

    def start(self) -> None:
        self.started_at = self.next_at = self.clock()

    def step(self, now: float) -> bool:
        """Move the game on if it is time; False once the demo has shown enough (and lingered on
        its end for a few seconds)."""
        if self.done_at is not None:
            return now - self.done_at < 2 * self.pace
        if now - self.started_at > self.max_seconds:
            return False
        if now < self.next_at:
            return True
        if not self.move(now):
            self.done_at = now
        self.next_at = now + self.pace
        return True

    def move(self, now: float) -> bool:
        """One visible move; False when the game is over."""
        raise NotImplementedError

    def stop(self) -> None:
        """Drop the game from the scratch store (it was only ever a demonstration)."""
        if self.game_id is not None:
            try:
                self.store.delete_game(self.game_id)
            except Exception:  # a scratch store that cannot delete only grows: never stop the loop
                log.exception("could not drop demo game %s from the scratch store", self.game_id)
            self.game_id = None


class Board99Demo(Demo):
    """Two computers and a scripted "person" play the Game of 99 on the simulated board.

    The loop's hand puts each computer's peg where the referee asks; the person announces a card
    (as a player taps PLAY) and puts the peg in; every third time on a square below the card, so
    people see the referee's penalty and the peg coming off again.
    """

    kind = "board99"
    PERSON = "Mia"

    def start(self) -> None:
        from app.ui.board99.game_screen import GameScreen
        from hardware.simulated import SimulatedBoard

        super().start()
        rng = random.Random(self.seed)
        deck = list(range(100))
        rng.shuffle(deck)
        setup = rules.make_setup(NAMES, deck=deck)
        table = TableSetup({"Ann": "red", "Ben": "blue", "Mia": "yellow"},
                           {"Ann": "intermediate", "Ben": "basic"}, self.seed)
        # the title is the phone view's heading: the players, in no language ("demo" was English)
        self.game = Board99Game.create(self.store, setup, table, title=", ".join(NAMES))
        self.game_id = self.game.id
        self.source = SimulatedBoard(clock=self.clock)
        if self.screen is None:
            self.screen = GameScreen(self.ctx)
            # Nobody taps the demo's buttons (a touch starts a visitor's game): the panel keeps the
            # turn, the referee's words, the hands and the log, and fits above the loop's caption bar.
            panel = self.screen.panel
            for row in (self.screen.play_button.parent, self.screen.bottom, self.screen.who):
                panel.remove_widget(row)
            self.screen.after_end = ""  # the winner alone: its NEW GAME and Menu are not on the loop
        self.screen.clock = self.clock  # the stability window runs on the loop's clock
        self.screen.start(self.game, self.source, self.ctx.config.stable_seconds)
        self.widget = self.screen
        self.person_turns = 0
        self.plan: int | None = None  # the hole the person's announced card goes to
        self.caption = tr("The Game of 99: the table referees every peg.")

    def move(self, now: float) -> bool:
        screen, game, source = self.screen, self.game, self.source
        screen.pump()
        referee = screen.referee
        if referee is None:
            return False
        state = game.state
        if state.outcome is not None:
            winners = ", ".join(state.outcome.winners) if state.outcome.status == "won" else ""
            self.caption = (tr("{names} won the Game of 99.", names=winners) if winners
                            else tr("The Game of 99 ended in a tie."))
            return False
        prompt = referee.prompt
        colours = game.colours
        if prompt.phase is Phase.COMPUTER_PEG and prompt.holes:
            by = state.to_move or ""
            source.put(prompt.holes[0], colours.get(by))
            self.caption = tr("{name} is a computer: its peg goes where it chose.", name=by)
        elif prompt.phase is Phase.REMOVE_PEG and prompt.holes:
            source.remove(prompt.holes[0])
            self.caption = tr("A penalty: the referee saw the wrong square, the peg comes off.")
        elif prompt.phase is Phase.PLACE_PEG and self.plan is not None:
            source.put(self.plan, colours.get(self.PERSON))
            self.plan = None
        elif prompt.phase in (Phase.FIX_BOARD, Phase.WHO_PLAYED):
            expected = referee.expected_holes()  # the demo's hand slipped: put the board right
            source.set_board(expected, {h: colours.get(p, "") for h, p in expected.items()})
        elif prompt.phase is Phase.ANNOUNCE and state.to_move == self.PERSON:
            self._person_turn(referee, state)
        screen.pump()
        screen.cards_visible = True  # the scripted player's cards face up: people see what she holds
        screen.refresh()
        return True

    def _person_turn(self, referee: Any, state: Any) -> None:
        from rules.board99.ai import choose_action

        action = choose_action(state.view_for(self.PERSON), "basic", random.Random(self.seed + state.ply))
        if isinstance(action, rules.Play):
            self.person_turns += 1
            hole = referee.hole_of(action.square)
            legal = set(state.legal_squares(action.card))
            lower = [s for s in range(action.card) if s not in state.pegs and s not in legal]
            if self.person_turns % 3 == 0 and lower:  # the deliberate mistake, for the penalty
                hole = referee.hole_of(lower[-1])
                self.caption = tr("{name} plays {card} on a square below it: watch the referee.",
                                  name=self.PERSON, card=action.card)
            else:
                self.caption = tr("{name} says PLAY {card} and puts the peg in.", name=self.PERSON,
                                  card=action.card)
            referee.announce_play(action.card, self.PERSON)
            self.plan = hole
        elif isinstance(action, rules.Discard):
            referee.announce_discard(action.card, self.PERSON)
            self.caption = tr("{name} discards a card.", name=self.PERSON)
        else:
            referee.announce_draw(self.PERSON)
            self.caption = tr("{name} draws a card.", name=self.PERSON)

    def stop(self) -> None:
        if self.screen is not None and hasattr(self, "source"):
            self.screen.stop()
            self.source.stop()
        super().stop()


class ParlettDemo(Demo):
    """A few deals of Parlett's Ninety-Nine: each deal is played out by the rules' own players
    (seeded), and its bids and tricks are entered through the session the score screen uses."""

    kind = "parlett"
    pace = 4.0
    DEALS = 4

    def start(self) -> None:
        from app.ui.parlett import ParlettUI
        from app.ui.parlett.totals_screen import TotalsScreen

        super().start()
        self.session = ParlettSession.new(self.store, "three", list(NAMES), NAMES[-1])
        self.game_id = self.session.game_id
        if self.screen is None:
            ui = ParlettUI()
            ui.ctx = self.ctx
            self.screen = TotalsScreen(ui)
            self.screen.showcase = True  # the loop takes every touch: no buttons that do nothing
        self.screen.ui.session = self.session
        self.screen.refresh()
        self.widget = self.screen
        self.caption = tr("Ninety-Nine (Parlett): bid with three cards, then make exactly that many tricks.")

    def next_deal(self) -> dict[str, Any]:
        """The next deal as the score screen would enter it, from a seeded simulation of the rules."""
        from rules.parlett.play import deal
        from rules.parlett.players import play_out, smart_bidder, smart_player

        sheet = self.session.sheet
        table = sheet.table
        seed = self.seed * 31 + len(sheet.deals)
        trump = sheet.next_trump
        state = deal(table.variant, seed=seed, dealer=table.players.index(sheet.next_dealer),
                     **({"trump": trump} if trump is not None else {}))
        final = play_out(state, [smart_bidder] * 3, [smart_player] * 3, random.Random(seed))
        bids, tricks = {}, {}
        for seat, name in enumerate(table.hands):
            bid = final.bid(seat)
            assert bid is not None
            bids[name] = bid.to_json()
            tricks[name] = final.tricks_won[seat]
        return {"bids": bids, "tricks": tricks}

    def move(self, now: float) -> bool:
        sheet = self.session.sheet
        if len(sheet.deals) >= self.DEALS or sheet.over:
            return False
        self.session.add_deal(self.next_deal())
        self.screen.refresh()
        result = self.session.sheet.deals[-1]
        made = [h for h, ok in result.score.made.items() if ok]
        self.caption = tr("Deal {n}: made it: {names}.", n=len(self.session.sheet.deals),
                          names=", ".join(made) or tr("nobody"))
        return True


class Count99Demo(Demo):
    """A round of Ninety Nine against the computer, the "you" seat played by a computer too."""

    kind = "count99"
    pace = 1.2

    def start(self) -> None:
        from app.ui.count99.computer_screen import ComputerScreen

        super().start()
        setup = CountSetup(Variant.QUENTIN_C, NAMES, tokens=3)
        self.session = ComputerGame.create(self.store, setup, level="hard", seed=self.seed)
        self.game_id = self.session.game_id
        self.you = make_player("easy", self.seed)
        if self.screen is None:
            self.screen = ComputerScreen(self.ctx)
            # The loop's caption bar takes 96 px: the count a little smaller, still the biggest thing.
            self.screen.status.count_label.font_size = sp(90)
            # and the phone view's QR code may take a column at the right: "counterclockwise" still fits
            self.screen.status.turn_label.font_size = sp(19)
        self.screen.session = self.session
        self.screen.pending = self.screen.cursor = None
        self.screen.log = []
        self.screen.report(self.session.opening)
        self.screen.refresh()
        self.widget = self.screen
        self.caption = tr("Ninety Nine: play a card, add it to the count; whoever passes 99 loses a token.")

    def move(self, now: float) -> bool:
        session = self.session
        if session.table.over:
            self.caption = tr("Ninety Nine: the round is over.")
            return False
        if session.humans_turn():
            slot, choice = self.you.choose(session.game.view(ComputerGame.HUMAN))
            events = session.play(slot, choice)
        else:
            events = session.computer_step()
        self.screen.report(events)
        self.screen.refresh()
        if any(isinstance(e, RoundEnded) for e in events):  # someone could not stay at 99 or below
            self.caption = tr("Past 99: a token is lost and the count starts again.")
            return False
        self.caption = tr("The count climbs: {count}.", count=session.table.count)
        return True


class RealBoardDemo(Demo):
    """Where a sensor board or camera is the table's board and the staff chose it (``show_board``):
    the loop shows what the real board senses, in place of the simulated board's game. The source is
    the table's own (shared with the visitor's game through the board game's UI), so nothing else
    opens the hardware; it is left running when the demo ends."""

    kind = "board"
    pace = 0.5

    def start(self) -> None:
        from app.ui.board99.board_view import BoardView
        from hardware.board_source import BoardReading, ReadingQueue

        super().start()
        self.max_seconds = 60.0
        self.reading_type = BoardReading
        kind = self.ctx.config.board_source
        shared = self.ctx.extras.get("board99")
        if shared is not None:
            self.source = shared.board_source(kind)
        elif self.ctx.make_source is not None:
            self.source = self.ctx.make_source(kind)
        else:
            raise RuntimeError("no board source to show")
        self.queue = ReadingQueue()
        self.unsubscribe = self.source.subscribe(self.queue.put)
        if not self.source.running:
            self.source.start()
        if self.screen is None:
            self.screen = BoardView(tuple(range(100)), on_hole=lambda _hole: None)
        self.widget = self.screen
        self.pegs: dict[int, str | None] = {}
        self.caption = tr("The real board: put a peg in and watch the table see it.")

    def move(self, now: float) -> bool:
        for event in self.queue.drain():
            if isinstance(event, self.reading_type):
                colours = event.colours or {}
                self.pegs = {hole: colours.get(hole) for hole in event.occupied}
        self.screen.show(self.pegs)
        self.caption = tr("The real board: its sensors see {n} pegs. Put one in and watch.", n=len(self.pegs))
        return True

    def stop(self) -> None:
        unsubscribe = getattr(self, "unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe()
            self.unsubscribe = None
        super().stop()


DEMOS: dict[str, type[Demo]] = {"board99": Board99Demo, "parlett": ParlettDemo, "count99": Count99Demo,
                                 "board": RealBoardDemo}
REAL_BOARDS = ("gpio", "serial", "camera")
