"""The board game's status sentences (no Kivy): counts agree with their number, in both languages."""

from __future__ import annotations

from app.games.board99.texts import deck_text, face_up_text, undo_button_text
from rules import board99 as rules


def test_the_deck_count_is_singular_for_one_card() -> None:
    assert [deck_text(n) for n in (0, 1, 2)] == ["Deck: 0 cards", "Deck: 1 card", "Deck: 2 cards"]


def test_the_deck_count_in_german(german: None) -> None:
    assert [deck_text(n) for n in (1, 83)] == ["Stapel: 1 Karte", "Stapel: 83 Karten"]


def test_face_up_cards_show_the_latest_eight_and_how_many_there_are() -> None:
    assert face_up_text(()) == "Face up: -"
    assert face_up_text((60, 3)) == "Face up: 60, 3"
    many = tuple(range(20, 32))
    assert face_up_text(many) == "Face up: 12 cards, the latest 24, 25, 26, 27, 28, 29, 30, 31"


def test_undo_names_the_action_it_takes_back(german: None) -> None:
    assert undo_button_text(None) == "Rückgängig"
    assert undo_button_text(rules.Play("Ann", 57, 63)) == "Rückgängig: Ann SPIELEN 57"
    assert undo_button_text(rules.RevealDeadHand("Ben", (90,))) == "Rückgängig: Ben TOTE HAND"
