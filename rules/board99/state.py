"""The game state and ``apply``: a game is a fold of actions over the setup.

The state is immutable; ``apply`` returns a new state and the events the action caused. The
checked ``apply`` refuses invalid input with a precise error and leaves the state untouched; the
unchecked ``apply_unchecked`` trusts its caller (computer players, replays already checked) and
skips the validation. Offences from the rules (out of turn, illegal play or draw) are not errors:
they are applied as the 1963 rules say and reported as ``Penalised`` events.

Long because the checked ``apply`` and the unchecked one must agree move for move: the state,
its checks and its transitions stay in one module so a change to one is seen beside the other.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

import rules.board99.errors as err
from rules.board99.actions import Action, Discard, Draw, Play, RevealDeadHand
from rules.board99.events import (
    Discarded,
    Drew,
    Event,
    Offence,
    Outcome,
    Penalised,
    Penalty,
    PenaltyLog,
    Played,
    PlayerOut,
    Tied,
    TurnSkipped,
    Won,
)
from rules.board99.lines import run_through
from rules.board99.setup import CARDS, Ruleset, Setup

EMPTY = -1


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand as the engine knows it: the cards it has seen, and how many more are hidden."""

    known: tuple[int, ...] = ()
    hidden: int = 0

    @property
    def count(self) -> int:
        return len(self.known) + self.hidden


@dataclass(frozen=True, slots=True)
class GameState:
    """One moment of a game. Build the first with :meth:`new`; get the next with :func:`apply`."""

    setup: Setup
    holes: tuple[int, ...]  # by hole: the seat whose peg is there, or -1
    hands: tuple[Hand, ...]  # by seat
    deck: tuple[int, ...] | None  # known order, top first (digital play); None when unknown
    face_up: tuple[int, ...]  # played, discarded and revealed cards, in order
    in_deck: frozenset[int]  # cards known to be in the deck (shown and cut back in)
    skips: tuple[int, ...]  # by seat: lost turns still to come
    out_seats: frozenset[int]
    turn: int | None  # seat to move
    outcome: Outcome | None
    penalties: PenaltyLog  # oldest first; grows in O(1) (a tuple made long records quadratic)
    ply: int  # actions applied so far

    @classmethod
    def new(cls, setup: Setup) -> GameState:
        n = len(setup.players)
        known = [tuple(setup.hands.get(p, ())) for p in setup.players]
        deck = setup.deck
        hidden = [0] * n
        deal = setup.ruleset.deal
        first = setup.seat(setup.first)
        if deal:
            if deck is not None:
                hands = [list(k) for k in known]
                cards = list(deck)
                for _ in range(deal):  # one card at a time round the table, from the first player
                    for i in range(n):
                        seat = (first + i) % n
                        if len(hands[seat]) < deal:
                            hands[seat].append(cards.pop(0))
                known = [tuple(h) for h in hands]
                deck = tuple(cards)
            else:
                hidden = [deal - len(k) for k in known]
        return cls(
            setup=setup,
            holes=(EMPTY,) * CARDS,
            hands=tuple(Hand(tuple(sorted(k)), h) for k, h in zip(known, hidden, strict=True)),
            deck=deck,
            face_up=(),
            in_deck=frozenset(),
            skips=(0,) * n,
            out_seats=frozenset(),
            turn=first,
            outcome=None,
            penalties=PenaltyLog(),
            ply=0,
        )

    # -- what anyone at the table can see -------------------------------------------------------

    @property
    def pegs(self) -> Mapping[int, str]:
        """Square number -> the player whose peg is on it."""
        layout, players = self.setup.layout, self.setup.players
        return MappingProxyType(
            {layout.number_at(h): players[s] for h, s in enumerate(self.holes) if s != EMPTY}
        )

    @property
    def to_move(self) -> str | None:
        return None if self.turn is None else self.setup.players[self.turn]

    @property
    def deck_count(self) -> int:
        return CARDS - len(self.face_up) - sum(h.count for h in self.hands)

    @property
    def out(self) -> frozenset[str]:
        return frozenset(self.setup.players[s] for s in self.out_seats)

    def hand_count(self, player: str) -> int:
        return self.hands[self.setup.seat(player)].count

    def known_hand(self, player: str) -> tuple[int, ...]:
        """The cards of ``player``'s hand that the engine knows (all of them in digital play)."""
        return self.hands[self.setup.seat(player)].known

    def side_of(self, player: str) -> tuple[str, ...]:
        return self.setup.side_of(player)

    def empty_squares(self) -> tuple[int, ...]:
        numbers = self.setup.layout.numbers
        return tuple(sorted([numbers[h] for h, s in enumerate(self.holes) if s == EMPTY]))

    def legal_squares(self, card: int) -> tuple[int, ...]:
        """Empty squares a card may take: those numbered ``card`` or higher."""
        return tuple(sq for sq in self.empty_squares() if sq >= card)

    def is_dead(self, card: int) -> bool:
        """A card is dead when no empty square numbered at least the card is left."""
        return not self.legal_squares(card)

    def can_draw(self, player: str) -> bool:
        """Whether ``player`` may draw now without penalty."""
        seat = self.setup.seat(player)
        return (
            self.outcome is None
            and self.turn == seat
            and self.deck_count > 0
            and self.hands[seat].count < self.setup.hand_limit
        )

    def view_for(self, player: str) -> PlayerView:
        """What ``player``'s seat may see: the board, face-up cards, own hand, others' counts."""
        seat = self.setup.seat(player)
        return PlayerView(
            player=player,
            setup_public=PublicSetup(
                self.setup.ruleset, self.setup.layout, self.setup.players, self.setup.sides
            ),
            holes=self.holes,
            hand=self.hands[seat].known,
            hidden_in_hand=self.hands[seat].hidden,
            hand_counts=tuple(h.count for h in self.hands),
            deck_count=self.deck_count,
            face_up=self.face_up,
            out=self.out,
            to_move=self.to_move,
            skips=self.skips,
            outcome=self.outcome,
        )


@dataclass(frozen=True, slots=True)
class PublicSetup:
    """The part of the setup everyone knows (never the deck or others' hands)."""

    ruleset: Ruleset
    layout: object  # Layout; typed loosely to keep this module's import graph flat
    players: tuple[str, ...]
    sides: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view: computer players decide from this alone, so hidden cards cannot leak."""

    player: str
    setup_public: PublicSetup
    holes: tuple[int, ...]
    hand: tuple[int, ...]
    hidden_in_hand: int
    hand_counts: tuple[int, ...]
    deck_count: int
    face_up: tuple[int, ...]
    out: frozenset[str]
    to_move: str | None
    skips: tuple[int, ...]
    outcome: Outcome | None


# -- apply -----------------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply one action, checking it first; raises a ``Board99ActionError`` and changes nothing."""
    _check(state, action)
    return _apply(state, action)


def check(state: GameState, action: Action) -> None:
    """Raise the ``Board99ActionError`` that ``apply`` would raise for ``action``, or return None.

    Like python-chess's ``is_legal`` against ``push``: a caller may ask first, then apply unchecked.
    An offence (out of turn, below the card, full hand) passes: it is a penalty, not invalid input.
    """
    _check(state, action)


def is_valid(state: GameState, action: Action) -> bool:
    """Whether ``apply`` would accept ``action`` (penalised actions count as valid input)."""
    try:
        _check(state, action)
    except err.Board99ActionError:
        return False
    return True


def apply_unchecked(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply an action already known to be valid input (no validation, a little faster)."""
    return _apply(state, action)


def _seat_of(state: GameState, action: Action) -> int:
    try:
        return state.setup.players.index(action.by)
    except ValueError:
        raise err.UnknownPlayerError(action, f"{action.by!r} is not playing") from None


def _check_number(action: Action, what: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < CARDS:
        raise err.BadNumberError(action, f"{what} {value!r} is not a number 0..99")


def _where_is(state: GameState, card: int, seat: int) -> str | None:
    """Why ``card`` cannot be in ``seat``'s hidden cards, or None when it could be."""
    if card in state.face_up:
        return f"card {card} is already face up"
    for other, hand in enumerate(state.hands):
        if other != seat and card in hand.known:
            return f"card {card} is known to be in {state.setup.players[other]}'s hand"
    if card in state.in_deck:
        return f"card {card} is in the deck: {_why_in_deck(state, card)}"
    if state.deck is not None and card in state.deck:
        return f"card {card} is in the deck"
    return None


def _why_in_deck(state: GameState, card: int) -> str:
    """Which penalty showed ``card`` and cut it back into the deck (the seed's draw penalties)."""
    for penalty in reversed(state.penalties):
        if penalty.card == card and penalty.offence in ("draw-out-of-turn", "illegal-draw"):
            offence = penalty.offence.replace("-", " ")
            return f"it was shown and cut back in after {penalty.by}'s {offence} at action {penalty.action}"
    return "it was shown and cut back in"


def _check_holds(state: GameState, action: Action, seat: int, card: int) -> None:
    hand = state.hands[seat]
    if card in hand.known:
        return
    if hand.count == 0:
        raise err.NoCardsError(action, f"{action.by} holds no cards")
    if hand.hidden == 0:  # say no more than that: where the card is may be hidden from this seat
        raise err.CardUnavailableError(action, f"{action.by} does not hold card {card}")
    problem = _where_is(state, card, seat)
    if problem is not None:
        raise err.CardUnavailableError(action, problem)


def _check(state: GameState, action: Action) -> None:
    if not isinstance(action, Play | Draw | Discard | RevealDeadHand):
        raise err.Board99ActionError(action, "not a Game of 99 action")
    if state.outcome is not None:
        raise err.GameOverError(action, "the game is over")
    seat = _seat_of(state, action)
    if seat in state.out_seats:
        raise err.PlayerOutError(action, f"{action.by} is out of the game")
    ruleset = state.setup.ruleset
    if isinstance(action, Play):
        _check_number(action, "card", action.card)
        _check_number(action, "square", action.square)
        _check_holds(state, action, seat, action.card)
        hole = state.setup.layout.hole_of(action.square)
        if state.holes[hole] != EMPTY:
            owner = state.setup.players[state.holes[hole]]
            raise err.SquareTakenError(action, f"square {action.square} already holds {owner}'s peg")
    elif isinstance(action, Discard):
        if ruleset is not Ruleset.CLASSIC:
            raise err.NotInRulesetError(action, "5of99 has no discard")
        _check_number(action, "card", action.card)
        _check_holds(state, action, seat, action.card)
    elif isinstance(action, Draw):
        if state.deck_count == 0:
            raise err.EmptyDeckError(action, "the deck is empty")
        if action.card is not None:
            _check_number(action, "card", action.card)
            if state.deck is not None:
                if action.card != state.deck[0]:
                    raise err.DrawMismatchError(action, f"card {action.card} is not the top of the deck")
            elif action.card in state.face_up:
                raise err.CardUnavailableError(action, f"card {action.card} is already face up")
            else:
                for other, hand in enumerate(state.hands):
                    if action.card in hand.known:
                        who = state.setup.players[other]
                        raise err.CardUnavailableError(action, f"card {action.card} is in {who}'s hand")
    else:
        if ruleset is not Ruleset.FIVE_OF_99:
            raise err.NotInRulesetError(action, "only 5of99 has dead hands; in classic, discard")
        cards = tuple(action.cards)
        for c in cards:
            _check_number(action, "card", c)
        hand = state.hands[seat]
        if len(set(cards)) != len(cards) or len(cards) != hand.count:
            held = f"{hand.count} card" + ("" if hand.count == 1 else "s")
            raise err.NotDeadHandError(action, f"{action.by} holds {held}; show each once")
        if not cards:
            raise err.NotDeadHandError(action, f"{action.by} holds no cards")
        missing = [c for c in hand.known if c not in cards]
        if missing:
            raise err.NotDeadHandError(action, f"{action.by} also holds card {missing[0]}")
        for c in cards:
            if c not in hand.known:
                problem = _where_is(state, c, seat)
                if problem is not None:
                    raise err.NotDeadHandError(action, problem)
        empty = state.empty_squares()
        for c in cards:
            alive = [sq for sq in empty if sq >= c]
            if alive:
                raise err.NotDeadHandError(action, f"card {c} can still be played on square {alive[0]}")


def _take(hand: Hand, card: int) -> Hand:
    if card in hand.known:
        return Hand(tuple(c for c in hand.known if c != card), hand.hidden)
    return Hand(hand.known, hand.hidden - 1)


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1:])


def _set_hand(hands: tuple[Hand, ...], seat: int, hand: Hand) -> tuple[Hand, ...]:
    return (*hands[:seat], hand, *hands[seat + 1:])


def _apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    seat = state.setup.players.index(action.by)
    events: list[Event] = []
    on_turn = state.turn == seat
    offence: Offence | None = None
    holes, hands, deck, face_up = state.holes, state.hands, state.deck, state.face_up
    in_deck, skips, out_seats, penalties = state.in_deck, state.skips, state.out_seats, state.penalties
    turn, outcome = state.turn, state.outcome
    if isinstance(action, Play):
        if not on_turn:
            offence = "play-out-of-turn"
        elif action.square < action.card:
            offence = "illegal-play"
        hands = _set_hand(hands, seat, _take(hands[seat], action.card))
        face_up = (*face_up, action.card)
        if offence is None:
            hole = state.setup.layout.hole_of(action.square)
            holes = _set(holes, hole, seat)
            events.append(Played(action.by, action.card, action.square))
            won = _win_from(state.setup, holes, hole)
            if won is not None:
                events.append(won)
                outcome, turn = Outcome("won", won.winners, won.line), None
        else:
            events.append(Penalised(action.by, offence, action.card, action.square))
    elif isinstance(action, Discard):
        if not on_turn:
            offence = "discard-out-of-turn"
        hands = _set_hand(hands, seat, _take(hands[seat], action.card))
        face_up = (*face_up, action.card)
        events.append(Discarded(action.by, action.card) if offence is None
                      else Penalised(action.by, offence, action.card))
    elif isinstance(action, Draw):
        card = action.card
        if deck is not None:
            card = deck[0]
            deck = deck[1:]
        hand = hands[seat]
        if not on_turn:
            offence = "draw-out-of-turn"
        elif hand.count >= state.setup.hand_limit:
            offence = "illegal-draw"
        if offence is None:
            if card is None:
                hands = _set_hand(hands, seat, Hand(hand.known, hand.hidden + 1))
                in_deck = frozenset()  # the unknown card may have been one of them
            else:
                hands = _set_hand(hands, seat, Hand(tuple(sorted((*hand.known, card))), hand.hidden))
                in_deck = in_deck - {card}
            events.append(Drew(action.by, card))
        else:
            # Shown to everyone and cut back into the deck "at random". A known deck needs a
            # reproducible cut, so the position is seeded from the hidden order of the rest of the
            # deck as well as the card and the move number: no player can work out where it went.
            if deck is not None and card is not None:
                at = random.Random(f"cut:{card}:{state.ply}:{deck}").randrange(len(deck) + 1)
                deck = (*deck[:at], card, *deck[at:])
            elif card is not None:
                in_deck = in_deck | {card}
            events.append(Penalised(action.by, offence, card))
    else:
        cards = tuple(sorted(action.cards))
        hands = _set_hand(hands, seat, Hand())
        face_up = (*face_up, *cards)
        out_seats = out_seats | {seat}
        events.append(PlayerOut(action.by, cards))
    if offence is not None:
        skips = _set(skips, seat, skips[seat] + 1)
        penalties = penalties.add(_penalty(state.ply, events[-1]))
    new = GameState(state.setup, holes, hands, deck, face_up, in_deck, skips, out_seats, turn, outcome,
                    penalties, state.ply + 1)
    if new.outcome is None:
        new = _settle(new, events)
    if new.outcome is None and (on_turn or new.turn in new.out_seats):
        new = _advance(new, events)
    return new, tuple(events)


def _penalty(index: int, event: Event) -> Penalty:
    assert isinstance(event, Penalised)
    return Penalty(index, event.by, event.offence, event.card, event.square)


def _win_from(setup: Setup, holes: tuple[int, ...], hole: int) -> Won | None:
    side_index = setup.side_index
    run = run_through(holes, hole, side_index)
    if not run:
        return None
    layout = setup.layout
    return Won(setup.sides[side_index[holes[hole]]], tuple(layout.number_at(h) for h in run))


def _settle(state: GameState, events: list[Event]) -> GameState:
    """End-of-action checks: ties, and in 5of99 dead hands seen by the engine and the last side."""
    setup = state.setup
    if setup.ruleset is Ruleset.CLASSIC:
        if len(state.face_up) == CARDS:
            events.append(Tied("every card has been played or discarded"))
            return replace(state, outcome=Outcome("tie", (), ()), turn=None)
        return state
    numbers = setup.layout.numbers
    highest = max([numbers[h] for h, s in enumerate(state.holes) if s == EMPTY], default=-1)
    empty = highest >= 0
    out = set(state.out_seats)
    hands = state.hands
    face_up = state.face_up
    deck_empty = state.deck_count == 0
    for seat, hand in enumerate(hands):
        if seat in out:
            continue
        all_known_dead = hand.hidden == 0 and hand.count > 0 and all(c > highest for c in hand.known)
        if all_known_dead or (hand.count == 0 and deck_empty):
            out.add(seat)
            events.append(PlayerOut(setup.players[seat], hand.known))
            face_up = (*face_up, *hand.known)
            hands = _set_hand(hands, seat, Hand())
    if len(out) != len(state.out_seats):
        state = replace(state, out_seats=frozenset(out), hands=hands, face_up=face_up)
    sides_left = {setup.side_index[s] for s in range(len(setup.players)) if s not in out}
    if len(sides_left) == 1:
        winners = setup.sides[sides_left.pop()]
        events.append(Won(winners, ()))
        return replace(state, outcome=Outcome("won", winners, ()), turn=None)
    if not sides_left or not empty:
        reason = "the board is full" if not empty else "every player is out"
        events.append(Tied(reason))
        return replace(state, outcome=Outcome("tie", (), ()), turn=None)
    return state


def _advance(state: GameState, events: list[Event]) -> GameState:
    """Pass the turn to the left, skipping lost turns and players who can do nothing."""
    n = len(state.setup.players)
    skips = list(state.skips)
    seat = state.turn if state.turn is not None else 0
    deck_empty = state.deck_count == 0
    turn: int | None = None
    for _ in range(n * (max(skips) + 2)):
        seat = (seat + 1) % n
        if seat in state.out_seats:
            continue
        if skips[seat] > 0:
            skips[seat] -= 1
            events.append(TurnSkipped(state.setup.players[seat], "penalty"))
            continue
        if deck_empty and state.hands[seat].count == 0:
            events.append(TurnSkipped(state.setup.players[seat], "no cards"))
            continue
        turn = seat
        break
    return GameState(state.setup, state.holes, state.hands, state.deck, state.face_up, state.in_deck,
                     tuple(skips), state.out_seats, turn, state.outcome, state.penalties, state.ply)
