"""What a paired browser may change, as commands run on the app's main thread.

Each function here is queued by the web server through :meth:`app.games.live.LiveTable.submit` and runs
in :meth:`~app.games.live.LiveTable.drain` on the thread that owns the sessions. It works on the session
the table's screen has open (so both screens stay in step) or, when the table has another game open,
on the session loaded from the store for this one command. The session checks the action with the
rules and commits it to the store before it returns: the same path as a tap on the touchscreen.

Every change names the version of the record the page showed (``"seen"``: the ``version`` of its
view). If the record has moved on since (the table, another tablet, or this page's own request sent
twice after a lost reply), the command raises :class:`Stale` and changes nothing: the page shows
the fresh state and lets the person decide again, so a deal is never added twice and an undo never
takes back two plays.

The board game has no commands: its moves are made on the board and on the table's screen.
"""

from __future__ import annotations

from typing import Any

from app.games.live import LiveTable
from app.games.views import record_version
from app.store import StoredGame

MAX_INDEX = 10_000


class CommandRefused(Exception):
    """The action was refused and nothing changed; ``str()`` is the reason for the page."""


class Stale(Exception):
    """The record moved on since the page's view; nothing changed. ``str()`` is the reason."""


def _load(live: LiveTable, game_id: int, body: dict[str, Any]) -> StoredGame:
    """The stored game, if the page saw its latest version (else Stale / CommandRefused)."""
    try:
        stored = live.store.load(game_id)
    except KeyError as exc:
        raise CommandRefused(f"there is no game {game_id}") from exc
    seen = body.get("seen")
    if not isinstance(seen, str) or len(seen) > 40:
        raise CommandRefused("'seen' must be the version of the game the page shows (reload the page)")
    if seen != record_version(stored.actions):
        raise Stale("the game changed meanwhile (at the table or on another device); nothing was changed")
    return stored


def parlett(live: LiveTable, game_id: int, op: str, body: dict[str, Any]) -> dict[str, Any]:
    from app.games.parlett.game import EntryRejected, ParlettSession

    if _load(live, game_id, body).kind != "parlett":
        raise CommandRefused(f"game {game_id} is not a Parlett game")
    session = live.find_session("parlett", game_id) or ParlettSession.load(live.store, game_id)
    try:
        if op == "add":
            deal = body.get("deal")
            if not isinstance(deal, dict):
                raise CommandRefused("'deal' must be an object with bids and tricks")
            session.add_deal(deal)
        elif op == "correct":
            deal, index = body.get("deal"), body.get("index")
            if not isinstance(deal, dict):
                raise CommandRefused("'deal' must be an object with bids and tricks")
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < MAX_INDEX:
                raise CommandRefused("'index' must be the deal's number counted from 0")
            session.correct_deal(index, deal)
        elif op == "delete-last":
            session.delete_last_deal()
        else:
            raise CommandRefused(f"unknown Parlett action {op!r}")
    except EntryRejected as exc:
        raise CommandRefused(str(exc)) from exc
    except (TypeError, ValueError, AttributeError, KeyError) as exc:  # a shape the rules did not expect
        raise CommandRefused(f"the deal is not readable: {exc}") from exc
    live.on_changed("parlett", game_id)
    return {"deals": len(session.sheet.deals)}


def count99(live: LiveTable, game_id: int, op: str, body: dict[str, Any]) -> dict[str, Any]:
    from app.games.count99.game import KeptGame
    from rules.count99.cards import CARD_NAMES
    from rules.count99.errors import Count99Error

    stored = _load(live, game_id, body)
    if stored.kind != "count99":
        raise CommandRefused(f"game {game_id} is not a Ninety Nine game")
    if stored.setup.get("mode") == "computer":
        raise CommandRefused("a game against the computer is played on the table's screen")
    if stored.setup.get("mode") == "phones":  # the keeper's taps would play cards nobody holds
        raise CommandRefused("a game played with phones is played on the players' phones")
    game = live.find_session("count99", game_id) or KeptGame.load(live.store, game_id)
    try:
        if op == "undo":
            game.undo()
        elif game.table.over:
            raise CommandRefused("the game is over")
        elif op == "play":
            card, choice = body.get("card"), body.get("choice")
            if card not in CARD_NAMES[game.setup.variant]:
                raise CommandRefused(f"'card' must be one of {', '.join(CARD_NAMES[game.setup.variant])}")
            if choice is not None and (not isinstance(choice, int) or isinstance(choice, bool)):
                raise CommandRefused("'choice' must be a whole number or left out")
            game.play(card, choice)
        elif op == "no-cards":
            game.no_cards()
        elif op == "no-safe-card":
            game.no_safe_card()
        else:
            raise CommandRefused(f"unknown Ninety Nine action {op!r}")
    except Count99Error as exc:
        raise CommandRefused(str(exc)) from exc
    live.on_changed("count99", game_id)
    return {"count": game.table.count}


KINDS = {"parlett": parlett, "count99": count99}
