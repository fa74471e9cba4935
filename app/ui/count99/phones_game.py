"""Ninety Nine with phones, the game on the table's screen: the public table, large, and the host's actions.

Left: the round, the count (huge), the direction as an arrow *and* a word (colour is never the
only cue), whose turn. Right: everyone's tokens and cards in hand (how many, never which), who is
away or played by a computer, the last plays, the latest sentence as the terminal game says it.
The host may give a person's seat to a computer (with a confirm) and set the turn time; Menu goes
home while the phones play on. Once the game is over: the winner and "Back to home".

No card of any hand is on this screen: it draws only from ``table.snapshot`` (the games layer's
public state, no hands) and ``table.sentences(None, ...)`` (as the table hears them: a card drawn
is heard by its own seat only). Both are read without the table's lock on a 5 Hz Clock poll, so a
commit in the web thread never holds up a frame; the host's actions run on a worker thread.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from app.games.count99.texts import card_name, direction_name
from app.i18n import tr, trn
from app.ui import theme
from app.ui.count99.phones_link import FollowsTable, HostActions
from app.ui.count99.phones_lobby import FitText
from app.ui.count99.phones_setup import TURN_TIMES, seat_kind_name, turn_time_name
from app.ui.count99.widgets import Text, paint
from app.ui.widgets import ACCENT, WARNING, BigButton, ConfirmBox, CycleButton, WrapLabel

NAME = "count99-phones-game"
PLAYS_SHOWN = 4
ARROW_FONT = "DejaVuSans"  # Kivy's bundled fonts: Roboto has no circular arrows, DejaVu Sans has
ARROWS = {1: "\u21bb", -1: "\u21ba"}  # clockwise, counterclockwise open circle arrows


def play_text(play: dict[str, Any], names: list[str]) -> str:
    card = card_name(play["card"])
    if play.get("chosen") is not None:
        card = tr("{card} as {value}", card=card, value=f"{play['chosen']:+d}")
    return tr("{name}: {card}, count {count}", name=names[play["seat"]], card=card, count=play["count"])


def seat_line(state: dict[str, Any], turn: int | None) -> str:
    """One seat for the tokens list: a marker on whose turn it is (the words say it too)."""
    marker = "> " if state["index"] == turn else ""
    name = state["name"]
    if state.get("out"):
        return tr("{name}: out", name=f"{marker}{name}")
    tokens = trn("{n} token", "{n} tokens", state.get("tokens", 0))
    cards = trn("{n} card", "{n} cards", state.get("cards", 0))
    line = f"{marker}{name}: {tokens}, {cards}"
    if state.get("away"):
        line += " - " + tr("away (the computer plays)")
    elif state["kind"] != "person":
        line += " - " + seat_kind_name(state["kind"])
    return line


class PhonesGameScreen(FollowsTable, Screen):
    def __init__(self, ctx: Any, actions: HostActions, **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.actions = actions
        self.heard_seq = 0  # the last event whose sentence was shown
        self.latest = ""
        self.chooser: ModalView | None = None
        self._announced_winner = False
        root = BoxLayout(padding=8, spacing=10)
        paint(root)
        self.add_widget(root)
        left = BoxLayout(orientation="vertical", size_hint_x=0.4, spacing=4)
        root.add_widget(left)
        self.round_label = Text("", font_size=sp(18), halign="center", size_hint_y=None, height=28)
        self.count_label = Label(text="0", font_size=sp(120), bold=True)
        self.direction_label = Label(text="", font_size=sp(24), markup=True, size_hint_y=None, height=44,
                                     halign="center", valign="middle")
        self.direction_label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.turn_label = FitText("", font_size=sp(theme.BIG), bold=True, halign="center", size_hint_y=None,
                                  height=84)
        for widget in (self.round_label, self.count_label, self.direction_label, self.turn_label):
            left.add_widget(widget)
        right = BoxLayout(orientation="vertical", spacing=6)
        root.add_widget(right)
        self.tokens_label = FitText("", font_size=sp(22), valign="top")
        right.add_widget(self.tokens_label)
        self.plays_label = FitText("", font_size=sp(theme.READABLE), valign="top", color=theme.TEXT_MUTED,
                                   size_hint_y=None, height=104)
        right.add_widget(self.plays_label)
        self.said_label = FitText("", font_size=sp(theme.READABLE), size_hint_y=None, height=50)
        right.add_widget(self.said_label)
        self.bar = BoxLayout(size_hint_y=None, height=56, spacing=6)
        right.add_widget(self.bar)
        self.remove_button = BigButton(tr("Remove a seat"), on_press=self.choose_seat, height=56,
                                       background_color=WARNING)
        self.turn_time = CycleButton([(str(s), turn_time_name(s)) for s in TURN_TIMES], "None",
                                     label=lambda text: tr("Turn time: {time}", time=text),
                                     on_change=self.set_turn_time, height=56)
        self.menu_button = BigButton(tr("Menu"), on_press=lambda: self.ctx.go("home"), height=56)
        self.home_button = BigButton(tr("Back to home"), on_press=lambda: self.ctx.go("home"), height=56,
                                     background_color=ACCENT)

    # -- lifecycle --------------------------------------------------------------------------------
    def open(self, table: Any) -> None:
        self.heard_seq = 0
        self.latest = ""
        self._announced_winner = False
        super().open(table)

    def on_leave(self, *args: Any) -> None:
        super().on_leave(*args)
        self._close_chooser()

    # -- showing ------------------------------------------------------------------------------------
    def refresh(self) -> None:
        table = self.session
        if table is None:
            return
        snapshot = table.snapshot  # swapped in whole by the games layer: read without its lock
        self.shown_seq = snapshot.get("seq")
        said = table.sentences(None, self.heard_seq, None)  # lock-free, as the table hears them
        if said:
            self.heard_seq = said[-1][0]
            self.latest = said[-1][1]
        seats = snapshot["seats"]
        names = [s["name"] for s in seats]
        if not snapshot.get("started"):
            self.round_label.text, self.count_label.text = "", "0"
            self.direction_label.text = ""
            self.turn_label.text = tr("Waiting for the host to start the game.")
            self.tokens_label.text = "\n".join(s["name"] for s in seats)
            self.plays_label.text = self.said_label.text = ""
            self._show_bar(over=False, people=False)
            return
        count, direction, turn = snapshot["count"], snapshot["direction"], snapshot["turn"]
        self.round_label.text = tr("Round {n}", n=snapshot["round"])
        self.count_label.text = str(count)
        self.count_label.color = (1, 0.45, 0.35, 1) if count >= 90 else theme.TEXT  # the number says it too
        arrow = ARROWS[1 if direction > 0 else -1]
        self.direction_label.text = f"[font={ARROW_FONT}]{arrow}[/font] {direction_name(direction)}"
        winner = snapshot.get("winner")
        if winner is not None:
            self.turn_label.text = tr("{name} wins the game!", name=names[winner])
            self.turn_label.color = theme.GOOD_TEXT
            if not self._announced_winner:
                self._announced_winner = True
                self.ctx.announcer.say(self.turn_label.text)
        elif turn is not None:
            self.turn_label.text = tr("{name}'s turn", name=names[turn])
            self.turn_label.color = theme.TEXT
        else:
            self.turn_label.text = ""
        self.tokens_label.text = tr("Tokens") + "\n" + "\n".join(seat_line(s, turn) for s in seats)
        plays = snapshot.get("plays") or []
        self.plays_label.text = tr("Last plays") + "\n" + (
            "\n".join(play_text(p, names) for p in reversed(plays[-PLAYS_SHOWN:])) or tr("No plays yet."))
        self.said_label.text = self.note or self.latest
        self.said_label.color = theme.PROBLEM_TEXT if self.note else theme.TEXT
        turn_seconds = snapshot.get("turn_seconds")
        times = sorted({*TURN_TIMES, turn_seconds} - {None})  # the host's page offers other times too
        self.turn_time.set_options([(str(s), turn_time_name(s)) for s in (None, *times)], str(turn_seconds))
        self._show_bar(over=bool(snapshot.get("over")), people=any(s["kind"] == "person" for s in seats))

    def _show_bar(self, over: bool, people: bool) -> None:
        wanted = [self.home_button] if over else [self.remove_button, self.turn_time, self.menu_button]
        if list(reversed(self.bar.children)) != wanted:
            self.bar.clear_widgets()
            for widget in wanted:
                self.bar.add_widget(widget)
        self.remove_button.disabled = not people

    # -- the host's actions -------------------------------------------------------------------------
    def set_turn_time(self, value: str) -> None:
        table = self.session
        seconds = None if value == "None" else int(value)
        self.actions.run(lambda: table.set_turn_seconds(seconds), self.action_done)

    def choose_seat(self) -> None:
        """Which person's seat goes to a computer: one big button per person seat."""
        table = self.session
        if table is None:
            return
        people = [s for s in table.snapshot["seats"] if s["kind"] == "person"]
        view = ModalView(size_hint=(0.8, 0.9), auto_dismiss=False)
        box = BoxLayout(orientation="vertical", padding=12, spacing=8)
        box.add_widget(WrapLabel(tr("Give whose seat to a computer?"), font_size=sp(22), bold=True))
        for state in people:
            box.add_widget(BigButton(state["name"] or tr("Seat {n}", n=state["index"] + 1),
                                     on_press=lambda s=state: self.confirm_remove(s), height=56))
        box.add_widget(BoxLayout())
        box.add_widget(BigButton(tr("Cancel"), on_press=self._close_chooser, height=56))
        view.add_widget(box)
        self.chooser = view
        view.open(animation=False)

    def _close_chooser(self) -> None:
        if self.chooser is not None:
            self.chooser.dismiss(animation=False)
            self.chooser = None

    def confirm_remove(self, state: dict[str, Any]) -> None:
        self._close_chooser()
        ConfirmBox(tr("Give {name}'s seat to a computer for the rest of the game? Their phone stops playing.",
                      name=state["name"]),
                   lambda: self.remove(state["index"]), yes=tr("Give to a computer")).open(animation=False)

    def remove(self, index: int) -> None:
        table = self.session
        self.actions.run(lambda: table.remove_seat(index), self.action_done)
