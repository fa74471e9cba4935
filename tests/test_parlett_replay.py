"""``table99 replay`` on Parlett records: the printed outcome and the exit status 2 for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.errors import InvalidRecordError
from rules.parlett.replay import replay_json, replay_text

ROOT = Path(__file__).resolve().parent.parent

ISSUE_EXAMPLE = {
    "format": "table99/parlett", "version": 1, "variant": "three", "options": {},
    "players": ["Ann", "Ben", "Cat"], "dealer": "Cat",
    "deals": [{"bids": {"Ann": "CHS", "Ben": 4, "Cat": "DDD"}, "premium": {"Ann": "declare"},
               "tricks": {"Ann": 6, "Ben": 2, "Cat": 1}}],
}


def run(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", "replay", str(path), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def write(tmp_path: Path, record: dict) -> Path:  # type: ignore[type-arg]
    path = tmp_path / "parlett.json"
    path.write_text(json.dumps(record))
    return path


def test_issue_example_replays_as_json(tmp_path: Path) -> None:
    result = run(write(tmp_path, ISSUE_EXAMPLE), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    deal = data["deals"][0]
    assert deal["dealer"] == "Cat" and deal["trump"] == "NT" and deal["made"] == ["Ann"]
    assert deal["scores"] == {"Ann": 66, "Ben": 2, "Cat": 1}  # 6 tricks + 30 alone + 30 declared
    assert deal["running_totals"] == {"Ann": 66, "Ben": 2, "Cat": 1}
    assert data["games"] == [] and data["rubber"]["over"] is False
    assert data["next"] == {"dealer": "Ann", "trump": "S", "trump_may_be_chosen": False}


def test_text_replay_names_dealer_trump_and_next(tmp_path: Path) -> None:
    result = run(write(tmp_path, ISSUE_EXAMPLE))
    assert result.returncode == 0
    assert "Deal 1 (game 1), dealer Cat, no trump; made: Ann" in result.stdout
    assert "Next: Ann deals, spades" in result.stdout


def test_finished_games_and_rubber_winner_in_the_replay() -> None:
    big = {"bids": {"Ann": 9, "Ben": 0, "Cat": 0}, "premium": {"Ann": "reveal"},
           "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}}
    data = replay_json(ISSUE_EXAMPLE | {"dealer": "Ann", "deals": [big] * 6})
    assert [g["winners"] for g in data["games"]] == [["Ann"]] * 3
    assert data["games"][0]["totals"] == {"Ann": 258, "Ben": 20, "Cat": 20}
    assert data["rubber"]["totals"] == {"Ann": 774, "Ben": 60, "Cat": 60}
    assert data["rubber"]["winners"] == ["Ann"] and data["rubber"]["margin"] == 774 - 60
    assert data["next"] is None
    assert "Rubber over, won by Ann by 714 points" in replay_text(
        ISSUE_EXAMPLE | {"dealer": "Ann", "deals": [big] * 6})


@pytest.mark.parametrize(("deal", "message"), [
    ({"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 2}},
     "deal 2: the tricks add up to 8, but 9 tricks are played"),
    ({"bids": {"Ann": 10, "Ben": 0, "Cat": 0}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}},
     "deal 2: Ann's bid: a bid of 10 is impossible with 3 players"),
    ({"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "premium": {"Ann": "reveal", "Ben": "reveal"},
      "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}, "deal 2: two revealers"),
])
def test_invalid_deals_exit_2_naming_the_deal(tmp_path: Path, deal: dict, message: str) -> None:  # type: ignore[type-arg]
    record = ISSUE_EXAMPLE | {"deals": [*ISSUE_EXAMPLE["deals"], deal]}  # type: ignore[misc]
    result = run(write(tmp_path, record), "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_replay_functions_raise_invalid_record_error() -> None:
    with pytest.raises(InvalidRecordError, match="variant"):
        replay_json(ISSUE_EXAMPLE | {"variant": "six"})
    with pytest.raises(InvalidRecordError, match="deals: expected a list"):
        replay_text(ISSUE_EXAMPLE | {"deals": {}})


def test_a_store_shaped_export_with_actions_replays_the_same() -> None:
    """The app's generic history export writes setup + "actions"; that is the same list of deals."""
    setup = {k: v for k, v in ISSUE_EXAMPLE.items() if k != "deals"}
    as_actions = setup | {"actions": ISSUE_EXAMPLE["deals"]}
    assert replay_json(as_actions) == replay_json(ISSUE_EXAMPLE)
    with pytest.raises(InvalidRecordError, match="not both"):
        replay_json(ISSUE_EXAMPLE | {"actions": []})
