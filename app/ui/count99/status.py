"""The count, very large, with whose turn, the direction and everyone's tokens: shared by both screens."""

from __future__ import annotations

from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from app.games.count99.texts import direction_name
from app.i18n import tr
from app.ui.count99.widgets import Text
from app.ui.widgets import MIN_FONT, READABLE, text_height
from rules.count99.table import Table


class StatusPanel(BoxLayout):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        super().__init__(**kwargs)
        self.round_label = Text("", font_size=sp(18), halign="center", size_hint_y=None, height=30)
        self.count_label = Label(text="0", font_size=sp(140), bold=True)
        # up to four lines: "Du bist dran", "Richtung:", "gegen den Uhrzeigersinn" (wraps in the panel)
        self.turn_label = Text("", font_size=sp(22), halign="center", size_hint_y=None, height=104)
        self.tokens_label = Text("", font_size=sp(18), halign="center", valign="top")
        for widget in (self.round_label, self.count_label, self.turn_label, self.tokens_label):
            self.add_widget(widget)
        self.tokens_label.bind(size=self._fit_tokens)

    def show(self, table: Table, you: int | None = None) -> None:
        names = table.setup.players
        self.round_label.text = tr("Round {n}", n=table.round_no)
        self.count_label.text = str(table.count)
        self.count_label.color = (1, 0.45, 0.35, 1) if table.count >= 90 else (1, 1, 1, 1)
        if table.winner is not None:
            winner = tr("You") if table.winner == you else names[table.winner]
            self.turn_label.text = tr("{name} wins!", name=winner)
        elif table.turn is not None:
            who = tr("Your turn") if table.turn == you else tr("{name}'s turn", name=names[table.turn])
            # "Direction:" keeps the second line from reading on from the first ("Du bist dran im
            # Uhrzeigersinn")
            direction = tr("Direction: {direction}", direction=direction_name(table.direction))
            self.turn_label.text = f"{who}\n{direction}"
        entries = []
        for seat, name in enumerate(names):
            label = tr("You") if seat == you else name
            marker = "> " if seat == table.turn else ""
            left = table.tokens[seat]
            entries.append(f"{marker}{label}: {left}" if left else tr("{name}: out", name=label))
        # Up to eight players share the space under the count: from five on, two to a line, so the
        # text stays readable from a metre; only very long names make it shrink (see _fit_tokens).
        per_line = 1 if len(entries) <= 4 else 2
        lines = ["   ".join(entries[i : i + per_line]) for i in range(0, len(entries), per_line)]
        self.tokens_label.text = tr("Tokens") + "\n" + "\n".join(lines)
        self._fit_tokens()

    def _fit_tokens(self, *_: Any) -> None:
        label = self.tokens_label
        size = READABLE
        while size > MIN_FONT and text_height(label.text, size, label.width) > label.height:
            size -= 1
        label.font_size = size
