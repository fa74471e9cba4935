"""Running totals big enough to read across a card table, the last deal's result, every deal
for corrections, and the game and rubber progress."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from app.games.parlett.texts import dummy_bonus_text, trump_name
from app.i18n import tr
from app.ui.parlett.common import (
    ACCENT,
    GOOD,
    PANEL,
    PLAYER_COLOURS,
    button,
    label,
    paint,
    trump_symbol,
)
from app.ui.parlett.pads import hand_name

if TYPE_CHECKING:
    from app.ui.parlett import ParlettUI


class TotalsScreen(Screen):
    showcase = False  # True in the exhibit's attract loop: shown, never touched (no buttons, no "tap")

    def __init__(self, ui: ParlettUI, **kwargs: Any) -> None:
        super().__init__(name="parlett-totals", **kwargs)
        self.ui = ui
        self.root_box = BoxLayout(orientation="vertical", padding=6, spacing=6)
        paint(self.root_box)
        self.add_widget(self.root_box)
        self.message = ""
        self.bind(size=lambda *_: self.refresh())

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        session = self.ui.session
        if session is None:
            return
        sheet = session.sheet
        table = sheet.table
        portrait = self.height > self.width
        box = self.root_box
        box.clear_widgets()
        box.add_widget(label(self.ui.progress_text(), font=20, size_hint_y=None, height=34))

        # portrait: one row per hand, each tall enough for its big number (five hands fit 600 px)
        row = 56 if len(table.hands) <= 4 else 50
        totals = GridLayout(cols=1 if portrait else len(table.hands), spacing=6, size_hint_y=None,
                            height=len(table.hands) * (row + 6) - 6 if portrait else 180)
        game = sheet.game_totals
        rubber = sheet.rubber_totals
        for index, hand in enumerate(table.hands):
            cell = BoxLayout(orientation="horizontal" if portrait else "vertical", padding=4)
            paint(cell, PANEL)
            colour = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
            cell.add_widget(label(hand_name(hand), font=20 if portrait else 24, color=colour, bold=True,
                                  shorten=True, size_hint_x=1.4 if portrait else 1))
            # the big number is the standing: the rubber total (the current game's score below it)
            big = label(str(rubber[hand]), font=56 if not portrait else 34, bold=True)
            if not portrait:  # a 56 sp number needs its own 70 px; the lines below share the rest
                big.size_hint_y, big.height = None, 70
            big.hand, big.role = hand, "total"
            cell.add_widget(big)
            if sheet.uses_games and sheet.table.rubber_games > 1:
                in_game = label(tr("this game {points}", points=game[hand]), font=16 if portrait else 18,
                                size_hint_x=1.2 if portrait else 1)
                in_game.hand, in_game.role = hand, "game"
                cell.add_widget(in_game)
            if sheet.deals:
                last = sheet.deals[-1].score
                grey = (0.8, 0.8, 0.8, 1)
                mark = label(f"✓ {last.total[hand]:+d}" if last.made[hand] else f"{last.total[hand]:+d}",
                             font=18 if portrait else 20, color=GOOD if last.made[hand] else grey,
                             symbols=True)
                mark.hand, mark.role = hand, "last"
                cell.add_widget(mark)
            totals.add_widget(cell)
        box.add_widget(totals)

        if sheet.deals:
            last = sheet.deals[-1]
            made = [hand_name(h) for h, ok in last.score.made.items() if ok]
            text = tr("Deal {n}: made it: {names}", n=last.number, names=", ".join(made) or tr("nobody"))
            box.add_widget(label(text, font=18, color=GOOD, size_hint_y=None, height=30, shorten=True))
        if sheet.games and sheet.current_game_deals == ():
            g = sheet.games[-1]
            if g.winners:
                text = tr("Game {n} won by {names}", n=g.number, names=" & ".join(g.winners))
            else:  # two players: the dummy came first
                text = tr("Game {n}: the dummy won, a tie between {a} and {b}", n=g.number,
                          a=table.players[0], b=table.players[1])
            if g.dummy_bonus is not None:
                text += " · " + dummy_bonus_text(g)
            box.add_widget(label(text, font=22, color=ACCENT, size_hint_y=None, height=34, shorten=True))

        deals = GridLayout(cols=1, spacing=2, size_hint_y=None)
        self.deal_rows = deals
        deals.bind(minimum_height=deals.setter("height"))
        for d in reversed(sheet.deals):
            scores = "  ".join(f"{hand_name(h)} {v:+d}" for h, v in d.score.total.items())
            entry = button(f"{d.number}. {d.dealer} · {trump_symbol(d.trump)}  {scores}",
                           lambda i=d.number - 1: self.ui.correct(i), font=16, symbols=True,
                           size_hint_y=None, height=48)
            # five players' scores wrap onto more lines on a narrow screen: the row grows to hold them
            entry.bind(texture_size=lambda w, t: setattr(w, "height", max(48, t[1] + 10)))
            entry.role, entry.deal_index = "deal", d.number - 1
            deals.add_widget(entry)
        if sheet.deals:
            head = BoxLayout(size_hint_y=None, height=28, spacing=6)
            heading = tr("Every deal ({n})" if self.showcase else "Every deal ({n}): tap one to correct it",
                         n=len(sheet.deals))
            head.add_widget(label(heading, font=18, halign="left", shorten=True))
            # a second cue that the list goes on below the screen's edge (shown only when it does)
            self.scroll_hint = label("", font=18, color=ACCENT, symbols=True, size_hint_x=0.6, shorten=True)
            self.scroll_hint.role = "scroll-hint"
            head.add_widget(self.scroll_hint)
            box.add_widget(head)
        # the bar stays visible (not only while scrolling): the list is seen to scroll
        scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"],
                            bar_color=ACCENT, bar_inactive_color=(0.85, 0.65, 0.15, 0.7))
        scroll.add_widget(deals)
        box.add_widget(scroll)
        self.deal_scroll = scroll
        if sheet.deals:
            for what in (deals, scroll):
                what.bind(height=lambda *_: self._scroll_hint())
            scroll.bind(scroll_y=lambda *_: self._scroll_hint())
        if self.message:
            box.add_widget(label(self.message, font=15, size_hint_y=None, height=26, shorten=True))

        bottom = GridLayout(cols=2 if portrait else 4, size_hint_y=None, height=124 if portrait else 64,
                            spacing=4)
        bottom.add_widget(button(tr("Menu"), self.ui.go_home))
        bottom.add_widget(button(tr("Chart"), lambda: self.ui.go("parlett-chart")))
        bottom.add_widget(button(tr("Export"), self.export))
        if sheet.over:
            bottom.add_widget(button(tr("Result"), lambda: self.ui.go("parlett-winner"),
                                     accent=True))
        else:
            trump = sheet.next_trump
            text = tr("Next deal: {dealer}, {trump}", dealer=sheet.next_dealer, trump=trump_name(trump))
            nxt = button(text, self.ui.next_deal, accent=True, font=17)
            nxt.role = "next"
            bottom.add_widget(nxt)
        if not self.showcase:
            box.add_widget(bottom)

    def _scroll_hint(self) -> None:
        """"▼ more below" while deals are hidden below the list's edge, "▲ more above" at the end."""
        scroll, rows = self.deal_scroll, self.deal_rows
        if rows.height <= scroll.height + 1 or self.showcase:  # the loop's demo is never scrolled
            self.scroll_hint.text = ""
        elif scroll.scroll_y > 0.01:
            self.scroll_hint.text = "▼ " + tr("more below: scroll")
        else:
            self.scroll_hint.text = "▲ " + tr("more above: scroll")

    def export(self) -> None:
        path = self.ui.session.export()
        self.message = tr("Record saved: {path}", path=str(path))
        self.refresh()
