"""Many tables, one hub (issue 19): N tables report through a real Mosquitto to the hub.

Tables are threads in WORKERS processes (each table: its own SQLite store, its own ClubReporter and
MQTT connection), playing Ninety Nine against the computer at an accelerated pace (one commit every
PACE s per table). The hub (HubStore + HubListener, as ``table99 hub`` runs them) is this process.
Half way the broker is killed (SIGKILL) and restarted DOWN s later. Afterwards the tables wait
until their outbox is empty and the hub has confirmed every record. Reports:
  * commit -> hub: from the table's commit (the game's ``updated``) to the hub storing the event,
    median and p99, split into before the kill and after the restart (catching up);
  * messages per second heard by the hub, the hub's CPU seconds and peak memory;
  * records lost (a finished game the hub does not have), duplicates (a message heard twice and
    stored twice: impossible by the key, counted anyway from on_message calls), catch-up time.
Run: .venv/bin/python benchmarks/club_tables.py [TABLES] [SECONDS]     (default 50 60)
"""

from __future__ import annotations

import json
import multiprocessing
import resource
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PACE = 0.25
WORKERS = 2


def table_worker(names: list[str], port: int, folder: str, seconds: float,
                 out: multiprocessing.Queue) -> None:
    import threading

    from app.club.outcome import outcome
    from app.club.reporter import ClubReporter
    from app.games.count99.game import ComputerGame
    from app.store import GameStore
    from rules.count99.cards import Variant
    from rules.count99.players import make_player
    from rules.count99.table import Setup
    from tests.club_support import password

    results: dict[str, object] = {}

    def play(name: str, seed: int) -> None:
        store = GameStore(Path(folder) / f"{name}.sqlite3")
        reporter = ClubReporter(store, {"table": name, "host": "127.0.0.1", "port": port, "username": name,
                                        "password": password(name), "tls_ca": ""}).start()
        end = time.monotonic() + seconds
        games = []
        n = 0
        while time.monotonic() < end:
            n += 1
            game = ComputerGame.create(store, Setup(Variant.QUENTIN_C, (f"P{seed % 7}", f"Q{n % 5}", "R"),
                                                    tokens=2, hand_size=3), seed=seed * 1000 + n)
            me = make_player("easy", seed + n)
            while not game.table.over and time.monotonic() < end:
                if game.humans_turn():
                    slot, choice = me.choose(game.game.view(0))
                    game.play(slot, choice)
                else:
                    game.computer_step()
                time.sleep(PACE)
            games.append(game.game_id)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (reporter.outbox.count() or reporter.outbox.unconfirmed()):
            time.sleep(0.2)
        finished = []
        for game_id in games:
            stored = store.load(game_id)
            if stored.status == "finished":
                finished.append(reporter.outbox.game_key(game_id))
        left = reporter.outbox.count() + reporter.outbox.unconfirmed()
        results[name] = {"finished": finished, "left": left,
                         "actions": {reporter.outbox.game_key(g): len(store.load(g).actions) for g in games}}
        reporter.stop()
        _ = outcome

    threads = [threading.Thread(target=play, args=(name, i)) for i, name in enumerate(names)]
    for t in threads:
        t.start()
        time.sleep(0.02)
    for t in threads:
        t.join()
    out.put(results)


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    down = 3.0
    from app.club.hub import HubListener, HubStore
    from tests.club_support import HUB_PASSWORD, HUB_USER, Broker

    folder = Path(tempfile.mkdtemp(prefix="club-bench-"))
    names = [f"t{i:02d}" for i in range(tables)]
    broker = Broker(folder / "broker", names)
    hub = HubStore(folder / "hub.sqlite3")
    heard = [0]
    listener = HubListener(hub, "127.0.0.1", broker.port, HUB_USER, HUB_PASSWORD, client_id="bench-hub")
    original = listener._message

    def counting(client, userdata, message):  # type: ignore[no-untyped-def]
        heard[0] += 1
        original(client, userdata, message)

    listener.client.on_message = counting
    listener.start()
    time.sleep(1.0)
    cpu0 = time.process_time()
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue = ctx.Queue()
    procs = [ctx.Process(target=table_worker,
                         args=(names[i::WORKERS], broker.port, str(folder), seconds, out))
             for i in range(WORKERS)]
    start = time.time()
    for p in procs:
        p.start()
    time.sleep(seconds / 2)
    killed = time.time()
    broker.stop(signal.SIGKILL)
    time.sleep(down)
    broker.start()
    restarted = time.time()
    results: dict[str, dict[str, object]] = {}
    for _ in procs:
        results.update(out.get(timeout=seconds + 300))
    for p in procs:
        p.join(30)
    time.sleep(2.0)
    cpu = time.process_time() - cpu0
    rows = hub._db.execute("SELECT body, received FROM events").fetchall()
    before, after = [], []
    last_catch_up = restarted
    for body, received in rows:
        committed = json.loads(body).get("committed")
        if committed is None:
            continue
        lag = (received - committed) * 1000
        if committed < killed:
            before.append(lag)
        else:
            after.append(lag)
        if killed - 1 <= committed <= restarted:
            last_catch_up = max(last_catch_up, received)
    expected = {k for r in results.values() for k in r["finished"]}  # type: ignore[attr-defined]
    have = {r["game"] for r in hub.records(None)}
    played = {(k, i) for r in results.values() for k, n in r["actions"].items()  # type: ignore[attr-defined]
              for i in range(n)}
    total_actions = len(played)
    heard_actions = set()
    for (body,) in hub._db.execute("SELECT body FROM events").fetchall():
        event = json.loads(body)
        if event.get("what") == "action":
            heard_actions.add((event["game"], event["seq"]))
    elapsed = time.time() - start

    def q(values: list[float], p: float) -> str:
        if not values:
            return "-"
        values = sorted(values)
        return f"{values[min(len(values) - 1, int(p * len(values)))]:.0f}"

    print(f"tables {tables}, {seconds:.0f} s at one commit per {PACE} s per table; broker killed at "
          f"{killed - start:.0f} s for {down:.0f} s; {WORKERS} table processes")
    print(f"commits {total_actions}; hub heard {heard[0]} messages ({heard[0] / elapsed:.0f}/s), "
          f"stored {hub.count('messages')}, events {hub.count('events')}")
    print(f"commit -> hub before the kill: median {statistics.median(before) if before else 0:.0f} ms, "
          f"p99 {q(before, 0.99)} ms ({len(before)} events)")
    print(f"commit -> hub after the kill:  median {statistics.median(after) if after else 0:.0f} ms, "
          f"p99 {q(after, 0.99)} ms ({len(after)} events)")
    print(f"catch-up: the last event committed during the outage reached the hub "
          f"{last_catch_up - restarted:.1f} s after the restart")
    print(f"records: finished at the tables {len(expected)}, at the hub {len(have & expected)}, "
          f"lost {len(expected - have)}, extra {len(have - expected)}, shown twice: none can be (the hub "
          f"keeps one record per game; repeats heard and dropped: {heard[0] - hub.count('messages')}), "
          f"left unconfirmed at tables {sum(int(r['left']) for r in results.values())}")  # type: ignore[call-overload]
    print(f"action events: committed {total_actions}, at the hub {len(heard_actions & played)}, "
          f"lost {len(played - heard_actions)} (events are not confirmed end to end: docs/club.md)")
    print(f"hub CPU {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of one core), peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    listener.stop()
    broker.stop()


if __name__ == "__main__":
    main()
