"""The Parlett's Ninety-Nine score display: setup, deal entry, totals, chart, winner.

``make_ui()`` gives the :class:`~app.ui.context.GameUI` the shell registers. One
:class:`ParlettUI` holds the current :class:`~app.games.parlett.game.ParlettSession`; the screens read
the score sheet from it and change the game only through it (check, commit, then show).
"""

from __future__ import annotations

from typing import Any

from app.games.parlett.game import KIND, ParlettSession
from app.games.parlett.texts import trump_name
from app.i18n import tr
from app.ui.context import AppContext
from rules.parlett.variants import Table


class ParlettUI:
    kind = KIND
    title = "Ninety-Nine (Parlett)"

    def __init__(self) -> None:
        self.ctx: AppContext | None = None
        self.session: Any = None  # ParlettSession once a game is started or resumed

    # -- GameUI ---------------------------------------------------------------------------------
    def build(self, ctx: AppContext) -> None:
        from app.ui.parlett.chart import ChartScreen
        from app.ui.parlett.deal_screen import DealScreen
        from app.ui.parlett.setup_screen import SetupScreen
        from app.ui.parlett.totals_screen import TotalsScreen
        from app.ui.parlett.winner_screen import WinnerScreen

        self.ctx = ctx
        self.screens = {s.name: s for s in (SetupScreen(self), DealScreen(self), TotalsScreen(self),
                                             ChartScreen(self), WinnerScreen(self))}
        for screen in self.screens.values():
            ctx.manager.add_widget(screen)

    def new_game_screen(self) -> str:
        return "parlett-setup"

    def resume(self, game_id: int) -> str:
        assert self.ctx is not None
        self.session = ParlettSession.load(self.ctx.store, game_id)
        if self.session.sheet.over:
            return "parlett-winner"
        if self.session.draft():  # a deal was being entered when the app stopped: carry on with it
            self.screens["parlett-deal"].new_deal()
            return "parlett-deal"
        return "parlett-totals"

    def export_record(self, game_id: int) -> dict[str, Any]:
        """The stored rubber as a ``table99/parlett`` record, with its deals under "deals"."""
        assert self.ctx is not None
        return ParlettSession.load(self.ctx.store, game_id).record()

    # -- used by the screens --------------------------------------------------------------------
    def session_table(self) -> Table:
        table: Table = self.session.sheet.table
        return table

    def go(self, name: str) -> None:
        assert self.ctx is not None
        self.ctx.go(name)

    def go_home(self) -> None:
        if self.ctx is not None and self.ctx.manager.has_screen("home"):
            self.ctx.go("home")

    def start_game(self, variant: str, players: list[str], dealer: str, options: dict[str, Any]) -> None:
        assert self.ctx is not None
        self.session = ParlettSession.new(self.ctx.store, variant, players, dealer, options)
        self.next_deal()

    def next_deal(self) -> None:
        self.screens["parlett-deal"].new_deal()
        self.go("parlett-deal")

    def correct(self, index: int) -> None:
        self.screens["parlett-deal"].edit(index)
        self.go("parlett-deal")

    def show_totals(self) -> None:
        self.screens["parlett-totals"].refresh()
        self.go("parlett-totals")

    def after_change(self) -> None:
        """A deal was committed: show the totals (or the winner), and say who made it."""
        sheet = self.session.sheet
        if self.ctx is not None and sheet.deals:
            made = [h for h, ok in sheet.deals[-1].score.made.items() if ok]
            said = tr("Made it: {names}", names=", ".join(made) or tr("nobody"))
            if not sheet.over:
                said += ". " + tr("Next deal: {dealer}, {trump}", dealer=sheet.next_dealer,
                                  trump=trump_name(sheet.next_trump))
            self.ctx.announcer.say(said)
        if sheet.over:
            self.screens["parlett-winner"].refresh()
            self.go("parlett-winner")
        else:
            self.show_totals()

    def progress_text(self) -> str:
        sheet = self.session.sheet
        variant, options = sheet.table.variant, sheet.table.options
        if variant.fixed_deals is not None:
            text = tr("Hand {n} of {total}", n=min(len(sheet.deals) + 1, variant.fixed_deals),
                      total=variant.fixed_deals)
        elif options.target is not None:
            text = tr("Playing to {points}", points=options.target)
        elif options.nine_rounds:
            text = tr("Round {n} of 9 (German rules)", n=min(len(sheet.deals) + 1, 9))
        else:
            game = min(len(sheet.games) + 1, sheet.table.rubber_games)
            text = tr("Game {n} of {total} · to 100", n=game, total=sheet.table.rubber_games)
        if options.hard_score or (variant.has_dummy and options.dummy_rule == "double"):
            text += " · " + tr("hard score")
        return text


def make_ui() -> ParlettUI:
    return ParlettUI()
