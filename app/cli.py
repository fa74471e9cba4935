"""The ``table99`` command.

Each subcommand lives in its own module under :mod:`app.commands` and exposes
``add_arguments(parser)`` and ``main(args) -> int``. Modules are imported only when their
subcommand runs (``--help`` lists them from the table below), so a broken optional dependency in
one command never stops the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module under app.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("run_app", "start the touchscreen app (simulated board by default)"),
    "play": ("play", "play in the terminal: board99 or count99 against the computer"),
    "replay": ("replay", "replay a game record (board99, parlett or count99) and print the outcome"),
    "sensors": ("sensors", "show the live hall-sensor board in the terminal"),
    "board-emulator": ("board_emulator", "run a virtual serial board on a pseudo-terminal"),
    "vision": ("vision", "read, calibrate and watch the camera board reader"),
    "print-markers": ("print_markers", "write printable ArUco marker stickers (PDF/PNG)"),
    "config": ("config", "check a config file and print what it means"),
    "web": ("web", "serve the web display without the touchscreen (phones, tablets, TV)"),
    "exhibit": ("exhibit", "exhibitor mode: 'unlock' gives the staff the PIN pad back after wrong tries"),
    "hub": ("hub", "the club's hub: every table live on one screen, and the evening's standings"),
}


def _load(name: str):  # type: ignore[no-untyped-def]
    module, _ = COMMANDS[name]
    return importlib.import_module(f"app.commands.{module}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="table99", description="Table99: companion for the 99 games")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        if name == only:
            _load(name).add_arguments(sub_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(_load(args.command).main(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
