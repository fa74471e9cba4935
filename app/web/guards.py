"""What every request must pass before the web display acts on it, and what every change needs.

Every page and stream needs the view token in its path; requests in flight are capped overall and
per client address (a flood gets 503s, and the main thread is never asked for more than one queued
command per request), and a request counts as in flight only once its whole body has arrived,
which must be within ``BODY_DEADLINE`` (so stalled or trickling bodies cannot fill the cap); every
change needs a same-origin ``Origin`` (or ``Sec-Fetch-Site``) and a JSON body under ``MAX_BODY``
bytes, and every response carries the security headers (docs/web.md, "Security").
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from app.games.views import Tr
from app.pages import SECURITY_HEADERS, choose_language
from app.web.pairing import Access

MAX_BODY = 16 * 1024
# Seconds a request's body may take to arrive once its headers have (a JSON body is under 16 KiB:
# a phone on a weak Wi-Fi sends it in well under a second). See Guards._read_body.
BODY_DEADLINE = 5.0
STREAM_ROUTES = ("events", "phone-events")  # event streams: capped by their own handlers
GAME_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() also takes "²" and "١٢٣"


class Guards:
    """The guards (a part of :class:`~app.web.server.WebServer`, which owns the access tokens and
    the count of requests in flight)."""

    access: Access
    max_requests: int
    max_requests_per_client: int
    _in_flight: int
    _in_flight_by: dict[str, int]  # client address -> its requests in flight

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        try:
            response = await self._checked(request, handler)
        except web.HTTPException as exc:
            for name, value in SECURITY_HEADERS.items():
                exc.headers.setdefault(name, value)
            raise
        if not response.prepared:  # every answer, the guards' own refusals included
            for name, value in SECURITY_HEADERS.items():
                response.headers.setdefault(name, value)
        return response

    async def _checked(self, request: web.Request,
                       handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        token = request.match_info.get("token")
        if token is not None and not self.access.token_ok(token):
            return web.Response(status=404, text="not found: use the address shown on the table's screen\n")
        # The body arrives before the request counts as in flight, within BODY_DEADLINE: a client that
        # sends headers and then a byte now and then (or nothing) holds no place that pages need.
        refused = await self._read_body(request)
        if refused is not None:
            return refused
        # An event stream lives as long as its page: it is capped by max_streams (in the handler), not
        # counted here, or 64 open pages would refuse every other request.
        streaming = request.match_info.route.name in STREAM_ROUTES
        client = request.remote or "?"
        if not streaming:
            if self._in_flight >= self.max_requests:
                return _busy("busy: too many requests at once\n")
            if self._in_flight_by.get(client, 0) >= self.max_requests_per_client:
                return _busy("busy: too many requests at once from this device\n")
            self._in_flight += 1
            self._in_flight_by[client] = self._in_flight_by.get(client, 0) + 1
        try:
            return await handler(request)
        finally:
            if not streaming:
                self._in_flight -= 1
                left = self._in_flight_by[client] - 1
                if left:
                    self._in_flight_by[client] = left
                else:
                    del self._in_flight_by[client]  # else every address ever seen keeps an entry

    async def _read_body(self, request: web.Request) -> web.Response | None:
        """Read the whole body (kept by aiohttp for the handler's ``read()``) within BODY_DEADLINE,
        or the answer that refuses it: 413 over MAX_BODY, 408 when it is late (and the connection
        is closed after the answer, so a trickling client has to connect again)."""
        if not request.body_exists:
            return None
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise _too_large(request)
        try:
            await asyncio.wait_for(request.read(), BODY_DEADLINE)
        except TimeoutError:
            response = web.Response(status=408, text=f"the request's body did not arrive within "
                                                     f"{BODY_DEADLINE:g} s\n")
            response.force_close()
            return response
        except OSError:  # the client hung up halfway (aiohttp's "Connection lost"): nobody to answer
            response = web.Response(status=400, text="the request's body was cut off\n")
            response.force_close()
            return response
        return None

    def _cross_site(self, request: web.Request) -> str | None:
        """Why this POST is not from one of our own pages, or None."""
        origin = request.headers.get("Origin")
        fetch_site = request.headers.get("Sec-Fetch-Site")
        if origin is not None:
            if origin != f"{request.scheme}://{request.host}":
                return "cross-site request refused"
        elif fetch_site is not None:
            if fetch_site not in ("same-origin", "none"):
                return "cross-site request refused"
        else:
            return "request without Origin refused"
        if request.content_type != "application/json":
            return "the body must be JSON (Content-Type: application/json)"
        return None

    async def _json_body(self, request: web.Request) -> dict[str, Any]:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise _too_large(request)
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:  # no Content-Length: aiohttp counted it
            raise _too_large(request) from None
        _ = Tr(choose_language(request))  # the asker's language: a phone set to German reads German
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            line, column = getattr(exc, "lineno", 1), getattr(exc, "colno", 1)
            words = _("the request's body is not JSON (line {line}, column {column})",
                      line=line, column=column)
            raise web.HTTPBadRequest(text=json.dumps({"error": words}, ensure_ascii=False),
                                     content_type="application/json") from exc
        if not isinstance(data, dict):
            words = _("the request's body must be a JSON object")
            raise web.HTTPBadRequest(text=json.dumps({"error": words}, ensure_ascii=False),
                                     content_type="application/json")
        return data


def _too_large(request: web.Request) -> web.HTTPException:
    """413 as JSON in the asker's language (aiohttp's own answer is an English plain-text line)."""
    words = Tr(choose_language(request))("the request's body is over {n} bytes", n=MAX_BODY)
    return web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length or 0,
                                         text=json.dumps({"error": words}, ensure_ascii=False),
                                         content_type="application/json")


def _busy(text: str) -> web.Response:
    return web.Response(status=503, text=text, headers={"Retry-After": "2"})
