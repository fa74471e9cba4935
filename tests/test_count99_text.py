"""The app's sentences for Ninety Nine: counts with singular and plural, in English and German."""

from __future__ import annotations

import pytest

from app.games.count99.texts import describe, reason_text
from rules.count99.cards import Variant
from rules.count99.deal import CardsDealt
from rules.count99.table import Reason, RoundEnded, Setup, TokensLost

SETUP = Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat"))


def test_one_token_is_singular() -> None:
    assert describe(TokensLost(0, 1, 8, Reason.PASSED_MILESTONE), SETUP, you=0) == "You lose 1 token, 8 left."
    assert describe(TokensLost(1, 1, 0, Reason.BUST), SETUP) == "Ben loses 1 token, 0 left."


def test_more_tokens_are_plural() -> None:
    assert describe(TokensLost(0, 2, 7, Reason.BUST), SETUP, you=0) == "You lose 2 tokens, 7 left."
    assert describe(TokensLost(2, 3, 6, Reason.NO_CARDS), SETUP) == "Cat loses 3 tokens, 6 left."


def test_one_card_each() -> None:
    assert describe(CardsDealt(1, 1), SETUP) == "1 card each is dealt."
    assert describe(CardsDealt(1, 3), SETUP) == "3 cards each are dealt."


def test_time_called_on_a_long_round() -> None:
    assert describe(RoundEnded(4, Reason.LONG_ROUND, 2), SETUP) == (
        "Round 4 over: Cat was on turn when time was called after 200 plays."
    )


@pytest.mark.usefixtures("german")
def test_german_singular_and_plural() -> None:
    assert describe(TokensLost(0, 1, 8, Reason.BUST), SETUP, you=0) == "Du verlierst 1 Chip, noch 8."
    assert describe(TokensLost(1, 2, 7, Reason.BUST), SETUP) == "Ben verliert 2 Chips, noch 7."
    assert describe(CardsDealt(1, 1), SETUP) == "Jeder bekommt 1 Karte."
    assert describe(CardsDealt(1, 5), SETUP) == "Jeder bekommt 5 Karten."
    assert reason_text(Reason.LONG_ROUND) == "war am Zug, als die Runde nach 200 Karten abgebrochen wurde"


def test_every_reason_has_a_sentence() -> None:
    assert all(reason_text(reason) for reason in Reason)
