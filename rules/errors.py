"""The root of every error the rules raise, so callers can catch "the rules said no" in one place."""

from __future__ import annotations


class RulesError(Exception):
    """Base class of all errors raised by :mod:`rules`."""


class InvalidActionError(RulesError, ValueError):
    """An action that cannot happen at a real table or contradicts what is known.

    Raised by checked application; the state is unchanged. Subclasses name the reason.
    """


class InvalidRecordError(RulesError, ValueError):
    """A game record that is malformed or does not replay.

    ``where`` says where in the record (``"action 7"``, ``"deal 3"``, ``"round 2, play 5"``) so
    the message can point a person at the line to fix.
    """

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.where = where
        self.reason = reason
