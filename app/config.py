"""The config file (``/etc/table99/config.toml`` on a Pi, ``$TABLE99_CONFIG`` or ``--config``).

A typo must never give a black screen: :func:`load_config_or_default` returns a safe config (the
defaults, or the file with the simulated board when only the chosen board's own table is wrong)
together with a message that says which file, line or key is wrong, and the app shows it on screen
and logs it. Every section is validated by a :class:`SectionSpec`; the
board sources validate their own sub-tables with the same helper (:func:`check_table`), so every
message has the same shape: ``config.toml: [board.serial] baud: expected an integer, got "fast"``.
"""

from __future__ import annotations

import difflib
import importlib
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.config_checks import (
    LANGUAGES,
    ConfigError,
    Key,
    check_table,
    in_range,
    one_of,
    shown,
)
from app.exhibit import settings as exhibit_settings

SYSTEM_CONFIG = Path("/etc/table99/config.toml")
SOURCES = ("simulated", "scripted", "gpio", "serial", "camera")


APP_SPEC: dict[str, Key] = {
    "language": Key(str, "en", one_of(*LANGUAGES)),
    "sound": Key(bool, False),
    "fullscreen": Key(bool, False),
    "data_dir": Key(str, ""),
}
# --- web display (issue 14) ----------------------------------------------------------------------
def _bind_address(value: Any) -> str | None:
    import ipaddress

    try:
        ipaddress.ip_address(value)
    except ValueError:
        return f"must be an IP address such as 0.0.0.0 (every network) or 127.0.0.1, got {shown(value)}"
    return None


WEB_SPEC: dict[str, Key] = {
    "enabled": Key(bool, True),
    "port": Key(int, 8099, in_range(1024, 65535)),
    "bind": Key(str, "0.0.0.0", _bind_address),
    "address": Key(str, ""),  # how phones reach the table (shown in the QR code); "" = found out
    "max_viewers": Key(int, 250, in_range(1, 2000)),
}
# --- end web display ---------------------------------------------------------------------------------
# --- club hub (issue 19): the table reports to a hub through an MQTT broker (docs/club.md) ----------
def _table_name(value: Any) -> str | None:
    import re

    if value == "hub":
        return 'must not be "hub" (the hub\'s own topic)'
    if re.fullmatch(r"[A-Za-z0-9_-]{1,32}", value):
        return None
    return f"must be 1-32 letters, digits, - or _ (it is the table's MQTT topic), got {shown(value)}"


CLUB_SPEC: dict[str, Key] = {
    "enabled": Key(bool, False),
    "host": Key(str, "localhost"),
    "port": Key(int, 1883, in_range(1, 65535)),
    "table": Key(str, "table1", _table_name),
    "username": Key(str, ""),
    "password": Key(str, ""),
    "tls_ca": Key(str, ""),  # a CA file: TLS to the broker ("" = plain MQTT on the club's own network)
}
# --- end club hub ----------------------------------------------------------------------------------
BOARD_SPEC: dict[str, Key] = {
    "source": Key(str, "simulated", one_of(*SOURCES)),
    "stable_seconds": Key(float, 0.4, in_range(0.05, 5.0)),
}


@dataclass(frozen=True)
class Config:
    """What the app needs to start. Source options stay raw: each source validates its own."""

    language: str = "en"
    sound: bool = False
    fullscreen: bool = False
    data_dir: str = ""
    board_source: str = "simulated"
    stable_seconds: float = 0.4
    source_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    outputs: Mapping[str, Any] = field(default_factory=dict)
    path: str = ""
    web: Mapping[str, Any] = field(default_factory=lambda: {k: v.default for k, v in WEB_SPEC.items()})
    # repr=False here and below: the club's password and the staff PIN never reach a log line or a traceback
    club: Mapping[str, Any] = field(default_factory=lambda: {k: v.default for k, v in CLUB_SPEC.items()},
                                    repr=False)
    # exhibitor mode (issue 15): [exhibit] checked, defaults filled (app/exhibit/settings.py)
    exhibit: Mapping[str, Any] = field(default_factory=exhibit_settings.exhibit_defaults, repr=False)
    exhibit_problem: str = ""  # why [exhibit] was replaced by its safe fallback ("" = used as written)

    def options_for(self, source: str) -> Mapping[str, Any]:
        return self.source_options.get(source, {})


def parse_config(text: str, where: str = "config.toml") -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(where, f"not valid TOML: {' '.join(str(exc).split())}") from exc
    except RecursionError as exc:
        raise ConfigError(where, "not usable: lists or tables nested too deep") from exc
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise ConfigError(where, f"not usable: {' '.join(str(exc).split())[:120]}") from exc
    return config_from_tables(data, where)


def config_from_tables(data: Mapping[str, Any], where: str = "config.toml") -> Config:
    """The Config of parsed TOML tables (what :func:`parse_config` checks after parsing the text)."""
    top = check_table(where, data, {}, subtables=("app", "board", "outputs", "web", "club", "exhibit"))
    app = check_table(f"{where}: [app]", top.get("app", {}), APP_SPEC)
    board = check_table(f"{where}: [board]", top.get("board", {}), BOARD_SPEC, subtables=SOURCES)
    web = check_table(f"{where}: [web]", top.get("web", {}), WEB_SPEC)
    club = check_table(f"{where}: [club]", top.get("club", {}), CLUB_SPEC)  # club hub (issue 19)
    exhibit = exhibit_settings.check_exhibit(where, top.get("exhibit", {}))  # exhibitor mode (issue 15)
    outputs = top.get("outputs", {})
    if not isinstance(outputs, Mapping):
        raise ConfigError(f"{where}: [outputs]", "expected a table")
    options = {name: board[name] for name in SOURCES if name in board}
    for name, table in options.items():
        if not isinstance(table, Mapping):
            raise ConfigError(f"{where}: [board.{name}]", f"expected a table, got {shown(table)}")
    return Config(
        language=app["language"], sound=app["sound"], fullscreen=app["fullscreen"],
        data_dir=app["data_dir"], board_source=board["source"],
        stable_seconds=board["stable_seconds"], source_options=options, outputs=dict(outputs),
        path=where, web=web, club=club, exhibit=exhibit,
    )


def _exhibit_fallback(path: Path, config: Config, problem: str) -> Config:
    """``config`` with the file's own ``[exhibit]`` table in its safe form (exhibitor mode, issue 15).

    Called when the file was unusable: an unattended store table whose ``[web]`` has a typo, or
    whose ``[exhibit]`` PIN is missing, must not become the unlocked family app. The rules are in
    :func:`app.exhibit.settings.fallback_exhibit`; a file that is not TOML has no table to keep."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        return _asked_for_exhibit(path, config, problem)
    table = raw.get("exhibit")
    if table is None:
        return _asked_for_exhibit(path, config, problem)  # e.g. a misspelt [exhibt]
    settings = exhibit_settings
    try:
        return replace(config, exhibit=settings.check_exhibit(str(path), table))  # the table itself is fine
    except ConfigError:
        pass
    exhibit = settings.fallback_exhibit(f"{path}: [exhibit]", table)
    return replace(config, exhibit=exhibit, exhibit_problem=problem if exhibit["enabled"] else "")


_HEADER = re.compile(r"^\s*\[\s*([^\]\s]+)\s*\]\s*(#.*)?$")
_ENABLED = re.compile(r"^\s*enabled\s*=\s*true\s*(#.*)?$", re.IGNORECASE)


def _asked_for_exhibit(path: Path, config: Config, problem: str) -> Config:
    """The locked kiosk when a file that cannot be used as TOML still plainly asked for exhibitor mode:
    a header close to ``[exhibit]`` (``[exhibt]``, ``[Exhibit]``) with ``enabled = true`` under it.
    An unattended store table must not become the family app over a typo (``pin = 0582``)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return config
    section = ""
    for line in lines:
        header = _HEADER.match(line)
        if header:
            section = header.group(1).lower()
        elif _ENABLED.match(line) and difflib.SequenceMatcher(None, section, "exhibit").ratio() >= 0.8:
            return replace(config, exhibit={**config.exhibit, "enabled": True, "pin": ""},
                           exhibit_problem=problem)
    return config


def load_config(path: Path) -> Config:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), f"not UTF-8 text (byte {exc.start})") from exc
    return parse_config(text, str(path))


def default_config_path() -> Path | None:
    """``$TABLE99_CONFIG``, else the system file if it exists, else None (all defaults)."""
    explicit = os.environ.get("TABLE99_CONFIG")
    if explicit:
        return Path(explicit)
    return SYSTEM_CONFIG if SYSTEM_CONFIG.exists() else None


def source_spec(source: str) -> Mapping[str, Key] | None:
    """The option ``SPEC`` of a board source's factory (``app.source_factories.<source>``), or None
    when it has none or cannot be imported here (a missing hardware library: checked when it starts).
    Imported on demand: the factories import this module, and only the chosen one's libraries matter."""
    try:
        module = importlib.import_module(f"app.source_factories.{source}")
    except ImportError:
        return None
    spec = getattr(module, "SPEC", None)
    return spec if isinstance(spec, Mapping) else None


def check_source_options(config: Config, source: str) -> dict[str, Any]:
    """``[board.<source>]`` checked against its factory's SPEC, defaults filled (raises ConfigError)."""
    options = config.options_for(source)
    spec = source_spec(source)
    if spec is None:
        return dict(options)
    return check_table(f"{config.path or 'config.toml'}: [board.{source}]", options, spec)


def _without_exhibit(path: Path) -> Config:
    """The file's config as if it had no ``[exhibit]`` table (the board falls back as usual)."""
    try:
        rest = tomllib.loads(path.read_text(encoding="utf-8"))
        rest.pop("exhibit", None)
        config = config_from_tables(rest, str(path))
    except (ConfigError, OSError, ValueError, RecursionError):
        return Config(path=str(path))
    try:
        check_source_options(config, config.board_source)
    except ConfigError:
        return replace(config, board_source="simulated")
    return config


def _exhibit_consequence(config: Config) -> str:
    if config.exhibit["enabled"]:
        return " - exhibit mode stays on, locked: no PIN opens the staff screen until it is fixed" \
            if not config.exhibit["pin"] else " - exhibit mode stays on with the defaults for what is wrong"
    return " - exhibit mode is off until it is fixed"


def load_config_or_default(path: Path | None) -> tuple[Config, str | None]:
    """The config, or a safe one plus the message to show when the file is unusable.

    A file that cannot be read or parsed gives the defaults. A typo only in the chosen board's own
    table (``[board.serial] baud = "fast"``) keeps the rest of the file (language, sound...) and
    switches to the simulated board, so the message is on the home screen from the start rather
    than only after the first game tried that board."""
    if path is None:
        return Config(), None
    fallback = " - using the simulated board until it is fixed"
    try:
        config = load_config(path)
    except ConfigError as exc:
        if ": [exhibit]" not in exc.where:
            config = _exhibit_fallback(path, Config(path=str(path)), str(exc))
            locked = config.exhibit["enabled"] and not config.exhibit["pin"]
            return config, f"{exc}{fallback}{_exhibit_consequence(config) if locked else ''}"
        config = _without_exhibit(path)  # only the exhibitor's table is wrong: keep everything else
        config = _exhibit_fallback(path, config, str(exc))
        return config, f"{exc}{_exhibit_consequence(config)}"
    try:
        check_source_options(config, config.board_source)
    except ConfigError as exc:
        return replace(config, board_source="simulated"), f"{exc}{fallback}"
    return config, None
