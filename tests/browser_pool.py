"""Chromium for the browser tests: started once per language for a whole run (each xdist worker its
own), lent to each test as a fresh tab.

Why: a Chromium with its chromedriver takes 1-2 s of CPU to start and half a second to stop, and
the web display's and the phones' browser tests started about 30 of them on a 2-core CI machine.
What a lent tab does not carry over from the test before: cookies (cleared for every site), the
storage of the origin it was on (cleared), sessionStorage, scripts injected before a page's own
(``Page.addScriptToEvaluateOnNewDocument``) and the emulated screen (all per tab: the old tab is
closed), the script timeout; and the new tab has the focus, as a new browser's first tab has. Every
test serves its pages from its own server on a port of its own; where the system hands a port out
again, the origin's storage was cleared when its last test gave the tab back.

A test that needs the browser process itself to go away (a phone that leaves) may still quit a lent
driver: it is not lent again. ``make_driver`` remains for a test that wants its own browser.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.web_support import make_driver, quit_driver, set_size

DEFAULT_LANGUAGE = "en-GB,en"
SCRIPT_TIMEOUT_S = 30  # Selenium's default; a test may raise it for axe-core


def fresh_tab(driver: Any) -> None:
    """Clear what the last test left in the browser and move the driver to a new, blank tab."""
    url = driver.current_url
    if url.startswith(("http://", "https://")):
        parts = urlsplit(url)
        driver.execute_cdp_cmd("Storage.clearDataForOrigin",
                               {"origin": f"{parts.scheme}://{parts.netloc}", "storageTypes": "all"})
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.switch_to.new_window("tab")
    fresh = driver.current_window_handle
    for handle in driver.window_handles:
        if handle != fresh:
            driver.switch_to.window(handle)
            driver.close()
    driver.switch_to.window(fresh)
    # a tab opened this way shows but has no focus (document.hasFocus() false), unlike a new browser's
    # first tab: pages that keep the keyboard's focus through redraws behaved otherwise
    driver.execute_cdp_cmd("Page.bringToFront", {})
    driver.set_script_timeout(SCRIPT_TIMEOUT_S)


class BrowserPool:
    """Idle browsers by language; ``take`` lends one (starting it if none is idle)."""

    def __init__(self) -> None:
        self._idle: dict[str, list[Any]] = {}
        self._lent: list[Any] = []

    def take(self, language: str = DEFAULT_LANGUAGE, size: tuple[int, int] = (1024, 768)) -> Any:
        idle = self._idle.setdefault(language, [])
        if idle:
            driver = idle.pop()
            driver.set_window_size(*size)
            set_size(driver, *size)
        else:
            driver = make_driver(language=language, size=size)
            driver._t99_language = language
        self._lent.append(driver)
        return driver

    def give_back(self, driver: Any) -> None:
        """A fresh tab for the next test; a driver that no longer answers (quit by its test) is dropped."""
        if driver not in self._lent:
            return
        self._lent.remove(driver)
        try:
            fresh_tab(driver)
        except Exception:
            with contextlib.suppress(Exception):
                quit_driver(driver)
            return
        self._idle[driver._t99_language].append(driver)

    def give_back_all(self) -> None:
        for driver in list(self._lent):
            self.give_back(driver)

    def close(self) -> None:
        self.give_back_all()
        for drivers in self._idle.values():
            for driver in drivers:
                with contextlib.suppress(Exception):
                    quit_driver(driver)
        self._idle.clear()


@pytest.fixture(scope="session")
def _browser_pool() -> Iterator[BrowserPool]:
    pool = BrowserPool()
    yield pool
    pool.close()


@pytest.fixture
def browsers(_browser_pool: BrowserPool) -> Iterator[BrowserPool]:
    """The run's browsers; what this test took is given back when it ends (before the fixtures it
    asked for first, such as its server, are torn down)."""
    yield _browser_pool
    _browser_pool.give_back_all()
