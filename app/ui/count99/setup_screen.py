"""Setting up a game of Ninety Nine: at the table (real cards) or against the computer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput

from app.games.count99.texts import variant_name
from app.i18n import tr
from app.ui.count99.widgets import ACCENT, WARNING, Options, Stepper, Tap, Text, paint
from rules.count99.cards import CARD_NAMES, COPIES, Variant
from rules.count99.errors import Count99Error
from rules.count99.table import HAND_SIZE_RANGE, MAX_PLAYERS, TOKENS_RANGE, Setup

NAME = "count99-setup"
ROW = 54


class SetupScreen(Screen):
    """Everything the seed lets the host choose, with the seed's defaults (9 tokens, 3 cards)."""

    def __init__(self, ctx: Any, start_table: Callable[[Setup], Any],
                 start_computer: Callable[[Setup, str, bool], Any], **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.start_table = start_table
        self.start_computer = start_computer
        root = BoxLayout(orientation="vertical", padding=10, spacing=6)
        paint(root)
        self.add_widget(root)
        root.add_widget(Label(text=tr("Ninety Nine"), font_size=sp(26), bold=True, size_hint_y=None,
                              height=40))

        def row(label: str, widget: Any) -> None:
            line = BoxLayout(size_hint_y=None, height=ROW, spacing=8)
            line.add_widget(Text(label, size_hint_x=None, width=170))
            line.add_widget(widget)
            root.add_widget(line)

        self.mode = Options([("table", tr("At the table")), ("computer", tr("Against the computer"))],
                            "table", "count99-mode", on_change=lambda _: self._show_mode())
        row(tr("Game"), self.mode)
        self.variant = Options([(v.value, variant_name(v.value)) for v in Variant], Variant.QUENTIN_C.value,
                               "count99-variant")
        row(tr("Rules"), self.variant)
        self.players_line = BoxLayout(size_hint_y=None, height=ROW, spacing=8)
        self.players_label = Text("", size_hint_x=None, width=170)
        self.names = TextInput(text=tr("Ann, Ben, Cat"), multiline=False, font_size=sp(20))
        self.opponents = Stepper(2, 1, MAX_PLAYERS - 1)
        self.players_line.add_widget(self.players_label)
        root.add_widget(self.players_line)
        numbers = BoxLayout(spacing=8)
        numbers.add_widget(Text(tr("Tokens"), size_hint_x=None, width=90))
        self.tokens = Stepper(9, *TOKENS_RANGE)
        numbers.add_widget(self.tokens)
        numbers.add_widget(Text(tr("Cards"), size_hint_x=None, width=80))
        self.hand_size = Stepper(3, *HAND_SIZE_RANGE)
        numbers.add_widget(self.hand_size)
        row(tr("Each player"), numbers)
        # Against the computer: the level sits beside the number of computer players it applies to.
        self.level_row = BoxLayout(spacing=8)
        self.level = Options([("easy", tr("Easy")), ("hard", tr("Hard"))], "hard", "count99-level")
        self.level_row.add_widget(Text(tr("Computer level"), size_hint_x=None, width=150, halign="right"))
        self.level_row.add_widget(self.level)
        self.computer_row = BoxLayout(size_hint_y=None, height=ROW, spacing=8)
        self.draw = Options([("auto", tr("Automatic draw")), ("manual", tr("Manual draw"))], "auto",
                            "count99-draw")
        self.computer_row.add_widget(Text(tr("Drawing cards"), size_hint_x=None, width=170))
        self.computer_row.add_widget(self.draw)
        root.add_widget(self.computer_row)
        self.problem = Text("", color=(1, 0.6, 0.4, 1), size_hint_y=None, height=30)
        root.add_widget(self.problem)
        buttons = BoxLayout(size_hint_y=None, height=ROW + 6, spacing=8)
        buttons.add_widget(Tap(tr("Back"), lambda: self.ctx.go("home")))
        buttons.add_widget(Tap(tr("Start"), self.start, background_color=ACCENT))
        root.add_widget(buttons)
        self._show_mode()

    def _show_mode(self) -> None:
        computer = self.mode.value == "computer"
        self.players_line.clear_widgets()
        self.players_line.add_widget(self.players_label)
        self.players_label.text = tr("Computer players") if computer else tr("Players (in seat order)")
        if computer:
            self.opponents.size_hint_x, self.opponents.width = None, 200
            self.players_line.add_widget(self.opponents)
            self.players_line.add_widget(self.level_row)
        else:
            self.players_line.add_widget(self.names)
        self.computer_row.opacity = 1 if computer else 0
        self.computer_row.disabled = not computer

    def problem_with(self, variant: Variant, players: tuple[str, ...]) -> str:
        """The setup's problem in the reader's language (the rules' own errors are English)."""
        if len(players) < 2:
            return tr("At least two players, please, separated by commas.")
        if len(players) > MAX_PLAYERS:
            return tr("At most {n} players.", n=MAX_PLAYERS)
        if len(set(players)) != len(players):
            return tr("Every player needs a different name.")
        deck = len(CARD_NAMES[variant]) * COPIES
        if self.mode.value == "computer" and len(players) * self.hand_size.value > deck:
            return tr("{players} players with {cards} cards each need more than the {deck}-card deck.",
                      players=len(players), cards=self.hand_size.value, deck=deck)
        return ""

    def start(self) -> None:
        variant = Variant(self.variant.value)
        if self.mode.value == "computer":
            players = (tr("You"), *(tr("Computer {n}", n=n) for n in range(1, self.opponents.value + 1)))
        else:
            players = tuple(name.strip() for name in self.names.text.split(",") if name.strip())
        problem = self.problem_with(variant, players)
        if problem:
            self.problem.text = problem
            self.problem.color = WARNING
            return
        try:
            setup = Setup(variant, players, tokens=self.tokens.value, hand_size=self.hand_size.value)
            if self.mode.value == "computer":
                self.start_computer(setup, self.level.value, self.draw.value == "manual")
            else:
                self.start_table(setup)
        except Count99Error as exc:
            self.problem.text = str(exc)
            self.problem.color = WARNING
            return
        self.problem.text = ""
