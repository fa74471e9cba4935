"""Audit findings in Chromium (issue 33), each a test that guards its fix: focus kept through
redraws, one card per double tap, every sentence on the TV, Shift+1-3 and Space, the host's count of
wrong codes. The 48 px touch targets are measured on every page state of the English and German sweep
in tests/test_phones_pages_browser.py; the other findings are in tests/test_phones_audit_findings.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rules.count99.cards import Variant, choices_for
from tests.browser_pool import BrowserPool
from tests.phones_browser_support import join_in_browser, page_seq
from tests.phones_web_support import PhonesWeb
from tests.web_support import wait_for

pytestmark = pytest.mark.slow


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[PhonesWeb]:
    web = PhonesWeb(tmp_path)
    yield web
    web.close()


def test_focus_on_a_card_survives_another_seats_play(browsers: BrowserPool, phones: PhonesWeb) -> None:
    table = phones.open_table(people=2, computers=0, hand_size=5, tokens=9)
    driver = browsers.take(size=(390, 844))
    try:
        url = f"{phones.base}/phones/{table.table_id}"
        join_in_browser(driver, url, table, 0, "Bea")
        ben, ben_csrf = phones.join(table, 1, "Ben")
        assert phones.host(table, op="start")[0] == 200
        game = table.game
        assert game is not None
        if game.table.turn == 0:  # Bea plays first (as the server does for her), so it is Ben's turn
            slot, choice = game.view(0).options()[0]
            table.play(0, slot, choice)
        wait_for(lambda: page_seq(driver) == table.seq, what="the page to catch up")
        driver.execute_script("document.querySelector('#hand button.card-btn').focus();")
        assert driver.execute_script("return document.activeElement.classList.contains('card-btn');")
        seq = table.seq
        slot, choice = game.view(1).options()[0]
        status, data = phones.act(table, ben, ben_csrf, op="play", slot=slot, choice=choice)
        assert status == 200, data
        wait_for(lambda: page_seq(driver) > seq, what="Ben's play on Bea's page")
        focused = driver.execute_script(
            "const a = document.activeElement; return a.tagName + ' ' + a.className;")
        assert "card-btn" in focused, focused
    finally:
        browsers.give_back(driver)


def _seed_where_bea_starts(hand_size: int, holds: Callable[[Variant, list[str]], bool]) -> int:
    """A deal where Bea (seat 0) is to play first and her hand ``holds`` what a test needs."""
    from rules.count99.deal import CardGame
    from rules.count99.table import Setup

    setup = Setup(Variant.QUENTIN_C, ("Bea", "Computer 1"), tokens=9, hand_size=hand_size)
    for seed in range(1000):
        game = CardGame(setup, seed=seed)
        game.advance()
        if game.table.turn == 0 and holds(setup.variant, list(game.hands[0])):
            return seed
    raise AssertionError("no such seed")


def _seed_where_bea_starts_with_a_jack() -> int:
    return _seed_where_bea_starts(5, lambda _variant, hand: "J" in hand)


def test_a_double_tap_on_a_card_plays_one_card(browsers: BrowserPool, phones: PhonesWeb) -> None:
    import time

    from selenium.webdriver.common.action_chains import ActionChains

    table = phones.open_table(people=1, computers=1, hand_size=5, tokens=9, computer_pause=5.0)
    driver = browsers.take(size=(390, 844))
    try:
        join_in_browser(driver, f"{phones.base}/phones/{table.table_id}", table, 0, "Bea")
        table.start(seed=_seed_where_bea_starts_with_a_jack())
        wait_for(lambda: page_seq(driver) == table.seq, what="the page to catch up")
        jack = next(b for b in driver.find_elements("css selector", "#hand button.card-btn")
                    if b.get_attribute("data-card") == "J")
        ActionChains(driver).double_click(jack).perform()
        wait_for(lambda: table.snapshot["plays"], what="the Jack played")
        time.sleep(1.0)  # a second request, if any, has arrived
        assert [p["card"] for p in table.snapshot["plays"]] == ["J"], table.snapshot["plays"]
    finally:
        browsers.give_back(driver)


def _seed_where_bea_starts_with_a_choice() -> int:
    """An Ace or a 10 in her hand: two buttons at count 0."""
    return _seed_where_bea_starts(
        5, lambda variant, hand: any(len(choices_for(variant, c, 0)) == 2 for c in hand)
    )


def test_enter_on_an_aces_choice_leaves_the_focus_in_the_hand(phones: PhonesWeb,
                                                              browsers: BrowserPool) -> None:
    from selenium.webdriver.common.keys import Keys

    table = phones.open_table(people=1, computers=1, hand_size=5, tokens=9, computer_pause=5.0)
    driver = browsers.take(size=(390, 844))
    try:
        join_in_browser(driver, f"{phones.base}/phones/{table.table_id}", table, 0, "Bea")
        table.start(seed=_seed_where_bea_starts_with_a_choice())
        wait_for(lambda: page_seq(driver) == table.seq, what="the page to catch up")
        seq = table.seq
        choice = driver.find_element("css selector", "#hand button[data-choice]")
        driver.execute_script("arguments[0].focus();", choice)
        choice.send_keys(Keys.ENTER)
        wait_for(lambda: page_seq(driver) > seq, what="the play on Bea's page")
        focused = driver.execute_script(
            "const a = document.activeElement; return a.tagName + ' ' + a.className + ' ' + a.id;")
        assert "card-btn" in focused, focused  # the card now in that place, not <body>
    finally:
        browsers.give_back(driver)


def test_the_hosts_focus_stays_on_a_seats_control_when_the_seats_change(phones: PhonesWeb,
                                                                        browsers: BrowserPool) -> None:
    from selenium.webdriver.common.keys import Keys

    table = phones.open_table(people=2, computers=1, hand_size=3, tokens=9)
    driver = browsers.take()
    try:
        code, _seconds = phones.web.access.new_code()
        driver.get(f"{phones.base}/pair?code={code}")
        driver.execute_script("document.querySelector('#pair-form button').click();")
        wait_for(lambda: "/live" in driver.current_url, what="the host paired")
        driver.get(f"{phones.base}/phones/{table.table_id}/host")
        wait_for(lambda: page_seq(driver) >= 0, what="the host's page")
        button = driver.find_element("xpath", "//button[normalize-space()='New code for seat 1']")
        driver.execute_script("arguments[0].focus();", button)
        seq = table.seq
        button.send_keys(Keys.ENTER)  # a new code: the seat rows are drawn again
        wait_for(lambda: page_seq(driver) > seq, what="the new code on the host's page")
        phones.join(table, 1, "Ben")  # another seat changes too
        wait_for(lambda: page_seq(driver) == table.seq, what="Ben's joining on the host's page")
        focus = driver.execute_script("return document.activeElement.textContent;")
        assert focus == "New code for seat 1", focus
    finally:
        browsers.give_back(driver)


def test_the_tv_announces_every_sentence_of_a_change(browsers: BrowserPool, phones: PhonesWeb) -> None:
    """The start says two sentences ("Round 1. Ann starts.", "3 cards each are dealt."): both reach
    the TV's live region, not only the last."""
    from app.games.views import Tr

    table = phones.open_table(people=1, computers=1, hand_size=3, tokens=9, computer_pause=5.0)
    phones.join(table, 0, "Ann")
    driver = browsers.take(size=(1280, 720))
    try:
        driver.get(f"{phones.base}/phones/{table.table_id}?tv")
        wait_for(lambda: page_seq(driver) == table.seq, what="the TV's page")
        seq = table.seq
        table.start(seed=1)
        wait_for(lambda: page_seq(driver) == table.seq, what="the start on the TV")
        expected = [text for _seq, text in table.sentences(None, seq, Tr("en"))]
        assert len(expected) >= 2
        live = driver.execute_script(
            "const r = document.querySelector('[aria-live]:not(#say):not(#connection)');"
            "return [r.getAttribute('role'), r.textContent];")
        assert all(text in live[1] for text in expected), (live, expected)
    finally:
        browsers.give_back(driver)


def _seed_where_bea_starts_with_13_plain_cards() -> int:
    return _seed_where_bea_starts(13, lambda variant, hand: len(choices_for(variant, hand[12], 0)) < 2)


def test_shift_3_plays_the_13th_card_and_space_draws_nothing_in_an_automatic_game(
        phones: PhonesWeb, browsers: BrowserPool) -> None:
    import time

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    table = phones.open_table(people=1, computers=1, hand_size=13, tokens=9, computer_pause=5.0)
    driver = browsers.take(size=(390, 844))
    try:
        join_in_browser(driver, f"{phones.base}/phones/{table.table_id}", table, 0, "Bea")
        table.start(seed=_seed_where_bea_starts_with_13_plain_cards())
        wait_for(lambda: page_seq(driver) == table.seq, what="the page to catch up")
        game = table.game
        assert game is not None
        thirteenth = game.hands[0][12]
        driver.execute_script("document.activeElement.blur(); document.querySelector('.said-box').focus();")
        time.sleep(0.5)  # the turn's prompt is in the status line
        ActionChains(driver).send_keys(Keys.SPACE).perform()  # on the log: scrolls, sends nothing
        time.sleep(0.5)
        answer = driver.find_element("id", "say").text  # a draw sent would be refused: "automatically"
        assert answer == "Your turn. Count 0.", answer
        driver.execute_script("document.activeElement.blur();")
        ActionChains(driver).key_down(Keys.SHIFT).send_keys("3").key_up(Keys.SHIFT).perform()
        wait_for(lambda: table.snapshot["plays"], what="the 13th card played")
        assert [p["card"] for p in table.snapshot["plays"]] == [thirteenth]
    finally:
        browsers.give_back(driver)


def test_the_host_sees_wrong_codes_typed_at_the_table(browsers: BrowserPool, phones: PhonesWeb) -> None:
    from app.games.count99.phones import JoinRefused

    table = phones.open_table(people=2, computers=0)
    driver = browsers.take()
    try:
        code, _seconds = phones.web.access.new_code()
        driver.get(f"{phones.base}/pair?code={code}")
        driver.execute_script("document.querySelector('#pair-form button').click();")
        wait_for(lambda: "/live" in driver.current_url, what="the host paired")
        driver.get(f"{phones.base}/phones/{table.table_id}/host")
        wait_for(lambda: page_seq(driver) >= 0, what="the host's page")
        assert not driver.find_element("id", "wrong-codes").is_displayed()
        for _ in range(3):
            right = table.seats[0].code
            with pytest.raises(JoinRefused):
                table.join(0, "0000" if right != "0000" else "1111", "Guess")
        wait_for(lambda: page_seq(driver) == table.seq, what="the wrong codes on the host's page")
        shown = driver.find_element("id", "wrong-codes")
        assert shown.is_displayed() and shown.text == "Wrong codes typed at this table: 3.", shown.text
    finally:
        browsers.give_back(driver)
