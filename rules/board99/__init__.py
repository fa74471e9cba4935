"""The Game of 99 (Washburne 1963 "classic" and the 5of99 edition): pure, typed rules.

A game is a fold of actions over a :class:`Setup`: ``state, events = apply(state, action)``.
See ``docs/board99.md`` for the rules decisions and the record format.
"""

# The replay output module must be imported before ``replay`` (the function) is bound below:
# importing a submodule later would overwrite the package attribute ``replay`` with the module.
import rules.board99.replay as _replay_output  # noqa: F401
from rules.board99.actions import Action, Discard, Draw, Play, RevealDeadHand
from rules.board99.errors import (
    BadNumberError,
    Board99ActionError,
    CardUnavailableError,
    DrawMismatchError,
    EmptyDeckError,
    GameOverError,
    LayoutError,
    NoCardsError,
    NotDeadHandError,
    NotInRulesetError,
    PlayerOutError,
    SetupError,
    SquareTakenError,
    UnknownPlayerError,
)
from rules.board99.events import (
    OFFENCES,
    Discarded,
    Drew,
    Event,
    Offence,
    Outcome,
    Penalised,
    Penalty,
    Played,
    PlayerOut,
    Tied,
    TurnSkipped,
    Won,
)
from rules.board99.layouts import NAMED as NAMED_LAYOUTS
from rules.board99.layouts import Layout, parse_layout
from rules.board99.record import (
    Record,
    action_from_json,
    action_to_json,
    record_from_json,
    record_to_json,
    replay,
    setup_from_json,
    setup_to_json,
)
from rules.board99.setup import Ruleset, Setup, default_sides, make_setup
from rules.board99.state import (
    GameState,
    Hand,
    PlayerView,
    PublicSetup,
    apply,
    apply_unchecked,
    check,
    is_valid,
)

__all__ = [
    "NAMED_LAYOUTS",
    "OFFENCES",
    "Action",
    "BadNumberError",
    "Board99ActionError",
    "CardUnavailableError",
    "Discard",
    "Discarded",
    "Draw",
    "DrawMismatchError",
    "Drew",
    "EmptyDeckError",
    "Event",
    "GameOverError",
    "GameState",
    "Hand",
    "Layout",
    "LayoutError",
    "NoCardsError",
    "NotDeadHandError",
    "NotInRulesetError",
    "Offence",
    "Outcome",
    "Penalised",
    "Penalty",
    "Play",
    "Played",
    "PlayerOut",
    "PlayerOutError",
    "PlayerView",
    "PublicSetup",
    "Record",
    "RevealDeadHand",
    "Ruleset",
    "Setup",
    "SetupError",
    "SquareTakenError",
    "Tied",
    "TurnSkipped",
    "UnknownPlayerError",
    "Won",
    "action_from_json",
    "action_to_json",
    "apply",
    "apply_unchecked",
    "check",
    "default_sides",
    "is_valid",
    "make_setup",
    "parse_layout",
    "record_from_json",
    "record_to_json",
    "replay",
    "setup_from_json",
    "setup_to_json",
]
