"""What ``table99 replay`` prints for a Game of 99 record: one JSON object, or a readable summary."""

from __future__ import annotations

from typing import Any

from rules.board99.record import record_from_json, replay
from rules.board99.state import GameState


def state_json(state: GameState) -> dict[str, Any]:
    """The replay summary of a state, in the shape issue 2 specifies."""
    outcome = state.outcome
    return {
        "status": outcome.status if outcome else "playing",
        "winners": list(outcome.winners) if outcome else [],
        "line": list(outcome.line) if outcome else [],
        "to_move": state.to_move,
        "hands": {p: state.hand_count(p) for p in state.setup.players},
        "deck": state.deck_count,
        "pegs": {str(sq): p for sq, p in sorted(state.pegs.items())},
        "out": [p for p in state.setup.players if p in state.out],
        "penalties": [{"action": p.action, "by": p.by, "offence": p.offence} for p in state.penalties],
    }


def replay_json(record: dict[str, Any]) -> dict[str, Any]:
    state, _ = replay(record_from_json(record))
    return state_json(state)


def peg_labels(players: tuple[str, ...]) -> dict[str, str]:
    """Short labels for the board: the first three letters, or letter + seat when those clash."""
    short = [p[:3] for p in players]
    if len(set(short)) == len(short):
        return dict(zip(players, short, strict=True))
    return {p: f"{p[:1]}{i + 1}" for i, p in enumerate(players)}


def board_text(state: GameState) -> str:
    """The board as printed numbers; a taken square shows its player's label (see the legend)."""
    pegs = state.pegs
    labels = peg_labels(state.setup.players)
    width = max(3, *(len(v) for v in labels.values()))
    rows = []
    for row in state.setup.layout.rows():
        cells = [labels[pegs[n]].rjust(width) if n in pegs else str(n).rjust(width) for n in row]
        rows.append(" ".join(cells))
    shortened = {p: label for p, label in labels.items() if label != p}
    if shortened:  # a legend only where a label is not the player's whole name
        rows.append("Pegs: " + ", ".join(f"{label} = {p}" for p, label in shortened.items()))
    return "\n".join(rows)


def replay_text(record: dict[str, Any]) -> str:
    rec = record_from_json(record)
    state, _ = replay(rec)
    setup = state.setup
    lines = [
        f"Game of 99 ({setup.ruleset.value}), layout {setup.layout.name}, {len(rec.actions)} "
        + ("action" if len(rec.actions) == 1 else "actions"),
        "Sides: " + "; ".join(" + ".join(side) for side in setup.sides),
    ]
    if state.outcome is None:
        lines.append(f"Playing: {state.to_move} to move")
    elif state.outcome.status == "won":
        line = " ".join(str(n) for n in state.outcome.line)
        lines.append(f"Won by {' + '.join(state.outcome.winners)}" + (f" with {line}" if line else ""))
    else:
        lines.append("Tie")
    counts = ", ".join(f"{p} {state.hand_count(p)}" for p in setup.players)
    lines.append(f"Cards in hand: {counts}; deck {state.deck_count}")
    if state.out:
        lines.append("Out: " + ", ".join(p for p in setup.players if p in state.out))
    for pen in state.penalties:
        lines.append(f"Penalty at action {pen.action}: {pen.by}, {pen.offence}")
    lines.append("")
    lines.append(board_text(state))
    return "\n".join(lines)
