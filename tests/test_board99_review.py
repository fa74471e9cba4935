"""Review findings for the Game of 99 engine and records: each test failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest

from rules.board99.replay import replay_json
from rules.errors import InvalidRecordError


@pytest.mark.parametrize("do", [[1], {"x": 1}, 3, None])
def test_an_action_whose_do_is_not_text_is_an_invalid_record_not_a_crash(do: Any) -> None:
    record = {"format": "table99/board99", "players": ["Ann", "Ben"], "actions": [{"by": "Ann", "do": do}]}
    with pytest.raises(InvalidRecordError) as info:
        replay_json(record)
    assert info.value.where == "action 0" and "unknown action" in info.value.reason
