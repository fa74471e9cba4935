"""Ninety Nine with phones in real headless Chromium sessions: two people on two phones and two
computers play whole games (Quentin C and RS Games) to a winner; one phone reloads mid-game and
goes on with its hand; one leaves (the host gives its seat to a computer, or its phone goes away
and its turn time runs out) and the computer takes its seat; the stored record replays to the same
winner."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.count99.game import record_of
from app.games.count99.phones import PhoneTable
from rules.count99.replay import replay_json
from tests.browser_pool import BrowserPool
from tests.phones_browser_support import (
    AXE,
    click_a_card,
    hand_on_page,
    join_in_browser,
    my_turn,
    page_seq,
    run_axe,
    screenshot,
)
from tests.phones_web_support import PhonesWeb
from tests.web_support import wait_for

pytestmark = pytest.mark.slow
PHONE = (390, 844)


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[PhonesWeb]:
    web = PhonesWeb(tmp_path)
    yield web
    web.close()


def server_hand(table: PhoneTable, seat: int) -> list[str]:
    assert table.game is not None
    return list(table.game.hands[seat])


def play_a_turn(driver: Any, table: PhoneTable, seat: int) -> None:
    """Click a card when the page says it is this seat's turn; wait for the page to hear of it."""
    # the page shows its own hand as the server has it (a view may still be on its way)
    wait_for(lambda: hand_on_page(driver) == server_hand(table, seat), what=f"seat {seat + 1}'s hand")
    seq = page_seq(driver)
    click_a_card(driver)
    wait_for(lambda: page_seq(driver) > seq, what=f"seat {seat + 1}'s page to show its play")


@pytest.mark.parametrize("variant", ["quentin-c", "rs-games"])
def test_two_phones_and_two_computers_play_a_whole_game(phones: PhonesWeb, variant: str,
                                                        browsers: BrowserPool) -> None:
    quentin = variant == "quentin-c"
    table = phones.open_table(variant=variant, people=2, computers=2, level="easy", hand_size=3, tokens=2,
                              computer_pause=0, turn_seconds=None if quentin else 5)
    url = f"{phones.base}/phones/{table.table_id}"
    ann, ben = browsers.take(size=PHONE), browsers.take(size=PHONE)
    drivers: dict[int, Any] = {0: ann, 1: ben}
    try:
        join_in_browser(ann, url, table, 0, "Ann")
        join_in_browser(ben, url, table, 1, "Ben")
        assert phones.host(table, op="start") == (200, {"ok": True})
        game = table.game
        assert game is not None and table.game_id is not None
        reloaded = left = False
        person_turns = 0
        deadline = time.monotonic() + 240
        while not table.over:
            assert time.monotonic() < deadline, "the game did not end in time"
            for seat, driver in list(drivers.items()):
                if not table.over and my_turn(driver) and game.table.turn == seat:
                    play_a_turn(driver, table, seat)
                    person_turns += 1
            if not reloaded and person_turns >= 1 and not table.over:
                ann.refresh()  # the phone slept, or its page was reloaded: same seat, same hand
                wait_for(lambda: hand_on_page(ann) == server_hand(table, 0) and page_seq(ann) >= 0,
                         what="Ann's hand after the reload")
                reloaded = True
            if reloaded and not left and person_turns >= 2 and not table.over:
                if quentin:  # the host gives Ben's seat to a computer
                    assert phones.host(table, op="remove", index=1)[0] == 200
                    wait_for(lambda: "/phones/" in ben.current_url and ben.find_elements("id", "join-form"),
                             what="Ben's phone back at the join page")
                    assert table.seats[1].kind == "hard"
                else:  # Ben's phone goes away: his turn time runs out, the computer plays for him
                    browsers.give_back(ben)
                del drivers[1]
                left = True
            time.sleep(0.05)
        assert reloaded and left
        if not quentin:
            assert table.seats[1].away or not game.table.is_in(1)  # the computer played his turns
        winner = game.setup.players[game.table.winner or 0]
        wait_for(lambda: winner in ann.find_element("id", "turn").text, what="the winner on Ann's phone")
        screenshot(ann, f"game-over-{variant}")
        if AXE.is_file():  # the game-over state, too (test_phones_pages_browser.py: every other state)
            serious = [v for v in run_axe(ann, AXE.read_text(encoding="utf-8"))
                       if v["impact"] in ("serious", "critical")]
            assert not serious, serious
        record = record_of(phones.web.store.load(table.game_id))
        assert replay_json(record)["final"]["winner"] == winner
        assert phones.web.store.load(table.game_id).status == "finished"
    finally:
        for driver in (ann, ben):
            with contextlib.suppress(Exception):  # Ben's may be gone already
                browsers.give_back(driver)
