"""The browser tests' shared Chromium (tests/browser_pool.py): a tab lent again carries nothing of
the test before it: no cookie, no stored item, no script injected before the page's own, no
emulated screen of the last test's size; and its page has the focus, as a new browser's has."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser_pool import BrowserPool
from tests.web_support import WebTable

pytestmark = pytest.mark.slow


@pytest.fixture
def web_table(tmp_path: Path) -> Iterator[WebTable]:
    table = WebTable(tmp_path)
    yield table
    table.close()


def test_a_browser_lent_again_is_the_same_one_with_nothing_left_of_the_last_test(
        web_table: WebTable) -> None:
    pool = BrowserPool()
    try:
        page = web_table.base + "/pair"
        first = pool.take(language="en", size=(390, 844))
        first.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "window.__left = 1;"})
        first.get(page)
        first.execute_script("document.cookie = 'left=1; path=/'; localStorage.setItem('left', '1');"
                             "sessionStorage.setItem('left', '1');")
        assert first.execute_script("return [window.__left, document.cookie];") == [1, "left=1"]
        pool.give_back(first)
        again = pool.take(language="en", size=(1280, 720))
        assert again is first  # the same browser, not a new one (what the pool is for)
        again.get(page)
        left = again.execute_script(
            "return [window.__left === undefined, document.cookie, localStorage.length,"
            " sessionStorage.length,"
            " document.documentElement.clientWidth, document.hasFocus()];")
        assert left == [True, "", 0, 0, 1280, True], left
        pool.give_back(again)
        other = pool.take(language="de")
        assert other is not first  # each language its own browser (its Accept-Language is set at start)
        pool.give_back(other)
    finally:
        pool.close()


def test_a_driver_its_test_quit_is_not_lent_again() -> None:
    pool = BrowserPool()
    try:
        driver = pool.take()
        driver.quit()
        pool.give_back(driver)
        assert pool.take() is not driver
    finally:
        pool.close()
