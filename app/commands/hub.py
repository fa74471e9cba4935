"""``table99 hub``: the club's hub (no Kivy): hears every table through the broker, keeps it in its
own SQLite store and serves the TV page and the standings (docs/club.md). SIGTERM or Ctrl-C stops.

The broker password comes from ``--password-file`` or ``$TABLE99_HUB_PASSWORD``, never the command
line (other users see a process's arguments).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", default="localhost", help="the MQTT broker's host (default: localhost)")
    parser.add_argument("--broker-port", type=int, default=1883, help="the broker's port (default: 1883)")
    parser.add_argument("--user", default="hub", help="the hub's broker user (default: hub)")
    parser.add_argument("--password-file", type=Path, help="a file holding the hub's broker password")
    parser.add_argument("--tls-ca", default="", help="CA file: TLS to the broker")
    parser.add_argument("--port", type=int, default=8098, help="the page's HTTP port (default: 8098)")
    parser.add_argument("--bind", default="0.0.0.0",
                        help="address the page listens on (default: every network)")
    parser.add_argument("--db", type=Path, help="the hub's store (default: DATA_DIR/hub.sqlite3)")


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for name, value, low in (("--port", args.port, 0), ("--broker-port", args.broker_port, 1)):
        if not low <= value <= 65535:
            print(f"table99 hub: {name} {value}: must be between {low} and 65535", file=sys.stderr)
            return 2
    password = os.environ.get("TABLE99_HUB_PASSWORD", "")
    if args.password_file is not None:
        try:
            password = args.password_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            print(f"table99 hub: --password-file {args.password_file}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    try:
        from aiohttp import web

        from app.club.hub import HubListener, HubStore
        from app.club.hub_web import HubWeb
    except ImportError as exc:
        print(f"table99 hub: needs the club and web extras (pip install 'table99[club,web]'): {exc}",
              file=sys.stderr)
        return 1
    from app.paths import data_dir

    store = HubStore(args.db or data_dir() / "hub.sqlite3")
    listener = HubListener(store, args.broker, args.broker_port, args.user, password, args.tls_ca).start()
    app = HubWeb(store, status=lambda: listener.status_parts).make_app()

    async def serve() -> None:
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, args.bind, args.port)
        try:
            await site.start()
        except OSError as exc:
            print(f"table99 hub: cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}",
                  file=sys.stderr)
            raise SystemExit(1) from exc
        port = runner.addresses[0][1] if runner.addresses else args.port
        print(f"table99 hub: listening on port {port}; broker {args.broker}:{args.broker_port}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await runner.cleanup()

    try:
        asyncio.run(serve())
    except SystemExit as exc:
        return int(exc.code or 1)
    finally:
        listener.stop()
        store.close()
    return 0
