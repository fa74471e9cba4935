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
