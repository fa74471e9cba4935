"""The winner's screen when the rubber is over: winners, final totals, every game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from app.games.parlett.texts import dummy_bonus_text
from app.i18n import tr
from app.ui.parlett.common import ACCENT, PLAYER_COLOURS, button, label, paint
from app.ui.parlett.pads import hand_name
from rules.parlett.match import GameResult

if TYPE_CHECKING:
    from app.ui.parlett import ParlettUI


def settle_text(player: str, points: int) -> str:
    if points > 0:
        return tr("{name} wins {points}", name=player, points=points)
    if points < 0:
        return tr("{name} owes {points}", name=player, points=-points)
    return tr("{name} is square", name=player)


class WinnerScreen(Screen):
    def __init__(self, ui: ParlettUI, **kwargs: Any) -> None:
        super().__init__(name="parlett-winner", **kwargs)
        self.ui = ui
        self.root_box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        paint(self.root_box)
        self.add_widget(self.root_box)

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        sheet = self.ui.session.sheet
        box = self.root_box
        box.clear_widgets()
        winners = " & ".join(sheet.winners)
        if sheet.table.options.nine_rounds:  # the German text's game: no rubber
            text = tr("{names} wins the game!", names=winners) if len(sheet.winners) == 1 else tr(
                "{names} share the game!", names=winners)
        else:
            text = tr("{names} wins the rubber!", names=winners) if len(sheet.winners) == 1 else tr(
                "{names} share the rubber!", names=winners)
        self.headline = label(text, font=40, bold=True, color=ACCENT, wrap=True)
        box.add_widget(self.headline)
        if sheet.margin:  # "...who has then won, and by how much" (the seed on Original 99)
            box.add_widget(label(tr("by {points} points", points=sheet.margin), font=24, color=ACCENT,
                                 size_hint_y=None, height=34))
        totals = sheet.rubber_totals
        ranking = sorted(sheet.table.hands, key=lambda h: -totals[h])
        # one line each for up to three hands; four or five share rows so the settlement still fits
        portrait = self.height > self.width  # a phone is tall enough for a line each
        ranks = GridLayout(cols=1 if len(ranking) <= 3 or portrait else 3)
        for hand in ranking:
            index = sheet.table.hands.index(hand)
            ranks.add_widget(label(f"{hand_name(hand)}   {totals[hand]}",
                                   font=30 if len(ranking) <= 3 else 26,
                                   color=PLAYER_COLOURS[index % len(PLAYER_COLOURS)]))
        box.add_widget(ranks)
        if sheet.games and not sheet.table.options.nine_rounds:
            games = "   ".join(self.game_line(g) for g in sheet.games)
            box.add_widget(label(games, font=18, wrap=True))
        standings = sheet.standings
        if standings != totals:  # two for hard score: a game the dummy won is a tie (the seed)
            counted = ", ".join(f"{hand_name(p)} {standings[p]}" for p in sheet.table.players)
            box.add_widget(label(tr("Counted for hard score (a game the dummy won is a tie): {list}",
                                    list=counted), font=18, wrap=True))
        settlement = sheet.settlement
        if settlement is not None:  # hard score: who wins or owes what, in points
            self.settlement = label(tr("Hard score: {list}", list=", ".join(
                settle_text(p, v) for p, v in sorted(settlement.items(), key=lambda pv: -pv[1]))),
                font=22, color=ACCENT, wrap=True, size_hint_y=None)
            self.settlement.bind(texture_size=lambda w, t: setattr(w, "height", t[1] + 8))
            self.settlement.role = "settlement"
            box.add_widget(self.settlement)
        row = BoxLayout(size_hint_y=None, height=64, spacing=8)
        row.add_widget(button(tr("Chart"), lambda: self.ui.go("parlett-chart")))
        row.add_widget(button(tr("Deals"), self.ui.show_totals))
        row.add_widget(button(tr("Menu"), self.ui.go_home))
        box.add_widget(row)

    @staticmethod
    def game_line(game: GameResult) -> str:
        """A game as "Game 1: Ann", with what the two-player dummy rule paid, or the dummy's tie."""
        names = " & ".join(game.winners) or tr("tie (dummy)")
        return " ".join([tr("Game {n}: {names}", n=game.number, names=names), dummy_bonus_text(game)]).strip()
