"""Helpers for the phones tests: a table with a hand-driven clock, joined seats, a game played out."""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.games.count99.phones import PERSON, PhoneOptions, PhoneTable, PhoneTables
from app.store import GameStore


@dataclass
class FakeClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


def joined_table(store: GameStore, options: PhoneOptions, clock: FakeClock | None = None,
                 names: tuple[str, ...] = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"),
                 ) -> tuple[PhoneTables, PhoneTable, dict[int, str]]:
    """A registry with one table whose person seats have all joined; (registry, table, credentials)."""
    registry = PhoneTables(store, clock=clock or FakeClock())
    table = registry.create(options)
    credentials = {}
    for index, seat in enumerate(table.seats):
        if seat.kind == PERSON:
            assert seat.code is not None
            credentials[index] = table.join(index, seat.code, names[index])
    return registry, table, credentials


def play_out(table: PhoneTable, rng: random.Random, limit: int = 20_000,
             each_step: object = None) -> None:
    """People choose a random legal card (and draw when they may); computers play via tick()."""
    for _ in range(limit):
        game = table.game
        assert game is not None
        if game.table.over:
            return
        turn = game.table.turn
        if turn is not None and table.seats[turn].person and not table.seats[turn].away:
            if game.hands[turn]:
                slot, choice = rng.choice(game.view(turn).options())
                table.play(turn, slot, choice)
            else:
                table.draw(turn)
            for index, seat in enumerate(table.seats):
                while seat.person and game.can_draw(index) and not game.table.over:
                    table.draw(index)
        else:
            assert table.tick()
        if callable(each_step):
            each_step()
    raise AssertionError("the game did not end")
