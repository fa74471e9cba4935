"""The HTML page every web front end serves: its frame, security headers, language and style.

The table's web display (:mod:`app.web`) and the club hub (:mod:`app.club`) show pages to the same
phones and TVs: one frame (skip link, header, landmarks, stylesheet, no inline script), one
Content-Security-Policy, one way to choose the language, one stylesheet (``static/style.css``).
A service both import, so that neither front end imports the other. aiohttp is imported only where
a response is made, so this imports on a table without the web extra.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.config_checks import LANGUAGES

if TYPE_CHECKING:
    from aiohttp import web

STATIC = Path(__file__).with_name("static")  # what every front end's pages share (style.css)
LANG_COOKIE = "t99lang"


def choose_language(request: web.Request) -> str:
    asked = request.query.get("lang")
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGUAGES:
        return cookie
    best, best_q = "en", -1.0
    for part in request.headers.get("Accept-Language", "")[:200].split(","):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()[:2]
        q = 1.0
        for bit in bits[1:]:
            if bit.strip().startswith("q="):
                try:
                    q = float(bit.strip()[2:])
                except ValueError:
                    q = 0.0
        if tag in LANGUAGES and q > best_q:
            best, best_q = tag, q
    return best


SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                                "form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token is in the address: never sent anywhere
    "X-Frame-Options": "DENY",
}


def static_file(name: str, *folders: Path) -> web.StreamResponse:
    """``/static/NAME`` from the first of ``folders`` that has it (then this module's own), or 404:
    never a path outside them (no "/" and no leading dot in the name)."""
    from aiohttp import web

    for folder in (*folders, STATIC):
        path = folder / name
        if "/" not in name and not name.startswith(".") and path.is_file():
            return web.FileResponse(path, headers={"Cache-Control": "max-age=300"})
    return web.Response(status=404, text="not found\n")


def language_switch(query: Any, other: str) -> str:
    """The same page in the other language, for an href: the query kept but re-encoded and
    escaped, so a crafted query string adds no markup (bare keys such as ``?tv`` stay bare)."""
    from urllib.parse import quote

    parts = [quote(k) + (f"={quote(v)}" if v else "") for k, v in query.items() if k != "lang"]
    return html.escape("?" + "&".join([*parts, f"lang={other}"]))


def html_page(lang: str, tv: bool, title: str, *, skip: str, brand: str, nav: str, main: str,
              head: str = "", after: str = "") -> str:
    """The page around a view, shared by the table's web display and the club hub: the same
    skip link, header, landmarks and stylesheet, no inline script."""
    return f"""<!doctype html>
<html lang="{lang}"{' class="tv"' if tv else ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{html.escape(title)} · Table99</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
{head}
</head>
<body>
<a class="skip" href="#main">{skip}</a>
<header><p class="brand">{brand}</p>{nav}</header>
<main id="main" tabindex="-1">
{main}
</main>
{after}
</body>
</html>
"""


def script_json(data: Any) -> str:
    """JSON for a <script type="application/json"> block: every "<" escaped, so no text in it (a
    player's name with "</script>" or "<!--<script") can end the block or change how it is parsed."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
