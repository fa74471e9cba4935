"""Helpers for the table's screens of Ninety Nine with phones: a web display stand-in, the app's
count99 screens on a LiveTable with a hand-driven clock, seats joined and turns played through the
games layer (as the web server would, from another thread where it matters)."""

from __future__ import annotations

import random
import threading
from types import SimpleNamespace
from typing import Any

from app.games.count99.phones import PERSON, PhoneTable, PhoneTables
from app.games.live import LiveTable
from app.store import GameStore
from tests.phones_support import FakeClock
from tests.ui_support import find_all, frames_until, walk

VIEW_URL = "http://192.168.1.20:8099/v/" + "x" * 22 + "/live"


def fake_web() -> Any:
    """What the table's screen asks of the web server (``live.web``): its address."""
    return SimpleNamespace(view_url=lambda: VIEW_URL)


def live_table(store: GameStore, clock: FakeClock, web: bool = True) -> LiveTable:
    live = LiveTable(store, phones=PhoneTables(store, clock=clock))
    live.web = fake_web() if web else None
    return live


def in_web_thread(action: Any) -> Any:
    """Run ``action`` on another thread, as the web server's executor does; its result."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(action())
        except BaseException as exc:  # handed back to the test
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if errors:
        raise errors[0]
    return result[0] if result else None


def texts(root: Any) -> list[str]:
    """Every text on show under ``root`` (labels and buttons)."""
    return [w.text for w in walk(root) if isinstance(getattr(w, "text", None), str) and w.text]


def wait_actions(game_ui: Any) -> None:
    """The host's actions ran on their worker and their outcome was shown."""
    frames_until(lambda: game_ui.host_actions.pending == 0)


def code_labels(screen: Any) -> dict[int, str]:
    return {w.seat_code: w.text for w in find_all(screen, lambda w: hasattr(w, "seat_code"))}


def status_texts(screen: Any) -> dict[int, str]:
    return {w.seat_status: w.text for w in find_all(screen, lambda w: hasattr(w, "seat_status"))}


def person_turn(table: PhoneTable, rng: random.Random) -> None:
    """The person whose turn it is plays a random legal card (the phone's tap), and draws."""
    game = table.game
    assert game is not None
    turn = game.table.turn
    assert turn is not None
    if game.hands[turn]:
        slot, choice = rng.choice(game.view(turn).options())
        table.play(turn, slot, choice)
    else:
        table.draw(turn)
    for index, seat in enumerate(table.seats):
        while seat.person and game.can_draw(index) and not game.table.over:
            table.draw(index)


def step(table: PhoneTable, phones: PhoneTables, clock: FakeClock, rng: random.Random) -> None:
    """One turn: a person's through the games layer, else the clock (the web server's loop)."""
    game = table.game
    assert game is not None
    turn = game.table.turn
    if turn is not None and table.seats[turn].person and not table.seats[turn].away:
        person_turn(table, rng)
    else:
        clock.now += 5
        phones.tick()


def people(table: PhoneTable) -> list[int]:
    return [i for i, s in enumerate(table.seats) if s.kind == PERSON]
