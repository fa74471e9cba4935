"""What the web display shows and what a paired device may change, without a browser."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.count99_game import ComputerGame, KeptGame
from app.parlett_game import ParlettSession
from app.store import GameStore
from app.web.views import Tr, build_view
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


def read_stream(table: Drained, seconds: float, last_id: str | None = None) -> str:
    """What an event stream sends in ``seconds`` (raw HTTP, so Last-Event-ID is under our control)."""
    import socket

    sock = socket.create_connection(("127.0.0.1", table.port))
    header = f"Last-Event-ID: {last_id}\r\n" if last_id else ""
    path = f"/v/{table.access.token}/events?game=current"
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{header}\r\n".encode())
    sock.settimeout(0.2)
    received = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            break
        received += chunk
    sock.close()
    return received.decode(errors="replace")


def test_a_reconnecting_page_gets_the_view_again_only_when_it_changed(table: Drained) -> None:
    import re

    session = ParlettSession.new(table.store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    first = read_stream(table, 1.0)
    event_id = re.search(r"^id: (\w+)$", first, re.M)
    assert event_id and "event: view" in first
    assert "event: view" not in read_stream(table, 1.0, event_id.group(1))  # nothing new: nothing sent
    session.add_deal(SMALL)
    again = read_stream(table, 1.0, event_id.group(1))
    assert "event: view" in again and '"actions":1' in again
