"""The web display in a real headless Chromium: play by play, reconnecting, German, aria-live, screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.board99.game import Board99Game, TableSetup
from rules import board99 as rules
from tests.browser_pool import BrowserPool
from tests.web_support import SIZES, WebTable, wait_for

pytestmark = pytest.mark.slow
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "web"


@pytest.fixture
def web_table(tmp_path: Path) -> Iterator[WebTable]:
    table = WebTable(tmp_path)
    yield table
    table.close()


def commit(game: Board99Game, action: Any) -> None:
    """What the referee does for an accepted action: check with the rules, then commit. (A turn is
    a draw or a play; a physical deal's cards are unknown until played.)"""
    state, _ = rules.apply(game.state, action)
    game.commit(action, state)


def new_board_game(table: WebTable) -> Board99Game:
    return Board99Game.create(table.store, rules.make_setup(["Ann", "Ben"], layout="rows"),
                              TableSetup({"Ann": "red", "Ben": "yellow"}))


def announced_text(driver: Any) -> str:
    return str(driver.find_element("id", "announce").get_attribute("textContent"))


def peg_on(driver: Any, square: int) -> str | None:
    found = driver.find_elements("css selector", f'g[data-square="{square}"] circle.peg')
    return found[0].get_attribute("data-player") if found else None


def test_a_board_game_played_at_the_table_appears_play_by_play(web_table: WebTable,
                                                               browsers: BrowserPool) -> None:
    game = new_board_game(web_table)
    driver = browsers.take()
    try:
        driver.get(web_table.base + "/live")
        wait_for(lambda: "Ann" in driver.find_element("css selector", ".turn").text, what="Ann's turn")
        commit(game, rules.Draw("Ann"))
        commit(game, rules.Draw("Ben"))
        plays = [("Ann", 30, 30), ("Ben", 31, 41), ("Ann", 22, 22)]
        for turn, (who, card, square) in enumerate(plays):
            if turn == 2:
                commit(game, rules.Draw("Ann"))
                commit(game, rules.Draw("Ben"))
            commit(game, rules.Play(who, card, square))
            wait_for(lambda s=square, w=who: peg_on(driver, s) == w, what=f"{who}'s peg on {square}")
            last = driver.find_element("css selector", "g.sq.last")
            assert last.get_attribute("data-square") == str(square)  # the last play, highlighted
            sentence = f"{who} played card {card} on square {square}."
            wait_for(lambda t=sentence: t in announced_text(driver), what="the play announced")
            announced = driver.find_element("id", "announce").get_attribute("textContent")
            assert announced.count("played card") == 1, announced  # each play once, not the history
            assert sentence in driver.find_element("css selector", ".log").text
        # the peg carries a letter besides its colour
        letter = driver.find_element("css selector", 'g[data-square="30"] text.peg-letter').text
        assert letter == "A"
        assert "Ben" in driver.find_element("css selector", ".banner.turn").text
    finally:
        browsers.give_back(driver)


def test_a_page_reconnects_after_the_server_restarts(browsers: BrowserPool, web_table: WebTable) -> None:
    game = new_board_game(web_table)
    commit(game, rules.Draw("Ann"))
    commit(game, rules.Draw("Ben"))
    driver = browsers.take()
    try:
        driver.get(web_table.base + "/live")
        wait_for(lambda: driver.find_element("css selector", ".connection.ok"), what="connected")
        web_table.server.stop()
        wait_for(lambda: driver.find_element("css selector", ".connection.lost"), what="the page noticing")
        commit(game, rules.Play("Ann", 30, 30))  # while the server is down
        web_table.restart()
        wait_for(lambda: peg_on(driver, 30) == "Ann", timeout=20, what="the play made while it was down")
        wait_for(lambda: driver.find_element("css selector", ".connection.ok"), what="connected again")
        commit(game, rules.Play("Ben", 31, 41))
        wait_for(lambda: peg_on(driver, 41) == "Ben", what="a play after the restart")
    finally:
        browsers.give_back(driver)


def test_german_by_the_browser_language_and_the_switch_back(web_table: WebTable,
                                                            browsers: BrowserPool) -> None:
    game = new_board_game(web_table)
    commit(game, rules.Draw("Ann"))
    commit(game, rules.Draw("Ben"))
    driver = browsers.take(language="de-DE,de")
    try:
        driver.get(web_table.base + "/live")
        wait_for(lambda: driver.find_element("css selector", "html").get_attribute("lang") == "de")
        commit(game, rules.Play("Ann", 30, 30))
        wait_for(lambda: "Ann hat Karte 30 auf Feld 30 gespielt." in announced_text(driver),
                 what="German announcement")
        assert "Verlauf" in driver.find_element("css selector", ".log h2").text
        driver.find_element("link text", "English").click()
        wait_for(lambda: driver.find_element("css selector", "html").get_attribute("lang") == "en")
        assert "What happened" in driver.find_element("css selector", ".log h2").text
    finally:
        browsers.give_back(driver)


def won_board_game(table: WebTable) -> Board99Game:
    """Ann fills squares 10-14 (a row of the "rows" layout); Ben is penalised once on the way."""
    game = new_board_game(table)
    cards = {"Ann": iter(range(10, 15)), "Ben": iter(range(60, 70))}
    commit(game, rules.Draw("Ann"))
    commit(game, rules.Draw("Ben"))
    commit(game, rules.Draw("Ben"))  # out of turn: a penalty
    while game.state.outcome is None:
        player = game.state.to_move
        assert player is not None
        if game.state.hand_count(player) == 0:
            commit(game, rules.Draw(player))
        else:
            card = next(cards[player])
            commit(game, rules.Play(player, card, card))
    return game


def test_a_won_game_shows_the_winning_line_and_the_penalty(web_table: WebTable,
                                                           browsers: BrowserPool) -> None:
    game = won_board_game(web_table)
    driver = browsers.take()
    try:
        driver.get(f"{web_table.base}/game/{game.id}")
        wait_for(lambda: driver.find_element("css selector", ".banner.result"), what="the result")
        assert driver.find_element("css selector", ".banner.result").text == "Ann won!"
        squares = driver.find_elements("css selector", "g.sq.win")
        winning = sorted(int(e.get_attribute("data-square")) for e in squares)
        assert winning == [10, 11, 12, 13, 14]
        penalties = driver.find_element("css selector", ".penalties").text
        assert "Penalty for Ben: Drew out of turn." in penalties
    finally:
        browsers.give_back(driver)


def test_screenshots_of_every_page_at_phone_tablet_and_tv_sizes(web_table: WebTable,
                                                                browsers: BrowserPool) -> None:
    from app.games.count99.game import KeptGame
    from app.games.parlett.game import ParlettSession
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    game = new_board_game(web_table)
    commit(game, rules.Draw("Ann"))
    commit(game, rules.Draw("Ben"))
    for who, card, square in [("Ann", 30, 30), ("Ben", 31, 41), ("Ann", 22, 22), ("Ben", 45, 45)]:
        if who == "Ann" and card == 22:
            commit(game, rules.Draw("Ann"))
            commit(game, rules.Draw("Ben"))
        commit(game, rules.Play(who, card, square))
    won = won_board_game(web_table)
    parlett = ParlettSession.new(web_table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    parlett.add_deal({"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}})
    parlett.add_deal({"bids": {"Ann": 4, "Ben": 2, "Cat": 3}, "tricks": {"Ann": 4, "Ben": 3, "Cat": 2}})
    kept = KeptGame.create(web_table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    for card in ("5", "K", "9", "4"):
        kept.play(card)
    pages = {"board99": f"/game/{game.id}", "board99-won": f"/game/{won.id}",
             "parlett": f"/game/{parlett.game_id}",
             "count99": f"/game/{kept.game_id}", "home": "/", "pair": "/pair"}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size_name, size in SIZES.items():
        for lang in ("en", "de"):
            driver = browsers.take(language=lang, size=size)
            try:
                for name, path in pages.items():
                    tv = "?tv" if size_name == "tv" and name != "pair" else ""
                    driver.get(web_table.base + path + tv)
                    if name not in ("home", "pair"):
                        wait_for(lambda d=driver: d.find_element("css selector", ".connection.ok"),
                                 what="live")
                    # nothing wider than the screen: no sideways scrolling on a phone
                    # against the device's width: a phone's emulated viewport widens to its content,
                    # so window.innerWidth grew with a too-wide table and this never failed
                    width = driver.execute_script("return document.documentElement.scrollWidth")
                    assert width <= size[0] + 1, f"{name} at {size_name}: {width} > {size[0]}"
                    driver.save_screenshot(str(ARTIFACTS / f"{name}-{size_name}-{lang}.png"))
            finally:
                browsers.give_back(driver)


def test_pairing_works_with_the_keyboard_alone(browsers: BrowserPool, web_table: WebTable) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    code, _ = web_table.access.new_code()
    driver = browsers.take()
    try:
        driver.get(web_table.base + "/pair")
        focused: list[str] = []
        for _ in range(12):  # skip link, the header's links, then the form
            ActionChains(driver).send_keys(Keys.TAB).perform()
            active = driver.switch_to.active_element
            focused.append(active.get_attribute("id") or active.tag_name)
            if focused[-1] == "code":
                break
        assert focused[0] == "a" and focused[-1] == "code", focused
        ActionChains(driver).send_keys(code).send_keys(Keys.TAB).send_keys("Keyboard").send_keys(Keys.ENTER).perform()
        wait_for(lambda: driver.current_url.endswith("/live"), what="paired and on the live page")
        assert [d.name for d in web_table.access.device_list()] == ["Keyboard"]
    finally:
        browsers.give_back(driver)


def test_the_parlett_page_charts_the_running_totals_with_a_second_cue(web_table: WebTable,
                                                                      browsers: BrowserPool) -> None:
    """The table's Chart, on the web: one line per hand through its rubber total after each deal, each
    with its own dash pattern and its name at the end (colour is never the only cue), and the same
    numbers as text for a screen reader. The big number in the totals is the rubber standing."""
    from app.games.parlett.game import ParlettSession

    parlett = ParlettSession.new(web_table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    parlett.add_deal({"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}})
    parlett.add_deal({"bids": {"Ann": 4, "Ben": 2, "Cat": 3}, "tricks": {"Ann": 4, "Ben": 3, "Cat": 2}})
    sheet = parlett.sheet
    driver = browsers.take()
    try:
        driver.get(web_table.base + f"/game/{parlett.game_id}")
        wait_for(lambda: driver.find_element("css selector", "svg.chart"), what="the chart")
        lines = driver.find_elements("css selector", "svg.chart polyline")
        assert len(lines) == 3
        assert len({line.get_attribute("stroke-dasharray") for line in lines}) == 3
        assert all(len(line.get_attribute("points").split()) == 3 for line in lines)  # 0 and two deals
        labels = [t.text for t in driver.find_elements("css selector", "svg.chart text")]
        rubber = sheet.rubber_totals
        assert sorted(labels) == sorted(f"{hand} {rubber[hand]}" for hand in ("Ann", "Ben", "Cat"))
        desc = driver.find_element("id", "chart-desc").text
        for hand in ("Ann", "Ben", "Cat"):
            running = ", ".join(str(d.rubber_totals[hand]) for d in sheet.deals)
            assert f"{hand}: {running}" in desc
        big = [cell.text for cell in driver.find_elements("css selector", ".totals .big-num")]
        assert big == [str(rubber[hand]) for hand in ("Ann", "Ben", "Cat")]
    finally:
        browsers.give_back(driver)
