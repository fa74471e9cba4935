"""The emulator's little command language, the same for a script file and for the keyboard.

One command per line; ``#`` starts a comment; holes are 0..99 (``row * 10 + column`` from the
top-left as the players see the board). A bare list of holes toggles them, which is what a
person at the keyboard wants most of the time::

    place 12 13      remove 12      toggle 40      set 1 2 3      clear
    wait 0.5         restart        unplug         plug           freeze      thaw
    garbage 20       show           help           quit
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware_bridge.emulator import BoardEmulator

HELP = __doc__.split("::", 1)[1].strip("\n") if __doc__ else ""

HOLE_COMMANDS = ("place", "remove", "toggle", "set")
PLAIN_COMMANDS = ("clear", "restart", "unplug", "plug", "freeze", "thaw", "show", "help", "quit")


class ScriptError(ValueError):
    """A line the emulator cannot understand, with where it is."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass(frozen=True)
class Command:
    verb: str
    holes: tuple[int, ...] = ()
    number: float = 0.0


def parse_line(line: str, where: str = "line", holes: int = 100) -> Command | None:
    """The command on one line, None for a blank or comment line; ScriptError if it is wrong."""
    words = line.split("#", 1)[0].replace(",", " ").split()
    if not words:
        return None
    verb, rest = words[0].lower(), words[1:]
    if verb.isdigit():
        verb, rest = "toggle", words
    if verb in HOLE_COMMANDS:
        if not rest and verb != "set":
            raise ScriptError(where, f"{verb} needs at least one hole")
        return Command(verb, tuple(_hole(word, where, holes) for word in rest))
    if verb in PLAIN_COMMANDS:
        if rest:
            raise ScriptError(where, f"{verb} takes nothing after it, got {' '.join(rest)!r}")
        return Command(verb)
    if verb in ("wait", "garbage"):
        if len(rest) != 1:
            raise ScriptError(where, f"{verb} needs one number")
        try:
            number = float(rest[0])
        except ValueError:
            raise ScriptError(where, f"{verb} needs a number, got {rest[0]!r}") from None
        if not 0 <= number <= 3600 or (verb == "garbage" and number != int(number)):
            raise ScriptError(where, f"{verb} {rest[0]} is out of range")
        return Command(verb, number=number)
    known = ", ".join(HOLE_COMMANDS + PLAIN_COMMANDS + ("wait", "garbage"))
    raise ScriptError(where, f"unknown command {verb!r}; known: {known}")


def _hole(word: str, where: str, holes: int) -> int:
    if not word.isdigit() or not 0 <= int(word) < holes:
        raise ScriptError(where, f"{word!r} is not a hole (0..{holes - 1})")
    return int(word)


def parse_script(text: str, name: str = "script", holes: int = 100) -> list[Command]:
    """Every command of a script, checked before the first one runs (no half-run scripts)."""
    commands = []
    for number, line in enumerate(text.splitlines(), 1):
        command = parse_line(line, f"{name} line {number}", holes)
        if command is not None:
            commands.append(command)
    return commands


def board_picture(pegs: frozenset[int], holes: int = 100, width: int = 10) -> str:
    """The board as text, ``o`` for a peg, ``.`` for an empty hole, rows numbered."""
    rows = []
    for start in range(0, holes, width):
        cells = " ".join("o" if h in pegs else "." for h in range(start, min(start + width, holes)))
        rows.append(f"{start:2d}  {cells}")
    return "\n".join(rows)


class Quit(Exception):
    """The ``quit`` command."""


def execute(emulator: BoardEmulator, command: Command, sleep: Callable[[float], None] = time.sleep) -> str:
    """Carry out one command on a running emulator; the text to show the person (may be empty)."""
    verb = command.verb
    if verb == "place":
        emulator.place(*command.holes)
    elif verb == "remove":
        emulator.remove(*command.holes)
    elif verb == "toggle":
        emulator.set_pegs(emulator.pegs ^ set(command.holes))
    elif verb == "set":
        emulator.set_pegs(command.holes)
    elif verb == "clear":
        emulator.set_pegs(())
    elif verb == "wait":
        sleep(command.number)
        return ""
    elif verb == "garbage":
        emulator.inject(emulator.random_bytes(int(command.number)))
        return f"sent {int(command.number)} random bytes"
    elif verb == "restart":
        emulator.restart()
        return "firmware restarted"
    elif verb == "unplug":
        emulator.unplug()
        return "unplugged"
    elif verb == "plug":
        emulator.plug()
        return f"plugged in on {emulator.port}"
    elif verb == "freeze":
        emulator.freeze()
        return "frozen (no heartbeats)"
    elif verb == "thaw":
        emulator.thaw()
        return "running again"
    elif verb == "help":
        return HELP
    elif verb == "quit":
        raise Quit
    if verb in (*HOLE_COMMANDS, "clear", "show"):
        pegs = sorted(emulator.pegs)
        return f"pegs: {' '.join(map(str, pegs)) or 'none'}\n{board_picture(emulator.pegs, emulator.holes)}"
    return ""
