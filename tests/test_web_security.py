"""Who gets in: view token, pairing codes, CSRF, body limits, connection caps; a refusal changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.parlett.game import ParlettSession
from app.games.views import record_version
from app.web.pairing import CODE_SECONDS, MAX_TRIES, Access, PairingError
from tests.web_support import WebTable, http, same_origin

DEAL = {"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}
NEW = record_version(())  # the version of a game with no actions yet, as its page shows it


class Drained(WebTable):
    """A WebTable whose 'main thread' is a helper thread draining the LiveTable's queue."""

    def __init__(self, folder: Path, **server: Any) -> None:
        import threading

        super().__init__(folder)
        if server:
            self.server.stop()
            from app.web.server import WebServer

            self.server = WebServer(self.live, self.access, "127.0.0.1", 0, **server)
            self.server.start()
            self.port = self.server.port
        self._wake = threading.Event()
        self._stop = False
        self.live.wake = self._wake.set
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            self._wake.wait(0.2)
            self._wake.clear()
            self.live.drain()

    def close(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join(5)
        super().close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Drained]:
    t = Drained(tmp_path)
    yield t
    t.close()


def parlett_game(table: WebTable) -> ParlettSession:
    return ParlettSession.new(table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})


def pair(table: WebTable) -> tuple[str, str]:
    """A paired device's cookie header and CSRF token."""
    code, _ = table.access.new_code()
    status, headers, body = http("POST", table.base + "/api/pair", json.dumps({"code": code}).encode(),
                                 same_origin(table.port))
    assert status == 200, body
    cookie = headers["Set-Cookie"].split(";")[0]
    return cookie, json.loads(body)["csrf"]


def deals_stored(table: WebTable, game_id: int) -> tuple[Any, ...]:
    return table.store.load(game_id).actions


def seen(table: WebTable, game_id: int) -> str:
    """The version a page showing this game now would send with a change."""
    return record_version(table.store.load(game_id).actions)


def post_deal(table: WebTable, game_id: int, headers: dict[str, str],
              body: bytes | None = None) -> tuple[int, Any]:
    body = json.dumps({"deal": DEAL, "seen": seen(table, game_id)}).encode() if body is None else body
    status, _, raw = http("POST", f"{table.base}/api/game/{game_id}/add", body, headers)
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


# -- viewing needs the token ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/live", "/", "/events", "/api/view/current", "/pair", "/game/1"])
def test_no_token_or_a_wrong_token_sees_nothing(table: Drained, path: str) -> None:
    parlett_game(table)
    base = f"http://127.0.0.1:{table.port}"
    for prefix in ("", "/v/wrong-token-of-the-same-length", f"/v/{table.access.token}x", "/v/"):
        status, _, body = http("GET", base + prefix + path)
        assert status == 404, (prefix + path, status)
        assert b"Ann" not in body
    status, _, body = http("GET", base + f"/v/{table.access.token}/api/view/current")
    assert status == 200 and b"Ann" in body  # the right token does


def test_the_token_is_long_random_and_kept_across_restarts(tmp_path: Path) -> None:
    first = Access(tmp_path)
    assert len(first.token) >= 22 and first.token != Access(None).token
    assert Access(tmp_path).token == first.token
    assert (tmp_path / "web-token").stat().st_mode & 0o077 == 0  # private to the service user


# -- pairing codes ---------------------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_expired_code_is_refused(tmp_path: Path) -> None:
    clock = Clock()
    access = Access(tmp_path, clock=clock)
    code, _ = access.new_code()
    clock.now += CODE_SECONDS + 0.1
    with pytest.raises(PairingError, match="no pairing code"):
        access.pair(code, "x")
    assert access.device_list() == []


def test_a_code_works_once(tmp_path: Path) -> None:
    access = Access(tmp_path, clock=Clock())
    code, _ = access.new_code()
    access.pair(code, "tablet")
    with pytest.raises(PairingError):
        access.pair(code, "another")
    assert len(access.device_list()) == 1


def test_guessing_burns_the_code_and_then_locks_pairing(tmp_path: Path) -> None:
    clock = Clock()
    access = Access(tmp_path, clock=clock)
    code, _ = access.new_code()
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(MAX_TRIES):
        with pytest.raises(PairingError, match="wrong code"):
            access.pair(wrong, "guesser")
    with pytest.raises(PairingError):  # the right code is dead now: ask the table again
        access.pair(code, "guesser")
    for _ in range(3):  # a fresh code each time, guessed at again: pairing locks for a minute
        code, _ = access.new_code()
        for _ in range(MAX_TRIES):
            with pytest.raises(PairingError):
                access.pair(f"{(int(code) + 1) % 1_000_000:06d}", "guesser")
    code, _ = access.new_code()
    with pytest.raises(PairingError, match="too many"):
        access.pair(code, "owner")
    clock.now += 61
    code, _ = access.new_code()
    access.pair(code, "owner")
    assert [d.name for d in access.device_list()] == ["owner"]


def test_brute_force_over_http_gets_nothing(table: Drained) -> None:
    code, _ = table.access.new_code()
    guesses = [f"{g:06d}" for g in range(21) if f"{g:06d}" != code][:20]
    for guess in guesses:
        status, headers, body = http("POST", table.base + "/api/pair", json.dumps({"code": guess}).encode(),
                                     same_origin(table.port))
        assert status == 403 and "Set-Cookie" not in headers, body
    # after MAX_TRIES wrong guesses the code itself is dead: its owner asks the table for a new one
    status, headers, _ = http("POST", table.base + "/api/pair", json.dumps({"code": code}).encode(),
                              same_origin(table.port))
    assert status == 403 and "Set-Cookie" not in headers
    assert table.access.device_list() == []


# -- changes: pairing, CSRF, origin ----------------------------------------------------------------------
def test_a_paired_device_adds_a_deal(table: Drained) -> None:
    game = parlett_game(table)
    cookie, csrf = pair(table)
    headers = same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf})
    status, body = post_deal(table, game.game_id, headers)
    assert status == 200, body
    assert deals_stored(table, game.game_id) == (DEAL,)


@pytest.mark.parametrize("case", ["unpaired", "forged cookie", "revoked", "no csrf", "wrong csrf",
                                  "other origin", "no origin", "cross-site fetch", "form post"])
def test_a_change_without_every_proof_is_refused_and_changes_nothing(table: Drained, case: str) -> None:
    game = parlett_game(table)
    cookie, csrf = pair(table)
    headers = same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf})
    if case == "unpaired":
        del headers["Cookie"]
    elif case == "forged cookie":  # a device id is no secret (the table lists it); its secret is
        headers["Cookie"] = cookie.split(".")[0] + ".not-the-secret"
    elif case == "revoked":
        assert table.access.revoke(table.access.device_list()[0].id)
    elif case == "no csrf":
        del headers["X-CSRF-Token"]
    elif case == "wrong csrf":
        headers["X-CSRF-Token"] = csrf[:-1] + ("A" if csrf[-1] != "A" else "B")
    elif case == "other origin":
        headers["Origin"] = "http://evil.example"
    elif case == "no origin":
        del headers["Origin"]
    elif case == "cross-site fetch":
        del headers["Origin"]
        headers["Sec-Fetch-Site"] = "cross-site"
    elif case == "form post":
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    status, body = post_deal(table, game.game_id, headers)
    assert status in (401, 403), (case, status, body)
    assert "error" in body
    assert deals_stored(table, game.game_id) == ()


def test_pairing_from_another_site_is_refused(table: Drained) -> None:
    code, _ = table.access.new_code()
    status, headers, _ = http("POST", table.base + "/api/pair", json.dumps({"code": code}).encode(),
                              {"Origin": "http://evil.example", "Content-Type": "application/json"})
    assert status == 403 and "Set-Cookie" not in headers
    assert table.access.device_list() == []


# -- bodies -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body,want", [
    (b"{" + b'"deal": "' + b"x" * 20_000 + b'"}', 413),
    (b"{not json", 400),
    (b"[1, 2]", 400),
    (b"\xff\xfe", 400),
    (b"[" * 5000 + b"]" * 5000, 400),
    (json.dumps({"deal": {"bids": {"Ann": 3}, "tricks": {}}, "seen": NEW}).encode(), 422),
    (json.dumps({"deal": {"bids": {"Ann": 4, "Ben": 3, "Cat": 3},
                          "tricks": {"Ann": 5, "Ben": 3, "Cat": 3}}, "seen": NEW}).encode(), 422),
    (json.dumps({"deal": "three", "seen": NEW}).encode(), 422),
    (json.dumps({"deal": {"bids": {"Ann": "x" * 100, "Ben": None, "Cat": [1]}, "tricks": 7},
                 "seen": NEW}).encode(), 422),
])
def test_oversized_malformed_or_impossible_bodies_are_refused_and_change_nothing(
        table: Drained, body: bytes, want: int) -> None:
    game = parlett_game(table)
    cookie, csrf = pair(table)
    status, answer = post_deal(table, game.game_id, same_origin(table.port, Cookie=cookie,
                                                                **{"X-CSRF-Token": csrf}), body)
    assert status == want, answer
    assert deals_stored(table, game.game_id) == ()
    assert len(ParlettSession.load(table.store, game.game_id).sheet.deals) == 0


def test_the_board_game_takes_no_changes_from_the_web(table: Drained) -> None:
    from app.games.board99.game import Board99Game, TableSetup
    from rules import board99 as rules

    game = Board99Game.create(table.store, rules.make_setup(["Ann", "Ben"]), TableSetup())
    cookie, csrf = pair(table)
    status, _, _ = http("POST", f"{table.base}/api/game/{game.id}/add", b"{}",
                        same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf}))
    assert status == 403
    assert table.store.load(game.id).actions == ()


# -- connection caps -------------------------------------------------------------------------
def test_streams_are_capped(tmp_path: Path) -> None:
    import socket

    t = Drained(tmp_path, max_streams=3, max_streams_per_client=2)
    try:
        parlett_game(t)
        held = []
        for _ in range(2):
            s = socket.create_connection(("127.0.0.1", t.port))
            s.sendall(f"GET /v/{t.access.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert b"200 OK" in s.recv(200)
            held.append(s)
        status, headers, _ = http("GET", t.base + "/events")
        assert status == 503 and "Retry-After" in headers
        for s in held:
            s.close()
    finally:
        t.close()
