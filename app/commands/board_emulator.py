"""``table99 board-emulator``: a virtual serial board on a pseudo-terminal (firmware_bridge/emulator.py).

Prints the port to put in ``[board.serial] port``, then takes pegs from ``--script`` and/or the
keyboard (``help`` lists the commands). The app connects to it exactly as to a real board.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.emulator_script import Quit, ScriptError, execute, parse_line, parse_script


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--link", metavar="PATH",
                        help="keep a symlink at PATH pointing at the board's pty (like the udev name)")
    parser.add_argument("--script", metavar="FILE", type=Path, help="commands to run first (see 'help')")
    parser.add_argument("--pegs", default="", help="pegs on the board at start, e.g. 0,11,22")
    parser.add_argument("--heartbeat-ms", type=int, default=500, help="snapshot repeat period (500)")
    parser.add_argument("--baud", type=int, default=115200,
                        help="pace output like a UART at this rate (0: as fast as the pty goes)")
    parser.add_argument("--no-keyboard", action="store_true",
                        help="do not read commands from stdin; stop when the script ends")


def main(args: argparse.Namespace) -> int:
    try:
        script = args.script.read_text(encoding="utf-8") if args.script else ""
        commands = parse_script(script, str(args.script))
        initial = parse_line(f"set {args.pegs}", "--pegs")
    except OSError as exc:
        print(f"{args.script}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except ScriptError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.heartbeat_ms < 10 or args.heartbeat_ms > 1000:
        print("--heartbeat-ms: must be between 10 and 1000 (the protocol promises one a second)",
              file=sys.stderr)
        return 2
    emulator = BoardEmulator(link=args.link, heartbeat_ms=args.heartbeat_ms, baud=max(0, args.baud))
    if initial is not None:
        emulator.set_pegs(initial.holes)
    try:
        emulator.start()
    except OSError as exc:
        print(f"cannot create the board's port: {exc}", file=sys.stderr)
        return 1
    try:
        print(f"board emulator on {emulator.pty_name}" + (f" (link {args.link})" if args.link else ""))
        print(f'connect with  [board.serial] port = "{emulator.port}"', flush=True)
        for command in commands:
            say(execute(emulator, command))
        if args.no_keyboard:
            return 0
        print("type 'help' for commands, 'quit' to stop", flush=True)
        for number, line in enumerate(sys.stdin, 1):
            try:
                typed = parse_line(line, f"input line {number}")
                if typed is not None:
                    say(execute(emulator, typed))
            except ScriptError as exc:
                print(exc.reason, flush=True)
            except ValueError as exc:
                print(exc, flush=True)
        return 0
    except Quit:
        return 0
    finally:
        emulator.stop()


def say(text: str) -> None:
    if text:
        print(text, flush=True)
