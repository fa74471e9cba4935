"""Privacy of Ninety Nine with phones at the HTTP level: every route, asked with one seat's cookie,
a viewer's (none) and the host's, answers exactly the same whatever the *other* seats hold; so no
page, stream or JSON answer carries a card of another hand. Also: seat codes burn after 5 wrong
tries over HTTP, a seat acts only as itself, and the keeper's API cannot play a phones game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.games.count99.phones import CODE_TRIES, PhoneTable
from rules.count99.cards import CARD_NAMES
from tests.phones_web_support import PhonesWeb
from tests.web_support import wait_for


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[PhonesWeb]:
    web = PhonesWeb(tmp_path)
    yield web
    web.close()


def routes(table: PhoneTable, game_id: int) -> list[str]:
    t = f"/phones/{table.table_id}"
    return [t, f"{t}?tv", f"{t}/host", f"{t}/api/view", f"{t}/api/view?tv", f"{t}/api/view?as=host",
            f"{t}?lang=de", f"{t}/api/view?lang=de", "/phones", "/", "/live", f"/game/{game_id}",
            f"/api/view/{game_id}", "/api/view/current", f"events:{t}/events", f"events:{t}/events?tv",
            f"events:{t}/events?as=host", f"events:/events?game={game_id}"]


def fetch(phones: PhonesWeb, route: str, cookie: str) -> str:
    if route.startswith("events:"):
        return phones.first_event(route[len("events:"):], cookie)
    status, body = phones.get(route, cookie)
    return f"{status} {body}"


def person_on_turn(table: PhoneTable) -> bool:
    game = table.game
    return game is not None and game.table.turn is not None and table.seats[game.table.turn].person


def test_no_route_shows_another_seats_cards(phones: PhonesWeb) -> None:
    table = phones.open_table(people=2, computers=2, level="hard", hand_size=5, tokens=3, computer_pause=0)
    ann = phones.join(table, 0, "Ann")
    ben = phones.join(table, 1, "Ben")
    assert phones.host(table, op="start") == (200, {"ok": True})
    wait_for(lambda: person_on_turn(table), what="a person's turn (the computers have played)")
    game = table.game
    assert game is not None and table.game_id is not None
    rng = random.Random(1)
    names = CARD_NAMES[game.variant]
    askers = {"Ann's phone": (ann[0], 0), "Ben's phone": (ben[0], 1), "a viewer": ("", None),
              "the host": (phones.host_cookie, None)}
    checked = 0
    for who, (cookie, own) in askers.items():
        for route in routes(table, table.game_id):
            before = fetch(phones, route, cookie)
            saved = [list(h) for h in game.hands]
            for seat in range(len(game.hands)):
                if seat != own:
                    game.hands[seat] = [rng.choice(names) for _ in game.hands[seat]]
            table._publish()  # as the next commit would
            phones.web.server._viewer_cache.clear()  # built again, from these hands
            try:
                after = fetch(phones, route, cookie)
            finally:
                game.hands[:] = saved
                table._publish()
                phones.web.server._viewer_cache.clear()
            assert after == before, f"{route} asked by {who} depends on another seat's cards"
            checked += 1
    assert checked == len(askers) * len(routes(table, table.game_id))
    # and what a seat's JSON holds is exactly its own hand
    _status, body = phones.get(f"/phones/{table.table_id}/api/view", ann[0])
    view = json.loads(body)["view"]
    assert [c["card"] for c in view["hand"]] == game.hands[0]
    _status, body = phones.get(f"/phones/{table.table_id}/api/view", "")
    assert "hand" not in json.loads(body)["view"]


def test_a_seat_acts_only_as_itself_and_a_viewer_not_at_all(phones: PhonesWeb) -> None:
    table = phones.open_table(people=2, computers=0, hand_size=3, tokens=2)
    ann = phones.join(table, 0, "Ann")
    ben = phones.join(table, 1, "Ben")
    phones.host(table, op="start")
    game = table.game
    assert game is not None and table.game_id is not None
    turn = game.table.turn
    off_turn = ben if turn == 0 else ann
    stored = len(phones.web.store.load(table.game_id).actions)
    status, data = phones.act(table, *off_turn, op="play", slot=0)
    assert status == 422 and "not your turn" in data["error"]
    assert phones.act(table, "", "", op="play", slot=0)[0] == 401  # a viewer
    assert phones.act(table, off_turn[0], "wrong", op="play", slot=0)[0] == 403  # CSRF
    # the keeper's API (a paired tablet tapping cards of a real deck) cannot play this game
    from app.games.views import record_version

    seen = record_version(phones.web.store.load(table.game_id).actions)
    status, data, _h = phones.post(f"/api/game/{table.game_id}/play", {"card": "K", "seen": seen},
                                   phones.host_cookie, phones.host_csrf)
    assert status == 422 and "phones" in data["error"]
    assert len(phones.web.store.load(table.game_id).actions) == stored
    # the host's actions need the host: a seat's cookie is not enough
    status, _d, _h = phones.post(f"/phones/{table.table_id}/api/host", {"op": "remove", "index": 1}, *ann)
    assert status == 401 and table.seats[1].person


def test_a_seat_code_burns_after_five_wrong_tries_over_http(phones: PhonesWeb) -> None:
    table = phones.open_table(people=2, computers=0)
    code = table.seats[1].code
    wrong = "0000" if code != "0000" else "1111"
    for _ in range(CODE_TRIES):
        status, data, _h = phones.post(f"/phones/{table.table_id}/api/join", {"seat": 1, "code": wrong,
                                                                              "name": "Mallory"})
        assert status == 403
    assert "burnt" in data["error"]
    join = f"/phones/{table.table_id}/api/join"
    status, data, _h = phones.post(join, {"seat": 1, "code": code, "name": "Ben"})
    assert status == 403 and "used up" in data["error"]
    status, data, _h = phones.post(f"/phones/{table.table_id}/api/join?lang=de",
                                   {"seat": 1, "code": code, "name": "Ben"})
    assert status == 403 and data["error"] != "this seat's code is used up: ask the host for a new one"
    assert phones.host(table, op="new-code", index=1)[0] == 200
    assert table.seats[1].code is not None and table.seats[1].code != code


def test_the_host_switches_seats_in_the_lobby_and_only_the_host(phones: PhonesWeb) -> None:
    table = phones.open_table(people=2, computers=1, level="easy")
    assert [s.kind for s in table.seats] == ["person", "person", "easy"]
    assert phones.host(table, op="seat", index=1, kind="hard") == (200, {"ok": True})
    assert [s.kind for s in table.seats] == ["person", "hard", "easy"]
    status, data = phones.host(table, op="seat", index=0, kind="robot")
    assert status == 422 and "seat is one of" in data["error"]
    status, _data, _h = phones.post(f"/phones/{table.table_id}/api/host", {"op": "seat", "index": 0,
                                                                          "kind": "hard"})
    assert status == 401 and table.seats[0].person
    assert phones.host(table, op="turn-time", seconds=30) == (200, {"ok": True})
    assert table.options.turn_seconds == 30
    status, data = phones.host(table, op="turn-time", seconds=2)
    assert status == 422 and "turn time must be 5 to 600" in data["error"]
    assert phones.host(table, op="turn-time", seconds=None)[0] == 200 and table.options.turn_seconds is None


def test_seat_codes_reach_the_host_only(phones: PhonesWeb) -> None:
    table = phones.open_table(people=3, computers=0)
    ann = phones.join(table, 0, "Ann")
    codes = [s.code for s in table.seats[1:]]
    assert all(codes)
    t = f"/phones/{table.table_id}"
    for who, cookie in (("Ann's phone", ann[0]), ("a viewer", "")):
        for route in (t, f"{t}?tv", f"{t}/host", f"{t}/api/view", f"{t}/api/view?as=host", "/phones"):
            _status, body = phones.get(route, cookie)
            assert '"code":' not in body and '"code": ' not in body, f"{route} shows codes to {who}"
        event = phones.first_event(f"{t}/events?as=host", cookie)
        assert '"code":' not in event
    _status, body = phones.get(f"{t}/api/view?as=host", phones.host_cookie)
    assert [s.get("code") for s in json.loads(body)["view"]["seats"]][1:] == codes


def test_the_phones_posts_pass_the_same_guards_as_every_change(phones: PhonesWeb) -> None:
    from tests.web_support import http

    table = phones.open_table(people=2, computers=0)
    code = table.seats[0].code
    url = f"{phones.base}/phones/{table.table_id}/api/join"
    body = json.dumps({"seat": 0, "code": code, "name": "Ann"}).encode()
    status, _h, _b = http("POST", url, body, {"Content-Type": "application/json"})  # no Origin
    assert status == 403
    status, _h, _b = http("POST", url, body, {"Content-Type": "application/json", "Origin": "http://evil.example"})
    assert status == 403
    status, _h, _b = http("POST", url, b"x" * 20_000, {"Content-Type": "application/json",
                                                      "Origin": f"http://127.0.0.1:{phones.port}"})
    assert status == 413
    assert not table.seats[0].joined and table.seats[0].wrong == 0
    status, _h, _b = http("GET", f"http://127.0.0.1:{phones.port}/v/wrong-token/phones/{table.table_id}")
    assert status == 404
