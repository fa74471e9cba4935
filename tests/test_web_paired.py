"""A paired tablet keeps the Parlett score through the table's own session: the deal appears on the
table's screen, survives a SIGKILL of the app, and the table can revoke the tablet."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.games.live import LiveTable
from app.games.parlett.game import ParlettSession
from app.paths import default_database
from app.store import GameStore
from tests.browser_pool import BrowserPool
from tests.ui_support import frames, walk
from tests.web_support import wait_for

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "web"
DEAL = {"Ann": (3, 3), "Ben": (3, 4), "Cat": (3, 2)}  # bids, tricks: only Ann makes it


def pair_and_enter_deal(driver: Any, pair_url: str, deal: dict[str, tuple[int, int]]) -> str:
    """What a person does on the tablet: open the pairing address, pair, type the deal, save."""
    driver.get(pair_url)
    driver.find_element("id", "name").send_keys("Card table tablet")
    driver.find_element("css selector", "#pair-form button").click()
    wait_for(lambda: driver.current_url.endswith("/live"), timeout=15, what="the live page after pairing")
    form = wait_for(lambda: driver.find_element("id", "deal-form"), what="the deal form")
    for index, (bid, tricks) in enumerate(deal.values()):
        form.find_element("name", f"bid-{index}").send_keys(str(bid))
        form.find_element("name", f"tricks-{index}").send_keys(str(tricks))
    form.find_element("css selector", "button[type=submit]").click()
    message = wait_for(lambda: (driver.find_element("css selector", ".form-message").text or "").strip()
                       not in ("", "…") and driver.find_element("css selector", ".form-message").text,
                       what="the answer")
    return str(message)


@pytest.mark.ui
def test_a_deal_entered_on_a_paired_page_appears_on_the_tables_screen(ui: Any, tmp_path: Path,
                                                                      browsers: BrowserPool) -> None:
    from app.config import Config
    from app.ui.shell import Table99App
    from app.web.pairing import Access
    from app.web.server import WebServer

    store = GameStore(default_database())
    session = ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    live = LiveTable(store)
    app = Table99App(Config(), store=store)
    app.live = live
    manager = app.build()
    manager.current = app.uis["parlett"].resume(session.game_id)
    ui.show(manager)
    assert manager.current == "parlett-totals"
    assert live.open_game is not None and live.open_game() == session.game_id  # /live follows it
    table_session = app.uis["parlett"].session
    server = WebServer(live, Access(tmp_path), "127.0.0.1", 0)
    server.start()
    try:
        code, _ = server.access.new_code()
        result: dict[str, Any] = {}

        def tablet() -> None:  # Selenium blocks: it runs beside Kivy's main thread, which keeps drawing
            driver = browsers.take()
            try:
                result["message"] = pair_and_enter_deal(driver, server.pair_url(code), DEAL)
                result["page"] = driver.find_element("css selector", ".totals").text
            except BaseException as exc:
                result["error"] = exc
            finally:
                browsers.give_back(driver)

        worker = threading.Thread(target=tablet)
        worker.start()
        deadline = time.monotonic() + 90
        while worker.is_alive() and time.monotonic() < deadline:
            frames(1)
            time.sleep(0.01)
        worker.join(5)
        if "error" in result:
            raise result["error"]
        assert result["message"] == "Saved."
        frames(3)
        # the table's own session took the deal (not a copy), and its screen shows it
        assert app.uis["parlett"].session is table_session and len(table_session.sheet.deals) == 1
        totals = {getattr(w, "hand", None): w.text for w in walk(manager.current_screen)
                  if getattr(w, "role", None) == "total"}
        expected = table_session.sheet.game_totals
        assert totals == {hand: str(points) for hand, points in expected.items()}
        assert expected["Ben"] != expected["Ann"]  # the deal really scored something
        assert store.load(session.game_id).actions[0]["tricks"] == {"Ann": 3, "Ben": 4, "Cat": 2}
        # revoke from the table's screen: the tablet's next change is refused
        screen = manager.get_screen("web-join")  # linked from the home screen
        manager.current = screen.name
        frames(3)
        assert any(server.view_url() == getattr(w, "text", None) for w in walk(screen))
        ui.screenshot("web-join-en")
        device = server.access.device_list()[0]
        assert device.name == "Card table tablet"
        screen.revoke(device.id)
        assert server.access.device_list() == []
        screen.new_code()
        frames(2)
        code = server.access.code_left()
        assert code is not None and any(code[0][:3] in getattr(w, "text", "") for w in walk(screen))
        ui.screenshot("web-join-pairing-en")
    finally:
        server.stop()


def test_a_deal_from_a_paired_page_survives_a_sigkill_of_the_app(tmp_path: Path,
                                                                 browsers: BrowserPool) -> None:
    data = tmp_path / "data"
    data.mkdir()
    store = GameStore(data / "games.sqlite3")
    game_id = ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat", {}).game_id
    store.close()
    env = {**os.environ, "TABLE99_DATA_DIR": str(data), "PYTHONUNBUFFERED": "1"}
    env.pop("TABLE99_CONFIG", None)
    command = [sys.executable, "-m", "app", "web", "--port", "0", "--bind", "127.0.0.1", "--pair"]
    app = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
    driver = None
    try:
        assert app.stdout is not None
        pair_url, port, printed = "", "", ""
        for _ in range(5):
            line = app.stdout.readline()
            printed += line
            port = port or next(iter(re.findall(r"listening on port (\d+)", line)), "")
            found = re.search(r"pairing code (\d{6}) ", line)
            if found:
                token = (data / "web-token").read_text().strip()
                pair_url = f"http://127.0.0.1:{port}/v/{token}/pair?code={found.group(1)}"
                break
        assert pair_url, "table99 web printed no pairing code"
        token = (data / "web-token").read_text().strip()
        assert token not in printed  # stdout is the journal under systemd: the token stays out of it
        driver = browsers.take()
        assert pair_and_enter_deal(driver, pair_url, DEAL) == "Saved."
        os.kill(app.pid, signal.SIGKILL)  # no chance to flush anything more
        app.wait(10)
    finally:
        if driver is not None:
            browsers.give_back(driver)
        if app.poll() is None:  # the test failed before the kill
            app.kill()
            app.wait(10)
    assert app.returncode == -signal.SIGKILL
    again = ParlettSession.load(GameStore(data / "games.sqlite3"), game_id)
    assert [d.entry.tricks for d in again.sheet.deals] == [{"Ann": 3, "Ben": 4, "Cat": 2}]


def test_a_paired_page_corrects_an_earlier_deal_and_declares_a_premium(tmp_path: Path,
                                                                       browsers: BrowserPool) -> None:
    from tests.test_web_security import Drained

    table = Drained(tmp_path)
    driver = browsers.take()
    try:
        session = ParlettSession.new(table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
        code, _ = table.access.new_code()
        assert pair_and_enter_deal(driver, table.server.pair_url(code), DEAL) == "Saved."
        # the second deal: Ann declares (plays with her hand open) and makes it
        form = wait_for(lambda: driver.find_element("id", "deal-form"), what="an empty form")
        for index, (bid, tricks) in enumerate([(3, 3), (3, 3), (3, 3)]):
            form.find_element("name", f"bid-{index}").send_keys(str(bid))
            form.find_element("name", f"tricks-{index}").send_keys(str(tricks))
        from selenium.webdriver.support.ui import Select

        Select(form.find_element("name", "premium-0")).select_by_value("declare")
        form.find_element("css selector", "button[type=submit]").click()
        wait_for(lambda: len(table.store.load(session.game_id).actions) == 2, what="the second deal")
        assert table.store.load(session.game_id).actions[1]["premium"] == {"Ann": "declare"}
        # correct deal 1: Ben made 3 tricks, not 4 (Cat 3)
        def click_correct() -> bool:  # the page redraws when the deal's view arrives: retry a stale button
            driver.find_element("css selector", 'button[data-deal="1"]').click()
            return "1" in driver.find_element("css selector", "#deal-form h2").text

        wait_for(click_correct, what="the Correct button")
        form = wait_for(lambda: driver.find_element("id", "deal-form"), what="the correction form")
        assert "1" in form.find_element("css selector", "h2").text
        assert form.find_element("name", "tricks-1").get_attribute("value") == "4"  # filled in
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "parlett-correction-paired.png"))
        for name, value in (("tricks-1", "3"), ("tricks-2", "3")):
            field = form.find_element("name", name)
            field.clear()
            field.send_keys(value)
        form.find_element("css selector", "button[type=submit]").click()
        corrected = {"Ann": 3, "Ben": 3, "Cat": 3}
        wait_for(lambda: table.store.load(session.game_id).actions[0]["tricks"] == corrected,
                 what="the corrected deal stored")
        assert len(table.store.load(session.game_id).actions) == 2  # later deals re-scored, kept
    finally:
        browsers.give_back(driver)
        table.close()


def beside_kivy(work: Any, limit: float = 90) -> Any:
    """Run ``work()`` (Selenium, which blocks) in a thread while Kivy's main thread keeps running."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = work()
        except BaseException as exc:
            result["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()
    deadline = time.monotonic() + limit
    while worker.is_alive() and time.monotonic() < deadline:
        frames(1)
        time.sleep(0.01)
    worker.join(5)
    if "error" in result:
        raise result["error"]
    return result.get("value")


@pytest.mark.ui
def test_a_paired_phone_taps_cards_for_the_count_keeper_in_step_with_the_table(
        ui: Any, tmp_path: Path, browsers: BrowserPool) -> None:
    from app.config import Config
    from app.games.count99.game import KeptGame
    from app.ui.shell import Table99App
    from app.web.pairing import Access
    from app.web.server import WebServer
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    store = GameStore(default_database())
    game = KeptGame.create(store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    live = LiveTable(store)
    app = Table99App(Config(), store=store)
    app.live = live
    manager = app.build()
    manager.current = app.uis["count99"].resume(game.game_id)
    ui.show(manager)
    keeper = app.uis["count99"].keeper
    assert live.open_game is not None and live.open_game() == game.game_id  # /live follows it
    server = WebServer(live, Access(tmp_path), "127.0.0.1", 0)
    server.start()
    try:
        code, _ = server.access.new_code()

        def phone() -> str:
            driver = browsers.take(size=(390, 844))
            try:
                driver.get(server.pair_url(code))
                driver.find_element("css selector", "#pair-form button").click()
                wait_for(lambda: driver.find_elements("css selector", ".keeper .card"), timeout=15,
                         what="the card buttons")

                def tap(card: str) -> bool:
                    cards = driver.find_elements("css selector", ".keeper .card")
                    # a card button names the card in words ("Ace"); data-card holds its short name
                    next(b for b in cards if card in (b.get_attribute("data-card"), b.text)).click()
                    return True

                wait_for(lambda: tap("5"), what="tap 5")
                wait_for(lambda: driver.find_element("id", "count").text not in ("0", "…"),
                         what="the count moving")
                after_five = driver.find_element("id", "count").text
                wait_for(lambda: tap("A"), what="tap the Ace")
                wait_for(lambda: driver.find_elements("css selector", ".choices .card") and tap("+11"),
                         what="the Ace's choice")
                # the second play is in only when the count moved on again (the turn alone moved
                # after the first play: waiting on it let a slow machine read the count after one)
                wait_for(lambda: driver.find_element("id", "count").text not in (after_five, "0", "…"),
                         what="two plays")
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(ARTIFACTS / "count99-keeper-paired-phone.png"))
                return str(driver.find_element("id", "count").text)
            finally:
                browsers.give_back(driver)

        shown = beside_kivy(phone)
        frames(3)
        # the keeper screen's own game object took both cards, and its count is the phone's
        assert keeper.game.game_id == game.game_id
        assert len([a for a in keeper.game.actions if "card" in a]) == 2
        assert keeper.status.count_label.text == str(keeper.game.table.count)
        assert shown == str(keeper.game.table.count)
        stored = [a.get("card") for a in store.load(game.game_id).actions if "card" in a]
        assert stored == ["5", "A"]
    finally:
        server.stop()
