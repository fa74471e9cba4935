"""The web display's pages (home, a game, pairing) and its JSON API (a view, pairing, a change).

A paired browser's change is queued to the app's main thread (:meth:`LiveTable.submit`) and runs
through the table's own session (:mod:`app.web.commands`); the page waits for the result.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
import logging
import re
import time
from typing import Any

from aiohttp import web

from app.games.live import LiveTable
from app.games.views import LANGUAGES, Tr, game_title, result_text, status_text
from app.pages import LANG_COOKIE, choose_language, html_page, language_switch, script_json
from app.web import commands
from app.web.guards import GAME_NUMBER
from app.web.pairing import COOKIE, Access, Device, PairingError

log = logging.getLogger(__name__)
COMMAND_TIMEOUT = 5.0  # waiting for the main thread to take a command
COMMAND_WAIT_MORE = 30.0  # then, once it has started it, for its answer


class Routes:
    """The pages and the API (a part of :class:`~app.web.server.WebServer`, which owns the table,
    the access tokens and the hub of views)."""

    live: LiveTable
    access: Access
    hub: Any

    def _device(self, request: web.Request) -> Device | None:
        return self.access.device_for(request.cookies.get(COOKIE))

    def _page(self, request: web.Request, lang: str, title: str, body: str,
              boot: dict[str, Any]) -> web.Response:
        _ = Tr(lang)
        tv = "tv" in request.query
        token = request.match_info["token"]
        other = "de" if lang == "en" else "en"
        switch = language_switch(request.query, other)
        boot_json = script_json(boot)
        pages = self.nav_links(token, tv, _)
        links = "".join(f'<li><a href="{href}">{words}</a></li>' for href, words in pages)
        nav = (f'<nav aria-label="{_("Pages")}"><ul>{links}'
               f'<li><a href="{switch}" lang="{other}" hreflang="{other}">'
               f'{"Deutsch" if other == "de" else "English"}</a></li></ul></nav>')
        text = html_page(lang, tv, title, skip=_("Skip to the game"), brand="Table99", nav=nav, main=body,
                         head=('<link rel="stylesheet" href="/static/display.css">'  # its TV layout
                               '<script src="/static/common.js" defer></script>'
                               '<script src="/static/app.js" defer></script>'),
                         after=('<div id="announce" class="sr-only" role="status" aria-live="polite" '
                                f'aria-atomic="true"></div>\n<script id="boot" type="application/json">'
                                f'{boot_json}</script>'))
        response = web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})
        if request.query.get("lang") in LANGUAGES:
            response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="Strict", httponly=True)
        return response

    def nav_links(self, token: str, tv: bool, _: Tr) -> list[tuple[str, str]]:
        """(href, words) of the pages every page links to (besides the other language)."""
        return [(f"/v/{token}/live{'?tv' if tv else ''}", _("Live")), (f"/v/{token}/", _("All games"))]

    async def home(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        token = request.match_info["token"]
        games = self.live.store.games(limit=100)
        rows = []
        for g in games:
            when = time.strftime("%d.%m. %H:%M", time.localtime(g.updated))  # as the table's own list
            name = html.escape(g.title or str(g.id))
            status = html.escape(status_text(g.status, _))
            status += f" - {html.escape(result_text(g.kind, g.result, _))}" if g.result else ""
            # the players (the link) and the kind of game in one cell: three columns fit a phone
            rows.append(f'<tr><td><a href="/v/{token}/game/{g.id}">{name}</a>'
                        f'<br><span class="kind">{html.escape(game_title(g.kind, _))}</span></td>'
                        f"<td>{status}</td><td>{when}</td></tr>")
        table = (f'<table class="games"><caption>{_("Games at this table")}</caption><thead><tr>'
                 f'<th scope="col">{_("Game")}</th><th scope="col">{_("Status")}</th>'
                 f'<th scope="col">{_("Last change")}</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
                 if rows else f"<p>{_('No games yet.')}</p>")
        body = (f'<h1>{_("Games at this table")}</h1><p><a class="big-link" href="/v/{token}/live">'
                f'{_("Follow the game being played now")}</a></p>{table}')
        return self._page(request, lang, _("All games"), body, {"page": "home", "lang": lang})

    async def game_page(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        raw = request.match_info.get("game_id")
        key = "current" if raw is None else str(int(raw))
        game_id = self.hub.current_game() if raw is None else int(raw)
        loop = asyncio.get_running_loop()
        event_id, message = await loop.run_in_executor(None, self.hub.message, game_id, lang)
        payload = json.loads(message.decode().split("data: ", 1)[1])
        device = self._device(request)
        token = request.match_info["token"]
        boot = {"page": "game", "key": key, "lang": lang, "token": token, "ui": ui_strings(_),
                "payload": payload, "event_id": event_id, "csrf": device.csrf if device else None,
                "device": device.name if device else None}
        title = payload["view"]["game"] if payload.get("view") else _("Live")
        body = (f'<h1 id="title">{html.escape(title)}</h1>'
                '<p id="connection" class="connection" role="status"></p>'
                '<div id="view"><noscript>' + _("This page needs JavaScript to follow the game.") +
                "</noscript></div>")
        return self._page(request, lang, title, body, boot)

    async def pair_page(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        _ = Tr(lang)
        code = request.query.get("code", "")
        code = code if re.fullmatch(r"[0-9]{6}", code) else ""
        token = request.match_info["token"]
        body = (f'<h1>{_("Pair this device")}</h1>'
                "<p>" + _("A paired device may enter Parlett deals and tap cards for the Ninety Nine keeper.")
                + "</p>"
                '<form id="pair-form">'
                f'<label for="code">{_("Pairing code from the table")}</label>'
                '<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" '
                f'pattern="[0-9]{{6}}" maxlength="6" required value="{code}">'
                f'<label for="name">{_("Name of this device")}</label>'
                f'<input id="name" name="name" maxlength="40" value="">'
                f'<button type="submit">{_("Pair")}</button></form>'
                '<p id="pair-result" role="alert"></p>')
        return self._page(request, lang, _("Pair this device"), body,
                          {"page": "pair", "lang": lang, "token": token, "ui": ui_strings(_)})

    async def api_view(self, request: web.Request) -> web.Response:
        lang = choose_language(request)
        key = request.match_info["key"]
        if key != "current" and not GAME_NUMBER.fullmatch(key):
            return web.json_response({"error": "unknown view"}, status=404)
        game_id = self.hub.current_game() if key == "current" else int(key)
        _id, _message, data = await asyncio.get_running_loop().run_in_executor(None, self.hub.cached, game_id,
                                                                                 lang)
        return web.Response(text=data, content_type="application/json", headers={"Cache-Control": "no-store"})

    async def api_pair(self, request: web.Request) -> web.Response:
        problem = self._cross_site(request)
        if problem:
            return web.json_response({"error": problem}, status=403)
        body = await self._json_body(request)
        try:
            device, cookie = self.access.pair(body.get("code"), body.get("name"), request.remote or "?",
                                              unnamed=Tr(choose_language(request))("tablet"))
        except PairingError as exc:
            status = 429 if "too many" in str(exc) else 403
            return web.json_response({"error": _tr_error(str(exc), choose_language(request))}, status=status)
        response = web.json_response({"ok": True, "device": device.name, "csrf": device.csrf})
        response.set_cookie(COOKIE, cookie, max_age=180 * 86400, httponly=True, samesite="Strict",
                            path=f"/v/{request.match_info['token']}/")
        log.info("web: paired device %s (%s) from %s", device.id, device.name, request.remote)
        return response

    async def api_change(self, request: web.Request) -> web.Response:
        """A paired device's change; every refusal in the device's language (its cookie or
        ``Accept-Language``), like the page it came from."""
        response = await self._change(request)
        if response.status >= 400 and response.text:
            data = json.loads(response.text)
            if isinstance(data.get("error"), str):
                data["error"] = error_text(data["error"], Tr(choose_language(request)))
                response.text = json.dumps(data)
        return response

    async def _change(self, request: web.Request) -> web.Response:
        problem = self._cross_site(request)
        if problem:
            return web.json_response({"error": problem}, status=403)
        device = self._device(request)
        if device is None:
            return web.json_response({"error": "this device is not paired (or was revoked)"}, status=401)
        if not hmac.compare_digest(request.headers.get("X-CSRF-Token", "").encode(), device.csrf.encode()):
            return web.json_response({"error": "missing or wrong CSRF token: reload the page"}, status=403)
        body = await self._json_body(request)
        game_id = int(request.match_info["game_id"])
        op = request.match_info["op"]
        try:
            kind = self.live.store.load(game_id).kind
        except KeyError:
            return web.json_response({"error": f"there is no game {game_id}"}, status=404)
        handler = commands.KINDS.get(kind)
        if handler is None:
            return web.json_response({"error": "this game is played on the board and the table's screen"},
                                     status=403)
        future = self.live.submit(lambda: handler(self.live, game_id, op, body))
        waiting = asyncio.wrap_future(future)
        try:
            try:
                # shield: a timeout must not cancel a command the main thread is already running
                result = await asyncio.wait_for(asyncio.shield(waiting), COMMAND_TIMEOUT)
            except TimeoutError:
                if future.cancel():  # still queued: it will never run
                    return web.json_response(
                        {"error": "the table did not answer in time; nothing was changed"}, status=503)
                # the main thread is running it (it may commit): wait for its real answer
                log.warning("web: a %s %s on game %s is slow; waiting for it", kind, op, game_id)
                try:
                    result = await asyncio.wait_for(asyncio.shield(waiting), COMMAND_WAIT_MORE)
                except TimeoutError:
                    return web.json_response(
                        {"error": "the table is still doing it: reload the page to see whether it was saved"},
                        status=504)
        except commands.CommandRefused as exc:
            return web.json_response({"error": str(exc)}, status=422)
        except commands.Stale as exc:
            return web.json_response({"error": str(exc), "stale": True}, status=409)
        except Exception as exc:  # a bug must not look like success
            log.exception("web command failed")
            return web.json_response({"error": f"the table could not do it: {exc}"}, status=500)
        log.info("web: %s %s on game %s by device %s", kind, op, game_id, device.id)
        return web.json_response({"ok": True, **result})


def _tr_error(text: str, lang: str) -> str:
    return Tr(lang)(text)


# The changes' own refusals that carry a value: (pattern, the same sentence as a tr() key).
ERRORS = [
    (re.compile(r"there is no game (?P<id>\d+)"), "there is no game {id}"),
    (re.compile(r"game (?P<id>\d+) is not a Parlett game"), "game {id} is not a Parlett game"),
    (re.compile(r"the deal is not readable: (?P<why>.+)", re.DOTALL), "the deal is not readable: {why}"),
]


def error_text(text: str, _: Tr) -> str:
    """A change's refusal in the viewer's language: the web display's own sentences from the
    catalog, the rules' reasons through :mod:`app.games.parlett.refusals` and
    :mod:`app.games.count99.refusals`."""
    from app.games.count99 import refusals as count99_refusals
    from app.games.parlett.refusals import reason_text

    if _.language == "en":
        return text
    if _(text) != text:
        return _(text)
    for pattern, template in ERRORS:
        found = pattern.fullmatch(text)
        if found is not None:
            return _(template, **found.groupdict())
    return count99_refusals.known_text(text, _) or reason_text(text, _)


def ui_strings(_: Tr) -> dict[str, str]:
    """The page's own words, in the viewer's language."""
    words = {
        "connected": _("Live"), "final": _("Final result"),
        "reconnecting": _("Connection lost, reconnecting..."),
        "turn": _("Turn"), "deck": _("Deck"), "hand": _("Cards in hand"), "penalties": _("Penalties"),
        "log": _("What happened"), "board": _("The board"), "last_play": _("Last play"),
        "winning": _("Winning line"), "players": _("Players"), "count": _("Count"),
        "direction": _("Direction"), "tokens": _("Tokens"), "last_plays": _("Last plays"),
        "round": _("Round"), "dealer": _("Dealer"), "trump": _("Trump"), "totals": _("Totals"),
        "game_total": _("This game"), "rubber": _("Rubber"), "chart": _("Chart"),
        "chart_desc": _("Running totals after each deal"), "deals": _("Deals"), "deal": _("Deal"),
        "bids": _("Bids"), "tricks": _("Tricks"), "score": _("Score"), "made": _("made"),
        "missed": _("missed"), "new_game": _("Now showing: {title}"), "taken_back": _("Taken back."),
        "out": _("out"), "computer": _("computer"), "empty_square": _("empty"),
        "enter_deal": _("Enter the next deal"), "send": _("Save the deal"),
        "delete_last": _("Delete the last deal"), "paired_as": _("Paired as {name}"),
        "keeper": _("Tap the card just played"), "no_cards": _("No cards"), "no_safe": _("No safe card"),
        "undo": _("Undo"), "saved": _("Saved."), "choose": _("Which way does it count?"),
        "peg": _("peg"), "square": _("square"), "none": _("none"), "result": _("Result"),
        "games": _("Games"), "correct": _("Correct"), "next_deal": _("Next deal"),
        "pair_ok": _("Paired. This device may now keep the score."),
        "premium": _("Premium"), "declare": _("declare"), "reveal": _("reveal"),
        "turn_up": _("Turned-up card (for example 9H)"), "correcting": _("Correct deal {n}"),
        "save_correction": _("Save the correction"), "cancel": _("Cancel"),
        "stale": _("The game changed meanwhile (at the table or on another device), so nothing was "
                   "changed. This is how it stands now: check, then try again."),
    }
    return words
