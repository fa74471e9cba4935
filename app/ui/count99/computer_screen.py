"""Ninety Nine against the computer: your hand, the count, and the seed's keys.

Keys: a digit plays the card in that slot (1-9, 0 for the tenth), Space or D draws in manual-draw
games, C says the count, H says your hand. The arrows move through the hand saying each card and
Enter plays it, so hands of 11 to 13 cards are reachable without a mouse. An Ace or 10 then asks:
1 or 2 picks the first or second value offered (+ and - the higher and lower), Escape cancels.
Computer players move one at a time with a short pause
(:attr:`ComputerScreen.delay`) so the table can be followed by eye and ear; everything they do is
written in the log and the important news is spoken.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from app.games.count99.game import ComputerGame, announcement
from app.games.count99.texts import card_name, describe, direction_name, hand_text
from app.i18n import tr, trn
from app.ui import preferences, theme
from app.ui.count99.status import StatusPanel
from app.ui.count99.widgets import ACCENT, CHOICE, Tap, Text, paint
from rules.count99.cards import choices_for
from rules.count99.errors import Count99Error
from rules.count99.table import Eliminated

NAME = "count99-computer"
LOG_LINES = 6
HAND_COLUMNS = 7
ENTER, NUMPAD_ENTER, ESCAPE, RIGHT, LEFT = 13, 271, 27, 275, 276
CURSOR = theme.CURSOR  # the slot the arrows are on


class ComputerScreen(Screen):
    delay: float | None = None  # seconds between computer moves; None: the settings' speed; tests set 0

    def __init__(self, ctx: Any, **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.session: ComputerGame | None = None
        self.pending: int | None = None  # a slot waiting for its Ace/10 choice
        self.cursor: int | None = None  # the slot the arrow keys are on
        self.log: list[str] = []
        self._scheduled: Any = None
        root = BoxLayout(padding=8, spacing=8)
        paint(root)
        self.add_widget(root)
        self.status = StatusPanel(size_hint_x=0.38)
        root.add_widget(self.status)
        right = BoxLayout(orientation="vertical", spacing=6)
        root.add_widget(right)
        self.log_label = Text("", font_size=sp(theme.READABLE), valign="bottom")
        right.add_widget(self.log_label)
        # Up to 7 cards in a row; bigger hands (the seed allows 13) wrap so buttons stay finger-sized.
        self.hand_row = GridLayout(cols=HAND_COLUMNS, size_hint_y=None, height=96, spacing=6)
        right.add_widget(self.hand_row)
        self.choice_bar = BoxLayout(size_hint_y=None, height=56, spacing=6)
        right.add_widget(self.choice_bar)
        actions = BoxLayout(size_hint_y=None, height=56, spacing=6)
        # Touchscreen words: the keys (D, C, H, digits, arrows) still work but are not advertised.
        self.draw_button = Tap(tr("Draw"), self.draw, background_color=ACCENT)
        actions.add_widget(self.draw_button)
        actions.add_widget(Tap(tr("Say the count"), self.say_count))
        actions.add_widget(Tap(tr("Say my hand"), self.say_hand))
        actions.add_widget(Tap(tr("Menu"), lambda: self.ctx.go("home")))
        right.add_widget(actions)

    # -- lifecycle --------------------------------------------------------------------------
    def open(self, session: ComputerGame, events: list[object] | None = None) -> None:
        self.session = session
        self.pending = None
        self.cursor = None
        self.log = []
        self.report(events or [])
        self.refresh()
        self.schedule_computers()

    def on_enter(self, *args: Any) -> None:
        Window.bind(on_key_down=self.on_key)

    def on_leave(self, *args: Any) -> None:
        Window.unbind(on_key_down=self.on_key)
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None

    # -- showing ----------------------------------------------------------------------------
    def refresh(self) -> None:
        assert self.session is not None
        session = self.session
        table = session.table
        self.status.show(table, you=0)
        self.hand_row.clear_widgets()
        cards = len(session.game.hands[0])
        self.hand_row.cols = max(1, min(HAND_COLUMNS, cards))
        self.hand_row.height = 96 if cards <= HAND_COLUMNS else 2 * 64 + 6
        mine = session.humans_turn() and self.pending is None
        for slot, card in enumerate(session.game.hands[0]):
            # Cards drawn as cards (ivory, dark ink) while you may play them; grey while you wait.
            colour = CURSOR if slot == self.cursor else theme.CARD_FACE if mine else theme.BUTTON
            # The card's name big, its slot number small above it: a slot never reads as a card.
            big = sp(22 if cards <= HAND_COLUMNS else 17)
            button = Tap(f"[size={max(13, int(big * 0.6))}]{slot + 1}[/size]\n[b]{card_name(card)}[/b]",
                         lambda s=slot: self.play_slot(s), font_size=big, background_color=colour,
                         markup=True, color=theme.readable_on(colour))
            button.disabled = not mine
            self.hand_row.add_widget(button)
        self.draw_button.opacity = 1 if session.game.manual_draw else 0
        self.draw_button.disabled = not session.game.can_draw(0)
        self.choice_bar.clear_widgets()
        if self.pending is not None:
            card = session.game.hands[0][self.pending]
            self.choice_bar.add_widget(Text(tr("{card} counts:", card=card_name(card)), halign="center"))
            for value in choices_for(session.game.variant, card, table.count):
                self.choice_bar.add_widget(Tap(f"{value:+d}", lambda v=value: self.choose(v),
                                               background_color=CHOICE))
            self.choice_bar.add_widget(Tap(tr("Cancel"), self.cancel_choice))
        elif table.winner is None:  # the one next step, as the board game's prompt says it
            step = tr("Tap a card to play it.") if mine else tr("Wait for the others to play.")
            self.next_step = Text(step, font_size=sp(theme.READABLE), halign="center",
                                  color=theme.GOOD_TEXT if mine else theme.TEXT_MUTED)
            self.choice_bar.add_widget(self.next_step)
        self.log_label.text = "\n".join(self.log[-LOG_LINES:])

    def report(self, events: list[object]) -> None:
        assert self.session is not None
        setup = self.session.setup
        for event in events:
            line = describe(event, setup, you=0)
            if line:
                self.log.append(line)
        if any(isinstance(e, Eliminated) and e.seat == 0 for e in events) and not self.session.table.over:
            self.log.append(tr("You are out. The computers play on to the end."))
        said = announcement(events, setup, you=0)
        if self.session.humans_turn() and any(e for e in events):
            said = f"{said} {tr('Your turn. Count {count}.', count=self.session.table.count)}".strip()
        if said:
            self.ctx.announcer.say(said)

    def note(self, text: str, said: str | None = None) -> None:
        self.log.append(text)
        self.ctx.announcer.say(said or text)
        self.refresh()

    # -- the person's actions ---------------------------------------------------------------
    def play_slot(self, slot: int) -> None:
        assert self.session is not None
        session = self.session
        self.pending = None  # another card chosen while an Ace or 10 waited: that question is dropped
        if not session.humans_turn():
            self.note(tr("Not your turn yet."))
            return
        hand = session.game.hands[0]
        if not 0 <= slot < len(hand):
            self.note(trn("There is no card in slot {slot}. You hold {n} card.",
                          "There is no card in slot {slot}. You hold {n} cards.", len(hand), slot=slot + 1))
            return
        if len(choices_for(session.game.variant, hand[slot], session.table.count)) > 1:
            self.pending = slot
            first, second = choices_for(session.game.variant, hand[slot], session.table.count)
            # Shown for the touchscreen (the buttons below); said with the keys for a keyboard player.
            values = {"card": card_name(hand[slot]), "first": f"{first:+d}", "second": f"{second:+d}"}
            self.note(tr("Which way does the {card} count: {first} or {second}?", **values),
                      said=tr("Which way does the {card} count? 1: {first}, 2: {second}, Escape: cancel.",
                              **values))
            return
        self._play(slot, None)

    def choose(self, value: int) -> None:
        slot, self.pending = self.pending, None
        if slot is not None:
            self._play(slot, value)

    def cancel_choice(self) -> None:
        assert self.session is not None
        if self.pending is not None:
            card = self.session.game.hands[0][self.pending]
            self.pending = None
            self.note(tr("{card} stays in your hand.", card=card_name(card)))
        self.refresh()

    def _play(self, slot: int, choice: int | None) -> None:
        assert self.session is not None
        try:
            events = self.session.play(slot, choice)
        except Count99Error as exc:
            self.note(tr("Not allowed: {reason}", reason=str(exc)))
            return
        self.report(events)
        self.refresh()
        self.schedule_computers()

    def draw(self) -> None:
        assert self.session is not None
        if not self.session.game.manual_draw:
            self.note(tr("Cards are drawn for you automatically."))
            return
        if not self.session.game.can_draw(0):
            self.note(tr("Your hand is full."))
            return
        self.report(self.session.draw())
        self.refresh()

    def say_count(self) -> None:
        assert self.session is not None
        table = self.session.table
        self.note(tr("Count {count}, {direction}.", count=table.count,
                     direction=direction_name(table.direction)))

    def say_hand(self) -> None:
        assert self.session is not None
        self.note(hand_text(self.session.game.hands[0]))

    def move_cursor(self, step: int) -> None:
        """Arrow keys: the next or previous card, said aloud; from nowhere Right is 1, Left the last."""
        assert self.session is not None
        hand = self.session.game.hands[0]
        if not hand:
            self.note(hand_text(hand))
            return
        if self.cursor is None or self.cursor >= len(hand):
            self.cursor = 0 if step > 0 else len(hand) - 1
        else:
            self.cursor = (self.cursor + step) % len(hand)
        self.ctx.announcer.say(f"{self.cursor + 1}: {card_name(hand[self.cursor])}.")  # not logged
        self.refresh()

    def choose_by_key(self, key: str) -> bool:
        """While an Ace or 10 waits: 1 or 2 picks the offered value, + the higher, - the lower."""
        assert self.session is not None and self.pending is not None
        card = self.session.game.hands[0][self.pending]
        options = choices_for(self.session.game.variant, card, self.session.table.count)
        picked = {"1": options[0], "2": options[-1], "+": max(options), "-": min(options)}.get(key)
        if picked is None:
            return False
        self.choose(picked)
        return True

    def on_key(self, _window: Any, keycode: int, _scancode: int, codepoint: str | None, _mods: Any) -> bool:
        if self.manager is None or self.manager.current != self.name:
            return False
        if keycode in (LEFT, RIGHT):
            self.move_cursor(1 if keycode == RIGHT else -1)
            return True
        if keycode == ESCAPE and self.pending is not None:
            self.cancel_choice()
            return True
        if keycode in (ENTER, NUMPAD_ENTER):
            if self.pending is None and self.cursor is not None:
                self.play_slot(self.cursor)
            return True
        if not codepoint:
            return False
        key = codepoint.lower()
        if self.pending is not None and self.choose_by_key(key):
            return True
        if key.isdecimal():  # not isdigit: "²" (AltGr+2) is a digit int() refuses
            self.play_slot(9 if key == "0" else int(key) - 1)
        elif key in (" ", "d"):
            self.draw()
        elif key == "c":
            self.say_count()
        elif key == "h":
            self.say_hand()
        else:
            return False
        return True

    # -- the computer players ---------------------------------------------------------------
    def schedule_computers(self) -> None:
        assert self.session is not None
        if self._scheduled is None and not self.session.table.over and not self.session.humans_turn():
            self._scheduled = Clock.schedule_once(self._computer_move, self.pace())

    def pace(self) -> float:
        """Seconds before the next computer move: a quarter of :attr:`delay` once you are out,
        so the rest of the game (bounded by the 200-card limit, docs/count99.md) is quick to watch."""
        assert self.session is not None
        delay = preferences.animation_seconds() if self.delay is None else self.delay
        return delay if self.session.table.is_in(ComputerGame.HUMAN) else delay / 4

    def _computer_move(self, _dt: float) -> None:
        self._scheduled = None
        if self.session is None:
            return
        self.report(self.session.computer_step())
        self.refresh()
        self.schedule_computers()
