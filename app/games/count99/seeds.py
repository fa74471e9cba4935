"""Shuffle seeds for Ninety Nine games dealt by the app (against the computer, with phones).

A seed is 128 bits from the operating system's secure source (:mod:`secrets`). A small seed drawn
from the Mersenne Twister (the old ``random.randrange(1 << 30)``) could be found offline from a
player's own first hand and the public record of plays, and with it every other hand and every card
still to come. The seed is stored with the game (so it replays) and never leaves the table.
"""

from __future__ import annotations

import secrets

SEED_BITS = 128


def new_seed() -> int:
    """A fresh shuffle seed no player can search for."""
    return secrets.randbits(SEED_BITS)
