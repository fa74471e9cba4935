"""The hub's live page under viewers: 8 tables, one of them with a 1 MiB legal state, 20 viewers.

    .venv/bin/python benchmarks/club_panel.py [SECONDS] [VIEWERS] [CHANGE_EVERY]

The hub's pages run in a process of their own (aiohttp, as ``table99 hub`` serves them) on
127.0.0.1; this process plays the viewers: each fetches ``/panel?tv`` every 2 s, as the TV page's
script does, for SECONDS (default 30). Seven tables have games in play (club_pages_support's
evening); the eighth sent a Parlett rubber of ~12,600 deals (1 MiB, legal: the hub's checks take
it), whose view takes about a second to build. Every CHANGE_EVERY seconds (default 10) that
table sends a new heavy state (one more deal), so its card must be built again while the viewers
keep coming. Prints the latency of every request (median, p99, max), the first request's, and the
hub process's CPU time. Loopback only; bounded by SECONDS x VIEWERS / 2 requests.

Before issue 32 (point 13) every /panel replayed every table's state in the event loop: 0.9 s
per request with this table, 2.3 s each with four viewers, the hub at 100 % CPU.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def serve(db: str, port: int, every: float, payloads: list[str], log: str) -> None:
    """The child: the hub's pages over the given store, until killed; a thread in it plays the
    hub's MQTT listener, taking t8's next heavy state every ``every`` s (prepared beforehand: the
    table builds it, not the hub), as the real hub does in its own process."""
    import threading

    from aiohttp import web

    from app.club.hub import LISTENING, HubStore
    from app.club.hub_web import HubWeb

    store = HubStore(db)

    def listen() -> None:
        with open(log, "w") as out:
            for path in payloads:
                time.sleep(every)
                assert store.receive("table99/t8/state", Path(path).read_bytes())
                print(time.time(), file=out, flush=True)

    threading.Thread(target=listen, daemon=True).start()
    app = HubWeb(store, status=lambda: (LISTENING, {"address": "benchmark"})).make_app()
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


def heavy_state(table: str, deals: int, seq: int) -> bytes:
    """A legal Parlett state of ``deals`` deals (a rubber to a million never ends)."""
    from app.club.outbox import Outbox
    from app.games.parlett.game import ParlettSession
    from app.store import GameStore

    folder = Path(tempfile.mkdtemp(prefix="club-heavy-"))
    store = GameStore(folder / "t.sqlite3")
    session = ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat", {"target": 1_000_000})
    tricks = {"Ann": 3, "Ben": 4, "Cat": 2}
    session.add_deal({"bids": dict.fromkeys(["Ann", "Ben", "Cat"], 3), "tricks": tricks})
    outbox = Outbox(store.path, table)
    outbox.capture(store.load(session.game_id))
    state = next(json.loads(m.payload) for m in outbox.pending() if m.topic.endswith("/state"))
    state["game"]["actions"] = state["game"]["actions"] * deals
    state["game"]["updated"] = state["sent"] = time.time()
    state["id"] = f"{table}:{outbox.store_id}:{1000 + seq}"
    return json.dumps(state).encode()


SLOW: list[tuple[float, float]] = []  # (when a request started, time.time(), and how long it took)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def viewer(base: str, until: float, times: list[float], errors: list[str], offset: float) -> None:
    import aiohttp

    await asyncio.sleep(offset)  # viewers opened the page at different moments
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < until:
            started = time.monotonic()
            try:
                async with session.get(base + "/panel?tv&lang=en") as response:
                    await response.read()
                    if response.status != 200:
                        errors.append(str(response.status))
            except aiohttp.ClientError as exc:
                errors.append(type(exc).__name__)
            times.append(time.monotonic() - started)
            SLOW.append((time.time() - times[-1], times[-1]))
            await asyncio.sleep(max(0.0, 2.0 - (time.monotonic() - started)))


async def one_request(base: str) -> float:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        started = time.monotonic()
        async with session.get(base + "/panel?tv&lang=en") as response:
            await response.read()
        return time.monotonic() - started


def cpu_seconds(pid: int) -> float:
    """CPU time of ``pid`` and its child processes (the hub's worker for heavy states)."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += cpu_seconds(int(child))
    except (OSError, IndexError, ValueError):
        pass
    return total


def main(seconds: float, viewers: int, change_every: float) -> int:
    from tests.club_pages_support import evening_hub

    folder = Path(tempfile.mkdtemp(prefix="club-panel-"))
    hub = evening_hub(folder, 7, long_names=False, quiet=False)
    deals = (1 << 20) // 83 - 200
    payload = heavy_state("t8", deals, 1)
    assert hub.receive("table99/t8/state", payload), "the heavy state was refused"
    print(f"8 tables; t8's state {len(payload):,} bytes ({deals:,} deals); {viewers} viewers for"
          f" {seconds:g} s, t8 changes every {change_every:g} s")
    hub.close()
    port = free_port()
    changes = folder / "changes.log"
    payloads = []
    for seq in range(2, 2 + int(seconds // change_every)):
        path = folder / f"heavy-{seq}.json"
        path.write_bytes(heavy_state("t8", deals + seq, seq))
        payloads.append(str(path))
    child = subprocess.Popen([sys.executable, __file__, "--serve", str(folder / "hub.sqlite3"), str(port),
                              str(change_every), str(changes), *payloads], cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        cpu_before = cpu_seconds(child.pid)
        first = [asyncio.run(one_request(base))]  # every card built for the first time
        times: list[float] = []
        errors: list[str] = []

        async def run() -> None:
            until = time.monotonic() + seconds
            await asyncio.gather(*(viewer(base, until, times, errors, 2.0 * i / viewers)
                                   for i in range(viewers)))

        started, watch_start = time.monotonic(), time.time()
        asyncio.run(run())
        wall = time.monotonic() - started
        changed = [float(line) for line in changes.read_text().split()]
        cpu = cpu_seconds(child.pid) - cpu_before
    finally:
        child.terminate()
        child.wait(10)
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"first /panel (every card built): {1000 * first[0]:.0f} ms")
    print(f"{len(times)} requests, {len(errors)} errors; median {1000 * statistics.median(times):.1f} ms,"
          f" p99 {1000 * p99:.1f} ms, max {1000 * times[-1]:.1f} ms")
    print(f"t8's heavy state replaced {len(changed)} times while the viewers watched")
    slowest = []
    for started, took in sorted(SLOW, key=lambda x: -x[1])[:max(1, len(SLOW) // 100)]:
        before = [c for c in changed if c <= started]
        since = (f"+{started - before[-1]:.2f} s after a change" if before
                 else f"{started - watch_start:.1f} s into the run, before any change")
        slowest.append(f"{1000 * took:.0f} ms ({since})")
    print("slowest 1 %:", ", ".join(slowest))
    print(f"hub (its process and its worker): {cpu:.1f} s CPU in {wall:.0f} s"
          f" ({100 * cpu / wall:.0f} % of one core)")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[6:], sys.argv[5])
    else:
        args = [float(a) for a in sys.argv[1:]]
        sys.exit(main(args[0] if args else 30.0, int(args[1]) if len(args) > 1 else 20,
                      args[2] if len(args) > 2 else 10.0))
