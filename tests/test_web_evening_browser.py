"""The web display in headless Chromium through a real evening (issue 32): the TV's board fits the
screen, scrolling regions take the keyboard's focus, chart labels and touch targets fit a phone, a
finished game does not say "Live", and axe-core finds no serious or critical violation on any page
state at phone, tablet and TV sizes in English and German.

axe-core is not a Python package: ``npm install axe-core`` into ``test-artifacts/axe/`` (ignored by
git) or point ``TABLE99_AXE`` at its ``axe.min.js``. Without it the axe test skips and says how."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.board99.game import Board99Game, TableSetup
from rules import board99 as rules
from tests.web_support import WebTable, make_driver, quit_driver, wait_for

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "web-evening"
AXE = Path(os.environ.get("TABLE99_AXE") or ROOT / "test-artifacts/axe/node_modules/axe-core/axe.min.js")
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


# -- 3: the TV's board fits the screen -----------------------------------------------------------------
def test_the_tv_page_shows_all_100_squares_and_the_count_without_scrolling(web_table: WebTable) -> None:
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    game = long_board_game(web_table)
    keeper = KeptGame.create(web_table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    for card in ("5", "K", "9", "4", "2", "3", "6", "7", "8") * 3:
        if keeper.table.count < 80:
            keeper.play(card)
    kept = keeper.game_id
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, size in TV_SIZES.items():
        driver = make_driver(size=size)
        try:
            open_page(driver, f"{web_table.base}/game/{game.id}?tv")
            fit = driver.execute_script("""
                const squares = [...document.querySelectorAll("g.sq rect:first-child")]
                  .map((r) => r.getBoundingClientRect());
                const board = document.querySelector("svg.board").getBoundingClientRect();
                return {squares: squares.length, inside: squares.filter((r) => r.top >= 0 && r.left >= 0 &&
                          r.bottom <= innerHeight && r.right <= innerWidth).length,
                        bottom: board.bottom, right: board.right, height: innerHeight, width: innerWidth,
                        scrollHeight: document.documentElement.scrollHeight,
                        scrollWidth: document.documentElement.scrollWidth};""")
            print(name, json.dumps(fit))
            driver.save_screenshot(str(ARTIFACTS / f"board99-{name}.png"))
            assert fit["squares"] == 100 and fit["inside"] == 100, (name, fit)
            assert fit["scrollHeight"] <= fit["height"] and fit["scrollWidth"] <= fit["width"], (name, fit)
            assert fit["bottom"] > 0.8 * fit["height"], (name, fit)  # and it is big: the TV's point
            open_page(driver, f"{web_table.base}/game/{kept}?tv")  # the count too, beside its long log
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.save_screenshot(str(ARTIFACTS / f"count99-{name}.png"))
            assert height <= size[1], (name, "count99", height)
        finally:
            quit_driver(driver)


# -- 2: scrolling regions are reached by the keyboard -------------------------------------------------------
def test_a_long_log_and_a_wide_deals_table_take_the_focus(web_table: WebTable) -> None:
    game = long_board_game(web_table)
    parlett = parlett_game(web_table)
    driver = make_driver(size=(390, 844))
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
        quit_driver(driver)


# -- 6: chart labels, touch targets, a finished game -------------------------------------------------------
def test_chart_labels_and_links_fit_a_phone_and_a_finished_game_is_not_live(web_table: WebTable) -> None:
    parlett = parlett_game(web_table)
    won = won_board_game(web_table)
    for size in ((390, 844), (1024, 768)):
        driver = make_driver(size=size)
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
            quit_driver(driver)


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


def test_axe_finds_no_serious_or_critical_violation(web_table: WebTable) -> None:
    if not AXE.is_file():
        pytest.skip(f"axe-core not found at {AXE}: `npm install axe-core` in test-artifacts/axe/ "
                    "(or set TABLE99_AXE to its axe.min.js)")
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    axe = AXE.read_text(encoding="utf-8")
    long_game = long_board_game(web_table)
    won = won_board_game(web_table)
    parlett = parlett_game(web_table)
    kept = KeptGame.create(web_table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    for card in ("5", "K", "9", "4"):
        kept.play(card)
    pages = {"board99-long": f"/game/{long_game.id}", "board99-won": f"/game/{won.id}",
             "parlett": f"/game/{parlett}", "count99": f"/game/{kept.game_id}", "home": "/", "pair": "/pair"}
    sizes = {"phone": ((390, 844), ("en", "de")), "tablet": ((1024, 768), ("en", "de")),
             "tv-720": ((1280, 720), ("en",)), "tv-1080": ((1920, 1080), ("en", "de")),
             "tv-2160": ((3840, 2160), ("en",))}
    found: list[str] = []
    checked = 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size_name, (size, languages) in sizes.items():
        for lang in languages:
            driver = make_driver(language=lang, size=size)
            try:
                driver.set_script_timeout(60)
                if not size_name.startswith("tv"):
                    pair_driver(driver, web_table)  # the paired pages: the deal form, the card buttons
                for name, path in pages.items():
                    tv = "?tv" if size_name.startswith("tv") and name not in ("pair", "home") else ""
                    if tv == "" and size_name.startswith("tv") and name in ("pair", "home"):
                        continue
                    open_page(driver, web_table.base + path + tv, live=name not in ("home", "pair"))
                    full_screenshot(driver, ARTIFACTS / f"{name}-{size_name}-{lang}.png")  # to look at
                    # against the device's width: a phone's emulated viewport widens to its content
                    wide = driver.execute_script("return document.documentElement.scrollWidth") - size[0]
                    if wide > 1:  # a phone never scrolls sideways (the paired deal form did)
                        found.append(f"{name} {size_name} {lang}: {wide} px wider than the screen")
                    driver.execute_script(axe)
                    result = driver.execute_async_script(
                        "const done = arguments[arguments.length - 1];"
                        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations"
                        ".map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
                        " target: v.nodes[0].target.join(' ')}))));")
                    checked += 1
                    for v in result:
                        if v["impact"] in ("serious", "critical"):
                            found.append(f"{name} {size_name} {lang}: {v['id']} ({v['impact']}, "
                                         f"{v['nodes']} nodes, e.g. {v['target']})")
            finally:
                quit_driver(driver)
    print(f"axe-core: {checked} page states, {len(found)} serious or critical violations")
    assert not found, "\n".join(found)
