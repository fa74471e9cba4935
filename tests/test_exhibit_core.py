"""Exhibitor mode's core (issue 15): [exhibit] in the config, the staff PIN lock, the demo counts,
the scratch store, ``table99 run --exhibit`` and ``table99 config``'s report. No kivy here."""

from __future__ import annotations

import argparse
import csv
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import main as table99
from app.commands.run_app import main as run_main
from app.commands.run_app import with_exhibit
from app.config import Config, ConfigError, load_config_or_default, parse_config
from app.exhibit.counts import DemoCounts
from app.exhibit.lock import FIRST_WAIT, FREE_TRIES, LONGEST_WAIT, StaffLock, StoredTries
from app.exhibit.parts import exhibit_extras
from app.exhibit.scratch import scratch_store
from app.exhibit.settings import EXHIBIT_SPEC, PIN_RULE, ExhibitSettings, fallback_exhibit, valid_pin
from app.store import GameStore
from tests.fakes import FakeClock

PIN = "4711"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


# --- [exhibit] in the config --------------------------------------------------------------------
def test_defaults_and_a_full_table() -> None:
    assert ExhibitSettings.from_config(parse_config("")) == ExhibitSettings()
    config = parse_config('[exhibit]\nenabled = true\npin = "0042"\nidle_seconds = 60\n'
                          'still_there_seconds = 10\ngames = ["count99", "board99"]\nnarration = false\n'
                          'language = "de"\nevent = "Spiel 26"\n')
    got = ExhibitSettings.from_config(config)
    assert got == ExhibitSettings(True, "0042", 60.0, 10.0, ("count99", "board99"), False, "de", "Spiel 26")
    assert not got.locked_out and got.problem == ""
    assert set(EXHIBIT_SPEC) == {"enabled", "pin", "idle_seconds", "still_there_seconds", "games",
                                 "narration", "language", "event", "loop_board", "phone_view"}
    assert not got.loop_board  # the default: the loop plays the simulated game
    assert got.phone_view  # the default: the loop's QR code where the web display runs


def test_phone_view_is_read_checked_and_kept_in_a_fallback() -> None:
    """``phone_view = false``: no QR code on the loop (docs/exhibit.md, "The phone view")."""
    off = parse_config('[exhibit]\nenabled = true\npin = "0042"\nphone_view = false\n')
    assert ExhibitSettings.from_config(off).phone_view is False
    with pytest.raises(ConfigError) as caught:
        parse_config('[exhibit]\nphone_view = "no"')
    assert str(caught.value).startswith("config.toml: [exhibit] phone_view: ")
    kept = fallback_exhibit("config.toml", {"enabled": True, "pin": "12", "phone_view": False})
    assert kept["phone_view"] is False and kept["pin"] == ""


def test_loop_board_is_read_checked_and_kept_in_a_fallback() -> None:
    """``loop_board``: the staff's choice to show the real board's readings in the loop."""
    on = parse_config('[exhibit]\nenabled = true\npin = "0042"\nloop_board = true\n')
    assert ExhibitSettings.from_config(on).loop_board is True
    assert ExhibitSettings.from_config(parse_config('[exhibit]\nloop_board = false')).loop_board is False
    with pytest.raises(ConfigError) as caught:
        parse_config('[exhibit]\nloop_board = "yes"')
    assert str(caught.value).startswith("config.toml: [exhibit] loop_board: ")
    # a bad PIN elsewhere gives the locked fallback, which keeps the good loop_board
    kept = fallback_exhibit("config.toml", {"enabled": True, "pin": "12", "loop_board": True})
    assert kept["loop_board"] is True and kept["pin"] == ""


@pytest.mark.parametrize("text,message", [
    ("[exhibit]\nenabled = true", "config.toml: [exhibit] pin: exhibit mode is enabled but has no staff PIN"),
    ('[exhibit]\nenabled = true\npin = "12a4"', "config.toml: [exhibit] pin: must be 4 to 8 digits"),
    ("[exhibit]\npin = 4711", "config.toml: [exhibit] pin: write the PIN in quotes"),
    ('[exhibit]\npin = "123456789"', "config.toml: [exhibit] pin: must be 4 to 8 digits"),
    ('[exhibit]\nidle_seconds = 5', "config.toml: [exhibit] idle_seconds: must be between 15 and 3600"),
    ('[exhibit]\ngames = ["chess"]', "config.toml: [exhibit] games: must name only board99, parlett"),
    ('[exhibit]\ngames = []', "config.toml: [exhibit] games: must name at least one"),
    ('[exhibit]\ngames = ["parlett", "parlett"]', "config.toml: [exhibit] games: names a game twice"),
    ('[exhibit]\nlanguage = "fr"', "config.toml: [exhibit] language: must be one of en, de"),
    ('[exhibit]\nevent = "a\\nb"', "config.toml: [exhibit] event: must be one line"),
    ("[exhibit]\nenbled = true", "config.toml: [exhibit] enbled: unknown key (did you mean 'enabled'?)"),
    ("exhibit = 3", "config.toml: [exhibit]: expected a table, got 3"),
])
def test_bad_values_name_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


@given(st.one_of(st.text(max_size=12), st.integers(), st.floats(allow_nan=False), st.booleans(),
                 st.lists(st.integers(), max_size=3)))
@settings(max_examples=300)
def test_the_pin_is_checked_and_never_shown(value: object) -> None:
    """Any PIN value: accepted only as 4-8 ASCII digits; a refusal never contains the value."""
    table = {"exhibit": {"enabled": True, "pin": value}}
    try:
        from app.config import config_from_tables

        config = config_from_tables(table)
    except ConfigError as exc:
        assert not valid_pin(value)
        shown = str(value)
        if len(shown) >= 3:  # shorter strings ("1", "") occur in any message by chance
            # the rule's own example (pin = "4711") is not the value: 471 or "711" would be found in it
            assert shown not in str(exc).replace(PIN_RULE, "")
        return
    assert valid_pin(value) and isinstance(value, str) and value.isascii() and 4 <= len(value) <= 8
    assert ExhibitSettings.from_config(config).pin == value
    assert value not in repr(ExhibitSettings.from_config(config))


def test_unicode_digits_are_not_a_pin() -> None:
    assert valid_pin("0042") and not valid_pin("٤٧١١") and not valid_pin("4711\n") and not valid_pin("47 11")


@pytest.mark.parametrize("text,enabled,locked,problem", [
    # enabled without a PIN: on and locked (no entry opens it), message says so
    ("[exhibit]\nenabled = true\n", True, True, "no PIN opens the staff screen"),
    ('[exhibit]\nenabled = true\npin = "12"\n', True, True, "no PIN opens the staff screen"),
    ("[exhibit]\nenabled = true\npin = 4711\n", True, True, "write the PIN in quotes"),
    # a misspelt enabled still means "on": a store table never falls open by a typo
    ('[exhibit]\nenbled = true\npin = "4711"\n', True, False, "did you mean 'enabled'"),
    ('[exhibit]\nenabled = "yes"\npin = "4711"\n', True, False, "expected true or false"),
    # a bad key with a good PIN: on, that key at its default
    ('[exhibit]\nenabled = true\npin = "4711"\nidle_seconds = 1\n', True, False, "stays on with the"),
    # a table that does not ask for exhibit mode: off, as for [web]
    ('[exhibit]\npin = "12"\n', False, False, "exhibit mode is off until it is fixed"),
    ('[exhibit]\nenabled = false\nidle_seconds = 1\n', False, False, "exhibit mode is off"),
])
def test_a_bad_exhibit_table_falls_back_safely(tmp_path: Path, text: str, enabled: bool, locked: bool,
                                               problem: str) -> None:
    config, message = load_config_or_default(write(tmp_path, '[app]\nlanguage = "de"\n' + text))
    assert message is not None and problem in message and "\n" not in message
    assert config.language == "de"  # the rest of the file is kept
    settings_ = ExhibitSettings.from_config(config)  # never raises for a loaded config
    assert settings_.enabled is enabled
    assert settings_.locked_out is locked
    assert settings_.idle_seconds == 90.0
    if locked:
        assert settings_.pin == "" and settings_.problem
        assert not StaffLock(settings_.pin).attempt("4711").ok
        assert not StaffLock(settings_.pin).attempt("").ok


def test_another_sections_typo_keeps_a_good_exhibit_table(tmp_path: Path) -> None:
    config, message = load_config_or_default(write(tmp_path, '[web]\nport = 1\n[exhibit]\nenabled = true\n'
                                                             'pin = "4711"\nevent = "Essen"\n'))
    assert message is not None and "[web] port" in message
    assert config.web["port"] == 8099  # [web] at its defaults, as before
    got = ExhibitSettings.from_config(config)
    assert got.enabled and got.pin == "4711" and got.event == "Essen" and got.problem == ""


def test_a_file_that_is_not_toml_has_no_exhibit_mode(tmp_path: Path) -> None:
    config, message = load_config_or_default(write(tmp_path, "[exhibit\nenabled = true"))
    assert message is not None and "not valid TOML" in message
    assert not ExhibitSettings.from_config(config).enabled


def test_from_config_raises_for_a_hand_built_config_without_pin() -> None:
    config = Config(exhibit={"enabled": True, "pin": ""})
    with pytest.raises(ConfigError, match="no staff PIN"):
        ExhibitSettings.from_config(config)
    hand_built = Config(exhibit={"enabled": True, "pin": "12"}, exhibit_problem="x")
    fallen_back = ExhibitSettings.from_config(hand_built)
    assert fallen_back.pin == "" and fallen_back.locked_out and fallen_back.problem == "x"


def test_the_pin_never_appears_in_reprs() -> None:
    config = parse_config('[exhibit]\nenabled = true\npin = "8642"\n')
    got = ExhibitSettings.from_config(config)
    assert "8642" not in repr(got) and "8642" not in repr(StaffLock(got.pin))


# --- the staff lock -----------------------------------------------------------------------------
def test_right_pin_opens_and_wrong_pins_are_rate_limited() -> None:
    clock = FakeClock(1000.0)
    lock = StaffLock(PIN, clock)
    assert lock.attempt(PIN).ok
    for _ in range(FREE_TRIES - 1):
        tried = lock.attempt("0000")
        assert not tried.ok and tried.wait_seconds == 0 and tried.message == "Wrong PIN."
    tried = lock.attempt("0000")  # the third wrong one in a row
    assert not tried.ok and tried.wait_seconds == FIRST_WAIT and tried.message.startswith("Too many tries")
    clock.now += FIRST_WAIT - 1
    refused = lock.attempt(PIN)  # even the right PIN waits: it is not even compared
    assert not refused.ok and refused.wait_seconds == pytest.approx(1.0)
    assert lock.wait_seconds() == pytest.approx(1.0)
    clock.now += 1
    assert lock.wait_seconds() == 0
    assert lock.attempt("1111").wait_seconds == 2 * FIRST_WAIT  # doubling
    clock.now += 2 * FIRST_WAIT
    assert lock.attempt("2222").wait_seconds == 4 * FIRST_WAIT
    clock.now += 4 * FIRST_WAIT
    assert lock.attempt(PIN).ok  # the right PIN resets the count
    assert lock.attempt("0000").wait_seconds == 0


def test_waits_are_capped_and_a_child_cannot_guess_in_a_day() -> None:
    clock = FakeClock(1000.0)
    lock = StaffLock("99999999", clock)
    start, tries = clock.now, 0
    while clock.now - start < 24 * 3600:
        tries += 1
        clock.now += lock.attempt(f"{tries:04d}").wait_seconds
    assert lock.attempt("0000").wait_seconds <= LONGEST_WAIT
    assert tries < 40  # 40 guesses a day of 10,000 (in-sample: this schedule, not a measurement)


@given(st.text(max_size=12))
@settings(max_examples=300)
def test_only_the_pin_opens(entry: str) -> None:
    lock = StaffLock(PIN, FakeClock(1000.0))
    assert lock.attempt(entry).ok is (entry == PIN)


def test_pulling_the_plug_does_not_reset_the_wait(tmp_path: Path) -> None:
    """The wrong-try count is in the database: a restarted table starts locked, and waits longer."""
    clock = FakeClock(1000.0)
    store = GameStore(tmp_path / "games.sqlite3")
    lock = StaffLock(PIN, clock, StoredTries(store))
    assert lock.attempt("0000").wait_seconds == 0  # one wrong try, then the plug is pulled
    store.close()
    store = GameStore(tmp_path / "games.sqlite3")
    lock = StaffLock(PIN, FakeClock(1000.0), StoredTries(store))
    assert lock.attempt("1111").wait_seconds == 0
    assert lock.attempt("2222").wait_seconds == FIRST_WAIT  # the third in a row, across the restart
    store.close()
    store = GameStore(tmp_path / "games.sqlite3")
    clock = FakeClock(1000.0)
    lock = StaffLock(PIN, clock, StoredTries(store))
    assert lock.wait_seconds() == FIRST_WAIT  # starts locked
    assert not lock.attempt(PIN).ok
    clock.now += FIRST_WAIT
    assert lock.attempt("3333").wait_seconds == 2 * FIRST_WAIT
    clock.now += 2 * FIRST_WAIT
    assert lock.attempt(PIN).ok
    assert StoredTries(store).get() == 0  # the right PIN resets the stored count too
    assert store.games() == []


def test_no_pin_means_no_entry_opens() -> None:
    lock = StaffLock("", FakeClock(1000.0))
    assert not lock.has_pin
    for entry in ("", "0000", "1234"):
        assert not lock.attempt(entry).ok
    assert "No staff PIN" in StaffLock("", FakeClock(1000.0)).attempt("").message


def test_the_compare_is_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.exhibit.lock as lock_module

    seen: list[tuple[bytes, bytes]] = []
    real = lock_module.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(lock_module.hmac, "compare_digest", spy)
    assert StaffLock(PIN).attempt(PIN).ok
    assert seen == [(b"4711", b"4711")]


# --- the counts ----------------------------------------------------------------------------------
class DayClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 26, 23, 50, tzinfo=timezone(timedelta(hours=1)))

    def __call__(self) -> datetime:
        return self.now


def test_counts_today_and_this_event_survive_a_restart(tmp_path: Path) -> None:
    clock = DayClock()
    store = GameStore(tmp_path / "games.sqlite3")
    counts = DemoCounts(store, "Spiel", clock)
    first = counts.started("board99")
    counts.finished(first)
    second = counts.started("board99")
    counts.stopped(second, "idle")
    counts.finished(second)  # ended already: keeps "idle"
    clock.now += timedelta(minutes=20)  # past local midnight: the 27th here, the 26th in UTC
    third = counts.started("board99")
    counts.stopped(third, "visitor")
    summary = counts.summary()
    assert (summary.day, summary.today_started, summary.today_finished) == ("2026-11-27", 1, 0)
    assert (summary.event_started, summary.event_finished) == (3, 1)
    other = DemoCounts(store, "another event", clock)
    assert other.summary().event_started == 0 and other.summary().today_started == 1
    store.close()
    again = DemoCounts(GameStore(tmp_path / "games.sqlite3"), "Spiel", clock)
    assert again.summary() == summary
    assert again.store.games() == []  # nothing in the family's history


def test_counts_refuse_unknown_ids_and_reasons(tmp_path: Path) -> None:
    counts = DemoCounts(GameStore(tmp_path / "g.sqlite3"), "", DayClock())
    with pytest.raises(KeyError):
        counts.finished(99)
    demo = counts.started("board99")
    with pytest.raises(ValueError, match="visitor, idle"):
        counts.stopped(demo, "bored")


def test_csv_export_has_a_header_and_every_demo(tmp_path: Path) -> None:
    clock = DayClock()
    counts = DemoCounts(GameStore(tmp_path / "g.sqlite3"), "=HYPERLINK(1)", clock)
    demo = counts.started("board99")
    counts.finished(demo)
    counts.started("board99")  # still running
    folder = tmp_path / "exports"  # not there yet: made, and the file goes into it
    path = counts.export_csv(folder)
    assert path == folder / "exhibit-2026-11-26.csv"
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["id", "event", "game", "day", "started", "ended", "outcome"]
    assert [row[6] for row in rows[1:]] == ["finished", "not ended"]
    assert rows[1][1] == "'=HYPERLINK(1)"  # a spreadsheet shows it as text, never runs it
    assert rows[1][4].startswith("2026-11-2") and rows[2][5] == ""
    assert [p.name for p in folder.iterdir()] == [path.name]  # no temporary file left
    named = counts.export_csv(tmp_path / "out" / "demos.csv")
    assert named.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


# --- the scratch store ---------------------------------------------------------------------------
def test_scratch_store_is_private_works_with_listeners_and_is_removed() -> None:
    store = scratch_store()
    heard: list[int] = []
    store.add_listener(heard.append)
    game = store.create_game("board99", {"players": 2})
    store.append(game, {"type": "play"}, finished="won")
    assert heard == [game, game]
    assert store.load(game).status == "finished"
    folder = store.path.parent
    assert (folder.stat().st_mode & 0o777) == 0o700
    store.close()
    assert not folder.exists()
    store.close()  # twice is fine


def test_scratch_store_never_gives_an_id_twice() -> None:
    """Every demo is deleted when it ends; SQLite would give the next one the same id, and a phone
    following the loop could not tell the next demo from the last (app/exhibit/scratch.py)."""
    store = scratch_store()
    heard: list[int] = []
    store.add_listener(heard.append)
    try:
        ids = []
        for _ in range(3):
            game = store.create_game("count99", {"players": 2})
            ids.append(game)
            store.delete_game(game)
        assert ids == sorted(set(ids)) and len(ids) == 3
        kept = store.create_game("board99", {"players": 2})
        assert kept > ids[-1] and store.load(kept).kind == "board99" and kept in heard
    finally:
        store.close()


def test_exhibit_extras(tmp_path: Path) -> None:
    family = GameStore(tmp_path / "g.sqlite3")
    assert exhibit_extras(parse_config(""), family) is None
    extras = exhibit_extras(parse_config('[exhibit]\nenabled = true\npin = "4711"\n'), family)
    assert extras is not None and extras["lock"].attempt("4711").ok
    assert extras["scratch"].path != family.path
    extras["scratch"].close()
    locked = exhibit_extras(Config(exhibit={"enabled": True, "pin": ""}), family)
    assert locked is not None and not locked["lock"].has_pin and locked["settings"].problem
    locked["scratch"].close()


# --- table99 run --exhibit and table99 config --------------------------------------------------
def test_run_exhibit_without_pin_refuses_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLE99_DATA_DIR", str(tmp_path / "data"))

    def would_start(*_: object) -> None:
        raise AssertionError("table99 run --exhibit went on to start the app without a PIN")

    monkeypatch.setattr("app.commands.run_app.carry_out", would_start)
    monkeypatch.setattr("app.commands.run_app._at_a_keyboard", lambda: True)  # a person typed it
    args = argparse.Namespace(config=write(tmp_path, ""), board=None, fullscreen=False, web_port=None,
                              exhibit=True)
    assert run_main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("table99 run --exhibit: no staff PIN is configured")
    assert 'pin = "4711"' in err and str(tmp_path / "config.toml") in err


def test_with_exhibit_turns_it_on_for_this_run() -> None:
    config, refusal = with_exhibit(parse_config('[exhibit]\npin = "4711"\n'))
    assert refusal is None and ExhibitSettings.from_config(config).enabled
    assert with_exhibit(parse_config(""))[1] is not None


def test_config_reports_the_plan_without_the_pin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, '[exhibit]\nenabled = true\npin = "8642"\nevent = "Essen"\nnarration = false\n')
    status = table99(["config", str(path)])
    out = capsys.readouterr().out
    assert status == 0
    assert "exhibit mode:  on" in out and "staff PIN:          set (not shown)" in out
    assert 'counts kept for:    event "Essen"' in out and "narration:          off" in out
    assert "8642" not in out
    assert "phone view:         on: a QR code on the loop" in out and "never the family's" in out
    for off in ('phone_view = false\n', '[web]\nenabled = false\n'):
        quiet = write(tmp_path, '[exhibit]\nenabled = true\npin = "8642"\n' + off)
        assert table99(["config", str(quiet)]) == 0
        assert "phone view:         off" in capsys.readouterr().out
    status = table99(["config", str(write(tmp_path, "[exhibit]\nenabled = true\n"))])
    captured = capsys.readouterr()
    assert status == 2 and "no staff PIN" in captured.err and "locked" in captured.err
    assert "exhibit mode:  off (the family's table)  (default)" in (
        table99(["config", str(write(tmp_path, ""))]), capsys.readouterr().out)[1]


# --- any [exhibit] table: one line, and the app always starts (never an open store table) --------
VALUES = st.one_of(st.booleans(), st.integers(-10**6, 10**6),
                   st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10),
                   st.lists(st.sampled_from(["board99", "parlett", "count99", "x"]), max_size=4))
KEYS = st.sampled_from([*EXHIBIT_SPEC, "enbled", "pins", "idle"])


def toml_value(value: object) -> str:
    """A TOML literal for the values above (JSON's strings and numbers are TOML's)."""
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, float):
        return repr(value) if "e" in repr(value) or "." in repr(value) else f"{value!r}.0"
    if isinstance(value, str):  # TOML escapes control characters and DEL as \uXXXX, never surrogates
        return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 or c in '"\\' else c
                             for c in value) + '"'
    return json.dumps(value)


@given(st.dictionaries(KEYS, VALUES, max_size=5))
@settings(max_examples=300, deadline=None)
def test_any_exhibit_table_gives_a_startable_config(table: dict[str, object]) -> None:
    import tomllib
    from tempfile import TemporaryDirectory

    with TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        lines = [f"{key} = {toml_value(value)}" for key, value in table.items()]
        path.write_text("[exhibit]\n" + "\n".join(lines) + "\n", encoding="utf-8")
        assert tomllib.loads(path.read_text(encoding="utf-8"))["exhibit"] == table
        config, message = load_config_or_default(path)
    assert message is None or "\n" not in message
    got = ExhibitSettings.from_config(config)  # never raises for what the loader gave
    asked = any(key in ("enabled", "enbled") and value is not False for key, value in table.items())
    if message is None:
        assert got.enabled is (table.get("enabled") is True) and not got.locked_out
    else:
        assert got.enabled is asked  # a bad table that asked for exhibit mode keeps it ...
        if got.enabled and not valid_pin(table.get("pin")):
            assert got.locked_out and not StaffLock(got.pin).has_pin  # ... locked without a usable PIN
