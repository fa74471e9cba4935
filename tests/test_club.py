"""Many tables, one screen (issue 19): tables report to a hub through a REAL Mosquitto.

The broker is started by the tests on 127.0.0.1 on a free port, with a user per table and an ACL
(tests/club_support.py). Tables play in separate processes.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.club.hub import HubListener, HubStore, standings
from app.club.outbox import Outbox
from app.club.outcome import player_key
from app.config import ConfigError, load_config_or_default, parse_config
from app.store import GameStore
from tests.club_support import HUB_PASSWORD, HUB_USER, Broker, board99_game, parlett_rubber

ROOT = Path(__file__).resolve().parents[1]


def wait_for(check, seconds: float = 30.0, what: str = "") -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {what}")


# -- config ----------------------------------------------------------------------------------------
def test_club_is_off_by_default_and_checked_like_the_rest(tmp_path: Path) -> None:
    assert parse_config("").club["enabled"] is False
    config = parse_config('[club]\nenabled = true\nhost = "hub.local"\ntable = "t-3"\nusername = "t-3"\n')
    assert config.club["table"] == "t-3" and config.club["port"] == 1883
    with pytest.raises(ConfigError, match=r"\[club\] table: must be 1-32 letters"):
        parse_config('[club]\ntable = "a/#"\n')  # a topic wildcard in the name would escape the ACL
    with pytest.raises(ConfigError, match=r"\[club\] table: must not be \"hub\""):
        parse_config('[club]\ntable = "hub"\n')  # the hub's confirmations are under table99/hub/
    with pytest.raises(ConfigError, match=r"\[club\] prot: unknown key \(did you mean 'port'\?\)"):
        parse_config("[club]\nprot = 1883\n")
    bad = tmp_path / "config.toml"
    bad.write_text("[club]\nport = 99999\n")
    config, problem = load_config_or_default(bad)
    assert problem is not None and "[club] port" in problem and config.club["enabled"] is False


# -- the outbox --------------------------------------------------------------------------------------
def test_the_outbox_has_an_event_per_action_one_state_and_the_record_once(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "t.sqlite3")
    outbox = Outbox(store.path, "t1")
    game_id = board99_game(store, 1, ("Ann", "Ben"))
    stored = store.load(game_id)
    assert outbox.capture(stored) == 1 + len(stored.actions) + 2  # new, actions, state, record
    assert outbox.capture(stored) == 0  # nothing new: nothing queued twice
    messages = outbox.pending()
    ids = [json.loads(m.payload)["id"] for m in messages]
    assert len(set(ids)) == len(ids)
    assert [m.topic for m in messages].count("table99/t1/state") == 1
    assert [m.topic for m in messages].count("table99/t1/record") == 1
    assert all(m.retain == m.topic.endswith("/state") for m in messages)
    again = Outbox(store.path, "t1")  # a restart: the same store id, the same message ids
    assert [json.loads(m.payload)["id"] for m in again.pending()] == ids
    outbox.delivered([m.row for m in messages[:3]])
    assert again.count() == len(messages) - 3


def test_a_finished_game_touched_again_is_not_a_second_record(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "t.sqlite3")
    outbox = Outbox(store.path, "t1")
    game_id = parlett_rubber(store, 1)
    outbox.capture(store.load(game_id))
    store.update_setup(game_id, dict(store.load(game_id).setup))  # e.g. the draft cleared again
    assert outbox.capture(store.load(game_id)) == 1  # a "change" event; the new state replaces the old
    assert [m.topic for m in outbox.pending()].count("table99/t1/record") == 1
    before = store.load(game_id)
    last = store.pop_last(game_id)  # undone, then won again: a record again (the hub replaces it)
    assert last is not None
    outbox.capture(store.load(game_id))
    store.append(game_id, last, finished=before.result)
    outbox.capture(store.load(game_id))
    records = [json.loads(m.payload)["game"]["status"] for m in outbox.pending()
               if m.topic.endswith("/record")]
    assert records == ["finished", "playing", "finished"]  # the undo takes the win back (issue 32, point 8)


def test_a_parlett_draft_never_leaves_the_table(tmp_path: Path) -> None:
    from app.games.parlett.game import ParlettSession

    store = GameStore(tmp_path / "t.sqlite3")
    session = ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
    session.save_draft({"bids": {"Ann": "HIDDEN-7"}})
    outbox = Outbox(store.path, "t1")
    outbox.capture(store.load(session.game_id))
    assert all(b"HIDDEN-7" not in m.payload for m in outbox.pending())


# -- the hub's store ---------------------------------------------------------------------------------
def test_a_repeated_message_is_kept_once_and_a_corrected_record_replaces(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "t.sqlite3")
    outbox = Outbox(store.path, "t1")
    outbox.capture(store.load(parlett_rubber(store, 0)))
    hub = HubStore(tmp_path / "hub.sqlite3")
    for message in outbox.pending() * 2:  # every message twice (a lost PUBACK, a redelivery)
        hub.receive(message.topic, message.payload)
    assert hub.count("records") == 1
    assert hub.count("messages") == len(outbox.pending())
    record = next(m for m in outbox.pending() if m.topic.endswith("/record"))
    body = json.loads(record.payload)
    body["id"] = "t1:other:99"  # the same game sent again after a correction: a new message
    body["game"]["updated"] = float(body["game"]["updated"]) + 60
    body["game"]["result"] = "corrected"
    hub.receive(record.topic, json.dumps(body).encode())
    assert hub.count("records") == 1
    assert hub.records(None)[0]["result"] == "corrected"
    # the older version, resent late (a broker took it and died): never replaces the correction
    stale = json.loads(record.payload)
    stale["id"] = "t1:other:100"
    hub.receive(record.topic, json.dumps(stale).encode())
    assert hub.count("records") == 1 and hub.records(None)[0]["result"] == "corrected"


def test_the_hub_ignores_garbage_with_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    hub = HubStore(tmp_path / "hub.sqlite3")
    assert not hub.receive("table99/t1/record", b"\xff not json")
    assert not hub.receive("table99/t1/record", json.dumps({"id": "x", "game": {"kind": "chess"}}).encode())
    assert not hub.receive("table99/t1/other", b"{}")
    assert not hub.receive("table99/t1/state", b"[1]")
    assert hub.count("messages") == 0
    assert all("\n" not in r.getMessage() for r in caplog.records) and len(caplog.records) == 4


def test_players_are_matched_by_trimmed_case_folded_name() -> None:
    assert player_key("  ann   Lee ") == player_key("Ann Lee") == "ann lee"
    assert player_key("Anne") != player_key("Ann")
    records = [{"table": "t1", "kind": "board99", "players": ["Ann", "Ben"], "winners": ["Ann"]},
               {"table": "t2", "kind": "count99", "players": ["ann ", "Cat"], "winners": ["ann "]},
               {"table": "t2", "kind": "parlett", "players": ["Ben", "ANN", "Cat"], "winners": ["Cat"]}]
    rows = {r["player"]: r for r in standings(records)}
    assert set(rows) == {"Ann", "Ben", "Cat"}
    assert rows["Ann"]["won"] == {"parlett": 0, "board99": 1, "count99": 1} and rows["Ann"]["games"] == 3
    assert rows["Ann"]["tables"] == {"t1": {"played": 1, "won": 1}, "t2": {"played": 2, "won": 1}}
    assert standings(records)[0]["player"] == "Ann"


# -- with a real broker ------------------------------------------------------------------------------
TABLES = ["t1", "t2", "t3"]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path / "broker", TABLES)
    yield b
    b.stop(signal.SIGKILL)


@pytest.fixture
def hub(tmp_path: Path, broker: Broker) -> Iterator[HubStore]:
    store = HubStore(tmp_path / "hub.sqlite3")
    listener = HubListener(store, "127.0.0.1", broker.port, HUB_USER, HUB_PASSWORD,
                           client_id=f"hub-{tmp_path.name}").start()
    wait_for(lambda: listener.status.startswith("hub: listening"), 10, "the hub connects")
    wait_for(listener.subscribed.is_set, 10, "the broker grants the hub's subscriptions")
    store.listener = listener  # type: ignore[attr-defined]
    yield store
    listener.stop()
    store.close()


def table_process(tmp_path: Path, broker: Broker, table: str, seed: int, games: int,
                  pause: float) -> subprocess.Popen[str]:
    code = (f"from tests.club_support import play_evening; play_evening({table!r}, {broker.port}, "
            f"{str(tmp_path / (table + '.sqlite3'))!r}, {seed}, {games}, {pause})")
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen[str]) -> dict[str, object]:
    out, _ = process.communicate(timeout=180)
    assert process.returncode == 0, out
    return dict(json.loads(out.strip().splitlines()[-1]))


def expected_standings(reports: list[dict[str, object]]) -> list[dict[str, object]]:
    records = [{"table": r["table"], "kind": g["kind"], "players": g["players"], "winners": g["winners"]}
               for r in reports for g in r["games"]]  # type: ignore[attr-defined]
    return standings(records)


def check_hub(hub: HubStore, reports: list[dict[str, object]], every_event: bool = True) -> None:
    games = {g["key"]: g for r in reports for g in r["games"]}  # type: ignore[attr-defined]
    records = hub.records(None)
    assert sorted(r["game"] for r in records) == sorted(games)  # every finished game, exactly once
    for r in records:
        assert r["winners"] == games[r["game"]]["winners"]
    assert standings(records) == expected_standings(reports)
    events = [json.loads(row) for row in hub._db.execute("SELECT body FROM events").fetchall() for row in row]
    actions = sorted((e["game"], e["seq"]) for e in events if e["what"] == "action")
    played = sorted((k, s) for k, g in games.items() for s in range(g["actions"]))
    assert len(set(actions)) == len(actions) and set(actions) <= set(played)  # never twice
    if every_event:
        assert actions == played


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_tables_in_processes_report_every_game_once_across_a_broker_restart(
        tmp_path: Path, broker: Broker, hub: HubStore, stop: signal.Signals) -> None:
    """Records are confirmed by the hub end to end, so even a killed broker (which had taken some
    with a PUBACK and not passed them on) loses none. Events and the live state rely on the
    broker's persistence (saved every second here): after a kill an event may be missing, never
    doubled; after a stop, none is missing."""
    tables = [table_process(tmp_path, broker, t, seed, games=6, pause=0.4) for seed, t in enumerate(TABLES)]
    time.sleep(1.5)
    broker.stop(stop)  # mid-evening: the broker goes away for a while; the tables play on
    time.sleep(2.5)
    broker.start()
    reports = [finish(p) for p in tables]
    assert all(r["left"] == 0 for r in reports), reports
    wait_for(lambda: hub.count("records") >= 18, 30, "every record at the hub")
    time.sleep(1.0)  # anything late (a duplicate) would arrive now
    check_hub(hub, reports, every_event=stop == signal.SIGTERM)
    states = {t["name"]: t["game"] for t in hub.tables()}
    assert set(states) == set(TABLES) and all(g["status"] == "finished" for g in states.values())


@pytest.mark.slow
def test_a_table_cut_off_for_a_while_catches_up_without_duplicates(
        tmp_path: Path, broker: Broker, hub: HubStore) -> None:
    db = tmp_path / "t1.sqlite3"
    first = table_process(tmp_path, broker, "t1", 7, games=3, pause=0.0)
    assert finish(first)["left"] == 0
    # cut off: the table plays with the broker unreachable (wrong port), then comes back
    store = GameStore(db)
    from app.club.reporter import ClubReporter

    away = ClubReporter(store, broker.options("t1", port=1)).start()
    offline = [parlett_rubber(store, 11), board99_game(store, 12, ("Dan", "Fay"))]
    time.sleep(1.0)
    assert away.outbox.count() > 0 and hub.count("records") == 3
    away.stop()
    back = ClubReporter(store, broker.options("t1")).start()
    wait_for(lambda: back.outbox.count() == 0 and back.outbox.unconfirmed() == 0, 30,
             "the outbox empties and the hub confirms")
    back.stop()
    wait_for(lambda: hub.count("records") == 5, 10, "the games played offline reach the hub")
    keys = {r["game"] for r in hub.records(None)}
    assert {back.outbox.game_key(g) for g in offline} <= keys


@pytest.mark.slow
def test_wrong_credentials_are_refused_and_said_in_one_line(tmp_path: Path, broker: Broker,
                                                             hub: HubStore) -> None:
    from app.club.reporter import ClubReporter

    store = GameStore(tmp_path / "t2.sqlite3")
    reporter = ClubReporter(store, broker.options("t2", password="guess")).start()
    parlett_rubber(store, 0)
    wait_for(lambda: "refused" in reporter.status, 10, "the refusal")
    assert reporter.status == "club: the broker refused table 't2': Not authorized"
    wait_for(lambda: reporter.outbox.count() > 0, 10, "the rubber in the outbox")  # kept for when fixed
    time.sleep(1.0)
    assert hub.count("messages") == 0 and reporter.outbox.count() > 0
    reporter.stop()


@pytest.mark.slow
def test_a_table_cannot_publish_under_another_tables_topic(tmp_path: Path, broker: Broker,
                                                           hub: HubStore) -> None:
    import paho.mqtt.client as mqtt

    store = GameStore(tmp_path / "t1.sqlite3")
    outbox = Outbox(store.path, "t2")  # t1's credentials, t2's topics
    outbox.capture(store.load(parlett_rubber(store, 0)))
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="impostor")
    client.username_pw_set("t1", broker.options("t1")["password"])  # type: ignore[arg-type]
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    for message in outbox.pending():
        client.publish(message.topic, message.payload, qos=1).wait_for_publish(5)
    client.publish("table99/t1/event", json.dumps({"id": "t1:x:1", "game": "t1-x-1"}).encode(),
                   qos=1).wait_for_publish(5)
    wait_for(lambda: hub.count("messages") == 1, 10, "t1's own message")
    time.sleep(0.5)
    assert [t["name"] for t in hub.tables()] == ["t1"] and hub.count("records") == 0
    # and the hub may only read
    spoof = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="hub-writes")
    spoof.username_pw_set(HUB_USER, HUB_PASSWORD)
    spoof.connect("127.0.0.1", broker.port)
    spoof.loop_start()
    spoof.publish("table99/t3/event", json.dumps({"id": "t3:x:1", "game": "t3-x-1"}).encode(),
                  qos=1).wait_for_publish(5)
    time.sleep(0.5)
    assert hub.count("messages") == 1
    for c in (client, spoof):
        c.disconnect()
        c.loop_stop()


def test_a_record_stays_until_the_hub_confirms_it_and_is_resent_with_its_id(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "t.sqlite3")
    outbox = Outbox(store.path, "t1")
    outbox.capture(store.load(parlett_rubber(store, 0)))
    messages = outbox.pending()
    record = next(m for m in messages if m.topic.endswith("/record"))
    outbox.delivered([m.row for m in messages], now=1000.0)  # every PUBACK came
    assert outbox.count() == 0 and outbox.unconfirmed() == 1
    assert outbox.resend_due(now=1005.0) == 0  # not yet: the hub may still be passing it on
    assert outbox.resend_due(now=1011.0) == 1
    again = outbox.pending()
    assert [(m.topic, m.payload) for m in again] == [(record.topic, record.payload)]  # the same id
    outbox.delivered([again[0].row], now=1012.0)
    assert outbox.resend_due(now=1025.0) == 0  # its new PUBACK starts the wait again, doubled
    assert outbox.resend_due(now=1033.0) == 1
    assert outbox.confirmed([json.loads(record.payload)["id"]]) == 1
    assert outbox.unconfirmed() == 0 and outbox.resend_due(now=10**9) == 0


@pytest.mark.slow
def test_what_the_broker_never_acknowledged_is_sent_by_the_next_start(tmp_path: Path, broker: Broker,
                                                                      hub: HubStore) -> None:
    """The broker freezes (SIGSTOP) while the table publishes, then dies with the bytes unread:
    the table had no PUBACK, so the rows are still in its outbox and the next start sends them."""
    from app.club.reporter import ClubReporter

    store = GameStore(tmp_path / "t1.sqlite3")
    reporter = ClubReporter(store, broker.options("t1")).start()
    wait_for(lambda: reporter.status.startswith("club: reporting"), 10, "the table connects")
    assert broker.process is not None
    broker.process.send_signal(signal.SIGSTOP)
    game_id = parlett_rubber(store, 2)
    time.sleep(1.0)  # captured and published into the frozen broker's socket
    reporter.stop()
    broker.process.send_signal(signal.SIGKILL)
    broker.process.wait(10)
    broker.process = None
    broker.start()
    listener = hub.listener  # type: ignore[attr-defined]
    wait_for(lambda: listener.status.startswith("hub: listening"), 40, "the hub reconnects")
    back = ClubReporter(store, broker.options("t1")).start()
    wait_for(lambda: back.outbox.count() == 0 and back.outbox.unconfirmed() == 0, 30, "sent and confirmed")
    back.stop()
    wait_for(lambda: hub.count("records") == 1, 10, "the record at the hub")
    assert hub.records(None)[0]["game"] == back.outbox.game_key(game_id)
    events = [json.loads(b) for (b,) in hub._db.execute("SELECT body FROM events").fetchall()]
    seqs = sorted(e["seq"] for e in events if e["what"] == "action")
    assert seqs == list(range(len(store.load(game_id).actions)))  # every event too (not confirmed: PUBACK)


@pytest.mark.slow
def test_a_record_the_broker_took_but_nobody_heard_is_sent_again(tmp_path: Path, broker: Broker,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The broker acknowledges a record no subscriber gets (the hub's session gone, as after a
    broker killed before it saved it): only the hub's confirmation makes the table send it again."""
    import app.club.outbox
    from app.club.reporter import ClubReporter

    monkeypatch.setattr(app.club.outbox, "RESEND_AFTER", 1.0)
    store = GameStore(tmp_path / "t1.sqlite3")
    reporter = ClubReporter(store, broker.options("t1")).start()
    game_id = parlett_rubber(store, 4)
    wait_for(lambda: reporter.outbox.unconfirmed() == 1 and reporter.outbox.count() == 0, 10,
             f"the broker acknowledges everything ({reporter.status})")
    hub = HubStore(tmp_path / "hub.sqlite3")
    listener = HubListener(hub, "127.0.0.1", broker.port, HUB_USER, HUB_PASSWORD,
                           client_id="late-hub").start()
    try:
        wait_for(lambda: hub.count("records") == 1, 20, "the record sent again")
        wait_for(lambda: reporter.outbox.unconfirmed() == 0, 10, "the hub's confirmation")
        assert hub.records(None)[0]["game"] == reporter.outbox.game_key(game_id)
    finally:
        reporter.stop()
        listener.stop()


def test_a_capture_that_fails_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store busy (or any error) at one capture: the game is captured again, not only at its
    next commit (a finished game has none)."""
    import app.club.reporter as reporter_module

    store = GameStore(tmp_path / "t.sqlite3")
    reporter = reporter_module.ClubReporter(store, {"table": "t1", "host": "127.0.0.1", "port": 1})
    calls = [0]
    real = reporter.outbox.capture

    def flaky(stored):  # type: ignore[no-untyped-def]
        if stored.status == "finished":
            calls[0] += 1
            if calls[0] == 1:  # the finishing commit's capture fails; no commit follows it
                raise RuntimeError("database is locked")
        return real(stored)

    monkeypatch.setattr(reporter.outbox, "capture", flaky)
    monkeypatch.setattr(reporter_module, "RETRY_AFTER", 0.3)
    reporter.start()
    try:
        game_id = board99_game(store, 3, ("Ann", "Ben"))
        wait_for(lambda: reporter.outbox.unconfirmed() + len([m for m in reporter.outbox.pending()
                                                              if m.topic.endswith("/record")]) == 1,
                 10, "the record captured after all")
        assert calls[0] >= 2 and store.load(game_id).status == "finished"
    finally:
        reporter.stop()


@pytest.mark.ui
@pytest.mark.slow
def test_a_table_with_wrong_credentials_says_so_on_its_home_screen(ui: Any, tmp_path: Path,
                                                                     broker: Broker) -> None:
    """Issue 19: "A table with wrong credentials is refused and says so on its screen", beside any
    problem the start already had (the line is added, not put in its place)."""
    from dataclasses import replace

    from app.commands.run_app import _start_club
    from app.config import Config
    from app.ui.shell import Table99App
    from tests.ui_support import frames, walk

    store = GameStore(tmp_path / "t2.sqlite3")
    app = Table99App(Config(), "settings.json: not UTF-8", store=store)
    ui.show(app.build())
    config = replace(Config(), club=broker.options("t2", password="guess"))
    reporter = _start_club(app, config, store, [])
    try:
        def said() -> bool:
            frames(1)
            return any("refused table 't2'" in getattr(w, "text", "") for w in walk(app.ctx.manager))

        wait_for(said, 20, "the refusal on the home screen")
        text = next(w.text for w in walk(app.ctx.manager) if "refused table 't2'" in getattr(w, "text", ""))
        assert "settings.json: not UTF-8" in text and "Not authorized" in text
        assert "user name and password" in text  # what to do about it
        ui.screenshot("club-refused-home")
    finally:
        reporter.stop()  # type: ignore[attr-defined]


def test_a_user_name_other_than_the_tables_is_refused_at_start() -> None:
    """The broker's ACL lets user X write only under table99/X, and an MQTT 3.1.1 broker acknowledges
    a refused publish anyway: a table logged in under another name would lose everything silently
    (issue 19 review). It is refused at start with one line instead."""
    from dataclasses import replace

    from app.club.launch import start_club
    from app.config import Config

    options = {"enabled": True, "host": "127.0.0.1", "port": 1, "table": "t1", "username": "t2",
               "password": "x", "tls_ca": ""}
    reporter, problem = start_club(replace(Config(), club=options), store=None)
    assert reporter is None and problem is not None and "'t2'" in problem and "'t1'" in problem
    assert "\n" not in problem
