"""Helpers for the phones' browser tests: join a seat in Chromium, play a turn, read the page."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from app.games.count99.phones import PhoneTable
from tests.web_support import load_axe, wait_for

ROOT = Path(__file__).resolve().parent.parent
AXE = Path(os.environ.get("TABLE99_AXE") or ROOT / "test-artifacts/axe/node_modules/axe-core/axe.min.js")
ARTIFACTS = ROOT / "test-artifacts" / "phones"
# Counts every pointer and mouse event a page sees, from before its first script (CDP), so a test
# can show that a game was played with the keyboard alone.
MOUSE_WATCH = """
window.__t99_mouse = 0;
for (const kind of ["mousedown", "mouseup", "pointerdown", "pointerup", "mousemove", "wheel"]) {
  window.addEventListener(kind, () => { window.__t99_mouse += 1; }, true);
}
"""

# Every visible control smaller than a 48x48 px touch target, as "TAG id-or-text WxH" (issue 33:
# the audit measured 21-46 px links, a 28 px sound switch and 35 px wide selects).
SMALL_TARGETS = """
return [...document.querySelectorAll('a, button, select, input, label')]
  .filter((e) => e.offsetParent !== null && !e.closest('.sr-only'))
  .filter((e) => e.tagName !== 'LABEL' || e.control && e.control.type === 'checkbox')
  .map((e) => [e.tagName + ' ' + (e.id || e.textContent.trim().slice(0, 30)), e.getBoundingClientRect()])
  .filter(([, r]) => r.bottom > 0 && r.right > 0)  // the skip link waits off screen until focused
  .filter(([, r]) => r.width < 48 || r.height < 48)
  .map(([what, r]) => what + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
"""


def join_in_browser(driver: Any, url: str, table: PhoneTable, seat: int, name: str) -> None:
    """Fill the join form with keys (no mouse) and wait for the seat's page."""
    from selenium.webdriver.common.keys import Keys

    driver.get(url)
    chooser = driver.find_element("id", "seat")
    for _ in range(seat):  # typed into the list, as a keyboard does: no click on an option
        chooser.send_keys(Keys.ARROW_DOWN)
    assert chooser.get_attribute("value") == str(seat)
    code = table.seats[seat].code
    assert code is not None
    driver.find_element("id", "code").send_keys(code)
    field = driver.find_elements("id", "name")
    if field:
        field[0].send_keys(name)
    driver.find_element("id", "code").send_keys(Keys.ENTER)
    wait_for(lambda: driver.find_elements("id", "hand"), what=f"seat {seat + 1}'s page")


def my_turn(driver: Any) -> bool:
    return bool(driver.execute_script(
        "const t = document.getElementById('turn'); return !!t && t.classList.contains('mine');"))


def hand_on_page(driver: Any) -> list[str]:
    """The cards the page shows, as the server's card names (data attributes of the first button)."""
    return list(driver.execute_script(
        "return [...document.querySelectorAll('#hand > li')].filter((li) => li.querySelector('button'))"
        ".map((li) => li.querySelector('button').dataset.card);"))


def page_seq(driver: Any) -> int:
    return int(driver.execute_script("return parseInt(document.body.dataset.seq || '-1', 10);"))


def said(driver: Any) -> list[str]:
    return [str(t) for t in driver.execute_script(
        "return [...document.querySelectorAll('#said li')].map((li) => li.textContent);")]


def click_a_card(driver: Any) -> None:
    """Play the first card with a click (the two-browser games: a mouse is allowed there)."""
    # one script: a handle found first could go stale when a view message redraws the hand
    driver.execute_script("const b = document.querySelector('#hand button.card-btn'); if (b) b.click();")


def run_axe(driver: Any, axe: str) -> list[dict[str, Any]]:
    load_axe(driver, axe)
    return list(driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations"
        ".map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
        " target: v.nodes[0].target.join(' ')}))));"))


def screenshot(driver: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))
