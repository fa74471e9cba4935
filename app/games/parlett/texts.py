"""Parlett's Ninety-Nine in words: the trump of a deal and what the two-player dummy rule paid.

Plain sentences in the app's language (no Kivy), for the screens and anything else that says them.
"""

from __future__ import annotations

from app.i18n import tr
from rules.parlett.match import GameResult
from rules.parlett.scoring import Trump


def trump_name(trump: Trump | None) -> str:
    names = {Trump.NO_TRUMP: tr("No trump"), Trump.CLUBS: tr("Clubs"), Trump.HEARTS: tr("Hearts"),
             Trump.SPADES: tr("Spades"), Trump.DIAMONDS: tr("Diamonds"), Trump.NINES: tr("Nines")}
    return tr("Turned-up card") if trump is None else names[trump]


def dummy_bonus_text(game: GameResult) -> str:
    """What the two-player dummy rule paid the game's winner ("" when it did not apply)."""
    if game.dummy_bonus is None:
        return ""
    winner = game.winners[0]
    if game.dummy_bonus == "carry":
        return tr("{name} carries 100 forward", name=winner)
    return tr("{name} wins double (+{points})", name=winner, points=game.carried[winner])
