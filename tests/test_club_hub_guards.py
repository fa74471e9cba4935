"""The hub keeps each table to its own entries, and one table's bad state never breaks the TV page.

Each test failed on the hub before these guards: a message id or game key of another table was
taken as given (a table could block another's messages as "repeats" or overwrite its finished
game), and one unshowable state raised out of the page for every table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest

from app.club.hub import HubStore
from app.club.outbox import Outbox
from app.store import GameStore
from tests.club_support import parlett_rubber


def t1_messages(tmp_path: Path) -> tuple[HubStore, list[tuple[str, bytes]]]:
    store = GameStore(tmp_path / "t1.sqlite3")
    outbox = Outbox(store.path, "t1")
    outbox.capture(store.load(parlett_rubber(store, 0)))
    return HubStore(tmp_path / "hub.sqlite3"), [(m.topic, m.payload) for m in outbox.pending()]


def test_a_table_cannot_take_another_tables_message_id(tmp_path: Path) -> None:
    hub, messages = t1_messages(tmp_path)
    topic, payload = next((t, p) for t, p in messages if t.endswith("/event"))
    forged = json.loads(payload)  # t2 sends, first, under t1's next message id
    assert not hub.receive("table99/t2/event", json.dumps(forged).encode())
    assert hub.receive(topic, payload)  # t1's own message is not taken for a repeat
    assert hub.count("events") == 1 and hub.count("messages") == 1


def test_a_table_cannot_overwrite_another_tables_finished_game(tmp_path: Path) -> None:
    hub, messages = t1_messages(tmp_path)
    for topic, payload in messages:
        hub.receive(topic, payload)
    (kept,) = hub.records(None)
    assert kept["table"] == "t1"
    record = json.loads(next(p for t, p in messages if t.endswith("/record")))
    record["id"] = "t2:abcdef012345:1"  # t2's own id, but t1's game key, a later "correction"
    record["table"] = "t2"
    record["game"]["updated"] = float(record["game"]["updated"]) + 60
    record["game"]["result"] = "forged by t2"
    assert not hub.receive("table99/t2/record", json.dumps(record).encode())
    (after,) = hub.records(None)
    assert after["table"] == "t1" and after["result"] == kept["result"]
    # t2's own game under a key that merely starts like another table's name ("t2-x" is a table too)
    record["game"]["key"] = "t2-x-abcdef012345-1"
    record["id"] = "t2:abcdef012345:2"
    assert not hub.receive("table99/t2/record", json.dumps(record).encode())


def test_a_malformed_state_is_refused_in_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    hub, messages = t1_messages(tmp_path)
    state = json.loads(next(p for t, p in messages if t.endswith("/state")))
    state["game"]["setup"] = "not a setup"
    with caplog.at_level(logging.WARNING, logger="app.club.hub"):
        assert not hub.receive("table99/t1/state", json.dumps(state).encode())
    (line,) = [r.getMessage() for r in caplog.records]
    assert "table 't1'" in line and "setup" in line and "\n" not in line
    assert hub.count("tables") == 0


def test_one_tables_unshowable_state_does_not_break_the_tv_page_for_the_others(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from aiohttp.test_utils import make_mocked_request

    from app.club.hub_web import HubWeb

    hub, messages = t1_messages(tmp_path)
    for topic, payload in messages:
        hub.receive(topic, payload)
    # a state the page chokes on, kept by a hub from before states were checked
    broken = {"key": "t2-abcdef012345-1", "kind": "board99", "setup": [7], "actions": [{}],
              "status": "playing", "created": 0, "updated": 0}
    hub._db.execute("INSERT INTO tables(name, state, heard) VALUES (?,?,?)",
                    ("t2", json.dumps(broken), time.time()))
    web = HubWeb(hub)
    with caplog.at_level(logging.WARNING, logger="app.club.hub_web"):
        for _ in range(3):  # the page fetches /panel every 2 s: one log line, not one per fetch
            response = asyncio.run(web.panel(make_mocked_request("GET", "/panel")))
    assert response.status == 200
    text = response.text or ""
    assert "Table t1" in text and "Table t2" in text
    assert "This table sent a state the hub cannot show." in text
    assert len([r for r in caplog.records if "t2" in r.getMessage()]) == 1


def test_an_unshowable_state_is_logged_once_per_state_not_once_per_message(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Review finding 9: the "logged once" set was keyed on (name, heard), so each new message from
    the table logged again and the set grew for ever."""
    from aiohttp.test_utils import make_mocked_request

    from app.club.hub_web import HubWeb

    hub = HubStore(tmp_path / "hub.sqlite3")
    broken = {"key": "t2-abcdef012345-1", "kind": "board99", "setup": [7], "actions": [{}],
              "status": "playing", "created": 0, "updated": 0}
    hub._db.execute("INSERT INTO tables(name, state, heard) VALUES (?,?,?)", ("t2", json.dumps(broken), 1.0))
    web = HubWeb(hub)
    with caplog.at_level(logging.WARNING, logger="app.club.hub_web"):
        for heard in range(2, 6):  # the table keeps sending (events, heartbeats): heard moves on
            hub._db.execute("UPDATE tables SET heard=? WHERE name='t2'", (float(heard),))
            asyncio.run(web.panel(make_mocked_request("GET", "/panel")))
        assert len([r for r in caplog.records if "t2" in r.getMessage()]) == 1
        assert len(web._logged) == 1
        broken["setup"] = [8]  # another state it cannot show: told again
        hub._db.execute("UPDATE tables SET state=? WHERE name='t2'", (json.dumps(broken),))
        asyncio.run(web.panel(make_mocked_request("GET", "/panel")))
    assert len([r for r in caplog.records if "t2" in r.getMessage()]) == 2
    assert len(web._logged) == 1  # the old state's key was replaced, not kept


def test_an_event_about_another_tables_game_is_refused(tmp_path: Path) -> None:
    hub, messages = t1_messages(tmp_path)
    topic, payload = next((t, p) for t, p in messages if t.endswith("/event"))
    body = json.loads(payload)
    assert isinstance(body.get("game"), str) and body["game"].startswith("t1-")
    forged = dict(body, id="t2:abcdef012345:9", table="t2")  # t2's own id, t1's game
    assert not hub.receive("table99/t2/event", json.dumps(forged).encode())
    assert hub.count("events") == 0
    assert hub.receive(topic, payload)


@pytest.mark.parametrize("sent", ["yesterday", "Infinity", "NaN", True, [1]])
def test_a_bad_sent_time_is_refused_in_one_line_never_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, sent: object) -> None:
    """Review finding 9: float(body["sent"]) raised with a full traceback on text; inf/nan froze the
    table's state (no later state is "newer" than inf)."""
    hub, messages = t1_messages(tmp_path)
    topic, payload = next((t, p) for t, p in messages if t.endswith("/state"))
    body = json.loads(payload)
    body["sent"] = float(sent) if sent in ("Infinity", "NaN") else sent
    with caplog.at_level(logging.WARNING, logger="app.club.hub"):
        assert not hub.receive(topic, json.dumps(body).encode())
    (line,) = [r.getMessage() for r in caplog.records]
    assert "sent" in line and "\n" not in line and not caplog.records[0].exc_info
    assert hub.count("tables") == 0
    assert hub.receive(topic, payload)  # the table's real state is still taken
