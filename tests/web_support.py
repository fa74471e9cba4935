"""Helpers for the web display's tests: a server on 127.0.0.1, headless Chromium through Selenium."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.games.live import LiveTable
from app.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
AXE = Path(os.environ.get("TABLE99_AXE") or ROOT / "test-artifacts/axe/node_modules/axe-core/axe.min.js")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SIZES = {"phone": (390, 844), "tablet": (1024, 768), "tv": (1920, 1080)}


def need_browser() -> None:
    """Chromium and its driver come from scripts/setup (Debian packages). In CI a missing browser
    is a failure, not a skip."""
    if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER):
        return
    message = f"{CHROMIUM} or {CHROMEDRIVER} missing: run scripts/setup dev as root (apt-get)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def make_driver(language: str = "en-GB,en", size: tuple[int, int] = (1024, 768)) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    need_browser()
    profile = tempfile.mkdtemp(prefix="t99-chrome-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--disable-gpu", f"--user-data-dir={profile}",
                f"--window-size={size[0]},{size[1]}", f"--lang={language.split(',')[0]}"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    # a phone's width is below what a desktop window may be: emulate the device's screen instead
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})
    driver._t99_profile = profile  # removed in quit_driver
    return driver


def need_axe() -> str:
    """axe-core's script. It is no Python package: ``bash scripts/setup dev`` installs it from npm
    into test-artifacts/axe/ (ignored by git), or TABLE99_AXE names its axe.min.js. In CI a missing
    axe-core is a failure, not a skip."""
    if AXE.is_file():
        return AXE.read_text(encoding="utf-8")
    message = (f"axe-core not found at {AXE}: `npm install axe-core` in test-artifacts/axe/ "
               "(or set TABLE99_AXE to its axe.min.js)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def serious_violations(driver: Any, axe: str) -> list[str]:
    """axe-core's serious and critical violations on the page now shown, one line each (injected
    by WebDriver: the pages' CSP allows only their own scripts, which execute_script is not bound by)."""
    load_axe(driver, axe)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations"
        ".map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
        " target: v.nodes[0].target.join(' ')}))));")
    return [f"{v['id']} ({v['impact']}, {v['nodes']} nodes, e.g. {v['target']})"
            for v in result if v["impact"] in ("serious", "critical")]


def load_axe(driver: Any, axe: str) -> None:
    """Make axe-core present on the page now shown. The first time in a tab, DevTools is also asked to
    run it at the start of every later page of that tab (like execute_script, not bound by the pages'
    CSP): the sweeps check 20-80 pages each, and sending axe's half a megabyte through WebDriver for
    each of them was about a third of the time axe took."""
    tab = driver.current_window_handle
    if getattr(driver, "_t99_axe_tab", None) != tab:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": axe})
        driver._t99_axe_tab = tab
    if not driver.execute_script("return typeof window.axe === 'object' && !!window.axe.run;"):
        driver.execute_script(axe)  # this page was loaded before, or the preload did not take


def set_size(driver: Any, width: int, height: int) -> None:
    """The emulated screen: one browser serves every size (a phone's below a desktop window's)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def quit_driver(driver: Any) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(getattr(driver, "_t99_profile", ""), ignore_errors=True)


def wait_for(
    condition: Callable[[], Any],
    timeout: float = 10.0,
    what: str = "condition",
    between: Callable[[], Any] = lambda: time.sleep(0.05),
) -> Any:
    """``condition()``'s first truthy value; ``between()`` runs between tries (a pause, or the
    app's frames when the condition waits on the app itself)."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = condition()
        except Exception as exc:  # an element not there yet
            last = exc
        else:
            if last:
                return last
        between()
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


class WebTable:
    """A store, a LiveTable drained by a thread standing in for the main thread, a server."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        from app.web.pairing import Access
        from app.web.server import WebServer

        self.folder = folder
        self.store = GameStore(folder / "games.sqlite3")
        self.live = LiveTable(self.store)
        self.access = Access(folder)
        self.server = WebServer(self.live, self.access, "127.0.0.1", port)
        self.server.start()
        self.port = self.server.port

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v/{self.access.token}"

    def restart(self) -> None:
        from app.web.pairing import Access
        from app.web.server import WebServer

        self.server.stop()
        self.access = Access(self.folder)
        self.server = WebServer(self.live, self.access, "127.0.0.1", self.port)
        self.server.start()

    def close(self) -> None:
        self.server.stop()
        self.store.close()


def http(method: str, url: str, body: bytes | None = None, headers: dict[str, str] | None = None,
         timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """One request; (status, headers, body) also for 4xx/5xx."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def same_origin(port: int, **extra: str) -> dict[str, str]:
    return {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json", **extra}
