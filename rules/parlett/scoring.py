"""One deal's entry (bids, premiums, tricks) and its score; the trump the next deal is played in.

Scoring per hand: one point per trick; the contract score to each hand that made its bid, by how
many made theirs (three: 30/20/10; four: 30/20/10 and nothing when all four or none succeed;
five: 50/40/30/20/10); the premium to a successful declarer (30 declare, 60 reveal) or else to
each opponent; five players' declarers +50 or -50; the two-player dummy's special case.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from rules.errors import InvalidActionError
from rules.parlett.bids import Bid
from rules.parlett.cards import Card, Suit
from rules.parlett.premiums import Premium, check_premiums
from rules.parlett.variants import DUMMY, Table, Variant


class Trump(Enum):
    NO_TRUMP = "NT"
    CLUBS = "C"
    HEARTS = "H"
    SPADES = "S"
    DIAMONDS = "D"
    NINES = "nines"  # the four nines as a suit of their own: ♣9 ♥9 ♠9 ♦9

    @property
    def suit(self) -> Suit | None:
        return Suit(self.value) if self.value in "CHSD" else None

    @classmethod
    def of_suit(cls, suit: Suit) -> Trump:
        return cls(suit.value)


# How many fulfilled their contract in the previous deal -> this deal's trump.
TRUMP_BY_SUCCESSES = {3: Trump.CLUBS, 2: Trump.HEARTS, 1: Trump.SPADES, 0: Trump.DIAMONDS}


class DealError(InvalidActionError):
    """A deal that cannot have happened: tricks that don't add up, a missing bid, ..."""


@dataclass(frozen=True)
class DealEntry:
    """What the players tell the scorer about one deal."""

    bids: Mapping[str, Bid]
    tricks: Mapping[str, int]
    premiums: Mapping[str, Premium] = field(default_factory=dict)
    turn_up: Card | None = None  # Original 99
    trump: Trump | None = None  # chosen by the premium bidder (optional rules)


@dataclass(frozen=True)
class DealScore:
    made: dict[str, bool]
    trick_points: dict[str, int]
    contract: dict[str, int]
    premium: dict[str, int]

    @property
    def total(self) -> dict[str, int]:
        return {h: self.trick_points[h] + self.contract[h] + self.premium[h] for h in self.made}

    @property
    def successes(self) -> int:
        return sum(self.made.values())


def check_entry(entry: DealEntry, table: Table) -> None:
    """Raise DealError when the entry contradicts the variant (first problem found)."""
    variant = table.variant
    for what, data in (("bid", entry.bids), ("tricks", entry.tricks)):
        missing = [h for h in table.hands if h not in data]
        unknown = [h for h in data if h not in table.hands]
        if missing:
            raise DealError(f"no {what} for {', '.join(missing)}")
        if unknown:
            raise DealError(f"{what} for {', '.join(unknown)}, who is not at this table")
    for hand, tricks in entry.tricks.items():
        if isinstance(tricks, bool) or not isinstance(tricks, int) or tricks < 0:
            raise DealError(f"{hand}'s tricks must be a whole number from 0, got {tricks!r}")
    total = sum(entry.tricks.values())
    if total != variant.tricks:
        raise DealError(f"the tricks add up to {total}, but {variant.tricks} tricks are played")
    unknown = [p for p in entry.premiums if p not in table.hands]
    if unknown:
        raise DealError(f"premium for {', '.join(unknown)}, who is not at this table")
    check_premiums(entry.premiums, variant)
    for hand, bid in entry.bids.items():
        if bid.shown:
            continue
        # "no-one who fails need show them": only a hidden bid may stay unseen, and it scores failed
        if hand == DUMMY:
            raise DealError("the dummy's bid cards are always turned up at the end of play")
        if hand in entry.premiums:
            raise DealError(f"{hand} played a premium with the bid cards face up, so the bid is known")
    if variant.name == "original":
        if entry.turn_up is None:
            raise DealError("Original 99 needs the turned-up card (turn_up)")
        if entry.turn_up not in variant.pack:
            raise DealError(f"the turned-up card {entry.turn_up} is not in Original 99's pack "
                            "(A K Q J T 9 8 7 6 and the joker)")
    elif entry.turn_up is not None:
        raise DealError("only Original 99 turns up a card for trumps")
    if entry.trump is None and entry.premiums and table.options.declarer_chooses_trumps:
        # "As soon as a premium bidder is established, he announces the trump suit" (seed 002)
        raise DealError("the declarer names the trump suit (declarer_chooses_trumps)")
    if entry.trump is not None:
        if not table.options.chosen_trumps:
            raise DealError("trumps are chosen only with declarer_chooses_trumps or nines_as_trumps")
        if not entry.premiums:
            raise DealError("only a player who declares or reveals may choose trumps")
        if entry.trump is Trump.NINES and not table.options.nines_as_trumps:
            raise DealError("nines as trumps needs the option nines_as_trumps")
        if entry.trump is Trump.NO_TRUMP:
            raise DealError("the declarer chooses a suit (or nines), not no trump")


def score_deal(entry: DealEntry, variant: Variant) -> DealScore:
    """Score a checked entry (see :func:`check_entry`)."""
    hands = list(entry.tricks)
    made = {h: entry.bids[h].fulfilled(entry.tricks[h]) for h in hands}
    successes = sum(made.values())
    contract_each = variant.contract_score.get(successes, 0)
    contract = {h: contract_each if made[h] else 0 for h in hands}
    premium = dict.fromkeys(hands, 0)
    for holder, kind in entry.premiums.items():
        value = variant.declare_premium if kind is Premium.DECLARE else variant.reveal_premium
        if variant.many_declare and not variant.has_dummy:  # five players: +/-50 to the declarer
            premium[holder] += value if made[holder] else -value
        elif made[holder]:
            premium[holder] += value
        else:
            for other in hands:
                if other != holder:
                    premium[other] += value
    if variant.has_dummy:
        live_failed = [p for p in entry.premiums if not made[p]]
        if len(live_failed) == 2:  # both declare and fail: neither gains, the dummy scores 60
            for p in live_failed:
                premium[p] = 0
            premium[DUMMY] = 2 * variant.declare_premium
    return DealScore(made, dict(entry.tricks), contract, premium)


def trump_after(score: DealScore, variant: Variant) -> Trump:
    """The next deal's trump from how many fulfilled their contract in this one."""
    if variant.no_trump_after is not None and score.successes >= variant.no_trump_after:
        return Trump.NO_TRUMP
    return TRUMP_BY_SUCCESSES.get(score.successes, Trump.CLUBS)


def trump_of_turn_up(card: Card) -> Trump:
    """Original 99: a nine or the joker turned up means no trump, else the card's suit."""
    if card.suit is None or card.rank == 9:
        return Trump.NO_TRUMP
    return Trump.of_suit(card.suit)
