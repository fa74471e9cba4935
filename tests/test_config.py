"""Config files: good ones mean what they say, bad ones say exactly what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Config, ConfigError, Key, check_table, load_config_or_default, parse_config


def test_empty_config_is_all_defaults() -> None:
    assert parse_config("") == Config(path="config.toml")


def test_good_config() -> None:
    cfg = parse_config(
        """
        [app]
        language = "de"
        sound = true
        [board]
        source = "serial"
        stable_seconds = 1
        [board.serial]
        port = "/dev/table99-board"
        """
    )
    assert cfg.language == "de" and cfg.sound and cfg.board_source == "serial"
    assert cfg.stable_seconds == 1.0
    assert cfg.options_for("serial") == {"port": "/dev/table99-board"}
    assert cfg.options_for("gpio") == {}


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ("[app]\nlanguag = 'de'", "[app] languag", "did you mean 'language'"),
        ("[app]\nlanguage = 'fr'", "[app] language", "must be one of en, de"),
        ("[app]\nsound = 'yes'", "[app] sound", "expected true or false"),
        ("[board]\nsorce = 'gpio'", "[board] sorce", "did you mean 'source'"),
        ("[board]\nstable_seconds = 60", "[board] stable_seconds", "between"),
        ("[bord]\nsource = 'gpio'", "bord", "did you mean 'board'"),
        ("[app\nlanguage = 'de'", "config.toml", "not valid TOML"),
        ("[board]\nserial = 3", "[board.serial]", "expected a table"),
    ],
)
def test_bad_config_names_the_key(text: str, where: str, says: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert where in str(info.value) and says in str(info.value)


def test_unusable_file_falls_back_to_the_simulated_board(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[board]\nsource = 'gpoi'\n")
    cfg, problem = load_config_or_default(path)
    assert cfg.board_source == "simulated"
    assert problem is not None and "gpoi" in problem and "simulated board" in problem
    missing, problem = load_config_or_default(tmp_path / "nope.toml")
    assert missing.board_source == "simulated" and problem and "cannot read" in problem
    assert load_config_or_default(None) == (Config(), None)


def test_check_table_fills_defaults_and_widens_ints_to_floats() -> None:
    spec = {"baud": Key(int, 115200), "timeout": Key(float, 2.0)}
    assert check_table("[x]", {"timeout": 3}, spec) == {"baud": 115200, "timeout": 3.0}
    with pytest.raises(ConfigError, match="expected an integer"):
        check_table("[x]", {"baud": True}, spec)


def test_a_typo_in_the_chosen_boards_table_keeps_the_rest_and_uses_the_simulated(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[app]\nlanguage = "de"\n[board]\nsource = "serial"\n[board.serial]\nbaud = "fast"\n')
    cfg, problem = load_config_or_default(path)
    assert cfg.board_source == "simulated" and cfg.language == "de"
    assert problem == (f'{path}: [board.serial] baud: expected an integer, got \'fast\''
                       " - using the simulated board until it is fixed")


def test_a_typo_in_a_board_that_is_not_chosen_does_not_stop_the_chosen_one(tmp_path: Path) -> None:
    """Only the chosen board is checked at start; ``table99 config`` reports the others."""
    path = tmp_path / "config.toml"
    path.write_text('[board]\nsource = "serial"\n[board.gpio]\nlatch_pn = 17\n')
    cfg, problem = load_config_or_default(path)
    assert (cfg.board_source, problem) == ("serial", None)
