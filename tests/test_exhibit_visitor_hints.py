"""The guide's sentences for a visitor's game, without a window: every penalty says why, the end
says who won, and the hints read the game without changing it."""

from __future__ import annotations

from pathlib import Path

from app.games.board99.game import Board99Game, TableSetup
from app.referee.events import Phase, Prompt, PromptKind
from app.store import GameStore
from app.ui.exhibit.visitor_hints import computer_did, penalty_reason, pending_offence, visitor_hint
from rules import board99 as rules


def game(tmp_path: Path, actions: tuple[object, ...] = (),
         hands: dict[str, list[int]] | None = None) -> Board99Game:
    hands = hands or {"Guest": [23, 45, 71, 80, 99], "Ben": [55, 66, 77, 88, 93]}
    dealt = {c for cards in hands.values() for c in cards}
    setup = rules.make_setup(["Guest", "Ben"], layout="rows", first="Guest", hands=hands,
                             deck=[c for c in range(100) if c not in dealt])
    g = Board99Game.create(GameStore(tmp_path / "scratch.sqlite"), setup,
                           TableSetup({"Guest": "red", "Ben": "blue"}, {"Ben": "basic"}, 1))
    for action in actions:
        state, _ = rules.apply(g.state, action)
        g.commit(action, state)
    return g


def hint(g: Board99Game, prompt: Prompt, **kw: object) -> str:
    return visitor_hint(g, prompt, "Guest", simulated=True, square_at=lambda hole: hole, **kw).text  # type: ignore[arg-type]


ANNOUNCE = Prompt(PromptKind.INFO, "Guest's turn: PLAY, DRAW or DISCARD.", (), Phase.ANNOUNCE)


def test_every_offence_has_a_reason() -> None:
    assert penalty_reason("illegal-play", 60, 57) == (
        "Why: card 60 may only go on a square numbered 60 or more, and square 57 is lower.")
    assert "at most five cards" in penalty_reason("illegal-draw", 12, None)
    for offence in ("play-out-of-turn", "draw-out-of-turn", "discard-out-of-turn"):
        assert penalty_reason(offence, 5, 9).startswith("Why: it was not your turn.")


def test_the_rules_judge_the_peg_to_take_off(tmp_path: Path) -> None:
    g = game(tmp_path)
    assert pending_offence(g, "Guest", 99, 50) == "illegal-play"
    assert pending_offence(g, "Guest", 45, 50) is None  # a legal play: nothing to explain
    assert pending_offence(g, "Guest", 12, 50) is None  # not in the hand: invalid input, no penalty
    assert pending_offence(g, "Guest", None, 50) is None
    assert g.state.pegs == {}  # asking the rules changed nothing


def test_the_remove_peg_hint_puts_the_reason_under_the_referees_words(tmp_path: Path) -> None:
    g = game(tmp_path)
    prompt = Prompt(PromptKind.ACTION, "Illegal play: take Guest's peg off square 50 (row 6, column 1).",
                    (50,), Phase.REMOVE_PEG)
    text = hint(g, prompt, last_card=99)
    assert text == (prompt.text + "\nWhy: card 99 may only go on a square numbered 99 or more, and square "
                    "50 is lower. Tap square 50 to take your peg off.")


def test_after_a_penalty_the_reason_stays_with_a_short_next_step(tmp_path: Path) -> None:
    penalised = rules.Penalised("Guest", "illegal-play", 99, 50)
    g = game(tmp_path, (rules.Play("Guest", 99, 50), rules.Play("Ben", 55, 70)))
    assert g.state.to_move == "Ben"  # Guest's next turn is lost
    why = "Why: card 99 may only go on a square numbered 99 or more, and square 50 is lower.\n"
    assert hint(g, ANNOUNCE, penalty=penalised) == why + "The computer is thinking..."
    g = game(tmp_path / "b", (rules.Play("Guest", 99, 50), rules.Play("Ben", 55, 70),
                              rules.Play("Ben", 66, 71)))
    assert g.state.to_move == "Guest"
    text = hint(g, ANNOUNCE, penalty=penalised)
    assert text.startswith(why + "Next: tap PLAY and ") and text.count("\n") == 1  # short: room is scarce


def test_the_computers_last_move_is_named_on_the_visitors_turn(tmp_path: Path) -> None:
    g = game(tmp_path, (rules.Play("Guest", 45, 45), rules.Play("Ben", 55, 70)))
    assert computer_did(g, "Guest") == "The computer played card 55 on square 70."
    assert hint(g, ANNOUNCE).startswith("The computer played card 55 on square 70.\nYou hold 23, 71, 80, 99.")
    assert computer_did(game(tmp_path / "b", (rules.Play("Guest", 45, 45),)), "Guest") == ""


def test_the_end_says_who_won(tmp_path: Path) -> None:
    hands = {"Guest": [0, 1, 2, 3, 4], "Ben": [10, 11, 12, 13, 14]}
    plays: list[object] = []
    for i in range(5):
        plays.append(rules.Play("Guest", i, i))
        if i < 4:
            plays.append(rules.Play("Ben", 10 + i, 20 + i))
    won = game(tmp_path, tuple(plays), hands)
    over = Prompt(PromptKind.INFO, "Guest won!", (), Phase.OVER)
    assert hint(won, over).startswith("Five in a row: you won!")
    plays = []
    for i in range(5):
        plays.append(rules.Play("Guest", i, 40 + 2 * i))
        plays.append(rules.Play("Ben", 10 + i, 20 + i))
    lost = game(tmp_path / "b", tuple(plays), hands)
    assert lost.state.outcome is not None and lost.state.outcome.winners == ("Ben",)
    assert hint(lost, over).startswith("The computer got five in a row first.")
