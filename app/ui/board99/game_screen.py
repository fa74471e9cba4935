"""The board game's screen: the board, whose turn, hands, deck, face-up cards, PLAY / DRAW / DISCARD.

At 800x480 the board takes the left 480 px (48 px squares: every square is a touch target) and
the panel the right 320 px. Board readings arrive through a :class:`ReadingQueue` drained by a
Kivy ``Clock`` interval on the main thread; the referee judges them and this screen only shows
what the referee says (it never reaches into the rules' internals beyond reading the state).

Long because one screen wires many parts that meet only here and must stay in step: the board
view, the panel, the referee's prompts and events, the reading pump, computer turns, the table's
LEDs and buttons, speech, undo and resume; the pads and the board view are modules of their own.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from app.games.board99.game import Board99Game
from app.games.board99.texts import deck_text, event_text, face_up_text, health_text, spoken, undo_button_text
from app.i18n import tr
from app.paths import data_dir
from app.referee import Phase, RefereeRefusal, StabilityWindow
from app.referee.core import Referee
from app.referee.events import (
    ActionAccepted,
    ActionUndone,
    AnnouncementRefused,
    ComputerChose,
    Prompt,
    PromptKind,
    TurnChanged,
)
from app.referee.outputs import TableOutputs, attach_outputs
from app.referee.thinking import Thinker, ThreadThinker
from app.ui import preferences, theme
from app.ui.board99.board_view import BoardView
from app.ui.board99.pads import CardPad, DeadHandPad
from app.ui.sounds import Chimes
from app.ui.widgets import (
    ACCENT,
    BIG_FONT,
    FONT,
    MUTED,
    READABLE,
    TOUCH,
    Background,
    Banner,
    BigButton,
    CardBack,
    CardFace,
    ConfirmBox,
    CycleButton,
    PegChip,
    WrapLabel,
    colour_rgba,
    text_height,
)
from hardware.board_source import BoardSource, ReadingQueue
from hardware.simulated import SimulatedBoard
from rules import board99 as rules

log = logging.getLogger(__name__)
shown_log = logging.getLogger("table99.shown")
NAME = "board99-game"


def who_label(player: str) -> str:
    """The panel's selector says it is one: a tap names another player."""
    return tr("By: {name} (tap to change)", name=player)


def next_step(game: Board99Game) -> tuple[str, str] | None:
    """The one next thing to do at the start of a turn, and the button that does it
    ("draw" or "play"); None once the game is over."""
    state = game.state
    player = state.to_move
    if state.outcome is not None or player is None:
        return None
    if game.is_computer(player):
        return tr("{name} (computer) is choosing.", name=player), ""
    if state.hand_count(player) == 0:
        if not state.pegs and not state.face_up:  # nobody has played yet: the opening draws
            return tr("Everyone draws a card first: {name}, tap DRAW.", name=player), "draw"
        return tr("{name} has no card: tap DRAW and take one.", name=player), "draw"
    if game.setup.deck is not None:  # the app deals: the card is picked on screen
        return tr("{name}: tap PLAY and pick your card, then put your peg in.", name=player), "play"
    return tr("{name}: tap PLAY and say your card, then put your peg in.", name=player), "play"


def banner_text(event: Any, game: Board99Game, after_end: str | None = None) -> tuple[str, str]:
    """The banner for a penalty or the end: what happened in the table's words, then what to do.
    ``after_end``: what to do once the game is over, where the screen's own NEW GAME and Menu are
    not there (the exhibitor loop's demo: nobody is to tap it); None: tap NEW GAME or Menu."""
    state = game.state
    if isinstance(event, rules.Penalised):
        after = state.to_move
        what = event_text(event) or ""
        then = tr("Next: {name}'s turn.", name=after) if after else ""
        return "penalty", f"{what} {then}".strip()
    then = tr("Tap NEW GAME for another game, or Menu to stop.") if after_end is None else after_end
    return "win", f"{event_text(event) or ''} {then}".strip()


LOG_ENTRIES = 4  # kept; as many as fit are shown
SPOKEN_PHASES = (Phase.REMOVE_PEG, Phase.WHO_PLAYED)


class GameScreen(Screen):
    after_end: str | None = None  # see banner_text: the exhibitor loop's demo says nothing to tap
    clock: Any = staticmethod(time.monotonic)  # the stability window's clock; tests replace it

    def __init__(self, ctx: Any, **kwargs: Any) -> None:
        kwargs.setdefault("name", NAME)  # another name for the same screen (the exhibit's visitor game)
        super().__init__(**kwargs)
        self.ctx = ctx
        self.computer_chooser: Any = None  # None: rules.board99.ai.choose_action; tests inject one
        # Where computers think: a worker thread. benchmarks/app_verdict_latency.py swaps in the
        # InlineThinker (the old call on this thread) to compare.
        self.thinker_factory: Callable[[], Thinker] = ThreadThinker
        self.game: Board99Game | None = None
        self.referee: Referee | None = None
        self.source: BoardSource | None = None
        self.queue = ReadingQueue()
        self._unsubscribe: Any = None
        self._event: Any = None
        self.outputs: TableOutputs | None = None
        self.log_lines: list[str] = []
        self.modal: ModalView | None = None
        self.refusal: str | None = None  # the last refused announcement, until the game moves on
        self.preview_card: int | None = None
        self.cards_visible = False
        self._shown_hand: tuple[Any, ...] | None = None  # what the hand row shows (see _show_hand)
        self._hand_widgets: list[Any] = []
        root = BoxLayout(orientation="horizontal")
        Background.paint(root)
        self.board = BoardView(tuple(range(100)), on_hole=self._on_hole, size_hint=(None, 1))
        root.bind(height=lambda _, h: setattr(self.board, "width", min(h, root.width * 0.62)))
        root.add_widget(self.board)
        panel = BoxLayout(orientation="vertical", padding=(8, 6), spacing=5)
        # Whose turn: white words beside the player's peg (colour, ring and letter), never coloured
        # words on the dark panel (a black player's name was invisible, red and blue hard to read).
        turn_row = BoxLayout(size_hint_y=None, height=44, spacing=8)
        self.turn_peg = PegChip(None, size=(40, 40), pos_hint={"center_y": 0.5})
        self.turn_label = WrapLabel("", font_size=BIG_FONT, bold=True, size_hint_y=1, valign="middle",
                                    shorten=True, shorten_from="right")
        turn_row.add_widget(self.turn_peg)
        turn_row.add_widget(self.turn_label)
        panel.add_widget(turn_row)
        self.turn_row = turn_row
        self.banner = Banner()  # a penalty or the end, unmissable, with what to do next
        panel.add_widget(self.banner)
        self.banner_event: Any = None
        self.prompt_label = WrapLabel("", font_size=READABLE)
        self.info_label = WrapLabel("", font_size=READABLE, color=theme.TEXT_MUTED)
        for label in (self.prompt_label, self.info_label):
            panel.add_widget(label)
        self.hand_row = BoxLayout(size_hint_y=None, height=0, spacing=4)
        panel.add_widget(self.hand_row)
        # The log takes the room left above the buttons and shows the newest entries that fit whole,
        # at the size of the status lines (it was 14 sp, too small to read from a metre).
        self.log_label = WrapLabel("", font_size=READABLE, color=theme.TEXT_MUTED, size_hint_y=1)
        self.log_label.bind(size=self._fit_log)
        panel.add_widget(self.log_label)
        # Who announces: the player to move unless a tap steps on to another (an out-of-turn entry).
        # Tapping the selector names a player on purpose; left alone, it follows the turn, and an
        # announcement goes to whoever is to move when the referee applies it (see _by).
        self.who_chosen = False
        self.who = CycleButton([], "", label=who_label, font_size=READABLE, on_change=self._who_chosen)
        panel.add_widget(self.who)
        with self.who.canvas.after:  # an outline: a button, not a banner, even in black on the panel
            Color(*theme.TEXT_MUTED)
            outline = Line(rectangle=(0, 0, 1, 1), width=1.5)
        self.who.bind(pos=lambda w, _: setattr(outline, "rectangle", (*w.pos, *w.size)),
                      size=lambda w, _: setattr(outline, "rectangle", (*w.pos, *w.size)))
        actions = BoxLayout(size_hint_y=None, height=68, spacing=5)
        self.play_button = BigButton(tr("PLAY"), on_press=self.ask_play, height=68, font_size=sp(22),
                                     background_color=ACCENT)
        self.draw_button = BigButton(tr("DRAW"), on_press=self.draw, height=68, font_size=sp(22))
        self.discard_button = BigButton(tr("DISCARD"), on_press=self.discard_or_dead_hand, height=68,
                                        font_size=sp(22))
        for button in (self.play_button, self.draw_button, self.discard_button):
            actions.add_widget(button)
        panel.add_widget(actions)
        bottom = BoxLayout(size_hint_y=None, height=TOUCH, spacing=5)
        # Undo names what it takes back ("Undo: Ann PLAY 57"), so it gets the most room.
        self.undo_button = BigButton(tr("Undo"), on_press=self.ask_undo, height=TOUCH, size_hint_x=1.6,
                                     font_size=sp(17), fit_height=True)
        self.cards_button = BigButton(tr("My cards"), on_press=self.toggle_cards, height=TOUCH)
        self.menu_button = BigButton(tr("Menu"), on_press=self.leave, height=TOUCH)
        for button in (self.undo_button, self.cards_button, self.menu_button):
            bottom.add_widget(button)
        panel.add_widget(bottom)
        self.bottom = bottom
        root.add_widget(panel)
        self.panel = panel
        self.add_widget(root)
        # Many referee events arrive per verdict; redraw once, just before the next frame.
        self.refresh_soon = Clock.create_trigger(lambda *_: self.refresh(), -1)
        # ... and speak them as one utterance: each say() cuts off the one before, so a penalty
        # followed at once by "Ben's turn." was never heard.
        self.to_say: list[str] = []
        self.say_soon = Clock.create_trigger(lambda *_: self._speak(), -1)
        self.chimes = Chimes(data_dir() / "sounds", lambda: bool(self.ctx.announcer.enabled))

    # -- starting and stopping --------------------------------------------------------------------
    def start(self, game: Board99Game, source: BoardSource, stable_seconds: float = 0.4) -> None:
        self.stop()
        self.game = game
        self.source = source
        self.log_lines = []
        self.refusal = None
        self.banner_event = None
        self.banner.hide()
        self.board.set_numbers(game.setup.layout.numbers)
        window = StabilityWindow(stable_seconds, self.clock)
        # Computers think on a worker thread; the pump below applies their choices (never waits).
        self.referee = Referee(game, window, sees_colour=source.sees_colour, thinker=self.thinker_factory(),
                               computer_chooser=self.computer_chooser)
        self.referee.subscribe(self._on_referee_event)
        # Turn LEDs, buzzer and PLAY/DRAW/DISCARD buttons where [outputs] configures them.
        self.outputs = attach_outputs(self.ctx, self.referee)
        self.queue = ReadingQueue()
        self._unsubscribe = source.subscribe(self.queue.put)
        source.start()
        if isinstance(source, SimulatedBoard) and not game.actions:
            source.clear()  # a new game on the simulated board starts with an empty board
        self._event = Clock.schedule_interval(self.pump, 1 / 30)
        # My cards only where the app deals (a computer plays); with real cards Undo takes its room.
        digital = game.setup.deck is not None
        if digital and self.cards_button.parent is None:
            self.bottom.add_widget(self.cards_button, index=1)
        elif not digital and self.cards_button.parent is not None:
            self.bottom.remove_widget(self.cards_button)
        self.who.set_options([(p, p) for p in game.setup.players], game.state.to_move or "")
        self.referee.start()
        self.pump()
        self.refresh()

    def stop(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.outputs is not None:
            self.outputs.detach()
            self.outputs = None
        if self.referee is not None:
            self.referee.close()  # a computer's choice still being computed is dropped
        self.referee = None

    def pump(self, *_: Any) -> None:
        """Hand waiting board events to the referee (main thread), let its window mature and apply
        a computer's choice the worker has finished."""
        if self.referee is None:
            return
        events = self.queue.drain()
        for event in events:
            self.referee.on_board_event(event)
        self.referee.tick()
        if events:
            try:  # after the referee has them: a hook can never cost the referee a board event
                self.board_events(events)
            except Exception:
                log.exception("a screen's board_events hook failed; the game goes on")
        if self.outputs is not None:
            for refusal in self.outputs.poll_buttons(self.referee, self._ask_card):
                self._problem(refusal)
        if events:
            self.refresh_soon()

    def board_events(self, events: list[Any]) -> None:
        """The board's events as the pump takes them (main thread), once the referee has them: a
        hook for screens that care who is at the board (the exhibit's idle timer)."""

    def _ask_card(self, what: str) -> None:
        """A physical PLAY or DISCARD button was pressed: ask which card, as the screen's button does."""
        if what == "play":
            self.ask_play()
        else:
            self.discard_or_dead_hand()

    # -- what the referee says ------------------------------------------------------------------
    def _on_referee_event(self, event: Any) -> None:
        if isinstance(event, ActionAccepted):
            # The app's own acknowledgement, in the journal: "shown: action N" is logged as the
            # screen takes the action in (the crash tests compare these lines with the store).
            shown_log.info("shown: action %d %s", event.index, json.dumps(rules.action_to_json(event.action)))
        self.refusal = None  # the game moved on: the last refusal is history
        text = event_text(event)
        over = self.game is not None and self.game.state.outcome is not None
        if isinstance(event, TurnChanged) and over:
            text = None  # after the win, nobody's turn
        # Whose turn is the heading, and a computer's choice is the prompt until its peg is in; the
        # log keeps what happened ("Ben played card 26 on square 30."), once.
        if text and not isinstance(event, (Prompt, TurnChanged, ComputerChose)):
            self.log_lines = [text, *self.log_lines][:LOG_ENTRIES]
        if text and not isinstance(event, Prompt) and spoken(event):
            self._say(text)
        # Problems, and what a hand must do before the game goes on: say them for players who cannot
        # see the screen (take a penalised peg off, explain a peg nobody announced).
        if isinstance(event, Prompt) and (event.kind is PromptKind.PROBLEM or event.phase in SPOKEN_PHASES):
            self._say(event.text)
        if isinstance(event, (ActionAccepted, ActionUndone)):
            self.who.value = ""
            self.who_chosen = False
            by = getattr(getattr(event, "action", None), "by", None)
            if isinstance(event, ActionUndone) or (self.game is not None and not self.game.is_computer(by)):
                self.banner_event = None  # a person moved on: the banner has been seen
        if isinstance(event, (rules.Penalised, rules.Won, rules.Tied)):
            self.banner_event = event
            self.chimes.play("penalty" if isinstance(event, rules.Penalised) else "win")
        if isinstance(event, AnnouncementRefused):
            self._problem(event.text)
        if isinstance(event, Prompt) and event.phase is Phase.WHO_PLAYED:
            Clock.schedule_once(lambda *_: self._maybe_ask_who(), 0)
        self.refresh_soon()

    def refresh(self) -> None:
        referee, game = self.referee, self.game
        if referee is None or game is None:
            return
        state = game.state
        colours = game.colours
        prompt = referee.prompt
        to_move = state.to_move
        if state.outcome is not None:
            self.turn_label.text = referee.prompt.text
            self.turn_peg.set_colour(None)
        else:
            self.turn_label.text = tr("{name}'s turn", name=to_move) if to_move else ""
            self.turn_peg.set_colour(colours.get(to_move or "") if to_move else None)
        self.turn_label.color = theme.TEXT
        self.turn_peg.width = 40 if self.turn_peg.colour else 0
        if self.banner_event is not None:
            self.banner.show(*banner_text(self.banner_event, game, self.after_end))
        else:
            self.banner.hide()
        # The plain "X's turn: PLAY, DRAW or DISCARD" repeats the heading and the buttons: left out,
        # so the log has room (it is still there for speech and LEDs).
        # In its place: the one next thing to do ("Everyone draws a card first: Mia, tap DRAW.").
        routine = prompt.phase is Phase.ANNOUNCE and prompt.kind is PromptKind.INFO
        step = next_step(game) if routine else None
        shown = "" if state.outcome is not None else step[0] if step else prompt.text
        if self.banner_event is not None:
            shown = ""  # the banner says what happened and what comes next
        self.prompt_label.text = self.refusal or shown
        problem = prompt.kind is PromptKind.PROBLEM or bool(self.refusal)
        self.prompt_label.color = theme.PROBLEM_TEXT if problem else theme.TEXT
        hands = "   ".join(f"{p}: {state.hand_count(p)}" for p in game.setup.players)
        lines = [tr("Cards in hand: {hands}", hands=hands), deck_text(state.deck_count),
                 face_up_text(state.face_up)]
        if self.banner_event is not None and len(game.setup.players) > 3:
            lines = lines[1:]  # the banner needs the room; the hands show again after the next move
        self.info_label.text = "\n".join(lines)
        if self.source is not None and not isinstance(self.source, SimulatedBoard):
            self.info_label.text += "\n" + health_text(self.source.health)  # sensors, serial link, camera
        self._fit_log()
        pegs = {referee.hole_of(sq): colours.get(p) for sq, p in state.pegs.items()}
        sensed = referee._board.occupied if referee._board is not None else None
        allowed: frozenset[int] = frozenset()
        attention = frozenset(prompt.holes)
        if prompt.phase is Phase.PLACE_PEG:
            allowed, attention = frozenset(prompt.holes), frozenset()
        elif self.preview_card is not None:
            allowed = frozenset(referee.hole_of(s) for s in state.legal_squares(self.preview_card))
        winning = frozenset()
        if state.outcome is not None and state.outcome.line:
            winning = frozenset(referee.hole_of(s) for s in state.outcome.line)
        self.board.show(pegs, sensed=sensed, allowed=allowed, attention=attention, winning=winning)
        over = state.outcome is not None
        waiting = prompt.phase in (Phase.COMPUTER_PEG, Phase.REMOVE_PEG)  # a peg must move first
        self.play_button.disabled = over or waiting
        self.draw_button.disabled = over or waiting
        self.discard_button.disabled = over or waiting
        self.play_button.text = tr("NEW GAME") if over else tr("PLAY")
        # The button for the next thing to do is the highlighted one (DRAW while hands are empty).
        wanted = "play" if over else (step[1] if step else "")
        self.play_button.background_color = ACCENT if wanted == "play" else MUTED
        self.draw_button.background_color = ACCENT if wanted == "draw" else MUTED
        classic = game.setup.ruleset is rules.Ruleset.CLASSIC
        self.discard_button.text = tr("DISCARD") if classic else tr("DEAD HAND")
        if over:
            self.play_button.disabled = False
        undoable = referee.undo_target()
        self.undo_button.disabled = undoable is None  # a computer's move alone would be chosen again
        self.undo_button.text = undo_button_text(undoable)
        self.cards_button.disabled = game.setup.deck is None or game.is_computer(to_move)
        if not self.who_chosen:
            self.who.value = to_move or ""
        self.who._show()
        who_colour = colours.get(self.who.value)
        # While a new peg settles nobody knows yet whether the turn moves on: name no one then.
        settling = referee.settling and not self.who_chosen and state.outcome is None
        if settling:
            self.who.text = tr("Wait: the pegs are settling")
            who_colour = None
        # The player's colour where it stays readable: words in white or black, whichever reads better.
        self.who.background_color = colour_rgba(who_colour) if who_colour else MUTED
        self.who.color = theme.readable_on(self.who.background_color)
        self.who.disabled = state.outcome is not None  # after the end nobody announces
        self.who.opacity = 0 if state.outcome is not None else 1
        self._show_hand()

    def _fit_log(self, *_: Any) -> None:
        """Show the newest log entries that fit whole in the log's room (newest first), leaving out
        the one the banner shows."""
        label = self.log_label
        shown: list[str] = []
        in_banner = self.banner.label.text if self.banner.kind else ""
        for line in self.log_lines:
            if line and line in in_banner:
                continue
            if text_height("\n".join([*shown, line]), label.font_size, label.width) > label.height:
                break
            shown.append(line)
        label.text = "\n".join(shown)
        label.text_size = (label.width, label.height)  # top-aligned in its room

    def _hand_key(self) -> tuple[Any, ...] | None:
        """What the hand row shows, in one value (None: no hand)."""
        game = self.game
        if game is None or game.setup.deck is None:
            return None
        player = game.state.to_move
        if player is None or game.is_computer(player):
            return None
        hint = tr("{name}: tap My cards to see your hand.", name=player)
        at_once = bool(preferences.get("play_at_once"))
        return player, game.state.known_hand(player), self.cards_visible, at_once, hint

    def _show_hand(self) -> None:
        """Build the hand row, only when what it shows changed.

        refresh runs after every referee event: rebuilding the same card widgets each time cost
        the verdict's frame new widgets, textures and a panel layout for nothing. The row is
        rebuilt when its content differs, or when someone else emptied it (the exhibit's visitor
        screen clears it under a penalty banner)."""
        key = self._hand_key()
        if key == self._shown_hand and list(self.hand_row.children) == self._hand_widgets:
            return
        self._shown_hand = key
        self._build_hand(key)
        self._hand_widgets = list(self.hand_row.children)

    def _build_hand(self, key: tuple[Any, ...] | None) -> None:
        self.hand_row.clear_widgets()
        self.hand_row.height = 0  # no room taken when there is no hand to show
        if key is None:
            return
        _, hand, visible, at_once, hint = key
        self.hand_row.height = TOUCH
        if not visible:  # face down, in the table's card back, until My cards
            for _ in hand:
                self.hand_row.add_widget(CardBack(size_hint_x=None, width=40))
            self.hand_row.add_widget(WrapLabel(hint, font_size=READABLE, size_hint_y=1, valign="middle"))
            return
        for card in hand:
            if at_once:  # 5of99's "play a card at once": the card is a button that plays it
                button = BigButton(str(card), font_size=FONT, height=TOUCH, size_hint_x=None, width=56,
                                   background_color=theme.CARD_FACE, color=theme.CARD_INK)
                button.bind(on_release=lambda _b, c=card: self._announce("play", c, self._by()))
                self.hand_row.add_widget(button)
            else:  # cards drawn as cards: they show; PLAY plays one
                self.hand_row.add_widget(CardFace(str(card), font_size=FONT, size_hint_x=None, width=56))

    # -- the players' announcements ---------------------------------------------------------------
    def _by(self) -> str | None:
        """The player a tap announces for: only one named on purpose; else None (the player to move).

        None lets the referee decide when it applies the announcement: a quick player's PLAY,
        tapped while the previous player's peg still settles, goes to the quick player.
        """
        return (self.who.value or None) if self.who_chosen else None

    def _who_chosen(self, value: str) -> None:
        self.who_chosen = True
        self.refresh_soon()

    def _known_hand(self, by: str | None) -> tuple[int, ...] | None:
        game = self.game
        if game is None or game.setup.deck is None:
            return None
        player = by or game.state.to_move
        return game.state.known_hand(player) if player else None

    def ask_play(self) -> None:
        if self.game is not None and self.game.state.outcome is not None:
            self.leave(new_game=True)
            return
        by = self._by()
        self._open(CardPad(tr("PLAY: which card?"), lambda card: self._announce("play", card, by),
                           on_change=self._preview, hand=self._known_hand(by)))

    def ask_discard(self) -> None:
        by = self._by()
        self._open(CardPad(tr("DISCARD: which card?"), lambda card: self._announce("discard", card, by),
                           hand=self._known_hand(by)))

    def discard_or_dead_hand(self) -> None:
        """DISCARD in classic; in 5of99 (no discards) the same button shows a dead hand."""
        game = self.game
        if game is None:
            return
        if game.setup.ruleset is rules.Ruleset.CLASSIC:
            self.ask_discard()
            return
        by = self._by() or game.state.to_move
        hand = self._known_hand(by)
        if hand is not None and by is not None and game.state.hand_count(by) == len(hand):
            self._open(ConfirmBox(tr("Show {name}'s hand as dead: {cards}?", name=by,
                                     cards=", ".join(map(str, hand))),
                                  lambda: self._dead_hand(hand, by), yes=tr("DEAD HAND")))
        else:
            self._open(DeadHandPad(lambda cards: self._dead_hand(cards, by)))

    def _dead_hand(self, cards: tuple[int, ...], by: str | None) -> None:
        if self.referee is None:
            return
        try:
            self.referee.announce_dead_hand(cards, by)
        except RefereeRefusal as exc:
            self._problem(str(exc))
        self.refresh()

    def ask_who_played(self) -> None:
        game = self.game
        assert game is not None
        self._open(CardPad(tr("Who played the new peg, with which card?"), self._identify,
                           on_change=self._preview, players=game.setup.players, who=game.state.to_move))

    def draw(self) -> None:
        self._announce("draw", None, self._by())

    def _open(self, modal: ModalView) -> None:
        self.modal = modal
        modal.bind(on_dismiss=lambda *_: self._preview(None))
        modal.open()

    def _preview(self, card: int | None) -> None:
        self.preview_card = card
        self.refresh()

    def _announce(self, what: str, card: int | None, by: str | None) -> None:
        referee = self.referee
        if referee is None:
            return
        self.preview_card = None
        try:
            if what == "play":
                assert card is not None
                referee.announce_play(card, by)
            elif what == "discard":
                assert card is not None
                referee.announce_discard(card, by)
            else:
                referee.announce_draw(by)
        except RefereeRefusal as exc:
            self._problem(str(exc))
        self.cards_visible = False
        self.refresh()

    def _identify(self, by: str, card: int) -> None:
        if self.referee is None:
            return
        try:
            self.referee.identify_unannounced(by, card)
        except RefereeRefusal as exc:
            self._problem(str(exc))
        self.refresh()

    def _say(self, text: str) -> None:
        if text not in self.to_say:
            self.to_say.append(text)
        self.say_soon()

    def _speak(self) -> None:
        texts, self.to_say = self.to_say, []
        if texts:
            self.ctx.announcer.say(" ".join(texts))

    def _problem(self, text: str) -> None:
        """A refused announcement: shown in place of the prompt (and spoken) until the game moves on."""
        self.refusal = text
        self._say(text)
        self.refresh()

    def toggle_cards(self) -> None:
        self.cards_visible = not self.cards_visible
        self.refresh()

    def ask_undo(self) -> None:
        referee = self.referee
        if referee is None or (what := referee.undo_preview()) is None:
            return
        self._open(ConfirmBox(tr("Undo the last action: {what}?", what=what), referee.undo,
                              yes=tr("Undo")))

    def leave(self, new_game: bool = False) -> None:
        game = self.game
        self.stop()
        if game is not None and not game.actions:  # nothing happened: nothing to resume or keep
            self.ctx.store.delete_game(game.id)
            self.game = None
        ui = self.ctx.extras.get("board99")
        if new_game and ui is not None:
            self.ctx.go(ui.new_game_screen())
        else:
            self.ctx.go("home")

    # -- the simulated board: the screen is the board ----------------------------------------------
    def _on_hole(self, hole: int) -> None:
        source, referee = self.source, self.referee
        if not isinstance(source, SimulatedBoard) or referee is None or self.game is None:
            return
        colour = None
        if source.sees_colour:
            player = self._by() or self.game.state.to_move
            colour = self.game.colours.get(player or "")
        source.toggle(hole, colour)
        self.pump()

    def _maybe_ask_who(self) -> None:
        modal_open = self.modal is not None and self.modal.parent is not None
        if self.referee is not None and self.referee.phase is Phase.WHO_PLAYED and not modal_open:
            self.ask_who_played()

    def on_pre_leave(self, *args: Any) -> None:
        if self.modal is not None:
            self.modal.dismiss(animation=False)

