"""The web display in headless Chromium through a real evening (issue 32): the TV's board fits the
screen, scrolling regions take the keyboard's focus, chart labels and touch targets fit a phone, a
finished game does not say "Live", and axe-core finds no serious or critical violation on any page
state at phone, tablet and TV sizes in English and German.

axe-core is not a Python package: ``bash scripts/setup dev`` installs it from npm into
``test-artifacts/axe/`` (ignored by git), or ``TABLE99_AXE`` names its ``axe.min.js``
(tests/web_support.need_axe)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.board99.game import Board99Game, TableSetup
from rules import board99 as rules
from tests.browser_pool import BrowserPool
from tests.web_support import (
    WebTable,
    need_axe,
    serious_violations,
    set_size,
    wait_for,
)

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "web-evening"
TV_SIZES = {"tv-720": (1280, 720), "tv-1080": (1920, 1080), "tv-2160": (3840, 2160)}


@pytest.fixture
def web_table(tmp_path: Path) -> Iterator[WebTable]:
    table = WebTable(tmp_path)
    yield table
    table.close()


def commit(game: Board99Game, action: Any) -> None:
    state, _ = rules.apply(game.state, action)
    game.commit(action, state)


def long_board_game(table: WebTable, turns: int = 24, penalties: int = 12) -> Board99Game:
    """Ann's pegs on squares of even row and column, Ben's on odd ones: nobody gets five in a row,
    and each turn adds a log line or two, so the log scrolls; then ``penalties`` draws out of turn."""
    game = Board99Game.create(table.store, rules.make_setup(["Ann", "Ben"], layout="rows"),
                              TableSetup({"Ann": "red", "Ben": "yellow"}))
    squares = {"Ann": iter([r * 10 + c for r in range(0, 10, 2) for c in range(0, 10, 2)]),
               "Ben": iter([r * 10 + c for r in range(1, 10, 2) for c in range(1, 10, 2)])}
    commit(game, rules.Draw("Ann"))
    commit(game, rules.Draw("Ben"))
    commit(game, rules.Draw("Ben"))  # out of turn: a penalty
    played = 0
    while played < turns:
        player = game.state.to_move
        assert player is not None
        if game.state.hand_count(player) == 0:  # a draw is the player's turn
            commit(game, rules.Draw(player))
        else:
            square = next(squares[player])
            commit(game, rules.Play(player, square, square))
            played += 1
    for _ in range(penalties):  # a draw out of turn each: the TV's side column is full
        commit(game, rules.Draw("Ben" if game.state.to_move == "Ann" else "Ann"))
    assert game.state.outcome is None
    return game


def won_board_game(table: WebTable) -> Board99Game:
    game = Board99Game.create(table.store, rules.make_setup(["Ann", "Ben"], layout="rows"),
                              TableSetup({"Ann": "red", "Ben": "yellow"}))
    cards = {"Ann": iter(range(10, 15)), "Ben": iter(range(60, 70))}
    commit(game, rules.Draw("Ann"))
    commit(game, rules.Draw("Ben"))
    while game.state.outcome is None:
        player = game.state.to_move
        assert player is not None
        if game.state.hand_count(player) == 0:
            commit(game, rules.Draw(player))
        else:
            card = next(cards[player])
            commit(game, rules.Play(player, card, card))
    return game


def parlett_game(table: WebTable, deals: int = 6) -> int:
    """A long name and a two-digit total: the chart's end label is "Annemarie 57"-long."""
    from app.games.parlett.game import ParlettSession

    session = ParlettSession.new(table.store, "three", ["Annemarie", "Ben", "Cat"], "Cat", {})
    for _ in range(deals):
        session.add_deal({"bids": {"Annemarie": 3, "Ben": 3, "Cat": 2},
                          "tricks": {"Annemarie": 3, "Ben": 4, "Cat": 2}})
    return session.game_id


def open_page(driver: Any, url: str, live: bool = True) -> None:
    driver.get(url)
    if live:
        wait_for(lambda: driver.find_element("css selector", ".connection.ok"), what="the page following")


# -- 3: every TV page fits the screen ---------------------------------------------------------------------
# The page against the window (document.scrollingElement: what a TV would scroll), the board's 100
# squares and Parlett's standing (every hand's row) inside the window, and Parlett's standing whole
# in its own column (it may scroll there only as a last resort, and does not on these pages).
TV_FIT = """
const page = document.scrollingElement;
const inside = (r) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5
                      && r.right <= innerWidth + 0.5;
const squares = [...document.querySelectorAll("g.sq rect:first-child")].map((r) => r.getBoundingClientRect());
const hands = [...document.querySelectorAll("table.totals tbody tr")].map((r) => r.getBoundingClientRect());
const board = document.querySelector("svg.board");
const standing = document.querySelector(".standing");
return {width: innerWidth, height: innerHeight,
        scrollWidth: page.scrollWidth, scrollHeight: page.scrollHeight,
        squares: squares.length, squaresInside: squares.filter(inside).length,
        boardBottom: board ? board.getBoundingClientRect().bottom : null,
        hands: hands.length, handsInside: hands.filter(inside).length,
        standingCut: standing ? standing.scrollHeight > standing.clientHeight + 1 : false};"""


def parlett_pages(table: WebTable) -> dict[str, int]:
    """Parlett as a TV shows it: three hands mid-rubber, five with long names, a finished rubber."""
    from app.games.parlett.game import ParlettSession
    from tests.club_pages_support import parlett_seated

    five = ParlettSession.new(table.store, "five", ["Maximiliane Alexandra von Hohenzollern", "Bartholomew",
                                                    "Cat", "Dan", "Eve"], "Eve", {})
    for _ in range(4):
        five.add_deal({"bids": dict.fromkeys(five.sheet.table.players, 2),
                       "tricks": {"Maximiliane Alexandra von Hohenzollern": 3, "Bartholomew": 2, "Cat": 2,
                                  "Dan": 1, "Eve": 1}})
    done = parlett_seated(table.store, ["Annemarie", "Ben", "Cat"], 4)
    return {"parlett": parlett_game(table), "parlett-five": five.game_id, "parlett-won": done}


def test_every_tv_page_fits_the_screen_without_scrolling(browsers: BrowserPool, web_table: WebTable) -> None:
    """Parlett's TV page scrolled (1966 px on 720, 2829 on 1080, 5419 on 2160); the board's bottom
    row was cut off before that. Now the board game, Parlett (3 and 5 hands, a finished rubber) and
    Ninety Nine fit 1280x720, 1920x1080 and 3840x2160 in English and German."""
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup
    game = long_board_game(web_table)
    keeper = KeptGame.create(web_table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    for card in ("5", "K", "9", "4", "2", "3", "6", "7", "8") * 3:
        if keeper.table.count < 80:
            keeper.play(card)
    pages = {"board99": game.id, "count99": keeper.game_id, **parlett_pages(web_table)}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    wrong = []
    driver = browsers.take(size=TV_SIZES["tv-1080"])  # one browser, resized: the sizes are emulated anyway
    try:
        for size_name, (width, height) in TV_SIZES.items():
            set_size(driver, width, height)
            for lang in ("en", "de"):
                for name, game_id in pages.items():
                    open_page(driver, f"{web_table.base}/game/{game_id}?tv&lang={lang}")
                    fit = driver.execute_script(TV_FIT)
                    print(name, size_name, lang, json.dumps(fit))
                    driver.save_screenshot(str(ARTIFACTS / f"{name}-{size_name}-{lang}.png"))
                    where = f"{name} {size_name} {lang}"
                    if fit["scrollHeight"] > height or fit["scrollWidth"] > width:
                        wrong.append(f"{where}: page {fit['scrollWidth']}x{fit['scrollHeight']}")
                    squares, bottom = fit["squaresInside"], fit["boardBottom"]
                    if name == "board99" and (squares != 100 or bottom < 0.8 * height):  # all, and big
                        wrong.append(f"{where}: {squares} of 100 squares, board ends at {bottom:.0f} px")
                    hands, inside = fit["hands"], fit["handsInside"]
                    if name.startswith("parlett") and (hands < 3 or inside != hands or fit["standingCut"]):
                        wrong.append(f"{where}: {inside} of {hands} hands' totals on screen"
                                     f"{' (standing scrolls)' if fit['standingCut'] else ''}")
    finally:
        browsers.give_back(driver)
    assert not wrong, "\n".join(wrong)


# -- 2: scrolling regions are reached by the keyboard -------------------------------------------------------
def test_a_long_log_and_a_wide_deals_table_take_the_focus(browsers: BrowserPool, web_table: WebTable) -> None:
    game = long_board_game(web_table)
    parlett = parlett_game(web_table)
    driver = browsers.take(size=(390, 844))
    try:
        open_page(driver, f"{web_table.base}/game/{game.id}")
        log = driver.find_element("css selector", ".log ol")
        assert driver.execute_script("return arguments[0].scrollHeight > arguments[0].clientHeight", log)
        assert log.get_attribute("tabindex") == "0" and log.get_attribute("aria-labelledby") == "log-h"
        open_page(driver, f"{web_table.base}/game/{parlett}")
        deals = driver.find_element("css selector", "table.deals")
        assert driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", deals)
        assert deals.get_attribute("tabindex") == "0"
        totals = driver.find_element("css selector", "table.totals")  # fits: no needless tab stop
        assert not driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", totals)
        assert totals.get_attribute("tabindex") is None
    finally:
        browsers.give_back(driver)


def test_a_paired_phones_deal_form_fits_the_phone(browsers: BrowserPool, web_table: WebTable) -> None:
    """The deal form was a table whose Premium column lay beyond a phone's edge (480 px of 342 in
    English, 585 in German): now each player's bid, tricks and premium fit the phone's width, each
    with its visible label, in either language and with five hands."""
    from app.games.parlett.game import ParlettSession

    three = parlett_game(web_table)
    five = ParlettSession.new(web_table.store, "five", ["Annemarie", "Bartholomew", "Cat", "Dan", "Eve"],
                              "Eve", {}).game_id
    driver = browsers.take(size=(390, 844))
    try:
        pair_driver(driver, web_table)
        for lang in ("en", "de"):
            for game_id in (three, five):
                open_page(driver, f"{web_table.base}/game/{game_id}?lang={lang}")
                form = driver.execute_script("""
                    const form = document.getElementById("deal-form");
                    const controls = [...form.querySelectorAll("input, select, button")];
                    const box = (c) => c.getBoundingClientRect();
                    const out = (c) => box(c).right > 390 || box(c).left < 0;
                    const scrolls = (e) => e.scrollWidth > e.clientWidth + 1
                                           && getComputedStyle(e).overflowX !== "visible";
                    return {page: document.scrollingElement.scrollWidth, controls: controls.length,
                            beyond: controls.filter(out).map((c) => c.name),
                            scrolls: [...form.querySelectorAll("*")].filter(scrolls).map((e) => e.tagName),
                            unlabelled: controls.filter((c) => c.labels !== null && c.tagName !== "BUTTON"
                                                         && c.labels.length === 0).map((c) => c.name)};""")
                where = f"{lang}, game {game_id}"
                assert form["page"] <= 390, (where, form)
                assert form["beyond"] == form["scrolls"] == form["unlabelled"] == [], (where, form)
                premiums = driver.find_elements("css selector", "#deal-form select[name^='premium-']")
                assert len(premiums) >= 3 and all(p.is_displayed() for p in premiums), where
    finally:
        browsers.give_back(driver)


# -- 6: chart labels, touch targets, a finished game -------------------------------------------------------
def test_chart_labels_and_links_fit_a_phone_and_a_finished_game_is_not_live(web_table: WebTable,
                                                                            browsers: BrowserPool) -> None:
    parlett = parlett_game(web_table)
    won = won_board_game(web_table)
    for size in ((390, 844), (1024, 768)):
        driver = browsers.take(size=size)
        try:
            open_page(driver, f"{web_table.base}/game/{parlett}")
            cut = driver.execute_script("""
                const svg = document.querySelector("svg.chart").getBoundingClientRect();
                return [...document.querySelectorAll("svg.chart text")].filter((t) =>
                  t.getBoundingClientRect().right > svg.right + 0.5).map((t) => t.textContent);""")
            assert cut == [], (size, cut)
            labels = [t.text for t in driver.find_elements("css selector", "svg.chart text")]
            assert any(label.startswith("Annemarie ") and len(label) > 11 for label in labels), labels
            open_page(driver, f"{web_table.base}/", live=False)
            small = driver.execute_script("""
                return [...document.querySelectorAll("main a, nav a")].map((a) => a.getBoundingClientRect())
                  .filter((r) => r.width < 48 || r.height < 48).map((r) => [r.width, r.height]);""")
            assert small == [], (size, small)
            open_page(driver, f"{web_table.base}/game/{won.id}")
            connection = driver.find_element("id", "connection").text
            assert "Final result" in connection and "Live" not in connection
        finally:
            browsers.give_back(driver)


def full_screenshot(driver: Any, path: Path) -> None:
    """The whole page, below the fold too (a phone's chart and card buttons)."""
    import base64

    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))


# -- axe-core over every page state at every size, in English and German ---------------------------------
def pair_driver(driver: Any, table: WebTable) -> None:
    code, _ = table.access.new_code()
    driver.get(f"{table.base}/pair?code={code}")
    driver.find_element("css selector", "#pair-form button").click()
    wait_for(lambda: driver.current_url.endswith("/live"), what="paired")


def test_axe_finds_no_serious_or_critical_violation(browsers: BrowserPool, web_table: WebTable) -> None:
    """Every page state the tests reach (long log, finished game, Parlett with 3 and 5 hands and
    finished, the count, the games list, pairing; paired on a phone and a tablet, as a TV shows them
    at 1280x720, 1920x1080 and 3840x2160), in English and German, in one browser: axe-core finds no
    serious or critical violation, and no phone page is wider than the phone."""
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    axe = need_axe()
    long_game = long_board_game(web_table)
    won = won_board_game(web_table)
    kept = KeptGame.create(web_table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    for card in ("5", "K", "9", "4"):
        kept.play(card)
    games = {"board99-long": long_game.id, "board99-won": won.id, "count99": kept.game_id,
             **parlett_pages(web_table)}
    pages = {name: f"/game/{game_id}" for name, game_id in games.items()} | {"home": "/", "pair": "/pair"}
    # the TVs first, not paired (as a TV is); then paired, the phone and the tablet
    sizes = {"tv-720": (1280, 720), "tv-1080": (1920, 1080), "tv-2160": (3840, 2160),
             "phone": (390, 844), "tablet": (1024, 768)}
    found: list[str] = []
    checked = 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver = browsers.take(size=sizes["tv-1080"])
    try:
        driver.set_script_timeout(60)
        for size_name, size in sizes.items():
            set_size(driver, *size)
            if size_name == "phone":
                pair_driver(driver, web_table)  # the paired pages: the deal form, the card buttons
            for lang in ("en", "de"):
                for name, path in pages.items():
                    live = name not in ("home", "pair")
                    tv = "tv&" if size_name.startswith("tv") and live else ""
                    open_page(driver, f"{web_table.base}{path}?{tv}lang={lang}", live=live)
                    if size_name != "tv-2160":  # to look at (a 4K screenshot is 4x the pixels)
                        full_screenshot(driver, ARTIFACTS / f"{name}-{size_name}-{lang}.png")
                    # against the device's width: a phone's emulated viewport widens to its content
                    wide = driver.execute_script("return document.documentElement.scrollWidth") - size[0]
                    if wide > 1:  # a phone never scrolls sideways (the paired deal form did)
                        found.append(f"{name} {size_name} {lang}: {wide} px wider than the screen")
                    found += [f"{name} {size_name} {lang}: {v}" for v in serious_violations(driver, axe)]
                    checked += 1
    finally:
        browsers.give_back(driver)
    print(f"axe-core: {checked} page states, {len(found)} serious or critical violations")
    assert checked == len(sizes) * 2 * len(pages) and not found, "\n".join(found)
