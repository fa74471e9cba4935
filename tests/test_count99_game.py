"""Ninety Nine as a whole: property tests, the deck game, computer players, records and replay."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.count99.cards import CARD_NAMES, Variant, choices_for
from rules.count99.deal import CardGame, PlayerView
from rules.count99.errors import Count99Error, SetupError
from rules.count99.players import HardPlayer, make_player, play_until_human
from rules.count99.replay import replay_json, replay_text
from rules.count99.table import Eliminated, NoCards, PlayCard, Reason, RoundEnded, Setup, StartRound, Table
from rules.errors import InvalidRecordError

variants = st.sampled_from(list(Variant))


@st.composite
def played_tables(draw: st.DrawFn) -> list[tuple[Table, Table, tuple[object, ...]]]:
    """A random game on the count keeper: each step is (before, after, events)."""
    variant = draw(variants)
    players = draw(st.integers(2, 5))
    table = Table.new(Setup(variant, tuple(f"p{i}" for i in range(players)), tokens=draw(st.integers(1, 6))))
    steps = []
    for _ in range(draw(st.integers(1, 120))):
        if table.over:
            break
        if not table.in_round:
            action: object = StartRound(table.next_first())
        elif draw(st.integers(0, 30)) == 0:
            action = NoCards(table.turn or 0)
        else:
            card = draw(st.sampled_from(CARD_NAMES[variant]))
            options = choices_for(variant, card, table.count)
            choice = draw(st.sampled_from(options)) if len(options) > 1 else None
            action = PlayCard(table.turn or 0, card, choice)
        after, events = table.apply(action)  # type: ignore[arg-type]
        steps.append((table, after, events))
        table = after
    return steps


@given(played_tables())
def test_tokens_never_rise(steps) -> None:  # type: ignore[no-untyped-def]
    for before, after, _ in steps:
        assert all(a <= b for a, b in zip(after.tokens, before.tokens, strict=True))
        assert all(t >= 0 for t in after.tokens)


@given(played_tables())
def test_the_count_after_a_round_ending_play(steps) -> None:  # type: ignore[no-untyped-def]
    for before, after, events in steps:
        ended = [e for e in events if isinstance(e, RoundEnded)]
        if after.in_round:
            assert 0 <= after.count <= 99 and not ended
        if ended and ended[0].reason is Reason.BUST:
            assert after.count > 99
        if ended and ended[0].reason is Reason.LANDED_99:
            assert after.count == 99 and after.variant is Variant.QUENTIN_C
        if ended and ended[0].reason in (Reason.NO_CARDS, Reason.NO_SAFE_CARD):
            assert after.count == before.count
        if after.in_round and not before.in_round:
            assert after.count == 0 and after.direction == 1


@given(played_tables())
def test_eliminated_players_never_play_again_and_one_winner_remains(steps) -> None:  # type: ignore[no-untyped-def]
    out: set[int] = set()
    for _, after, events in steps:
        assert after.turn is None or after.turn not in out
        out |= {e.seat for e in events if isinstance(e, Eliminated)}
        if after.over:
            assert after.active_seats() == (after.winner,)


def computer_game(variant: Variant, players: int, seed: int, manual: bool = False) -> CardGame:
    setup = Setup(variant, tuple(f"cpu{i}" for i in range(players)), tokens=3, hand_size=3)
    game = CardGame(setup, seed=seed, manual_draw=manual)
    play_until_human(game, {i: make_player("hard" if i % 2 else "easy", seed + i) for i in range(players)})
    return game


@given(variants, st.integers(2, 5), st.integers(0, 10_000), st.booleans())
def test_replay_equals_the_played_game(variant: Variant, players: int, seed: int, manual: bool) -> None:
    game = computer_game(variant, players, seed, manual)
    record = json.loads(json.dumps(game.record()))
    result = replay_json(record)
    names = game.setup.players
    assert result["final"]["winner"] == names[game.table.winner or 0]
    assert result["final"]["tokens"] == dict(zip(names, game.table.tokens, strict=True))
    again = CardGame.replay(game.setup, seed, manual, game.actions)
    assert again.table == game.table and again.hands == game.hands and again.deck == game.deck


def test_a_deck_game_deals_draws_and_reshuffles() -> None:
    setup = Setup(Variant.QUENTIN_C, ("Ann", "Ben"), hand_size=13)
    game = CardGame(setup, seed=4)
    game.advance()
    assert [len(h) for h in game.hands] == [13, 13] and len(game.deck) == 26
    total = lambda: len(game.deck) + len(game.discards) + sum(map(len, game.hands))  # noqa: E731
    for _ in range(40):
        if game.table.over:
            break
        seat = game.table.turn
        assert seat is not None
        view = game.view(seat)
        game.play(seat, *HardPlayer().choose(view))
        game.advance()
        assert total() == 52


def test_too_many_cards_for_the_deck_is_a_setup_error() -> None:
    with pytest.raises(SetupError, match="52-card deck"):
        CardGame(Setup(Variant.QUENTIN_C, tuple("abcde"), hand_size=13))
    CardGame(Setup(Variant.RS_GAMES, tuple("abcd"), hand_size=13))  # 52 of 60 cards fits


def test_manual_draw_forgetting_costs_three_tokens() -> None:
    game = CardGame(Setup(Variant.QUENTIN_C, ("Ann", "Ben"), hand_size=1), seed=1, manual_draw=True)
    game.advance()
    first = game.table.turn
    assert first is not None
    other = 1 - first
    for seat in (first, other):
        options = game.view(seat).options()
        game.play(seat, *options[0])
        if seat == other:
            game.draw(other)
        if game.advance():
            break
    assert game.table.tokens[first] == 9 - 3 and game.actions[-2] == {"by": game.setup.players[first],
                                                                       "no-cards": True}


def test_automatic_draw_refuses_manual_draws() -> None:
    game = CardGame(Setup(Variant.QUENTIN_C, ("Ann", "Ben")), seed=1)
    game.advance()
    with pytest.raises(Count99Error, match="automatically"):
        game.draw(0)


def test_rs_no_safe_card_is_detected_automatically() -> None:
    setup = Setup(Variant.RS_GAMES, ("Ann", "Ben"), hand_size=1)
    for seed in range(200):
        game = CardGame(setup, seed=seed)
        play_until_human(game, {0: make_player("easy", seed), 1: make_player("easy", seed + 1)})
        flagged = [a for a in game.actions if a.get("no-safe-card")]
        if flagged:
            # Replaying checks the claim against the hand, so the detection was real.
            CardGame.replay(setup, seed, False, game.actions)
            return
    raise AssertionError("no seeded game ever ended a round for lack of a safe card")


def test_a_false_no_safe_card_claim_is_refused_on_replay() -> None:
    setup = Setup(Variant.RS_GAMES, ("Ann", "Ben"))
    with pytest.raises(Count99Error, match=r"action 2: .*safe card"):
        CardGame.replay(setup, 3, False, [{"start": "Ann"}, {"by": "Ann", "no-safe-card": True}])


def test_a_view_shows_only_the_own_hand() -> None:
    game = CardGame(Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")), seed=2)
    game.advance()
    view = game.view(1)
    assert view.hand == tuple(game.hands[1]) and view.hand_counts == (3, 3, 3)
    assert set(PlayerView.__dataclass_fields__) == {
        "seat", "variant", "hand", "count", "direction", "tokens", "hand_counts", "played_this_round",
        "hand_size", "next_seat",
    }


def test_hard_takes_a_milestone_and_avoids_passing_one() -> None:
    view = PlayerView(0, Variant.QUENTIN_C, ("6", "9", "K"), 27, 1, (9, 9), (3, 3), (), 3, 1)
    assert HardPlayer().choose(view) == (0, None)  # the seed's example: play the 6 onto 33
    view = PlayerView(0, Variant.QUENTIN_C, ("K", "9"), 95, 1, (9, 9), (2, 3), (), 3, 1)
    assert HardPlayer().choose(view) == (1, None)


# -- records and replay ---------------------------------------------------------------------------
def record(variant: str = "quentin-c", *rounds: dict) -> dict:  # type: ignore[type-arg]
    return {"format": "table99/count99", "version": 1, "variant": variant, "players": ["Ann", "Ben", "Cat"],
            "tokens": 9, "hand_size": 3, "rounds": list(rounds)}


ISSUE_ROUND = {"first": "Ann", "plays": [{"by": "Ann", "card": "A", "as": 11},
                                         {"by": "Ben", "card": "10", "as": -10}, {"by": "Cat", "card": "J"}]}


def test_replay_of_the_issue_example() -> None:
    result = replay_json(record("quentin-c", ISSUE_ROUND))
    assert [s["count"] for s in result["steps"]] == [11, 1, 11]
    assert [s["turn"] for s in result["steps"]] == ["Ben", "Cat", "Ben"]
    assert result["steps"][0]["tokens"] == {"Ann": 9, "Ben": 9, "Cat": 9}
    assert result["steps"][0]["direction"] == "clockwise"
    assert result["final"] == {
        "tokens": {"Ann": 9, "Ben": 9, "Cat": 9}, "out": [], "winner": None, "rounds": 1
    }
    text = replay_text(record("quentin-c", ISSUE_ROUND))
    assert "Ann is skipped." in text and "No winner yet." in text


def test_replay_with_penalty_entries_and_a_winner() -> None:
    rounds = [{"first": "Ann", "plays": [{"by": "Ann", "no-cards": True}]}] * 3 + [
        {"first": "Ben", "plays": [{"by": "Ben", "card": "K"}, {"by": "Cat", "no-cards": True}]},
        {"first": "Ben", "plays": [{"by": "Ben", "no-cards": True}]},
        {"first": "Ben", "plays": [{"by": "Ben", "no-cards": True}]},
        {"first": "Ben", "plays": [{"by": "Ben", "no-cards": True}]},
    ]
    result = replay_json(record("quentin-c", *rounds))
    assert result["final"]["winner"] == "Cat" and result["final"]["out"] == ["Ann", "Ben"]
    assert result["final"]["tokens"] == {"Ann": 0, "Ben": 0, "Cat": 6}
    assert replay_text(record("quentin-c", *rounds)).endswith("Winner: Cat.")


@pytest.mark.parametrize(
    ("rounds", "where", "reason"),
    [
        ([{"first": "Ann", "plays": [{"by": "Ben", "card": "5"}]}], "round 1, play 1", "Ann's turn"),
        ([{"first": "Ann", "plays": [{"by": "Ann", "card": "5"}, {"by": "Ben", "card": "K", "as": 10}]}],
         "round 1, play 2", "no choice"),
        ([{"first": "Ann", "plays": [{"by": "Ann", "card": "A", "as": 5}]}], "round 1, play 1",
         "cannot count"),
        ([{"first": "Ann", "plays": [{"by": "Ann", "card": "A"}]}], "round 1, play 1", "needs a choice"),
        ([{"first": "Ann", "plays": [{"by": "Ann", "no-safe-card": True}]}], "round 1, play 1", "RS Games"),
        ([{"first": "Ann", "plays": [{"by": "Ann", "no-cards": True}, {"by": "Ben", "card": "3"}]}],
         "round 1, play 2", "already ended"),
        ([{"first": "Ann", "plays": []}, {"first": "Ben", "plays": []}], "round 2", "has not ended"),
        ([{"first": "Zed", "plays": []}], "round 1", "not one of the players"),
        ([{"plays": []}], "round 1", "'first'"),
        ([{"first": "Ann", "plays": [{"by": "Ann", "card": "5", "suit": "hearts"}]}], "round 1, play 1",
         "unknown keys"),
        ([{"first": "Ann", "plays": [{"by": "Ann", "card": "+10"}]}], "round 1, play 1",
         "not a quentin-c card"),
    ],
)
def test_invalid_records_name_the_round_and_play(rounds: list, where: str, reason: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(InvalidRecordError, match=reason) as info:
        replay_json(record("quentin-c", *rounds))
    assert info.value.where == where


def test_invalid_setup_fields() -> None:
    with pytest.raises(InvalidRecordError, match="unknown variant"):
        replay_json(record("uno"))
    with pytest.raises(InvalidRecordError, match="tokens"):
        replay_json({**record(), "tokens": 99})
    with pytest.raises(InvalidRecordError, match="version"):
        replay_json({**record(), "version": 7})


def test_rs_record_with_no_safe_card() -> None:
    result = replay_json(record("rs-games", {"first": "Cat", "plays": [
        {"by": "Cat", "card": "99"}, {"by": "Ann", "card": "skip"}, {"by": "Cat", "no-safe-card": True}]}))
    assert [s["turn"] for s in result["steps"]] == ["Ann", "Cat", None]
    assert result["final"]["tokens"]["Cat"] == 8 and result["steps"][-1]["round_over"]


def test_a_no_safe_card_claim_below_90_is_refused_on_replay_naming_round_and_play() -> None:
    with pytest.raises(InvalidRecordError, match=r"round 1, play 2: at 5 every RS Games card is safe"):
        replay_json(record("rs-games", {"first": "Cat", "plays": [
            {"by": "Cat", "card": "5"}, {"by": "Ann", "no-safe-card": True}]}))
