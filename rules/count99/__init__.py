"""The adding card game Ninety Nine (Quentin C and RS Games rule sets).

``cards`` says what each card does to the count; ``table`` is the count keeper (a fold over plays,
no knowledge of hands, so it serves a real deck on a real table); ``deal`` adds the deck and hands
for games against the computer; ``players`` holds the computer players; ``record`` and ``replay``
read and write game records.
"""

from rules.count99.cards import CARD_NAMES, Effect, Variant, card_effect, choices_for
from rules.count99.errors import Count99Error, NotYourTurnError, RoundOverError, WrongChoiceError
from rules.count99.table import Setup, Table

__all__ = [
    "CARD_NAMES",
    "Count99Error",
    "Effect",
    "NotYourTurnError",
    "RoundOverError",
    "Setup",
    "Table",
    "Variant",
    "WrongChoiceError",
    "card_effect",
    "choices_for",
]
