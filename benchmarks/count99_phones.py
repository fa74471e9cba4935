"""Ninety Nine with phones: 8 seats and 50 viewers on loopback (issue 33).

    .venv/bin/python benchmarks/count99_phones.py [actions=200] [viewers=50]

A web display serves one table of 8 person seats (Quentin C, 5 cards, 50 tokens so it never ends).
A child process (the phones and TVs: other devices) holds 8 seat streams (each with its seat's
cookie) and ``viewers`` public streams and notes when each message arrives (CLOCK_MONOTONIC, shared
by both processes). This process plays: the seat on turn POSTs its first card, one action at a
time, 20 ms apart. Printed:

* action to every phone: from sending the POST to each stream receiving that change (or a later
  one, when a stream coalesced two), over all streams and actions: median, p99, max (target p99 <
  200 ms);
* what the committing side waits for: the session's change listeners (they only schedule the
  streams: the network is never on the committing path), median and max; and the store commit
  with the rules (the whole ``play``), median and p99;
* the table's screen: a thread standing in for Kivy reads ``table.snapshot`` and builds the public
  view every 10 ms during the run: its read times median and max (it takes no lock, so a commit
  or a slow phone never holds it).

No assertion: figures to read. Loopback only, bounded in count and time.
"""

from __future__ import annotations

import json
import multiprocessing
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.count99.phones import PhoneOptions, PhoneTable, csrf_for
from app.games.live import LiveTable
from app.games.views import Tr
from app.store import GameStore
from app.web.pairing import Access
from app.web.phones import seat_cookie
from app.web.server import WebServer


def listen(port: int, paths: list[tuple[str, str]], ready: Any, stop: Any, out: Any) -> None:
    """The phones and TVs: one socket per stream; (stream index, seq, arrival) for every message."""
    sel = selectors.DefaultSelector()
    sock: Any
    buffers: dict[int, bytes] = {}
    for index, (path, cookie) in enumerate(paths):
        sock = socket.create_connection(("127.0.0.1", port))
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        sock.sendall((head + "\r\n").encode())
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ, index)
        buffers[index] = b""
    ready.set()
    arrivals: list[tuple[int, int, float]] = []
    while not stop.is_set():
        for key, _mask in sel.select(0.1):
            now = time.monotonic()
            sock = key.fileobj
            assert isinstance(sock, socket.socket)  # registered above
            chunk = sock.recv(1 << 16)
            if not chunk:
                sel.unregister(sock)
                continue
            data = buffers[key.data] + chunk
            *done, rest = data.split(b"\n\n")
            buffers[key.data] = rest
            for message in done:
                for line in message.split(b"\n"):
                    if line.startswith(b"id: "):
                        arrivals.append((key.data, int(line[4:]), now))
    out.put(arrivals)


def post(url: str, body: dict[str, Any], cookie: str, csrf: str, port: int) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}", "Cookie": cookie,
        "X-CSRF-Token": csrf})
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.loads(response.read()))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main(actions: int = 200, viewers: int = 50) -> None:
    folder = Path(tempfile.mkdtemp(prefix="t99-phones-bench-"))
    store = GameStore(folder / "games.sqlite3")
    live = LiveTable(store)
    server = WebServer(live, Access(folder), "127.0.0.1", 0, max_streams_per_client=200)
    server.start()
    port, token = server.port, server.access.token
    table = live.phones.create(PhoneOptions(seats=("person",) * 8, hand_size=5, tokens=50, computer_pause=0))
    credentials = {}
    for seat in range(8):
        code = table.seats[seat].code
        assert code is not None
        credentials[seat] = table.join(seat, code, f"P{seat + 1}")
    table.start(seed=1)
    listener_times: list[float] = []
    original = list(live.phones.listeners)
    live.phones.listeners.clear()
    for listener in original:
        def timed(t: PhoneTable, fn: Any = listener) -> None:
            start = time.perf_counter()
            fn(t)
            listener_times.append(time.perf_counter() - start)
        live.phones.listeners.append(timed)
    play_times: list[float] = []
    real_play = table.play

    def timed_play(*args: Any) -> None:
        start = time.perf_counter()
        real_play(*args)
        play_times.append(time.perf_counter() - start)
    table.play = timed_play  # type: ignore[method-assign,assignment]

    base = f"/v/{token}/phones/{table.table_id}"
    paths = [(f"{base}/events?after=0", f"{seat_cookie(table.table_id)}={credentials[s]}") for s in range(8)]
    paths += [(f"{base}/events?tv&after=0", "")] * viewers
    ctx = multiprocessing.get_context("spawn")
    ready, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
    child = ctx.Process(target=listen, args=(port, paths, ready, stop, out))
    child.start()
    ready.wait(30)
    time.sleep(1.0)  # every stream has its first view

    screen_reads: list[float] = []
    running = threading.Event()
    running.set()

    def screen() -> None:  # the table's screen: reads what it draws, never waits
        words = Tr("en")
        while running.is_set():
            start = time.perf_counter()
            snapshot = table.snapshot
            table.public_view(words)
            screen_reads.append(time.perf_counter() - start)
            assert snapshot["seq"] >= 0
            time.sleep(0.01)

    screen_thread = threading.Thread(target=screen, daemon=True)
    screen_thread.start()
    sent: dict[int, float] = {}
    game = table.game
    assert game is not None
    for _ in range(actions):
        if game.table.over:
            break
        turn = game.table.turn
        assert turn is not None
        choices = game.view(turn).options()
        slot, choice = choices[0]
        t0 = time.monotonic()
        body = {"op": "play", "slot": slot, "choice": choice, "seq": table.seq}
        answer = post(f"http://127.0.0.1:{port}{base}/api/act", body,
                      f"{seat_cookie(table.table_id)}={credentials[turn]}", csrf_for(credentials[turn]), port)
        sent[int(answer["seq"])] = t0
        time.sleep(0.02)
    time.sleep(1.0)
    stop.set()
    arrivals = out.get(timeout=30)
    child.join(10)
    running.clear()
    screen_thread.join(2)
    server.stop()
    store.close()

    by_stream: dict[int, list[tuple[int, float]]] = {}
    for stream, seq, when in arrivals:
        by_stream.setdefault(stream, []).append((seq, when))
    latencies: list[float] = []
    missing = 0
    for stream in range(len(paths)):
        got = sorted(by_stream.get(stream, []))
        for seq, t0 in sent.items():
            later = [when for s, when in got if s >= seq]
            if later:
                latencies.append(min(later) - t0)
            else:
                missing += 1
    ms = [x * 1000 for x in latencies]
    print(f"phones benchmark: 8 seats + {viewers} viewers, {len(sent)} actions, {len(ms)} deliveries, "
          f"{missing} missing")
    print(f"action to every phone: median {statistics.median(ms):.1f} ms, p99 {pct(ms, 0.99):.1f} ms, "
          f"max {max(ms):.1f} ms (target p99 < 200 ms)")
    lt = [x * 1e6 for x in listener_times]
    print(f"committing side, change listeners (schedule only, no network): "
          f"median {statistics.median(lt):.0f} us, max {max(lt):.0f} us")
    pt = [x * 1000 for x in play_times]
    print(f"committing side, play incl. rules + store commit: median {statistics.median(pt):.1f} ms, "
          f"p99 {pct(pt, 0.99):.1f} ms")
    sr = [x * 1e6 for x in screen_reads]
    print(f"table's screen, snapshot + public view: median {statistics.median(sr):.0f} us, "
          f"max {max(sr):.0f} us over {len(sr)} reads (no lock taken)")


if __name__ == "__main__":
    numbers = [int(a) for a in sys.argv[1:3]]
    main(*numbers)
