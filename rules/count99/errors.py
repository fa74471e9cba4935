"""Why the count keeper refused an action, as precise types (like python-chess's IllegalMoveError)."""

from __future__ import annotations

from rules.errors import InvalidActionError


class Count99Error(InvalidActionError):
    """Any action the rules of Ninety Nine do not allow; the table is unchanged."""


class NotYourTurnError(Count99Error):
    """Someone other than the player on turn tried to act."""


class WrongChoiceError(Count99Error):
    """An Ace or 10 without its choice, a choice the card does not allow, or an unknown card."""


class RoundOverError(Count99Error):
    """A play while no round is running (between rounds or after the game ended)."""


class SetupError(Count99Error):
    """A game setup outside what the rules allow (tokens 1..50, hand size 1..13, 2..8 players)."""
