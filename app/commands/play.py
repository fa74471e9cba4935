"""``table99 play board99|count99``: play against the computer in the terminal."""

from __future__ import annotations

import argparse
import importlib

GAMES = {
    "board99": ("app.terminal.board99", "the Game of 99 against computer opponents"),
    "count99": ("app.terminal.count99", "the adding game Ninety Nine against computer players"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for name, (module, help_text) in GAMES.items():
        game_parser = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(module).add_arguments(game_parser)


def main(args: argparse.Namespace) -> int:
    module = importlib.import_module(GAMES[args.game][0])
    return int(module.main(args) or 0)
