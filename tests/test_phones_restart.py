"""A restart of the table mid-game (the Pi lost power): the phones come back to their seats and hands."""

from __future__ import annotations

import json
from pathlib import Path

from app.games.live import LiveTable
from app.store import GameStore
from tests.phones_web_support import PhonesWeb
from tests.web_support import http


def test_after_a_restart_each_phone_finds_its_seat_and_hand(tmp_path: Path) -> None:
    from app.web.pairing import Access
    from app.web.server import WebServer

    phones = PhonesWeb(tmp_path)
    try:
        table = phones.open_table(people=2, computers=1, hand_size=4, tokens=5, computer_pause=0)
        ann = phones.join(table, 0, "Ann")
        ben = phones.join(table, 1, "Ben")
        assert phones.host(table, op="start")[0] == 200
        game = table.game
        assert game is not None
        hands = [list(h) for h in game.hands]
        table_id, port = table.table_id, phones.port
    finally:
        phones.close()  # the server stops and the store closes: the power is gone
    store = GameStore(tmp_path / "games.sqlite3")
    live = LiveTable(store)  # a fresh process: no table in memory
    server = WebServer(live, Access(tmp_path), "127.0.0.1", port)
    server.start()
    try:
        resumed = live.phones.get(table_id)
        assert resumed is not None  # loaded before the server listened
        base = f"http://127.0.0.1:{server.port}/v/{server.access.token}/phones/{table_id}"
        for seat, (cookie, _csrf) in enumerate((ann, ben)):
            status, _h, body = http("GET", base + "/api/view", None, {"Cookie": cookie})
            assert status == 200
            view = json.loads(body)["view"]
            assert view["you"] == seat
            assert [c["card"] for c in view["hand"]] == hands[seat]
    finally:
        server.stop()
        store.close()
