"""What every request must pass before the web display acts on it, and what every change needs.

Every page and stream needs the view token in its path; requests in flight are capped (a flood gets
503s, and the main thread is never asked for more than one queued command per request); every
change needs a same-origin ``Origin`` (or ``Sec-Fetch-Site``) and a JSON body under ``MAX_BODY``
bytes, and every response carries the security headers (docs/web.md, "Security").
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from app.pages import SECURITY_HEADERS
from app.web.pairing import Access

MAX_BODY = 16 * 1024
GAME_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() also takes "²" and "١٢٣"


class Guards:
    """The guards (a part of :class:`~app.web.server.WebServer`, which owns the access tokens and
    the count of requests in flight)."""

    access: Access
    max_requests: int
    _in_flight: int

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        # An event stream lives as long as its page: it is capped by max_streams (in the handler), not
        # counted here, or 64 open pages would refuse every other request.
        streaming = request.match_info.route.name == "events"
        if not streaming and self._in_flight >= self.max_requests:
            return web.Response(status=503, text="busy: too many requests at once\n",
                                headers={"Retry-After": "2"})
        token = request.match_info.get("token")
        if token is not None and not self.access.token_ok(token):
            return web.Response(status=404, text="not found: use the address shown on the table's screen\n")
        counted = 0 if streaming else 1
        self._in_flight += counted
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            for name, value in SECURITY_HEADERS.items():
                exc.headers.setdefault(name, value)
            raise
        finally:
            self._in_flight -= counted
        if not response.prepared:
            for name, value in SECURITY_HEADERS.items():
                response.headers.setdefault(name, value)
        return response

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
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
        raw = await request.read()
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise web.HTTPBadRequest(text=json.dumps({"error": f"the body is not JSON: {str(exc)[:80]}"}),
                                     content_type="application/json") from exc
        if not isinstance(data, dict):
            raise web.HTTPBadRequest(text=json.dumps({"error": "the body must be a JSON object"}),
                                     content_type="application/json")
        return data
