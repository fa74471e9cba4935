"""Game records and stored actions: reading them strictly, writing them the way the issue shows.

A record (``docs/count99.md``)::

    {"format": "table99/count99", "version": 1, "variant": "quentin-c", "players": [...],
     "tokens": 9, "hand_size": 3,
     "rounds": [{"first": "Ann", "plays": [{"by": "Ann", "card": "A", "as": 11}, ...]}]}

The store keeps the same actions flat, with a ``{"start": "Ann"}`` action opening each round and,
in games against the computer, ``{"by": "Ann", "draw": true}`` for manual draws. Both shapes turn
into :mod:`rules.count99.table` actions here, so save, load and replay share one ``apply``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules.count99.cards import Variant
from rules.count99.errors import Count99Error
from rules.count99.table import Action, NoCards, NoSafeCard, PlayCard, Setup, StartRound
from rules.errors import InvalidRecordError

FORMAT = "table99/count99"
VERSION = 1
PLAY_KEYS = {"by", "card", "as"}


def setup_from_record(record: Mapping[str, Any]) -> Setup:
    """The setup a record (or a stored game's setup) describes; InvalidRecordError names the field."""
    variant_name = record.get("variant", Variant.QUENTIN_C.value)
    try:
        variant = Variant(variant_name)
    except ValueError:
        known = ", ".join(v.value for v in Variant)
        raise InvalidRecordError("variant", f"unknown variant {variant_name!r} (expected {known})") from None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidRecordError("players", "a list of player names is required")
    try:
        return Setup(
            variant, tuple(players), tokens=record.get("tokens", 9), hand_size=record.get("hand_size", 3)
        )
    except Count99Error as exc:
        raise InvalidRecordError("setup", str(exc)) from None


def setup_to_dict(setup: Setup) -> dict[str, Any]:
    return {
        "format": FORMAT, "version": VERSION, "variant": setup.variant.value,
        "players": list(setup.players), "tokens": setup.tokens, "hand_size": setup.hand_size,
    }


def action_from_dict(data: Any, setup: Setup) -> Action | None:
    """One stored or recorded action; None for a draw (the table does not track hands).

    Raises Count99Error with a plain reason; callers add where it happened.
    """
    if not isinstance(data, dict):
        raise Count99Error("an action is a JSON object")
    if "start" in data:
        if set(data) != {"start"}:
            raise Count99Error(f"a round start holds only 'start', not {sorted(data)}")
        return StartRound(_seat(data["start"], setup))
    if "by" not in data:
        raise Count99Error("a play needs 'by' (who played)")
    seat = _seat(data["by"], setup)
    for flag, kind in (("no-safe-card", NoSafeCard), ("no-cards", NoCards), ("draw", None)):
        if flag in data:
            if set(data) != {"by", flag} or data[flag] is not True:
                raise Count99Error(f"'{flag}' is written {{\"by\": NAME, \"{flag}\": true}} and nothing else")
            return kind(seat) if kind is not None else None
    if "card" not in data:
        raise Count99Error("a play needs 'card' (or 'no-safe-card' / 'no-cards')")
    extra = set(data) - PLAY_KEYS
    if extra:
        raise Count99Error(f"unknown keys {sorted(extra)} in a play")
    card = data["card"]
    if not isinstance(card, str):
        raise Count99Error(f"a card is a name like \"A\" or \"+10\", not {card!r}")
    choice = data.get("as")
    if choice is not None and (isinstance(choice, bool) or not isinstance(choice, int)):
        raise Count99Error(f"'as' is a number like 11 or -10, not {choice!r}")
    return PlayCard(seat, card, choice)


def action_to_dict(action: Action, setup: Setup) -> dict[str, Any]:
    if isinstance(action, StartRound):
        return {"start": setup.players[action.first]}
    name = setup.players[action.seat]
    if isinstance(action, NoSafeCard):
        return {"by": name, "no-safe-card": True}
    if isinstance(action, NoCards):
        return {"by": name, "no-cards": True}
    play: dict[str, Any] = {"by": name, "card": action.card}
    if action.choice is not None:
        play["as"] = action.choice
    return play


def _seat(name: Any, setup: Setup) -> int:
    if not isinstance(name, str) or name not in setup.players:
        raise Count99Error(f"{name!r} is not one of the players ({', '.join(setup.players)})")
    return setup.players.index(name)


def recorded_actions(record: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """Each action of a record as (where, stored-shape dict), round starts included."""
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        raise InvalidRecordError("rounds", "'rounds' is a list of rounds")
    for r, round_data in enumerate(rounds, start=1):
        where = f"round {r}"
        if not isinstance(round_data, dict):
            raise InvalidRecordError(where, "a round is an object with 'first' and 'plays'")
        if "first" not in round_data:
            raise InvalidRecordError(where, "'first' (who starts the round) is missing")
        plays = round_data.get("plays", [])
        if not isinstance(plays, list):
            raise InvalidRecordError(where, "'plays' is a list")
        yield where, {"start": round_data["first"]}
        for p, play in enumerate(plays, start=1):
            if isinstance(play, dict) and "start" in play:
                raise InvalidRecordError(
                    f"round {r}, play {p}", "a new round is its own entry in 'rounds', not a play"
                )
            yield f"round {r}, play {p}", play


def to_record(setup: Setup, actions: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Stored flat actions as a record: grouped into rounds, draws left out."""
    record = setup_to_dict(setup)
    record.update(extra)
    rounds: list[dict[str, Any]] = []
    for action in actions:
        if "start" in action:
            rounds.append({"first": action["start"], "plays": []})
        elif not action.get("draw"):
            if not rounds:
                raise Count99Error("a play before the first round started")
            rounds[-1]["plays"].append(dict(action))
    record["rounds"] = rounds
    return record
