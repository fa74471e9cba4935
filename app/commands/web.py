"""``table99 web``: the web display without the touchscreen (a machine with no screen, and tests).

The main thread owns the sessions here as Kivy's does in ``table99 run``: it waits for commands
from paired browsers (:meth:`app.games.live.LiveTable.drain`) and runs them. The board game is not played
here (it needs the table's screen); its stored games are shown, Parlett and the Ninety Nine keeper
can be kept from a paired tablet. ``--pair`` prints a pairing code at start (there is no screen to
show one); SIGTERM or Ctrl-C stops.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from app.config import default_config_path
from app.games.live import LiveTable
from app.startup import carry_out, plan_startup

log = logging.getLogger("table99")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, help="port (default: the config's [web] port; 0: any free one)")
    parser.add_argument("--bind", help="address to listen on (default: the config's [web] bind)")
    parser.add_argument("--config", type=Path, help="config file (default: $TABLE99_CONFIG or /etc/table99)")
    parser.add_argument("--pair", action="store_true", help="print a pairing code for a tablet at start")
    parser.add_argument("--board", choices=("simulated",), default="simulated",
                        help="accepted for symmetry with 'run'; the board game is not played here")


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.port is not None and not 0 <= args.port <= 65535:
        print(f"table99 web: --port {args.port}: must be between 0 and 65535", file=sys.stderr)
        return 2
    plan = plan_startup(args.config if args.config is not None else default_config_path())
    os.environ["TABLE99_DATA_DIR"] = str(plan.data_dir)
    store, problems = carry_out(plan)
    for problem in problems:
        log.error("%s", problem)
    wake = threading.Event()
    live = LiveTable(store, wake=wake.set)
    from app.web.launch import start_web

    server, problem = start_web(plan.config, live, port=args.port if args.port is not None else
                                plan.config.web["port"], bind=args.bind)
    if server is None:
        print(f"table99 web: {problem}", file=sys.stderr)
        return 1
    # The view token is a secret: under systemd stdout is the journal, which more people may read than
    # the data directory. The full addresses go only to a person's terminal.
    terminal = sys.stdout.isatty()
    where = (server.view_url() if terminal
             else f"{server.base_url()}/v/<the token in {plan.data_dir}/web-token>/live")
    print(f"table99 web: listening on port {server.port}; view: {where}", flush=True)
    if args.pair:
        code, seconds = server.access.new_code()
        print(f"table99 web: pairing code {code} (for {int(seconds)} s)"
              + (f": {server.pair_url(code)}" if terminal else ""), flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: (stop.set(), wake.set()))
    try:
        while not stop.is_set():
            wake.wait(1.0)
            wake.clear()
            live.drain()
    finally:
        server.stop()
        store.close()
    return 0
