"""The simulated and scripted boards behave like sensors behind the BoardSource seam."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.config import Config, ConfigError
from app.sources import make_source
from hardware.board_source import BoardReading, HealthState, ReadingQueue
from hardware.scripted import ScriptedBoard, ScriptedReading, ScriptError, dump_script, parse_script
from hardware.simulated import SimulatedBoard


def test_simulated_board_publishes_each_hand_movement() -> None:
    ticks = iter(range(100))
    board = SimulatedBoard(clock=lambda: float(next(ticks)))
    q = ReadingQueue()
    board.subscribe(q.put)
    board.put(5)  # not running yet: nothing published
    board.start()
    assert board.health.state is HealthState.CONNECTED
    board.toggle(7)
    board.toggle(5)
    events = q.drain()
    readings = [e for e in events if isinstance(e, BoardReading)]
    assert readings[-1].occupied == {7}
    assert readings[-1].colours is None
    with pytest.raises(ValueError, match="not on the board"):
        board.put(100)
    board.stop()
    assert board.health.state is HealthState.STOPPED


def test_simulated_board_with_colour_reports_the_colour_of_each_peg() -> None:
    board = SimulatedBoard(sees_colour=True)
    seen: list[BoardReading] = []
    board.subscribe(lambda e: seen.append(e) if isinstance(e, BoardReading) else None)
    with board:
        board.put(12, "red")
        board.set_board([1, 2], {1: "blue"})
    assert seen[-2].colours == {12: "red"}
    assert seen[-1].occupied == {1, 2} and seen[-1].colours == {1: "blue"}
    assert [r.sequence for r in seen] == sorted({r.sequence for r in seen})


def test_script_parse_errors_name_file_line_and_reason() -> None:
    cases = {
        '{"t": 0, "holes": [100]}': "not a hole number",
        '{"t": -1, "holes": []}': '"t" must be a number',
        '{"holes": []}': 'needs "t"',
        '{"t": 0, "holes": [1], "colours": {"2": "red"}}': "not in \"holes\"",
        '{"t": 0, "holes": [], "colour": {}}': "unknown key",
        "[1, 2]": "JSON object",
        "{nope": "not valid JSON",
    }
    for line, message in cases.items():
        with pytest.raises(ScriptError, match=message) as info:
            parse_script(["# header", "", line], "game.jsonl")
        assert info.value.where == "game.jsonl:3"
    with pytest.raises(ScriptError, match="back in time"):
        parse_script(['{"t": 2, "holes": []}', '{"t": 1, "holes": []}'])


readings_strategy = st.lists(
    st.tuples(
        st.floats(0, 1000, allow_nan=False).map(lambda t: round(t, 3)),
        st.frozensets(st.integers(0, 99), max_size=12),
        st.booleans(),
    ),
    max_size=15,
).map(
    lambda rows: [
        ScriptedReading(t, holes, {h: "red" for h in holes} if coloured else None, frozenset())
        for t, holes, coloured in sorted(rows, key=lambda r: r[0])
    ]
)


@given(readings_strategy)
def test_script_round_trips_through_its_text_format(readings: list[ScriptedReading]) -> None:
    assert parse_script(dump_script(readings).splitlines()) == readings


def test_scripted_board_steps_and_plays_in_a_thread(tmp_path: Path) -> None:
    lines = [{"t": 0.0, "holes": []}, {"t": 0.01, "holes": [4], "unsure": [5]}, {"t": 0.02, "holes": [4, 6]}]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    source = make_source(Config(source_options={"scripted": {"file": str(path), "speed": 10.0}}), "scripted")
    assert isinstance(source, ScriptedBoard)
    q = ReadingQueue()
    source.subscribe(q.put)
    source.start()
    assert source.finished.wait(5)
    source.stop()
    events = q.drain()
    assert [e.state for e in events if not isinstance(e, BoardReading)] == [
        HealthState.STARTING, HealthState.CONNECTED, HealthState.STOPPED
    ]
    assert source.last_reading is not None and source.last_reading.occupied == {4, 6}

    stepper = ScriptedBoard(parse_script([json.dumps(line) for line in lines]), threaded=False)
    stepper.start()
    first, second = stepper.step(), stepper.step()
    assert first is not None and second is not None
    assert second.occupied == {4} and second.unsure == {5} and second.timestamp == 0.01
    assert stepper.step() is not None and stepper.step() is None


def test_source_factories_validate_their_options(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="did you mean 'sees_colour'"):
        make_source(Config(source_options={"simulated": {"sees_color": True}}))
    with pytest.raises(ConfigError, match="needs a file"):
        make_source(Config(), "scripted")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": 0, "holes": ["x"]}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.jsonl:1"):
        make_source(Config(source_options={"scripted": {"file": str(bad)}}), "scripted")
    assert make_source(Config(source_options={"simulated": {"sees_colour": True}})).sees_colour
