"""A game's page says how the game stands once, in the page's language: the Parlett TV page in
German said "● Live" and, under it, "läuft" (the game's status) at once; a finished game said
"● Final result" and "finished". Now the line at the top says it alone (headless Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.games.views import Tr
from tests.club_pages_support import parlett_seated
from tests.test_web_evening_browser import open_page, parlett_game
from tests.web_support import WebTable, make_driver, quit_driver

pytestmark = pytest.mark.slow
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "web-live-state"
STATE_WORDS = ("Live", "Final result", "playing", "finished", "abandoned")


@pytest.fixture
def web_table(tmp_path: Path) -> Iterator[WebTable]:
    table = WebTable(tmp_path)
    yield table
    table.close()


def said(main_text: str, language: str) -> dict[str, int]:
    """How often each word for the game's state stands in the page's main part."""
    _ = Tr(language)
    return {_(word): main_text.count(_(word)) for word in STATE_WORDS if main_text.count(_(word))}


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_tv_page_says_the_games_state_once_in_its_language(web_table: WebTable, language: str) -> None:
    _ = Tr(language)
    playing = parlett_game(web_table)
    won = parlett_seated(web_table.store, ["Annemarie", "Ben", "Cat"], 4)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver = make_driver(size=(1280, 720))
    try:
        for game, word in ((playing, _("Live")), (won, _("Final result"))):
            open_page(driver, f"{web_table.base}/game/{game}?tv&lang={language}")
            driver.save_screenshot(str(ARTIFACTS / f"parlett-{game}-tv-{language}.png"))  # looked at
            main = driver.find_element("id", "main").text
            assert said(main, language) == {word: 1}, (game, main[:300])
            assert driver.find_element("id", "connection").text == "● " + word
    finally:
        quit_driver(driver)
