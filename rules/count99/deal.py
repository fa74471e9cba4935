"""The game against the computer: the count keeper plus a real deck, hands and discards.

A :class:`CardGame` is rebuilt from its setup, its seed and its stored actions (the same flat
actions the store keeps), so a game survives a crash and undo is "replay all but the last". The
deck is shuffled with ``random.Random(seed)``: the same seed and actions give the same cards.

Automatic happenings are actions too, written into the action list when they occur: the deal at
the start of a round (``{"start": NAME}``), "no cards" and RS Games' "no safe card". Replaying
checks them (a stored "no safe card" while holding a safe card is refused).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.count99.cards import CARD_NAMES, TOP, Variant, card_effect, choices_for, full_deck, is_safe
from rules.count99.errors import Count99Error, NotYourTurnError, SetupError
from rules.count99.record import action_from_dict, action_to_dict, to_record
from rules.count99.table import Event, NoCards, NoSafeCard, PlayCard, Setup, StartRound, Table


@dataclass(frozen=True)
class CardsDealt:
    round_no: int
    hand_size: int


@dataclass(frozen=True)
class CardDrawn:
    seat: int
    card: str  # shown only to the seat that drew it


@dataclass(frozen=True)
class DeckReshuffled:
    cards: int


DealEvent = Event | CardsDealt | CardDrawn | DeckReshuffled


@dataclass(frozen=True)
class PlayerView:
    """All a seat may know: its own hand and what is public. Computer players get only this."""

    seat: int
    variant: Variant
    hand: tuple[str, ...]
    count: int
    direction: int
    tokens: tuple[int, ...]
    hand_counts: tuple[int, ...]  # how many cards each seat holds (public at a real table)
    played_this_round: tuple[str, ...]
    hand_size: int
    next_seat: int  # who plays after this seat if nothing reverses or skips

    def options(self) -> list[tuple[int, int | None]]:
        """Every (slot, choice) this seat may play now."""
        found: list[tuple[int, int | None]] = []
        for slot, card in enumerate(self.hand):
            choices = choices_for(self.variant, card, self.count)
            if len(choices) > 1:
                found.extend((slot, c) for c in choices)
            else:
                found.append((slot, None))
        return found


class CardGame:
    """One game with a deck. Use :meth:`act` for player actions and :meth:`advance` in between."""

    def __init__(self, setup: Setup, seed: int = 0, manual_draw: bool = False) -> None:
        deck_size = len(CARD_NAMES[setup.variant]) * 4
        if len(setup.players) * setup.hand_size > deck_size:
            raise SetupError(
                f"{len(setup.players)} players x {setup.hand_size} cards is more than the "
                f"{deck_size}-card deck; use fewer cards per hand"
            )
        self.setup = setup
        self.seed = seed
        self.manual_draw = manual_draw
        self.table = Table.new(setup)
        self.hands: list[list[str]] = [[] for _ in setup.players]
        self.deck: list[str] = []
        self.discards: list[str] = []
        self.actions: list[dict[str, Any]] = []
        self._rng = random.Random(seed)

    # -- building from storage -------------------------------------------------------------
    @classmethod
    def replay(
        cls, setup: Setup, seed: int, manual_draw: bool, actions: list[dict[str, Any]]
    ) -> CardGame:
        game = cls(setup, seed, manual_draw)
        for index, data in enumerate(actions):
            try:
                game._apply_dict(data)
            except Count99Error as exc:
                raise Count99Error(f"action {index + 1}: {exc}") from None
        return game

    def record(self) -> dict[str, Any]:
        return to_record(self.setup, self.actions)

    # -- questions ------------------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return self.setup.variant

    def view(self, seat: int) -> PlayerView:
        table = self.table
        played = tuple(
            a["card"] for a in self._round_actions() if "card" in a
        )
        active = table.active_seats()
        return PlayerView(
            seat=seat, variant=self.variant, hand=tuple(self.hands[seat]), count=table.count,
            direction=table.direction, tokens=table.tokens,
            hand_counts=tuple(len(h) for h in self.hands), played_this_round=played,
            hand_size=self.setup.hand_size,
            next_seat=table.step(seat) if len(active) > 1 else seat,
        )

    def _round_actions(self) -> list[dict[str, Any]]:
        for i in range(len(self.actions) - 1, -1, -1):
            if "start" in self.actions[i]:
                return self.actions[i + 1 :]
        return []

    def can_draw(self, seat: int) -> bool:
        return (
            self.manual_draw and self.table.in_round and self.table.is_in(seat)
            and len(self.hands[seat]) < self.setup.hand_size
            and bool(self.deck or self.discards)
        )

    # -- actions ---------------------------------------------------------------------------------
    def play(self, seat: int, slot: int, choice: int | None = None) -> list[DealEvent]:
        """The player on turn plays the card in ``slot`` (0-based) of their hand."""
        if self.table.turn != seat:
            raise NotYourTurnError("it is not your turn")
        hand = self.hands[seat]
        if not 0 <= slot < len(hand):
            raise Count99Error(f"there is no card in slot {slot + 1} (you hold {len(hand)})")
        action: dict[str, Any] = {"by": self.setup.players[seat], "card": hand[slot]}
        if choice is not None:
            action["as"] = choice
        return self._apply_dict(action)

    def draw(self, seat: int) -> list[DealEvent]:
        return self._apply_dict({"by": self.setup.players[seat], "draw": True})

    def advance(self) -> list[DealEvent]:
        """Everything that happens without a choice: the next deal, "no cards", "no safe card".

        Returns the events (empty when the game waits for the player on turn, or is over).
        """
        events: list[DealEvent] = []
        while not self.table.over:
            table = self.table
            if not table.in_round:
                events += self._apply_dict({"start": self.setup.players[table.next_first()]})
                continue
            seat = table.turn
            assert seat is not None
            name = self.setup.players[seat]
            if not self.hands[seat]:
                events += self._apply_dict({"by": name, "no-cards": True})
            elif self.variant is Variant.RS_GAMES and not self._has_safe_card(seat):
                events += self._apply_dict({"by": name, "no-safe-card": True})
            else:
                break
        return events

    def _has_safe_card(self, seat: int) -> bool:
        return any(is_safe(self.variant, card, self.table.count) for card in self.hands[seat])

    # -- the one place actions change the game ----------------------------------------------
    def _apply_dict(self, data: dict[str, Any]) -> list[DealEvent]:
        action = action_from_dict(data, self.setup)
        events: list[DealEvent] = []
        slot: int | None = None
        if action is None:  # a manual draw
            seat = self.setup.seat_of(data["by"])
            if not self.manual_draw:
                raise Count99Error("cards are drawn automatically in this game")
            if not self.can_draw(seat):
                raise Count99Error("you cannot draw now (your hand is full or no round is running)")
            events += self._draw_one(seat)
            self.actions.append(dict(data))
            return events
        if isinstance(action, PlayCard):
            hand = self.hands[action.seat]
            if action.card not in hand:
                raise Count99Error(f"{data['by']} does not hold {action.card}")
            # Records name cards, not slots: of two equal cards the first goes, so replay matches.
            slot = hand.index(action.card)
        elif isinstance(action, NoCards) and self.hands[action.seat]:
            raise Count99Error(f"{data['by']} still holds cards")
        elif isinstance(action, NoSafeCard) and self._has_safe_card(action.seat):
            raise Count99Error(f"{data['by']} holds a safe card")
        table, table_events = self.table.apply(action)
        events += table_events
        self.table = table
        self.actions.append(action_to_dict(action, self.setup))
        if isinstance(action, StartRound):
            events += self._deal(action.first)
        elif isinstance(action, PlayCard):
            assert slot is not None
            self.discards.append(self.hands[action.seat].pop(slot))
            if table.in_round and not self.manual_draw and table.is_in(action.seat):
                events += self._draw_one(action.seat)
        for seat in range(len(self.hands)):
            if not table.is_in(seat) and self.hands[seat]:
                self.discards.extend(self.hands[seat])  # an eliminated player's cards
                self.hands[seat] = []
        return events

    def _deal(self, first: int) -> list[DealEvent]:
        self.deck = full_deck(self.variant)
        self._rng.shuffle(self.deck)
        self.discards = []
        self.hands = [[] for _ in self.setup.players]
        order = [first]
        while len(order) < len(self.table.active_seats()):
            order.append(self.table.step(order[-1], 1, direction=1))
        for _ in range(self.setup.hand_size):
            for seat in order:
                self.hands[seat].append(self.deck.pop())
        return [CardsDealt(self.table.round_no, self.setup.hand_size)]

    def _draw_one(self, seat: int) -> list[DealEvent]:
        events: list[DealEvent] = []
        if not self.deck:
            if not self.discards:
                return events
            self.deck, self.discards = self.discards, []
            self._rng.shuffle(self.deck)
            events.append(DeckReshuffled(len(self.deck)))
        card = self.deck.pop()
        self.hands[seat].append(card)
        events.append(CardDrawn(seat, card))
        return events


def outcome_of(view: PlayerView, slot: int, choice: int | None) -> int:
    """The count after playing ``slot`` with ``choice`` (above 99 = bust)."""
    return card_effect(view.variant, view.hand[slot], view.count, choice).count


__all__ = ["TOP", "CardDrawn", "CardGame", "CardsDealt", "DeckReshuffled", "PlayerView", "outcome_of"]
