"""The trick-play engine and the computer players."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parlett import VARIANTS, Trump, parse_card
from rules.parlett.cards import JOKER
from rules.parlett.play import IllegalPlayError, PlayState, deal
from rules.parlett.players import (
    SeatView,
    choose_bid_cards,
    play_out,
    random_bidder,
    random_player,
    smart_bidder,
    smart_player,
    view_for,
)

THREE = VARIANTS["three"]


def cards(text: str) -> tuple:  # type: ignore[type-arg]
    return tuple(parse_card(c) for c in text.split())


def rules_state(trump: Trump = Trump.NO_TRUMP, variant=THREE, turn_up=None) -> PlayState:  # type: ignore[no-untyped-def]
    return PlayState(variant, trump, 0, ((), (), ()), ((), (), ()), turn_up)


def test_seeded_deal_is_reproducible_and_deals_the_whole_pack() -> None:
    a, b = deal(THREE, seed=5), deal(THREE, seed=5)
    assert a.hands == b.hands and a.hands != deal(THREE, seed=6).hands
    assert sorted((c for h in a.hands for c in h), key=lambda c: c.sort_key) == sorted(
        THREE.pack, key=lambda c: c.sort_key)
    for name, size in (("four", 13), ("five", 12), ("two", 12), ("original", 12)):
        s = deal(VARIANTS[name], seed=1)
        assert len(s.hands) == VARIANTS[name].hands and all(len(h) == size for h in s.hands[:-1])


def test_pack_sizes_per_variant() -> None:
    sizes = [len(VARIANTS[n].pack) for n in ("three", "four", "five", "two", "original")]
    assert sizes == [36, 52, 60, 36, 37]


def test_lay_aside_three_held_cards_then_the_bid_is_their_suits() -> None:
    s = deal(THREE, seed=1)
    hand = s.hands[0]
    with pytest.raises(IllegalPlayError):
        s.lay_aside(0, hand[:2])
    s = s.lay_aside(0, hand[:3])
    assert len(s.hands[0]) == 9
    assert s.bid(0) is not None and s.bid(0).value == sum(c.suit.bid_value for c in hand[:3])
    with pytest.raises(IllegalPlayError, match="already"):
        s.lay_aside(0, s.hands[0][:3])


def test_no_play_before_every_bid_is_laid_aside() -> None:
    s = deal(THREE, seed=1)
    with pytest.raises(IllegalPlayError, match="nobody plays now"):
        s.play(s.hands[1][0])


def _bid_all(s: PlayState) -> PlayState:
    for seat in range(s.seats):
        if s.bid_cards[seat] is None:
            s = s.lay_aside(seat, s.hands[seat][:3])
    return s


def test_player_at_dealers_left_leads_and_must_follow_suit() -> None:
    s = _bid_all(deal(THREE, seed=3, dealer=2))
    assert s.to_play == 0
    lead = s.hands[0][0]
    s = s.play(lead)
    same = [c for c in s.hands[1] if c.suit == lead.suit]
    if same:
        other = next((c for c in s.hands[1] if c.suit != lead.suit), None)
        if other is not None:
            with pytest.raises(IllegalPlayError, match="revoke"):
                s.play(other)
        assert set(s.legal()) == set(same)
    else:
        assert set(s.legal()) == set(s.hands[1])


def test_trick_winner_highest_of_led_suit_or_highest_trump() -> None:
    nt = rules_state()
    assert nt.trick_winner(((0, parse_card("9H")), (1, parse_card("AS")), (2, parse_card("TH")))) == 2
    hearts = rules_state(Trump.SPADES)
    assert hearts.trick_winner(((0, parse_card("AH")), (1, parse_card("6S")), (2, parse_card("7S")))) == 2


def test_nines_as_trumps_form_a_suit_ranking_clubs_hearts_spades_diamonds() -> None:
    s = rules_state(Trump.NINES)
    assert s.suit_of(parse_card("9H")) == "nines" and s.suit_of(parse_card("TH")) == "H"
    trick = ((0, parse_card("AH")), (1, parse_card("9D")), (2, parse_card("9S")))
    assert s.trick_winner(trick) == 2
    assert s.trick_winner(((0, parse_card("9D")), (1, parse_card("9C")), (2, parse_card("AD")))) == 1
    # a nine does not follow its natural suit when nines are trumps
    follow = PlayState(THREE, Trump.NINES, 0, ((), cards("9H 6C"), ()), ((), (), ()), leader=0,
                       trick=((0, parse_card("AH")),), tricks_won=(0, 0, 0))
    assert set(follow.legal()) == set(cards("9H 6C"))


def test_original_joker_stands_for_the_turned_up_card_and_the_first_of_two_wins() -> None:
    s = rules_state(Trump.HEARTS, VARIANTS["original"], turn_up=parse_card("8H"))
    assert s.natural(JOKER) == parse_card("8H") and s.suit_of(JOKER) == "H"
    assert s.trick_winner(((0, parse_card("8H")), (1, JOKER), (2, parse_card("6S")))) == 0
    assert s.trick_winner(((0, JOKER), (1, parse_card("8H")), (2, parse_card("6H")))) == 0
    dealt = deal(VARIANTS["original"], seed=4)
    assert dealt.turn_up is not None
    up = dealt.turn_up
    expected = Trump.NO_TRUMP if up.is_joker or up.rank == 9 else Trump(up.suit.value)  # type: ignore[union-attr]
    assert dealt.trump is expected


def test_two_player_dummy_play_order() -> None:
    two = VARIANTS["two"]
    s = _bid_all(deal(two, seed=2, dealer=0))
    assert s.bid_cards[2] is not None  # the dummy's top three cards are its bid
    assert s.order() == (1, 0, 2) and s.controller(2) == 1  # non-dealer leads, plays third from dummy
    rng = random.Random(0)
    while not s.done:
        before_leader = s.leader
        for _ in range(3):
            s = s.play(rng.choice(s.legal()))
        if s.leader == 2:  # the dummy won: the one who played from it leads from dummy, third from hand
            controller = s.controller(2)
            assert s.order() == (2, 1 - controller, controller)
        else:
            assert s.order() == (s.leader, 1 - s.leader, 2) and s.controller(2) == s.leader
        assert before_leader in (0, 1, 2)


def test_unbidden_play_twelve_cards_nine_tricks_the_three_left_are_the_bid() -> None:
    s = deal(THREE, seed=8, unbidden=True)
    assert not s.bidding and len(s.hands[0]) == 12
    final = play_out(s, [random_bidder] * 3, [random_player] * 3, random.Random(1))
    assert final.done and all(len(h) == 3 for h in final.hands)
    assert all(final.bid(seat) is not None for seat in range(3))


@given(st.sampled_from(["three", "four", "five", "two", "original"]), st.integers(0, 10_000),
       st.sampled_from(list(Trump)))
def test_tricks_always_sum_to_the_number_of_tricks(name: str, seed: int, trump: Trump) -> None:
    variant = VARIANTS[name]
    s = deal(variant, seed=seed, dealer=seed % variant.players, trump=trump)
    final = play_out(s, [random_bidder] * 3 + [random_bidder] * 2, [random_player] * 5, random.Random(seed))
    assert sum(final.tricks_won) == variant.tricks == len(final.played)
    assert all(len(h) == 0 for h in final.hands)


def test_views_hold_no_hidden_cards() -> None:
    s = _bid_all(deal(THREE, seed=9))
    view = view_for(s, 0)
    assert isinstance(view, SeatView)
    assert all(h == () for h in view.state_rules.hands)
    assert view.hand == s.hands[0]


def test_computer_bids_three_of_its_own_cards() -> None:
    s = deal(THREE, seed=11)
    chosen = choose_bid_cards(s.hands[0], s)
    assert len(chosen) == 3 and set(chosen) <= set(s.hands[0])


def test_computer_player_duck_once_its_bid_is_made() -> None:
    s = PlayState(THREE, Trump.NO_TRUMP, 2, ((), cards("AH 7H 6C"), ()),
                  ((), cards("6D 7D 8D"), ()), leader=0, trick=((0, parse_card("8H")),), tricks_won=(0, 0, 0))
    assert smart_player(view_for(s, 1), random.Random(0)) == parse_card("7H")


def test_computer_makes_its_contract_far_more_often_than_random() -> None:
    """A small version of benchmarks/parlett_players.py (the benchmark reports the real rates)."""
    def rate(smart: bool) -> float:
        made = 0
        for seed in range(40):
            s = deal(THREE, seed=seed, trump=Trump.NO_TRUMP)
            who = [smart_bidder if smart else random_bidder] + [random_bidder] * 2
            play = [smart_player if smart else random_player] + [random_player] * 2
            final = play_out(s, who, play, random.Random(seed))
            made += final.bid(0).fulfilled(final.tricks_won[0])  # type: ignore[union-attr]
        return made / 40

    assert rate(True) >= 2 * rate(False)


@settings(max_examples=25)  # each example bids 220 ways per seat: keep the suite fast
@given(st.sampled_from(["three", "four", "five", "two"]), st.integers(0, 10_000))
def test_a_played_deal_is_accepted_and_scored_by_the_scorer(name: str, seed: int) -> None:
    """The engine checks the scorer: bids and tricks from real play always make a valid deal."""
    from rules.parlett import DUMMY, DealEntry, Options, Scoresheet, Table

    variant = VARIANTS[name]
    players = tuple(f"P{i}" for i in range(variant.players))
    table = Table(variant, Options(), players, 0)
    sheet = Scoresheet.start(table)
    state = deal(variant, seed=seed, dealer=0, trump=sheet.next_trump or Trump.NO_TRUMP)
    final = play_out(state, [smart_bidder] * 5, [smart_player] * 5, random.Random(seed))
    hands = [*players, DUMMY] if variant.has_dummy else list(players)
    bids = {h: final.bid(i) for i, h in enumerate(hands)}
    entry = DealEntry(bids, {h: final.tricks_won[i] for i, h in enumerate(hands)})  # type: ignore[arg-type]
    scored = sheet.add(entry).deals[-1].score
    assert scored.made == {h: bids[h].fulfilled(final.tricks_won[i]) for i, h in enumerate(hands)}  # type: ignore[union-attr]


def _reshuffle_hidden(state: PlayState, seat: int, rng: random.Random) -> PlayState:
    """The same deal as ``seat``'s controller sees it, with everything hidden from him dealt anew:
    the other hands and their bid cards, and the two-player dummy's bid cards, which "remain face
    down and unseen till end of play" (the seed). The dummy's hand is face up once bids are made."""
    me = state.controller(seat)
    visible = {me}
    if state.variant.has_dummy:
        visible.add(state.seats - 1)  # the dummy's hand lies face up (its bid cards do not)
    hidden_hands = [s for s in range(state.seats) if s not in visible]
    hidden_bids = [s for s in range(state.seats) if s != me]
    pool = [c for s in hidden_hands for c in state.hands[s]]
    pool += [c for s in hidden_bids for c in state.bid_cards[s] or ()]
    rng.shuffle(pool)
    hands, bids = list(state.hands), list(state.bid_cards)
    for s in hidden_hands:
        hands[s], pool = tuple(pool[:len(hands[s])]), pool[len(hands[s]):]
    for s in hidden_bids:
        size = len(bids[s] or ())
        bids[s], pool = tuple(pool[:size]), pool[size:]
    return replace(state, hands=tuple(hands), bid_cards=tuple(bids))


@pytest.mark.parametrize("name", ["two", "three", "four"])
def test_play_decisions_do_not_change_when_hidden_cards_change(name: str) -> None:
    """The board game's fairness test: what a player cannot see must not change what he plays.
    Two players: whoever plays from the dummy sees its hand but not its bid cards."""
    variant = VARIANTS[name]
    checked = dummy_checked = dummy_bid_changed = 0
    for seed in range(30):
        state = _bid_all(deal(variant, seed=seed, dealer=seed % variant.players, trump=Trump.HEARTS))
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, variant.tricks * variant.hands - 1)):
            state = state.play(smart_player(view_for(state, state.to_play), rng))  # type: ignore[arg-type]
        seat = state.to_play
        assert seat is not None
        decision = smart_player(view_for(state, seat), random.Random(seed))
        for k in range(3):
            other = _reshuffle_hidden(state, seat, random.Random(100 + k))
            assert view_for(other, seat) == view_for(state, seat)
            assert smart_player(view_for(other, seat), random.Random(seed)) == decision
            checked += 1
            if variant.has_dummy and seat == state.seats - 1:
                dummy_checked += 1
                dummy_bid_changed += other.bid(seat) != state.bid(seat)
    assert checked == 90
    if variant.has_dummy:
        assert dummy_checked >= 6 and dummy_bid_changed >= 3  # the dummy's hidden bid really varied


def _unbidden_rate(smart: bool, deals: int = 30) -> float:
    made = 0
    for seed in range(deals):
        s = deal(THREE, seed=seed, dealer=seed % 3, trump=Trump.NO_TRUMP, unbidden=True)
        player = smart_player if smart else random_player
        final = play_out(s, [random_bidder] * 3, [player] + [random_player] * 2, random.Random(seed))
        made += final.bid(0).fulfilled(final.tricks_won[0])  # type: ignore[union-attr]
    return made / deals


def test_unbidden_computer_plays_for_the_three_cards_it_plans_to_keep() -> None:
    """Unbidden Ninety-Nine: the bid is the three cards still held after nine tricks, so the
    computer keeps a plan (which three to keep) and plays the others to make that bid."""
    s = deal(THREE, seed=3, dealer=2, unbidden=True)
    view = view_for(s, 0)
    assert view.unbidden and len(view.hand) == 12
    smart, random_rate = _unbidden_rate(True), _unbidden_rate(False)
    assert smart >= 2 * random_rate and smart >= 0.2, (smart, random_rate)


def test_unbidden_decisions_do_not_change_when_hidden_cards_change() -> None:
    for seed in range(10):
        state = deal(THREE, seed=seed, dealer=seed % 3, trump=Trump.SPADES, unbidden=True)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 20)):
            state = state.play(smart_player(view_for(state, state.to_play), rng))  # type: ignore[arg-type]
        seat = state.to_play
        assert seat is not None
        decision = smart_player(view_for(state, seat), random.Random(seed))
        other = _reshuffle_hidden(state, seat, random.Random(seed + 50))
        assert other.hands != state.hands
        assert smart_player(view_for(other, seat), random.Random(seed)) == decision
