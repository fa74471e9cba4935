"""What the web display shows and what a paired device may change, without a browser."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.games.count99.game import ComputerGame, KeptGame
from app.games.parlett.game import ParlettSession
from app.games.views import Tr, build_view
from app.store import GameStore
from rules.count99.cards import Variant
from rules.count99.table import Setup
from tests.test_web_security import Drained, pair, seen
from tests.web_support import http, same_origin

SMALL = {"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}
OTHER = {"bids": {"Ann": 4, "Ben": 2, "Cat": 3}, "tricks": {"Ann": 4, "Ben": 3, "Cat": 2}}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Drained]:
    t = Drained(tmp_path)
    yield t
    t.close()


def test_parlett_bids_being_tapped_in_are_never_shown(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    session = ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    session.add_deal(SMALL)
    session.save_draft({"bids": {"Ann": "HIDDEN-7", "Ben": 2}})  # on the table's screen, face down
    view = build_view(store.load(session.game_id), Tr("en"))
    text = json.dumps(view)
    assert "HIDDEN-7" not in text and "draft" not in text
    assert [d["number"] for d in view["deals"]] == [1]  # the scored deal is shown with its bids
    assert view["deals"][0]["bids"] == {"Ann": "3", "Ben": "3", "Cat": "3"}


def test_a_computer_players_hand_and_the_deck_order_are_never_shown(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game = ComputerGame.create(store, Setup(Variant.QUENTIN_C, ("You", "C1", "C2")), seed=3)
    view = build_view(store.load(game.game_id), Tr("en"))
    assert set(view) >= {"count", "turn", "direction", "players", "plays"}
    assert set(view["players"][0]) == {"name", "tokens", "turn", "out"}  # no hand, no deck
    assert "deck" not in view and "cards" not in view


def test_views_in_german(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    kept = KeptGame.create(store, Setup(Variant.QUENTIN_C, ("Ann", "Ben")))
    kept.play("5")
    view = build_view(store.load(kept.game_id), Tr("de"))
    assert view["direction_text"] != "clockwise" and view["game"] != "Ninety Nine (count)"
    assert view["log"][-1]["text"].startswith("Ann spielt 5")


def test_a_damaged_record_gives_a_view_that_says_so(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    game_id = store.create_game("parlett", {"format": "table99/parlett", "variant": "nonsense"}, "x")
    view = build_view(store.load(game_id), Tr("en"))
    assert view["error"].startswith("This game cannot be shown")


def change(table: Drained, game_id: int, op: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    cookie, csrf = getattr(table, "_paired", None) or pair(table)
    table._paired = (cookie, csrf)  # type: ignore[attr-defined]
    body = {"seen": seen(table, game_id), **body}
    status, _, raw = http("POST", f"{table.base}/api/game/{game_id}/{op}", json.dumps(body).encode(),
                          same_origin(table.port, Cookie=cookie, **{"X-CSRF-Token": csrf}))
    return status, json.loads(raw)


def test_parlett_add_correct_and_delete_through_the_session(table: Drained) -> None:
    session = ParlettSession.new(table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    assert change(table, session.game_id, "add", {"deal": SMALL})[0] == 200
    assert change(table, session.game_id, "add", {"deal": SMALL})[0] == 200
    assert change(table, session.game_id, "correct", {"index": 0, "deal": OTHER})[0] == 200
    assert table.store.load(session.game_id).actions == (OTHER, SMALL)
    status, body = change(table, session.game_id, "correct", {"index": 5, "deal": OTHER})
    assert status == 422 and "no deal 6" in str(body["error"])
    assert change(table, session.game_id, "delete-last", {})[0] == 200
    assert table.store.load(session.game_id).actions == (OTHER,)
    status, body = change(table, session.game_id, "shuffle", {})
    assert status == 422 and "unknown" in str(body["error"])


def test_the_count_keeper_from_a_paired_phone(table: Drained) -> None:
    game = KeptGame.create(table.store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    assert change(table, game.game_id, "play", {"card": "9"})[0] == 200
    status, body = change(table, game.game_id, "play", {"card": "A"})  # an Ace: which way?
    assert status == 422, body
    assert change(table, game.game_id, "play", {"card": "A", "choice": 11})[0] == 200
    reference = KeptGame.create(GameStore(":memory:"), Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    reference.play("9")
    after_nine = reference.table.count
    reference.play("A", 11)
    assert KeptGame.load(table.store, game.game_id).table.count == reference.table.count
    status, body = change(table, game.game_id, "play", {"card": "Joker"})
    assert status == 422 and "card" in str(body["error"])
    assert change(table, game.game_id, "undo", {})[0] == 200
    assert KeptGame.load(table.store, game.game_id).table.count == after_nine
    view = json.loads(http("GET", f"{table.base}/api/view/{game.game_id}")[2])["view"]
    assert {c["card"] for c in view["cards"]} >= {"A", "K", "10"}


def test_a_game_against_the_computer_takes_no_taps_from_the_web(table: Drained) -> None:
    game = ComputerGame.create(table.store, Setup(Variant.QUENTIN_C, ("You", "C1")), seed=1)
    before = table.store.load(game.game_id).actions
    status, body = change(table, game.game_id, "play", {"card": "9"})
    assert status == 422 and "computer" in str(body["error"])
    assert table.store.load(game.game_id).actions == before


def first_event(table: Drained, last_id: str | None = None,
                then: Callable[[], object] | None = None) -> dict[str, str]:
    """Open an event stream (raw HTTP, so Last-Event-ID is under our control); check its 200 and that
    ``retry:`` comes first; call ``then()``; return the first whole event (10 s deadline, no fixed
    read window: the CI machine is a loaded 2-core box)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", table.port, timeout=10)
    try:
        headers = {"Last-Event-ID": last_id} if last_id else {}
        connection.request("GET", f"/v/{table.access.token}/events?game=current", headers=headers)
        response = connection.getresponse()
        assert response.status == 200
        assert response.readline().startswith(b"retry: ")
        assert response.readline() == b"\n"
        if then is not None:
            then()
        event: dict[str, str] = {}
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            line = response.readline().decode()
            assert line, "the stream ended"
            if line == "\n" and "data" in event:
                return event
            if line.startswith(":") or line == "\n":  # a keepalive comment
                continue
            field, _, value = line.rstrip("\n").partition(": ")
            event[field] = value
        raise AssertionError(f"no whole event within 10 s (got {event!r})")
    finally:
        connection.close()


def test_a_reconnecting_page_gets_the_view_again_only_when_it_changed(table: Drained) -> None:
    session = ParlettSession.new(table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    first = first_event(table)
    assert first["event"] == "view" and '"actions":0' in first["data"]
    # reconnecting with the view it has: the next event is the change, never that view again
    again = first_event(table, first["id"], then=lambda: session.add_deal(SMALL))
    assert again["id"] != first["id"] and '"actions":1' in again["data"]
    # a page that missed a change while away gets the new view at once
    assert '"actions":1' in first_event(table, first["id"])["data"]
