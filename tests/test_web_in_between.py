"""The board game's state between commits on the web display: pegs settling, announcements held.

The table's screen says "Wait: the pegs are settling" and "Then: PLAY 50." while a quick player's
peg is judged; a phone watching the table showed only committed plays. Now the UI reads the
referee (app/ui/web_join.connect_live) into ``LiveTable.transient`` and the web display sends it
with the view, in each viewer's language, without replaying the record again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games import views
from app.games.board99.game import Board99Game, TableSetup
from app.games.live import LiveTable
from app.games.views import Tr
from app.web import streams
from rules import board99 as rules
from tests.browser_pool import BrowserPool
from tests.test_web_security import Drained
from tests.test_web_views import first_event

HELD = {"settling": True, "held": [{"kind": "play", "card": 50, "by": "Ben"}]}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Drained]:
    t = Drained(tmp_path)
    yield t
    t.close()


def board_game(table: Drained) -> Board99Game:
    return Board99Game.create(table.store, rules.make_setup(["Ann", "Ben"], layout="rows"),
                              TableSetup({"Ann": "red", "Ben": "yellow"}))


def test_the_words_follow_the_viewers_language() -> None:
    assert views.pending_text(HELD, Tr("en")) == "Wait: the pegs are settling. Then: Ben: PLAY 50."
    german = views.pending_text(HELD, Tr("de"))
    assert german == "Moment: die Stifte setzen sich. Danach: Ben: SPIELEN 50.", german
    unnamed = {"settling": False, "held": [{"kind": "draw", "card": None, "by": None}]}
    assert views.pending_text(unnamed, Tr("en")) == "Then: DRAW."


def test_a_page_sees_the_held_play_and_then_the_judged_one(table: Drained) -> None:
    game = board_game(table)
    first = first_event(table)
    assert "pending" not in json.loads(first["data"])["view"]
    held = first_event(table, first["id"], then=lambda: table.live.set_transient(game.id, HELD))
    view = json.loads(held["data"])["view"]
    assert view["pending"] == "Wait: the pegs are settling. Then: Ben: PLAY 50."
    assert view["actions"] == 0  # nothing was committed: the view of the record is the same
    # the play is judged: the table clears its in-between state and commits
    def judged() -> None:
        table.live.set_transient(game.id, None)
        state, _ = rules.apply(game.state, rules.Draw("Ann"))
        game.commit(rules.Draw("Ann"), state)

    after = json.loads(first_event(table, held["id"], then=judged)["data"])["view"]
    assert "pending" not in after


def test_an_in_between_change_does_not_replay_the_record(table: Drained, monkeypatch: Any) -> None:
    game = board_game(table)
    # A hub of its own: the server's loop rebuilds its hub's views after the game's creation, on
    # its own thread, and that build landed in ``calls`` now and then on a loaded machine.
    hub = streams.Hub(table.live)
    hub.payload(game.id, "en")
    calls: list[int] = []
    real = streams.build_view
    monkeypatch.setattr(streams, "build_view", lambda stored, _: calls.append(1) or real(stored, _))
    hub.invalidate(game.id, committed=False)  # what transient_changed does
    assert hub.payload(game.id, "en")["view"]["kind"] == "board99"
    assert calls == []
    hub.invalidate(game.id)  # a commit
    hub.payload(game.id, "en")
    assert calls == [1]


def test_a_won_game_shows_no_in_between_state(tmp_path: Path) -> None:
    from tests.test_web_browser import won_board_game
    from tests.web_support import WebTable

    table = WebTable(tmp_path)
    try:
        game = won_board_game(table)
        table.live.set_transient(game.id, HELD)  # a stale state: the winning peg was just judged
        view = table.server.hub.payload(game.id, "en")["view"]
        assert view["result"] and "pending" not in view, view
    finally:
        table.close()


def test_listeners_hear_only_changes(tmp_path: Path) -> None:
    from app.store import GameStore

    live = LiveTable(GameStore(tmp_path / "g.sqlite3"))
    heard: list[int] = []
    live.transient_listeners.append(heard.append)
    live.set_transient(3, None)  # nothing in flight, nothing was: no news
    live.set_transient(3, HELD)
    live.set_transient(3, dict(HELD))  # the same state again, as the 10 Hz poll sends it
    live.set_transient(3, None)
    assert heard == [3, 3] and live.transient == {}


@pytest.mark.ui
def test_the_table_screen_feeds_its_referees_state_to_the_web(ui: Any, monkeypatch: Any) -> None:
    """Ann pegs, Ben taps PLAY 50 while her peg settles: the live table carries both, and nothing
    once the peg is judged."""
    from app.paths import default_database
    from app.store import GameStore
    from app.ui.shell import Table99App
    from tests.test_ui_board99 import Driver
    from tests.ui_support import frames

    live = LiveTable(GameStore(default_database()))
    monkeypatch.setattr(Table99App, "live", live, raising=False)
    d = Driver(ui)
    d.start_game()
    d.quick_tap_while_a_peg_settles()
    game_id = d.screen.game.id
    web_join_poll(frames)
    assert live.transient.get(game_id) == {"settling": True,
                                           "held": [{"kind": "play", "card": 50, "by": None}]}
    d.settle()
    web_join_poll(frames)
    assert game_id not in live.transient  # judged: Ann's play is committed, Ben's PLAY is pending


def web_join_poll(frames: Any) -> None:
    """Let Kivy's clock run the 10 Hz poll (headless frames come fast: wait on the wall clock)."""
    import time

    deadline = time.monotonic() + 0.35
    while time.monotonic() < deadline:
        frames(1)


@pytest.mark.slow
def test_a_browser_shows_the_held_play_until_it_is_judged(tmp_path: Path, browsers: BrowserPool) -> None:
    from tests.test_web_browser import ARTIFACTS, new_board_game
    from tests.web_support import WebTable, wait_for

    table = WebTable(tmp_path)
    driver = browsers.take()
    try:
        game = new_board_game(table)
        driver.get(table.base + "/live")
        wait_for(lambda: "Ann" in driver.find_element("css selector", ".turn").text, what="Ann's turn")
        table.live.set_transient(game.id, HELD)

        def pending() -> str:
            found = driver.find_elements("css selector", ".banner.pending")
            return str(found[0].text) if found else ""

        wait_for(lambda: "PLAY 50" in pending(), what="the held play")
        assert pending() == "Wait: the pegs are settling. Then: Ben: PLAY 50."
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "board99-pending-en.png"))
        table.live.set_transient(game.id, None)
        wait_for(lambda: pending() == "", what="the in-between line gone")
    finally:
        browsers.give_back(driver)
        table.close()


def test_a_view_built_while_a_verdict_lands_is_not_sent_after_it(table: Drained, monkeypatch: Any) -> None:
    """A page connects while the pegs settle; its first view is built in a worker thread, and the
    verdict commits meanwhile. The newer view is sent; the older one must not follow and replace it
    (the page would show "pegs settling" until the next play)."""
    import threading
    import time

    game = board_game(table)
    table.live.set_transient(game.id, HELD)
    hub = table.server.hub
    real = hub.message
    building, release = threading.Event(), threading.Event()
    first_call = [True]

    def slow(game_id: int | None, lang: str) -> tuple[str, bytes]:
        entry = real(game_id, lang)  # built before the verdict
        if first_call[0]:
            first_call[0] = False
            building.set()
            release.wait(10)
        return entry

    monkeypatch.setattr(hub, "message", slow)

    def verdict() -> None:
        assert building.wait(10)
        published = hub.published
        table.live.set_transient(game.id, None)
        state, _ = rules.apply(game.state, rules.Draw("Ann"))
        game.commit(rules.Draw("Ann"), state)
        deadline = time.monotonic() + 10
        while hub.published == published and time.monotonic() < deadline:
            time.sleep(0.01)
        release.set()

    view = json.loads(first_event(table, then=verdict)["data"])["view"]
    assert "pending" not in view, view  # the page is not left on "settling" (with or without the play)


def test_a_committed_view_built_while_a_commit_lands_is_not_kept(
        table: Drained, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review finding 4: the generation check in Hub.committed_payload. A view replayed from the
    record just before a commit landed (the store's listener runs on the committing thread) must
    not be cached, or every page would be served the old view until the next commit."""
    game = board_game(table)
    hub = streams.Hub(table.live)
    store = table.live.store
    real_load = store.load
    loads: list[int] = []

    def load_then_commit(game_id: int) -> Any:
        stored = real_load(game_id)
        loads.append(game_id)
        if len(loads) == 1:  # another thread commits while this view is being built
            state, _ = rules.apply(game.state, rules.Draw("Ann"))
            game.commit(rules.Draw("Ann"), state)
            hub.invalidate(game.id)
        return stored

    monkeypatch.setattr(store, "load", load_then_commit)
    assert hub.committed_payload(game.id, "en")["view"]["actions"] == 0  # built before the commit
    assert hub.committed_payload(game.id, "en")["view"]["actions"] == 1  # rebuilt, not the old one
    assert len(loads) == 2


def test_a_thinking_computer_is_said_on_the_phone_too() -> None:
    """Review finding 7: a tap waiting for a thinking computer showed nothing on the phones."""
    thinking = {"settling": False, "held": [{"kind": "draw", "card": None, "by": None}], "thinking": "Ben"}
    assert views.pending_text(thinking, Tr("en")) == "Ben (computer) is choosing. Then: DRAW."
    assert views.pending_text(thinking, Tr("de")) == "Ben (Computer) wählt. Danach: ZIEHEN."


def test_the_poll_carries_the_thinking_computer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """connect_live's 10 Hz poll reads ``referee.thinking`` into the live table's in-between state."""
    from types import SimpleNamespace

    from app.store import GameStore
    from app.ui import web_join

    polls: list[Any] = []
    monkeypatch.setattr(web_join.Clock, "schedule_interval", lambda fn, _t: polls.append(fn))
    referee = SimpleNamespace(held_announcements=(), settling=False, thinking="Ben")
    screen = SimpleNamespace(referee=referee, game=SimpleNamespace(id=7))
    manager = SimpleNamespace(current_screen=screen, bind=lambda **_: None)
    app = SimpleNamespace(uis={"board99": SimpleNamespace(game_screen=screen)},
                          ctx=SimpleNamespace(manager=manager))
    live = LiveTable(GameStore(tmp_path / "g.sqlite3"))
    web_join.connect_live(app, live)
    for poll in polls:
        poll(0)
    assert live.transient.get(7) == {"settling": False, "held": [], "thinking": "Ben"}
    referee.thinking = None
    for poll in polls:
        poll(0)
    assert 7 not in live.transient


def test_a_commit_clears_the_in_between_state_before_the_web_builds_its_view(table: Drained) -> None:
    """Review finding 8: the new committed view carried the old "pegs settling" line until the UI's
    next 10 Hz poll."""
    game = board_game(table)
    table.live.set_transient(game.id, HELD)
    state, _ = rules.apply(game.state, rules.Draw("Ann"))
    game.commit(rules.Draw("Ann"), state)  # judged and committed; the UI has not polled yet
    view = table.server.hub.payload(game.id, "en")["view"]
    assert view["actions"] == 1 and "pending" not in view
