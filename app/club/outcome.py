"""Who played and who won a finished game, from its record, through the same rules that load it."""

from __future__ import annotations

from typing import Any


def player_key(name: str) -> str:
    """How players are matched across tables: the name as entered, trimmed, inner spaces collapsed,
    case-folded ("  ann  Lee" = "Ann Lee"). Nothing fuzzier: "Anne" and "Ann" are two players."""
    return " ".join(name.split()).casefold()


def outcome(kind: str, setup: dict[str, Any], actions: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(players, winners) of a game; winners is empty for a tie or an unfinished game."""
    if kind == "parlett":
        from rules.parlett.record import sheet_from_record

        sheet = sheet_from_record({k: v for k, v in setup.items() if k != "draft"} | {"deals": actions})
        return list(sheet.table.players), list(sheet.winners) if sheet.over else []
    if kind == "board99":
        from app.games.board99.game import record_json
        from rules import board99 as rules

        record = rules.record_from_json(record_json(setup, actions))
        state, _ = rules.replay(record)
        winners = list(state.outcome.winners) if state.outcome is not None else []
        return list(record.setup.players), winners
    if kind == "count99":
        from rules.count99 import table as t
        from rules.count99.record import action_from_dict, setup_from_record

        parsed = setup_from_record(setup)
        table = t.Table.new(parsed)
        for data in actions:
            action = action_from_dict(data, parsed)
            if action is not None:
                table, _ = table.apply(action)
        winner = [parsed.players[table.winner]] if table.winner is not None else []
        return list(parsed.players), winner
    raise ValueError(f"unknown kind of game {kind!r}")
