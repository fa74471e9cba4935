"""The web display's answers to the review of issue 14: caps that do not starve pages, truthful
timeouts, changes that name the version they saw, ASCII-only numbers, streams that go away."""

from __future__ import annotations

import json
import re
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.games.count99.game import KeptGame
from app.games.parlett.game import ParlettSession
from app.web import routes as web_routes
from app.web import server as web_server
from app.web.pairing import MAX_FAILURES_PER_MINUTE, Access, PairingError
from rules.count99.cards import Variant
from rules.count99.table import Setup
from tests.browser_pool import BrowserPool
from tests.test_web_security import DEAL, Drained, pair, seen
from tests.web_support import http, same_origin, wait_for


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Drained]:
    t = Drained(tmp_path)
    yield t
    t.close()


def parlett(table: Drained, names: tuple[str, ...] = ("Ann", "Ben", "Cat")) -> ParlettSession:
    return ParlettSession.new(table.store, "three", list(names), names[-1], {})


def open_stream(table: Drained, query: str = "") -> socket.socket:
    """An event stream held open on a raw socket, once its 200 header has arrived."""
    return open_stream_with_body(table, query)[0]


def open_stream_with_body(table: Drained, query: str = "") -> tuple[socket.socket, bytes]:
    """An open event stream and what came after its header in the same reads: on a busy machine
    the first events arrive in the header's read, and a test that dropped them waited in vain."""
    sock = socket.create_connection(("127.0.0.1", table.port), timeout=30)
    sock.sendall(f"GET /v/{table.access.token}/events{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the stream"
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head[:80]
    return sock, head.split(b"\r\n\r\n", 1)[1]


def headers_for(table: Drained) -> dict[str, str]:
    cookie, csrf = getattr(table, "_paired", None) or pair(table)
    table._paired = (cookie, csrf)  # type: ignore[attr-defined]
    return same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf})


def change(table: Drained, game_id: int, op: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    status, _, raw = http("POST", f"{table.base}/api/game/{game_id}/{op}", json.dumps(body).encode(),
                          headers_for(table))
    return status, json.loads(raw)


# -- 1: open streams do not count as requests in flight ----------------------------------------------
def test_a_page_and_a_paired_post_work_beside_max_streams_open_streams(tmp_path: Path) -> None:
    t = Drained(tmp_path, max_streams=6, max_streams_per_client=6, max_requests=4)
    held: list[socket.socket] = []
    try:
        game = parlett(t)
        headers = headers_for(t)
        held = [open_stream(t) for _ in range(6)]
        assert http("GET", t.base + "/events")[0] == 503  # the stream cap itself holds
        status, _, body = http("GET", t.base + "/live")
        assert status == 200 and b"Ann" in body
        assert http("GET", t.base + f"/api/view/{game.game_id}")[0] == 200
        status, _, raw = http("POST", f"{t.base}/api/game/{game.game_id}/add",
                              json.dumps({"deal": DEAL, "seen": seen(t, game.game_id)}).encode(), headers)
        assert status == 200, raw
        assert t.store.load(game.game_id).actions == (DEAL,)
    finally:
        for s in held:
            s.close()
        t.close()


# -- 2: a timeout never says "nothing was changed" about a command that committed ----------------------
def test_a_command_still_running_at_the_timeout_gets_its_true_answer(
        table: Drained, monkeypatch: pytest.MonkeyPatch) -> None:
    game = parlett(table)
    headers = headers_for(table)
    monkeypatch.setattr(web_routes, "COMMAND_TIMEOUT", 0.05)
    gate, started = threading.Event(), threading.Event()

    def slow_redraw(kind: str, game_id: int) -> None:  # the table's screen redrawing, after the commit
        started.set()
        gate.wait(20)

    table.live.on_changed = slow_redraw
    answer: dict[str, object] = {}

    def post() -> None:
        status, _, raw = http("POST", f"{table.base}/api/game/{game.game_id}/add",
                              json.dumps({"deal": DEAL, "seen": seen(table, game.game_id)}).encode(),
                              headers, timeout=60)
        answer["status"], answer["body"] = status, json.loads(raw)

    worker = threading.Thread(target=post)
    worker.start()
    assert started.wait(20), "the command never ran"
    worker.join(3)  # bounded: the old server answered 503 here while the command was still running
    gate.set()
    worker.join(60)
    stored = table.store.load(game.game_id).actions
    assert stored == (DEAL,)  # the command committed
    assert answer["status"] == 200, answer  # and the page is told so, not "nothing was changed"


def test_a_command_still_queued_at_the_timeout_is_cancelled_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.web_support import WebTable

    t = WebTable(tmp_path)  # nobody drains the queue: the main thread is busy
    try:
        game = parlett(t)  # type: ignore[arg-type]
        monkeypatch.setattr(web_routes, "COMMAND_TIMEOUT", 0.05)
        headers = headers_for(t)  # type: ignore[arg-type]
        status, _, raw = http("POST", f"{t.base}/api/game/{game.game_id}/add",
                              json.dumps({"deal": DEAL, "seen": seen(t, game.game_id)}).encode(), headers)
        assert status == 503 and "nothing was changed" in json.loads(raw)["error"]
        assert t.live.drain() == 1  # the main thread gets to it later: cancelled, it does not run
        assert t.store.load(game.game_id).actions == ()
    finally:
        t.close()


# -- 3: a change names the version it saw --------------------------------------------------------------
def test_a_deal_sent_twice_is_added_once(table: Drained) -> None:
    game = parlett(table)
    body = {"deal": DEAL, "seen": seen(table, game.game_id)}
    assert change(table, game.game_id, "add", body)[0] == 200
    status, answer = change(table, game.game_id, "add", body)  # the reply was lost: the page sends again
    assert status == 409 and answer.get("stale") is True, answer
    assert table.store.load(game.game_id).actions == (DEAL,)


def test_two_tablets_deleting_the_last_deal_delete_one(table: Drained) -> None:
    game = parlett(table)
    game.add_deal(DEAL)
    game.add_deal(DEAL)
    version = seen(table, game.game_id)  # both tablets show two deals
    assert change(table, game.game_id, "delete-last", {"seen": version})[0] == 200
    assert change(table, game.game_id, "delete-last", {"seen": version})[0] == 409
    assert len(table.store.load(game.game_id).actions) == 1


def test_an_undo_from_a_stale_page_does_not_take_back_a_second_play(table: Drained) -> None:
    game = KeptGame.create(table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    assert change(table, game.game_id, "play", {"card": "9", "seen": seen(table, game.game_id)})[0] == 200
    assert change(table, game.game_id, "play", {"card": "5", "seen": seen(table, game.game_id)})[0] == 200
    version = seen(table, game.game_id)
    assert change(table, game.game_id, "undo", {"seen": version})[0] == 200
    assert change(table, game.game_id, "undo", {"seen": version})[0] == 409  # the touchscreen and a phone
    assert [a.get("card") for a in table.store.load(game.game_id).actions if "card" in a] == ["9"]
    # the same count after undo + another play is still another version
    after_undo = seen(table, game.game_id)
    assert change(table, game.game_id, "play", {"card": "4", "seen": after_undo})[0] == 200
    assert change(table, game.game_id, "play", {"card": "4", "seen": version})[0] == 409


def test_a_change_without_a_version_is_refused(table: Drained) -> None:
    game = parlett(table)
    status, answer = change(table, game.game_id, "add", {"deal": DEAL})
    assert status == 422 and "seen" in str(answer["error"])
    assert table.store.load(game.game_id).actions == ()


def test_the_view_carries_the_version_a_page_sends_back(table: Drained) -> None:
    game = parlett(table)
    game.add_deal(DEAL)
    view = json.loads(http("GET", f"{table.base}/api/view/{game.game_id}")[2])["view"]
    assert view["version"] == seen(table, game.game_id)


# -- 4: numbers are ASCII digits -------------------------------------------------------------------------
@pytest.mark.parametrize("code", ["١٢٣٤٥٦", "²²²²²²", "１２３４５６"])
def test_a_pairing_code_of_other_digits_is_a_clear_refusal(tmp_path: Path, code: str) -> None:
    access = Access(tmp_path)
    access.new_code()
    with pytest.raises(PairingError, match="six digits"):
        access.pair(code, "x")
    assert access.device_list() == []


@pytest.mark.parametrize("code", ["١٢٣٤٥٦", "²²²²²²"])
def test_pairing_over_http_with_other_digits_is_a_4xx(table: Drained, code: str) -> None:
    table.access.new_code()
    status, headers, body = http("POST", table.base + "/api/pair", json.dumps({"code": code}).encode(),
                                 same_origin(table.port))
    assert status == 403 and "Set-Cookie" not in headers and b"six digits" in body


@pytest.mark.parametrize("raw", ["²", "١", "١٢", "１"])
def test_game_numbers_of_other_digits_are_refused_everywhere(table: Drained, raw: str,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    game = parlett(table)
    assert game.game_id == 1
    quoted = urllib.parse.quote(raw)
    assert http("GET", f"{table.base}/api/view/{quoted}")[0] == 404
    assert http("GET", f"{table.base}/game/{quoted}")[0] == 404
    status, _, body = http("GET", f"{table.base}/events?game={quoted}")
    assert status == 400 and b"game number" in body
    status, _, _ = http("POST", f"{table.base}/api/game/{quoted}/add",
                        json.dumps({"deal": DEAL, "seen": seen(table, 1)}).encode(), headers_for(table))
    assert status == 404
    assert table.store.load(1).actions == ()
    assert "Traceback" not in caplog.text and "Error handling request" not in caplog.text


# -- 5, 6: stream bookkeeping -------------------------------------------------------------------------
def test_stream_groups_of_closed_streams_are_deleted(table: Drained) -> None:
    parlett(table)
    for n in range(20):
        open_stream(table, f"?game={n + 100}").close()
    wait_for(lambda: not table.server.hub.streams, timeout=10, what="every stream group gone")


def test_a_closed_clients_stream_is_gone_quickly(table: Drained) -> None:
    parlett(table)
    sock, received = open_stream_with_body(table)
    while not re.search(rb"event: view\ndata: [^\n]*\n\n", received):  # the first view, whole
        chunk = sock.recv(65536)
        assert chunk, "the stream ended"
        received += chunk
    assert table.server.hub.count() == 1
    sock.close()
    # well before the next keepalive write (15 s), which was the old way a departed page was noticed
    wait_for(lambda: table.server.hub.count() == 0, timeout=10, what="the closed stream dropped")


# -- 9: the boot JSON cannot be broken out of -------------------------------------------------------------
@pytest.mark.parametrize("name", ["<!--<script", "</script><b>x", "<!--"])
def test_a_players_name_cannot_end_or_comment_out_the_boot_script(table: Drained, name: str) -> None:
    game = parlett(table, (name, "Ben", "Cat"))
    status, _, body = http("GET", f"{table.base}/game/{game.game_id}")
    assert status == 200
    page = body.decode()
    boot = re.search(r'<script id="boot" type="application/json">(.*?)</script>', page, re.S)
    assert boot is not None
    assert "<" not in boot.group(1)  # nothing the HTML parser could read as a tag or a comment
    assert json.loads(boot.group(1))["payload"]["view"]["hands"][0]["name"] == name


# -- 10: the view is built once per change, not once per connection -------------------------------------
def test_many_connections_share_one_built_view_until_the_next_change(table: Drained) -> None:
    game = parlett(table)
    hub = table.server.hub
    before = hub.built
    for _ in range(5):
        assert http("GET", f"{table.base}/game/{game.game_id}?lang=en")[0] == 200
        assert http("GET", f"{table.base}/api/view/{game.game_id}?lang=en")[0] == 200
    assert hub.built - before == 1
    game.add_deal(DEAL)
    wait_for(lambda: json.loads(http("GET", f"{table.base}/api/view/{game.game_id}?lang=en")[2])
             ["view"]["actions"] == 1, what="the new view")
    assert hub.built - before >= 2


# -- 11: a guesser locks only themselves out ----------
def test_the_pairing_lockout_is_per_client_address(tmp_path: Path) -> None:
    now = [1000.0]
    access = Access(tmp_path, clock=lambda: now[0])
    for _ in range(MAX_FAILURES_PER_MINUTE):
        code, _ = access.new_code()
        with pytest.raises(PairingError, match="wrong code"):
            access.pair(f"{(int(code) + 1) % 1_000_000:06d}", "guesser", "192.0.2.66")
    code, _ = access.new_code()
    with pytest.raises(PairingError, match="too many"):
        access.pair(code, "guesser", "192.0.2.66")
    access.pair(code, "the table's tablet", "192.0.2.10")  # another address still pairs
    assert [d.name for d in access.device_list()] == ["the table's tablet"]


# -- 8: /live follows the game the table's screen has open -----------------------------------------------
def current_view(table: Drained) -> object:
    view = json.loads(http("GET", f"{table.base}/api/view/current")[2])["view"]
    return view and view["id"]


def test_live_follows_the_tables_screen_not_the_last_commit(tmp_path: Path) -> None:
    t = Drained(tmp_path)
    try:
        old = parlett(t, ("Old", "Rubber", "Here"))
        playing = parlett(t)
        shown = [playing.game_id]
        t.live.open_game = lambda: shown[0]  # what the UI sets (app/ui/web_join.connect_live)
        t.live.screen_changed()
        wait_for(lambda: current_view(t) == playing.game_id, what="/live on the open game")
        three = {"Old": 3, "Rubber": 3, "Here": 3}
        hub = t.server.hub
        heard = hub.changes
        old.add_deal({"bids": three, "tricks": three})  # an old rubber changed from a tablet: /live stays
        other = parlett(t, ("Del", "Eted", "Soon"))
        t.store.delete_game(other.game_id)  # a deletion: /live stays
        wait_for(lambda: hub.changes >= heard + 3, what="the web loop hearing of the three commits")
        assert current_view(t) == playing.game_id
        playing.add_deal(DEAL)
        wait_for(lambda: json.loads(http("GET", f"{t.base}/api/view/current")[2])["view"]["actions"] == 1,
                 what="the open game's deal")
        assert current_view(t) == playing.game_id
        shown[0] = old.game_id  # the table's screen opens the old rubber: /live follows it
        t.live.screen_changed()
        wait_for(lambda: current_view(t) == old.game_id, what="/live on the newly opened game")
    finally:
        t.close()


def test_without_a_screen_live_follows_the_unfinished_game_changed_last(table: Drained) -> None:
    first = parlett(table, ("Ann", "Ben", "Cat"))
    second = parlett(table, ("Dan", "Eve", "Fay"))
    first.add_deal({"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}})
    wait_for(lambda: current_view(table) == first.game_id, what="/live on the game just played")
    table.store.delete_game(second.game_id)  # deleting another game does not move /live
    gone = parlett(table, ("Gus", "Hal", "Ivy"))
    wait_for(lambda: current_view(table) == gone.game_id, what="a new game")
    table.store.delete_game(gone.game_id)  # the followed game deleted: back to an unfinished one
    wait_for(lambda: current_view(table) == first.game_id, what="/live back on a game that exists")


# -- 7: a connection that never sends a request does not stay open -------------------------------------
def test_an_idle_connection_is_closed_after_the_keepalive_timeout(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_server, "KEEPALIVE_TIMEOUT", 0.5)  # shipped: 10 s (aiohttp's own: an hour)
    t = Drained(tmp_path)
    try:
        sock = socket.create_connection(("127.0.0.1", t.port), timeout=10)
        try:
            assert sock.recv(100) == b""  # the server hung up well within the 10 s read deadline
        finally:
            sock.close()
    finally:
        t.close()


# -- 3, in a browser: a stale page says so and shows the fresh state --------------------------------------
@pytest.mark.slow
def test_a_stale_page_shows_the_fresh_game_and_says_nothing_was_changed(table: Drained,
                                                                        browsers: BrowserPool) -> None:

    game = parlett(table)
    game.add_deal(DEAL)
    code, _ = table.access.new_code()
    driver = browsers.take()
    try:
        driver.get(table.server.pair_url(code))
        driver.find_element("css selector", "#pair-form button").click()
        wait_for(lambda: driver.find_element("id", "delete-last"), timeout=15, what="the paired page")
        held: list[object] = []
        table.live.later = held.append  # the table's next commit does not reach this page
        game.add_deal(DEAL)
        wait_for(lambda: driver.find_element("id", "delete-last").click() or True, what="delete-last")

        def answer() -> str:
            return str(driver.find_element("css selector", ".form-message").text)

        wait_for(lambda: "changed meanwhile" in answer(), what="the 409 message")
        assert "nothing was changed" in answer()
        assert len(table.store.load(game.game_id).actions) == 2  # nothing deleted
        rows = driver.find_elements("css selector", "table.deals tbody tr")
        assert len(rows) == 2  # the page now shows the deal it had missed
    finally:
        browsers.give_back(driver)


@pytest.mark.parametrize(("language", "unnamed"), [("de-DE,de;q=0.9", "Tablet"), ("en", "tablet")])
def test_a_device_paired_without_a_name_is_named_in_the_pages_language(table: Drained, language: str,
                                                                       unnamed: str) -> None:
    """The pairing page says "Paired as ..." back: a German user who typed no name read "Gekoppelt
    als tablet" (an English word in a German sentence)."""
    code, _seconds = table.access.new_code()
    request = json.dumps({"code": code, "name": "  "}).encode()
    status, _, body = http("POST", table.base + "/api/pair", request,
                           {**same_origin(table.port), "Accept-Language": language})
    assert status == 200 and json.loads(body)["device"] == unnamed
    assert [d.name for d in table.access.devices.values()] == [unnamed]
