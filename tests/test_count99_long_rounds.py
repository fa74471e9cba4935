"""A round that never ends: with big hands (RS Games, 4 x 13) careful players can pass forever.

The rule (docs/count99.md, "Endless rounds"): when the 200th card of a round has been played and
the round goes on, time is called. The player who would play next loses 1 token and the round
ends. Every round end costs a token, so every game ends, whoever plays it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.count99.cards import Variant
from rules.count99.deal import CardGame
from rules.count99.players import make_player, play_until_human
from rules.count99.replay import replay_json, replay_text
from rules.count99.table import (
    ROUND_PLAY_LIMIT,
    Eliminated,
    GameWon,
    PlayCard,
    Reason,
    RoundEnded,
    Setup,
    StartRound,
    Table,
    TokensLost,
)
from rules.errors import InvalidRecordError

QC, RS = Variant.QUENTIN_C, Variant.RS_GAMES
# A seed with which four hard computer players holding 13 cards each used to pass for ever.
ENDLESS_SEED = 18


def started(variant: Variant, players: int = 3, tokens: int = 9) -> Table:
    names = ("Ann", "Ben", "Cat", "Dan")[:players]
    table, _ = Table.new(Setup(variant, names, tokens=tokens)).apply(StartRound(0))
    return table


def pass_many(table: Table, card: str, times: int) -> tuple[Table, list[object]]:
    events: list[object] = []
    for _ in range(times):
        assert table.turn is not None
        table, new = table.apply(PlayCard(table.turn, card))
        events += new
    return table, events


def test_the_limit_is_200_plays() -> None:
    assert ROUND_PLAY_LIMIT == 200


@pytest.mark.parametrize(("variant", "card"), [(QC, "9"), (RS, "pass")])
def test_time_is_called_on_the_200th_play_and_the_player_on_turn_loses_one(
    variant: Variant, card: str
) -> None:
    table, events = pass_many(started(variant), card, ROUND_PLAY_LIMIT - 1)
    assert table.in_round and not any(isinstance(e, (RoundEnded, TokensLost)) for e in events)
    assert table.turn == (ROUND_PLAY_LIMIT - 1) % 3  # seat 1 plays the 200th card
    table, last = table.apply(PlayCard(1, card))
    assert not table.in_round and table.count == 0
    assert TokensLost(2, 1, 8, Reason.LONG_ROUND) in last  # Cat would have played next
    assert RoundEnded(1, Reason.LONG_ROUND, 2) in last
    assert table.tokens == (9, 9, 8)


def test_time_called_after_a_skip_charges_the_player_after_the_skipped_one() -> None:
    table, _ = pass_many(started(RS), "pass", ROUND_PLAY_LIMIT - 1)
    table, last = table.apply(PlayCard(1, "skip"))
    assert RoundEnded(1, Reason.LONG_ROUND, 0) in last  # Cat skipped, Ann is on turn


def test_a_round_ending_200th_play_is_not_charged_twice() -> None:
    table, _ = pass_many(started(QC), "9", ROUND_PLAY_LIMIT - 1)
    table = replace(table, count=95)
    table, last = table.apply(PlayCard(1, "K"))
    assert [e.reason for e in last if isinstance(e, RoundEnded)] == [Reason.BUST]
    assert table.tokens == (9, 7, 9)


def test_time_called_can_eliminate_and_decide_the_game() -> None:
    table, _ = pass_many(started(QC, players=2, tokens=1), "9", ROUND_PLAY_LIMIT - 1)
    table, last = table.apply(PlayCard(table.turn or 0, "9"))
    assert Eliminated(0) in last and GameWon(1) in last and table.winner == 1


def test_the_next_round_starts_afresh() -> None:
    table, _ = pass_many(started(QC), "9", ROUND_PLAY_LIMIT)
    table, _ = table.apply(StartRound(table.next_first()))
    table, _ = pass_many(table, "9", ROUND_PLAY_LIMIT - 1)
    assert table.in_round and table.plays_in_round == ROUND_PLAY_LIMIT - 1


def long_record(plays: int) -> dict[str, object]:
    names = ["Ann", "Ben", "Cat"]
    return {
        "format": "table99/count99", "version": 1, "variant": "quentin-c", "players": names,
        "rounds": [{"first": "Ann", "plays": [{"by": names[i % 3], "card": "9"} for i in range(plays)]}],
    }


def test_replay_shows_time_called_after_the_200th_play() -> None:
    steps = replay_json(long_record(ROUND_PLAY_LIMIT))["steps"]
    assert steps[-1]["round_over"] and steps[-1]["tokens"] == {"Ann": 9, "Ben": 9, "Cat": 8}
    assert "Round 1 ends: Cat was on turn when time was called after 200 plays." in steps[-1]["events"]
    said = "Cat loses 1 token (was on turn when time was called after 200 plays), 8 left."
    assert said in replay_text(long_record(200))


def test_replay_refuses_a_201st_play_naming_round_and_play() -> None:
    with pytest.raises(InvalidRecordError, match=r"round 1, play 201: the round has already ended"):
        replay_json(long_record(ROUND_PLAY_LIMIT + 1))


def rounds_of(game: CardGame) -> list[int]:
    """How many cards were played in each round of a finished game."""
    lengths: list[int] = []
    for action in game.actions:
        if "start" in action:
            lengths.append(0)
        elif "card" in action:
            lengths[-1] += 1
    return lengths


def test_four_hard_computers_with_thirteen_cards_finish_a_game_that_used_to_run_for_ever() -> None:
    setup = Setup(QC, ("c0", "c1", "c2", "c3"), hand_size=13)
    game = CardGame(setup, seed=ENDLESS_SEED)
    play_until_human(game, {i: make_player("hard", ENDLESS_SEED * 31 + i) for i in range(4)})
    assert game.table.over
    lengths = rounds_of(game)
    assert max(lengths) == ROUND_PLAY_LIMIT  # this seed does hit the limit
    replayed = replay_json(game.record())["final"]
    assert replayed["winner"] == setup.players[game.table.winner or 0]


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(list(Variant)), st.integers(2, 4), st.integers(0, 10_000),
    st.sampled_from(["easy", "hard"]),
)
def test_every_computer_game_ends_with_rounds_of_at_most_200_plays(
    variant: Variant, players: int, seed: int, level: str
) -> None:
    setup = Setup(variant, tuple(f"c{i}" for i in range(players)), tokens=1, hand_size=13)
    game = CardGame(setup, seed=seed)
    play_until_human(game, {i: make_player(level, seed + i) for i in range(players)})
    assert game.table.over and max(rounds_of(game)) <= ROUND_PLAY_LIMIT


def test_rs_games_with_thirteen_cards_calls_time_and_still_finds_a_winner() -> None:
    setup = Setup(RS, ("c0", "c1", "c2", "c3"), tokens=1, hand_size=13)
    game = CardGame(setup, seed=1)
    events = play_until_human(game, {i: make_player("hard", 31 + i) for i in range(4)})
    assert rounds_of(game)[0] == ROUND_PLAY_LIMIT and game.table.winner is not None
    called = [e for e in events if isinstance(e, RoundEnded) and e.reason is Reason.LONG_ROUND]
    assert len(called) == 1 and Eliminated(called[0].seat) in events
