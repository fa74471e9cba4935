"""The winning action and the "finished" status are one commit (issue 17, point 4).

Before, each game wrote the action and then, in a second transaction, the status: a kill between
the two left a won game "playing" and offered for Resume. Each test counts the COMMITs SQLite runs
for the winning step (exactly one) and kills the process where the old code had its gap (a
separate ``set_status``): the game must be stored finished, or not have the winning action at all.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from app.store import GameStore
from rules.errors import InvalidActionError


@contextmanager
def commits(store: GameStore) -> Iterator[list[str]]:
    seen: list[str] = []
    store._db.set_trace_callback(lambda sql: seen.append(sql) if sql.strip().upper() == "COMMIT" else None)
    try:
        yield seen
    finally:
        store._db.set_trace_callback(None)


def killed_at_a_separate_status_change(store: GameStore, step: Callable[[], Any]) -> None:
    """Run ``step`` as if the process died the moment a separate status change began."""
    def die(*_: Any, **__: Any) -> None:
        raise SystemExit("killed")

    store.set_status = die  # type: ignore[method-assign]
    with suppress(SystemExit):
        step()


def consistent(store: GameStore, game_id: int, actions_before: int) -> None:
    stored = store.load(game_id)
    if len(stored.actions) > actions_before:  # the winning action is in: so is the status
        assert stored.status == "finished", "a won game was left 'playing' (offered for Resume)"
    else:
        assert stored.status == "playing"


def board99_one_move_from_the_end(store: GameStore, seed: int) -> tuple[Any, Any, Any]:
    from app.games.board99.game import Board99Game, TableSetup
    from rules import board99 as rules

    game = Board99Game.create(store, rules.make_setup(["Ann", "Ben"], layout="rows"),
                              TableSetup(colours={"Ann": "red", "Ben": "blue"}))
    rng = random.Random(seed)
    state = game.state
    while True:
        player = state.to_move
        if state.hand_count(player) == 0 or rng.random() < 0.3:
            action: Any = rules.Draw(player)
        else:
            card = rng.randrange(0, 100)
            squares = state.legal_squares(card)
            if not squares:
                continue
            action = rules.Play(player, card, rng.choice(squares))
        try:
            new_state, _ = rules.apply(state, action)
        except InvalidActionError:
            continue
        if new_state.outcome is not None:
            return game, action, new_state
        game.commit(action, new_state)
        state = new_state


def test_board99_the_winning_play_and_the_status_are_one_commit(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    game, action, new_state = board99_one_move_from_the_end(store, seed=3)
    before = len(game.actions)
    with commits(store) as seen:
        game.commit(action, new_state)
    assert len(seen) == 1
    assert store.load(game.id).status == "finished"

    store2 = GameStore(tmp_path / "again.sqlite3")
    game2, action2, state2 = board99_one_move_from_the_end(store2, seed=3)
    killed_at_a_separate_status_change(store2, lambda: game2.commit(action2, state2))
    consistent(GameStore(tmp_path / "again.sqlite3"), game2.id, before)


def test_count99_the_winning_card_and_the_status_are_one_commit(tmp_path: Path) -> None:
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    for name, kill in (("a.sqlite3", False), ("b.sqlite3", True)):
        store = GameStore(tmp_path / name)
        game = KeptGame.create(store, Setup(Variant.RS_GAMES, ("Ann", "Ben"), tokens=1))
        game.play("99")
        before = len(store.load(game.game_id).actions)
        if kill:
            killed_at_a_separate_status_change(store, game.no_safe_card)
            consistent(GameStore(tmp_path / name), game.game_id, before)
        else:
            with commits(store) as seen:
                game.no_safe_card()
            assert len(seen) == 1 and store.load(game.game_id).status == "finished"


def test_parlett_the_deciding_deal_and_the_status_are_one_commit(tmp_path: Path) -> None:
    from tests.test_parlett_session import BIG, new

    for name, kill in (("a.sqlite3", False), ("b.sqlite3", True)):
        store = GameStore(tmp_path / name)
        session = new(store)
        for _ in range(5):
            session.add_deal(BIG)
        before = len(store.load(session.game_id).actions)
        if kill:
            killed_at_a_separate_status_change(store, lambda s=session: s.add_deal(BIG))
            consistent(GameStore(tmp_path / name), session.game_id, before)
        else:
            with commits(store) as seen:
                session.add_deal(BIG)
            stored = store.load(session.game_id)
            assert stored.status == "finished"
            assert len(seen) <= 2  # the deal with its status; clearing the draft is separate
