"""Game records: loading, saving, replay output (JSON and text) and the ``table99 replay`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.board99 import Draw, Play, Record, make_setup, record_from_json, record_to_json, replay
from rules.board99.replay import replay_json, replay_text
from rules.errors import InvalidRecordError
from tests.test_board99_support import fill_squares_50_up

ROOT = Path(__file__).resolve().parent.parent

ISSUE_EXAMPLE: dict[str, Any] = {
    "format": "table99/board99", "version": 1, "ruleset": "classic", "layout": "spiral-out",
    "players": ["Ann", "Ben", "Cat", "Dan"], "sides": [["Ann", "Cat"], ["Ben", "Dan"]],
    "first": "Ann", "hands": {"Ann": [3, 45, 60, 72]},
    "actions": [{"by": "Ann", "do": "draw"}, {"by": "Ann", "do": "draw", "card": 57},
                {"by": "Ann", "do": "play", "card": 57, "square": 63},
                {"by": "Ben", "do": "discard", "card": 99}],
}


def won_game() -> dict[str, Any]:
    """Ann makes 10 11 12 13 14 on the rows layout; Ben discards out of turn once and is skipped."""
    def ann(n: int) -> dict[str, Any]:
        return {"by": "Ann", "do": "play", "card": n, "square": n}

    actions = [
        ann(10), {"by": "Ben", "do": "draw"}, ann(11), {"by": "Ben", "do": "play", "card": 90, "square": 95},
        {"by": "Ben", "do": "discard", "card": 91},  # out of turn: Ben loses his next turn
        ann(12), ann(13), {"by": "Ben", "do": "draw"}, ann(14),
    ]
    return {
        "format": "table99/board99", "version": 1, "ruleset": "classic", "layout": "rows",
        "players": ["Ann", "Ben"], "hands": {"Ann": [10, 11, 12, 13, 14], "Ben": [90, 91]},
        "actions": actions,
    }


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", "replay", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_the_issue_example_parses_and_its_first_actions_replay() -> None:
    record = record_from_json(ISSUE_EXAMPLE)
    assert record.setup.sides == (("Ann", "Cat"), ("Ben", "Dan"))
    assert record.actions[:2] == (Draw("Ann"), Draw("Ann", 57))
    short = dict(ISSUE_EXAMPLE, actions=ISSUE_EXAMPLE["actions"][:2])
    out = replay_json(short)
    assert out == {
        "status": "playing", "winners": [], "line": [], "to_move": "Ben",
        "hands": {"Ann": 5, "Ben": 0, "Cat": 0, "Dan": 0}, "deck": 95, "pegs": {}, "out": [],
        "penalties": [{"action": 1, "by": "Ann", "offence": "draw-out-of-turn"}],
    }


def test_the_full_issue_example_is_refused_at_action_2() -> None:
    # Ann's 57 was shown and cut back into the deck (draw out of turn), so she cannot play it.
    with pytest.raises(InvalidRecordError) as info:
        replay_json(ISSUE_EXAMPLE)
    assert info.value.where == "action 2" and "card 57 is in the deck" in info.value.reason


def test_replay_json_of_a_won_game() -> None:
    assert replay_json(won_game()) == {
        "status": "won", "winners": ["Ann"], "line": [10, 11, 12, 13, 14], "to_move": None,
        "hands": {"Ann": 0, "Ben": 2}, "deck": 91,
        "pegs": {"10": "Ann", "11": "Ann", "12": "Ann", "13": "Ann", "14": "Ann", "95": "Ben"},
        "out": [], "penalties": [{"action": 4, "by": "Ben", "offence": "discard-out-of-turn"}],
    }


def test_replay_text_shows_the_outcome_penalties_and_board() -> None:
    text = replay_text(won_game())
    assert "Won by Ann with 10 11 12 13 14" in text
    assert "Penalty at action 4: Ben, discard-out-of-turn" in text
    board = text.splitlines()[-10:]
    assert board[1].split() == ["Ann"] * 5 + ["15", "16", "17", "18", "19"]
    assert board[9].split()[5] == "Ben"
    assert "Pegs:" not in text  # the names are whole: no legend needed
    longer = dict(won_game(), players=["Annabel", "Ben"])
    longer["hands"] = {"Annabel": longer["hands"]["Ann"], "Ben": longer["hands"]["Ben"]}
    longer["actions"] = [dict(a, by="Annabel") if a["by"] == "Ann" else a for a in longer["actions"]]
    assert replay_text(longer).splitlines()[-1] == "Pegs: Ann = Annabel"


def test_board_labels_stay_unique_when_names_share_a_beginning() -> None:
    from rules.board99.replay import peg_labels

    assert peg_labels(("Ann", "Ben")) == {"Ann": "Ann", "Ben": "Ben"}
    assert peg_labels(("Basic 1", "Basic 2", "You")) == {"Basic 1": "B1", "Basic 2": "B2", "You": "Y3"}


def test_records_round_trip_through_json() -> None:
    setup = make_setup(["Ann", "Ben", "Cat"], ruleset="5of99", layout="twisted", first="Cat",
                       deck=list(range(100)))
    record = Record(setup, (Draw("Cat"), Play("Ann", 1, 50)))
    data = json.loads(json.dumps(record_to_json(record)))
    assert data["layout"] == "twisted" and data["deck"] == list(range(100))
    assert record_from_json(data) == record
    custom = make_setup(["Ann", "Ben"], layout=list(reversed(range(100))))
    data = record_to_json(Record(custom, ()))
    assert data["layout"] == list(reversed(range(100)))
    assert record_from_json(data).setup.layout.numbers == tuple(reversed(range(100)))


@pytest.mark.parametrize(
    ("change", "where", "reason"),
    [
        ({"format": "table99/count99"}, "format", "expected 'table99/board99'"),
        ({"version": 2}, "version", "reads version 1"),
        ({"players": "Ann"}, "players", "must be a list"),
        ({"layout": "spiral"}, "setup", "unknown layout 'spiral'"),
        ({"layout": [1, 2, 3]}, "setup", "100 numbers"),
        ({"ruleset": "poker"}, "setup", "unknown ruleset"),
        ({"colour": "red"}, "colour", "unknown field"),
        ({"hands": {"Ann": [1, 1]}}, "setup", "given to both"),
        ({"actions": [{"by": "Ann", "do": "jump"}]}, "action 0", "unknown action 'jump'"),
        ({"actions": [{"by": "Ann", "do": "play", "card": 5}]}, "action 0", "play needs 'square'"),
        ({"actions": [{"by": "Ann", "do": "draw", "card": "five"}]}, "action 0", "whole number"),
        ({"actions": [{"by": "Ann", "do": "draw", "extra": 1}]}, "action 0", "unknown field 'extra'"),
        ({"actions": [{"by": "Ann", "do": "draw"}, {"by": "Zed", "do": "draw"}]}, "action 1",
         "'Zed' is not playing"),
        ({"actions": [{"by": "Ann", "do": "play", "card": 5, "square": 9}]}, "action 0",
         "Ann holds no cards"),
    ],
)
def test_invalid_records_say_where_and_why(change: dict[str, Any], where: str, reason: str) -> None:
    data = {"format": "table99/board99", "version": 1, "players": ["Ann", "Ben"], "actions": []}
    data.update(change)
    with pytest.raises(InvalidRecordError) as info:
        replay_json(data)
    assert info.value.where == where and reason in info.value.reason


def test_replay_returns_each_actions_events() -> None:
    state, history = replay(record_from_json(won_game()))
    assert [i for i, _ in history] == list(range(len(won_game()["actions"])))
    assert state.outcome is not None and state.outcome.winners == ("Ann",)


def test_cli_prints_one_json_object(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(won_game()))
    result = run_cli(str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == replay_json(won_game())
    text = run_cli(str(path))
    assert text.returncode == 0 and "Won by Ann" in text.stdout


def test_cli_invalid_record_exits_2_with_one_line_naming_the_action(tmp_path: Path) -> None:
    path = tmp_path / "example.json"
    path.write_text(json.dumps(ISSUE_EXAMPLE))
    result = run_cli(str(path), "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "action 2" in result.stderr and "card 57 is in the deck" in result.stderr


def test_the_package_replay_stays_the_function_after_the_replay_module_is_imported() -> None:
    import importlib

    import rules.board99 as package

    importlib.import_module("rules.board99.replay")
    assert callable(package.replay) and package.replay is replay


def test_the_documented_example_record_replays() -> None:
    text = (ROOT / "docs" / "board99.md").read_text(encoding="utf-8")
    start = text.index('{"format": "table99/board99"')
    example = json.loads(text[start : text.index("\n```", start)])
    out = replay_json(example)
    assert out["pegs"] == {"41": "Cat", "58": "Ben", "63": "Ann"} and out["to_move"] == "Ann"
    assert out["hands"] == {"Ann": 4, "Ben": 0, "Cat": 0, "Dan": 0} and out["penalties"] == []
    shown = text.index('{"status": "playing"')
    assert json.loads(text[shown : text.index("\n", shown)]) == out  # the page shows the real output


def test_the_issue_example_refusal_says_why_57_is_in_the_deck() -> None:
    """By the seed, a card drawn out of turn "is displayed ... and then cut into the deck at random":
    Ann no longer holds 57 at action 2. The reason names the penalty that put it back."""
    with pytest.raises(InvalidRecordError) as info:
        replay_json(ISSUE_EXAMPLE)
    assert info.value.where == "action 2"
    assert info.value.reason == (
        "Ann plays 57 on square 63: card 57 is in the deck: it was shown and cut back in after "
        "Ann's draw out of turn at action 1")


def test_replay_json_of_a_tie_every_card_drawn_and_discarded() -> None:
    """Ann and Ben draw and discard all 100 cards (as the table says them) without a peg: a tie."""
    actions: list[dict[str, Any]] = []
    for pair in range(50):
        ann, ben = 2 * pair, 2 * pair + 1
        actions += [{"by": "Ann", "do": "draw", "card": ann}, {"by": "Ben", "do": "draw", "card": ben},
                    {"by": "Ann", "do": "discard", "card": ann}, {"by": "Ben", "do": "discard", "card": ben}]
    record = {"format": "table99/board99", "version": 1, "players": ["Ann", "Ben"], "actions": actions}
    assert replay_json(record) == {
        "status": "tie", "winners": [], "line": [], "to_move": None, "hands": {"Ann": 0, "Ben": 0},
        "deck": 0, "pegs": {}, "out": [], "penalties": []}
    assert "Tie" in replay_text(record)


def test_replay_json_lists_players_out_and_the_last_side_left_wins_with_no_line() -> None:
    """At a real table the 5of99 players show their dead hands; "out" lists them in seat order and
    the last player left wins without a line."""
    actions = fill_squares_50_up(["Ann", "Ben", "Cat"])
    record = {"format": "table99/board99", "version": 1, "ruleset": "5of99", "layout": "rows",
              "players": ["Ann", "Ben", "Cat"], "actions": actions}
    state, _ = replay(record_from_json(record))
    cat = {"by": "Cat", "do": "reveal-dead-hand", "cards": list(range(60, 60 + state.hand_count("Cat")))}
    ann = {"by": "Ann", "do": "reveal-dead-hand", "cards": list(range(70, 70 + state.hand_count("Ann")))}
    playing = replay_json(dict(record, actions=[*actions, cat]))
    assert playing["status"] == "playing" and playing["out"] == ["Cat"] and playing["hands"]["Cat"] == 0
    over = replay_json(dict(record, actions=[*actions, cat, ann]))
    assert over["status"] == "won" and over["winners"] == ["Ben"] and over["line"] == []
    assert over["to_move"] is None and over["out"] == ["Ann", "Cat"]


def test_replay_text_counts_agree_with_their_number() -> None:
    one = {"format": "table99/board99", "version": 1, "players": ["Ann", "Ben"],
           "actions": [{"by": "Ann", "do": "draw"}]}
    assert "layout spiral-out, 1 action\n" in replay_text(one)
    assert "layout spiral-out, 0 actions\n" in replay_text(dict(one, actions=[]))
