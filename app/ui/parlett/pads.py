"""The Parlett deal screen's pads: a bid by suit symbols or a number, the turned-up card, and the
formal announcements (declare or reveal premiums). Each is a modal view that hands its answer back
to :class:`~app.ui.parlett.deal_screen.DealScreen`, which checks it against the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from app.i18n import tr
from app.ui.parlett.common import (
    PANEL,
    SUIT_SYMBOL,
    button,
    highlight,
    label,
    paint,
    suit_colour,
)
from rules.parlett.bids import UNSHOWN_JSON, Bid
from rules.parlett.premiums import Announcements, Premium
from rules.parlett.variants import DUMMY

if TYPE_CHECKING:
    from app.ui.parlett.deal_screen import DealScreen


def coloured_symbol(letter: str) -> str:
    """A suit symbol in Kivy markup, hearts and diamonds in a light red: ffb8b8 is 4.8:1 on the grey
    bid buttons and 7.3:1 on the table green (ff6060 was 2.65:1 on the buttons); the symbol's shape
    is the first cue, the colour the second."""
    symbol = SUIT_SYMBOL[letter]
    return f"[color=ffb8b8]{symbol}[/color]" if letter in "HD" else symbol


def hand_name(hand: str) -> str:
    return tr("Dummy") if hand == DUMMY else hand


def bid_text(raw: str | int | None, bid: Bid | None) -> str:
    if raw is None or bid is None:
        return "—"
    if not bid.shown:
        return tr("not shown")
    if isinstance(raw, str):
        return "".join(coloured_symbol(c) for c in bid.cards or raw) + f" = {bid.label()}"
    return bid.label()


class BidPad(ModalView):
    """Three taps on suit symbols, or one tap on a number; or "Not shown" for a player who failed
    and keeps the bid cards face down (the seed: "no-one who fails need show them")."""

    def __init__(self, screen: DealScreen, hand: str, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.95, 0.95), auto_dismiss=False, **kwargs)
        self.screen, self.hand, self.letters = screen, hand, ""
        variant = screen.ui.session_table().variant
        portrait = screen.height > screen.width  # a phone: the four suit keys are 75 px wide
        box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        paint(box, PANEL)
        box.add_widget(label(tr("{name}'s bid", name=hand_name(hand)), font=24, size_hint_y=None, height=36))
        self.shown = label("", font=30, symbols=True, size_hint_y=None, height=44)
        box.add_widget(self.shown)
        suits = BoxLayout(spacing=8, size_hint_y=None, height=64)
        for letter in "CHSD":
            b = button(f"{SUIT_SYMBOL[letter]}  {'3210'['CHSD'.index(letter)]}",
                       lambda letter=letter: self.tap_suit(letter), font=26 if portrait else 34, symbols=True,
                       color=suit_colour(letter))
            b.suit_letter = letter
            suits.add_widget(b)
        box.add_widget(suits)
        rows = -(-(variant.max_bid + 1) // 6)
        numbers = GridLayout(cols=6, spacing=6, size_hint_y=None, height=rows * 52 + (rows - 1) * 6)
        for n in range(variant.max_bid + 1):
            nb = button(str(n), lambda n=n: self.choose(n), font=24)
            numbers.add_widget(nb)
        box.add_widget(numbers)
        row = BoxLayout(spacing=8, size_hint_y=None, height=52)
        # the premium holder's cards are face up and the dummy's are always turned up: their bid is known
        # (an offer that was overcalled never turned anything up, so that player may keep it hidden)
        self.unshown = button(tr("Not shown (failed)"), lambda: self.choose(UNSHOWN_JSON), font=20,
                              disabled=hand == DUMMY or hand in screen.premiums())
        self.unshown.role = "bid-unshown"
        if screen.height > screen.width:  # a portrait phone: a row of its own, its words on one line
            alone = BoxLayout(size_hint_y=None, height=52)
            alone.add_widget(self.unshown)
            box.add_widget(alone)
        else:
            row.add_widget(self.unshown)
        row.add_widget(button(tr("Clear"), self.clear))
        row.add_widget(button(tr("Cancel"), self.dismiss))
        box.add_widget(row)
        note = label(tr("Not shown: a player who failed may keep the bid cards face down. "
                        "Whoever made it shows them."), font=17, wrap=True, size_hint_y=None, height=52)
        note.bind(texture_size=lambda w, t: setattr(w, "height", max(52, t[1] + 4)))  # 3-4 lines on a phone
        box.add_widget(note)
        box.add_widget(Widget())  # takes the spare height below, keeping the pad at the top
        self.add_widget(box)
        self._show()

    def _show(self) -> None:
        self.shown.text = "".join(SUIT_SYMBOL[c] for c in self.letters) + " …" * (3 - len(self.letters))

    def tap_suit(self, letter: str) -> None:
        self.letters += letter
        self._show()
        if len(self.letters) == 3:
            self.choose(self.letters)

    def clear(self) -> None:
        self.letters = ""
        self._show()

    def choose(self, raw: str | int) -> None:
        self.screen.set_bid(self.hand, raw)
        self.dismiss()


class TurnUpPad(ModalView):
    """Original 99: the card turned up for trumps (rank and suit, or the joker)."""

    def __init__(self, screen: DealScreen, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.95, 0.9), auto_dismiss=False, **kwargs)
        self.screen, self.rank = screen, ""
        box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        paint(box, PANEL)
        box.add_widget(label(tr("Turned-up card: tap the rank, then the suit"), font=22, size_hint_y=None,
                             height=36))
        ranks = GridLayout(cols=5, spacing=6, size_hint_y=None, height=2 * 52 + 6)
        self.rank_buttons = {}
        for rank in ("6", "7", "8", "9", "T", "J", "Q", "K", "A"):
            self.rank_buttons[rank] = button("10" if rank == "T" else rank, lambda r=rank: self.pick_rank(r),
                                             font=22)
            ranks.add_widget(self.rank_buttons[rank])
        ranks.add_widget(button(tr("Joker"), lambda: self.done("X"), font=20))
        box.add_widget(ranks)
        suits = BoxLayout(spacing=8, size_hint_y=None, height=64)
        for letter in "CHSD":
            suits.add_widget(button(SUIT_SYMBOL[letter], lambda s=letter: self.done(self.rank + s if self.rank
                                                                                    else ""),
                                    font=34, symbols=True, color=suit_colour(letter)))
        box.add_widget(suits)
        box.add_widget(button(tr("Cancel"), self.dismiss, size_hint_y=None, height=52))
        box.add_widget(Widget())
        self.add_widget(box)

    def pick_rank(self, rank: str) -> None:
        self.rank = rank
        for name, b in self.rank_buttons.items():
            highlight(b, name == rank)

    def done(self, card: str) -> None:
        if card:
            self.screen.set_turn_up(card)
            self.dismiss()


class FormalAnnouncements(ModalView):
    """Parlett's formal procedure: each player in turn from the dealer's left passes, declares or
    reveals; an overcalled declarer is asked whether to raise to a revelation."""

    def __init__(self, screen: DealScreen, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.8, 0.6), auto_dismiss=False, **kwargs)
        table = screen.ui.session_table()
        self.screen = screen
        self.procedure = Announcements(table.players, screen.dealer(), table.variant)
        box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        paint(box, PANEL)
        self.question = label("", font=24, wrap=True)
        box.add_widget(self.question)
        row = BoxLayout(spacing=8)
        self.choices = {}
        for key, text, offer in (("pass", tr("Pass"), None), ("declare", tr("Declare"), Premium.DECLARE),
                                 ("reveal", tr("Reveal"), Premium.REVEAL)):
            b = button(text, lambda offer=offer: self.answer(offer), font=22)
            b.role = f"formal-{key}"
            self.choices[key] = b
            row.add_widget(b)
        box.add_widget(row)
        self.add_widget(box)
        self._ask()

    def _ask(self) -> None:
        who = self.procedure.waiting_for
        if who is None:
            self.screen.offers = dict(self.procedure.result)
            self.screen.rebuild()
            self.dismiss()
            return
        raising = self.procedure.holder is not None and self.procedure.kind is Premium.REVEAL
        self.question.text = (tr("{name}: raise to reveal?", name=who) if raising
                              else tr("{name}: declare or reveal?", name=who))
        self.choices["declare"].disabled = raising or self.procedure.holder is not None

    def answer(self, offer: Premium | None) -> None:
        who = self.procedure.waiting_for
        assert who is not None
        self.procedure.call(who, offer)
        self._ask()
