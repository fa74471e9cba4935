"""The board game's pads: a card number for PLAY or DISCARD (or a card from a shown hand), and the
5of99 dead hand's cards. Each is a modal view that hands its answer to the screen that opened it
(the game screen, or the exhibit's visitor), which announces it to the referee.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from app.i18n import tr
from app.ui.widgets import (
    ACCENT,
    BIG_FONT,
    FONT,
    READABLE,
    TOUCH,
    Background,
    BigButton,
    CycleButton,
    NumberPad,
    WrapLabel,
)


def by_label(player: str) -> str:
    return tr("By: {name}", name=player)


class CardPad(ModalView):
    """Asks for a card: a number pad at a real table, the player's own cards in digital play."""

    def __init__(self, title: str, on_card: Any, on_change: Any = None, hand: tuple[int, ...] | None = None,
                 players: tuple[str, ...] = (), who: str | None = None) -> None:
        super().__init__(size_hint=(0.4, 1), pos_hint={"right": 1, "y": 0}, auto_dismiss=True,
                         overlay_color=(0, 0, 0, 0))  # keep the board (allowed squares) visible
        box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        Background.paint(box)
        box.add_widget(WrapLabel(title, font_size=FONT))
        self.who: CycleButton | None = None
        if players:  # one button that steps through the players: six names fit no row of 320 px
            self.who = CycleButton([(p, p) for p in players], who or players[0], label=by_label,
                                   font_size=READABLE)
            box.add_widget(self.who)
        self.on_card = on_card
        if hand is not None:
            cards = BoxLayout(orientation="vertical", spacing=6)
            for card in hand:
                button = BigButton(str(card), font_size=BIG_FONT, height=64)
                button.card = card
                button.bind(on_release=lambda b: self._done(b.card))
                cards.add_widget(button)
            box.add_widget(cards)
            self.pad = None
        else:
            self.pad = NumberPad(on_done=self._done, on_change=on_change, ok_text=tr("OK"))
            box.add_widget(self.pad)
        box.add_widget(BigButton(tr("Cancel"), on_press=self.close, height=TOUCH))
        self.add_widget(box)

    def close(self) -> None:
        self.dismiss(animation=False)  # gone at once: the next tap must reach the board

    def _done(self, card: int) -> None:
        self.close()
        if self.who is not None:
            self.on_card(self.who.value, card)
        else:
            self.on_card(card)


class DeadHandPad(ModalView):
    """5of99 at a real table: the player shows the whole hand; type each card, then Done."""

    def __init__(self, on_cards: Any) -> None:
        super().__init__(size_hint=(0.4, 1), pos_hint={"right": 1, "y": 0}, auto_dismiss=True,
                         overlay_color=(0, 0, 0, 0))
        self.cards: list[int] = []
        self.on_cards = on_cards
        box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        Background.paint(box)
        self.title = WrapLabel(tr("DEAD HAND: type each card, then Done."), font_size=FONT)
        box.add_widget(self.title)
        self.pad = NumberPad(on_done=self._add, ok_text=tr("Add"))
        box.add_widget(self.pad)
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=6)
        row.add_widget(BigButton(tr("Cancel"), on_press=self.close, height=TOUCH))
        row.add_widget(BigButton(tr("Done"), on_press=self._done, height=TOUCH, background_color=ACCENT))
        box.add_widget(row)
        self.add_widget(box)

    def close(self) -> None:
        self.dismiss(animation=False)

    def _add(self, card: int) -> None:
        self.cards.append(card)
        self.pad.clear()
        self.title.text = tr("DEAD HAND: {cards}", cards=", ".join(map(str, self.cards)))

    def _done(self) -> None:
        if self.cards:
            self.close()
            self.on_cards(tuple(self.cards))
