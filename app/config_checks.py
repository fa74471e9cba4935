"""The vocabulary every config table is checked with: keys, their types and limits, and one error shape.

Kept apart from :mod:`app.config` so that the tables checked elsewhere (a board source's options,
the exhibit's ``[exhibit]``) use the same words without importing the config loader, which imports
them: every message reads ``config.toml: [board.serial] baud: expected an integer, got "fast"``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

LANGUAGES = ("en", "de")


class ConfigError(ValueError):
    """A config file that cannot be used, with the file and the key or line that is wrong."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for a message: one line, short, and safe for a 5,000-digit number."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # int too long for str(), or a table nested too deep
        text = f"<a {type(value).__name__} too large to show>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _type_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


@dataclass(frozen=True)
class Key:
    """One allowed key: its type, default, and an optional check returning an error or None."""

    kind: type | tuple[type, ...]
    default: Any = None
    check: Callable[[Any], str | None] | None = None


def one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in choices else f"must be one of {', '.join(choices)}, got {shown(value)}"

    return check


def in_range(low: float, high: float) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if low <= value <= high else f"must be between {low} and {high}, got {shown(value)}"

    return check


def check_table(
    where: str, table: Mapping[str, Any], spec: Mapping[str, Key], *, subtables: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Validate ``table`` against ``spec``; return a dict with defaults filled in.

    Unknown keys are errors with a "did you mean" hint: a misspelt key silently ignored is the
    worst kind of config bug. Names in ``subtables`` are allowed and passed through untouched.
    """
    if not isinstance(table, Mapping):  # a string's text is not shown: it may be a PIN or a password
        got = "a string" if isinstance(table, str) else shown(table)
        raise ConfigError(where, f"expected a table, got {got}")
    result: dict[str, Any] = {}
    for key, value in table.items():
        if key in subtables:
            result[key] = value
            continue
        if key not in spec:
            close = difflib.get_close_matches(key, list(spec) + list(subtables), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            allowed = ", ".join([*sorted(spec), *(f"[{name}]" for name in subtables)])
            raise ConfigError(f"{where} {key}", f"unknown key{hint}; allowed: {allowed}")
        rule = spec[key]
        kinds = rule.kind if isinstance(rule.kind, tuple) else (rule.kind,)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if not ok and float in kinds and isinstance(value, int) and not isinstance(value, bool):
            try:
                value, ok = float(value), True
            except OverflowError as exc:
                raise ConfigError(f"{where} {key}", "number too large") from exc
        if not ok:
            raise ConfigError(f"{where} {key}", f"expected {_type_name(rule.kind)}, got {shown(value)}")
        if rule.check is not None:
            try:
                problem = rule.check(value)
            except (ValueError, OverflowError, TypeError, RecursionError):  # e.g. a 5,000-digit number
                problem = f"cannot be used: {shown(value)}"
            if problem is not None:
                raise ConfigError(f"{where} {key}", problem)
        result[key] = value
    for key, rule in spec.items():
        result.setdefault(key, rule.default)
    return result
