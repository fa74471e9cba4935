"""A whole game of Ninety Nine on one phone with the keyboard alone (no mouse or pointer event
reaches the page), whose aria-live sentences are the terminal game's sentences for the same record;
and the keys C, H, T answer in the status line."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app.terminal.count99 import TerminalGame
from rules.count99.deal import CardGame
from rules.count99.record import setup_from_record
from tests.browser_pool import BrowserPool
from tests.phones_browser_support import MOUSE_WATCH, join_in_browser, my_turn, page_seq, said
from tests.phones_web_support import PhonesWeb
from tests.web_support import wait_for

pytestmark = pytest.mark.slow


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[PhonesWeb]:
    web = PhonesWeb(tmp_path)
    yield web
    web.close()


def terminal_sentences(stored_setup: dict[str, Any], actions: list[dict[str, Any]]) -> list[str]:
    """What ``table99 play count99`` says for these actions, through its own ``report``: the same
    record replayed action by action, the person in seat 0."""
    setup = setup_from_record(stored_setup)
    game = CardGame(setup, seed=int(stored_setup["seed"]), manual_draw=bool(stored_setup["manual_draw"]))
    out = io.StringIO()
    terminal = TerminalGame(SimpleNamespace(game=game), out)  # type: ignore[arg-type]
    for action in actions:
        terminal.report(list(game._apply_dict(action)))
    return out.getvalue().splitlines()


def press(driver: Any, keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(keys).perform()


def can_draw(driver: Any) -> bool:
    return bool(driver.execute_script("const d = document.getElementById('draw');"
                                      "return !!d && !d.hidden && !d.disabled;"))


@pytest.mark.parametrize(("variant", "manual"), [("quentin-c", False), ("rs-games", True)])
def test_a_keyboard_only_game_says_what_the_terminal_says(phones: PhonesWeb, variant: str,
                                                          manual: bool,
                                                          browsers: BrowserPool) -> None:
    from selenium.webdriver.common.keys import Keys

    table = phones.open_table(variant=variant, people=1, computers=2, level="hard", hand_size=3, tokens=1,
                              computer_pause=0, manual_draw=manual)
    driver = browsers.take(size=(390, 844))
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MOUSE_WATCH})
        join_in_browser(driver, f"{phones.base}/phones/{table.table_id}", table, 0, "Ann")
        driver.find_element("tag name", "body").send_keys(Keys.ESCAPE)  # focus on the page, not a field
        assert phones.host(table, op="start") == (200, {"ok": True})
        wait_for(lambda: page_seq(driver) >= 0, what="the seat's page")
        for key, answer in (("c", "Count "), ("h", "Your hand: 1: "), ("t", "Tokens: you 1")):
            press(driver, key)
            wait_for(lambda a=answer: driver.find_element("id", "say").text.startswith(a),
                     what=f"{key} answered")
        game = table.game
        assert game is not None and table.game_id is not None
        deadline = time.monotonic() + 180
        choices = draws = 0
        while not table.over:
            assert time.monotonic() < deadline, "the game did not end in time"
            if manual and can_draw(driver):
                seq = page_seq(driver)
                press(driver, "d" if draws % 2 else " ")  # D or Space draws
                draws += 1
                wait_for(lambda s=seq: page_seq(driver) > s or table.over, what="the card drawn")
            elif my_turn(driver) and game.table.turn == 0:
                seq = page_seq(driver)
                press(driver, "1")  # the first card; an Ace or a 10 asks for one of two buttons
                # read in one script: a plain card's play redraws the hand at once, so a handle to
                # the focused button may already be stale (an Ace's or 10's choice waits for Enter)
                if driver.execute_script(
                        "const e = document.activeElement; return !!(e && e.getAttribute('data-choice'));"):
                    choices += 1
                    driver.switch_to.active_element.send_keys(Keys.ENTER)
                wait_for(lambda s=seq: page_seq(driver) > s or table.over, what="the play on the page")
            time.sleep(0.05)
        stored = phones.web.store.load(table.game_id)
        expected = terminal_sentences(stored.setup, list(stored.actions))
        wait_for(lambda: len(said(driver)) >= len([e for e in expected if not e.startswith("The computers")]),
                 what="every sentence on the page")
        heard = said(driver)
        cut = next((i for i, line in enumerate(expected) if line.startswith("The computers play on")), None)
        if cut is None:
            assert heard == expected
        else:  # once the person is out the terminal says only the news; the phone says everything
            assert heard[:cut] == expected[:cut]
            rest = iter(heard[cut:])
            assert all(line in rest for line in expected[cut + 1:])
        assert (draws > 0) == manual
        # the sound switch, by keyboard: Space on it turns the sounds off (and draws nothing)
        switch = driver.find_element("id", "sound")
        switch.send_keys(Keys.SPACE)
        wait_for(lambda: driver.execute_script("return localStorage.getItem('t99-sounds');") == "off",
                 what="the sounds switched off")
        assert driver.execute_script("return window.__t99_mouse;") == 0
        print(f"keyboard game: {len(heard)} sentences, {choices} Ace/10 choices, {draws} draws by keys")
    finally:
        browsers.give_back(driver)
