"""The Game of 99's errors: invalid input (with the action and the reason) and bad setups.

A penalty is NOT an error: an offence from the rules is applied and reported as an event.
Errors are for what cannot happen at a real table or contradicts what is known.
"""

from __future__ import annotations

from rules.errors import InvalidActionError, RulesError


class SetupError(RulesError, ValueError):
    """A game setup that cannot be played (players, sides, hands, deck)."""


class LayoutError(SetupError):
    """A board layout that is not a permutation of 0..99 or an unknown name."""


class Board99ActionError(InvalidActionError):
    """An action the engine refuses; ``action`` is the refused action, ``reason`` says why."""

    def __init__(self, action: object, reason: str) -> None:
        describe = getattr(action, "describe", None)
        what = describe() if callable(describe) else repr(action)
        super().__init__(f"{what}: {reason}")
        self.action = action
        self.reason = reason


class GameOverError(Board99ActionError):
    """An action after the game has ended."""


class UnknownPlayerError(Board99ActionError):
    """An action by someone who is not in the game."""


class PlayerOutError(Board99ActionError):
    """An action by a player who is out of the game (5of99 dead hand)."""


class BadNumberError(Board99ActionError):
    """A card or square number outside 0..99."""


class SquareTakenError(Board99ActionError):
    """A peg in a square that already holds one."""


class CardUnavailableError(Board99ActionError):
    """A card that is face up, known to be in another hand or in the deck, or not held."""


class NoCardsError(Board99ActionError):
    """A play or discard by a player holding no cards."""


class EmptyDeckError(Board99ActionError):
    """A draw when the deck is empty."""


class NotInRulesetError(Board99ActionError):
    """An action the ruleset does not have (discard in 5of99, dead hand in classic)."""


class DrawMismatchError(Board99ActionError):
    """A drawn card that differs from the known top of the deck."""


class NotDeadHandError(Board99ActionError):
    """A revealed "dead hand" that is not all dead, or not the player's whole hand."""
