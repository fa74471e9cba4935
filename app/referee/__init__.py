"""The UI-free referee for the physical Game of 99 board (see docs/referee.md).

The package names its events, its refusal and its stability window; the referee itself is
:class:`app.referee.core.Referee` (imported from there, so that the board game's sentences can
name the referee's events without importing the referee: no import cycle).
"""

from app.referee.events import (
    ActionAccepted,
    ActionUndone,
    AnnouncementRefused,
    ComputerChose,
    Phase,
    Prompt,
    PromptKind,
    SourceProblem,
    TurnChanged,
)
from app.referee.refusals import RefereeRefusal
from app.referee.stability import StabilityWindow

__all__ = [
    "ActionAccepted",
    "ActionUndone",
    "AnnouncementRefused",
    "ComputerChose",
    "Phase",
    "Prompt",
    "PromptKind",
    "RefereeRefusal",
    "SourceProblem",
    "StabilityWindow",
    "TurnChanged",
]
