"""``[exhibit]`` in the config: a table that demos itself at a game store (issue 15, docs/exhibit.md).

Checked like ``[web]`` and ``[club]`` (:func:`app.config.check_table`: one-line messages naming the
key, "did you mean" for a typo), with one difference in the fallback, because nobody stands at a
store table to read a message on the home screen:

* A table that asks for exhibit mode (``enabled``, or a misspelling of it, present and not
  ``false``) but is wrong somewhere keeps exhibit mode ON, with the default for every key that is
  wrong. When the PIN is missing or wrong, the kiosk is LOCKED WITH NO WAY TO UNLOCK it
  (``pin = ""``: the staff lock opens for no entry) and the staff screen and the journal say what
  to fix. Falling back to the ordinary app would hand a curious child settings, the family's
  history and Quit on an unattended table; refusing to start would leave a dead screen. A locked
  demo still draws people in; staff fix the file over ssh and restart (docs/exhibit.md).
* Any other bad ``[exhibit]`` table gives exhibit mode off and the message on the home screen, as for
  ``[web]``; a bad *other* section keeps a good ``[exhibit]`` table (see
  :func:`app.config.load_config_or_default`).

The PIN is never part of a message, a log line or ``table99 config``'s report.
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.config_checks import LANGUAGES, ConfigError, Key, check_table, in_range, one_of, shown

if TYPE_CHECKING:
    from app.config import Config

EXHIBIT_GAMES = ("board99", "parlett", "count99")
PIN_RULE = "4 to 8 digits, in quotes, e.g. pin = \"4711\""


def valid_pin(value: object) -> bool:
    """A usable staff PIN: 4-8 ASCII digits (``str.isdigit`` would let Arabic-Indic digits in)."""
    return isinstance(value, str) and re.fullmatch(r"[0-9]{4,8}", value) is not None


def _pin(value: Any) -> str | None:
    """The PIN check; its messages never contain the value (the PIN is never shown)."""
    if value == "" or valid_pin(value):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return f"write the PIN in quotes (a number loses its leading zeros): {PIN_RULE}"
    return f"must be {PIN_RULE} (the value is not shown)"


def _games(value: Any) -> str | None:
    if not value:
        return f"must name at least one of {', '.join(EXHIBIT_GAMES)}"
    for game in value:
        if game not in EXHIBIT_GAMES:
            return f"must name only {', '.join(EXHIBIT_GAMES)}, got {shown(game)}"
    if len(set(value)) != len(value):
        return f"names a game twice: {shown(value)}"
    return None


def _event(value: Any) -> str | None:
    if len(value) > 60 or not value.isprintable():
        return f"must be one line of at most 60 characters, got {shown(value)}"
    return None


EXHIBIT_SPEC: dict[str, Key] = {
    "enabled": Key(bool, False),
    # (object, bool): every value, true/false and TOML dates included, reaches _pin, which never shows it
    "pin": Key((object, bool), "", _pin),
    "idle_seconds": Key(float, 90.0, in_range(15, 3600)),
    "still_there_seconds": Key(float, 15.0, in_range(5, 300)),
    "games": Key(list, list(EXHIBIT_GAMES), _games),
    "narration": Key(bool, True),
    "language": Key(str, "en", one_of(*LANGUAGES)),
    "event": Key(str, "", _event),
    # the loop shows the real board's readings ([board] source gpio/serial/camera) instead of the
    # simulated game; ignored with the simulated board (app/ui/exhibit/attract.py)
    "loop_board": Key(bool, False),
    # the loop's QR code and the phone view behind it (the demo's game only: app/web/follow.py); it
    # also needs the web display ([web] enabled, no --web-port 0)
    "phone_view": Key(bool, True),
}


def exhibit_defaults() -> dict[str, Any]:
    return {key: (list(rule.default) if isinstance(rule.default, list) else rule.default)
            for key, rule in EXHIBIT_SPEC.items()}


MISSING_PIN = f"exhibit mode is enabled but has no staff PIN: set it to {PIN_RULE}"


def check_exhibit(where: str, table: Any) -> dict[str, Any]:
    """``[exhibit]`` checked, defaults filled; raises ConfigError (enabled without a PIN too)."""
    exhibit = check_table(f"{where}: [exhibit]", table, EXHIBIT_SPEC)
    if exhibit["enabled"] and not valid_pin(exhibit["pin"]):
        raise ConfigError(f"{where}: [exhibit] pin", MISSING_PIN)
    return exhibit


def fallback_exhibit(where: str, table: Any) -> dict[str, Any]:
    """The safe ``[exhibit]`` for a table that failed :func:`check_exhibit`.

    Each key is checked on its own: good ones are kept, bad ones get their default. A table that
    asks for exhibit mode in any way (``enabled`` present, not ``false``) keeps it on; with a bad
    or missing PIN the PIN is ``""``, which no entry unlocks (see the module docstring)."""
    result = exhibit_defaults()
    if not isinstance(table, Mapping):
        return result
    for key, value in table.items():
        if key in EXHIBIT_SPEC:
            with contextlib.suppress(ConfigError):  # a bad key keeps its default
                result[key] = check_table(where, {key: value}, {key: EXHIBIT_SPEC[key]})[key]
    result["enabled"] = asks_for_exhibit(table)  # a bad PIN kept its default "" above: locked
    return result


def asks_for_exhibit(table: Mapping[str, Any]) -> bool:
    """Whether a bad ``[exhibit]`` table meant exhibit mode: ``enabled`` (or a misspelling such as
    ``enbled``) with any value but ``false``. On a store table a typo must not unlock it."""
    keys = [key for key in table if isinstance(key, str)
            and (key == "enabled" or difflib.get_close_matches(key, ["enabled"], n=1, cutoff=0.75))]
    return any(table[key] is not False for key in keys)


@dataclass(frozen=True)
class ExhibitSettings:
    """What exhibit mode runs with. ``pin == ""`` with ``enabled``: locked, no way to unlock."""

    enabled: bool = False
    pin: str = ""
    idle_seconds: float = 90.0
    still_there_seconds: float = 15.0
    games: tuple[str, ...] = EXHIBIT_GAMES
    narration: bool = True
    language: str = "en"
    event: str = ""
    loop_board: bool = False  # the loop shows the real board's readings, not the simulated game
    phone_view: bool = True  # the loop's QR code: phones follow the game on show (app/web/follow.py)
    problem: str = ""  # why the config's [exhibit] was not used as written ("" = it was)

    def __repr__(self) -> str:  # a log line or a traceback never shows the PIN
        return (f"ExhibitSettings(enabled={self.enabled}, pin={'set' if self.pin else 'unset'}, "
                f"idle_seconds={self.idle_seconds}, games={self.games}, event={self.event!r}, "
                f"loop_board={self.loop_board}, phone_view={self.phone_view})")

    @property
    def locked_out(self) -> bool:
        """Enabled without a usable PIN: the staff screen cannot be unlocked (see the docstring)."""
        return self.enabled and not valid_pin(self.pin)

    @classmethod
    def from_config(cls, config: Config) -> ExhibitSettings:
        """The settings of ``config.exhibit``.

        Raises ConfigError for ``enabled`` without a valid PIN unless the config's loader already
        chose the locked fallback (``config.exhibit_problem`` says why): then the settings are
        enabled and locked, and ``problem`` carries the message for the staff screen."""
        table = {**exhibit_defaults(), **dict(config.exhibit)}
        problem = config.exhibit_problem
        if table["enabled"] and not valid_pin(table["pin"]) and not problem:
            raise ConfigError(f"{config.path or 'config.toml'}: [exhibit] pin", MISSING_PIN)
        return cls(
            enabled=bool(table["enabled"]), pin=str(table["pin"]) if valid_pin(table["pin"]) else "",
            idle_seconds=float(table["idle_seconds"]),
            still_there_seconds=float(table["still_there_seconds"]),
            games=tuple(table["games"]), narration=bool(table["narration"]), language=str(table["language"]),
            event=str(table["event"]), loop_board=bool(table["loop_board"]),
            phone_view=bool(table["phone_view"]), problem=problem,
        )
