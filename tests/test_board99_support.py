"""Helpers shared by the board99 tests (this module holds no tests itself)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.board99 import (
    Action,
    Discard,
    Draw,
    Event,
    GameState,
    Play,
    RevealDeadHand,
    Ruleset,
    apply,
    make_setup,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def new_game(
    players: int = 2,
    ruleset: str = "classic",
    *,
    layout: str = "rows",
    hands: Mapping[str, Sequence[int]] | None = None,
    deck: Sequence[int] | None = None,
    first: str | None = None,
) -> GameState:
    """A fresh game on the ``rows`` layout (square number = hole) unless told otherwise."""
    setup = make_setup(
        list(NAMES[:players]), ruleset=ruleset, layout=layout, first=first,
        hands={k: list(v) for k, v in (hands or {}).items()}, deck=list(deck) if deck is not None else None,
    )
    return GameState.new(setup)


def run(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    """Apply actions (checked) and collect every event."""
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def deck_with(top: Sequence[int], exclude: Sequence[int] = ()) -> list[int]:
    """A full known deck: ``top`` first (top card first), then the other cards ascending."""
    rest = [c for c in range(100) if c not in top and c not in exclude]
    return [*top, *rest]


def random_action(state: GameState, rng: random.Random, offences: float = 0.05) -> Action | None:
    """A random action that is valid input for a game with a known deck (offences now and then)."""
    setup = state.setup
    if state.turn is None:
        return None
    live = [p for p in setup.players if p not in state.out]
    who = state.to_move
    assert who is not None
    if rng.random() < offences:
        who = rng.choice(live)
    hand = state.known_hand(who)
    empty = state.empty_squares()
    options: list[Action] = []
    if state.deck_count > 0 and (state.hand_count(who) < setup.hand_limit or rng.random() < offences):
        options.append(Draw(who))
    for card in hand:
        legal = [sq for sq in empty if sq >= card]
        if legal:
            options.append(Play(who, card, rng.choice(legal)))
        elif empty and rng.random() < offences:
            options.append(Play(who, card, rng.choice(empty)))
        if setup.ruleset is Ruleset.CLASSIC and (not legal or rng.random() < 0.1):
            options.append(Discard(who, card))
    if setup.ruleset is Ruleset.FIVE_OF_99 and hand and all(state.is_dead(c) for c in hand):
        options.append(RevealDeadHand(who, hand))
    if not options:
        return None
    return rng.choice(options)


def fill_squares_50_up(players: list[str]) -> list[dict[str, Any]]:
    """A 5of99 real-table game on the rows layout: the players fill squares 50..99 with cards
    0..49 (never five in a row for one player), playing and drawing in turn."""
    state = GameState.new(make_setup(players, ruleset="5of99", layout="rows"))
    actions: list[dict[str, Any]] = []
    cards = iter(range(50))
    while len(state.pegs) < 50:
        who = state.to_move
        assert who is not None
        if state.hand_count(who) < 4:
            action: Any = Draw(who)
        else:
            card = next(cards)
            square = next(sq for sq in range(50, 100) if sq not in state.pegs
                          and apply(state, Play(who, card, sq))[0].outcome is None)
            action = Play(who, card, square)
        state, _ = apply(state, action)
        actions.append({"by": who, "do": "draw"} if isinstance(action, Draw)
                       else {"by": who, "do": "play", "card": action.card, "square": action.square})
    return actions
