"""Ninety Nine's rules: every card, milestone and penalty of both variants, one named test each."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.count99.cards import Variant, card_effect, choices_for, full_deck, is_safe
from rules.count99.errors import Count99Error, NotYourTurnError, RoundOverError, SetupError, WrongChoiceError
from rules.count99.table import (
    DirectionReversed,
    Eliminated,
    GameWon,
    MilestoneLanded,
    MilestonePassed,
    NoCards,
    NoSafeCard,
    PlayCard,
    PlayerSkipped,
    Reason,
    RoundEnded,
    Setup,
    StartRound,
    Table,
    TokensLost,
)

QC, RS = Variant.QUENTIN_C, Variant.RS_GAMES
NAMES = ("Ann", "Ben", "Cat", "Dan")


def table_at(variant: Variant, count: int, players: int = 3, turn: int = 0, tokens: int = 9) -> Table:
    table, _ = Table.new(Setup(variant, NAMES[:players], tokens=tokens)).apply(StartRound(0))
    return replace(table, count=count, turn=turn)


def play(table: Table, card: str, choice: int | None = None, seat: int | None = None):  # type: ignore[no-untyped-def]
    return table.apply(PlayCard(table.turn if seat is None else seat, card, choice))


def lost(events) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {e.seat: e.amount for e in events if isinstance(e, TokensLost)}


# -- Quentin C cards -------------------------------------------------------------------------------
def test_qc_ace_counts_1_or_11_as_chosen() -> None:
    assert play(table_at(QC, 20), "A", 1)[0].count == 21
    assert play(table_at(QC, 20), "A", 11)[0].count == 31


def test_qc_ace_needs_a_choice_below_89() -> None:
    with pytest.raises(WrongChoiceError, match="choice"):
        play(table_at(QC, 20), "A")


def test_qc_ace_is_forced_to_1_above_88() -> None:
    assert choices_for(QC, "A", 89) == (1,)
    assert play(table_at(QC, 89), "A")[0].count == 90
    with pytest.raises(WrongChoiceError):
        play(table_at(QC, 89), "A", 11)


def test_qc_ace_at_88_may_still_count_11_and_lands_on_99() -> None:
    table, events = play(table_at(QC, 88), "A", 11)
    assert table.count == 99 and MilestoneLanded(0, 99) in events


def test_qc_two_doubles_an_odd_count_or_a_count_up_to_49() -> None:
    assert play(table_at(QC, 21), "2")[0].count == 42
    assert play(table_at(QC, 48), "2")[0].count == 96
    assert play(table_at(QC, 0), "2")[0].count == 0


def test_qc_two_halves_an_even_count_above_49() -> None:
    assert play(table_at(QC, 50), "2")[0].count == 25
    assert play(table_at(QC, 98), "2")[0].count == 49


def test_qc_two_doubles_an_odd_count_above_49_and_busts() -> None:
    table, events = play(table_at(QC, 51), "2")
    assert table.count == 102 and lost(events) == {0: 2}


def test_qc_two_from_33_to_66_lands_on_the_milestone() -> None:
    table, events = play(table_at(QC, 33), "2")
    assert table.count == 66 and lost(events) == {1: 1, 2: 1}


@pytest.mark.parametrize("card", ["3", "5", "6", "7", "8"])
def test_qc_three_to_eight_add_face_value(card: str) -> None:
    assert play(table_at(QC, 10), card)[0].count == 10 + int(card)


def test_qc_nine_passes_without_changing_the_count() -> None:
    table, _ = play(table_at(QC, 97), "9")
    assert table.count == 97 and table.turn == 1


def test_qc_ten_adds_or_subtracts_ten_as_chosen() -> None:
    assert play(table_at(QC, 40), "10", 10)[0].count == 50
    assert play(table_at(QC, 40), "10", -10)[0].count == 30


def test_qc_ten_is_forced_to_minus_ten_from_90() -> None:
    assert choices_for(QC, "10", 90) == (-10,)
    assert choices_for(QC, "10", 89) == (10, -10)
    assert play(table_at(QC, 95), "10")[0].count == 85
    with pytest.raises(WrongChoiceError):
        play(table_at(QC, 90), "10", 10)


def test_qc_ten_never_takes_the_count_below_zero() -> None:
    assert play(table_at(QC, 4), "10", -10)[0].count == 0


def test_qc_jack_adds_ten_and_skips_the_next_player() -> None:
    table, events = play(table_at(QC, 10), "J")
    assert table.count == 20 and table.turn == 2 and PlayerSkipped(1) in events


def test_qc_jack_with_two_players_gives_the_same_player_another_turn() -> None:
    table, _ = play(table_at(QC, 10, players=2), "J")
    assert table.turn == 0


@pytest.mark.parametrize("card", ["Q", "K"])
def test_qc_queen_and_king_add_ten(card: str) -> None:
    table, events = play(table_at(QC, 10), card)
    assert table.count == 20 and table.turn == 1 and not lost(events)


def test_qc_four_adds_four_and_reverses_with_three_players() -> None:
    table, events = play(table_at(QC, 10), "4")
    assert table.count == 14 and table.direction == -1 and table.turn == 2
    assert DirectionReversed(-1) in events


def test_qc_four_does_not_reverse_with_two_players() -> None:
    table, events = play(table_at(QC, 10, players=2), "4")
    assert table.direction == 1 and table.turn == 1
    assert not any(isinstance(e, DirectionReversed) for e in events)


def test_qc_unknown_card_is_refused() -> None:
    with pytest.raises(WrongChoiceError, match="not a quentin-c card"):
        play(table_at(QC, 10), "+10")


def test_qc_a_choice_on_a_card_without_one_is_refused() -> None:
    with pytest.raises(WrongChoiceError, match="no choice"):
        play(table_at(QC, 10), "K", 10)


# -- Quentin C milestones and penalties ------------------------------------------------------------
def test_qc_landing_on_33_costs_every_other_player_one_token() -> None:
    table, events = play(table_at(QC, 27), "6")
    assert table.count == 33 and lost(events) == {1: 1, 2: 1} and MilestoneLanded(0, 33) in events
    assert table.in_round


def test_qc_landing_on_66_costs_every_other_player_one_token() -> None:
    _table, events = play(table_at(QC, 56), "Q")
    assert lost(events) == {1: 1, 2: 1} and MilestoneLanded(0, 66) in events


def test_qc_passing_through_33_costs_the_player_one_token() -> None:
    table, events = play(table_at(QC, 27), "K")
    assert table.count == 37 and lost(events) == {0: 1} and MilestonePassed(0, 33) in events


def test_qc_passing_through_66_costs_the_player_one_token() -> None:
    _, events = play(table_at(QC, 60), "8")
    assert lost(events) == {0: 1}


def test_qc_doubling_through_33_is_passing_through() -> None:
    _, events = play(table_at(QC, 20), "2")
    assert lost(events) == {0: 1}


def test_qc_milestones_count_only_for_raising_cards() -> None:
    _, events = play(table_at(QC, 43), "10", -10)  # down onto 33
    assert not lost(events)
    _, events = play(table_at(QC, 66), "2")  # halving onto 33
    assert not lost(events)
    _, events = play(table_at(QC, 70), "10", -10)  # down through 66
    assert not lost(events)
    _, events = play(table_at(QC, 33), "9")  # staying on 33
    assert not lost(events)


def test_qc_landing_on_99_costs_others_two_and_ends_the_round() -> None:
    table, events = play(table_at(QC, 89), "K")
    assert table.count == 99 and lost(events) == {1: 2, 2: 2} and not table.in_round
    assert RoundEnded(1, Reason.LANDED_99, 0) in events


def test_qc_busting_costs_two_tokens_and_ends_the_round() -> None:
    table, events = play(table_at(QC, 95), "5")
    assert table.count == 100 and lost(events) == {0: 2} and not table.in_round
    assert RoundEnded(1, Reason.BUST, 0) in events


def test_qc_a_bust_through_66_costs_only_the_bust() -> None:
    _, events = play(table_at(QC, 61), "2")  # 61 -> 122
    assert lost(events) == {0: 2}


def test_qc_no_cards_costs_three_tokens() -> None:
    _table, events = table_at(QC, 40).apply(NoCards(0))
    assert lost(events) == {0: 3} and RoundEnded(1, Reason.NO_CARDS, 0) in events


def test_qc_has_no_no_safe_card_rule() -> None:
    with pytest.raises(Count99Error, match="RS Games"):
        table_at(QC, 95).apply(NoSafeCard(0))


# -- RS Games cards ------------------------------------------------------------------------------
@pytest.mark.parametrize("value", range(1, 10))
def test_rs_number_cards_add_face_value(value: int) -> None:
    assert play(table_at(RS, 20), str(value))[0].count == 20 + value


def test_rs_plus_ten_adds_ten() -> None:
    assert play(table_at(RS, 20), "+10")[0].count == 30


def test_rs_minus_ten_subtracts_ten_and_stops_at_zero() -> None:
    assert play(table_at(RS, 25), "-10")[0].count == 15
    assert play(table_at(RS, 5), "-10")[0].count == 0


def test_rs_pass_adds_nothing() -> None:
    table, _ = play(table_at(RS, 99), "pass")
    assert table.count == 99 and table.turn == 1


def test_rs_reverse_turns_the_direction_with_three_players() -> None:
    table, _events = play(table_at(RS, 50), "reverse")
    assert table.count == 50 and table.direction == -1 and table.turn == 2


def test_rs_reverse_with_two_players_changes_nothing() -> None:
    table, _ = play(table_at(RS, 50, players=2), "reverse")
    assert table.direction == 1 and table.turn == 1


def test_rs_skip_adds_nothing_and_skips_the_next_player() -> None:
    table, events = play(table_at(RS, 50), "skip")
    assert table.count == 50 and table.turn == 2 and PlayerSkipped(1) in events


def test_rs_ninety_nine_sets_the_count_to_99_without_a_milestone() -> None:
    table, events = play(table_at(RS, 12), "99")
    assert table.count == 99 and table.in_round and not lost(events)


def test_rs_ace_and_face_cards_do_not_exist() -> None:
    for card in ("A", "J", "10"):
        with pytest.raises(WrongChoiceError):
            play(table_at(RS, 12), card)


# -- RS Games penalties --------------------------------------------------------------------------
def test_rs_has_no_milestones() -> None:
    _, events = play(table_at(RS, 27), "6")
    assert not lost(events)
    _, events = play(table_at(RS, 30), "+10")
    assert not lost(events)
    table, events = play(table_at(RS, 90), "9")
    assert table.count == 99 and table.in_round and not lost(events)


def test_rs_busting_costs_one_token() -> None:
    _table, events = play(table_at(RS, 95), "+10")
    assert lost(events) == {0: 1} and RoundEnded(1, Reason.BUST, 0) in events


def test_rs_no_safe_card_costs_one_token_and_ends_the_round() -> None:
    table, events = table_at(RS, 95).apply(NoSafeCard(0))
    assert lost(events) == {0: 1} and not table.in_round
    assert RoundEnded(1, Reason.NO_SAFE_CARD, 0) in events


def test_rs_no_cards_costs_three_tokens() -> None:
    _, events = table_at(RS, 40).apply(NoCards(0))
    assert lost(events) == {0: 3}


def test_safe_cards() -> None:
    assert is_safe(RS, "pass", 99) and is_safe(RS, "-10", 99) and is_safe(RS, "99", 99)
    assert not is_safe(RS, "1", 99) and not is_safe(RS, "+10", 90)
    assert is_safe(QC, "A", 98) and not is_safe(QC, "A", 99) and is_safe(QC, "10", 99)


# -- turns, rounds, elimination, winning ---------------------------------------------------------
def test_playing_out_of_turn_is_refused() -> None:
    with pytest.raises(NotYourTurnError, match="Ann's turn"):
        table_at(QC, 0).apply(PlayCard(1, "5"))


def test_no_play_between_rounds() -> None:
    table, _ = play(table_at(QC, 95), "K")
    with pytest.raises(RoundOverError):
        table.apply(PlayCard(1, "5"))


def test_next_round_resets_the_count_and_direction_and_rotates_the_starter() -> None:
    table, _ = play(table_at(QC, 10), "4")
    table, _ = play(table, "K")  # Cat, 14 -> 24
    table = replace(table, count=95)
    table, _ = table.apply(PlayCard(table.turn or 0, "K"))
    assert not table.in_round and table.next_first() == 1
    table, _ = table.apply(StartRound(table.next_first()))
    assert (table.count, table.direction, table.turn, table.round_no) == (0, 1, 1, 2)


def test_elimination_and_the_last_player_standing_wins() -> None:
    table = table_at(QC, 89, tokens=2)
    table, events = play(table, "K")  # lands on 99: Ben and Cat lose 2 and are out
    assert Eliminated(1) in events and Eliminated(2) in events
    assert GameWon(0) in events and table.winner == 0 and table.over
    with pytest.raises(RoundOverError, match="over"):
        table.apply(StartRound(0))


def test_an_eliminated_player_is_left_out_of_turns_and_skips() -> None:
    table = replace(table_at(QC, 10, players=4), tokens=(9, 0, 9, 9))
    table, events = play(table, "J")
    assert PlayerSkipped(2) in events and table.turn == 3


def test_a_player_put_out_by_passing_a_milestone_passes_the_turn_on() -> None:
    table = replace(table_at(QC, 30), tokens=(1, 9, 9))
    table, events = play(table, "5")
    assert Eliminated(0) in events and table.in_round and table.turn == 1


def test_tokens_never_go_below_zero() -> None:
    table = table_at(QC, 40, tokens=1)
    table, events = table.apply(NoCards(0))
    assert table.tokens[0] == 0 and TokensLost(0, 3, 0, Reason.NO_CARDS) in events


def test_setup_limits() -> None:
    Setup(QC, ("a", "b"), tokens=50, hand_size=13)
    for bad in (dict(tokens=0), dict(tokens=51), dict(hand_size=0), dict(hand_size=14)):
        with pytest.raises(SetupError):
            Setup(QC, ("a", "b"), **bad)  # type: ignore[arg-type]
    with pytest.raises(SetupError):
        Setup(QC, ("a",))
    with pytest.raises(SetupError):
        Setup(QC, ("a", "a"))


def test_the_decks() -> None:
    assert len(full_deck(QC)) == 52 and len(full_deck(RS)) == 60
    assert full_deck(RS).count("99") == 4 and full_deck(QC).count("A") == 4


def test_effects_are_plain_values() -> None:
    assert card_effect(QC, "J", 0).skips and card_effect(RS, "reverse", 0).reverses


def test_rs_no_safe_card_is_refused_below_90_where_every_card_is_safe() -> None:
    with pytest.raises(Count99Error, match="at 89 every RS Games card is safe"):
        table_at(RS, 89).apply(NoSafeCard(0))
    table, _ = table_at(RS, 90).apply(NoSafeCard(0))  # a hand of +10s has no safe card at 90
    assert not table.in_round
