"""An evening at the hub for its pages' browser checks: N tables with games in play (long names if
asked), finished games for the standings, and the hub's pages served on 127.0.0.1 from a thread.

Used by tests/test_club_hub_browser.py (fit on every TV size) and benchmarks/club_tv_audit.py
(axe-core, cap heights, screenshots) and benchmarks/club_panel.py (viewers).
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.club.hub import LISTENING, HubStore
from app.club.outbox import Outbox
from app.store import GameStore
from tests.club_support import board99_game, count99_game, parlett_rubber
from tests.web_support import set_size

__all__ = ["set_size"]  # the browser checks' one way to size the screen, named here too

LONG = ["Maximiliane Alexandra von Hohenzollern-Sigmaringen",
        "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohl"]
SHORT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Mo", "Ned",
         "Ola", "Pia", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wendy", "Xan"]


def names(table: int, long_names: bool) -> list[str]:
    """Three players of table ``table`` (1-based); with ``long_names`` two of each table's are long."""
    base = [SHORT[(3 * (table - 1) + i) % len(SHORT)] for i in range(3)]
    if long_names:
        base[0] = f"{LONG[0]} {table}"
        base[1] = f"{LONG[1]}{table}"
    return base


def playing_game(store: GameStore, kind: int, players: list[str], seed: int) -> int:
    """A game in play, a few moves in: Ninety Nine, Parlett or the board game."""
    if kind == 0:
        from app.games.count99.game import ComputerGame
        from rules.count99.cards import Variant
        from rules.count99.players import make_player
        from rules.count99.table import Setup

        game = ComputerGame.create(store, Setup(Variant.QUENTIN_C, tuple(players), tokens=3, hand_size=3),
                                   seed=seed)
        me = make_player("easy", seed)
        for _ in range(5):
            if game.table.over:
                break
            if game.humans_turn():
                slot, choice = me.choose(game.game.view(0))
                game.play(slot, choice)
            else:
                game.computer_step()
        return game.game_id
    if kind == 1:
        from app.games.parlett.game import ParlettSession

        session = ParlettSession.new(store, "three", players, players[2], {"target": 100})
        for maker in players[:2]:
            others = [n for n in players if n != maker]
            tricks = {maker: 3, others[0]: 4, others[1]: 2}
            session.add_deal({"bids": dict.fromkeys(players, 3), "tricks": tricks})
        return session.game_id
    from app.games.board99.game import Board99Game, TableSetup
    from rules.board99 import apply, make_setup
    from rules.board99.ai import choose_action

    rng = random.Random(seed)
    deck = list(range(100))
    rng.shuffle(deck)
    two = players[:2]
    game = Board99Game.create(store, make_setup(two, ruleset="classic", layout="spiral-out", deck=deck),
                              TableSetup())
    for _ in range(12):
        if game.state.outcome is not None:
            break
        action = choose_action(game.state.view_for(game.state.to_move), "basic", rng)  # type: ignore[arg-type]
        new_state, _ = apply(game.state, action)
        game.commit(action, new_state)
    return game.id


def evening_hub(folder: Path, tables: int, long_names: bool = False, quiet: bool = True) -> HubStore:
    """The hub's store after ``tables`` tables each played a game and are in the middle of another;
    with ``quiet`` the last table has not been heard for 5 minutes (its card's extra line)."""
    folder.mkdir(parents=True, exist_ok=True)
    hub = HubStore(folder / "hub.sqlite3")
    for n in range(1, tables + 1):
        table = f"t{n}"
        store = GameStore(folder / f"{table}.sqlite3")
        outbox = Outbox(store.path, table)
        players = names(n, long_names)
        kind = n % 3
        if kind == 0:
            done = count99_game(store, n, tuple(players))
        elif kind == 1:
            done = board99_game(store, n, (players[0], players[1]))
        else:
            done = parlett_seated(store, players, n)
        outbox.capture(store.load(done))
        outbox.capture(store.load(playing_game(store, (n + 1) % 3, players, n)))
        for m in outbox.pending():
            hub.receive(m.topic, m.payload)
        store.close()
        outbox.close()
    if quiet and tables:
        hub._db.execute("UPDATE tables SET heard=? WHERE name=?", (time.time() - 300, f"t{tables}"))
    return hub


def parlett_seated(store: GameStore, players: list[str], seed: int) -> int:
    """A finished Parlett rubber with these players (club_support's has Ann, Ben and Cat)."""
    if players == ["Ann", "Ben", "Cat"]:
        return parlett_rubber(store, seed)
    from app.games.parlett.game import ParlettSession

    session = ParlettSession.new(store, "three", players, players[2], {"target": 100})
    maker = players[seed % 3]
    while session.store.load(session.game_id).status != "finished":
        others = [n for n in players if n != maker]
        tricks = {maker: 3, others[0]: 4, others[1]: 2}
        session.add_deal({"bids": dict.fromkeys(players, 3), "tricks": tricks})
    return session.game_id


@contextmanager
def serve(hub: HubStore, status: tuple[str, dict[str, str]] = (LISTENING, {"address": "127.0.0.1:1883"}),
          ) -> Iterator[str]:
    """The hub's pages on 127.0.0.1 (a free port) from a thread; yields the base address."""
    from aiohttp import web

    from app.club.hub_web import HubWeb

    app = HubWeb(hub, status=lambda: status).make_app()
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


# What the browser measures on the TV page: the page's size against the window, every card's
# content against its box, the standings' last visible row and Wins column, and the cap height
# of the standings' type (the canvas's measure of "H" in the cells' own font).
MEASURE = """
const doc = document.documentElement;
const cards = [...document.querySelectorAll('.hub-table')];
// a card, or a line in it, cut at the bottom (a line may end in "..." sideways: that is by design)
const style = el => getComputedStyle(el);
const cut = el => el.scrollHeight > el.clientHeight + 1 && style(el).webkitLineClamp === 'none';
const sideways = el => el.scrollWidth > el.clientWidth + 1 && style(el).textOverflow !== 'ellipsis';
const clipped = cards.filter(c => cut(c) || [...c.children].some(l => cut(l) || sideways(l)))
  .map(c => c.querySelector('h2').textContent);
const out = cards.filter(c => { const r = c.getBoundingClientRect();
  return r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5 || r.top < 0 || r.left < 0; }).length;
const rows = [...document.querySelectorAll('.standings tbody tr')];
const lastRow = rows.length ? rows[rows.length - 1].getBoundingClientRect().bottom : 0;
const wins = rows.map(r => r.cells[2].getBoundingClientRect().right);
const cell = document.querySelector('.standings tbody th') || document.querySelector('.standings caption');
const capOf = el => { if (!el) return 0; const cs = style(el);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
  return ctx.measureText('H').actualBoundingBoxAscent; };
const cap = capOf(cell), font = cell ? parseFloat(style(cell).fontSize) : 0;
const cardCap = capOf(document.querySelector('.hub-table p'));
return {innerWidth, innerHeight, scrollWidth: doc.scrollWidth, scrollHeight: doc.scrollHeight,
        cards: cards.length, clipped, out, rows: rows.length, lastRow, winsRight: Math.max(0, ...wins),
        cap, font, cardCap};
"""


# Legible at 3 m: a capital letter at least 16 minutes of arc high (ISO 9241-303's minimum for
# reading; 20-22' preferred), 13.96 mm at 3 m, on the smallest common TV, 43" (16:9: 53.5 cm
# high): 2.61 % of the screen's height, whatever its resolution (18.8 px at 720p, 28.2 px at
# 1080p, 56.4 px at 2160p). A 55" screen (68.5 cm) needs 2.04 %. docs/club.md says so.
ARCMIN = 16
DISTANCE_MM = 3000
SMALLEST_TV_INCHES = 43


def cap_share(arcmin: float = ARCMIN, distance_mm: float = DISTANCE_MM,
              inches: float = SMALLEST_TV_INCHES) -> float:
    """The cap height, as a share of a 16:9 screen's height, that subtends ``arcmin`` at ``distance_mm``."""
    cap_mm = 2 * distance_mm * math.tan(math.radians(arcmin / 60) / 2)
    height_mm = inches * 25.4 * 9 / math.hypot(16, 9)
    return cap_mm / height_mm


CAP_SHARE = cap_share()


def measure(driver: Any) -> dict[str, Any]:
    return dict(driver.execute_script(MEASURE))


def fits(m: dict[str, Any]) -> list[str]:
    """What is wrong with a TV page's measures (empty: it fits)."""
    wrong = []
    if m["scrollWidth"] > m["innerWidth"] or m["scrollHeight"] > m["innerHeight"]:
        wrong.append(f"page {m['scrollWidth']}x{m['scrollHeight']} in {m['innerWidth']}x{m['innerHeight']}")
    if m["clipped"]:
        wrong.append(f"cards cut off: {m['clipped']}")
    if m["out"]:
        wrong.append(f"{m['out']} cards off screen")
    if m["lastRow"] > m["innerHeight"] or m["winsRight"] > m["innerWidth"]:
        wrong.append(f"standings end at {m['lastRow']:.0f} px, Wins at {m['winsRight']:.0f} px")
    return wrong


def dump(m: dict[str, Any]) -> str:
    return json.dumps(m, sort_keys=True)
