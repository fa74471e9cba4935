"""A board99 game as the app keeps it: the rules' setup and actions, stored action by action.

Persistence rule: :meth:`Board99Game.commit` appends the action to the :class:`~app.store.GameStore`
(a committed SQLite transaction) *before* it changes the in-memory state, so whatever the screen
shows has been written. The stored setup is the game record's setup (``record_to_json`` without the
actions) plus an ``"app"`` object for what the rules do not care about: peg colours, which players are
computers and at what level, the seed for the computers' choices. Export strips ``"app"`` again, so an
exported game is exactly a board99 record that ``table99 replay`` accepts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.i18n import tr
from app.store import GameStore
from rules import board99 as rules

KIND = "board99"
COLOURS = ("red", "blue", "green", "yellow", "white", "black")
LEVELS = ("basic", "intermediate", "advanced")


def colour_name(name: str | None) -> str:
    """A peg colour's name in the current language."""
    names = {"red": tr("red"), "blue": tr("blue"), "green": tr("green"), "yellow": tr("yellow"),
             "white": tr("white"), "black": tr("black")}
    return names.get(name or "", name or "")


@dataclass(frozen=True)
class TableSetup:
    """What the app adds to the rules' setup."""

    colours: Mapping[str, str] = field(default_factory=dict)  # player -> peg colour name
    computers: Mapping[str, str] = field(default_factory=dict)  # player -> level
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"colours": dict(self.colours), "computers": dict(self.computers), "seed": self.seed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSetup:
        return cls(dict(data.get("colours", {})), dict(data.get("computers", {})), int(data.get("seed", 0)))


def record_json(setup_json: Mapping[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    data = {k: v for k, v in setup_json.items() if k != "app"}
    data["actions"] = list(actions)
    return data


def colour_of(player: str, setup: rules.Setup, table: TableSetup) -> str | None:
    """A player's peg colour; partners share their side's colour (the first partner's choice)."""
    side = next((s for s in setup.sides if player in s), (player,))
    for member in side:
        if member in table.colours:
            return table.colours[member]
    return None


class Board99Game:
    """One stored game: setup, actions, the current state. Not thread-safe: the main thread owns it."""

    def __init__(
        self,
        store: GameStore,
        game_id: int,
        setup: rules.Setup,
        table: TableSetup,
        actions: list[Any],
        action_json: list[dict[str, Any]],
        state: rules.GameState,
    ) -> None:
        self.store = store
        self.id = game_id
        self.setup = setup
        self.table = table
        self.actions = actions
        self._action_json = action_json
        self.state = state

    # -- creating and loading -----------------------------------------------------------------
    @classmethod
    def create(cls, store: GameStore, setup: rules.Setup, table: TableSetup, title: str = "") -> Board99Game:
        data = rules.setup_to_json(setup)
        data["app"] = table.to_json()
        title = title or " - ".join(setup.players)
        game_id = store.create_game(KIND, data, title)
        return cls(store, game_id, setup, table, [], [], rules.GameState.new(setup))

    @classmethod
    def load(cls, store: GameStore, game_id: int) -> Board99Game:
        """Rebuild a stored game by replaying its actions through the rules (raises on a bad record)."""
        stored = store.load(game_id)
        if stored.kind != KIND:
            raise ValueError(f"game {game_id} is a {stored.kind} game, not {KIND}")
        record = rules.record_from_json(record_json(stored.setup, list(stored.actions)))
        state, _ = rules.replay(record)
        table = TableSetup.from_json(stored.setup.get("app", {}))
        return cls(store, game_id, record.setup, table, list(record.actions), list(stored.actions), state)

    # -- changing -----------------------------------------------------------------------------
    def commit(self, action: Any, new_state: rules.GameState) -> int:
        """Write the action, then adopt ``new_state``; returns the action's index."""
        as_json = rules.action_to_json(action)
        finished = outcome_text(new_state.outcome) if new_state.outcome is not None else None
        index = self.store.append(self.id, as_json, finished=finished)  # action and status: one commit
        self.actions.append(action)
        self._action_json.append(as_json)
        self.state = new_state
        return index

    def undo(self) -> Any | None:
        """Remove the last action from the store and the state; returns it (None when there is none)."""
        if not self.actions:
            return None
        self.store.pop_last(self.id)
        action = self.actions.pop()
        self._action_json.pop()
        state = rules.GameState.new(self.setup)
        for earlier in self.actions:
            state, _ = rules.apply_unchecked(state, earlier)
        self.state = state
        return action

    def abandon(self) -> None:
        self.store.set_status(self.id, "abandoned", "")

    # -- reading ------------------------------------------------------------------------------
    @property
    def colours(self) -> dict[str, str]:
        return {p: c for p in self.setup.players if (c := colour_of(p, self.setup, self.table))}

    def is_computer(self, player: str | None) -> bool:
        return player is not None and player in self.table.computers

    def computer_rng(self) -> random.Random:
        """Seeded by the game and the move number, so a resumed game makes the same choice again."""
        return random.Random(self.table.seed * 1000 + len(self.actions))

    def export_record(self) -> dict[str, Any]:
        """The game as a board99 JSON record (what ``table99 replay`` reads)."""
        return record_json(self.store.load(self.id).setup, list(self._action_json))

    def result_text(self) -> str:
        outcome = self.state.outcome
        return "" if outcome is None else outcome_text(outcome)


def outcome_text(outcome: Any) -> str:
    """The stored one-line result of a finished game."""
    if outcome.status == "won":
        return "won: " + ", ".join(outcome.winners)
    return "tie"
