"""Stalled and trickling requests beside a full house of viewers (issue 32, point 1).

    .venv/bin/python benchmarks/web_stalled.py [stalled=200] [viewers=50] [seconds=20] [rounds=2]

A web display with the shipped limits serves a Ninety Nine game kept at the table (a commit every
0.25 s). A quiet phase, then ``rounds`` times two phases of ``seconds`` each, alternating (a change
in the machine's load falls on both alike): ``viewers`` event streams following the game; the same
viewers plus ``stalled`` connections that each send the headers of a same-origin JSON POST to
/api/pair announcing 200 bytes, then one byte (half of them one more byte every 3 s), and connect
again whenever the server closes them. Half come from 127.0.0.1, half from 127.0.0.2 onwards: one
address and many (all loopback). Meanwhile a new viewer loads the page every 0.25 s from yet
another address. The followers follow /live. Every client runs in a child process, niced (other
devices: they must not take the server's CPU on a small machine; polling 200 sockets in Python,
un-niced, was what slowed the commits in this benchmark before); the server and the table's
commits run in this one. Printed per phase: the new viewers' page times (median, p99, max), their
non-200 answers, the views the followers got, the server thread's CPU share, and the table's
commit time (the verdict's own cost: store commit and listener) median and p90; at the end the
commit times with and without the flood, pooled over the rounds, and their ratio. No assertion:
figures to read (the tests pin the behaviour). Loopback only, bounded in count and time.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.count99.game import KeptGame
from app.games.live import LiveTable
from app.store import GameStore
from app.web.pairing import Access
from app.web.server import WebServer
from rules.count99.cards import Variant
from rules.count99.table import Setup


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Stallers:
    """``count`` connections holding a POST whose body never (or only trickling) arrives."""

    def __init__(self, port: int, token: str, count: int) -> None:
        self.port, self.token = port, token
        self.sources = [("127.0.0.1" if i % 2 == 0 else f"127.0.0.{2 + i // 2 % 199}") for i in range(count)]
        self.socks: list[socket.socket | None] = [None] * count
        self.reconnects = 0
        self.stop = threading.Event()

    def _open(self, i: int) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                            source_address=(self.sources[i], 0))
            sock.sendall((f"POST /v/{self.token}/api/pair HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                          f"Origin: http://127.0.0.1:{self.port}\r\nContent-Type: application/json\r\n"
                          "Content-Length: 200\r\n\r\n{").encode())
            sock.setblocking(False)
            self.socks[i] = sock
        except OSError:
            self.socks[i] = None

    def run(self) -> None:
        """Wait on all sockets at once (a poll of 200 sockets every 0.2 s cost this process more
        CPU than the server spent on them); reconnect the ones the server closed."""
        selector = selectors.DefaultSelector()
        for i in range(len(self.socks)):
            self._open(i)
            if self.socks[i] is not None:
                selector.register(self.socks[i], selectors.EVENT_READ, i)
        last_trickle = time.monotonic()
        while not self.stop.is_set():
            for key, _ in selector.select(0.2):
                i, sock = key.data, key.fileobj
                selector.unregister(sock)
                sock.close()  # answered (408) or closed: the server is done with it; connect again
                self.socks[i] = None
            for i, sock in enumerate(self.socks):
                if sock is None:
                    self._open(i)
                    self.reconnects += 1
                    if self.socks[i] is not None:
                        selector.register(self.socks[i], selectors.EVENT_READ, i)
            if time.monotonic() - last_trickle >= 3.0:
                last_trickle = time.monotonic()
                for i, sock in enumerate(self.socks):
                    if sock is not None and i % 4 >= 2:
                        with contextlib.suppress(OSError):  # the selector sees it closed
                            sock.send(b" ")
        for sock in self.socks:
            if sock is not None:
                sock.close()


class Followers:
    """``count`` open event streams following /live, each from its own address; counts the views they get."""

    def __init__(self, port: int, token: str, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.views = 0
        self.stop = threading.Event()
        self.socks = []
        for i in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                            source_address=(f"127.0.1.{1 + i}", 0))
            sock.sendall(f"GET /v/{token}/events?game=current HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.socks.append(sock)

    def run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(0.2):
                try:
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                self.views += data.count(b"event: view")
        for sock in self.socks:
            sock.close()


def new_viewers(port: int, token: str, stop: threading.Event, times: list[float], errors: list[str]) -> None:
    n = 0
    while not stop.is_set():
        n += 1
        started = time.perf_counter()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                                    source_address=(f"127.0.2.{1 + n % 200}", 0))
            connection.request("GET", f"/v/{token}/live")
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status == 200:
                times.append(time.perf_counter() - started)
            else:
                errors.append(str(response.status))
        except OSError as exc:
            errors.append(type(exc).__name__)
        time.sleep(0.25)


def clients(port: int, token: str, stalled: int, viewers: int, seconds: float, results: Any) -> None:
    """One phase's clients, in their own process and niced (they stand in for other devices: the
    server's process neither pays for them under the GIL nor waits for a CPU behind them)."""
    os.nice(10)
    followers = Followers(port, token, viewers) if viewers else None
    stallers = Stallers(port, token, stalled) if stalled else None
    times: list[float] = []
    errors: list[str] = []
    stop = threading.Event()
    threads = [threading.Thread(target=part.run, daemon=True) for part in (followers, stallers) if part]
    threads.append(threading.Thread(target=new_viewers, daemon=True, args=(port, token, stop, times, errors)))
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for part in (followers, stallers):
        if part is not None:
            part.stop.set()
    for thread in threads:
        thread.join(15)
    results.put({"times": times, "errors": errors, "views": followers.views if followers else 0,
                 "reconnects": stallers.reconnects if stallers else 0})


def thread_cpu(thread: threading.Thread) -> float:
    """CPU seconds a thread of this process has used (Linux: /proc/self/task/TID/stat)."""
    fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    import multiprocessing

    args = sys.argv[1:] + ["200", "50", "20", "2"][len(sys.argv) - 1:]
    stalled, viewers, seconds, rounds = (int(a) for a in args[:4])
    folder = Path(tempfile.mkdtemp(prefix="t99-stalled-"))
    store = GameStore(folder / "games.sqlite3")
    live = LiveTable(store)
    access = Access(folder)
    server = WebServer(live, access, "127.0.0.1", 0)  # the shipped limits
    server.start()
    assert server._thread is not None
    drain_stop = threading.Event()

    def drain() -> None:  # stands in for the table's main thread
        while not drain_stop.is_set():
            live.drain()
            time.sleep(0.02)

    threading.Thread(target=drain, daemon=True).start()
    game = KeptGame.create(store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    cards = ["5", "4", "3", "2", "6", "7", "8"]
    print(f"web_stalled: {stalled} stalled, {viewers} viewers, {seconds} s a phase, {rounds} rounds, "
          f"port {server.port}")
    context = multiprocessing.get_context("fork")
    # the two phases compared alternate, so a change in the machine's load falls on both alike
    phases = [("quiet", 0, 0)] + [("viewers", viewers, 0), ("viewers+stalled", viewers, stalled)] * rounds
    pooled: dict[str, list[float]] = {"viewers": [], "viewers+stalled": []}
    slowest_page: dict[str, float] = {"viewers": 0.0, "viewers+stalled": 0.0}
    for phase, phase_viewers, phase_stalled in phases:
        results = context.Queue()
        child = context.Process(target=clients, args=(server.port, access.token, phase_stalled, phase_viewers,
                                                      seconds, results))
        child.start()
        commits: list[float] = []
        cpu_before, clock_before = thread_cpu(server._thread), time.monotonic()
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            started = time.perf_counter()
            if game.table.count > 80 or game.table.winner is not None:
                game = KeptGame.create(store, Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
            else:
                game.play(cards[i % len(cards)])
            commits.append(time.perf_counter() - started)
            i += 1
            time.sleep(0.25)
        loop_cpu = (thread_cpu(server._thread) - cpu_before) / (time.monotonic() - clock_before)
        got = results.get(timeout=60)
        child.join(20)
        ms = [t * 1000 for t in got["times"]]
        if phase in pooled:
            pooled[phase] += commits
            slowest_page[phase] = max([slowest_page[phase], *ms])
        print(json.dumps({
            "phase": phase, "new_viewer_pages": len(ms),
            "page_ms_median": round(statistics.median(ms), 1) if ms else None,
            "page_ms_p99": round(pct(ms, 0.99), 1), "page_ms_max": round(max(ms), 1) if ms else None,
            "pages_over_1s": sum(1 for t in ms if t > 1000), "refused_or_failed": got["errors"][:10],
            "refused_count": len(got["errors"]), "commits": len(commits),
            "views_to_followers": got["views"], "stalled_reconnects": got["reconnects"],
            "server_loop_cpu_percent": round(100 * loop_cpu, 1),
            "commit_ms_median": round(statistics.median(commits) * 1000, 2),
            "commit_ms_p90": round(pct(commits, 0.9) * 1000, 2)}), flush=True)
    calm, flood = pooled["viewers"], pooled["viewers+stalled"]
    print(json.dumps({
        "commit_ms_median_without_flood": round(statistics.median(calm) * 1000, 2),
        "commit_ms_median_with_flood": round(statistics.median(flood) * 1000, 2),
        "commit_ms_p90_without_flood": round(pct(calm, 0.9) * 1000, 2),
        "commit_ms_p90_with_flood": round(pct(flood, 0.9) * 1000, 2),
        "ratio_median": round(statistics.median(flood) / statistics.median(calm), 2),
        "ratio_p90": round(pct(flood, 0.9) / pct(calm, 0.9), 2),
        "slowest_new_viewer_page_ms_with_flood": round(slowest_page["viewers+stalled"], 1)}))
    drain_stop.set()
    server.stop()
    store.close()


if __name__ == "__main__":
    main()
