"""What the referee tells its listeners (the screen, speech, turn LEDs, a buzzer).

Listeners receive either one of the rules' own events (``rules.board99`` ``Played``, ``Penalised``,
``Won``...; published after the action that caused them was committed to the store) or one of the
referee events below. All are frozen dataclasses: values, safe to keep.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Phase(enum.Enum):
    """What the referee is waiting for."""

    ANNOUNCE = "announce"  # the player to move announces PLAY / DRAW / DISCARD
    PLACE_PEG = "place-peg"  # PLAY was announced: waiting for exactly one new peg
    COMPUTER_PEG = "computer-peg"  # a computer chose a square: a person puts its peg there
    REMOVE_PEG = "remove-peg"  # a penalised play: the peg must come out before the penalty applies
    WHO_PLAYED = "who-played"  # a peg appeared without an announcement: who, which card?
    FIX_BOARD = "fix-board"  # the board disagrees with the game: nothing is applied until it agrees
    WAITING = "waiting"  # an announcement is held until the pegs on the board have settled
    OVER = "over"  # won or tied


class PromptKind(enum.Enum):
    INFO = "info"
    ACTION = "action"  # the table must do something (place, remove a peg)
    PROBLEM = "problem"  # fix the board, a refused announcement


@dataclass(frozen=True)
class Prompt:
    """A sentence for the screen (already translated) and the holes it is about (to highlight)."""

    kind: PromptKind
    text: str
    holes: tuple[int, ...] = ()
    phase: Phase = Phase.ANNOUNCE


@dataclass(frozen=True)
class ActionAccepted:
    """An action was committed to the store at ``index``; the rules' events follow it."""

    index: int
    action: Any


@dataclass(frozen=True)
class ActionUndone:
    index: int
    action: Any


@dataclass(frozen=True)
class TurnChanged:
    player: str | None
    computer: bool = False


@dataclass(frozen=True)
class ComputerChose:
    """A computer opponent chose an action; for a play, ``hole`` is where a person puts its peg."""

    player: str
    action: Any
    hole: int | None = None


@dataclass(frozen=True)
class SourceProblem:
    """The board source is not connected (lost, error); readings are ignored until it is."""

    detail: str


@dataclass(frozen=True)
class AnnouncementRefused:
    """A held announcement was refused when the board settled (the screen shows ``text``).

    An announcement made while pegs are still settling is held (``Phase.WAITING``) and judged once
    the board is still: by then the caller that made it has long returned, so a refusal arrives as
    this event instead of a :class:`~app.referee.RefereeRefusal` exception.
    """

    text: str
