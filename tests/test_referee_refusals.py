"""The rules' refusals as the screen shows and speaks them: English unchanged, German complete."""

from __future__ import annotations

import dataclasses

import pytest

from app import i18n
from app.referee.refusals import reason_text, refusal_text
from rules.board99 import Discard, Draw, Outcome, Play, RevealDeadHand, apply, record_from_json, replay
from rules.errors import InvalidActionError
from tests.test_board99_records import ISSUE_EXAMPLE
from tests.test_board99_support import deck_with, new_game, run


def refusals() -> list[InvalidActionError]:
    """One refused action for every reason the engine gives."""
    cases = []
    known = new_game(2, hands={"Ann": [10, 11], "Ben": [20]})
    played, _ = run(known, Play("Ann", 10, 50))
    out_of_cards, _ = run(new_game(2, hands={"Ann": [10]}), Play("Ann", 10, 50))
    digital = new_game(2, deck=list(range(100)))
    five = new_game(2, "5of99")
    five_full = dataclasses.replace(five, holes=tuple(0 if sq >= 50 else -1 for sq in range(100)))
    ended = dataclasses.replace(played, turn=None, outcome=Outcome("tie", (), ()))
    cut_back, _ = replay(record_from_json(dict(ISSUE_EXAMPLE, actions=ISSUE_EXAMPLE["actions"][:2])))
    empty = new_game(2, hands={"Ann": [1]}, deck=deck_with([], exclude=[1]))
    empty = dataclasses.replace(empty, deck=(), face_up=tuple(c for c in range(100) if c not in (1, 2)),
                                hands=(empty.hands[0], dataclasses.replace(empty.hands[1], known=(2,))))
    attempts = [
        (played, Play("Ben", 20, 50)),  # square taken
        (played, Play("Ben", 10, 60)),  # face up
        (known, Play("Ben", 11, 60)),  # known in Ann's hand
        (known, Discard("Ben", 11)),
        (out_of_cards, Play("Ann", 33, 60)),  # no cards
        (empty, Draw("Ann")),
        (ended, Draw("Ann")),
        (known, Draw("Zed")),
        (known, Play("Ann", 100, 50)),
        (known, Play("Ann", 10, -1)),
        (new_game(2, "5of99", deck=list(range(100))), Discard("Ann", 0)),
        (known, RevealDeadHand("Ann", (10, 11))),
        (five, RevealDeadHand("Ann", (90, 91))),
        (five_full, RevealDeadHand("Ann", (60, 70, 80, 12))),
        (new_game(2, "5of99", hands={"Ann": [60, 70, 80, 90]}), RevealDeadHand("Ann", (60, 70, 80, 91))),
        (digital, Draw("Ann", 50)),
        (digital, Play("Ann", 50, 60)),  # does not hold
        (cut_back, Play("Ann", 57, 63)),
        (new_game(3, deck=deck_with([5])), Play("Ann", 5, 60)),
    ]
    for state, action in attempts:
        with pytest.raises(InvalidActionError) as info:
            apply(state, action)
        cases.append(info.value)
    return cases


def test_english_refusals_read_exactly_as_the_engine_wrote_them() -> None:
    errors = refusals()
    assert len({e.reason for e in errors}) >= 15  # many different reasons
    for error in errors:
        assert refusal_text(error) == str(error)


def test_every_reason_the_engine_gives_has_a_german_sentence(german: None) -> None:
    for error in refusals():
        german_text = reason_text(error.reason)
        assert german_text != error.reason, error.reason


def test_a_refusal_in_german(german: None) -> None:
    errors = {e.reason: e for e in refusals()}
    taken = next(e for r, e in errors.items() if r.startswith("square 50 already holds"))
    assert refusal_text(taken) == "Ben spielt 20 auf Feld 50: auf Feld 50 steckt schon ein Stift von Ann"
    cut = next(e for r, e in errors.items() if "cut back in after" in r)
    assert refusal_text(cut) == ("Ann spielt 57 auf Feld 63: Karte 57 ist im Stapel: sie wurde gezeigt und "
                                 "wieder eingemischt, weil Ann bei Aktion 1 außer der Reihe gezogen hat")


def test_an_unknown_reason_is_shown_as_the_engine_wrote_it(german: None) -> None:
    assert reason_text("something new") == "something new"


@pytest.mark.parametrize(("setup", "german_text"), [
    ({"layout": [*range(99), 5]}, "Loch 99: die Zahl 5 steht schon auf Loch 5"),
    ({"layout": list(range(98))}, "ein Brett hat 100 Zahlen, dieses hat 98"),
    ({"players": ["Ann", "Ann"]}, "zwei Spieler haben denselben Namen"),
    ({"players": ["Ann", ""]}, "jeder Spieler braucht einen Namen, nicht ''"),
])
def test_a_setup_mistake_the_setup_screen_can_make_reads_in_german(setup: dict[str, object],
                                                                   german_text: str, german: None) -> None:
    from rules.board99 import SetupError, make_setup

    kwargs: dict[str, object] = {"players": ["Ann", "Ben"], **setup}
    with pytest.raises(SetupError) as info:
        make_setup(kwargs.pop("players"), **kwargs)  # type: ignore[arg-type]
    assert reason_text(str(info.value)) == german_text
    i18n.set_language("en")
    assert reason_text(str(info.value)) == str(info.value)
