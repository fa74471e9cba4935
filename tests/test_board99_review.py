"""Review findings for the Game of 99 engine and records: each test failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest

from rules.board99 import apply
from rules.board99.replay import replay_json
from rules.errors import InvalidRecordError


@pytest.mark.parametrize("do", [[1], {"x": 1}, 3, None])
def test_an_action_whose_do_is_not_text_is_an_invalid_record_not_a_crash(do: Any) -> None:
    record = {"format": "table99/board99", "players": ["Ann", "Ben"], "actions": [{"by": "Ann", "do": do}]}
    with pytest.raises(InvalidRecordError) as info:
        replay_json(record)
    assert info.value.where == "action 0" and "unknown action" in info.value.reason


@pytest.mark.parametrize("fmt", [["table99/board99"], {"a": 1}])
def test_replay_command_refuses_a_format_that_is_not_text_with_status_2(
    fmt: Any, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse
    import json

    from app.commands import replay as command

    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": fmt, "players": ["Ann", "Ben"]}))
    assert command.main(argparse.Namespace(file=path, json=True)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "format" in err


@pytest.mark.parametrize("hands", [[], "", 0, False])
def test_hands_of_the_wrong_type_are_refused_not_read_as_none(hands: Any) -> None:
    record = {"format": "table99/board99", "players": ["Ann", "Ben"], "hands": hands, "actions": []}
    with pytest.raises(InvalidRecordError) as info:
        replay_json(record)
    assert info.value.where == "hands"


def test_hands_may_be_left_out_or_null() -> None:
    for record in ({"format": "table99/board99", "players": ["Ann", "Ben"]},
                   {"format": "table99/board99", "players": ["Ann", "Ben"], "hands": None}):
        assert replay_json(record)["hands"] == {"Ann": 0, "Ben": 0}


def test_a_shown_card_is_cut_back_where_no_player_can_predict_it() -> None:
    """Digital play: the cut must depend on the hidden deck order, not only on public facts
    (the card and the move number), or a player could tell when the shown card comes up again."""
    import random

    from rules.board99 import Draw, GameState, make_setup

    places = set()
    for seed in range(8):
        rest = [c for c in range(100) if c != 44]
        random.Random(seed).shuffle(rest)
        state = GameState.new(make_setup(["Ann", "Ben"], layout="rows", deck=[44, *rest]))
        state, _ = apply(state, Draw("Ben"))  # out of turn: 44 is shown and cut back
        assert state.deck is not None and sorted(state.deck) == list(range(100))
        places.add(state.deck.index(44))
    assert len(places) > 1


def test_the_cut_is_reproducible_from_the_record() -> None:
    from rules.board99 import Draw, GameState, make_setup

    setup = make_setup(["Ann", "Ben"], layout="rows", deck=list(range(100)))
    first, _ = apply(GameState.new(setup), Draw("Ben"))
    again, _ = apply(GameState.new(setup), Draw("Ben"))
    assert first.deck == again.deck
