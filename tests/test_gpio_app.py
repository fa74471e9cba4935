"""[board.gpio] from the config, and ``table99 sensors`` (live board, --record, --mock, no GPIO)."""

from __future__ import annotations

import argparse
import importlib.util
import io
import itertools
import threading
from pathlib import Path

import pytest

from app import paths
from app.cli import main as cli_main
from app.commands import sensors
from app.config import Config, ConfigError, parse_config
from app.source_factories import gpio
from hardware.board_source import BoardReading, HealthState
from hardware.gpio_setup import ChainWiring, MatrixWiring
from hardware.scripted import load_script
from hardware.wiring import WiringMap

needs_gpiozero = pytest.mark.skipif(
    importlib.util.find_spec("gpiozero") is None, reason="needs gpiozero (pip install 'table99[gpio]')"
)


def make(options: dict[str, object], config: Config | None = None) -> gpio.GpioBoardSource:
    return gpio.make(options, config or Config(path="config.toml"))


def test_defaults_read_a_13_chip_chain_with_sentinels() -> None:
    values = gpio.check_table("x", {}, gpio.SPEC)
    wiring = gpio.wiring_from(values, "x")
    assert wiring == ChainWiring(17, 27, 22, chips=13, tied_low=(102,), tied_high=(103,))
    source = make({})
    assert source.mock_board is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"latch": 17}, r"\[board.gpio\] latch: unknown key \(did you mean 'latch_pin'\?\)"),
        ({"data_pin": 40}, "data_pin: must be a BCM GPIO number 0..27, got 40"),
        ({"data_pin": 17}, "latch, clock and data need three different pins"),
        ({"chips": 12}, "chips: must be between 13 and 32"),
        ({"tied_low": [200]}, r"tied_low: inputs \[200\] do not exist on 13 chips"),
        ({"wiring": "matrix", "row_pins": [4, 5]}, "2 rows x 10 columns < 100 holes"),
        ({"wiring": "matrix", "row_pins": [4, 4, 5]}, "row_pins: names the same pin twice"),
        ({"wiring": "matrix", "check_pin": 4}, "must all be different pins"),
        ({"wiring": "matrix", "column_pins": [True] * 10}, "column_pins: item 1: expected a pin number"),
        ({"wiring": "spi"}, "wiring: must be one of shift_register, matrix"),
    ],
)
def test_config_mistakes_say_what_and_where(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make(options)


def test_a_matrix_from_the_config_file(tmp_path: Path) -> None:
    config = parse_config(
        '[board]\nsource = "gpio"\n[board.gpio]\nwiring = "matrix"\nsettle_us = 50\nno_check_pin = true\n',
        "cfg.toml",
    )
    values = gpio.check_table("x", config.options_for("gpio"), gpio.SPEC)
    wiring = gpio.wiring_from(values, "x")
    assert isinstance(wiring, MatrixWiring)
    assert wiring.settle_time == pytest.approx(50e-6) and wiring.check is None


@needs_gpiozero
def test_the_taught_map_is_used_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    reversed_map = WiringMap(104, tuple(101 - h for h in range(100)))  # 102, 103 are sentinels
    reversed_map.save(paths.data_dir() / gpio.WIRING_FILE)
    source = make({"mock": True})
    assert source.wiring == reversed_map
    other = tmp_path / "matrix-map.json"
    WiringMap.identity(100).save(other)
    with pytest.raises(ConfigError, match="taught for 100 inputs, the board has 104"):
        make({"map_file": str(other)})
    other.write_text("[]", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"map_file: .*expected a JSON object"):
        make({"map_file": str(other)})


@needs_gpiozero
def test_mock_source_from_the_config_reads_pegs_through_its_thread() -> None:
    source = make({"mock": True, "scan_hz": 500.0}, Config(stable_seconds=0.05))
    seen = threading.Event()
    source.subscribe(lambda e: seen.set() if isinstance(e, BoardReading) and e.occupied == {42} else None)
    source.mock_board.set_inputs({42})
    with source:
        assert source.health.state is HealthState.CONNECTED
        assert seen.wait(5.0)


# -- table99 sensors ------------------------------------------------------------------------------
def test_render_board_marks_pegs_doubts_and_bad_holes() -> None:
    lines = sensors.render_board(frozenset({0, 99}), frozenset({11}), frozenset({55}))
    assert lines[1].split()[1:] == ["O"] + ["."] * 9
    assert lines[2].split()[2] == "?"
    assert lines[6].split()[6] == "!"
    assert lines[10].split()[-1] == "O"


@needs_gpiozero
def test_sensors_records_readings_the_scripted_board_plays_back(tmp_path: Path) -> None:
    source = make({"mock": True, "scan_hz": 400.0}, Config(stable_seconds=0.05))
    source.mock_board.set_inputs({7, 64})
    record = tmp_path / "board.jsonl"
    out = io.StringIO()
    args = argparse.Namespace(record=record, seconds=0.3, refresh=0.05)
    assert sensors.watch(source, args, out) == 0
    readings = load_script(record)
    assert readings and readings[-1].holes == {7, 64}
    assert all(b.t >= a.t for a, b in itertools.pairwise(readings))
    text = out.getvalue()
    assert "health: connected - 13 shift registers answer" in text
    assert "scan rate:" in text
    assert source.health.state is HealthState.STOPPED


@needs_gpiozero
def test_sensors_without_gpio_says_so_and_suggests_mock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    assert cli_main(["sensors", "--seconds", "0.1"]) == 1
    err = capsys.readouterr().err
    assert "This machine has no GPIO that gpiozero can use" in err
    assert "table99 sensors --mock" in err


def test_sensors_reports_a_config_typo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text("[board.gpio]\nchip = 13\n", encoding="utf-8")
    assert cli_main(["sensors", "--mock", "--config", str(cfg), "--seconds", "0.1"]) == 2
    assert "did you mean 'chips'" in capsys.readouterr().err


@needs_gpiozero
def test_sensors_mock_runs_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["sensors", "--mock", "--seconds", "0.2", "--refresh", "0.05"]) == 0
    assert "13 shift registers answer" in capsys.readouterr().out


def test_a_map_using_a_sentinel_input_is_refused() -> None:
    WiringMap(104, (103, *range(1, 100))).save(paths.data_dir() / gpio.WIRING_FILE)
    with pytest.raises(ConfigError, match="hole 0 is mapped to input 103, which is tied as a sentinel"):
        make({})


@needs_gpiozero
def test_sensors_keeps_showing_a_chain_that_does_not_answer_yet() -> None:
    source = make({"mock": True})
    source.mock_board.sim.disconnected = True
    out = io.StringIO()
    args = argparse.Namespace(record=None, seconds=0.2, refresh=0.05)
    assert sensors.watch(source, args, out) == 0
    assert "health: error - the shift-register chain does not answer: it reads all ones" in out.getvalue()


def test_sensors_gives_up_when_the_pins_cannot_be_opened(capsys: pytest.CaptureFixture[str]) -> None:
    def busy() -> object:
        raise RuntimeError("pin GPIO17 is already in use")

    source = gpio.GpioBoardSource(busy)  # type: ignore[arg-type]
    args = argparse.Namespace(record=None, seconds=0.2, refresh=0.05)
    assert sensors.watch(source, args, io.StringIO()) == 1
    assert "cannot open the GPIO sensors: pin GPIO17 is already in use" in capsys.readouterr().err


@needs_gpiozero
def test_sensors_names_the_holes_a_sweep_has_not_changed_with_their_inputs() -> None:
    """Sweep a magnet over the board: the few holes left are named, with the input to check."""
    source = make({"mock": True, "debounce_scans": 1})
    assert source.open()
    try:
        now = 0.0
        for hole in range(100):
            if hole in (23, 57):  # two dead sensors
                continue
            for present in (True, False):
                now += 0.01
                source.mock_board.set_inputs({hole} if present else set())
                source.scan_once(now)
        lines = sensors.status_lines(source)
    finally:
        source.stop()
        if source.reader is not None:
            source.reader.close()
    assert "not changed yet: hole 23 (row 3, column 4; chip 3 pin D7), " \
        "hole 57 (row 6, column 8; chip 8 pin D1)" in lines
