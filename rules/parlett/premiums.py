"""Premium bids: declare (bid cards face up) and reveal (hand face up too).

Three and four players: only one player may hold a premium. A reveal overcalls a declaration
wherever it sits; between equal offers the player nearest the dealer's left wins, the dealer last.
:func:`resolve_offers` applies that priority to offers made informally (everybody says so at once);
:class:`Announcements` is Parlett's formal procedure from *Original Card Games* (1977), in turn
from the dealer's left, where an overcalled declarer may raise to a revelation.

Five players: any number may declare (+50 made, -50 failed), nobody reveals. Two players: either or
both may declare, nobody reveals, the dummy never does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from rules.errors import InvalidActionError
from rules.parlett.variants import DUMMY, Variant


class Premium(Enum):
    DECLARE = "declare"
    REVEAL = "reveal"


def priority_order(players: Sequence[str], dealer: str) -> tuple[str, ...]:
    """Live players from the dealer's left round to the dealer, who comes last."""
    start = players.index(dealer) + 1
    return tuple(players[(start + i) % len(players)] for i in range(len(players)))


class PremiumError(InvalidActionError):
    """An announcement the rules do not allow (two revealers, a reveal with five players...)."""


def check_premiums(premiums: Mapping[str, Premium], variant: Variant) -> None:
    """The premiums *established* for a deal must be possible in this variant."""
    if DUMMY in premiums and variant.has_dummy:
        raise PremiumError("the dummy never declares")
    if not variant.can_reveal and Premium.REVEAL in premiums.values():
        raise PremiumError(f"nobody may reveal with {variant.players} players")
    if not variant.many_declare and len(premiums) > 1:
        kinds = sorted(p.value for p in premiums.values())
        what = "two revealers" if kinds.count("reveal") > 1 else "more than one premium"
        raise PremiumError(f"{what}: only one player may declare or reveal")


def resolve_offers(
    offers: Mapping[str, Premium], players: Sequence[str], dealer: str, variant: Variant
) -> dict[str, Premium]:
    """Who holds a premium when several offer at once (the informal way)."""
    if variant.many_declare:
        if Premium.REVEAL in offers.values():
            raise PremiumError(f"nobody may reveal with {variant.players} players")
        return dict(offers)
    order = priority_order(players, dealer)
    for kind in (Premium.REVEAL, Premium.DECLARE):
        for player in order:
            if offers.get(player) is kind:
                if kind is Premium.REVEAL and not variant.can_reveal:
                    raise PremiumError(f"nobody may reveal with {variant.players} players")
                return {player: kind}
    return {}


class Announcements:
    """Parlett's formal overcall procedure for one deal (three or four players).

    Each player from the dealer's left has one option: ``call(player, None | DECLARE | REVEAL)``.
    An offer to declare stands unless a later player offers to reveal; then the overcalled
    declarer alone may raise (``call(declarer, REVEAL)``, or ``None`` to let the reveal stand).
    ``waiting_for`` names whose call it is; ``result`` is final once ``done``.
    """

    def __init__(self, players: Sequence[str], dealer: str, variant: Variant) -> None:
        if variant.many_declare or not variant.can_reveal:
            raise PremiumError("the formal procedure is for three or four players")
        self._order = priority_order(players, dealer)
        self._turn = 0
        self.holder: str | None = None
        self.kind: Premium | None = None
        self._overcalled: str | None = None  # a declarer who may now raise

    @property
    def done(self) -> bool:
        return self.waiting_for is None

    @property
    def waiting_for(self) -> str | None:
        if self._overcalled is not None:
            return self._overcalled
        if self._turn < len(self._order) and self.kind is not Premium.REVEAL:
            return self._order[self._turn]
        return None

    @property
    def result(self) -> dict[str, Premium]:
        return {} if self.holder is None or self.kind is None else {self.holder: self.kind}

    def call(self, player: str, offer: Premium | None) -> None:
        if player != self.waiting_for:
            raise PremiumError(f"it is {self.waiting_for or 'nobody'}'s call, not {player}'s")
        if self._overcalled is not None:  # the overcalled declarer's answer
            if offer is Premium.REVEAL:
                self.holder, self.kind = player, Premium.REVEAL
            elif offer is not None:
                raise PremiumError(f"{player} can only raise to reveal or let the reveal stand")
            self._overcalled = None
            return
        self._turn += 1
        if offer is None:
            return
        if offer is Premium.DECLARE:
            if self.holder is None:
                self.holder, self.kind = player, offer
                return
            raise PremiumError(f"{self.holder} has declared already; {player} may only overcall by revealing")
        overcalled = self.holder if self.kind is Premium.DECLARE else None
        self.holder, self.kind = player, Premium.REVEAL
        self._overcalled = overcalled
