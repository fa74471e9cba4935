"""The count keeper for a real deck: tap the card just played, the app does the rest.

The count fills the left half; the right half holds one button per card of the variant, the
choice for an Ace or 10 when it is the player's, Undo for a mistapped card, and the penalties the
app cannot see for itself (no cards; RS Games' "no safe card"). Every announcement is also spoken.
"""

from __future__ import annotations

import json
from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from app.games.count99.game import KeptGame, announcement
from app.games.count99.texts import card_label, card_name, describe
from app.i18n import tr
from app.paths import data_dir
from app.ui.count99.status import StatusPanel
from app.ui.count99.widgets import CHOICE, WARNING, Tap, Text, paint
from rules.count99.cards import CARD_NAMES, Variant, choices_for
from rules.count99.errors import Count99Error

NAME = "count99-table"


class KeeperScreen(Screen):
    def __init__(self, ctx: Any, **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.game: KeptGame | None = None
        self.pending: str | None = None  # a card waiting for its Ace/10 choice
        root = BoxLayout(padding=8, spacing=8)
        paint(root)
        self.add_widget(root)
        self.status = StatusPanel(size_hint_x=0.42)
        root.add_widget(self.status)
        right = BoxLayout(orientation="vertical", spacing=6)
        root.add_widget(right)
        # As tall as its text (landing on 33 with eight players names seven losers); the cards shrink.
        self.message = Label(text="", font_size=sp(17), size_hint_y=None, height=58, halign="left",
                             valign="middle")
        self.message.bind(
            width=lambda label, width: setattr(label, "text_size", (width, None)),
            texture_size=lambda label, size: setattr(label, "height", max(58, size[1])),
        )
        right.add_widget(self.message)
        self.cards = GridLayout(cols=5, spacing=5)
        right.add_widget(self.cards)
        self.choice_bar = BoxLayout(size_hint_y=None, height=60, spacing=6)
        right.add_widget(self.choice_bar)
        actions = BoxLayout(size_hint_y=None, height=60, spacing=6)
        self.undo_button = Tap(tr("Undo"), self.undo)
        self.no_cards_button = Tap(tr("No cards"), self.no_cards, background_color=WARNING)
        self.no_safe_button = Tap(tr("No safe card"), self.no_safe_card, background_color=WARNING)
        self.export_button = Tap(tr("Export"), self.export)
        self.menu_button = Tap(tr("Menu"), self.leave)
        self.actions = actions
        right.add_widget(actions)

    def open(self, game: KeptGame) -> None:
        self.game = game
        self.pending = None
        self.cards.clear_widgets()
        for card in CARD_NAMES[game.setup.variant]:
            self.cards.add_widget(Tap(card_label(card), lambda c=card: self.tap_card(c), font_size=sp(26)))
        self.actions.clear_widgets()
        buttons = [self.undo_button, self.no_cards_button]
        if game.setup.variant is Variant.RS_GAMES:  # only RS Games has the "no safe card" loss
            buttons.append(self.no_safe_button)
        for button in (*buttons, self.export_button, self.menu_button):
            self.actions.add_widget(button)
        self.message.text = ""
        self.refresh()
        self.message.text = self.next_step()

    def next_step(self) -> str:
        """The one next thing to do, for a table that has not used the keeper before."""
        assert self.game is not None
        table = self.game.table
        if table.over or table.turn is None:
            return ""
        # Two sentences on two lines: wrapped as one, German left a lone "an." on the second line.
        return tr("{name} plays a card and says the new count.\nTap that card here.",
                  name=table.setup.players[table.turn])

    def refresh(self) -> None:
        assert self.game is not None
        table = self.game.table
        self.status.show(table)
        self.undo_button.disabled = not self.game.can_undo()
        over = table.over
        for widget in (*self.cards.children, self.no_cards_button):
            widget.disabled = over
        if table.variant is Variant.RS_GAMES:
            self.no_safe_button.disabled = over
        self.choice_bar.clear_widgets()
        if self.pending is not None:
            self.choice_bar.add_widget(Text(tr("{card} counts:", card=card_name(self.pending)),
                                            halign="center"))
            for value in choices_for(table.variant, self.pending, table.count):
                self.choice_bar.add_widget(Tap(f"{value:+d}", lambda v=value: self.choose(v),
                                               background_color=CHOICE, font_size=sp(26)))
            self.choice_bar.add_widget(Tap(tr("Cancel"), self.cancel_choice))

    def leave(self) -> None:
        """Back home; a game in which no card was tapped is removed, not kept as unfinished."""
        game = self.game
        if game is not None and not game.can_undo() and not game.table.over:
            self.ctx.store.delete_game(game.game_id)
            self.game = None
        self.ctx.go("home")

    # -- taps -----------------------------------------------------------------------------------
    def tap_card(self, card: str) -> None:
        assert self.game is not None
        self.pending = None  # another card tapped while an Ace or 10 waited: that question is dropped
        if len(choices_for(self.game.table.variant, card, self.game.table.count)) > 1:
            self.pending = card
            self.message.text = tr("Which way does the {card} count?", card=card_name(card))
            self.refresh()
            return
        self._act(lambda game: game.play(card))

    def choose(self, value: int) -> None:
        card, self.pending = self.pending, None
        if card is not None:
            self._act(lambda game: game.play(card, value))

    def cancel_choice(self) -> None:
        self.pending = None
        self.message.text = ""
        self.refresh()

    def no_cards(self) -> None:
        self._act(lambda game: game.no_cards())

    def no_safe_card(self) -> None:
        self._act(lambda game: game.no_safe_card())

    def undo(self) -> None:
        assert self.game is not None
        removed = self.game.undo()
        self.pending = None
        if removed is not None:
            text = tr("Taken back.")
            self.message.text = text
            self.ctx.announcer.say(text)
        self.refresh()

    def export(self) -> None:
        assert self.game is not None
        folder = data_dir() / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"count99-{self.game.game_id}.json"
        path.write_text(json.dumps(self.game.record(), ensure_ascii=False, indent=1), encoding="utf-8")
        self.message.text = (tr("Exported {game} as {file}", game=tr("Ninety Nine (count)"), file=path.name)
                             + "\n" + tr("Folder: {path}", path=str(folder)))

    def _act(self, action: Any) -> None:
        assert self.game is not None
        try:
            events = action(self.game)
        except Count99Error as exc:
            self.message.text = tr("Not allowed: {reason}", reason=str(exc))
            self.refresh()
            return
        setup = self.game.setup
        lines = [describe(e, setup) for e in events]
        self.message.text = " ".join(line for line in lines if line)
        said = announcement(events, setup)
        if said:
            self.ctx.announcer.say(said)
        self.refresh()
