"""The phones' pages in Chromium, English and German: axe-core finds no serious or critical
violation on any page state (host, join, a seat in play with an Ace's two buttons, an old table's
address, the TV); every control on the host's and the phone's pages is a 48x48 px touch target
(issue 33's audit); the TV fits 1280x720, 1920x1080 and 3840x2160 without scrolling; a phone never
scrolls sideways.
Screenshots go to test-artifacts/phones/ to be looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_pool import BrowserPool
from tests.phones_browser_support import AXE, SMALL_TARGETS, join_in_browser, page_seq, run_axe, screenshot
from tests.phones_web_support import PhonesWeb
from tests.web_support import wait_for

pytestmark = pytest.mark.slow
PHONE, TABLET = (390, 844), (1024, 768)
TV_SIZES = {"tv-720": (1280, 720), "tv-1080": (1920, 1080), "tv-2160": (3840, 2160)}


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[PhonesWeb]:
    web = PhonesWeb(tmp_path)
    yield web
    web.close()


def resize(driver: Any, size: tuple[int, int]) -> None:
    driver.set_window_size(*size)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})


def overflow(driver: Any, size: tuple[int, int]) -> tuple[int, int]:
    """(px wider, px taller) than the screen."""
    wide, tall = driver.execute_script("return [document.documentElement.scrollWidth, "
                                       "document.documentElement.scrollHeight];")
    return int(wide) - size[0], int(tall) - size[1]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_phones_page_state_passes_axe_and_fits(phones: PhonesWeb, lang: str,
                                                     browsers: BrowserPool) -> None:
    if not AXE.is_file():
        pytest.skip(f"axe-core not found at {AXE}: run `bash scripts/setup dev` (npm install axe-core)")
    axe = AXE.read_text(encoding="utf-8")
    found: list[str] = []
    checked = 0

    def check(driver: Any, state: str, size: tuple[int, int], fit_height: bool = False) -> None:
        nonlocal checked
        screenshot(driver, f"{state}-{lang}")
        if not state.startswith("tv-"):  # a TV is looked at, not touched
            found.extend(f"{state} {lang}: {small} is smaller than 48x48 px"
                         for small in driver.execute_script(SMALL_TARGETS))
        wide, tall = overflow(driver, size)
        if wide > 1:
            found.append(f"{state} {lang}: {wide} px wider than the screen")
        if fit_height and tall > 1:
            found.append(f"{state} {lang}: {tall} px taller than the screen (a TV never scrolls)")
        for v in run_axe(driver, axe):
            if v["impact"] in ("serious", "critical"):
                found.append(f"{state} {lang}: {v['id']} ({v['impact']}, {v['nodes']} nodes, "
                             f"e.g. {v['target']})")
        checked += 1

    table = phones.open_table(variant="quentin-c", people=2, computers=2, level="hard", hand_size=4, tokens=3,
                              computer_pause=0)
    host = browsers.take(language=lang, size=TABLET)
    phone = browsers.take(language=lang, size=PHONE)
    try:
        for driver in (host, phone):
            driver.set_script_timeout(60)
        host.get(f"{phones.base}/phones")
        check(host, "host-unpaired", TABLET)
        code, _seconds = phones.web.access.new_code()
        host.get(f"{phones.base}/pair?code={code}")
        host.execute_script("document.querySelector('#pair-form button').click();")
        wait_for(lambda: "/live" in host.current_url, what="the host paired")
        host.get(f"{phones.base}/phones")
        check(host, "host-new-table", TABLET)
        host.get(f"{phones.base}/phones/{table.table_id}/host")
        wait_for(lambda: page_seq(host) >= 0, what="the host's page")
        check(host, "host-lobby", TABLET)
        phone.get(f"{phones.base}/phones/{table.table_id}")
        check(phone, "phone-join", PHONE)
        join_in_browser(phone, f"{phones.base}/phones/{table.table_id}", table, 0, "Ann")
        phones.join(table, 1, "Ben")
        assert phones.host(table, op="start")[0] == 200
        wait_for(lambda: host.find_element("id", "start").get_attribute("hidden") is not None,
                 what="the host's page in play")
        check(host, "host-playing", TABLET)
        game = table.game
        assert game is not None
        with table.lock:  # an Ace in hand: its two buttons are a page state of their own
            game.hands[0][0] = "A"
            table._changed()
        wait_for(lambda: phone.find_elements("css selector", "#hand button[data-choice]"),
                 what="the Ace's two buttons")
        check(phone, "phone-playing", PHONE)
        phone.get(f"{phones.base}/phones/deadbeef")  # a table that is gone: a page, with a way back
        check(phone, "phone-gone", PHONE)
        for name, size in TV_SIZES.items():
            resize(phone, size)
            phone.get(f"{phones.base}/phones/{table.table_id}?tv")
            wait_for(lambda: page_seq(phone) >= 0, what="the TV page")
            check(phone, f"{name}-playing", size, fit_height=True)
    finally:
        browsers.give_back(host)
        browsers.give_back(phone)
    print(f"axe-core ({lang}): {checked} page states, {len(found)} problems")
    assert not found, "\n".join(found)
