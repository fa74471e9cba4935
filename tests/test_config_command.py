"""``table99 config [FILE]`` and the config loader against good, missing and broken files.

Adds to tests/test_config.py: what the command prints and its exit status, the journal priority
prefix, the shipped example config, and a property: any misspelt key is named, never ignored.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import app.config
from app.cli import main as table99
from app.config import APP_SPEC, BOARD_SPEC, ConfigError, load_config_or_default, parse_config

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "deploy" / "config.toml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = table99(["config", *args])
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_says_what_it_means(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, '[app]\nlanguage = "de"\nsound = true\n[board]\nsource = "simulated"\n'
                           '[board.simulated]\nsees_colour = true\n[board.serial]\nport = "/dev/x"\n')
    status, out, err = run(capsys, str(path))
    assert status == 0 and err == ""
    assert f"{path} is fine" in out
    assert "German" in out and "spoken announcements" in out
    assert "simulated: the board on the screen" in out
    assert "sees_colour = true" in out and "(default)" not in out.split("sees_colour")[1].splitlines()[0]
    assert "stable after:  0.4 s without a change  (default)" in out
    assert "also configured, not used now: [board.serial]" in out


def test_defaults_are_marked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(write(tmp_path, "")))
    assert status == 0
    assert "language:      English  (default)" in out
    assert "sees_colour = false  (default)" in out


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[app]\nlanguag = 'de'\n", "[app] languag: unknown key (did you mean 'language'?)"),
        ("[board]\nsource = 'gpoi'\n", "[board] source: must be one of"),
        ("[board\nsource = 'gpio'\n", "not valid TOML"),
        ("[board.simulated]\nsees_color = true\n", "[board.simulated] sees_color: unknown key (did you mean"),
        ("[board.scripted]\nspeed = 'fast'\n", "[board.scripted] speed: expected a number"),
        ("[board]\nsource = 'serial'\n[board.serial]\nbaud = 'fast'\n", "[board.serial] baud: expected an"),
    ],
)
def test_a_broken_file_names_the_key_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    path = write(tmp_path, text)
    status, out, err = run(capsys, str(path))
    assert status == 2 and "is fine" not in out and "The app keeps its games in" in out
    first, second = err.splitlines()
    assert first.startswith(f"table99 config: {path}") and says in first
    assert "the app shows this message" in second
    chosen_board_or_file = "[board.scripted]" not in text  # scripted is not the chosen board there
    assert ("runs on the simulated board" in second) == chosen_board_or_file


def test_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, str(tmp_path / "nope.toml"))
    assert status == 2 and "nope.toml: cannot read: No such file or directory" in err
    assert "simulated board" in err


def test_a_file_that_is_not_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"[app]\nlanguage = '\xff'\n")
    status, _, err = run(capsys, str(path))
    assert status == 2 and "not UTF-8 text" in err


def test_without_a_file_it_checks_what_the_app_would_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.config, "SYSTEM_CONFIG", tmp_path / "absent.toml")
    status, out, _ = run(capsys)
    assert status == 0 and "No config file" in out and "every setting is at its default" in out
    monkeypatch.setenv("TABLE99_CONFIG", str(write(tmp_path, "[app]\nsound = 'loud'\n")))
    status, _, err = run(capsys)
    assert status == 2 and "[app] sound: expected true or false" in err


def test_errors_in_the_journal_are_marked_as_errors(tmp_path: Path) -> None:
    """Under systemd ($JOURNAL_STREAM = stderr's device:inode) lines get the "<3>" priority prefix."""
    bad = write(tmp_path, "[bord]\n")
    log = tmp_path / "stderr.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("w") as stderr:
        info = os.fstat(stderr.fileno())
        env["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        done = subprocess.run([sys.executable, "-m", "app", "config", str(bad)], stderr=stderr,
                              stdout=subprocess.DEVNULL, env=env, cwd=ROOT, check=False, timeout=60)
    lines = log.read_text().splitlines()
    assert done.returncode == 2 and lines and all(line.startswith("<3>table99 config: ") for line in lines)
    env["JOURNAL_STREAM"] = "1:2"  # someone else's stream: a terminal must not see "<3>"
    done = subprocess.run([sys.executable, "-m", "app", "config", str(bad)], capture_output=True, text=True,
                          env=env, cwd=ROOT, check=False, timeout=60)
    assert done.stderr.startswith("table99 config: ")


def test_the_shipped_example_is_good(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(EXAMPLE))
    assert status == 0, err
    config, problem = load_config_or_default(EXAMPLE)
    assert problem is None and config.board_source == "simulated" and config.data_dir == "/var/lib/table99"
    assert "games kept in: /var/lib/table99" in out


def test_a_typo_in_the_example_falls_back_to_the_simulated_board(tmp_path: Path) -> None:
    broken = write(tmp_path, EXAMPLE.read_text().replace('source = "simulated"', 'sorce = "serial"'))
    config, problem = load_config_or_default(broken)
    assert config.board_source == "simulated"
    assert problem is not None and "[board] sorce" in problem and "did you mean 'source'" in problem


def test_the_example_names_only_real_sections() -> None:
    """Every commented-out [section] in the example is one the loader accepts once uncommented."""
    for line in EXAMPLE.read_text().splitlines():
        if line.startswith("# ["):
            header = line[2:].split("#")[0].strip()
            parse_config(header + "\n")


KEYS = sorted({f"app.{k}" for k in APP_SPEC} | {f"board.{k}" for k in BOARD_SPEC})


@given(
    key=st.sampled_from(KEYS),
    typo=st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12),
)
def test_any_unknown_key_is_named_never_ignored(key: str, typo: str) -> None:
    section, name = key.split(".")
    allowed = APP_SPEC if section == "app" else BOARD_SPEC
    wrong = name + typo if (name + typo) not in allowed else name + typo + "x"
    with pytest.raises(ConfigError) as info:
        parse_config(f"[{section}]\n{wrong} = 1\n")
    assert f"[{section}] {wrong}: unknown key" in str(info.value)


def test_every_commented_example_section_is_valid_once_uncommented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example's commented keys are real keys with valid values (checked by each source's SPEC)."""
    lines = []
    for line in EXAMPLE.read_text().splitlines():
        body = line[2:] if line.startswith("# ") else line
        if line.startswith("# ") and not (body.startswith("[") or (" = " in body and body[0].isalpha())):
            continue  # prose, not a setting
        lines.append(body)
    path = write(tmp_path, "\n".join(lines) + "\n")
    status, out, err = run(capsys, str(path))
    assert status == 0, err
    assert "also configured, not used now: [board.gpio], [board.serial]" in out
    assert "turn_leds = [5, 6, 13, 19]" in out


def test_outputs_are_checked_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "[outputs]\nbuzzer = 12\nplay_button = 12\n")
    status, _, err = run(capsys, str(path))
    assert status == 2 and "[outputs] play_button: pin 12 is already buzzer" in err


def test_a_data_dir_that_disagrees_with_the_environment_is_pointed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, '[app]\ndata_dir = "/var/lib/table99"\n')
    monkeypatch.setenv("TABLE99_DATA_DIR", "/var/lib/table99/")
    assert "and the app uses that" not in run(capsys, str(path))[1]
    monkeypatch.setenv("TABLE99_DATA_DIR", str(tmp_path / "elsewhere"))
    out = run(capsys, str(path))[1]
    assert f"but $TABLE99_DATA_DIR is {tmp_path / 'elsewhere'}, and the app uses that" in out
