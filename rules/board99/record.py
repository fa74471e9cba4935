"""Game records: the setup plus the ordered actions, as JSON (format ``table99/board99``, version 1).

Loading validates every field and says where a record is wrong; replaying goes through the same
checked ``apply`` as live play, so a record that replays is proof of what happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.board99.actions import Action, Discard, Draw, Play, RevealDeadHand
from rules.board99.errors import SetupError
from rules.board99.events import Event
from rules.board99.setup import Setup, make_setup
from rules.board99.state import GameState, apply
from rules.errors import InvalidActionError, InvalidRecordError

FORMAT = "table99/board99"
VERSION = 1
_SETUP_KEYS = {
    "format", "version", "ruleset", "layout", "players", "sides", "first", "hands", "deck", "actions"
}


_ACTION_FIELDS = {
    "play": {"card", "square"}, "draw": {"card"}, "discard": {"card"}, "reveal-dead-hand": {"cards"}
}


@dataclass(frozen=True, slots=True)
class Record:
    setup: Setup
    actions: tuple[Action, ...]


def _int(value: object, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecordError(where, f"{what} must be a whole number, not {value!r}")
    return value


def _str(value: object, where: str, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidRecordError(where, f"{what} must be text, not {value!r}")
    return value


def _list(value: object, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidRecordError(where, f"{what} must be a list, not {value!r}")
    return value


def setup_from_json(data: Mapping[str, Any]) -> Setup:
    """The setup part of a record (also what the game store keeps as a game's setup)."""
    unknown = sorted(set(data) - _SETUP_KEYS)
    if unknown:
        raise InvalidRecordError(unknown[0], f"unknown field {unknown[0]!r}")
    if "players" not in data:
        raise InvalidRecordError("players", "a record needs its players")
    players = [_str(p, "players", "a player") for p in _list(data["players"], "players", "players")]
    sides = None
    if data.get("sides") is not None:
        sides = [[_str(p, "sides", "a player") for p in _list(s, "sides", "a side")]
                 for s in _list(data["sides"], "sides", "sides")]
    hands: dict[str, list[int]] = {}
    raw_hands = data.get("hands")
    if raw_hands is None:  # left out or null: no known hands ([] or "" is a damaged record)
        raw_hands = {}
    if not isinstance(raw_hands, dict):
        raise InvalidRecordError("hands", "hands must be an object of player: [cards]")
    for name, cards in raw_hands.items():
        hands[name] = [_int(c, f"hands.{name}", "a card") for c in _list(cards, f"hands.{name}", "cards")]
    deck = None
    if data.get("deck") is not None:
        deck = [_int(c, "deck", "a card") for c in _list(data["deck"], "deck", "deck")]
    layout = data.get("layout", "spiral-out")
    if isinstance(layout, list):
        layout = [_int(n, "layout", "a square number") for n in layout]
    elif not isinstance(layout, str):
        raise InvalidRecordError("layout", "layout must be a name or a list of 100 numbers")
    first = data.get("first")
    if first is not None:
        first = _str(first, "first", "first")
    try:
        return make_setup(
            players,
            ruleset=_str(data.get("ruleset", "classic"), "ruleset", "ruleset"),
            layout=layout,
            sides=sides,
            first=first,
            hands=hands,
            deck=deck,
        )
    except SetupError as exc:
        raise InvalidRecordError("setup", str(exc)) from exc


def setup_to_json(setup: Setup) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": setup.ruleset.value,
        "layout": setup.layout.spec,
        "players": list(setup.players),
        "sides": [list(s) for s in setup.sides],
        "first": setup.first,
    }
    if setup.hands:
        out["hands"] = {p: list(c) for p, c in setup.hands.items()}
    if setup.deck is not None:
        out["deck"] = list(setup.deck)
    return out


def action_from_json(data: object, where: str) -> Action:
    if not isinstance(data, dict):
        raise InvalidRecordError(where, "an action is an object like {\"by\": \"Ann\", \"do\": \"draw\"}")
    by = _str(data.get("by"), where, "by")
    do = data.get("do")
    allowed = _ACTION_FIELDS
    if not isinstance(do, str) or do not in allowed:
        expected = "play, draw, discard or reveal-dead-hand"
        raise InvalidRecordError(where, f"unknown action {do!r} (expected {expected})")
    extra = sorted(set(data) - {"by", "do"} - allowed[do])
    if extra:
        raise InvalidRecordError(where, f"unknown field {extra[0]!r} for {do}")
    if do == "play":
        for key in ("card", "square"):
            if key not in data:
                raise InvalidRecordError(where, f"play needs {key!r}")
        return Play(by, _int(data["card"], where, "card"), _int(data["square"], where, "square"))
    if do == "draw":
        card = data.get("card")
        return Draw(by, None if card is None else _int(card, where, "card"))
    if do == "discard":
        if "card" not in data:
            raise InvalidRecordError(where, "discard needs 'card'")
        return Discard(by, _int(data["card"], where, "card"))
    cards = _list(data.get("cards"), where, "cards")
    return RevealDeadHand(by, tuple(_int(c, where, "a card") for c in cards))


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"by": action.by, "do": "play", "card": action.card, "square": action.square}
    if isinstance(action, Draw):
        out: dict[str, Any] = {"by": action.by, "do": "draw"}
        if action.card is not None:
            out["card"] = action.card
        return out
    if isinstance(action, Discard):
        return {"by": action.by, "do": "discard", "card": action.card}
    return {"by": action.by, "do": "reveal-dead-hand", "cards": list(action.cards)}


def record_from_json(data: Mapping[str, Any]) -> Record:
    """Parse a record; raises :class:`InvalidRecordError` naming the field or ``action N``."""
    if not isinstance(data, Mapping):
        raise InvalidRecordError("", "a record is a JSON object")
    if data.get("format") != FORMAT:
        raise InvalidRecordError("format", f"expected {FORMAT!r}, not {data.get('format')!r}")
    if data.get("version", VERSION) != VERSION:
        found = data.get("version")
        raise InvalidRecordError("version", f"this Table99 reads version {VERSION}, not {found!r}")
    setup = setup_from_json(data)
    raw = _list(data.get("actions", []), "actions", "actions")
    actions = tuple(action_from_json(a, f"action {i}") for i, a in enumerate(raw))
    return Record(setup, actions)


def record_to_json(record: Record) -> dict[str, Any]:
    out = setup_to_json(record.setup)
    out["actions"] = [action_to_json(a) for a in record.actions]
    return out


def replay(record: Record) -> tuple[GameState, list[tuple[int, tuple[Event, ...]]]]:
    """Replay with the checked ``apply``; an invalid action raises InvalidRecordError("action N", why)."""
    state = GameState.new(record.setup)
    history: list[tuple[int, tuple[Event, ...]]] = []
    for i, action in enumerate(record.actions):
        try:
            state, events = apply(state, action)
        except InvalidActionError as exc:
            raise InvalidRecordError(f"action {i}", str(exc)) from exc
        history.append((i, events))
    return state, history
