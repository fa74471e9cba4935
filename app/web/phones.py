"""Ninety Nine with phones on the web display: the host's pages, the phones' pages, the TV, their API.

Routes (all under ``/v/TOKEN/``, so every one needs the view token; docs/web.md lists them):

* ``GET phones`` the host's page (a paired device): open a table, list the open ones.
* ``GET phones/T/host`` the host's page of table T: seat codes, QR code, seats, start, turn time.
* ``GET phones/T`` a phone's page: the join form, or the seat's own game once joined; ``?tv`` the
  TV's page (public: no hand, whoever asks).
* ``GET phones/T/events`` one Server-Sent Events stream per page: the seat's own view (its cookie),
  the host's view (``?as=host`` and a paired device), else the public view. Each message carries the
  new sentences since the page's last one (``?after=SEQ`` or ``Last-Event-ID``).
* ``GET phones/T/api/view`` the same view as JSON.
* ``POST api/phones`` (host) open a table; ``POST phones/T/api/host`` (host) start, seat kinds,
  new codes, remove a seat, turn time; ``POST phones/T/api/join`` a phone takes a seat (seat code
  and name: sets the seat's HttpOnly, SameSite=Strict cookie); ``POST phones/T/api/act`` the seat's
  play, draw or "I'm back" (the cookie plus a CSRF token derived from it, in ``X-CSRF-Token``).

Who sees what is decided here once per request and per message (:meth:`PhoneRoutes._role`): a seat's
view is built only for the holder of that seat's credential, and the session
(:mod:`app.games.count99.phones`) never puts another seat's card into any view. Actions run in the
executor (a commit writes to disk) through the session's checked path; the session's clock ticks
from this loop (``TICK``), never from the table's screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from typing import Any

from aiohttp import web

from app.games.count99.phones import (
    COMPUTER_LEVELS,
    PERSON,
    JoinRefused,
    PhoneError,
    PhoneOptions,
    PhoneTable,
    check_turn_seconds,
    csrf_for,
)
from app.games.count99.refusals import known_text
from app.games.live import LiveTable
from app.games.views import Tr
from app.pages import LANG_COOKIE, SECURITY_HEADERS, choose_language, html_page, language_switch, script_json
from app.web.pairing import COOKIE, Access, Device
from app.web.phone_pages import host_body, host_list_body, join_body, seat_body, tv_body, ui_words
from app.web.streams import EVENT_STREAM_HEADERS, KEEPALIVE, begin_event_stream
from rules.count99.cards import Variant
from rules.count99.errors import Count99Error

log = logging.getLogger(__name__)
TICK = 0.1  # seconds between the clock's looks at every phone table
SEAT_COOKIE = "t99seat"  # + "_" + table id
MAX_PHONE_STREAMS_PER_TABLE = 120


def seat_cookie(table_id: str) -> str:
    return f"{SEAT_COOKIE}_{table_id}"


class PhoneStream:
    """One open page of a table: woken on each change, it sends its own role's view."""

    def __init__(self, table_id: str, lang: str, after: int, host: bool, tv: bool,
                 credential: str | None) -> None:
        self.table_id, self.lang, self.after = table_id, lang, after
        self.host, self.tv, self.credential = host, tv, credential
        self.wake = asyncio.Event()
        self.closed = False
        self.client = "?"  # the device's address: streams are capped per address


class PhoneRoutes:
    """The phones' routes (a part of :class:`~app.web.server.WebServer`)."""

    live: LiveTable
    access: Access
    base_url: Any
    max_streams_per_client: int
    _phone_streams: dict[str, set[PhoneStream]]
    _viewer_cache: dict[tuple[str, int, str, int], tuple[int, bytes]]  # (table, seq, lang, after)

    # -- wiring -----------------------------------------------------------------------------------
    def add_phone_routes(self, app: web.Application) -> None:
        self._phone_streams = {}
        self._viewer_cache = {}
        self._phones_served = True
        r = app.router
        r.add_get("/v/{token}/phones", self.phones_host_list)
        r.add_get("/v/{token}/phones/{table:[0-9a-f]{8}}", self.phones_page)
        r.add_get("/v/{token}/phones/{table:[0-9a-f]{8}}/host", self.phones_host_page)
        r.add_get("/v/{token}/phones/{table:[0-9a-f]{8}}/events", self.phones_events, name="phone-events")
        r.add_get("/v/{token}/phones/{table:[0-9a-f]{8}}/api/view", self.phones_api_view)
        r.add_post("/v/{token}/api/phones", self.phones_api_create)
        r.add_post("/v/{token}/phones/{table:[0-9a-f]{8}}/api/join", self.phones_api_join)
        r.add_post("/v/{token}/phones/{table:[0-9a-f]{8}}/api/act", self.phones_api_act)
        r.add_post("/v/{token}/phones/{table:[0-9a-f]{8}}/api/host", self.phones_api_host)

    def phones_started(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[None]]:
        """In the server's loop once it serves: hear of changes, run the clock. A server without the
        phones' routes (exhibitor mode's follow-only display) does neither."""
        if not getattr(self, "_phones_served", False):
            return []

        def heard(table: PhoneTable) -> None:  # any thread, after a change: wake that table's pages
            if not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._phones_wake, table.table_id)

        self._phones_listener = heard
        self.live.phones.listeners.append(heard)
        return [asyncio.create_task(self._phones_clock())]

    def phones_stopped(self) -> None:
        listener = getattr(self, "_phones_listener", None)
        if listener in self.live.phones.listeners:
            self.live.phones.listeners.remove(listener)
        for group in getattr(self, "_phone_streams", {}).values():
            for stream in group:
                stream.closed = True
                stream.wake.set()

    async def phones_resume(self) -> None:
        """Before the server listens: the unfinished phones games from the store, so a phone that
        reconnects after a restart finds its table (in the executor: it replays records)."""
        if not getattr(self, "_phones_served", False):
            return
        for problem in await asyncio.get_running_loop().run_in_executor(None, self.live.phones.resume):
            log.error("%s", problem)

    async def _phones_clock(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(TICK)
            if not self.live.phones.tables():
                continue
            try:  # in the executor: a computer's turn commits to disk
                await loop.run_in_executor(None, self.live.phones.tick)
            except Exception:
                log.exception("the phone tables' clock failed")

    def _phones_wake(self, table_id: str) -> None:
        for stream in self._phone_streams.get(table_id, ()):
            stream.wake.set()

    # -- who is asking ----------------------------------------------------------------------------
    def _host(self, request: web.Request) -> Device | None:
        return self.access.device_for(request.cookies.get(COOKIE))

    def _table(self, request: web.Request) -> PhoneTable:
        table = self.live.phones.get(request.match_info["table"])
        if table is None:
            raise _refusal("there is no such table of phones (it ended, or the address is old)", 404, request)
        return table

    def _table_page(self, request: web.Request) -> PhoneTable | web.Response:
        """The table of a page's address, or the page that says it is gone (an old QR code, a table
        that ended or was dropped): HTML in the reader's language with ways back, never raw JSON."""
        table = self.live.phones.get(request.match_info["table"])
        if table is not None:
            return table
        lang = choose_language(request)
        _ = Tr(lang)
        token = request.match_info["token"]
        body = (f'<h1>{_("This table of phones is not here")}</h1>'
                f'<p>{_("It has ended, or the address is old. Ask the host for the new address.")}</p>'
                f'<ul class="ways-back"><li><a class="big-link" href="/v/{token}/">{_("All games")}</a></li>'
                f'<li><a class="big-link" href="/v/{token}/phones">'
                f'{_("Ninety Nine with phones")}</a></li></ul>')
        response = self._phone_page(request, lang, _("This table of phones is not here"), body,
                                    {"page": "gone"})
        response.set_status(404)
        return response

    def _payload(self, table: PhoneTable, lang: str, *, seat: int | None, host: bool, after: int,
                 token: str) -> dict[str, Any]:
        """The view for one role: a seat's own (only ever built for that seat's credential), the
        host's (codes, no hands) or the public one; plus the sentences since ``after``."""
        _ = Tr(lang)
        if seat is not None:
            view = table.seat_view(seat, _)
            said = table.sentences(seat, after, _)
            sound = table.sound_for(seat, after)
            role = "seat"
        elif host:
            view, said, sound, role = table.host_view(_), table.sentences(None, after, _), None, "host"
            view["join_url"] = f"{self.base_url()}/v/{token}/phones/{table.table_id}"
        else:
            view, said, sound, role = table.public_view(_), table.sentences(None, after, _), None, "viewer"
        return {"role": role, "seq": view["seq"], "view": view, "said": said, "sound": sound}

    def _seat_of(self, request: web.Request, table: PhoneTable) -> tuple[int | None, str | None]:
        credential = request.cookies.get(seat_cookie(table.table_id))
        return table.seat_for(credential), credential

    # -- pages ------------------------------------------------------------------------------------
    def _phone_page(self, request: web.Request, lang: str, title: str, body: str, boot: dict[str, Any],
                    tv: bool = False) -> web.Response:
        _ = Tr(lang)
        token = request.match_info["token"]
        other = "de" if lang == "en" else "en"
        switch = language_switch(request.query, other)
        nav = (f'<nav aria-label="{_("Pages")}"><ul>'
               f'<li><a href="/v/{token}/">{_("All games")}</a></li>'
               f'<li><a href="{switch}" lang="{other}" hreflang="{other}">'
               f'{"Deutsch" if other == "de" else "English"}</a></li></ul></nav>')
        boot = {**boot, "lang": lang, "token": token, "ui": ui_words(_)}
        text = html_page(lang, tv, title, skip=_("Skip to the game"), brand="Table99", nav=nav, main=body,
                         head=('<link rel="stylesheet" href="/static/phones.css">'
                               '<script src="/static/common.js" defer></script>'
                               '<script src="/static/phones.js" defer></script>'),
                         after=f'<script id="boot" type="application/json">{script_json(boot)}</script>')
        response = web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})
        if request.query.get("lang") in ("en", "de"):
            response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="Strict", httponly=True)
        return response

    async def phones_host_list(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        token = request.match_info["token"]
        host = self._host(request)
        tables = [(t.table_id, t.snapshot) for t in self.live.phones.tables() if not t.over] if host else []
        body = host_list_body(_, token, host is not None, tables)
        return self._phone_page(request, lang, _("Ninety Nine with phones"), body,
                                {"page": "host-list", "csrf": host.csrf if host else None})

    async def phones_host_page(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        table = self._table_page(request)
        if isinstance(table, web.Response):
            return table
        token = request.match_info["token"]
        host = self._host(request)
        if host is None:
            body = host_list_body(_, token, False, [])
            return self._phone_page(request, lang, _("Ninety Nine with phones"), body, {"page": "host-list"})
        payload = self._payload(table, lang, seat=None, host=True, after=table.seq, token=token)
        body = host_body(_, token, table.table_id, payload["view"]["join_url"])
        return self._phone_page(request, lang, _("Host: Ninety Nine with phones"), body,
                                {"page": "host", "table": table.table_id, "payload": payload,
                                 "csrf": host.csrf})

    async def phones_page(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        table = self._table_page(request)
        if isinstance(table, web.Response):
            return table
        token = request.match_info["token"]
        if "tv" in request.query:
            payload = self._payload(table, lang, seat=None, host=False, after=table.seq, token=token)
            return self._phone_page(request, lang, _("Ninety Nine"), tv_body(_),
                                    {"page": "tv", "table": table.table_id, "payload": payload}, tv=True)
        seat, credential = self._seat_of(request, table)
        if seat is None or credential is None:
            seats = [(i, s["name"], s["joined"]) for i, s in enumerate(table.snapshot["seats"])
                     if s["kind"] == PERSON]
            return self._phone_page(request, lang, _("Join the game"), join_body(_, seats, table.started),
                                    {"page": "join", "table": table.table_id})
        payload = self._payload(table, lang, seat=seat, host=False, after=table.seq, token=token)
        return self._phone_page(request, lang, _("Ninety Nine"), seat_body(_),
                                {"page": "seat", "table": table.table_id, "payload": payload,
                                 "csrf": csrf_for(credential)})

    # -- views --------------------------------------------------------------------------------------
    def _after(self, request: web.Request, table: PhoneTable) -> int:
        raw = request.headers.get("Last-Event-ID") or request.query.get("after") or ""
        return int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 16 else table.seq

    async def phones_api_view(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        table = self._table(request)
        seat, _credential = self._seat_of(request, table)
        host = request.query.get("as") == "host" and self._host(request) is not None
        tv = "tv" in request.query
        payload = self._payload(table, lang, seat=None if tv or host else seat, host=host,
                                after=self._after(request, table), token=request.match_info["token"])
        return web.json_response(payload, headers={"Cache-Control": "no-store"},
                                 dumps=lambda d: json.dumps(d, ensure_ascii=False))

    async def phones_events(self, request: web.Request) -> web.StreamResponse:
        lang = choose_language(request)
        table = self._table(request)
        token = request.match_info["token"]
        group = self._phone_streams.setdefault(table.table_id, set())
        client = request.remote or "?"
        mine = sum(1 for g in self._phone_streams.values() for s in g if s.client == client)
        if len(group) >= MAX_PHONE_STREAMS_PER_TABLE or mine >= self.max_streams_per_client:
            return web.Response(status=503, text="too many pages on this table\n",
                                headers={"Retry-After": "10"})
        host = request.query.get("as") == "host" and self._host(request) is not None
        tv = "tv" in request.query
        _seat, credential = self._seat_of(request, table)
        stream = PhoneStream(table.table_id, lang, self._after(request, table), host, tv,
                             None if tv or host else credential)
        stream.client = client
        group.add(stream)
        response = web.StreamResponse(headers=EVENT_STREAM_HEADERS)
        try:
            await begin_event_stream(response, request)
            stream.wake.set()  # the view as it is now
            while not stream.closed:
                try:
                    await asyncio.wait_for(stream.wake.wait(), KEEPALIVE)
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
                    continue
                stream.wake.clear()
                if stream.closed:
                    break
                # The seat is looked up again for every message: a removed seat's phone gets the
                # public view from then on, never its old hand.
                seat = table.seat_for(stream.credential) if stream.credential else None
                if seat is None and not stream.host and not stream.credential:
                    seq, message = self._viewer_message(table, lang, stream.after, token)
                else:
                    payload = self._payload(table, lang, seat=seat, host=stream.host, after=stream.after,
                                            token=token)
                    if stream.credential and seat is None:
                        payload["gone"] = True
                        stream.credential = None
                    seq, message = payload["seq"], _message(payload)
                stream.after = seq
                await response.write(message)
        except ConnectionResetError:
            pass
        finally:
            group.discard(stream)
        return response

    def _viewer_message(self, table: PhoneTable, lang: str, after: int, token: str) -> tuple[int, bytes]:
        """The public message for viewers (TVs, the table's watchers): built once per change,
        language and starting point, not once per viewer (50 TVs and phones cost one build)."""
        key = (table.table_id, table.seq, lang, after)
        cache = self._viewer_cache
        hit = cache.get(key)
        if hit is None:
            payload = self._payload(table, lang, seat=None, host=False, after=after, token=token)
            if len(cache) >= 256:
                cache.clear()
            hit = cache[key] = (payload["seq"], _message(payload))
        return hit

    # -- changes --------------------------------------------------------------------------------------
    async def _phone_body(self, request: web.Request) -> dict[str, Any]:
        problem = self._cross_site(request)  # type: ignore[attr-defined]
        if problem:
            raise _refusal(problem, 403, request)
        body: dict[str, Any] = await self._json_body(request)  # type: ignore[attr-defined]
        return body

    async def _run(self, request: web.Request, action: Any) -> Any:
        try:
            return await asyncio.get_running_loop().run_in_executor(None, action)
        except JoinRefused as exc:
            raise _refusal(str(exc), 403, request) from exc
        except (PhoneError, Count99Error) as exc:
            raise _refusal(str(exc), 422, request) from exc

    async def phones_api_create(self, request: web.Request) -> web.Response:
        body = await self._phone_body(request)
        host = self._checked_host(request)
        _ = Tr(choose_language(request))
        try:
            options = options_from(body)
        except PhoneError as exc:
            raise _refusal(str(exc), 422, request) from exc
        table = await self._run(request, lambda: self.live.phones.create(
            options, computer_name=lambda n: _("Computer {n}", n=n)))
        log.info("web: phones table %s opened by device %s", table.table_id, host.id)
        return web.json_response({"ok": True, "table": table.table_id})

    def _checked_host(self, request: web.Request) -> Device:
        host = self._host(request)
        if host is None:
            raise _refusal("this device is not paired (or was revoked)", 401, request)
        if not hmac.compare_digest(request.headers.get("X-CSRF-Token", "").encode(), host.csrf.encode()):
            raise _refusal("missing or wrong CSRF token: reload the page", 403, request)
        return host

    async def phones_api_host(self, request: web.Request) -> web.Response:
        body = await self._phone_body(request)
        self._checked_host(request)
        table = self._table(request)
        op, index = body.get("op"), body.get("index")
        if op == "start":
            await self._run(request, table.start)
        elif op == "seat":
            await self._run(request, lambda: table.set_seat(index, str(body.get("kind"))))
        elif op == "new-code":
            await self._run(request, lambda: table.new_code(index))
        elif op == "remove":
            await self._run(request, lambda: table.remove_seat(index))
        elif op == "turn-time":
            seconds = body.get("seconds")
            try:
                check_turn_seconds(seconds)
            except PhoneError as exc:
                raise _refusal(str(exc), 422, request) from exc
            await self._run(request, lambda: table.set_turn_seconds(seconds))
        elif op == "forget":  # a lobby or a finished game; a running game stays (it is in the store,
            if table.started and not table.over:  # and the table's screen reopens it from memory)
                raise _refusal("the game is running: the table stays open until it ends", 422, request)
            self.live.phones.forget(table.table_id)
        else:
            raise _refusal("unknown host action", 400, request)
        return web.json_response({"ok": True})

    async def phones_api_join(self, request: web.Request) -> web.Response:
        body = await self._phone_body(request)
        table = self._table(request)
        credential = await self._run(request, lambda: table.join(body.get("seat"), body.get("code"),
                                                                 body.get("name")))
        response = web.json_response({"ok": True, "csrf": csrf_for(credential)})
        response.set_cookie(seat_cookie(table.table_id), credential, max_age=2 * 86400, httponly=True,
                            samesite="Strict",
                            path=f"/v/{request.match_info['token']}/phones/{table.table_id}")
        log.info("web: a phone joined table %s", table.table_id)
        return response

    async def phones_api_act(self, request: web.Request) -> web.Response:
        body = await self._phone_body(request)
        table = self._table(request)
        seat, credential = self._seat_of(request, table)
        if seat is None or credential is None:
            raise _refusal("this phone holds no seat at this table: join first", 401, request)
        sent = request.headers.get("X-CSRF-Token", "").encode()
        if not hmac.compare_digest(sent, csrf_for(credential).encode()):
            raise _refusal("missing or wrong CSRF token: reload the page", 403, request)
        op = body.get("op")
        if op == "play":  # "seq": the view it was chosen from, so a repeated request plays nothing
            seen = body.get("seq")
            if isinstance(seen, bool) or not isinstance(seen, int):
                raise _refusal("a play names the view it was chosen from ('seq'): reload the page", 400,
                               request)
            await self._run(request, lambda: table.play(seat, body.get("slot"), body.get("choice"), seen))
        elif op == "draw":
            await self._run(request, lambda: table.draw(seat))
        elif op == "back":
            await self._run(request, lambda: table.back(seat))
        else:
            raise _refusal("unknown action", 400, request)
        return web.json_response({"ok": True, "seq": table.seq})


def _message(payload: dict[str, Any]) -> bytes:
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"id: {payload['seq']}\nevent: view\ndata: {data}\n\n".encode()


def options_from(body: dict[str, Any]) -> PhoneOptions:
    """The host's form as options; PhoneError names the first bad field."""
    try:
        variant = Variant(body.get("variant", "quentin-c"))
    except ValueError:
        raise PhoneError("variant must be quentin-c or rs-games") from None
    people, computers, level = body.get("people", 2), body.get("computers", 2), body.get("level", "hard")
    for what, value in (("people", people), ("computers", computers)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 8:
            raise PhoneError(f"{what} must be 0 to 8")
    if level not in COMPUTER_LEVELS:
        raise PhoneError("the computers' level is easy or hard")
    pause = body.get("computer_pause", 1.0)
    options = PhoneOptions(variant=variant, seats=(PERSON,) * people + (str(level),) * computers,
                           hand_size=body.get("hand_size", 3), tokens=body.get("tokens", 9),
                           manual_draw=body.get("manual_draw", False), turn_seconds=body.get("turn_seconds"),
                           computer_pause=pause)
    options.check()
    return options


def _refusal(text: str, status: int, request: web.Request) -> web.HTTPException:
    """A JSON refusal in the asker's language."""
    _ = Tr(choose_language(request))
    words = text if _.language == "en" else (known_text(text, _) or _(text))
    return _http(status, words)


def _http(status: int, words: str) -> web.HTTPException:
    kinds: dict[int, type[web.HTTPException]] = {
        400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden, 404: web.HTTPNotFound,
        422: web.HTTPUnprocessableEntity}
    return kinds[status](text=json.dumps({"error": words}, ensure_ascii=False),
                         content_type="application/json", headers=SECURITY_HEADERS)


__all__ = ["PhoneRoutes", "options_from"]
