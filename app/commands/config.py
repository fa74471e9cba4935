"""``table99 config [FILE]``: check a config file and say in plain words what it means.

Without FILE it checks the file the app would read (``$TABLE99_CONFIG``, else
``/etc/table99/config.toml`` when it exists). A file that is fine prints what every setting means,
defaults marked, and exits 0. A file the app could not use prints the one-line error from
:mod:`app.config` (which file, which key, what is wrong, "did you mean") on stderr and exits 2: the
app itself would then run on the simulated board and show the same message on screen.

The systemd unit runs this before the app (``ExecStartPre``), so a typo is also in the journal in
plain words. When stderr is the journal, error lines carry the ``<3>`` prefix systemd reads as
priority "err", so ``journalctl -p err`` finds them.

The board sources validate their own ``[board.<source>]`` tables with the ``SPEC`` of their factory
module (``app.source_factories.<source>``), and ``[outputs]`` is validated by
``app.referee.outputs.check_outputs``; this command applies the same checks so that a typo there is
caught here too, not only when that board or output starts. Output is English only: it is a
terminal and journal tool for whoever installs the Pi, like the other admin commands.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.config import (
    SOURCES,
    SYSTEM_CONFIG,
    Config,
    ConfigError,
    check_source_options,
    default_config_path,
    load_config,
    load_config_or_default,
    source_spec,
)
from app.startup import plan_startup

LANGUAGE_NAMES = {"en": "English", "de": "German (Deutsch)"}
SOURCE_MEANINGS = {
    "simulated": "the board on the screen (tap the holes); no sensors",
    "scripted": "a recorded sequence of board readings played back (demos and tests)",
    "gpio": "hall sensors wired to the Raspberry Pi's GPIO pins",
    "serial": "a microcontroller (Pico) reading the sensors, over a serial port",
    "camera": "a camera looking down at the board",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", nargs="?", type=Path,
        help=f"the config file (default: $TABLE99_CONFIG, else {SYSTEM_CONFIG} when it exists)",
    )


def check_sources(config: Config) -> dict[str, dict[str, Any]]:
    """Every ``[board.<source>]`` table checked against its factory's SPEC (raises ConfigError)."""
    return {source: check_source_options(config, source) for source in SOURCES}


def check_outputs(config: Config, where: str) -> dict[str, Any]:
    """``[outputs]`` checked by the outputs module's own validator (raises ConfigError)."""
    try:
        from app.referee.outputs import check_outputs as check
    except ImportError:
        return dict(config.outputs)
    if not config.outputs:
        return {}
    return check(config.outputs, where)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _default_mark(given: Mapping[str, Any], key: str) -> str:
    return "" if key in given else "  (default)"


def describe(config: Config, raw: Mapping[str, Any], sources: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What the settings mean, one line each; ``raw`` is the file's own tables, to mark defaults."""
    app_raw = raw.get("app", {})
    board_raw = raw.get("board", {})
    lines = [
        f"language:      {LANGUAGE_NAMES.get(config.language, config.language)}"
        + _default_mark(app_raw, "language"),
        f"sound:         {'spoken announcements (espeak-ng)' if config.sound else 'off'}"
        + _default_mark(app_raw, "sound"),
        f"full screen:   {'yes' if config.fullscreen else 'no (unless started with --fullscreen)'}"
        + _default_mark(app_raw, "fullscreen"),
    ]
    if config.data_dir:
        lines.append(f"games kept in: {config.data_dir}")
        env_dir = os.environ.get("TABLE99_DATA_DIR")
        if env_dir and Path(env_dir) != Path(config.data_dir):
            lines.append(f"  but $TABLE99_DATA_DIR is {env_dir}, and the app uses that")
    else:
        fallback = os.environ.get("TABLE99_DATA_DIR") or "$XDG_DATA_HOME/table99 (~/.local/share/table99)"
        lines.append(f"games kept in: {fallback}  (default)")
    lines.append(
        f"board source:  {config.board_source}: {SOURCE_MEANINGS.get(config.board_source, '')}"
        + _default_mark(board_raw, "source")
    )
    lines.append(
        f"stable after:  {config.stable_seconds:g} s without a change"
        + _default_mark(board_raw, "stable_seconds")
    )
    chosen = sources.get(config.board_source, {})
    given = config.options_for(config.board_source)
    if chosen:
        lines.append(f"[board.{config.board_source}]:")
        lines.extend(f"  {key} = {_value(value)}{_default_mark(given, key)}" for key, value in chosen.items())
        if source_spec(config.board_source) is None:
            lines.append("  (these options are checked when the source starts)")
    unused = [name for name in SOURCES if name != config.board_source and config.options_for(name)]
    if unused:
        lines.append("also configured, not used now: " + ", ".join(f"[board.{name}]" for name in unused))
    lines.extend(describe_exhibit(config, raw.get("exhibit", {})))
    lines.extend(describe_web(config, raw.get("web", {})))
    lines.extend(describe_club(config, raw.get("club", {})))
    if config.outputs:
        lines.append("[outputs]:")
        lines.extend(f"  {key} = {_value(value)}" for key, value in config.outputs.items())
    else:
        lines.append("outputs:       none (no LEDs or buzzer)")
    return lines


def describe_exhibit(config: Config, given: Mapping[str, Any]) -> list[str]:
    """Exhibitor mode's plan (issue 15, docs/exhibit.md) in words. The PIN itself is never printed."""
    from app.exhibit.settings import valid_pin

    exhibit = config.exhibit

    def mark(key: str) -> str:
        return _default_mark(given, key)

    if not exhibit["enabled"]:
        return ["exhibit mode:  off (the family's table)" + mark("enabled")]
    pin = "set (not shown)" if valid_pin(exhibit["pin"]) else "NOT SET: the kiosk stays locked"
    language = LANGUAGE_NAMES.get(exhibit["language"], exhibit["language"])
    event = f'event "{exhibit["event"]}"' if exhibit["event"] else "one event (no name)"
    return [
        "exhibit mode:  on: the table demos itself; settings, history, export and Quit need the staff PIN",
        f"  staff PIN:          {pin}",
        f"  games in the loop:  {', '.join(exhibit['games'])}" + mark("games"),
        f"  narration:          {('spoken, ' + language) if exhibit['narration'] else 'off'}"
        + mark("narration"),
        f"  'Still there?'      after {exhibit['idle_seconds']:g} s without a touch, back to the loop "
        f"{exhibit['still_there_seconds']:g} s later" + mark("idle_seconds"),
        f"  counts kept for:    {event}" + mark("event"),
        f"  phone view:         {phone_view(config)}" + mark("phone_view"),
    ]


def describe_web(config: Config, given: Mapping[str, Any]) -> list[str]:
    """The table's web display ([web]) in words."""
    web = config.web
    if not web["enabled"]:
        return ["web display:   off: no phone or TV follows the table" + _default_mark(given, "enabled")]
    address = f'shown as {web["address"]}' if web["address"] else "its address found out at start"
    return [f"web display:   on: phones and TVs follow the table at port {web['port']} on {web['bind']}"
            + _default_mark(given, "port"),
            f"  {address}, up to {web['max_viewers']} viewers" + _default_mark(given, "max_viewers")]


def describe_club(config: Config, given: Mapping[str, Any]) -> list[str]:
    """The club hub ([club], docs/club.md) in words. The password itself is never printed."""
    club = config.club
    if not club["enabled"]:
        return ["club hub:      off: the table reports to no hub" + _default_mark(given, "enabled")]
    tls = f"TLS, CA {club['tls_ca']}" if club["tls_ca"] else "plain MQTT (the club's own network)"
    broker = f"{club['host']}:{club['port']}"
    return [f"club hub:      on: reports as table \"{club['table']}\" to the broker {broker}",
            f"  broker user:  \"{club['username'] or club['table']}\"; password "
            + ("set (not shown)" if club["password"] else "NOT SET: the broker will refuse the table"),
            f"  connection:   {tls}"]


def phone_view(config: Config) -> str:
    """What the loop's QR code will do: phones follow the demo's game (never the family's), or why not."""
    if not config.exhibit.get("phone_view", True):
        return "off: no QR code on the loop"
    if not config.web["enabled"]:
        return "off: [web] enabled = false, so no QR code on the loop"
    return (f"on: a QR code on the loop; phones follow the game on show (the [web] port "
            f"{config.web['port']} unless --web-port; the demo's games only, never the family's)")


def _stderr_is_journal() -> bool:
    """True when systemd connected stderr to the journal ($JOURNAL_STREAM names its device:inode)."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    try:
        device, inode = (int(part) for part in stream.split(":"))
        info = os.fstat(sys.stderr.fileno())
    except (ValueError, OSError):
        return False
    return (info.st_dev, info.st_ino) == (device, inode)


def report_error(message: str, consequence: str) -> None:
    prefix = "<3>" if _stderr_is_journal() else ""
    print(f"{prefix}table99 config: {message}", file=sys.stderr)
    print(f"{prefix}table99 config: {consequence}", file=sys.stderr)


def report_startup(path: Path | None) -> int:
    """What ``table99 run`` would do about the data directory, the database and settings.json.

    The same :func:`app.startup.plan_startup` that ``run`` follows, so this never disagrees with it.
    Returns 2 when run would fall back somewhere (each fallback is printed as an error line).
    """
    plan = plan_startup(path)
    print(f"The app keeps its games in {plan.data_dir}.")
    for note in plan.notes:
        print(f"  {note}")
    others = [problem for problem in plan.problems if not problem.startswith(str(path or "\0"))]
    for problem in others:
        report_error(problem, "the app starts anyway and shows this on its home screen")
    return 2 if others else 0


def main(args: argparse.Namespace) -> int:
    path: Path | None = args.file or default_config_path()
    status = _check_config(path)
    return max(status, report_startup(path))


def _falls_back(path: Path, exc: ConfigError, usual: str) -> str:
    """What the app does with this file: the same words as its own fallback, exhibit mode included."""
    config, message = load_config_or_default(path)
    if ": [exhibit]" in exc.where and message:
        return "the app shows this message" + message[len(str(exc)):].replace(" - ", ": ", 1)
    if config.exhibit["enabled"]:
        locked = "" if config.exhibit["pin"] else ", locked (no PIN opens the staff screen)"
        return f"{usual}; exhibit mode stays on{locked}"
    return usual


def _check_config(path: Path | None) -> int:
    if path is None:
        config = Config()
        print(f"No config file ($TABLE99_CONFIG is not set and {SYSTEM_CONFIG} does not exist):")
        print("every setting is at its default.")
        for line in describe(config, {}, check_sources(config)):
            print(f"  {line}")
        return 0
    falls_back = "the app shows this message and runs on the simulated board until it is fixed"
    try:
        config = load_config(path)
        check_source_options(config, config.board_source)  # the app checks the chosen board at start
    except ConfigError as exc:
        report_error(str(exc), _falls_back(path, exc, falls_back))
        return 2
    try:
        sources = check_sources(config)
        check_outputs(config, str(path))
    except ConfigError as exc:
        report_error(str(exc), "the app shows this message when it starts that board or output")
        return 2
    from app.club.launch import club_problem

    problem = club_problem(config.club) if config.club["enabled"] else None
    if problem:
        report_error(problem, "the app runs, but this table's games never reach the club hub")
        return 2
    raw = tomllib.loads(path.read_text(encoding="utf-8"))  # parsed fine just above
    print(f"{path} is fine. It means:")
    for line in describe(config, raw, sources):
        print(f"  {line}")
    return 0
