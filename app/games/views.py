"""What a viewer is shown of a stored game: plain JSON-able dicts, in one language.

A view is derived from the *committed* record only (``store.load``), replayed through the same
rules that load a game for the table (``table99 replay`` does the same): the web display keeps no
game state of its own and applies no action. Things that are not committed are never shown: a
Parlett deal's bids while they are being tapped in (the draft) stay on the table's screen until the
deal is scored, exactly as there; a board99 game shows hand *counts* and never a card in a hand.

Every sentence goes through a :class:`Tr` made for the viewer's language, never through the app's
global language (a German phone and an English TV watch the same game at once).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from app import i18n
from app.config_checks import LANGUAGES
from app.store import StoredGame

LOG_SHOWN = 40  # log lines in a live view (a page keeps what it already announced)


class Tr:
    """``tr`` for one language: ``_ = Tr("de"); _("{name}'s turn.", name="Ann")``."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else "en"
        self._catalog = i18n.catalog(self.language)

    def __call__(self, text: str, /, **values: Any) -> str:
        translated = self._catalog.get(text, text)
        return translated.format(**values) if values else translated

    def plural(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        return self(singular if count == 1 else plural, n=count, **values)


def game_title(kind: str, _: Tr) -> str:
    return {"board99": _("The Game of 99"), "parlett": _("Ninety-Nine (Parlett)"),
            "count99": _("Ninety Nine (count)")}.get(kind, kind)


def status_text(status: str, _: Tr) -> str:
    words = {"playing": _("playing"), "finished": _("finished"), "abandoned": _("abandoned")}
    return words.get(status, status)


def result_text(kind: str, result: str, _: Tr) -> str:
    """A finished game's stored result (a short summary the store keeps in the words its game wrote
    it: "won: Ann, Ben" or "tie" for the board game, "Ann & Ben" for Parlett, "Ann won" in the
    table's language for Ninety Nine) in the viewer's language."""
    import re

    if not result:
        return ""
    names: str | None = None
    if kind == "board99":
        if result == "tie":
            return _("a tie")
        names = result[len("won: "):] if result.startswith("won: ") else None
    elif kind == "parlett":
        names = result
    elif kind == "count99":
        for language in LANGUAGES:  # written with the table's language of the moment
            template = re.escape(Tr(language)("{name} won")).replace(re.escape("{name}"), "(?P<name>.+)")
            found = re.fullmatch(template, result)
            if found is not None:
                names = found["name"]
                break
    return _("won by {names}", names=names) if names is not None else result


def record_version(actions: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> str:
    """Which state of a record a page saw: the action count and a hash of the actions, so an undo
    followed by another action (the same count) is still a different version."""
    digest = hashlib.sha256(json.dumps(list(actions), sort_keys=True, separators=(",", ":")).encode())
    return f"{len(actions)}-{digest.hexdigest()[:16]}"


def build_view(stored: StoredGame, _: Tr) -> dict[str, Any]:
    """The whole view of one game; a record that does not replay gives a view saying so."""
    builders: dict[str, Callable[[StoredGame, Tr], dict[str, Any]]] = {
        "board99": board99_view, "parlett": parlett_view, "count99": count99_view}
    base = {"id": stored.id, "kind": stored.kind, "title": stored.title,
            "game": game_title(stored.kind, _), "status": stored.status,
            "status_text": status_text(stored.status, _), "actions": len(stored.actions),
            "version": record_version(stored.actions), "updated": stored.updated}
    builder = builders.get(stored.kind)
    if builder is None:
        return base | {"error": _("This kind of game cannot be shown here.")}
    try:
        return base | builder(stored, _)
    except Exception as exc:  # a damaged record: the page says so instead of going blank
        reason = " ".join(str(exc).split())[:200]
        return base | {"error": _("This game cannot be shown: {reason}", reason=reason)}


# -- The Game of 99 --------------------------------------------------------------------------------
PEG_LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "white": "W", "black": "K"}
OFFENCES = ("play-out-of-turn", "discard-out-of-turn", "draw-out-of-turn", "illegal-play", "illegal-draw")


def offence_text(offence: str, _: Tr) -> str:
    return {"play-out-of-turn": _("Played out of turn"), "discard-out-of-turn": _("Discarded out of turn"),
            "draw-out-of-turn": _("Drew out of turn"), "illegal-play": _("Illegal play"),
            "illegal-draw": _("Illegal draw")}.get(offence, offence)


def colour_word(colour: str | None, _: Tr) -> str:
    return {"red": _("red"), "blue": _("blue"), "green": _("green"), "yellow": _("yellow"),
            "white": _("white"), "black": _("black")}.get(colour or "", colour or "")


def board99_event_text(event: Any, _: Tr) -> tuple[str, str] | None:
    """(kind, sentence) for the log; kind is "play", "penalty", "end" or "info"."""
    from rules import board99 as rules

    if isinstance(event, rules.Played):
        return "play", _("{name} played card {card} on square {square}.", name=event.by, card=event.card,
                         square=event.square)
    if isinstance(event, rules.Drew):
        return "info", _("{name} drew a card.", name=event.by)
    if isinstance(event, rules.Discarded):
        return "info", _("{name} discarded card {card}.", name=event.by, card=event.card)
    if isinstance(event, rules.Penalised):
        return "penalty", _("Penalty for {name}: {offence}.", name=event.by,
                            offence=offence_text(event.offence, _))
    if isinstance(event, rules.TurnSkipped):
        if event.reason == "penalty":
            return "info", _("{name} loses this turn (penalty).", name=event.player)
        return "info", _("{name} has no cards to play and is passed over.", name=event.player)
    if isinstance(event, rules.PlayerOut):
        return "info", _("{name} is out: a dead hand.", name=event.player)
    if isinstance(event, rules.Won):
        return "end", _("{names} won!", names=" & ".join(event.winners))
    if isinstance(event, rules.Tied):
        return "end", _("A tie: no five in a row.")
    return None


def board99_view(stored: StoredGame, _: Tr) -> dict[str, Any]:
    from app.games.board99.game import TableSetup, colour_of, record_json
    from rules import board99 as rules

    record = rules.record_from_json(record_json(stored.setup, list(stored.actions)))
    state, steps = rules.replay(record)
    setup = record.setup
    table = TableSetup.from_json(stored.setup.get("app", {}))
    players = []
    for player in setup.players:
        colour = colour_of(player, setup, table)
        players.append({
            "name": player, "colour": colour or "", "colour_text": colour_word(colour, _),
            "letter": player[:1].upper() or "?", "peg_letter": PEG_LETTERS.get(colour or "", ""),
            "hand": state.hand_count(player), "out": player in state.out,
            "turn": player == state.to_move, "computer": player in table.computers,
            "penalties": sum(1 for p in state.penalties if p.by == player),
        })
    log: list[dict[str, Any]] = []
    last_square = None
    for index, events in steps:
        for event in events:
            text = board99_event_text(event, _)
            if text is not None:
                log.append({"seq": len(log), "action": index, "kind": text[0], "text": text[1]})
            if isinstance(event, rules.Played):
                last_square = event.square
    pegs = {str(square): player for square, player in state.pegs.items()}
    outcome = state.outcome
    if outcome is None:
        turn_text = _("{name}'s turn.", name=state.to_move) if state.to_move else ""
        result = ""
    elif outcome.status == "won":
        turn_text, result = "", _("{names} won!", names=" & ".join(outcome.winners))
    else:
        turn_text, result = "", _("A tie: no five in a row.")
    penalties = [{"by": p.by, "text": _("Penalty for {name}: {offence}.", name=p.by,
                                          offence=offence_text(p.offence, _)), "action": p.action}
                 for p in state.penalties]
    return {
        "numbers": list(setup.layout.numbers), "pegs": pegs, "players": players,
        "last_square": last_square, "winning": list(outcome.line) if outcome is not None else [],
        "turn": state.to_move, "turn_text": turn_text, "result": result,
        "deck": state.deck_count,
        "deck_text": _.plural("Deck: {n} card", "Deck: {n} cards", state.deck_count),
        "penalties": penalties[-10:], "penalty_count": len(penalties),
        "log": log[-LOG_SHOWN:], "log_total": len(log),
    }


# -- Parlett's Ninety-Nine -------------------------------------------------------------------------
SUIT_SYMBOL = {"C": "♣", "H": "♥", "S": "♠", "D": "♦"}


def trump_text(trump: Any, _: Tr) -> str:
    if trump is None:
        return _("Turned-up card")
    names = {"NT": _("No trump"), "C": _("Clubs"), "H": _("Hearts"), "S": _("Spades"), "D": _("Diamonds"),
             "nines": _("Nines")}
    symbol = SUIT_SYMBOL.get(trump.value, "")
    return f"{symbol} {names[trump.value]}".strip()


def parlett_view(stored: StoredGame, _: Tr) -> dict[str, Any]:
    from rules.parlett.record import sheet_from_record

    # Only committed deals: the draft (bids being tapped in) is never read here.
    setup = {k: v for k, v in stored.setup.items() if k != "draft"}
    sheet = sheet_from_record(setup | {"deals": list(stored.actions)})
    table = sheet.table
    game_totals, rubber = sheet.game_totals, sheet.rubber_totals
    hands = [{"name": h, "game": game_totals[h], "rubber": rubber[h],
              "dummy": h not in table.players} for h in table.hands]
    deals = []
    log = []
    for d in sheet.deals:
        bids = {h: _bid_text(b) for h, b in d.entry.bids.items()}
        deals.append({"number": d.number, "game": d.game, "dealer": d.dealer,
                      "trump": trump_text(d.trump, _), "bids": bids, "tricks": dict(d.entry.tricks),
                      "bid_values": {h: b.value for h, b in d.entry.bids.items()},
                      "premiums": {h: p.value for h, p in d.entry.premiums.items()},
                      "turn_up": str(d.entry.turn_up) if d.entry.turn_up is not None else "",
                      "made": dict(d.score.made), "scores": dict(d.score.total),
                      "totals": dict(d.rubber_totals)})
        made = [h for h, ok in d.score.made.items() if ok]
        log.append({"seq": len(log), "action": d.number - 1, "kind": "play",
                    "text": _("Deal {n} scored: made it: {names}.", n=d.number,
                              names=", ".join(made) or _("nobody"))})
    games = []
    for g in sheet.games:
        text = (_("Game {n} won by {names}", n=g.number, names=" & ".join(g.winners)) if g.winners
                else _("Game {n}: the dummy won", n=g.number))
        games.append({"number": g.number, "text": text, "final": dict(g.final)})
        log.append({"seq": len(log), "action": -1, "kind": "end", "text": text})
    if sheet.over:
        next_dealer, next_trump, result = "", "", _("{names} won!", names=" & ".join(sheet.winners))
    else:
        next_dealer, next_trump, result = sheet.next_dealer, trump_text(sheet.next_trump, _), ""
    return {
        "variant": table.variant.name, "players": list(table.players), "hands": hands,
        "uses_games": sheet.uses_games, "dealer": next_dealer, "trump": next_trump,
        "deal_number": len(sheet.deals) + 1, "deals": deals, "games": games, "result": result,
        "log": log[-LOG_SHOWN:], "log_total": len(log),
        "needs_turn_up": not sheet.over and sheet.next_trump is None,
        "can_reveal": table.variant.can_reveal,
        "dealer_text": _("Dealer: {name}", name=next_dealer) if next_dealer else "",
        "trump_text": _("Trump: {trump}", trump=next_trump) if next_trump else "",
    }


def _bid_text(bid: Any) -> str:
    data = bid.to_json()
    if isinstance(data, dict):
        return " ".join(str(v) for v in data.values())
    return str(data)


# -- Ninety Nine (the adding game) -----------------------------------------------------------------
def count99_card(card: str, _: Tr) -> str:
    return {"A": _("Ace"), "J": _("Jack"), "Q": _("Queen"), "K": _("King"), "+10": _("plus 10"),
            "-10": _("minus 10"), "pass": _("Pass"), "reverse": _("Reverse"), "skip": _("Skip"),
            "99": _("Ninety Nine")}.get(card, card)


def count99_view(stored: StoredGame, _: Tr) -> dict[str, Any]:
    from rules.count99 import table as t
    from rules.count99.record import action_from_dict, setup_from_record

    setup = setup_from_record(stored.setup)
    table = t.Table.new(setup)
    names = setup.players
    log: list[dict[str, Any]] = []
    plays: list[dict[str, Any]] = []
    for index, data in enumerate(stored.actions):
        action = action_from_dict(data, setup)
        if action is None:
            continue
        table, events = table.apply(action)
        for e in events:
            kind, text = "info", None
            if isinstance(e, t.CardPlayed):
                kind = "play"
                text = _("{name} played {card}: {count}.", name=names[e.seat], card=count99_card(e.card, _),
                         count=e.after)
                plays.append({"name": names[e.seat], "card": count99_card(e.card, _), "count": e.after})
            elif isinstance(e, t.RoundStarted):
                text = _("Round {n}: {name} starts.", n=e.round_no, name=names[e.first])
            elif isinstance(e, t.DirectionReversed):
                text = _("Direction reversed.")
            elif isinstance(e, t.TokensLost):
                kind = "penalty"
                text = _.plural("{name} loses {n} token, {left} left.",
                                "{name} loses {n} tokens, {left} left.", e.amount, name=names[e.seat],
                                left=e.left)
            elif isinstance(e, t.Eliminated):
                kind = "penalty"
                text = _("{name} is out.", name=names[e.seat])
            elif isinstance(e, t.MilestoneLanded):
                text = _("{name} landed on {n}.", name=names[e.seat], n=e.milestone)
            elif isinstance(e, t.GameWon):
                kind = "end"
                text = _("{name} wins!", name=names[e.seat])
            if text:
                log.append({"seq": len(log), "action": index, "kind": kind, "text": text})
    if table.winner is not None:
        turn_text = _("{name} wins!", name=names[table.winner])
    elif table.turn is not None:
        turn_text = _("{name}'s turn.", name=names[table.turn])
    else:
        turn_text = ""
    direction = _("clockwise") if table.direction > 0 else _("counterclockwise")
    return {
        "count": table.count, "round": table.round_no,
        "turn": names[table.turn] if table.turn is not None else None,
        "turn_text": turn_text, "direction": table.direction, "direction_text": direction,
        "players": [{"name": n, "tokens": table.tokens[i], "turn": i == table.turn,
                     "out": table.tokens[i] <= 0} for i, n in enumerate(names)],
        "plays": plays[-8:], "computer": stored.setup.get("mode") == "computer",
        "phones": stored.setup.get("mode") == "phones",
        "variant": setup.variant.value,
        "log": log[-LOG_SHOWN:], "log_total": len(log),
        "result": _("{name} wins!", name=names[table.winner]) if table.winner is not None else "",
    }


HELD_WORDS = {"play": "PLAY", "draw": "DRAW", "discard": "DISCARD", "dead-hand": "DEAD HAND"}


def pending_text(state: dict[str, Any], _: Tr) -> str:
    """The table's in-between state in the viewer's language, as the table's screen words it:
    "Wait: the pegs are settling. Then: Ben: PLAY 50.", "Ben (computer) is choosing. Then: DRAW." """
    parts = []
    if state.get("thinking"):  # a computer is choosing: a tap made meanwhile waits for its move
        parts.append(_("{name} (computer) is choosing.", name=str(state["thinking"])))
    if state.get("settling"):
        parts.append(_("Wait: the pegs are settling") + ".")
    held = []
    for item in state.get("held") or ():
        what = _(HELD_WORDS.get(str(item.get("kind")), "PLAY"))
        if item.get("card") is not None:
            what = f"{what} {int(item['card'])}"
        if item.get("by"):
            what = _("{name}: {what}", name=str(item["by"]), what=what)
        held.append(what)
    if held:
        parts.append(_("Then: {what}.", what=", ".join(held)))
    return " ".join(parts)


def count99_cards(stored: Any, count: int, _: Tr | None = None) -> list[dict[str, Any]]:
    """The card buttons of the keeper (a paired phone taps them): names and Ace/10 choices now.
    ``label`` is the card in the viewer's words, as the log and the last plays name it ("König",
    not "K" beside it)."""
    from rules.count99.cards import CARD_NAMES, choices_for
    from rules.count99.record import setup_from_record

    setup = setup_from_record(stored.setup)
    words = _ or Tr("en")
    return [{"card": c, "label": count99_card(c, words),
             "choices": list(choices_for(setup.variant, c, count))} for c in CARD_NAMES[setup.variant]]
