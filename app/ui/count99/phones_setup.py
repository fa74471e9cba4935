"""Ninety Nine with phones, the host's setup on the table's screen: the seed's options and the seats.

The host picks the rules (Quentin C or RS Games), cards per hand (1-13), tokens (1-50), automatic or
manual drawing, a turn time (none or a few choices: after it a computer plays the idle seat until
its owner is back) and who sits in each seat: a person on a phone, or an easy or hard computer.
"Open the table" makes the table in the web display's registry and shows the lobby (codes, QR).
Without a running web display nobody could join: the screen says so in one line and opens nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from app.games.count99.phones import COMPUTER_LEVELS, PERSON, PhoneError, PhoneOptions
from app.games.count99.texts import variant_name
from app.i18n import tr
from app.ui import theme
from app.ui.count99.phones_link import refusal_text, registry, web_missing
from app.ui.count99.widgets import Stepper, Text, paint
from app.ui.widgets import ACCENT, Choice, CycleButton, WrapLabel
from app.ui.widgets import BigButton as Button
from rules.count99.cards import CARD_NAMES, COPIES, Variant
from rules.count99.table import HAND_SIZE_RANGE, MAX_PLAYERS, MIN_PLAYERS, TOKENS_RANGE

NAME = "count99-phones-setup"
ROW = 48
LABEL_WIDTH = 120
TURN_TIMES = (None, 30, 60, 120)  # seconds; the games layer allows 5 to 600
DEFAULT_SEATS = (PERSON, PERSON, "hard", "hard")


def turn_time_name(seconds: int | None) -> str:
    if seconds is None:
        return tr("No limit")
    if seconds % 60 == 0:
        return tr("{n} min", n=seconds // 60)
    return tr("{n} s", n=seconds)


def seat_kind_name(kind: str) -> str:
    names = {PERSON: tr("Person"), "easy": tr("Computer (easy)"), "hard": tr("Computer (hard)")}
    return names.get(kind, kind)


class PhonesSetupScreen(Screen):
    """The host's choices; ``open_table(table)`` is called with the new table (the lobby follows)."""

    def __init__(self, ctx: Any, open_table: Callable[[Any], Any], **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.open_table = open_table
        root = BoxLayout(orientation="vertical", padding=10, spacing=6)
        paint(root)
        self.add_widget(root)
        root.add_widget(Text(tr("Ninety Nine with phones"), font_size=sp(26), bold=True, size_hint_y=None,
                             height=36))
        body = BoxLayout(spacing=12)
        root.add_widget(body)
        options = BoxLayout(orientation="vertical", spacing=4, size_hint_x=None, width=470)
        body.add_widget(options)

        def row(label: str, widget: Any) -> None:
            line = BoxLayout(size_hint_y=None, height=ROW, spacing=8)
            line.add_widget(Text(label, size_hint_x=None, width=LABEL_WIDTH))
            line.add_widget(widget)
            options.add_widget(line)

        self.variant = Choice([(v.value, variant_name(v.value)) for v in Variant], Variant.QUENTIN_C.value)
        row(tr("Rules"), self.variant)
        self.tokens = Stepper(9, *TOKENS_RANGE)
        row(tr("Tokens"), self.tokens)
        self.hand_size = Stepper(3, *HAND_SIZE_RANGE)
        row(tr("Cards"), self.hand_size)
        self.draw = Choice([("auto", tr("Automatic draw")), ("manual", tr("Manual draw"))], "auto")
        row(tr("Drawing cards"), self.draw)
        self.turn_time = Choice([(str(s), turn_time_name(s)) for s in TURN_TIMES], "None")
        row(tr("Turn time"), self.turn_time)
        options.add_widget(BoxLayout())

        seats = BoxLayout(orientation="vertical", spacing=4)
        body.add_widget(seats)
        count_line = BoxLayout(size_hint_y=None, height=ROW, spacing=8)
        count_line.add_widget(Text(tr("Seats"), size_hint_x=None, width=80))
        self.seat_count = Stepper(len(DEFAULT_SEATS), MIN_PLAYERS, MAX_PLAYERS)
        for button in (self.seat_count.minus, self.seat_count.plus):
            button.bind(on_release=lambda *_: self._show_seats())
        count_line.add_widget(self.seat_count)
        seats.add_widget(count_line)
        self.seat_grid = GridLayout(cols=2, spacing=4, size_hint_y=None, row_default_height=ROW,
                                    row_force_default=True)
        self.seat_grid.bind(minimum_height=self.seat_grid.setter("height"))
        seats.add_widget(self.seat_grid)
        seats.add_widget(BoxLayout())
        kinds = [(k, seat_kind_name(k)) for k in (PERSON, *reversed(COMPUTER_LEVELS))]
        self.seat_buttons = [
            CycleButton(kinds, DEFAULT_SEATS[i] if i < len(DEFAULT_SEATS) else "hard",
                        label=lambda text, n=i + 1: tr("{n}: {kind}", n=n, kind=text),
                        height=ROW, font_size=sp(17))
            for i in range(MAX_PLAYERS)]

        # one line: the web display's absence (what to do), or a refused option
        self.message = WrapLabel("", font_size=sp(theme.READABLE), color=theme.PROBLEM_TEXT,
                                 valign="middle")
        root.add_widget(self.message)
        buttons = BoxLayout(size_hint_y=None, height=56, spacing=8)
        buttons.add_widget(Button(tr("Back"), on_press=lambda: self.ctx.go("home"), height=56))
        self.open_button = Button(tr("Open the table"), on_press=self.open, height=56,
                                  background_color=ACCENT)
        buttons.add_widget(self.open_button)
        root.add_widget(buttons)
        self._show_seats()

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """The web display may have failed since: say so, and nothing can be opened."""
        missing = web_missing(self.ctx)
        self.message.text = missing
        self.open_button.disabled = bool(missing)

    def _show_seats(self) -> None:
        self.seat_grid.clear_widgets()
        for button in self.seat_buttons[: self.seat_count.value]:
            self.seat_grid.add_widget(button)

    def options(self) -> PhoneOptions:
        turn = self.turn_time.value
        return PhoneOptions(
            variant=Variant(self.variant.value),
            seats=tuple(b.value for b in self.seat_buttons[: self.seat_count.value]),
            hand_size=self.hand_size.value, tokens=self.tokens.value, manual_draw=self.draw.value == "manual",
            turn_seconds=None if turn == "None" else int(turn))

    def problem_with(self, options: PhoneOptions) -> str:
        """The options' problem in the reader's language (the games layer's own lines are English)."""
        if PERSON not in options.seats:
            return tr("At least one seat must be a person's (on a phone).")
        deck = len(CARD_NAMES[options.variant]) * COPIES
        try:
            options.check()
        except PhoneError as exc:
            if "deck" in str(exc):
                return tr("{players} players with {cards} cards each need more than the {deck}-card deck.",
                          players=len(options.seats), cards=options.hand_size, deck=deck)
            return refusal_text(exc)
        return ""

    def open(self) -> None:
        phones = registry(self.ctx)
        if phones is None:
            self.refresh()
            return
        options = self.options()
        problem = self.problem_with(options)
        if problem:
            self.message.text = problem
            return
        self.message.text = ""
        # Creating a table takes only the registry's own short lock (nothing is stored before Start).
        table = phones.create(options, computer_name=lambda n: tr("Computer {n}", n=n))
        self.open_table(table)
