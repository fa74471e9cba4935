"""Parlett's Ninety-Nine: one named test per rule of the seed (and per decision in docs/parlett.md)."""

from __future__ import annotations

import pytest

from rules.errors import InvalidActionError, InvalidRecordError
from rules.parlett import (
    DUMMY,
    VARIANTS,
    Announcements,
    DealEntry,
    Options,
    Premium,
    Scoresheet,
    Table,
    Trump,
    bid_from_number,
    bid_from_suits,
    parse_bid,
    resolve_offers,
    score_deal,
)
from rules.parlett.bids import suits_for
from rules.parlett.premiums import PremiumError, priority_order
from rules.parlett.record import sheet_from_record
from rules.parlett.scoring import DealError

THREE, FOUR, FIVE, TWO, ORIGINAL = (VARIANTS[n] for n in ("three", "four", "five", "two", "original"))
P3 = ("Ann", "Ben", "Cat")


def entry(variant, bids, tricks, premiums=None, **kw):  # type: ignore[no-untyped-def]
    return DealEntry({h: parse_bid(b, variant) for h, b in bids.items()}, tricks,
                     {h: Premium(k) for h, k in (premiums or {}).items()}, **kw)


def table(variant=THREE, players=P3, dealer=0, **options):  # type: ignore[no-untyped-def]
    return Table(variant, Options(**options), tuple(players), dealer)


# -- bids -------------------------------------------------------------------------------------------
def test_bid_suits_count_clubs_3_hearts_2_spades_1_diamonds_0() -> None:
    assert bid_from_suits("C" * 3, THREE).value == 9
    assert bid_from_suits("HHH", THREE).value == 6
    assert bid_from_suits("SSS", THREE).value == 3
    assert bid_from_suits("DDD", THREE).value == 0


@pytest.mark.parametrize(("cards", "tricks"), [("CCC", 9), ("DDD", 0), ("CDD", 3), ("HSD", 3), ("SSS", 3)])
def test_seed_bid_examples(cards: str, tricks: int) -> None:
    """The seed: nine by ♣♣♣, none by ♦♦♦, three by ♣♦♦, ♥♠♦ or ♠♠♠."""
    assert bid_from_suits(cards, THREE).tricks == {tricks}


def test_bid_letters_in_any_order_and_case_are_the_same_bid() -> None:
    assert bid_from_suits("shc", THREE) == bid_from_suits("CHS", THREE)
    assert bid_from_suits("shc", THREE).cards == "CHS"


def test_bid_by_number_and_every_number_has_bid_cards() -> None:
    for n in range(10):
        assert bid_from_suits(suits_for(n), THREE).value == n == bid_from_number(n, THREE).value


def test_bid_of_ten_with_three_players_is_impossible() -> None:
    with pytest.raises(ValueError, match="impossible with 3 players"):
        bid_from_number(10, THREE)


def test_bad_bid_cards_are_rejected() -> None:
    for bad in ("CH", "CHSD", "CHX", ""):
        with pytest.raises(ValueError, match="three letters"):
            bid_from_suits(bad, THREE)
    with pytest.raises(ValueError):
        parse_bid(True, THREE)


def test_four_players_three_diamonds_mean_0_or_10_and_either_fulfils() -> None:
    bid = bid_from_suits("DDD", FOUR)
    assert bid.fulfilled(0) and bid.fulfilled(10) and not bid.fulfilled(5)
    assert bid_from_number(10, FOUR).tricks == bid_from_number(0, FOUR).tricks == {0, 10}


# -- premiums ---------------------------------------------------------------------------------------
def test_priority_runs_from_dealers_left_and_dealer_last() -> None:
    assert priority_order(P3, "Cat") == ("Ann", "Ben", "Cat")
    assert priority_order(P3, "Ann") == ("Ben", "Cat", "Ann")


def test_reveal_overcalls_declare_regardless_of_position() -> None:
    offers = {"Ann": Premium.DECLARE, "Cat": Premium.REVEAL}
    assert resolve_offers(offers, P3, "Cat", THREE) == {"Cat": Premium.REVEAL}


def test_between_equal_offers_the_player_nearest_dealers_left_wins() -> None:
    offers = {"Ben": Premium.DECLARE, "Cat": Premium.DECLARE}
    assert resolve_offers(offers, P3, "Ann", THREE) == {"Ben": Premium.DECLARE}
    assert resolve_offers(offers, P3, "Ben", THREE) == {"Cat": Premium.DECLARE}  # dealer Ben is last
    reveals = {"Ann": Premium.REVEAL, "Ben": Premium.REVEAL}
    assert resolve_offers(reveals, P3, "Ann", THREE) == {"Ben": Premium.REVEAL}


def test_formal_procedure_overcalled_declarer_may_raise_to_reveal() -> None:
    a = Announcements(P3, "Cat", THREE)
    assert a.waiting_for == "Ann"
    a.call("Ann", Premium.DECLARE)
    a.call("Ben", Premium.REVEAL)
    assert a.waiting_for == "Ann"  # Ann may raise
    a.call("Ann", Premium.REVEAL)
    assert a.done and a.result == {"Ann": Premium.REVEAL}


def test_formal_procedure_reveal_stands_when_declarer_does_not_raise() -> None:
    a = Announcements(P3, "Cat", THREE)
    a.call("Ann", Premium.DECLARE)
    a.call("Ben", None)
    a.call("Cat", Premium.REVEAL)
    a.call("Ann", None)
    assert a.done and a.result == {"Cat": Premium.REVEAL}


def test_formal_procedure_turn_order_and_no_overcall_of_an_earlier_reveal() -> None:
    a = Announcements(P3, "Cat", THREE)
    with pytest.raises(PremiumError, match="Ann's call"):
        a.call("Ben", Premium.DECLARE)
    a.call("Ann", Premium.REVEAL)
    assert a.done and a.result == {"Ann": Premium.REVEAL}
    b = Announcements(P3, "Cat", THREE)
    b.call("Ann", Premium.DECLARE)
    with pytest.raises(PremiumError, match="only overcall by revealing"):
        b.call("Ben", Premium.DECLARE)
    c = Announcements(P3, "Cat", THREE)
    for p in P3:
        c.call(p, None)
    assert c.done and c.result == {}


def test_five_players_any_number_declare_nobody_reveals() -> None:
    players = ("A", "B", "C", "D", "E")
    offers = {"A": Premium.DECLARE, "C": Premium.DECLARE, "E": Premium.DECLARE}
    assert resolve_offers(offers, players, "E", FIVE) == offers
    with pytest.raises(PremiumError, match="nobody may reveal"):
        resolve_offers({"A": Premium.REVEAL}, players, "E", FIVE)


def test_two_players_either_or_both_declare_nobody_reveals_dummy_never() -> None:
    t = table(TWO, ("Ann", "Ben"))
    sheet = Scoresheet.start(t)
    both = entry(TWO, {"Ann": 3, "Ben": 3, DUMMY: 3}, {"Ann": 3, "Ben": 3, DUMMY: 3},
                 {"Ann": "declare", "Ben": "declare"})
    sheet.add(both)
    threes = {"Ann": 3, "Ben": 3, DUMMY: 3}
    with pytest.raises(PremiumError, match="nobody may reveal"):
        sheet.add(entry(TWO, threes, threes, {"Ann": "reveal"}))
    with pytest.raises(PremiumError, match="dummy never"):
        sheet.add(entry(TWO, threes, threes, {DUMMY: "declare"}))


def test_two_revealers_are_invalid_with_three_players() -> None:
    e = entry(THREE, {"Ann": 3, "Ben": 3, "Cat": 3}, {"Ann": 3, "Ben": 3, "Cat": 3},
              {"Ann": "reveal", "Ben": "reveal"})
    with pytest.raises(PremiumError, match="two revealers"):
        Scoresheet.start(table()).add(e)


# -- scoring ----------------------------------------------------------------------------------------
def test_one_point_per_trick_regardless_of_bid() -> None:
    s = score_deal(entry(THREE, {"Ann": 0, "Ben": 0, "Cat": 0}, {"Ann": 4, "Ben": 3, "Cat": 2}), THREE)
    assert s.total == {"Ann": 4, "Ben": 3, "Cat": 2}


@pytest.mark.parametrize(("made", "each"), [(3, 10), (2, 20), (1, 30)])
def test_three_player_contract_score_by_successes(made: int, each: int) -> None:
    tricks = {"Ann": 3, "Ben": 3, "Cat": 3}
    bids = {p: (3 if i < made else 4) for i, p in enumerate(P3)}
    s = score_deal(entry(THREE, bids, tricks), THREE)
    assert [s.contract[p] for p in P3] == [each if i < made else 0 for i in range(3)]


def test_four_players_contract_score_and_zero_when_all_or_none_succeed() -> None:
    players = ("A", "B", "C", "D")
    tricks = {"A": 4, "B": 3, "C": 2, "D": 1}
    for made, each in ((1, 30), (2, 20), (3, 10), (4, 0), (0, 0)):
        bids = {p: (tricks[p] if i < made else tricks[p] + 1) for i, p in enumerate(players)}
        s = score_deal(entry(FOUR, bids, tricks), FOUR)
        assert sum(s.contract.values()) == each * made, made


def test_five_players_contract_score_50_40_30_20_10() -> None:
    players = ("A", "B", "C", "D", "E")
    tricks = {"A": 3, "B": 2, "C": 2, "D": 1, "E": 1}
    for made, each in ((1, 50), (2, 40), (3, 30), (4, 20), (5, 10)):
        bids = {p: (tricks[p] if i < made else tricks[p] + 1) for i, p in enumerate(players)}
        s = score_deal(entry(FIVE, bids, tricks), FIVE)
        assert [s.contract[p] for p in players] == [each] * made + [0] * (5 - made)


def test_successful_declare_scores_30_and_reveal_60() -> None:
    tricks = {"Ann": 5, "Ben": 2, "Cat": 2}
    bids = {"Ann": 5, "Ben": 1, "Cat": 1}
    assert score_deal(entry(THREE, bids, tricks, {"Ann": "declare"}), THREE).premium["Ann"] == 30
    assert score_deal(entry(THREE, bids, tricks, {"Ann": "reveal"}), THREE).premium["Ann"] == 60


def test_failed_premium_goes_to_each_opponent_whatever_their_own_result() -> None:
    s = score_deal(entry(THREE, {"Ann": 4, "Ben": 2, "Cat": 1}, {"Ann": 5, "Ben": 2, "Cat": 2},
                         {"Ann": "reveal"}), THREE)
    assert s.premium == {"Ann": 0, "Ben": 60, "Cat": 60}
    four = ("A", "B", "C", "D")
    s4 = score_deal(entry(FOUR, dict.fromkeys(four, 1), {"A": 7, "B": 1, "C": 1, "D": 1}, {"A": "declare"}),
                    FOUR)
    assert s4.premium == {"A": 0, "B": 30, "C": 30, "D": 30}


def test_five_players_declarers_score_plus_or_minus_50() -> None:
    tricks = {"A": 3, "B": 2, "C": 2, "D": 1, "E": 1}
    bids = {"A": 3, "B": 2, "C": 0, "D": 1, "E": 1}
    s = score_deal(entry(FIVE, bids, tricks, {"A": "declare", "C": "declare"}), FIVE)
    assert s.premium == {"A": 50, "B": 0, "C": -50, "D": 0, "E": 0}


def test_two_players_one_declarer_fails_other_two_score_30() -> None:
    s = score_deal(entry(TWO, {"Ann": 4, "Ben": 3, DUMMY: 3}, {"Ann": 3, "Ben": 3, DUMMY: 3},
                         {"Ann": "declare"}), TWO)
    assert s.premium == {"Ann": 0, "Ben": 30, DUMMY: 30}


def test_two_players_both_declare_and_fail_dummy_scores_60() -> None:
    s = score_deal(entry(TWO, {"Ann": 4, "Ben": 4, DUMMY: 1}, {"Ann": 3, "Ben": 3, DUMMY: 3},
                         {"Ann": "declare", "Ben": "declare"}), TWO)
    assert s.premium == {"Ann": 0, "Ben": 0, DUMMY: 60}


def test_three_players_best_possible_deal_is_99() -> None:
    s = score_deal(entry(THREE, {"Ann": 9, "Ben": 1, "Cat": 1}, {"Ann": 9, "Ben": 0, "Cat": 0},
                         {"Ann": "reveal"}), THREE)
    assert s.total["Ann"] == 99


def test_tricks_that_do_not_add_up_are_rejected() -> None:
    with pytest.raises(DealError, match="add up to 8, but 9"):
        Scoresheet.start(table()).add(entry(THREE, dict.fromkeys(P3, 3), {"Ann": 3, "Ben": 3, "Cat": 2}))


def test_missing_or_unknown_players_are_rejected() -> None:
    sheet = Scoresheet.start(table())
    with pytest.raises(DealError, match="no bid for Cat"):
        sheet.add(entry(THREE, {"Ann": 3, "Ben": 3}, {"Ann": 3, "Ben": 3, "Cat": 3}))
    with pytest.raises(DealError, match="Dan, who is not"):
        sheet.add(entry(THREE, {"Ann": 3, "Ben": 3, "Cat": 3, "Dan": 1}, {"Ann": 3, "Ben": 3, "Cat": 3}))


# -- trumps -----------------------------------------------------------------------------------------
def _deal_with_successes(n: int, variant=THREE, players=P3):  # type: ignore[no-untyped-def]
    per = variant.tricks // len(players)
    tricks = {p: per for p in players}
    tricks[players[0]] += variant.tricks - per * len(players)
    bids = {p: (tricks[p] if i < n else tricks[p] + 1) for i, p in enumerate(players)}
    return entry(variant, bids, tricks)


def test_first_deal_at_no_trump() -> None:
    assert Scoresheet.start(table()).next_trump is Trump.NO_TRUMP


@pytest.mark.parametrize(("made", "trump"), [(3, Trump.CLUBS), (2, Trump.HEARTS), (1, Trump.SPADES),
                                             (0, Trump.DIAMONDS)])
def test_trump_follows_previous_successes(made: int, trump: Trump) -> None:
    sheet = Scoresheet.start(table()).add(_deal_with_successes(made))
    assert sheet.next_trump is trump
    assert sheet.add(_deal_with_successes(3)).deals[-1].trump is trump


def test_four_players_all_succeed_means_no_trump_next() -> None:
    four = ("A", "B", "C", "D")
    sheet = Scoresheet.start(table(FOUR, four))
    assert sheet.add(_deal_with_successes(4, FOUR, four)).next_trump is Trump.NO_TRUMP
    assert sheet.add(_deal_with_successes(3, FOUR, four)).next_trump is Trump.CLUBS
    assert sheet.add(_deal_with_successes(0, FOUR, four)).next_trump is Trump.DIAMONDS


def test_five_players_four_or_five_succeed_means_no_trump_next() -> None:
    five = ("A", "B", "C", "D", "E")
    sheet = Scoresheet.start(table(FIVE, five))
    for made, trump in ((5, Trump.NO_TRUMP), (4, Trump.NO_TRUMP), (3, Trump.CLUBS), (1, Trump.SPADES)):
        assert sheet.add(_deal_with_successes(made, FIVE, five)).next_trump is trump


def test_two_players_first_deal_clubs() -> None:
    assert Scoresheet.start(table(TWO, ("Ann", "Ben"))).next_trump is Trump.CLUBS


def test_original_99_turn_up_sets_trump_nine_or_joker_no_trump() -> None:
    sheet = Scoresheet.start(table(ORIGINAL))
    assert sheet.next_trump is None  # decided by the card turned up
    base = {"bids": dict.fromkeys(P3, 3), "tricks": dict.fromkeys(P3, 3)}
    record = {"format": "table99/parlett", "variant": "original", "players": list(P3), "dealer": "Ann",
              "deals": [base | {"turn_up": "KH"}, base | {"turn_up": "9S"}, base | {"turn_up": "X"}]}
    trumps = [d.trump for d in sheet_from_record(record).deals]
    assert trumps == [Trump.HEARTS, Trump.NO_TRUMP, Trump.NO_TRUMP]
    with pytest.raises(InvalidRecordError, match="deal 1: Original 99 needs the turned-up card"):
        sheet_from_record(record | {"deals": [base]})


def test_declarer_chooses_trumps_and_trump_stays_when_nobody_bids() -> None:
    t = table(declarer_chooses_trumps=True)
    sheet = Scoresheet.start(t)
    chosen = entry(THREE, dict.fromkeys(P3, 3), dict.fromkeys(P3, 3), {"Ben": "declare"}, trump=Trump.HEARTS)
    sheet = sheet.add(chosen)
    assert sheet.deals[-1].trump is Trump.HEARTS
    assert sheet.next_trump is Trump.HEARTS  # nobody bids: unchanged
    sheet = sheet.add(_deal_with_successes(0))
    assert sheet.deals[-1].trump is Trump.HEARTS
    with pytest.raises(DealError, match="who declares or reveals"):
        sheet.add(entry(THREE, dict.fromkeys(P3, 3), dict.fromkeys(P3, 3), trump=Trump.CLUBS))
    with pytest.raises(DealError, match="nines_as_trumps"):
        sheet.add(entry(THREE, dict.fromkeys(P3, 3), dict.fromkeys(P3, 3), {"Ann": "declare"},
                        trump=Trump.NINES))


def test_nines_as_trumps_only_with_the_option_and_otherwise_trumps_by_successes() -> None:
    sheet = Scoresheet.start(table(nines_as_trumps=True))
    sheet = sheet.add(entry(THREE, dict.fromkeys(P3, 3), dict.fromkeys(P3, 3), {"Ann": "reveal"},
                            trump=Trump.NINES))
    assert sheet.deals[-1].trump is Trump.NINES
    assert sheet.next_trump is Trump.CLUBS  # all three made it
    with pytest.raises(DealError, match="only with"):
        Scoresheet.start(table()).add(entry(THREE, dict.fromkeys(P3, 3), dict.fromkeys(P3, 3),
                                            {"Ann": "declare"}, trump=Trump.CLUBS))


# -- games, rubbers, dealers ------------------------------------------------------------------------
BIG = {"bids": {"Ann": 9, "Ben": 0, "Cat": 0}, "premium": {"Ann": "reveal"},
       "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}}  # Ann 9+10+60=79, Ben 10, Cat 10


def record(deals, variant="three", players=P3, dealer="Ann", **options):  # type: ignore[no-untyped-def]
    return {"format": "table99/parlett", "version": 1, "variant": variant, "options": options,
            "players": list(players), "dealer": dealer, "deals": deals}


def test_game_to_100_with_100_premium_to_everyone_reaching_it() -> None:
    sheet = sheet_from_record(record([BIG, BIG]))
    game = sheet.games[0]
    assert game.totals == {"Ann": 158, "Ben": 20, "Cat": 20}
    assert game.premiums == {"Ann": 100, "Ben": 0, "Cat": 0}
    assert game.winners == ("Ann",) and game.final["Ann"] == 258
    assert sheet.game_totals == {"Ann": 0, "Ben": 0, "Cat": 0}  # a new game starts at zero
    assert sheet.rubber_totals == {"Ann": 258, "Ben": 20, "Cat": 20}


def test_two_players_reaching_100_both_get_the_premium() -> None:
    even = {"bids": {"Ann": 4, "Ben": 4, "Cat": 0},
            "tricks": {"Ann": 4, "Ben": 4, "Cat": 1}}  # Ann, Ben 4+20 each deal, Cat 1
    sheet = sheet_from_record(record([even] * 5))
    first = sheet.games[0]
    assert first.totals == {"Ann": 120, "Ben": 120, "Cat": 5}
    assert first.premiums == {"Ann": 100, "Ben": 100, "Cat": 0}
    assert first.winners == ("Ann", "Ben")  # a shared win


def test_rubber_of_three_games_dealer_rotates_and_each_game_dealt_first_in_turn() -> None:
    sheet = sheet_from_record(record([BIG] * 6))
    assert len(sheet.games) == 3 and sheet.over and sheet.winners == ("Ann",)
    assert [d.dealer for d in sheet.deals] == ["Ann", "Ben", "Ben", "Cat", "Cat", "Ann"]
    with pytest.raises(InvalidRecordError, match="deal 7: the rubber is over"):
        sheet_from_record(record([BIG] * 7))


def test_new_game_starts_at_no_trump_by_default_or_continues_by_option() -> None:
    reset = sheet_from_record(record([BIG, BIG, BIG]))
    assert reset.deals[2].trump is Trump.NO_TRUMP
    carry = sheet_from_record(record([BIG, BIG, BIG], new_game_trump="continue"))
    assert carry.deals[2].trump is Trump.CLUBS


def test_four_players_rubber_of_four_games_and_five_players_five_or_a_target() -> None:
    four = ("A", "B", "C", "D")
    assert Scoresheet.start(table(FOUR, four)).table.rubber_games == 4
    five = ("A", "B", "C", "D", "E")
    assert Scoresheet.start(table(FIVE, five)).table.rubber_games == 5
    win = {"bids": {"A": 9, "B": 1, "C": 1, "D": 1, "E": 1}, "premium": {"A": "declare"},
           "tricks": {"A": 9, "B": 0, "C": 0, "D": 0, "E": 0}}  # A: 9 + 50 + 50 = 109
    sheet = sheet_from_record(record([win, win, win], "five", five, "A", target=250))
    assert not sheet.games  # no games to 100 when playing to a target
    assert [d.rubber_totals["A"] for d in sheet.deals] == [109, 218, 327] and sheet.over
    assert sheet.winners == ("A",)


def test_original_99_rubber_is_exactly_nine_hands() -> None:
    deal = {"bids": {"Ann": 9, "Ben": 0, "Cat": 0}, "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}, "turn_up": "AC"}
    sheet = sheet_from_record(record([deal] * 9, "original"))
    assert sheet.over and not sheet.games and sheet.rubber_totals["Ann"] == 9 * (9 + 10)
    # "the players' cumulative scores determining who has then won, and by how much"
    assert sheet.winners == ("Ann",) and sheet.margin == 9 * (9 + 10) - 9 * 10  # Ben and Cat made 0
    assert sheet_from_record(record([deal] * 8, "original")).margin is None  # not over yet
    with pytest.raises(InvalidRecordError, match="deal 10: the rubber is over"):
        sheet_from_record(record([deal] * 10, "original"))


def test_two_players_dealer_alternates_between_live_players() -> None:
    d = {"bids": {"Ann": 3, "Ben": 3, DUMMY: 3}, "tricks": {"Ann": 3, "Ben": 3, DUMMY: 3}}
    sheet = sheet_from_record(record([d, d, d], "two", ("Ann", "Ben")))
    assert [x.dealer for x in sheet.deals] == ["Ann", "Ben", "Ann"]


def _two_game(ann: int, ben: int, dummy: int, **options):  # type: ignore[no-untyped-def]
    """A two-player rubber whose first game ends with these totals in play (one deal each of 9 tricks
    would not reach 100, so the trick points come from many deals)."""
    return _two_sheet(ann, ben, dummy, **options).games[0]


def _two_sheet(ann: int, ben: int, dummy: int, **options):  # type: ignore[no-untyped-def]
    from rules.parlett.match import Scoresheet as S

    sheet = S.start(table(TWO, ("Ann", "Ben"), **options))
    parts = {"Ann": ann, "Ben": ben, DUMMY: dummy}
    while not sheet.games:
        tricks = {h: 0 for h in parts}
        left = 9
        for h in sorted(parts, key=lambda h: -parts[h]):
            take = min(left, parts[h] - sheet.game_totals[h])
            tricks[h] = max(take, 0)
            left -= tricks[h]
        tricks[max(parts, key=lambda h: parts[h] - sheet.game_totals[h])] += left
        bids = {h: (tricks[h] + 1) % 10 for h in parts}  # nobody makes it: trick points only
        sheet = sheet.add(entry(TWO, bids, tricks))
    return sheet


def test_two_players_dummy_winning_makes_the_game_a_tie_between_live_players() -> None:
    game = _two_game(60, 50, 100)
    assert game.final[DUMMY] > max(game.final["Ann"], game.final["Ben"])
    assert game.winners == ()


def test_two_players_dummy_beating_a_live_player_carries_100_to_the_winner() -> None:
    game = _two_game(100, 20, 40)
    assert game.winners == ("Ann",) and game.carried == {"Ann": 100, "Ben": 0, DUMMY: 0}
    plain = _two_game(100, 40, 20)
    assert plain.winners == ("Ann",) and plain.carried["Ann"] == 0
    assert game.dummy_bonus == "carry" and plain.dummy_bonus is None


def test_two_players_hard_score_the_winner_wins_double_when_the_dummy_beats_or_ties_a_player() -> None:
    """The seed: "... carries an extra 100 points forward, or, if playing for hard score, wins
    double". Hard score settles the difference between the live players, so winning double adds
    the winner's margin once more: the rubber difference between the two is twice the game's."""
    game = _two_game(100, 20, 40, dummy_bonus="double")
    margin = game.totals["Ann"] + game.premiums["Ann"] - game.totals["Ben"]
    assert game.winners == ("Ann",) and game.dummy_bonus == "double"
    assert game.carried == {"Ann": margin, "Ben": 0, DUMMY: 0}
    assert game.final["Ann"] - game.final["Ben"] == 2 * margin
    from rules.parlett.match import Scoresheet as S

    tie_sheet = S.start(table(TWO, ("Ann", "Ben"), dummy_bonus="double"))
    while not tie_sheet.games:  # Ann 7, Ben 1, dummy 1 tricks a deal, nobody makes the bid
        tie_sheet = tie_sheet.add(entry(TWO, {"Ann": 8, "Ben": 2, DUMMY: 2}, {"Ann": 7, "Ben": 1, DUMMY: 1}))
    tie = tie_sheet.games[0]  # the dummy ties the loser: double too
    assert tie.totals["Ben"] == tie.totals[DUMMY] > 0
    assert tie.carried["Ann"] == tie.totals["Ann"] + tie.premiums["Ann"] - tie.totals["Ben"] > 0
    plain = _two_game(100, 40, 20, dummy_bonus="double")  # both live players beat the dummy
    assert plain.carried["Ann"] == 0 and plain.dummy_bonus is None
    dummy_won = _two_game(60, 50, 100, dummy_bonus="double")
    assert dummy_won.winners == () and dummy_won.carried == {"Ann": 0, "Ben": 0, DUMMY: 0}


def test_dummy_bonus_option_is_checked_and_only_for_two_players() -> None:
    with pytest.raises(ValueError, match="dummy_bonus must be 'carry' or 'double'"):
        Options(dummy_bonus="triple").check(TWO)
    with pytest.raises(ValueError, match="dummy_bonus is a two-player rule"):
        Options(dummy_bonus="double").check(THREE)


def test_replay_shows_the_dummy_bonus_of_each_game() -> None:
    from rules.parlett.record import to_record
    from rules.parlett.replay import replay_json, replay_text

    sheet = _two_sheet(100, 20, 40, dummy_bonus="double")
    rec = to_record(sheet.table, [d.entry for d in sheet.deals])
    assert rec["options"] == {"dummy_bonus": "double"}
    out = replay_json(rec)
    game = out["games"][0]
    assert game["dummy_bonus"] == "double" and game["carried"]["Ann"] > 0
    assert out["rubber"]["dummy_bonus"] == "double"
    assert "Ann wins double" in replay_text(rec)
    carry = _two_sheet(100, 20, 40)
    text = replay_text(to_record(carry.table, [d.entry for d in carry.deals]))
    assert "Ann carries 100 forward" in text


# -- options and records ----------------------------------------------------------------------------
def test_unknown_option_is_named() -> None:
    with pytest.raises(InvalidRecordError, match="options: unknown option 'nine_trumps'"):
        sheet_from_record(record([], nine_trumps=True))


def test_unbidden_variant_scores_like_three_and_only_for_three() -> None:
    sheet = sheet_from_record(record([BIG], unbidden=True))
    assert sheet.deals[0].score.total["Ann"] == 79
    with pytest.raises(InvalidRecordError, match="unbidden is a three-player variant"):
        sheet_from_record(record([], "four", ("A", "B", "C", "D"), "A", unbidden=True))


def test_invalid_record_errors_name_the_deal() -> None:
    bad_tricks = {"bids": dict.fromkeys(P3, 3), "tricks": {"Ann": 3, "Ben": 3, "Cat": 4}}
    with pytest.raises(InvalidRecordError, match=r"^deal 2: the tricks add up to 10"):
        sheet_from_record(record([BIG, bad_tricks]))
    ten = {"bids": {"Ann": 10, "Ben": 0, "Cat": 0}, "tricks": dict.fromkeys(P3, 3)}
    with pytest.raises(InvalidRecordError, match=r"^deal 1: Ann's bid: a bid of 10 is impossible"):
        sheet_from_record(record([ten]))
    with pytest.raises(InvalidRecordError, match=r"^deal 1: unknown key 'trick'"):
        sheet_from_record(record([{"bids": {}, "trick": {}}]))
    with pytest.raises(InvalidRecordError, match=r"^players: the three variant has 3 players"):
        sheet_from_record(record([], players=("A", "B")))


def test_invalid_action_errors_leave_the_sheet_unchanged() -> None:
    sheet = Scoresheet.start(table()).add(_deal_with_successes(2))
    with pytest.raises(InvalidActionError):
        sheet.add(entry(THREE, dict.fromkeys(P3, 3), {"Ann": 9, "Ben": 9, "Cat": 9}))
    assert len(sheet.deals) == 1
