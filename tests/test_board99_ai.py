"""Computer opponents: they see only a PlayerView, act legally, take wins and block."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.board99 import Discard, Draw, GameState, Hand, Play, apply
from rules.board99.ai import LEVELS, choose_action
from tests.test_board99_support import NAMES, new_game, run


def _reshuffle_hidden(state: GameState, me: str, rng: random.Random) -> GameState:
    """The same game as ``me`` sees it, with the deck and the other hands dealt differently."""
    seat = state.setup.seat(me)
    hidden = list(state.deck or ())
    for i, hand in enumerate(state.hands):
        if i != seat:
            hidden.extend(hand.known)
    rng.shuffle(hidden)
    hands = []
    for i, hand in enumerate(state.hands):
        if i == seat:
            hands.append(hand)
        else:
            hands.append(Hand(tuple(sorted(hidden[: hand.count])), 0))
            hidden = hidden[hand.count :]
    return dataclasses.replace(state, hands=tuple(hands), deck=tuple(hidden))


def _midgame(seed: int, ruleset: str, players: int, moves: int) -> GameState:
    rng = random.Random(seed)
    deck = list(range(100))
    rng.shuffle(deck)
    state = new_game(players, ruleset, layout="spiral-out", deck=deck)
    ai_rng = random.Random(seed)
    for _ in range(moves):
        if state.outcome is not None:
            break
        who = state.to_move
        assert who is not None
        state, _ = apply(state, choose_action(state.view_for(who), "intermediate", ai_rng))
    return state


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("ruleset", ["classic", "5of99"])
def test_decisions_do_not_change_when_hidden_cards_are_reshuffled(level: str, ruleset: str) -> None:
    for seed in range(12):
        state = _midgame(seed, ruleset, 2 + seed % 2, moves=10 + 3 * seed)
        if state.outcome is not None:
            continue
        me = state.to_move
        assert me is not None
        decision = choose_action(state.view_for(me), level, random.Random(seed))
        for k in range(3):
            other = _reshuffle_hidden(state, me, random.Random(100 + k))
            assert other.deck != state.deck or len(other.deck or ()) < 2
            assert other.view_for(me) == state.view_for(me)
            assert choose_action(other.view_for(me), level, random.Random(seed)) == decision


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("ruleset", "players"), [("classic", 2), ("classic", 3), ("classic", 4),
                                                  ("classic", 6), ("5of99", 2), ("5of99", 3)])
def test_computers_finish_games_without_offences(level: str, ruleset: str, players: int) -> None:
    for seed in range(2):
        rng = random.Random(seed)
        deck = list(range(100))
        rng.shuffle(deck)
        state = new_game(players, ruleset, layout="twisted", deck=deck)
        for _ in range(500):
            if state.outcome is not None:
                break
            who = state.to_move
            assert who is not None
            state, _ = apply(state, choose_action(state.view_for(who), level, rng))
        assert state.outcome is not None
        assert not state.penalties


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_takes_a_win_in_hand(level: str) -> None:
    state = new_game(2, hands={"Ann": [0, 1, 2, 3, 4], "Ben": [50, 51, 52, 53]})
    state, _ = run(state, Play("Ann", 0, 10), Play("Ben", 50, 50), Play("Ann", 1, 11), Play("Ben", 51, 51),
                   Play("Ann", 2, 12), Play("Ben", 52, 52), Play("Ann", 3, 13), Draw("Ben", 90))
    for seed in range(5):
        assert choose_action(state.view_for("Ann"), level, random.Random(seed)) == Play("Ann", 4, 14)


@pytest.mark.parametrize("level", ["intermediate", "advanced"])
def test_considered_levels_block_an_open_four(level: str) -> None:
    state = new_game(2, hands={"Ann": [30, 31, 32, 33], "Ben": [5, 80, 81, 82, 83]}, first="Ann")
    state, _ = run(state, Play("Ann", 30, 30), Play("Ben", 80, 80), Play("Ann", 31, 31), Play("Ben", 81, 81),
                   Play("Ann", 32, 32), Play("Ben", 82, 82), Play("Ann", 33, 33))
    # Ann threatens 34 (and 29); Ben holds 5 and 83, so he can block 34 or 29.
    action = choose_action(state.view_for("Ben"), level, random.Random(0))
    assert isinstance(action, Play) and action.square in (29, 34)


@pytest.mark.parametrize("level", ["intermediate", "advanced"])
def test_considered_levels_discard_a_dead_card_from_a_full_hand(level: str) -> None:
    state = new_game(2, hands={"Ann": [50], "Ben": [99, 1, 2, 3, 4]})
    state, _ = run(state, Play("Ann", 50, 99))
    action = choose_action(state.view_for("Ben"), level, random.Random(0))
    assert action == Discard("Ben", 99)


def test_unknown_level_and_wrong_turn_are_refused() -> None:
    state = new_game(2, deck=list(range(100)))
    with pytest.raises(ValueError, match="unknown level"):
        choose_action(state.view_for("Ann"), "expert", random.Random(0))
    with pytest.raises(ValueError, match="not Ben's turn"):
        choose_action(state.view_for("Ben"), "basic", random.Random(0))


def test_a_view_shows_only_what_the_seat_may_see() -> None:
    state = new_game(3, deck=list(range(100)))
    state, _ = run(state, Draw("Ann"), Draw("Ben"))
    view = state.view_for("Ann")
    assert view.hand == (0,) and view.hand_counts == (1, 1, 0) and view.deck_count == 98
    assert not hasattr(view, "deck") and not hasattr(view, "hands")
    assert NAMES[1] not in repr(view.hand)
