"""Fuzzing what users hand the app (issue 17, point 5): never a traceback, always one line.

Raw bytes and mutated valid records go to ``table99 replay`` (all three formats); mutated configs go
to the config checker and to ``table99 config``. Each must end with exit status 0 or 2 and, on 2,
exactly one line on stderr naming the file. ``benchmarks/fuzz_inputs.py`` runs thousands more.
"""

from __future__ import annotations

import argparse
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.commands import config as config_command
from app.commands import replay as replay_command
from app.config import ConfigError, load_config_or_default, parse_config
from tests.fuzz_inputs import dumps_hostile, mutate, mutate_config, seed_records

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@cache
def seeds() -> dict[str, list[dict[str, Any]]]:
    return seed_records()


def replay_file(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    status = replay_command.main(argparse.Namespace(file=path, json=True))
    out, err = capsys.readouterr()
    return status, out, err


def one_error_line(status: int, err: str, path: Path) -> None:
    assert status in (0, 2)
    if status == 2:
        assert err.count("\n") == 1 and err.startswith(f"table99 replay: {path}"), err[:500]
        assert len(err) < 600


def test_the_seed_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for kind, records in seeds().items():
        for n, record in enumerate(records):
            path = tmp_path / f"{kind}{n}.json"
            path.write_text(dumps_hostile(record))
            status, _, err = replay_file(path, capsys)
            assert status == 0, (kind, err)


@FAST
@given(st.binary(max_size=400))
def test_raw_bytes_never_crash_replay(tmp_path_factory: pytest.TempPathFactory,
                                      capsys: pytest.CaptureFixture[str], data: bytes) -> None:
    path = tmp_path_factory.mktemp("raw") / "record.json"
    path.write_bytes(data)
    status, _, err = replay_file(path, capsys)
    one_error_line(status, err, path)


@pytest.mark.parametrize("kind", ["board99", "count99", "parlett"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_mutated_records_never_crash_replay(tmp_path_factory: pytest.TempPathFactory,
                                            capsys: pytest.CaptureFixture[str], kind: str, seed: int) -> None:
    rng = random.Random(seed)
    record = mutate(rng.choice(seeds()[kind]), rng)
    path = tmp_path_factory.mktemp("mutated") / "record.json"
    path.write_text(dumps_hostile(record))
    status, _, err = replay_file(path, capsys)
    one_error_line(status, err, path)


def test_a_name_with_a_newline_keeps_the_error_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = {"format": "table99/board99", "version": 1, "ruleset": "classic", "players": ["Ann\nBen", "Cat"],
              "layout": "rows", "actions": [{"by": "Ann\nBen", "do": "play", "card": 50, "square": 10}]}
    path = tmp_path / "names.json"
    path.write_text(dumps_hostile(record))
    status, _, err = replay_file(path, capsys)
    assert status == 2 and err.count("\n") == 1 and "Ann\\nBen holds no cards" in err


@FAST
@given(seed=st.integers(0, 2**32))
def test_mutated_configs_give_a_config_or_one_line(seed: int) -> None:
    text = mutate_config(random.Random(seed))
    try:
        parse_config(text, "config.toml")
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("config.toml") and len(str(exc)) < 600


@FAST
@given(seed=st.integers(0, 2**32))
def test_table99_config_and_run_never_crash_on_a_mutated_file(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    path = tmp_path_factory.mktemp("config") / "config.toml"
    path.write_bytes(mutate_config(random.Random(seed)).encode("utf-8", errors="surrogateescape"))
    _config, problem = load_config_or_default(path)  # what run does: never raises
    assert problem is None or "\n" not in problem
    capsys.readouterr()
    status = config_command.main(argparse.Namespace(file=path))
    _, err = capsys.readouterr()
    assert status in (0, 2)
    for line in err.splitlines():
        assert line.startswith("table99 config: ")
