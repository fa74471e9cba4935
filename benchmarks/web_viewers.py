"""Many browsers watching one table: commit-to-viewer latency, the app's CPU and memory per viewer, and
the table's own verdict latency with and without them.

The app side is the real thing: the board game screen headless (benchmarks/app_common.Bench: referee,
SQLite commit, screen refresh, frame) with the web server in its own thread, as ``table99 run``
starts it. The viewers are a separate process (so their CPU is not the app's) holding N Server-Sent
Event streams on 127.0.0.1 with aiohttp's client, and noting when each view arrives.

For each phase (0, then each N in VIEWERS) it plays ACTIONS actions of one game (draws and plays;
verdicts are timed on the plays, as in app_verdict_latency.py) one every PACE seconds, and reports:
  * commit -> viewer: from the store's commit (wall clock, in the app) to the moment the view with
    that action arrives in the viewer process, over every (viewer, action) pair: median and p99;
  * the app process's CPU seconds per action and resident memory, minus the 0-viewer phase, per viewer;
  * the verdict on the table's screen (pump to drawn frame): median and p90.
Loopback only, bounded: every phase ends after its actions; the viewers stop when told or after 5 min.
Run: .venv/bin/python benchmarks/web_viewers.py [viewers ...]      (default: 50 200)
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

from app_common import ROOT, Bench, frames, headless

ACTIONS = 24
PACE = 0.25
ACTIONS_FIELD = re.compile(r'"actions":(\d+)')


# -- the viewers' process ---------------------------------------------------------------------------------
async def viewers(url: str, count: int) -> None:
    import aiohttp

    os.nice(10)  # the viewers stand in for other devices: they must not take the app's CPU away
    if os.environ.get("TABLE99_BENCH_PIN") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {1})  # the other devices' CPU is not the table's: a core of their own
    arrivals: list[tuple[int, int, float]] = []  # viewer, actions in the view, wall time
    connected = 0

    async def one(index: int, session: aiohttp.ClientSession) -> None:
        nonlocal connected
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as response:
            assert response.status == 200, response.status
            connected += 1
            async for raw in response.content:
                line = raw.decode()
                if line.startswith("data: "):
                    now = time.time()
                    found = ACTIONS_FIELD.search(line)  # cheaper than parsing the whole view
                    arrivals.append((index, int(found.group(1)) if found else -1, now))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(one(i, session)) for i in range(count)]
        while connected < count:
            await asyncio.sleep(0.05)
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        await asyncio.wait_for(loop.run_in_executor(None, sys.stdin.readline), 300)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(arrivals), flush=True)


# -- the app's process ---------------------------------------------------------------------------------------
def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def phase(bench: Bench, server: object, count: int, commits: dict[int, float]) -> dict[str, float]:
    from kivy.graphics.opengl import glFinish

    process = None
    if count:
        url = f"http://127.0.0.1:{server.port}/v/{server.access.token}/events?game=current"  # type: ignore[attr-defined]
        process = subprocess.Popen([sys.executable, __file__, "--viewers", url, str(count)], cwd=ROOT,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stdin is not None
        assert process.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    first = len(bench.screen.game.actions)
    cpu0, rss0 = cpu_seconds(), rss_mib()
    verdicts: list[float] = []
    n = first
    while len(bench.screen.game.actions) < first + ACTIONS:
        tick = time.monotonic()
        hole = bench.action(n)
        n += 1
        if hole is None:  # a draw: committed at once by the announcement
            frames(1)
        else:
            bench.screen.pump()
            frames(1)
            bench.now += 0.5
            glFinish()
            start = time.perf_counter()
            bench.screen.pump()  # stable: the referee judges, the store commits, the screen refreshes
            frames(1)
            glFinish()
            verdicts.append((time.perf_counter() - start) * 1000)
        while time.monotonic() - tick < PACE:  # Kivy's loop keeps running, as in the app
            frames(1)
            time.sleep(0.005)
    for _ in range(50):
        frames(1)
        time.sleep(0.02)
    cpu = cpu_seconds() - cpu0
    rss = rss_mib()
    latencies: list[float] = []
    if process is not None:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("stop\n")
        process.stdin.flush()
        arrivals = json.loads(process.stdout.readline())
        process.wait(30)
        seen: set[tuple[int, int]] = set()
        for viewer, actions, when in arrivals:
            if actions in commits and actions > first and (viewer, actions) not in seen:
                seen.add((viewer, actions))
                latencies.append((when - commits[actions]) * 1000)
        expected = count * ACTIONS
        missing = expected - len(latencies)
    else:
        missing = 0
    latencies.sort()
    return {
        "viewers": count, "cpu_per_action_ms": cpu / ACTIONS * 1000, "rss_mib": rss, "rss_before": rss0,
        "verdict_median": statistics.median(verdicts),
        "verdict_p90": sorted(verdicts)[int(len(verdicts) * 0.9) - 1],
        "latency_median": statistics.median(latencies) if latencies else float("nan"),
        "latency_p99": latencies[max(0, int(len(latencies) * 0.99) - 1)] if latencies else float("nan"),
        "latency_max": latencies[-1] if latencies else float("nan"), "missing": missing,
        "samples": len(latencies),
    }


def main(counts: list[int]) -> None:
    if os.environ.get("TABLE99_BENCH_PIN") and (os.cpu_count() or 1) > 1:
        # TABLE99_BENCH_PIN=1: the app on core 0, the viewers' process on core 1, so the verdict
        # with viewers measures what serving them costs the app, not the simulated phones' own CPU
        os.sched_setaffinity(0, {0})
    headless()
    bench = Bench()
    from app.games.live import LiveTable
    from app.paths import data_dir
    from app.web.pairing import Access
    from app.web.server import WebServer

    commits: dict[int, float] = {}
    game = bench.screen.game
    # wall time of each commit, by the action count it makes (the listener runs just after COMMIT)
    def note(_game_id: int) -> None:
        commits[len(bench.screen.game.actions) + 1] = time.time()

    bench.store.add_listener(note)
    live = LiveTable(bench.store)
    from app.ui.web_join import connect_live

    connect_live(bench.app, live)  # as table99 run does: commands and publishing follow Kivy's frames
    # the shipped limits, except that every viewer here comes from 127.0.0.1 (on a real Wi-Fi each
    # device has its own address): the per-address stream cap is lifted to the count measured
    server = WebServer(live, Access(data_dir()), "127.0.0.1", 0,
                       max_streams_per_client=max([*counts, 40]))
    server.start()
    assert game is bench.screen.game
    # a phase without viewers before and after, so a drift of the machine shows as a difference
    results = [phase(bench, server, count, commits) for count in [0, *counts, 0]]
    server.stop()
    base = results[0]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared machine); "
          f"{ACTIONS} actions per phase, one every {PACE} s; loopback")
    for r in results:
        line = (f"{r['viewers']:4d} viewers: verdict on screen median {r['verdict_median']:.1f} ms "
                f"p90 {r['verdict_p90']:.1f} ms; app CPU {r['cpu_per_action_ms']:.1f} ms/action; "
                f"RSS {r['rss_mib']:.0f} MiB")
        if r["viewers"]:
            extra_cpu = (r["cpu_per_action_ms"] - base["cpu_per_action_ms"]) / r["viewers"]
            extra_rss = (r["rss_mib"] - base["rss_mib"]) / r["viewers"] * 1024
            line += (f"\n      commit -> viewer: median {r['latency_median']:.1f} ms, "
                     f"p99 {r['latency_p99']:.1f} ms, max {r['latency_max']:.1f} ms over {r['samples']} "
                     f"deliveries ({r['missing']:.0f} missing); "
                     f"per viewer: {extra_cpu * 1000:.0f} us CPU/action, {extra_rss:.0f} KiB")
        print(line)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--viewers":
        asyncio.run(viewers(sys.argv[2], int(sys.argv[3])))
    else:
        main([int(a) for a in sys.argv[1:]] or [50, 200])
