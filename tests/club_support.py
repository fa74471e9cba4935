"""A real Mosquitto for the club tests: 127.0.0.1, a free port, a user per table, an ACL."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

_SBIN = Path("/usr/sbin/mosquitto")
MOSQUITTO = shutil.which("mosquitto") or (str(_SBIN) if _SBIN.exists() else None)
PASSWD = shutil.which("mosquitto_passwd")
HUB_USER, HUB_PASSWORD = "hub", "hub-secret"


def need_mosquitto() -> None:
    if MOSQUITTO is None or PASSWD is None:
        pytest.fail("mosquitto and mosquitto_passwd are needed: run `bash scripts/setup dev` as root "
                    "(apt-get install mosquitto mosquitto-clients)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def password(table: str) -> str:
    return f"pw-{table}"


class Broker:
    """Mosquitto with one user per table (may write only its state, event and record) and a hub that
    reads; limits as deploy/club/mosquitto-table99.conf."""

    def __init__(self, folder: Path, tables: list[str], port: int | None = None) -> None:
        need_mosquitto()
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.tables = tables
        passwd = folder / "passwd"
        passwd.write_text("")
        passwd.chmod(0o600)
        for user, secret in [(HUB_USER, HUB_PASSWORD)] + [(t, password(t)) for t in tables]:
            subprocess.run([PASSWD, "-b", str(passwd), user, secret], check=True, capture_output=True)
        acl = [f"user {HUB_USER}", "topic read table99/#", "topic write table99/hub/ack/#", ""]
        for t in tables:
            writes = [f"topic write table99/{t}/{what}" for what in ("state", "event", "record")]
            acl += [f"user {t}", *writes, f"topic read table99/hub/ack/{t}", ""]  # as setup-hub.sh writes
        (folder / "acl").write_text("\n".join(acl))
        (folder / "acl").chmod(0o600)
        (folder / "data").mkdir(exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous false",
                 f"password_file {passwd}", f"acl_file {folder / 'acl'}",
                 "persistence true", f"persistence_location {folder / 'data'}/", "autosave_interval 1",
                 "max_queued_messages 100000", "max_packet_size 1049600",
                 "log_dest stderr", "log_type error", "log_type warning"]
        if os.getuid() == 0:
            lines.append(f"user {pwd.getpwuid(0).pw_name}")  # else it drops to 'mosquitto', locked out of tmp
        (folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        assert MOSQUITTO is not None
        with open(self.folder / "log", "ab") as log:
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                            stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto did not start: {(self.folder / 'log').read_text()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(10)
        self.process = None

    def options(self, table: str, **changes: object) -> dict[str, object]:
        return {"enabled": True, "host": "127.0.0.1", "port": self.port, "table": table,
                "username": table, "password": password(table), "tls_ca": ""} | changes


# -- a table's evening, played by a script (run in its own process by the tests) ----------------------
PARLETT_PLAYERS = ("Ann", "Ben", "Cat")


def parlett_rubber(store: object, seed: int) -> int:
    """A scripted Parlett rubber to 100: the seed decides who makes their bid each deal."""
    from app.games.parlett.game import ParlettSession

    names = list(PARLETT_PLAYERS)
    session = ParlettSession.new(store, "three", names, "Cat", {"target": 100})  # type: ignore[arg-type]
    maker = names[seed % 3]
    while session.store.load(session.game_id).status != "finished":
        others = [n for n in names if n != maker]
        tricks = {maker: 3, others[0]: 4, others[1]: 2}
        session.add_deal({"bids": dict.fromkeys(names, 3), "tricks": tricks})
    return session.game_id


def board99_game(store: object, seed: int, players: tuple[str, str]) -> int:
    import random

    from app.games.board99.game import Board99Game, TableSetup
    from rules.board99 import apply, make_setup
    from rules.board99.ai import choose_action

    rng = random.Random(seed)
    deck = list(range(100))
    rng.shuffle(deck)
    game = Board99Game.create(store, make_setup(list(players), ruleset="classic", layout="spiral-out",  # type: ignore[arg-type]
                                                deck=deck), TableSetup())
    while game.state.outcome is None:
        action = choose_action(game.state.view_for(game.state.to_move), "basic", rng)  # type: ignore[arg-type]
        new_state, _ = apply(game.state, action)
        game.commit(action, new_state)
    return game.id


def count99_game(store: object, seed: int, players: tuple[str, ...]) -> int:
    from app.games.count99.game import ComputerGame
    from rules.count99.cards import Variant
    from rules.count99.players import make_player
    from rules.count99.table import Setup

    game = ComputerGame.create(store, Setup(Variant.QUENTIN_C, players, tokens=2, hand_size=3),  # type: ignore[arg-type]
                               seed=seed)
    me = make_player("easy", seed)
    while not game.table.over:
        if game.humans_turn():
            slot, choice = me.choose(game.game.view(0))
            game.play(slot, choice)
        else:
            game.computer_step()
    return game.game_id


def play_evening(table: str, port: int, db: str, seed: int, games: int, pause: float,
                 wait: float = 60.0) -> None:
    """Play ``games`` games (Parlett, board game, Ninety Nine in turn) with ``pause`` s between
    commits' batches, report through the club, wait until the outbox is empty; print the games."""
    import json
    import sys
    import time as clock

    from app.club.outcome import outcome
    from app.club.reporter import ClubReporter
    from app.store import GameStore

    store = GameStore(db)
    reporter = ClubReporter(store, {"table": table, "host": "127.0.0.1", "port": port, "username": table,
                                    "password": password(table), "tls_ca": ""}).start()
    ids = []
    for n in range(games):
        s = seed * 100 + n
        kind = n % 3
        if kind == 0:
            ids.append(parlett_rubber(store, s))
        elif kind == 1:
            ids.append(board99_game(store, s, ("Dan", "ann ")))  # " ann" is Ann: matched by name
        else:
            ids.append(count99_game(store, s, ("Eve", "Ben", f"Guest{table}")))
        clock.sleep(pause)
    deadline = clock.monotonic() + wait
    while clock.monotonic() < deadline:
        clock.sleep(0.2)
        if reporter.outbox.count() == 0 and reporter.outbox.unconfirmed() == 0 and reporter._wake.empty():
            break
    played = []
    for game_id in ids:
        stored = store.load(game_id)
        players, winners = outcome(stored.kind, dict(stored.setup), list(stored.actions))
        played.append({"key": reporter.outbox.game_key(game_id), "kind": stored.kind, "players": players,
                       "winners": winners, "actions": len(stored.actions)})
    left = reporter.outbox.count() + reporter.outbox.unconfirmed()
    reporter.stop()
    print(json.dumps({"table": table, "games": played, "left": left}))
    sys.stdout.flush()
