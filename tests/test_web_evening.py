"""The web display through a real evening (issue 32, points 1-6): stalled clients, other languages,
a second process writing the store, finished games. The browser's side is in test_web_evening_browser.py."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.games.parlett.game import ParlettSession
from app.pages import SECURITY_HEADERS
from app.web import guards as web_guards
from app.web import routes as web_routes
from tests.test_web_security import DEAL, Drained, pair, seen
from tests.web_support import WebTable, http, same_origin


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Drained]:
    t = Drained(tmp_path)
    yield t
    t.close()


def stalled_pair_request(table: WebTable, source: str) -> socket.socket:
    """What issue 32 measured: a same-origin JSON POST that announces 200 bytes and sends one."""
    sock = socket.create_connection(("127.0.0.1", table.port), timeout=20, source_address=(source, 0))
    sock.sendall((f"POST /v/{table.access.token}/api/pair HTTP/1.1\r\nHost: 127.0.0.1:{table.port}\r\n"
                  f"Origin: http://127.0.0.1:{table.port}\r\nContent-Type: application/json\r\n"
                  "Content-Length: 200\r\n\r\n{").encode())
    return sock


def http_from(source: str, method: str, url: str, body: bytes | None = None,
              headers: dict[str, str] | None = None) -> int:
    """A request's status from another client address (all of 127.0.0.0/8 is this machine)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10,
                                            source_address=(source, 0))
    try:
        connection.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), body=body,
                           headers=headers or {})
        return connection.getresponse().status
    finally:
        connection.close()


# -- 1: stalled bodies hold no place that pages need -------------------------------------------------------
def test_stalled_bodies_from_one_address_and_many_do_not_refuse_pages_or_pairing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """More stalled requests than the cap on requests in flight, from one address and from eight:
    a new page, a view and a pairing from another address still get through, and the stalled ones
    are answered 408 and closed once the body deadline has passed (the old server counted them in
    flight until the client gave up: every page was a 503)."""
    monkeypatch.setattr(web_guards, "BODY_DEADLINE", 3.0, raising=False)  # shipped: 5 s
    t = Drained(tmp_path, max_requests=4)
    held: list[socket.socket] = []
    try:
        game = ParlettSession.new(t.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
        held = [stalled_pair_request(t, "127.0.0.1") for _ in range(6)]
        held += [stalled_pair_request(t, f"127.0.0.{n}") for n in range(2, 10)]
        time.sleep(0.5)  # the server has read their headers and waits for their bodies
        started = time.monotonic()
        assert http_from("127.0.0.50", "GET", t.base + "/live") == 200
        assert http_from("127.0.0.50", "GET", t.base + f"/api/view/{game.game_id}") == 200
        code, _ = t.access.new_code()
        assert http_from("127.0.0.51", "POST", t.base + "/api/pair", json.dumps({"code": code}).encode(),
                         same_origin(t.port)) == 200
        assert time.monotonic() - started < 2.5, "checked while the stalled requests were still held"
        for sock in held:
            answer = b""
            while chunk := sock.recv(4096):  # the server answers, then closes the connection
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
            assert b"did not arrive within 3 s" in answer
    finally:
        for sock in held:
            sock.close()
        t.close()


def test_a_client_hanging_up_halfway_through_its_body_is_no_error(table: Drained,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    """The server was left with "Connection lost" tracebacks in its log for every such client."""
    import logging

    caplog.set_level(logging.INFO)
    held = [stalled_pair_request(table, "127.0.0.1") for _ in range(3)]
    time.sleep(0.3)
    for sock in held:
        sock.close()
    assert http("GET", table.base + "/live")[0] == 200
    time.sleep(0.3)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def test_one_address_cannot_take_every_place_in_flight(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests that have arrived whole but wait (here a change the table's main thread does not
    take) are capped per client address: the same device gets a 503 that says so, another gets in."""
    monkeypatch.setattr(web_routes, "COMMAND_TIMEOUT", 3.0)
    t = WebTable(tmp_path)  # nobody drains the table's queue: each change waits COMMAND_TIMEOUT
    t.server.stop()
    from app.web.server import WebServer

    t.server = WebServer(t.live, t.access, "127.0.0.1", 0, max_requests=8, max_requests_per_client=2)
    t.server.start()
    t.port = t.server.port
    try:
        game = ParlettSession.new(t.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
        cookie, csrf = pair(t)
        headers = same_origin(t.port, Cookie=cookie, **{"X-CSRF-Token": csrf})
        body = json.dumps({"deal": DEAL, "seen": seen(t, game.game_id)}).encode()
        import threading

        waiting = [threading.Thread(target=http, args=("POST", f"{t.base}/api/game/{game.game_id}/add", body,
                                                          headers)) for _ in range(2)]
        for thread in waiting:
            thread.start()
        time.sleep(0.5)
        status, _, raw = http("GET", t.base + "/live")
        assert status == 503 and b"from this device" in raw
        assert http_from("127.0.0.2", "GET", t.base + "/live") == 200
        for thread in waiting:
            thread.join(10)
    finally:
        t.close()


# -- 6: every answer carries the security headers ----------------------------------------------------------
@pytest.mark.parametrize("path", ["/v/wrong-token/live", "/v/wrong-token/", "/nothing-here", "/"])
def test_refusals_carry_the_security_headers(table: Drained, path: str) -> None:
    status, headers, _ = http("GET", f"http://127.0.0.1:{table.port}{path}")
    assert status == 404
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, (path, name)


# -- 4: a German device reads German --------------------------------------------------------------------
def test_a_refused_bid_and_an_unpaired_device_are_told_in_german(table: Drained) -> None:
    game = ParlettSession.new(table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    body = json.dumps({"deal": DEAL, "seen": seen(table, game.game_id)}).encode()
    status, _, raw = http("POST", f"{table.base}/api/game/{game.game_id}/add", body,
                          same_origin(table.port, **german))
    assert status == 401
    assert json.loads(raw)["error"] == "dieses Gerät ist nicht gekoppelt (oder wurde entfernt)"
    cookie, csrf = pair(table)
    bad = {"bids": {"Ann": 15, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}
    body = json.dumps({"deal": bad, "seen": seen(table, game.game_id)}).encode()
    headers = same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf}, **german)
    status, _, raw = http("POST", f"{table.base}/api/game/{game.game_id}/add", body, headers)
    assert status == 422
    assert json.loads(raw)["error"] == "Tipp von Ann: ein Tipp von 15 ist mit 3 Spielern unmöglich (0 bis 9)"
    status, _, raw = http("POST", f"{table.base}/api/game/{game.game_id}/add", body,
                          same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf}))
    english = "Ann's bid: a bid of 15 is impossible with 3 players (0 to 9)"
    assert json.loads(raw)["error"] == english  # English stays as the rules say it


def test_the_games_list_gives_every_kind_of_result_in_the_viewers_language(table: Drained) -> None:
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    for kind, stored in (("board99", "won: Ann, Ben"), ("parlett", "Ann & Cat"), ("count99", "Ann won"),
                         ("count99", "Ann hat gewonnen"), ("board99", "tie")):
        game_id = table.store.create_game(kind, {}, title="Players")
        table.store.set_status(game_id, "finished", stored)
    status, _, page = http("GET", table.base + "/?lang=de")
    text = page.decode()
    assert status == 200
    for shown in ("beendet - gewonnen von Ann, Ben", "beendet - gewonnen von Ann &amp; Cat",
                  "beendet - gewonnen von Ann<", "beendet - unentschieden"):
        assert shown in text, shown
    assert "won: " not in text and "Ann won" not in text and " - tie" not in text
    kept = KeptGame.create(table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben")))
    status, _, raw = http("GET", f"{table.base}/api/view/{kept.game_id}?lang=de")
    labels = {c["card"]: c["label"] for c in json.loads(raw)["view"]["cards"]}
    assert labels["K"] == "König" and labels["J"] == "Bube" and labels["A"] == "Ass"


def test_the_chart_and_the_log_have_different_headings_in_german() -> None:
    from app.games.views import Tr
    from app.web.routes import ui_strings

    words = ui_strings(Tr("de"))
    assert words["chart"] != words["log"]


# -- 5: another process's commits ------------------------------------------------------------------------
def test_a_reload_shows_what_another_process_committed(table: Drained) -> None:
    """``table99 play count99`` beside ``table99 web``: its commits reach the store through another
    connection and call no listener here; a reload and an open stream still show them."""
    from app.games.count99.game import KeptGame
    from app.store import GameStore
    from rules.count99.cards import Variant
    from rules.count99.table import Setup
    from tests.test_web_review import open_stream_with_body

    other = GameStore(table.folder / "games.sqlite3")  # the other process's own connection
    try:
        kept = KeptGame.create(other, Setup(Variant.QUENTIN_C, ("Ann", "Ben")))
        kept.play("5")

        def count() -> int:
            status, _, raw = http("GET", f"{table.base}/api/view/{kept.game_id}")
            assert status == 200
            return int(json.loads(raw)["view"]["count"])

        assert count() == 5
        sock, first = open_stream_with_body(table, f"?game={kept.game_id}")
        try:
            kept.play("4")
            assert count() == 9  # the old server kept serving 5: its cache heard of no commit
            received = first
            deadline = time.monotonic() + 10
            while b'"count":9,' not in received and time.monotonic() < deadline:
                received += sock.recv(65536)
            assert b'"count":9,' in received  # and the open page follows it
        finally:
            sock.close()
    finally:
        other.close()


# -- 6: a favicon ---------------------------------------------------------------------------------------
def test_pages_name_a_favicon_that_is_served(table: Drained) -> None:
    status, _, page = http("GET", table.base + "/")
    assert b'<link rel="icon" href="/static/favicon.svg"' in page
    status, headers, icon = http("GET", f"http://127.0.0.1:{table.port}/static/favicon.svg")
    assert status == 200 and icon.startswith(b"<svg") and "svg" in headers["Content-Type"]


def test_a_refused_tap_of_the_count_keeper_is_told_in_german(table: Drained) -> None:
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    kept = KeptGame.create(table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben")))
    cookie, csrf = pair(table)
    headers = same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf}, **{"Accept-Language": "de"})
    answers = []
    for body in ({"card": "A"}, {"card": "A", "choice": 5}):
        raw = http("POST", f"{table.base}/api/game/{kept.game_id}/play",
                   json.dumps({**body, "seen": seen(table, kept.game_id)}).encode(), headers)[2]
        answers.append(json.loads(raw)["error"])
    assert answers[0].startswith("Ass braucht eine Wahl: ") and " oder " in answers[0], answers
    assert answers[1] == "Ass kann bei 0 nicht +5 zählen (erlaubt: +1 oder +11)", answers
