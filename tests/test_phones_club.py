"""A Ninety Nine game played with phones goes to the club hub like any Ninety Nine game: its record
once finished, its winner found by the hub's own rules, and never its seed or the seats' credentials."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.club.outbox import Outbox
from app.club.outcome import outcome
from app.games.count99.phones import PhoneOptions
from app.store import GameStore
from tests.phones_support import joined_table, play_out


def test_a_phones_game_is_reported_without_its_seed_or_credentials(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "t.sqlite3")
    _registry, table, _credentials = joined_table(
        store, PhoneOptions(seats=("person", "person", "hard"), tokens=2, computer_pause=0))
    table.start(seed=424242)
    play_out(table, random.Random(2))
    assert table.game is not None and table.game_id is not None
    stored = store.load(table.game_id)
    digests = [s["credential"] for s in stored.setup["seats"] if s["credential"]]
    assert len(digests) == 2
    outbox = Outbox(store.path, "t1")
    assert outbox.capture(stored) > 0
    messages = outbox.pending()
    for message in messages:
        assert b"424242" not in message.payload and b'"seed"' not in message.payload
        assert not any(d.encode() in message.payload for d in digests)
    records = [json.loads(m.payload) for m in messages if m.topic.endswith("/record")]
    assert len(records) == 1
    game = records[0]["game"]
    players, winners = outcome(game["kind"], game["setup"], game["actions"])
    assert winners == [table.game.setup.players[table.game.table.winner or 0]]
    assert players == list(table.game.setup.players)
