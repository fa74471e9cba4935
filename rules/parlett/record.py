"""The Parlett record (``"format": "table99/parlett"``): read it strictly, write it back.

A record is the table (variant, options, players in seating order, the first dealer) and the list
of deals as the players entered them. Every problem raises InvalidRecordError naming the field or
the deal ("deal 3: the tricks add up to 8, but 9 tricks are played").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.errors import InvalidActionError, InvalidRecordError
from rules.parlett.bids import parse_bid
from rules.parlett.cards import parse_card
from rules.parlett.match import Scoresheet
from rules.parlett.premiums import Premium
from rules.parlett.scoring import DealEntry, Trump
from rules.parlett.variants import DUMMY, VARIANTS, Options, Table

FORMAT = "table99/parlett"
VERSION = 1
DEAL_KEYS = ("bids", "premium", "tricks", "turn_up", "trump")


def table_from_record(record: dict[str, Any]) -> Table:
    if record.get("format") != FORMAT:
        raise InvalidRecordError("format", f"expected {FORMAT!r}, got {record.get('format')!r}")
    if record.get("version", VERSION) != VERSION:
        raise InvalidRecordError("version", f"expected version {VERSION}, got {record.get('version')!r}")
    name = record.get("variant", "three")
    if not isinstance(name, str) or name not in VARIANTS:
        raise InvalidRecordError("variant", f"unknown variant {name!r} (one of {', '.join(VARIANTS)})")
    variant = VARIANTS[name]
    raw_options = record.get("options", {})
    if not isinstance(raw_options, dict):
        raise InvalidRecordError("options", "expected an object")
    try:
        options = Options.from_dict(raw_options, variant)
    except (TypeError, ValueError) as exc:
        raise InvalidRecordError("options", str(exc)) from exc
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise InvalidRecordError("players", "expected a list of names")
    if len(players) != variant.players:
        raise InvalidRecordError(
            "players", f"the {name} variant has {variant.players} players, got {len(players)}")
    if len(set(players)) != len(players):
        raise InvalidRecordError("players", "two players have the same name")
    if variant.has_dummy and DUMMY in players:
        raise InvalidRecordError("players", f"{DUMMY!r} is the dummy's name in the two-player game")
    dealer = record.get("dealer", players[0])
    if not isinstance(dealer, str) or dealer not in players:
        raise InvalidRecordError("dealer", f"{dealer!r} is not one of the players")
    return Table(variant, options, tuple(players), players.index(dealer))


def entry_from_json(raw: Any, table: Table) -> DealEntry:
    """One deal object -> DealEntry; raises ValueError (or InvalidActionError) with the reason."""
    if not isinstance(raw, dict):
        raise ValueError("a deal is an object with bids and tricks")
    for key in raw:
        if key not in DEAL_KEYS:
            raise ValueError(f"unknown key {key!r} (a deal has {', '.join(DEAL_KEYS)})")
    bids_raw, tricks = raw.get("bids"), raw.get("tricks")
    if not isinstance(bids_raw, dict) or not isinstance(tricks, dict):
        raise ValueError("a deal needs \"bids\" and \"tricks\" objects")
    bids = {}
    for hand, bid in bids_raw.items():
        try:
            bids[hand] = parse_bid(bid, table.variant)
        except ValueError as exc:
            raise ValueError(f"{hand}'s bid: {exc}") from exc
    premium_raw = raw.get("premium", {}) or {}
    if not isinstance(premium_raw, dict):
        raise ValueError("premium is an object of player -> \"declare\" or \"reveal\"")
    premiums = {}
    for hand, kind in premium_raw.items():
        if kind not in ("declare", "reveal"):
            raise ValueError(f"{hand}'s premium must be \"declare\" or \"reveal\", got {kind!r}")
        premiums[hand] = Premium(kind)
    turn_up = None
    if raw.get("turn_up") is not None:
        if not isinstance(raw["turn_up"], str):
            raise ValueError("turn_up is a card like \"9H\" or \"X\"")
        turn_up = parse_card(raw["turn_up"])
    trump = None
    if raw.get("trump") is not None:
        try:
            trump = Trump(raw["trump"])
        except ValueError as exc:
            raise ValueError(f"trump must be one of C, H, S, D, nines; got {raw['trump']!r}") from exc
    return DealEntry(bids, dict(tricks), premiums, turn_up, trump)


def entry_to_json(entry: DealEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"bids": {h: b.to_json() for h, b in entry.bids.items()}}
    if entry.premiums:
        out["premium"] = {h: p.value for h, p in entry.premiums.items()}
    out["tricks"] = dict(entry.tricks)
    if entry.turn_up is not None:
        out["turn_up"] = str(entry.turn_up)
    if entry.trump is not None:
        out["trump"] = entry.trump.value
    return out


def setup_of(table: Table) -> dict[str, Any]:
    """The record without its deals: what the store keeps as a game's setup."""
    return {"format": FORMAT, "version": VERSION, "variant": table.variant.name,
            "options": table.options.to_dict(), "players": list(table.players),
            "dealer": table.players[table.first_dealer]}


def to_record(table: Table, deals: Sequence[DealEntry]) -> dict[str, Any]:
    return setup_of(table) | {"deals": [entry_to_json(d) for d in deals]}


def sheet_from_record(record: dict[str, Any]) -> Scoresheet:
    """Replay a whole record; the first bad deal raises InvalidRecordError("deal N", why)."""
    table = table_from_record(record)
    if "deals" in record and "actions" in record:
        raise InvalidRecordError("deals", "a record has \"deals\" or \"actions\", not both")
    # "actions" is the store's generic name for the same list (setup + actions exports)
    deals = record.get("deals", record.get("actions", []))
    if not isinstance(deals, list):
        raise InvalidRecordError("deals", "expected a list of deals")
    sheet = Scoresheet.start(table)
    for number, raw in enumerate(deals, start=1):
        try:
            sheet = sheet.add(entry_from_json(raw, table))
        except (ValueError, InvalidActionError) as exc:
            raise InvalidRecordError(f"deal {number}", str(exc)) from exc
    return sheet
