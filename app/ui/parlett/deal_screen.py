"""Entering one deal: dealer and trump big, bids by suit symbols or a number, premiums, tricks.

The tricks are checked as they are entered (the sum must be the tricks played) and the deal can
only be scored when the rules accept it; the store commits it before the totals show it. The same
screen corrects an earlier deal (``edit(index)``): later deals are re-scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from app.games.parlett.game import EntryRejected
from app.games.parlett.texts import trump_name
from app.i18n import tr
from app.ui.parlett.common import (
    ACCENT,
    GOOD,
    HEADING,
    TOUCH,
    WARNING,
    WARNING_SIGN,
    button,
    highlight,
    label,
    paint,
    suit_colour,
    trump_symbol,
)
from app.ui.parlett.pads import BidPad, FormalAnnouncements, TurnUpPad, bid_text, hand_name
from rules.parlett.bids import UNSHOWN_JSON, parse_bid
from rules.parlett.cards import parse_card
from rules.parlett.premiums import Premium, PremiumError, resolve_offers
from rules.parlett.scoring import Trump, trump_of_turn_up
from rules.parlett.variants import DUMMY

if TYPE_CHECKING:
    from app.ui.parlett import ParlettUI


class DealScreen(Screen):
    def __init__(self, ui: ParlettUI, **kwargs: Any) -> None:
        super().__init__(name="parlett-deal", **kwargs)
        self.ui = ui
        self.editing: int | None = None
        self.bids: dict[str, str | int] = {}
        self.offers: dict[str, Premium] = {}
        self.tricks: dict[str, int] = {}
        self.turn_up: str | None = None
        self.chosen_trump: Trump | None = None
        self.revealed = False  # hidden bids: shown once the players ask at the end of the deal
        self.root_box = BoxLayout(orientation="vertical", padding=6, spacing=4)
        paint(self.root_box)
        self.add_widget(self.root_box)
        self.bind(size=lambda *_: self.rebuild())

    # -- starting -------------------------------------------------------------------------------
    def new_deal(self) -> None:
        """An empty entry, or the one a crash interrupted (see ``ParlettSession.save_draft``)."""
        self.editing = None
        draft = self.ui.session.draft() or {}
        try:
            offers = {h: Premium(k) for h, k in draft.get("offers", {}).items()}
            trump = Trump(draft["trump"]) if draft.get("trump") else None
        except (ValueError, AttributeError):  # a damaged draft: start afresh rather than fail
            draft, offers, trump = {}, {}, None
        self._reset(dict(draft.get("bids", {})), offers, dict(draft.get("tricks", {})), draft.get("turn_up"),
                    trump)
        self.revealed = bool(draft.get("revealed", False))
        if draft:
            self.rebuild()

    def draft(self) -> dict[str, Any]:
        """Everything tapped in so far, offers before priority (what the screen needs to go on)."""
        return {"bids": dict(self.bids), "offers": {h: p.value for h, p in self.offers.items()},
                "tricks": dict(self.tricks), "turn_up": self.turn_up,
                "trump": self.chosen_trump.value if self.chosen_trump else None, "revealed": self.revealed}

    def _changed(self) -> None:
        """Save a new deal's entry at every tap (corrections are saved whole when confirmed)."""
        if self.editing is None:
            self.ui.session.save_draft(self.draft())
        self.rebuild()

    def edit(self, index: int) -> None:
        """Correct deal ``index`` (0-based), prefilled with what was entered."""
        deal = self.ui.session.sheet.deals[index]
        e = deal.entry
        self.editing = index
        self._reset({h: b.to_json() for h, b in e.bids.items()}, dict(e.premiums), dict(e.tricks),
                    str(e.turn_up) if e.turn_up else None, e.trump)
        self.revealed = True

    def _reset(self, bids: dict[str, str | int], offers: dict[str, Premium], tricks: dict[str, int],
               turn_up: str | None, trump: Trump | None) -> None:
        hands = self.ui.session_table().hands
        self.bids, self.offers = dict(bids), dict(offers)
        self.tricks = {h: tricks.get(h, 0) for h in hands}
        self.turn_up, self.chosen_trump = turn_up, trump
        self.revealed = False
        self.rebuild()

    # -- what the players tapped ----------------------------------------------------------------
    def set_bid(self, hand: str, raw: str | int) -> None:
        self.bids[hand] = raw
        self._changed()

    def cycle_premium(self, hand: str) -> None:
        table = self.ui.session_table()
        kinds: list[Premium | None] = [None, Premium.DECLARE]
        if table.variant.can_reveal:
            kinds.append(Premium.REVEAL)
        now = self.offers.get(hand)
        following = kinds[(kinds.index(now) + 1) % len(kinds)]
        if following is None:
            self.offers.pop(hand, None)
        else:
            self.offers[hand] = following
        self._changed()

    def change_tricks(self, hand: str, delta: int) -> None:
        self.tricks[hand] = max(0, min(self.ui.session_table().variant.tricks, self.tricks[hand] + delta))
        self._changed()

    def set_turn_up(self, card: str) -> None:
        self.turn_up = card
        self._changed()

    def choose_trump(self, trump: Trump | None) -> None:
        self.chosen_trump = trump
        self._changed()

    def reveal_bids(self) -> None:
        self.revealed = True
        self._changed()

    # -- derived --------------------------------------------------------------------------------
    def premiums(self) -> dict[str, Premium]:
        """The offers after the seed's priority (a reveal overcalls; the dealer's left first)."""
        table = self.ui.session_table()
        try:
            return resolve_offers(self.offers, table.players, self.dealer(), table.variant)
        except PremiumError:
            return {}

    def dealer(self) -> str:
        sheet = self.ui.session.sheet
        return sheet.deals[self.editing].dealer if self.editing is not None else sheet.next_dealer

    def trump(self) -> Trump | None:
        sheet = self.ui.session.sheet
        if self.turn_up:
            return trump_of_turn_up(parse_card(self.turn_up))
        if self.chosen_trump is not None and self.premiums():
            return self.chosen_trump
        if self.editing is not None:
            return sheet.deals[self.editing].trump
        return sheet.next_trump

    def tricks_total(self) -> int:
        return sum(self.tricks.values())

    def deal_json(self) -> dict[str, Any]:
        deal: dict[str, Any] = {"bids": dict(self.bids)}
        premiums = self.premiums()
        if premiums:
            deal["premium"] = {h: p.value for h, p in premiums.items()}
        deal["tricks"] = dict(self.tricks)
        if self.turn_up:
            deal["turn_up"] = self.turn_up
        if self.chosen_trump is not None and premiums:
            deal["trump"] = self.chosen_trump.value
        return deal

    def problem(self) -> str | None:
        """What still stops scoring, in the players' words (None: ready)."""
        table = self.ui.session_table()
        missing = [hand_name(h) for h in table.hands if h not in self.bids]
        if missing:
            return tr("Bids missing: {names}", names=", ".join(missing))
        for hand in self.premiums():
            if self.bids.get(hand) == UNSHOWN_JSON:
                return tr("{name} played a premium: enter the bid", name=hand_name(hand))
        total, want = self.tricks_total(), table.variant.tricks
        if total != want:
            return tr("Tricks add up to {total}, not {want}", total=total, want=want)
        if table.variant.name == "original" and not self.turn_up:
            return tr("Enter the turned-up card")
        if table.options.declarer_chooses_trumps and self.premiums() and self.chosen_trump is None:
            return tr("Tap the trump the declarer named")  # the rules refuse a premium without one
        return None

    # -- drawing --------------------------------------------------------------------------------
    def rebuild(self) -> None:
        if self.ui.session is None:
            return
        table = self.ui.session_table()
        sheet = self.ui.session.sheet
        portrait = self.height > self.width
        box = self.root_box
        box.clear_widgets()
        number = (self.editing + 1) if self.editing is not None else len(sheet.deals) + 1
        title = (tr("Correct deal {n}", n=number) if self.editing is not None
                 else tr("Deal {n}", n=number))
        header = BoxLayout(size_hint_y=None, height=80 if not portrait else 140, spacing=8,
                           orientation="vertical" if portrait else "horizontal")
        header.add_widget(label(title + "\n" + self.ui.progress_text(), font=18))
        header.add_widget(label(tr("Dealer: {name}", name=self.dealer()), font=30, bold=True, color=ACCENT))
        trump = self.trump()
        trump_box = BoxLayout(spacing=4)
        colour = suit_colour(trump.value) if trump is not None and trump.suit is not None else (1, 1, 1, 1)
        trump_box.add_widget(label(trump_symbol(trump), font=48, symbols=True, color=colour,
                                   size_hint_x=0.4))
        trump_box.add_widget(label(trump_name(trump), font=24))
        header.add_widget(trump_box)
        box.add_widget(header)

        hidden = table.options.hidden_bids and not self.revealed
        premiums = self.premiums()
        grid = GridLayout(cols=5, spacing=4)
        # column headings: a row of fixed height (a GridLayout row whose cells have no size hint)
        has_premium = table.variant.can_reveal or table.variant.many_declare
        for heading, extra_kw in (("", {}), (tr("Bid"), {}), (tr("Premium") if has_premium else "", {}),
                                  (tr("Tricks"), {"size_hint_x": None, "width": 2 * TOUCH + 46}),
                                  (tr("Made"), {"size_hint_x": 0.3})):
            head = label(heading, font=16, color=HEADING, size_hint_y=None, height=24, shorten=True,
                         **extra_kw)
            head.role = "heading"
            grid.add_widget(head)
        for hand in table.hands:
            grid.add_widget(label(hand_name(hand), font=18 if portrait else 22, shorten=True))
            raw = self.bids.get(hand)
            bid = parse_bid(raw, table.variant) if raw is not None else None
            text = tr("hidden ✓") if hidden and raw is not None else bid_text(raw, bid)
            b = button(text, lambda h=hand: BidPad(self, h).open(), font=22, symbols=True, markup=True)
            b.hand = hand
            b.role = "bid"
            grid.add_widget(b)
            if hand == DUMMY or not (table.variant.can_reveal or table.variant.many_declare):
                grid.add_widget(label(""))
            else:
                offer = self.offers.get(hand)
                if offer is None:
                    text = tr("no premium")
                else:
                    text = tr("Declare") if offer is Premium.DECLARE else tr("Reveal")
                    if hand not in premiums:
                        text += " " + tr("(overcalled)")
                pb = button(text, lambda h=hand: self.cycle_premium(h), font=17)
                pb.hand, pb.role = hand, "premium"
                grid.add_widget(pb)
            # the -/+ keep a fingertip's width even when a narrow portrait screen squeezes the grid
            tricks = BoxLayout(spacing=2, size_hint_x=None, width=2 * TOUCH + 46)
            minus = button("−", lambda h=hand: self.change_tricks(h, -1), font=26, symbols=True,
                           size_hint_x=None, width=TOUCH)
            plus = button("+", lambda h=hand: self.change_tricks(h, 1), font=26,
                          size_hint_x=None, width=TOUCH)
            minus.hand, minus.role, plus.hand, plus.role = hand, "minus", hand, "plus"
            tricks.add_widget(minus)
            tricks.add_widget(label(str(self.tricks[hand]), font=28))
            tricks.add_widget(plus)
            grid.add_widget(tricks)
            made = bid is not None and not hidden and bid.fulfilled(self.tricks[hand])
            grid.add_widget(label("✓" if made else "", font=30, color=GOOD, symbols=True, size_hint_x=0.3))
        box.add_widget(grid)

        # extra controls share the bottom bar in landscape (room for five rows of hands) and get
        # their own row in portrait
        extra = BoxLayout(size_hint_y=None, height=56, spacing=4, size_hint_x=3)
        if table.options.chosen_trumps and premiums:
            extra.add_widget(label(tr("Declarer's trump:"), font=15, wrap=True))
            choices = [Trump.CLUBS, Trump.HEARTS, Trump.SPADES, Trump.DIAMONDS]
            if table.options.nines_as_trumps:
                choices.append(Trump.NINES)
            for t in choices:
                tb = button(trump_symbol(t), lambda t=t: self.choose_trump(t), font=26, symbols=True,
                            color=suit_colour(t.value) if t.suit else (1, 1, 1, 1))
                highlight(tb, t is self.chosen_trump)
                tb.role = f"trump-{t.value}"
                extra.add_widget(tb)
        if table.variant.name == "original":
            shown = self.turn_up or "?"
            extra.add_widget(button(tr("Turned-up card: {card}", card=shown), lambda: TurnUpPad(self).open()))
        if table.options.hidden_bids and not self.revealed:
            extra.add_widget(button(tr("Show bids"), self.reveal_bids))
        if table.variant.can_reveal and not self.offers:
            formal = button(tr("Announce in turn"), lambda: FormalAnnouncements(self).open(), font=16)
            formal.role = "formal"
            extra.add_widget(formal)
        if extra.children and portrait:
            extra.size_hint_x = 1  # a row of its own: as wide as the screen, not three times as wide
            box.add_widget(extra)

        problem = self.problem()
        check = tr("Tricks: {total} of {want}", total=self.tricks_total(), want=table.variant.tricks)
        self.status = label(WARNING_SIGN + problem if problem else check + "  ✓", font=20,
                            color=WARNING if problem else GOOD,
                            symbols=True, wrap=True, size_hint_y=None, height=34)
        # a long list of names (German, portrait) wraps onto a second line instead of running off-screen
        self.status.bind(texture_size=lambda w, s: setattr(w, "height", max(34, s[1])))
        box.add_widget(self.status)
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=8)
        bottom.add_widget(button(tr("Cancel"), self.ui.show_totals))
        if self.editing is not None and self.editing == len(sheet.deals) - 1:
            delete = button(tr("Delete this deal"), self.delete_last)
            delete.role = "delete"
            bottom.add_widget(delete)
        if extra.children and not portrait:
            bottom.add_widget(extra)
        action = tr("Save correction") if self.editing is not None else tr("Score this deal")
        self.score_button = button(action, self.submit, accent=True, disabled=problem is not None)
        bottom.add_widget(self.score_button)
        box.add_widget(bottom)

    def submit(self) -> None:
        if self.problem() is not None:
            return
        try:
            if self.editing is not None:
                self.ui.session.correct_deal(self.editing, self.deal_json())
            else:
                self.ui.session.add_deal(self.deal_json())
        except EntryRejected as exc:
            self.status.text = WARNING_SIGN + tr("The rules refuse this: {why}", why=str(exc))
            self.status.color = WARNING
            return
        self.ui.after_change()

    def delete_last(self) -> None:
        self.ui.session.delete_last_deal()
        self.ui.show_totals()
