"""``table99 replay FILE [--json]``: replay any Table99 game record.

The record's ``format`` field picks the game. Each game's replay module (pure, in ``rules``)
exposes ``replay_json(record: dict) -> dict`` and ``replay_text(record: dict) -> str`` and raises
:class:`rules.errors.InvalidRecordError` naming where the record is wrong. Any invalid input exits
with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from rules.errors import InvalidRecordError

REPLAYERS = {
    "table99/board99": "rules.board99.replay",
    "table99/parlett": "rules.parlett.replay",
    "table99/count99": "rules.count99.replay",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a game record (.json)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def load_record(path: Path) -> dict[str, Any]:
    """Read a record file, raising InvalidRecordError with the file and position on failure."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidRecordError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InvalidRecordError(str(path), f"not UTF-8 text (byte {exc.start})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(
            f"{path}:{exc.lineno}:{exc.colno}", f"not valid JSON: {exc.msg}"
        ) from exc
    except RecursionError as exc:
        raise InvalidRecordError(str(path), "not usable: lists or objects nested too deep") from exc
    except ValueError as exc:  # e.g. a number of thousands of digits
        raise InvalidRecordError(str(path), f"not usable: {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidRecordError(str(path), "a record is a JSON object")
    return data


def replay(record: dict[str, Any], *, as_json: bool) -> str:
    fmt = record.get("format")
    if not isinstance(fmt, str) or fmt not in REPLAYERS:
        known = ", ".join(sorted(REPLAYERS))
        raise InvalidRecordError("format", f"unknown format {fmt!r} (expected one of {known})")
    module = importlib.import_module(REPLAYERS[fmt])
    try:
        if as_json:
            return json.dumps(module.replay_json(record), ensure_ascii=False)
        return str(module.replay_text(record))
    except InvalidRecordError:
        raise
    except RecursionError as exc:
        raise InvalidRecordError("record", "nested too deep to replay") from exc
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as exc:
        # The replay modules check every field they know; this is the net under them, so that a
        # record nobody thought of is still one line, never a traceback.
        raise InvalidRecordError("record", f"cannot be replayed ({type(exc).__name__}: {exc})") from exc


def main(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.file)
        output = replay(record, as_json=args.json)
    except InvalidRecordError as exc:
        print(one_line(f"table99 replay: {args.file}: {exc}"), file=sys.stderr)
        return 2
    print(output)
    return 0


def one_line(text: str, limit: int = 400) -> str:
    """A message on one line: a player named "Ann\\nBen" must not make it two; a 5,000-digit
    number must not make it a page."""
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 3] + "..."
