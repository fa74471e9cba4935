"""A second reviewer's tests for Parlett's Ninety-Nine: bugs found in review, and seed rules pinned
more tightly than the first tests did (seed: /work/shared/seeds/002_*.txt)."""

from __future__ import annotations

import pytest

from rules.errors import InvalidRecordError
from rules.parlett import VARIANTS, Trump, parse_card
from rules.parlett.play import IllegalPlayError, PlayState, deal
from rules.parlett.record import sheet_from_record

P3 = ["Ann", "Ben", "Cat"]
TWO = VARIANTS["two"]


def original(turn_up: str) -> dict:  # type: ignore[type-arg]
    deal_ = {"bids": dict.fromkeys(P3, 3), "tricks": dict.fromkeys(P3, 3), "turn_up": turn_up}
    return {"format": "table99/parlett", "version": 1, "variant": "original", "players": P3,
            "dealer": "Ann", "deals": [deal_]}


# -- Original 99: the turned-up card comes from the 36-card pack plus the joker ---------------------
@pytest.mark.parametrize("card", ["2H", "5C", "11D", "12S"])
def test_original_99_turn_up_outside_its_pack_is_refused_naming_the_deal(card: str) -> None:
    """Original 99 is played with A K Q J T 9 8 7 6 and a joker: a "2H" turned up is a typo, not
    hearts as trumps."""
    with pytest.raises(InvalidRecordError, match=rf"^deal 1: .*{card}.* Original 99"):
        sheet_from_record(original(card))


@pytest.mark.parametrize(("card", "trump"), [("6C", Trump.CLUBS), ("TD", Trump.DIAMONDS),
                                             ("9S", Trump.NO_TRUMP), ("X", Trump.NO_TRUMP),
                                             ("AH", Trump.HEARTS)])
def test_original_99_turn_up_of_its_pack_sets_the_trump(card: str, trump: Trump) -> None:
    assert sheet_from_record(original(card)).deals[0].trump is trump


# -- the trick engine: dealers and seats must exist -------------------------------------------------
def test_two_player_dealer_must_be_a_live_player() -> None:
    """The dummy never deals: a dealer of seat 2 made a state whose order was (-1, 2, 2)."""
    with pytest.raises(IllegalPlayError, match="dealer"):
        deal(TWO, seed=1, dealer=2)
    with pytest.raises(IllegalPlayError, match="dealer"):
        deal(VARIANTS["three"], seed=1, dealer=3)


def test_lay_aside_for_a_seat_that_does_not_exist_is_refused() -> None:
    s = deal(VARIANTS["three"], seed=1)
    with pytest.raises(IllegalPlayError, match="seat -1"):
        s.lay_aside(-1, s.hands[2][:3])  # once silently laid aside seat 2's cards


# -- the two-player dummy's play order, deterministically -------------------------------------------
def _two(hands: str, leader: int, controller: int) -> PlayState:
    parsed = tuple(tuple(parse_card(c) for c in h.split()) for h in hands.split("|"))
    return PlayState(TWO, Trump.NO_TRUMP, 0, parsed, ((), (), ()), leader=leader, tricks_won=(0, 0, 0),
                     dummy_controller=controller)


def test_dummy_winning_a_trick_leads_next_played_by_whoever_played_it_third_from_hand() -> None:
    """Seed: "If the dummy wins a trick, the person who played from it then leads first from dummy
    and third from hand." Seat 0 led and played the dummy; the dummy's ace wins."""
    s = _two("7H 6C | 8H 6D | AH 6S", leader=0, controller=0)
    assert s.order() == (0, 1, 2)
    s = s.play(parse_card("7H")).play(parse_card("8H")).play(parse_card("AH"))
    assert s.leader == 2 and s.controller(2) == 0
    assert s.order() == (2, 1, 0)  # dummy leads (played by seat 0), seat 1 second, seat 0 third


def test_live_player_winning_a_trick_leads_from_hand_and_plays_third_from_dummy() -> None:
    """Seat 1 wins a trick that seat 0 led: seat 1 now leads from hand and plays the dummy third."""
    s = _two("7H 6C | AH 6D | 8H 6S", leader=0, controller=0)
    s = s.play(parse_card("7H")).play(parse_card("AH")).play(parse_card("8H"))
    assert s.leader == 1 and s.controller(2) == 1
    assert s.order() == (1, 0, 2)


# -- seed rules the first tests left loose ------------------------------------------------------------
def _record(variant: str, players: list[str], deals: list[dict], **options: object) -> dict:  # type: ignore[type-arg]
    return {"format": "table99/parlett", "version": 1, "variant": variant, "options": options,
            "players": players, "dealer": players[0], "deals": deals}


def test_four_players_three_diamonds_taking_ten_tricks_is_made_and_scores_alone() -> None:
    """Seed: three diamonds "represents either 0 or 10 tricks, and either number ... fulfils"."""
    four = ["A", "B", "C", "D"]
    deal_ = {"bids": {"A": "DDD", "B": 1, "C": 1, "D": 1}, "tricks": {"A": 10, "B": 0, "C": 0, "D": 0}}
    data = sheet_from_record(_record("four", four, [deal_]))
    score = data.deals[0].score
    assert score.made == {"A": True, "B": False, "C": False, "D": False}
    assert score.total["A"] == 10 + 30
    assert data.next_trump is Trump.SPADES  # one success


@pytest.mark.parametrize(("made", "trump"), [(3, Trump.CLUBS), (2, Trump.HEARTS), (1, Trump.SPADES),
                                             (0, Trump.DIAMONDS)])
def test_five_players_fewer_than_four_successes_set_trumps_as_three_handed(made: int, trump: Trump) -> None:
    five = ["A", "B", "C", "D", "E"]
    tricks = {"A": 3, "B": 2, "C": 2, "D": 1, "E": 1}
    bids = {p: (tricks[p] if i < made else tricks[p] + 1) for i, p in enumerate(five)}
    sheet = sheet_from_record(_record("five", five, [{"bids": bids, "tricks": tricks}]))
    assert sheet.next_trump is trump


def test_two_players_dummy_counts_among_the_three_for_next_trump() -> None:
    """Seed: "thereafter, the trump suit is determined as in the three-handed game"."""
    tricks = {"Ann": 3, "Ben": 3, "dummy": 3}
    only_dummy = {"bids": {"Ann": 4, "Ben": 4, "dummy": 3}, "tricks": tricks}
    sheet = sheet_from_record(_record("two", ["Ann", "Ben"], [only_dummy]))
    assert sheet.deals[0].trump is Trump.CLUBS and sheet.next_trump is Trump.SPADES


def test_declarer_chooses_trumps_first_deal_without_a_bidder_is_no_trump_and_stays() -> None:
    """Seed: "If no one bids in the first deal it is played at no trump. In subsequent deals, if no
    one bids the trump suit remains unchanged"."""
    nobody = {"bids": dict.fromkeys(P3, 3), "tricks": dict.fromkeys(P3, 3)}  # all three make it
    sheet = sheet_from_record(_record("three", P3, [nobody, nobody], declarer_chooses_trumps=True))
    assert [d.trump for d in sheet.deals] == [Trump.NO_TRUMP, Trump.NO_TRUMP]
    assert sheet.next_trump is Trump.NO_TRUMP  # not clubs, as three successes would give


def test_formal_procedure_with_four_players_a_reveal_ends_the_calls_for_those_after() -> None:
    from rules.parlett import Announcements, Premium

    four = ["A", "B", "C", "D"]
    a = Announcements(four, "D", VARIANTS["four"])
    a.call("A", None)
    a.call("B", Premium.DECLARE)
    a.call("C", Premium.REVEAL)
    assert a.waiting_for == "B"  # the overcalled declarer may raise; D gets no call after a reveal
    a.call("B", None)
    assert a.done and a.result == {"C": Premium.REVEAL}


def test_replay_next_after_a_finished_game_is_the_new_games_first_dealer_at_no_trump() -> None:
    from rules.parlett.replay import replay_json

    big = {"bids": {"Ann": 9, "Ben": 0, "Cat": 0}, "premium": {"Ann": "reveal"},
           "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}}
    data = replay_json(_record("three", P3, [big, big]))
    assert data["games"][0]["winners"] == ["Ann"] and data["games"][0]["totals"]["Ann"] == 258
    assert data["next"] == {"dealer": "Ben", "trump": "NT", "trump_may_be_chosen": False}


def test_two_players_dummy_tying_the_loser_also_carries_100_to_the_winner() -> None:
    """Seed: "If it beats or ties with one live player, the winner carries an extra 100 points"."""
    ann_alone = {"bids": {"Ann": 9, "Ben": 1, "dummy": 1}, "tricks": {"Ann": 9, "Ben": 0, "dummy": 0}}
    sheet = sheet_from_record(_record("two", ["Ann", "Ben"], [ann_alone] * 3))  # Ann 3 x 39 = 117
    game = sheet.games[0]
    assert game.totals == {"Ann": 117, "Ben": 0, "dummy": 0} and game.premiums["Ann"] == 100
    assert game.winners == ("Ann",) and game.carried == {"Ann": 100, "Ben": 0, "dummy": 0}
    assert sheet.rubber_totals["Ann"] == 317
