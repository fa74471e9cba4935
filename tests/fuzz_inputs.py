"""Seeds and mutations for fuzzing what users hand the app: game records and config files.

Used by ``tests/test_fuzz_inputs.py`` (hypothesis, a few hundred inputs in the suite) and
``benchmarks/fuzz_inputs.py`` (thousands). A mutation replaces one value somewhere in a valid
record or config with something hostile: a number of thousands of digits, lists nested thousands
deep, a string with newlines or control characters, a wrong type, a missing key.
"""

from __future__ import annotations

import json
import random
from typing import Any

from app.store import GameStore

HOSTILE: list[Any] = [
    None, True, -1, 0, 2**70, 10**400, 1e308, -0.0, "", "x" * 5000, "Ann\nBen", "-w/tmp/x",
    "\u0000\u202e", [], {}, [[[]]], {"a": {"b": {}}}, "99", 99.5, ["Ann", "Ann"],
]


def seed_records() -> dict[str, list[dict[str, Any]]]:
    """A few valid records of each format, made by playing through the app's own sessions."""
    return {"board99": [_board99(seed) for seed in range(3)],
            "count99": [_count99(seed) for seed in range(2)],
            "parlett": [_parlett(), _parlett(two_players=True)]}


def _board99(seed: int) -> dict[str, Any]:
    from rules import board99 as rules
    from rules.errors import InvalidActionError

    state = rules.GameState.new(rules.make_setup(["Ann", "Ben", "Cat"][: 2 + seed % 2]))
    rng = random.Random(seed)
    actions: list[Any] = []
    while state.outcome is None and len(actions) < 60:
        player = state.to_move
        if rng.random() < 0.1:
            player = rng.choice(state.setup.players)  # now and then out of turn: a penalty
        if state.hand_count(player) == 0 or rng.random() < 0.3:
            action: Any = rules.Draw(player)
        else:
            card = rng.randrange(100)
            action = rules.Play(player, card, rng.randrange(100))
        try:
            state, _ = rules.apply(state, action)
        except InvalidActionError:
            continue
        actions.append(action)
    return dict(rules.record_to_json(rules.Record(state.setup, tuple(actions))))


def _count99(seed: int) -> dict[str, Any]:
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    store = GameStore(":memory:")
    variant = (Variant.QUENTIN_C, Variant.RS_GAMES)[seed % 2]
    game = KeptGame.create(store, Setup(variant, ("Ann", "Ben", "Cat"), tokens=2))
    rng = random.Random(seed)
    for _ in range(40):
        if game.table.over:
            break
        try:
            game.play(rng.choice(["2", "3", "5", "7", "8", "10", "J", "Q", "K", "A", "4", "9"]))
        except Exception:
            continue
    return dict(game.record())


def _parlett(two_players: bool = False) -> dict[str, Any]:
    from app.games.parlett.game import ParlettSession

    store = GameStore(":memory:")
    if two_players:
        session = ParlettSession.new(store, "two", ["Ann", "Ben"], "Ben", {})
        deals = [{"bids": {"Ann": 3, "Ben": 3}, "tricks": {"Ann": 3, "Ben": 3}}] * 3
    else:
        session = ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat", {})
        deals = [{"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}] * 3
    for deal in deals:
        try:
            session.add_deal(deal)
        except Exception:
            break
    return dict(session.record())


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (dict keys and list indexes), the root included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def mutate(record: dict[str, Any], rng: random.Random) -> Any:
    """A copy of ``record`` with one place replaced, deleted or deeply nested."""
    data = json.loads(json.dumps(record))
    place = rng.choice(paths(data)[1:] or [()])
    if not place:
        return rng.choice(HOSTILE)
    parent = data
    for step in place[:-1]:
        parent = parent[step]
    last = place[-1]
    roll = rng.random()
    if roll < 0.15 and isinstance(parent, dict):
        del parent[last]
    elif roll < 0.25:
        parent[last] = nested(rng.randint(50, 3000))
    else:
        parent[last] = rng.choice(HOSTILE)
    return data


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def dumps_hostile(value: Any) -> str:
    """JSON text even for values deeper than ``json.dumps`` will go."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError):
        return "[" * 5000 + "]" * 5000


CONFIG_SEED = """
[app]
language = "de"
sound = true
fullscreen = false

[board]
source = "serial"
stable_seconds = 0.5

[board.serial]
port = "/dev/ttyACM0"
baud = 115200

[board.gpio]
wiring = "shift_register"

[outputs]
"""

TOML_HOSTILE = ["9" * 5000, "0x" + "f" * 4000, "[" * 3000 + "]" * 3000, '"a\\nb"', "true", "[]",
                "{}", "-1", "1e400", "nan", '"\\u0000"', "'''x'''", "{a = {b = {c = 1}}}",
                '"' + "x" * 3000 + '"']


def mutate_config(rng: random.Random) -> str:
    """The seed config with one value, key or line made hostile."""
    lines = CONFIG_SEED.strip().splitlines()
    index = rng.randrange(len(lines))
    line = lines[index]
    roll = rng.random()
    if "=" in line and roll < 0.6:
        key = line.split("=", 1)[0].strip()
        lines[index] = f"{key} = {rng.choice(TOML_HOSTILE)}"
    elif roll < 0.75:
        lines[index] = line[: rng.randrange(len(line) + 1)]
    elif roll < 0.9:
        lines.insert(index, f"x{rng.randrange(9)} = {rng.choice(TOML_HOSTILE)}")
    else:
        raw = bytearray("\n".join(lines).encode())
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return raw.decode("utf-8", errors="surrogateescape")
    return "\n".join(lines) + "\n"
