"""The table's screens of Ninety Nine with phones for the screen audit (tests/screen_catalog.py):
built in the whole app as a host reaches them, the phones stood in for by the games layer."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.phones_support import FakeClock
from tests.phones_table_support import live_table, step
from tests.ui_support import UI, frames, frames_until, tap


def _app(ui: UI, web: bool = True) -> Any:
    from tests.screen_catalog import app_root

    root = app_root(ui)
    ctx = root.app.ctx
    clock = FakeClock()
    if web:
        ctx.extras["live"] = live_table(ctx.store, clock)
    root.phones_clock = clock
    return root


def setup(ui: UI) -> Any:
    root = _app(ui)
    root.current = "count99-phones-setup"
    frames(3)
    return root


def no_web(ui: UI) -> Any:
    root = _app(ui, web=False)
    root.current = "count99-phones-setup"
    frames(3)
    return root


def lobby(ui: UI) -> Any:
    """Four seats: Ann joined, Ben's code waiting, two computers."""
    from app.i18n import tr

    root = setup(ui)
    screen = root.get_screen("count99-phones-setup")
    screen.seat_buttons[3].step()
    tap(screen.open_button)
    table = root.current_screen.session
    table.join(0, table.seats[0].code, "Ann")
    frames_until(lambda: any(tr("{name} joined", name="Ann") == getattr(w, "text", "")
                             for w in root.current_screen.rows.walk()))
    return root


def game(ui: UI, finished: bool = False) -> Any:
    root = lobby(ui)
    screen = root.current_screen
    table = screen.session
    table.join(1, table.seats[1].code, "Ben")
    frames_until(lambda: not screen.start_button.disabled)
    tap(screen.start_button)
    frames_until(lambda: root.current == "count99-phones-game")
    phones = root.app.ctx.extras["live"].phones
    rng = random.Random(4)
    while len(table.snapshot.get("plays", [])) < 5 or (finished and not table.over):
        step(table, phones, root.phones_clock, rng)
    game_screen = root.current_screen
    frames_until(lambda: game_screen.shown_seq == table.snapshot["seq"])
    frames(2)
    return root


def remove_chooser(ui: UI) -> Any:
    root = game(ui)
    tap(root.current_screen.remove_button)
    frames(2)
    return root


PHONES_TABLE_SCREENS: dict[str, Callable[[UI], Any]] = {
    "count99-phones-setup": setup,
    "count99-phones-no-web": no_web,
    "count99-phones-lobby": lobby,
    "count99-phones-game": game,
    "count99-phones-remove": remove_chooser,
    "count99-phones-finished": lambda ui: game(ui, finished=True),
}
