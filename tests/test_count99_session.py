"""Stored Ninety Nine games: the count keeper and the game against the computer, crash and resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.games.count99.game import ComputerGame, KeptGame, announcement, load_session, record_of
from app.store import GameStore
from rules.count99.cards import Variant
from rules.count99.deal import CardGame
from rules.count99.errors import NotYourTurnError, WrongChoiceError
from rules.count99.replay import replay_json
from rules.count99.table import Setup

SETUP = Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat"), tokens=2)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.sqlite")


def test_a_kept_game_starts_the_next_round_by_itself_and_undo_takes_it_back(store: GameStore) -> None:
    game = KeptGame.create(store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    game.play("K")  # Ann 10
    game.play("Q")  # Ben 20
    for card in ("K", "K", "K", "K", "K", "K"):
        game.play(card)  # Cat 30, Ann 40 (passes 33), ...
    assert game.table.round_no == 1 and game.table.count == 80
    events = game.play("K")  # Cat: 90
    game.play("K")  # Ann: 100, bust
    assert game.table.round_no == 2 and game.table.turn == 1 and game.table.count == 0
    assert game.table.tokens == (5, 9, 9)
    assert store.load(game.game_id).actions[-1] == {"start": "Ben"}
    removed = game.undo()
    assert removed == {"by": "Ann", "card": "K"}
    assert game.table.round_no == 1 and game.table.count == 90 and game.table.turn == 0
    assert [dict(a) for a in store.load(game.game_id).actions] == game.actions
    assert events  # the play was described


def test_a_kept_game_survives_reopening_the_database(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    game = KeptGame.create(store, SETUP)
    game.play("A", 11)
    game.play("10", -10)
    store.close()  # as good as a crash: every action was committed on its own
    again = load_session(GameStore(path), game.game_id)
    assert isinstance(again, KeptGame)
    assert again.table == game.table and again.table.count == 1


def test_refused_plays_store_nothing(store: GameStore) -> None:
    game = KeptGame.create(store, SETUP)
    with pytest.raises(WrongChoiceError):
        game.play("A")
    with pytest.raises(WrongChoiceError):
        game.play("+10")
    assert len(store.load(game.game_id).actions) == 1


def test_a_finished_kept_game_is_marked_and_exports_a_replayable_record(store: GameStore) -> None:
    game = KeptGame.create(store, Setup(Variant.RS_GAMES, ("Ann", "Ben"), tokens=1))
    game.play("99")
    events = game.no_safe_card()  # Ben
    assert game.table.winner == 0
    said = announcement(events, game.setup)
    assert "Ben loses 1 token, 0 left." in said and "Ann wins the game!" in said
    stored = store.load(game.game_id)
    assert stored.status == "finished" and stored.result == "Ann won"
    result = replay_json(record_of(stored))
    assert result["final"]["winner"] == "Ann"
    assert game.undo() == {"by": "Ben", "no-safe-card": True}
    assert store.load(game.game_id).status == "playing"


def test_undo_with_nothing_played_does_nothing(store: GameStore) -> None:
    game = KeptGame.create(store, SETUP)
    assert not game.can_undo() and game.undo() is None and game.table.in_round


def test_a_computer_game_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    session = ComputerGame.create(store, Setup(Variant.QUENTIN_C, ("You", "C1", "C2")), seed=11)
    for _ in range(12):
        if session.table.over:
            break
        if session.humans_turn():
            slot, choice = session.game.view(0).options()[0]
            session.play(slot, choice)
        else:
            session.computer_step()
    if session.humans_turn():
        assert session.computer_step() == []  # computers never move on the person's turn
    elif not session.table.over:
        with pytest.raises(NotYourTurnError):
            session.play(0)
    store.close()
    again = ComputerGame.load(GameStore(path), session.game_id)
    assert again.table == session.table and again.game.hands == session.game.hands
    assert replay_json(again.record())["final"]["tokens"] == dict(
        zip(session.setup.players, session.table.tokens, strict=True)
    )


def test_manual_draw_in_a_computer_game(store: GameStore) -> None:
    session = ComputerGame.create(store, Setup(Variant.RS_GAMES, ("You", "C1")), manual_draw=True, seed=2)
    while not session.humans_turn():
        session.computer_step()
    session.play(0)
    assert len(session.game.hands[0]) == 2
    session.draw()
    assert len(session.game.hands[0]) == 3
    assert store.load(session.game_id).actions[-1] == {"by": "You", "draw": True}


def test_a_crash_between_the_round_ending_card_and_the_next_round_is_recovered_at_the_table(
    store: GameStore,
) -> None:
    game = KeptGame.create(store, Setup(Variant.QUENTIN_C, ("Ann", "Ben")))
    for _ in range(10):
        game.play("K")  # Ben's 10th King busts at 100
    assert game.table.round_no == 2 and store.load(game.game_id).actions[-1] == {"start": "Ben"}
    store.pop_last(game.game_id)  # the power went off between the two commits
    again = KeptGame.load(store, game.game_id)
    assert again.table.in_round and again.table.round_no == 2 and again.table.turn == 1
    assert store.load(game.game_id).actions[-1] == {"start": "Ben"}
    again.play("K")  # the table goes on
    assert again.table.count == 10


def test_a_crash_before_the_next_deal_is_recovered_against_the_computer(store: GameStore) -> None:
    session = ComputerGame.create(store, Setup(Variant.QUENTIN_C, ("You", "C1", "C2")), seed=11)
    while session.table.round_no < 2:
        if session.humans_turn():
            session.play(*session.game.view(0).options()[0])
        else:
            session.computer_step()
    actions = list(store.load(session.game_id).actions)
    last_start = max(i for i, a in enumerate(actions) if "start" in a)
    store.replace_actions(session.game_id, actions[:last_start])  # lost with the power
    again = ComputerGame.load(store, session.game_id)
    assert again.table.in_round and again.table.round_no == 2
    assert any(type(e).__name__ == "RoundStarted" for e in again.opening)
    assert list(store.load(session.game_id).actions)[last_start] == actions[last_start]
    assert again.game.hands == CardGame.replay(session.setup, 11, False, actions[: last_start + 1]).hands


def test_undoing_the_winning_card_reopens_the_game_in_the_store(store: GameStore) -> None:
    game = KeptGame.create(store, Setup(Variant.RS_GAMES, ("Ann", "Ben"), tokens=1))
    game.play("99")
    game.play("1")  # Ben busts and is out: Ann wins
    assert game.table.over and store.load(game.game_id).status == "finished"
    game.undo()
    assert not game.table.over and store.load(game.game_id).status == "playing"
    assert store.load(game.game_id).result == ""
