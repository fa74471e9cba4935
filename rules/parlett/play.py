"""The trick-play engine: a seeded deal, bid cards laid aside, follow-suit legality, trick winners.

For practice and for checking the scorer: ``state = deal(variant, seed=7, dealer=0, trump=...)``,
then ``lay_aside(state, seat, cards)`` for every hand, then ``play(state, card)`` until
``state.done``. Every step is checked (``IllegalPlayError``) and returns a new state.

Seats are hands in playing order (each seat's left is the next). The two-player game has seats
0 and 1 for the live players and seat 2 for the dummy, whose cards are played by a live player:
the non-dealer leads, the dealer plays second, the non-dealer plays third from dummy; whoever wins
a trick leads to the next (from the dummy if the dummy won, then playing third from hand).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from rules.errors import InvalidActionError
from rules.parlett.bids import Bid, bid_from_suits
from rules.parlett.cards import Card, Suit
from rules.parlett.scoring import Trump
from rules.parlett.variants import Variant

NINES = "nines"  # the effective suit of a nine when nines are trumps
_NINE_ORDER = {Suit.CLUBS: 4, Suit.HEARTS: 3, Suit.SPADES: 2, Suit.DIAMONDS: 1}


class IllegalPlayError(InvalidActionError):
    """Not this seat's turn, a card not held, a revoke, or bid cards that cannot be laid aside."""


@dataclass(frozen=True)
class PlayState:
    variant: Variant
    trump: Trump
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    bid_cards: tuple[tuple[Card, ...] | None, ...]
    turn_up: Card | None = None  # Original 99: the joker in a hand stands for this card
    unbidden: bool = False
    leader: int = 0
    trick: tuple[tuple[int, Card], ...] = ()
    tricks_won: tuple[int, ...] = ()
    played: tuple[tuple[tuple[int, Card], ...], ...] = ()  # finished tricks in order
    dummy_controller: int = 0  # two players: the live seat playing the dummy's cards

    # -- reading the state ----------------------------------------------------------------------
    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def bidding(self) -> bool:
        return any(b is None for b in self.bid_cards)

    @property
    def done(self) -> bool:
        return len(self.played) == self.variant.tricks

    def order(self) -> tuple[int, ...]:
        """The seats in the order they play to the current trick."""
        if self.variant.has_dummy:
            dummy = self.seats - 1
            if self.leader == dummy:
                return (dummy, 1 - self.dummy_controller, self.dummy_controller)
            return (self.leader, 1 - self.leader, dummy)
        return tuple((self.leader + i) % self.seats for i in range(self.seats))

    @property
    def to_play(self) -> int | None:
        if self.bidding or self.done:
            return None
        return self.order()[len(self.trick)]

    def controller(self, seat: int) -> int:
        """Which seat's player decides for ``seat`` (the dummy is played by a live player)."""
        if self.variant.has_dummy and seat == self.seats - 1:
            return self.dummy_controller
        return seat

    def bid(self, seat: int) -> Bid | None:
        cards = self.bid_cards[seat]
        if cards is None or len(cards) != 3:  # not laid aside yet (unbidden: until play ends)
            return None
        return bid_from_suits("".join(self.natural(c).suit.value for c in cards  # type: ignore[union-attr]
                                      ), self.variant)

    # -- card semantics ---------------------------------------------------------------------------
    def natural(self, card: Card) -> Card:
        """The card a joker stands for (the turned-up card); any other card itself."""
        if card.is_joker and self.turn_up is not None and not self.turn_up.is_joker:
            return self.turn_up
        return card

    def suit_of(self, card: Card) -> str:
        """The suit a card follows and wins in: its own, or "nines" when nines are trumps."""
        real = self.natural(card)
        if self.trump is Trump.NINES and real.rank == 9 and real.suit is not None:
            return NINES
        return real.suit.value if real.suit is not None else "joker"

    def strength(self, card: Card) -> int:
        real = self.natural(card)
        if self.suit_of(card) == NINES and real.suit is not None:
            return _NINE_ORDER[real.suit]
        return real.rank

    def trump_suit(self) -> str | None:
        if self.trump is Trump.NINES:
            return NINES
        suit = self.trump.suit
        return suit.value if suit is not None else None

    def legal(self) -> tuple[Card, ...]:
        seat = self.to_play
        if seat is None:
            return ()
        hand = self.hands[seat]
        if not self.trick:
            return hand
        led = self.suit_of(self.trick[0][1])
        following = tuple(c for c in hand if self.suit_of(c) == led)
        return following or hand

    def trick_winner(self, trick: tuple[tuple[int, Card], ...]) -> int:
        """Highest trump, else highest of the suit led; of two equal cards (a joker) the first."""
        led = self.suit_of(trick[0][1])
        trump = self.trump_suit()
        contenders = [t for t in trick if self.suit_of(t[1]) == trump] or [
            t for t in trick if self.suit_of(t[1]) == led]
        best = contenders[0]
        for seat_card in contenders[1:]:
            if self.strength(seat_card[1]) > self.strength(best[1]):
                best = seat_card
        return best[0]

    # -- changing it ----------------------------------------------------------------------------
    def lay_aside(self, seat: int, cards: tuple[Card, ...]) -> PlayState:
        if not 0 <= seat < self.seats:
            raise IllegalPlayError(f"seat {seat} does not exist (seats 0 to {self.seats - 1})")
        if not self.bidding or self.bid_cards[seat] is not None:
            raise IllegalPlayError(f"seat {seat} has laid aside its bid cards already")
        if len(cards) != 3 or len(set(cards)) != 3 or any(c not in self.hands[seat] for c in cards):
            raise IllegalPlayError(f"seat {seat} must lay aside three cards it holds")
        hands = list(self.hands)
        hands[seat] = tuple(c for c in self.hands[seat] if c not in cards)
        bids = list(self.bid_cards)
        bids[seat] = tuple(cards)
        return replace(self, hands=tuple(hands), bid_cards=tuple(bids))

    def play(self, card: Card) -> PlayState:
        seat = self.to_play
        if seat is None:
            raise IllegalPlayError("nobody plays now (bid cards still to lay aside, or play is over)")
        if card not in self.hands[seat]:
            raise IllegalPlayError(f"seat {seat} does not hold {card}")
        if card not in self.legal():
            raise IllegalPlayError(f"seat {seat} must follow suit; {card} is a revoke")
        hands = list(self.hands)
        hands[seat] = tuple(c for c in self.hands[seat] if c != card)
        trick = (*self.trick, (seat, card))
        state = replace(self, hands=tuple(hands), trick=trick)
        if len(trick) < self.seats:
            return state
        winner = self.trick_winner(trick)
        won = list(self.tricks_won)
        won[winner] += 1
        controller = self.dummy_controller
        if self.variant.has_dummy:
            dummy = self.seats - 1
            controller = self.controller(dummy) if winner == dummy else winner
        state = replace(state, trick=(), tricks_won=tuple(won), played=(*self.played, trick), leader=winner,
                        dummy_controller=controller)
        if state.done and self.unbidden:  # the cards still held are the bid
            state = replace(state, bid_cards=tuple(h for h in state.hands))
        return state


def deal(variant: Variant, *, seed: int, dealer: int = 0, trump: Trump = Trump.NO_TRUMP,
         unbidden: bool = False) -> PlayState:
    """Shuffle with ``seed`` and deal; the two-player dummy's top three cards become its bid."""
    if not 0 <= dealer < variant.players:  # the dummy (seat 2 of the two-player game) never deals
        raise IllegalPlayError(f"dealer {dealer} is not a player's seat (0 to {variant.players - 1})")
    cards = list(variant.pack)
    random.Random(seed).shuffle(cards)
    size = variant.hand_size
    hands = [tuple(cards[i * size:(i + 1) * size]) for i in range(variant.hands)]
    turn_up = cards[variant.hands * size] if len(cards) > variant.hands * size else None
    if turn_up is not None and variant.name == "original":
        trump = Trump.NO_TRUMP if turn_up.is_joker or turn_up.rank == 9 else Trump.of_suit(turn_up.suit)  # type: ignore[arg-type]
    bids: list[tuple[Card, ...] | None] = [None] * variant.hands
    if variant.has_dummy:
        leader = 1 - dealer
        dummy_bid = hands[-1][:3]
        hands[-1] = hands[-1][3:]
        bids[-1] = dummy_bid
    else:
        leader = (dealer + 1) % variant.players
    state = PlayState(variant, trump, dealer, tuple(hands), tuple(bids), turn_up if variant.name == "original"
                      else None, unbidden, leader, (), (0,) * variant.hands, (), leader)
    if unbidden:
        # nothing is laid aside; the engine fills the bid cards with what is left after play
        state = replace(state, bid_cards=tuple(() for _ in hands))
    return state
