"""``table99 replay`` for Ninety Nine records: every play checked, the state after each one shown.

``replay_json`` gives one object: ``steps`` (after every play: round, play number, who played what,
the count, whose turn, the direction, everyone's tokens and what happened) and ``final`` (tokens,
who is out, the winner or null). ``replay_text`` says the same in lines a screen reader reads well.
An invalid record raises :class:`InvalidRecordError` naming the round and play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.count99.errors import Count99Error
from rules.count99.record import FORMAT, VERSION, action_from_dict, recorded_actions, setup_from_record
from rules.count99.table import Event, StartRound, Table
from rules.count99.text import describe, direction_name, plural
from rules.errors import InvalidRecordError


def replay_table(record: Mapping[str, Any]) -> tuple[Table, list[dict[str, Any]]]:
    """Replay a record; returns the final table and one step per play (round starts excluded)."""
    if record.get("format", FORMAT) != FORMAT:
        raise InvalidRecordError("format", f"expected {FORMAT!r}, got {record.get('format')!r}")
    if record.get("version", VERSION) != VERSION:
        raise InvalidRecordError("version", f"version {record.get('version')!r} is unknown (expected 1)")
    setup = setup_from_record(record)
    table = Table.new(setup)
    steps: list[dict[str, Any]] = []
    play_no = 0  # as in ``where``: every entry of a round's plays counts, penalties included
    for where, data in recorded_actions(record):
        try:
            action = action_from_dict(data, setup)
            play_no = 0 if isinstance(action, StartRound) else play_no + 1
            if action is None:
                continue  # a draw: only games with a deck track hands
            if isinstance(action, StartRound) and table.in_round:
                raise Count99Error(f"round {table.round_no} has not ended (no bust, 99, or penalty)")
            if not isinstance(action, StartRound) and not table.in_round:
                raise Count99Error(
                    "the game is over" if table.over else "the round has already ended"
                )
            table, events = table.apply(action)
        except Count99Error as exc:
            raise InvalidRecordError(where, str(exc)) from None
        if not isinstance(action, StartRound):
            steps.append(_step(where, play_no, dict(data), table, events))
    return table, steps


def _step(
    where: str, play_no: int, play: dict[str, Any], table: Table, events: tuple[Event, ...]
) -> dict[str, Any]:
    setup = table.setup
    return {
        "where": where,
        "round": table.round_no,
        "play": play_no,
        **play,
        "count": table.count,
        "turn": setup.players[table.turn] if table.turn is not None else None,
        "direction": direction_name(table.direction),
        "tokens": dict(zip(setup.players, table.tokens, strict=True)),
        "round_over": not table.in_round,
        "events": [describe(e, setup) for e in events],
    }


def final_summary(table: Table) -> dict[str, Any]:
    setup = table.setup
    return {
        "tokens": dict(zip(setup.players, table.tokens, strict=True)),
        "out": [setup.players[s] for s in range(len(setup.players)) if not table.is_in(s)],
        "winner": setup.players[table.winner] if table.winner is not None else None,
        "rounds": table.round_no,
    }


def replay_json(record: dict[str, Any]) -> dict[str, Any]:
    table, steps = replay_table(record)
    return {
        "format": FORMAT,
        "variant": table.variant.value,
        "players": list(table.setup.players),
        "steps": steps,
        "final": final_summary(table),
    }


def replay_text(record: dict[str, Any]) -> str:
    table, steps = replay_table(record)
    setup = table.setup
    lines = [f"Ninety Nine ({table.variant.value}): {', '.join(setup.players)}; "
             f"{plural(setup.tokens, 'token')}, {plural(setup.hand_size, 'card')}."]
    for step in steps:
        lines.append(f"{step['where'].capitalize()}:")
        lines.extend(f"  {text}" for text in step["events"])
        tokens = ", ".join(f"{name} {left}" for name, left in step["tokens"].items())
        turn = f"{step['turn']} to play, {step['direction']}" if step["turn"] else "round over"
        lines.append(f"  Count {step['count']}; {turn}; tokens: {tokens}.")
    summary = final_summary(table)
    lines.append("Tokens: " + ", ".join(f"{n} {t}" for n, t in summary["tokens"].items()) + ".")
    lines.append("Out: " + (", ".join(summary["out"]) or "nobody") + ".")
    lines.append(f"Winner: {summary['winner']}." if summary["winner"] else "No winner yet.")
    return "\n".join(lines)
