"""The UI-free referee for the physical Game of 99 board (see docs/referee.md)."""

from app.referee.core import Referee, RefereeRefusal, describe_action, offence_text, outcome_text
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
from app.referee.stability import StabilityWindow

__all__ = [
    "ActionAccepted",
    "ActionUndone",
    "AnnouncementRefused",
    "ComputerChose",
    "Phase",
    "Prompt",
    "PromptKind",
    "Referee",
    "RefereeRefusal",
    "SourceProblem",
    "StabilityWindow",
    "TurnChanged",
    "describe_action",
    "offence_text",
    "outcome_text",
]
