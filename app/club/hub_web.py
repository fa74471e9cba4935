"""The hub's pages (aiohttp, the web display's stack and style): every table live, for a TV, and
the evening's standings, with CSV export. Read-only: the hub changes nothing at any table.

``/`` the TV page (``?tv`` huge type, ``?lang=de``), ``/standings?evening=YYYY-MM-DD|all`` (all =
the season: every evening the hub has heard), ``/standings.csv`` the same as CSV, ``/panel`` the
live part of ``/`` (the page's script fetches it every 2 s; no state in the browser).
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import html
import io
import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from app.club.hub import HEAVY_OVER, KINDS, MAX_DEPTH, HubStore, check_depth, standings
from app.club.worker import HeavyWorker
from app.games.views import Tr, build_view
from app.pages import SECURITY_HEADERS, choose_language, html_page, language_switch, static_file
from app.store import StoredGame

log = logging.getLogger(__name__)
HUB_STATIC = Path(__file__).parent / "static"
MATCHING = "Won / played. Players are matched by name as entered, ignoring case and extra spaces."
QUIET_AFTER = 120  # seconds without a word from a table: shown as "not heard for N min"


def kind_word(kind: str, _: Tr) -> str:
    return {"parlett": _("Parlett rubbers"), "board99": _("Board game"), "count99": _("Ninety Nine")}[kind]


def quiet_note(entry: dict[str, Any], _: Tr, now: float) -> str:
    quiet = now - float(entry["heard"])
    if quiet <= QUIET_AFTER:
        return ""
    return f'<p class="quiet">{_("Not heard for {n} min", n=int(quiet // 60))}</p>'


def table_card(entry: dict[str, Any], _: Tr, now: float) -> str:
    return with_note(card_body(entry, _), quiet_note(entry, _, now))


def card_in_worker(entry: dict[str, Any], language: str) -> str:
    """:func:`card_body` in the hub's worker process (a heavy state's card), from its text."""
    game = None
    if not entry.get("problem"):
        try:  # a heavy state is parsed only here: one an older hub kept unchecked is checked here too
            game = json.loads(entry["text"])
            check_depth(game)
        except RecursionError:
            raise ValueError(f"stored state unreadable: nested deeper than {MAX_DEPTH}") from None
    return card_body(entry | {"game": game if isinstance(game, dict) and game else None}, Tr(language))


def with_note(card: str, note: str) -> str:
    """The card with ``note`` as its last paragraph (inside its closing tag)."""
    end = "</section>"
    return card[:-len(end)] + note + end if note and card.endswith(end) else card


def card_body(entry: dict[str, Any], _: Tr) -> str:
    """A table's card without the "not heard" note: what depends on its state alone (cached)."""
    name = html.escape(entry["name"])
    game = entry["game"]
    if entry.get("problem"):
        raise ValueError(entry["problem"])
    if not game:
        return f'<section class="hub-table"><h2>{_("Table {name}", name=name)}</h2></section>'
    stored = StoredGame(0, str(game["kind"]), str(game.get("title", "")), dict(game["setup"]),
                        tuple(game["actions"]), str(game["status"]), str(game.get("result", "")),
                        float(game["created"]), float(game["updated"]))
    view = build_view(stored, _)
    lines = []
    if view.get("error"):
        lines.append(f'<p class="banner error">{html.escape(view["error"])}</p>')
    headline = view.get("result") or view.get("turn_text") or view.get("dealer_text") or ""
    if headline:
        cls = "banner result" if view.get("result") else "banner"
        lines.append(f'<p class="{cls}">{html.escape(str(headline))}</p>')
    if stored.kind == "count99" and "count" in view:
        lines.append(f'<p class="hub-count">{_("Count")}: <strong>{view["count"]}</strong></p>')
        tokens = ", ".join(f'{html.escape(p["name"])} {p["tokens"]}' for p in view["players"])
        lines.append(f'<p>{_("Tokens")}: {tokens}</p>')
    elif stored.kind == "parlett" and "hands" in view:
        totals = ", ".join(f'{html.escape(h["name"])} {h["rubber"]}' for h in view["hands"] if not h["dummy"])
        lines.append(f'<p>{_("Rubber")}: {totals}</p>')
    elif stored.kind == "board99" and "players" in view:
        names = ", ".join(html.escape(p["name"]) for p in view["players"])
        lines.append(f'<p>{names}</p><p>{html.escape(view.get("deck_text", ""))}</p>')
    status = html.escape(view.get("status_text", ""))
    return (f'<section class="hub-table"><h2>{_("Table {name}", name=name)}</h2>'
            f'<p class="status">{html.escape(view["game"])} · {status}</p>{"".join(lines)}</section>')


BACKGROUND_OVER = HEAVY_OVER  # a state this big: its card is built in the worker, a new one in the background
LIVE = ' class="live"'  # the live page's panel: its ?tv layout fills the screen (hub.css)
TV_ROWS = 12  # standings rows on the TV page: what fits beside the cards in type legible at 3 m


def standings_table(rows: list[dict[str, Any]], _: Tr, caption: str, tv: bool = False) -> str:
    """The standings. On a TV (``tv``): the first :data:`TV_ROWS` players in four columns (place,
    player, wins, games) big enough to read across the room; every column, the per-table one
    too, is on the standings page and in the CSV."""
    if not rows:
        return f"<p>{_('No finished games yet.')}</p>"
    if tv:
        body = [f'<tr><td>{i}</td><th scope="row">{html.escape(row["player"])}</th>'
                f'<td>{row["wins"]}</td><td>{row["games"]}</td></tr>'
                for i, row in enumerate(rows[:TV_ROWS], 1)]
        left = len(rows) - TV_ROWS
        said = (_("1 more player on the standings page") if left == 1
                else _("{n} more players on the standings page", n=left))
        more = f'<p class="more">{said}</p>' if left > 0 else ""
        return (f'<table class="standings tv-standings"><caption>{html.escape(caption)}</caption><thead><tr>'
                f'<th scope="col">#</th><th scope="col">{_("Player")}</th>'
                f'<th scope="col">{_("Wins")}</th><th scope="col">{_("Games")}</th></tr></thead>'
                f'<tbody>{"".join(body)}</tbody></table>{more}')
    head = "".join(f'<th scope="col">{kind_word(k, _)}</th>' for k in KINDS)
    lines = []
    for i, row in enumerate(rows, 1):
        cells = "".join(f'<td>{row["won"][k]} / {row["played"][k]}</td>' for k in KINDS)
        tables = ", ".join(f"{html.escape(t)} {v['won']}/{v['played']}"
                           for t, v in sorted(row["tables"].items()))
        lines.append(f'<tr><td>{i}</td><th scope="row">{html.escape(row["player"])}</th>{cells}'
                     f'<td>{row["wins"]}</td><td class="per-table">{tables}</td></tr>')
    # on a phone the table scrolls sideways inside this region, which takes the keyboard's focus so
    # that it scrolls without a mouse too (axe: scrollable-region-focusable)
    return (f'<div class="scroll-x" role="region" tabindex="0" aria-label="{html.escape(caption)}">'
            f'<table class="standings"><caption>{html.escape(caption)}</caption><thead><tr>'
            f'<th scope="col">#</th><th scope="col">{_("Player")}</th>{head}'
            f'<th scope="col">{_("Wins")}</th>'
            f'<th scope="col" class="per-table">{_("Tables (won/played)")}</th></tr></thead>'
            f'<tbody>{"".join(lines)}</tbody></table></div>'
            f'<p class="status">{_(MATCHING)}</p>')


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """A name as a spreadsheet shows it, never runs it: a cell that starts with = + - @ TAB or CR
    is a formula to Excel and LibreOffice (a player named ``=HYPERLINK(...)`` became a live link),
    so it gets a leading single quote (OWASP's advice for CSV injection)."""
    return "'" + text if text.startswith(FORMULA_START) else text


class HubWeb:
    def __init__(self, store: HubStore, status: Any = None) -> None:
        self.store = store
        # a callable giving the broker line as (template, values), translated on each page; or None
        self.status = status
        self._logged: set[tuple[str, str]] = set()  # (table, state version) logged unshowable
        # (table, language) -> (state version, card): one entry per table and language
        self._cards: dict[tuple[str, str], tuple[str, str]] = {}
        self._building: dict[tuple[str, str], threading.Lock] = {}  # a new state's card is built once
        self._locks_lock = threading.Lock()
        self.worker = HeavyWorker()  # builds a heavy state's card (see app.club.worker)

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        app.router.add_get("/", self.tv)
        app.router.add_get("/panel", self.panel)
        app.router.add_get("/standings", self.standings_page)
        app.router.add_get("/standings.csv", self.csv)
        app.router.add_get("/static/{name}", self.static)
        app.on_cleanup.append(self._cleanup)
        return app

    async def _cleanup(self, _app: web.Application) -> None:
        await asyncio.to_thread(self.close)

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    async def static(self, request: web.Request) -> web.StreamResponse:
        return static_file(request.match_info["name"], HUB_STATIC)

    def _evening(self, request: web.Request) -> str | None:
        asked = request.query.get("evening", "")
        if asked == "all":
            return None
        evenings = self.store.evenings()
        if asked in evenings:
            return asked
        return evenings[0] if evenings else time.strftime("%Y-%m-%d")

    def _panel(self, request: web.Request, _: Tr) -> str:
        now = time.time()
        tables = self.store.tables()
        cards = "".join(self._card(t, _, now) for t in tables) or f"<p>{_('No table has reported yet.')}</p>"
        evening = self._evening(request)
        caption = _("Standings, evening of {date}", date=evening) if evening else _("Standings, season")
        rows = standings(self.store.records(evening))
        broker = ""
        if callable(self.status):
            template, values = self.status()
            broker = html.escape(_(template, **values))
        # the TV's grid of cards depends on how many there are (hub.css): 1-2 one above the other,
        # then two columns of up to four rows, every card one line per fact (8 tables fit)
        count = min(len(tables), 8)
        return (f'<div class="hub-tables tables-{count}">{cards}</div>'
                f'<section class="hub-standings">'
                f'{standings_table(rows, _, caption, tv="tv" in request.query)}'
                f'<p class="connection">{broker}</p></section>')

    def _card(self, entry: dict[str, Any], _: Tr, now: float) -> str:
        """One table's card. Built once per state and language (a 1 MiB state replayed for every
        viewer's /panel took 0.9 s each, the hub at 100 % CPU with four viewers); the "not heard"
        note, which moves with the clock, is added each time. A heavy state's new card is built in
        the background while every viewer still gets the card before (a viewer who started the
        build would wait a second, others behind it too). A state it cannot show (kept by an older
        hub, or one the views choke on) is a short note on that card, logged once, never an error
        page for every table."""
        key = (str(entry.get("name", "")), _.language)
        version = str(entry.get("version") or hashlib.sha1(
            json.dumps(entry.get("game"), sort_keys=True, default=str).encode()).hexdigest())
        cached = self._cards.get(key)
        if cached is None or cached[0] != version:
            with self._locks_lock:
                building = self._building.setdefault(key, threading.Lock())
            if cached is None:  # nothing to show before it: wait for the build (once per hub start)
                with building:
                    cached = self._build(key, entry, _, version,
                                         elsewhere=int(entry.get("size", 0)) > BACKGROUND_OVER)
            elif building.acquire(blocking=False):  # else another viewer's build is under way
                if int(entry.get("size", 0)) > BACKGROUND_OVER:
                    threading.Thread(target=self._build_then_release, args=(building, key, entry, _, version),
                                     name=f"hub-card-{key[0]}", daemon=True).start()
                else:
                    try:
                        cached = self._build(key, entry, _, version)
                    finally:
                        building.release()
        return with_note(cached[1], quiet_note(entry, _, now))

    def _build(self, key: tuple[str, str], entry: dict[str, Any], _: Tr, version: str,
               elsewhere: bool = False) -> tuple[str, str]:
        cached = self._cards.get(key)
        if cached is None or cached[0] != version:
            cached = (version, self._build_card(entry, _, version, elsewhere))
            self._cards[key] = cached
        return cached

    def close(self) -> None:
        """Stops the worker process, if one was started."""
        self.worker.close()

    def _build_then_release(self, building: threading.Lock, key: tuple[str, str], entry: dict[str, Any],
                            _: Tr, version: str) -> None:
        try:
            self._build(key, entry, _, version, elsewhere=True)
        except Exception:  # _build_card catches what a state can raise; this is a bug of ours
            log.exception("hub: building the card of table %r failed", key[0])
        finally:
            building.release()

    def _build_card(self, entry: dict[str, Any], _: Tr, version: str, elsewhere: bool = False) -> str:
        """The card's body; ``elsewhere``: in the hub's worker process, so that a second of
        replaying a heavy state holds no lock the event loop and the other viewers need (in a
        thread it held Python's GIL: the other viewers' p99 went from 5 to 200 ms)."""
        try:
            if elsewhere:
                light = {k: v for k, v in entry.items() if k != "game"}  # a str pickles at memcpy speed
                return self.worker.run(card_in_worker, light, _.language)
            return card_body(entry, _)
        except Exception as exc:
            # Once per table and state (not per message: "heard" moves on with each one); a table's
            # newer unshowable state replaces its old key, so the set never outgrows the tables.
            name = str(entry.get("name", ""))
            seen = (name, version)
            if seen not in self._logged:
                self._logged = {k for k in self._logged if k[0] != name} | {seen}
                log.warning("hub: cannot show the state of table %r: %s: %s", name,
                            type(exc).__name__, " ".join(str(exc).split())[:120])
            return (f'<section class="hub-table"><h2>{_("Table {name}", name=html.escape(name))}</h2>'
                    f'<p class="banner error">{_("This table sent a state the hub cannot show.")}</p>'
                    f'</section>')

    def _page(self, request: web.Request, lang: str, title: str, body: str,
              live: bool = False) -> web.Response:
        """A hub page; ``live``: the live one, whose ``?tv`` layout fills the screen (hub.css)."""
        _ = Tr(lang)
        tv = "tv" in request.query
        other = "de" if lang == "en" else "en"
        switch = language_switch(request.query, other)
        evening = html.escape(request.query.get("evening", ""))
        nav = (f'<nav aria-label="{_("Pages")}"><ul><li><a href="/?lang={lang}">{_("Live")}</a></li>'
               f'<li><a href="/standings?evening=all&amp;lang={lang}">{_("Season")}</a></li>'
               f'<li><a href="/standings.csv?evening={evening or "all"}">{_("CSV export")}</a></li>'
               f'<li><a href="{switch}" lang="{other}" hreflang="{other}">'
               f'{"Deutsch" if other == "de" else "English"}</a></li></ul></nav>')
        text = html_page(lang, tv, title, skip=_("Skip to the tables"), brand=f'Table99 · {_("Club hub")}',
                         nav=nav, main=(f'<h1>{html.escape(title)}</h1>\n'
                                        f'<div id="panel"{LIVE if live else ""} data-lang="{lang}">'
                                        f'{body}</div>'),
                         head=('<link rel="stylesheet" href="/static/hub.css">\n'
                               '<script src="/static/hub.js" defer></script>'))
        return web.Response(text=text, content_type="text/html")

    async def tv(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        body = await asyncio.to_thread(self._panel, request, _)
        return self._page(request, lang, _("Every table, live"), body, live=True)

    async def panel(self, request: web.Request) -> web.Response:
        """The live part, built in a worker thread: a new heavy state being replayed never stops
        the event loop serving the other viewers (they get the cached cards meanwhile)."""
        _ = Tr(choose_language(request))
        return web.Response(text=await asyncio.to_thread(self._panel, request, _), content_type="text/html")

    async def standings_page(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        evening = self._evening(request)
        links = " ".join(f'<a href="/standings?evening={e}&amp;lang={lang}">{e}</a>'
                         for e in self.store.evenings())
        caption = _("Standings, evening of {date}", date=evening) if evening else _("Standings, season")
        body = (standings_table(standings(self.store.records(evening)), _, caption)
                + f'<p>{_("Evenings")}: {links}</p>')
        return self._page(request, lang, caption, body)

    async def csv(self, request: web.Request) -> web.Response:
        evening = self._evening(request)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["player", "wins", "games"] + [f"{k}_{w}" for k in KINDS for w in ("won", "played")]
                        + ["tables"])
        for row in standings(self.store.records(evening)):
            writer.writerow([csv_cell(row["player"]), row["wins"], row["games"]]
                            + [row[w][k] for k in KINDS for w in ("won", "played")]
                            + [csv_cell(" ".join(f"{t}:{v['won']}/{v['played']}"
                                                 for t, v in sorted(row["tables"].items())))])
        name = f"table99-standings-{evening or 'season'}.csv"
        return web.Response(text=out.getvalue(), content_type="text/csv", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
