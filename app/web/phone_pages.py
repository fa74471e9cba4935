"""The HTML of the phones' pages (host, join, seat, TV): static skeletons that ``phones.js`` fills.

Each page is usable without sight or a mouse: headings for every part, real buttons and labels,
one ``role="log"`` list that receives each event's sentence (a screen reader reads each new line
once), one ``role="status"`` line for what a key asks (C, H, T) and for refusals. Every text is in the
reader's language; names typed by players are escaped here and set as text by the script.
"""

from __future__ import annotations

import html
from typing import Any

from app.games.views import Tr

TURN_TIMES = (None, 15, 30, 60, 120, 300)
KEYS_HELP = ("Keys: C the count, H your hand, T the tokens, D or Space draw, 1 to 9 and 0 play cards 1 to "
             "10, Shift+1 to Shift+3 cards 11 to 13.")


def ui_words(_: Tr) -> dict[str, str]:
    """The script's own words, in the reader's language."""
    return {
        "count": _("Count"), "direction": _("Direction"), "round": _("Round"), "turn": _("Turn"),
        "your_turn": _("Your turn"), "whose_turn": _("{name}'s turn."), "tokens": _("Tokens"),
        "cards": _("Cards in hand"), "out": _("out"), "away": _("away (the computer plays)"),
        "computer": _("computer"), "as": _("{card} as {value}"), "play_slot": _("{n}: {card}"),
        "choose": _("{card}: choose {a} or {b}."), "not_joined": _("not joined yet"),
        "joined": _("joined"), "burnt": _("burnt: make a new code"),
        "new_code": _("New code for seat {n}"), "remove": _("Give seat {n} to a computer"),
        "kind_person": _("person"), "kind_easy": _("computer (easy)"), "kind_hard": _("computer (hard)"),
        "seat": _("Seat {n}"), "start": _("Start the game"), "saved": _("Saved."),
        "reconnecting": _("Connection lost, reconnecting..."), "connected": _("Live"),
        "gone": _("The host gave your seat to a computer."), "empty": _("Your hand is empty."),
        "no_plays": _("No plays yet this game."), "missing": _("Waiting for seats {list} to join."),
        "waiting": _("Waiting for the host to start the game."),
        "joined_as": _("You sit in seat {n} as {name}."), "unknown_key": _(KEYS_HELP),
        "no_card": _("There is no card {n} in your hand."), "sounds_on": _("Sounds on"),
        "sounds_off": _("Sounds off"), "kind": _("Who plays"), "name": _("Name"), "status": _("Status"),
        "actions": _("Actions"), "winner": _("{name} wins the game!"), "none": _("none"),
        "turn_time_none": _("no limit"), "seconds": _("{n} seconds"),
        "wrong_codes": _("Wrong codes typed at this table: {n}."),
        "joins_locked": _("Too many wrong codes: nobody can join until you make a new code."),
    }


def _select(name: str, label: str, options: list[tuple[str, str]], chosen: str) -> str:
    opts = "".join(f'<option value="{html.escape(v)}"{" selected" if v == chosen else ""}>'
                   f"{html.escape(w)}</option>" for v, w in options)
    return f'<label for="{name}">{label}</label><select id="{name}" name="{name}">{opts}</select>'


def _number(name: str, label: str, low: int, high: int, value: int) -> str:
    return (f'<label for="{name}">{label}</label><input id="{name}" name="{name}" type="number" '
            f'inputmode="numeric" min="{low}" max="{high}" value="{value}" required>')


def turn_time_options(_: Tr) -> list[tuple[str, str]]:
    return [("" if t is None else str(t), _("no limit") if t is None else _("{n} seconds", n=t))
            for t in TURN_TIMES]


def host_list_body(_: Tr, token: str, paired: bool, tables: list[tuple[str, dict[str, Any]]]) -> str:
    """The host's first page: open a table (the seed's options), or go back to an open one."""
    title = f'<h1>{_("Ninety Nine with phones")}</h1>'
    if not paired:
        return (title + "<p>" + _("Only a paired device may open a table of phones: pair this device "
                                  "with a code from the table's screen first.") + "</p>"
                f'<p><a class="big-link" href="/v/{token}/pair">{_("Pair this device")}</a></p>')
    rows = "".join(
        f'<li><a href="/v/{token}/phones/{tid}/host">'
        + html.escape(", ".join(s["name"] or _("Seat {n}", n=s["index"] + 1) for s in snap["seats"]))
        + "</a></li>" for tid, snap in tables)
    listing = (f'<section aria-labelledby="open-h"><h2 id="open-h">{_("Open tables")}</h2>'
               f"<ul>{rows}</ul></section>" if rows else "")
    variants = [("quentin-c", _("Quentin C")), ("rs-games", _("RS Games"))]
    counts = [(str(n), str(n)) for n in range(0, 9)]
    form = (f'<section aria-labelledby="new-h"><h2 id="new-h">{_("Open a new table")}</h2>'
            '<form id="create-form" class="phones-form">'
            + _select("variant", _("Rules"), variants, "quentin-c")
            + _select("people", _("People (each on a phone)"), counts[1:], "2")
            + _select("computers", _("Computers"), counts, "2")
            + _select("level", _("Computer level"), [("easy", _("easy")), ("hard", _("hard"))], "hard")
            + _number("hand_size", _("Cards in hand (1 to 13)"), 1, 13, 3)
            + _number("tokens", _("Tokens each (1 to 50)"), 1, 50, 9)
            + _select("draw", _("Drawing"), [("auto", _("automatic")), ("manual", _("manual (D or Space)"))],
                      "auto")
            + _select("turn_seconds", _("Time for a turn"), turn_time_options(_), "")
            + f'<button type="submit">{_("Open the table")}</button></form>'
            '<p id="result" role="alert"></p></section>')
    return title + listing + form


def host_body(_: Tr, token: str, table_id: str, join_url: str) -> str:
    """The host's page of one table: the address and QR code, the seats and their codes."""
    qr = _qr_data_uri(join_url)
    alt = html.escape(_("QR code for {url}", url=join_url))
    picture = f'<img class="qr" src="{qr}" width="240" height="240" alt="{alt}">' if qr else ""
    return (f'<h1>{_("Host: Ninety Nine with phones")}</h1>'
            f'<section aria-labelledby="join-h"><h2 id="join-h">{_("How players join")}</h2>'
            f'<p>{_("Scan the code or open the address, choose your seat, type its code and your name.")}</p>'
            f'{picture}<p class="join-url"><a href="{html.escape(join_url)}">{html.escape(join_url)}</a></p>'
            f'<p><a href="/v/{token}/phones/{table_id}?tv">{_("The TV page")}</a></p></section>'
            f'<section aria-labelledby="seats-h"><h2 id="seats-h" tabindex="-1">{_("Seats")}</h2>'
            '<p id="missing" class="banner"></p><p id="wrong-codes" class="banner" hidden></p>'
            f'<table class="seats"><caption class="sr-only">{_("Seats")}</caption><thead><tr>'
            f'<th scope="col">{_("Seat")}</th><th scope="col">{_("Name")}</th>'
            f'<th scope="col">{_("Who plays")}</th>'
            f'<th scope="col">{_("Code")}</th><th scope="col">{_("Actions")}</th></tr></thead>'
            '<tbody id="seat-rows"></tbody></table>'
            f'<p><button id="start" type="button">{_("Start the game")}</button></p></section>'
            f'<section aria-labelledby="time-h"><h2 id="time-h">{_("Time for a turn")}</h2>'
            '<form id="time-form" class="phones-form">'
            + _select("turn_seconds", _("After this a computer plays the seat until its owner is back"),
                      turn_time_options(_), "")
            + f'<button type="submit">{_("Save the turn time")}</button></form></section>'
            + _table_section(_)
            + '<p id="say" role="status"></p>')


def join_body(_: Tr, seats: list[tuple[int, str, bool]], started: bool) -> str:
    """The join form: the seat, its code from the host, a name (not asked again once started)."""
    options = "".join(
        f'<option value="{i}">{html.escape(_("Seat {n}", n=i + 1))}'
        + (html.escape(" - " + name) if name else "")
        + (html.escape(" (" + _("joined") + ")") if joined else "") + "</option>"
        for i, name, joined in seats)
    name = ("" if started else
            f'<label for="name">{_("Your name")}</label>'
            '<input id="name" name="name" maxlength="20" autocomplete="nickname" required>')
    return (f'<h1>{_("Join the game")}</h1>'
            f'<p>{_("Ask the host for your seat code.")}</p>'
            '<form id="join-form" class="phones-form">'
            f'<label for="seat">{_("Your seat")}</label><select id="seat" name="seat">{options}</select>'
            f'<label for="code">{_("Seat code")}</label>'
            '<input id="code" name="code" inputmode="numeric" pattern="[0-9]{4}" maxlength="4" '
            'autocomplete="one-time-code" required>'
            f'{name}<button type="submit">{_("Join")}</button></form>'
            '<p id="result" role="alert"></p>')


def _table_section(_: Tr) -> str:
    return (f'<section aria-labelledby="table-h" class="public"><h2 id="table-h">{_("The table")}</h2>'
            '<p id="turn" class="banner turn"></p>'
            f'<dl class="facts"><div><dt>{_("Count")}</dt><dd id="count" class="count-num">0</dd></div>'
            f'<div><dt>{_("Direction")}</dt><dd id="direction"></dd></div>'
            f'<div><dt>{_("Round")}</dt><dd id="round"></dd></div></dl>'
            f'<table class="tokens"><caption>{_("Tokens")}</caption><thead><tr>'
            f'<th scope="col">{_("Name")}</th><th scope="col">{_("Tokens")}</th>'
            f'<th scope="col">{_("Cards in hand")}</th><th scope="col">{_("Status")}</th></tr></thead>'
            '<tbody id="token-rows"></tbody></table>'
            f'<h3>{_("Last plays")}</h3><ol id="plays" class="plays"></ol></section>')


def seat_body(_: Tr) -> str:
    """A seat's own page: its hand, the table, what happened (read aloud), keys and sounds."""
    return (f'<h1>{_("Ninety Nine")}</h1>'
            '<p id="connection" class="connection" role="status"></p>'
            '<p id="you" class="you"></p>'
            f'<section aria-labelledby="hand-h"><h2 id="hand-h" tabindex="-1">{_("Your hand")}</h2>'
            '<ul id="hand" class="hand"></ul>'
            '<p class="hand-actions"><button id="draw" type="button" aria-keyshortcuts="D">'
            f'{_("Draw a card")}</button> '
            f'<button id="back" type="button" hidden>{_("I am back: let me play")}</button></p></section>'
            + _table_section(_)
            + f'<section aria-labelledby="said-h"><h2 id="said-h">{_("What happened")}</h2>'
            '<div class="said-box" role="log" aria-live="polite" aria-relevant="additions" '
            'aria-labelledby="said-h" tabindex="0">'
            '<ol id="said" class="said"></ol></div></section>'
            f'<section aria-labelledby="set-h"><h2 id="set-h">{_("Keys and sounds")}</h2>'
            f"<p>{_(KEYS_HELP)}</p>"
            '<p><label class="switch"><input id="sound" type="checkbox" checked> '
            f'{_("Sounds")}</label></p></section>'
            '<p id="say" class="say" role="status" aria-live="polite"></p>')


def tv_body(_: Tr) -> str:
    """The TV: the count, the direction, whose turn, everyone's tokens and the last plays, large;
    every event's sentence goes into a hidden log (a screen reader on the TV hears each one, also
    when one change says several)."""
    return (f'<h1 class="sr-only">{_("Ninety Nine")}</h1>'
            '<div class="tv-grid">'
            f'<section class="tv-count" aria-labelledby="tvc-h"><h2 id="tvc-h">{_("Count")}</h2>'
            '<p id="count" class="count-num">0</p><p id="direction" class="direction"></p>'
            '<p id="turn" class="banner turn"></p></section>'
            f'<section class="tv-side" aria-labelledby="tvt-h"><h2 id="tvt-h">{_("Tokens")}</h2>'
            f'<table class="tokens"><caption class="sr-only">{_("Tokens")}</caption><thead><tr>'
            f'<th scope="col">{_("Name")}</th><th scope="col">{_("Tokens")}</th>'
            f'<th scope="col">{_("Cards in hand")}</th><th scope="col">{_("Status")}</th></tr></thead>'
            '<tbody id="token-rows"></tbody></table>'
            f'<h2>{_("Last plays")}</h2><ol id="plays" class="plays"></ol></section></div>'
            '<ol id="said" class="sr-only" role="log" aria-live="polite" aria-relevant="additions"></ol>')


def _qr_data_uri(text: str) -> str:
    """The join address as a QR code (an SVG data URI: the page's CSP allows data: images)."""
    try:
        import segno
    except ImportError:  # the QR code is a convenience: the address is printed beside it
        return ""
    return str(segno.make(text, error="m").svg_data_uri(scale=6, border=2, dark="#000", light="#fff"))
