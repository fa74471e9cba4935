"""Named tests for every rule and penalty of the Game of 99, per ruleset and player count."""

from __future__ import annotations

import dataclasses

import pytest

from rules.board99 import (
    BadNumberError,
    CardUnavailableError,
    Discard,
    Discarded,
    Draw,
    Drew,
    EmptyDeckError,
    GameOverError,
    GameState,
    NoCardsError,
    NotDeadHandError,
    NotInRulesetError,
    Penalised,
    Play,
    Played,
    PlayerOut,
    PlayerOutError,
    RevealDeadHand,
    SetupError,
    SquareTakenError,
    Tied,
    TurnSkipped,
    UnknownPlayerError,
    Won,
    apply,
    apply_unchecked,
    check,
    is_valid,
    make_setup,
)
from rules.board99.lines import winning_sides_brute
from rules.errors import InvalidActionError
from tests.test_board99_support import NAMES, deck_with, new_game, run

COUNTS = (2, 3, 4, 6)


# -- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", COUNTS)
def test_classic_everyone_starts_with_no_cards_and_the_first_player_moves(n: int) -> None:
    state = new_game(n, first=NAMES[n - 1])
    assert all(state.hand_count(p) == 0 for p in NAMES[:n])
    assert state.deck_count == 100 and state.to_move == NAMES[n - 1]
    assert new_game(n).to_move == "Ann"  # default: the first player listed


def test_default_sides_partners_sit_opposite() -> None:
    assert new_game(2).setup.sides == (("Ann",), ("Ben",))
    assert new_game(3).setup.sides == (("Ann",), ("Ben",), ("Cat",))
    assert new_game(4).setup.sides == (("Ann", "Cat"), ("Ben", "Dan"))
    assert new_game(6).setup.sides == (("Ann", "Dan"), ("Ben", "Eve"), ("Cat", "Fay"))
    assert new_game(6).side_of("Eve") == ("Ben", "Eve")


@pytest.mark.parametrize("n", [1, 5, 7])
def test_player_counts_other_than_2_3_4_6_are_refused(n: int) -> None:
    with pytest.raises(SetupError, match="2, 3, 4 or 6 players"):
        make_setup([f"P{i}" for i in range(n)])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ["Ann", "Ann"]}, "same name"),
        ({"players": ["Ann", "Ben"], "first": "Zed"}, "first player"),
        ({"players": ["Ann", "Ben"], "sides": [["Ann", "Ben"]]}, "two or more sides"),
        ({"players": ["Ann", "Ben"], "hands": {"Ann": [1, 2, 3, 4, 5, 6]}}, "the most is 5"),
        ({"players": ["Ann", "Ben"], "hands": {"Ann": [7], "Ben": [7]}}, "given to both"),
        ({"players": ["Ann", "Ben"], "hands": {"Zed": [7]}}, "not playing"),
        ({"players": ["Ann", "Ben"], "deck": [1, 2, 3]}, "all 100 cards"),
        ({"players": ["Ann", "Ben"], "hands": {"Ann": [100]}}, "not a card"),
        ({"players": ["Ann", "Ben"], "ruleset": "chess"}, "unknown ruleset"),
    ],
)
def test_bad_setups_say_what_is_wrong(kwargs: dict[str, object], message: str) -> None:
    players = kwargs.pop("players")
    with pytest.raises(SetupError, match=message):
        make_setup(players, **kwargs)  # type: ignore[arg-type]


def test_5of99_deals_four_to_everyone_from_a_known_deck_starting_with_the_first_player() -> None:
    state = new_game(3, "5of99", deck=list(range(100)), first="Ben")
    assert state.known_hand("Ben") == (0, 3, 6, 9)
    assert state.known_hand("Cat") == (1, 4, 7, 10)
    assert state.known_hand("Ann") == (2, 5, 8, 11)
    assert state.deck_count == 88


@pytest.mark.parametrize("n", COUNTS)
def test_5of99_at_a_real_table_everyone_holds_four_hidden_cards(n: int) -> None:
    state = new_game(n, "5of99", hands={"Ann": [90, 91]})
    assert all(state.hand_count(p) == 4 for p in NAMES[:n])
    assert state.known_hand("Ann") == (90, 91) and state.deck_count == 100 - 4 * n


# -- turns ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["classic", "5of99"])
@pytest.mark.parametrize("n", COUNTS)
def test_the_turn_passes_to_the_left(n: int, ruleset: str) -> None:
    state = new_game(n, ruleset, deck=list(range(100)))
    order = []
    for _ in range(2 * n):
        order.append(state.to_move)
        who = state.to_move
        assert who is not None
        if state.hand_count(who) < state.setup.hand_limit:
            state, _ = apply(state, Draw(who))
        else:
            state, _ = apply(state, Play(who, min(state.known_hand(who)), state.empty_squares()[-1]))
    assert order == [NAMES[i % n] for i in range(2 * n)]


def test_classic_play_takes_an_empty_square_numbered_at_least_the_card() -> None:
    state = new_game(2, hands={"Ann": [57]})
    state, events = run(state, Play("Ann", 57, 63))
    assert events == [Played("Ann", 57, 63)]
    assert state.pegs == {63: "Ann"} and state.face_up == (57,) and state.to_move == "Ben"
    assert state.hand_count("Ann") == 0


def test_a_card_may_take_its_own_number() -> None:
    state, _ = run(new_game(2, hands={"Ann": [57]}), Play("Ann", 57, 57))
    assert state.pegs == {57: "Ann"}


def test_legal_squares_are_the_empty_ones_numbered_at_least_the_card() -> None:
    state, _ = run(new_game(2, hands={"Ann": [97]}), Play("Ann", 97, 98))
    assert state.legal_squares(97) == (97, 99)
    assert state.legal_squares(0)[:3] == (0, 1, 2) and len(state.legal_squares(0)) == 99


def test_classic_draw_takes_the_top_card_of_a_known_deck() -> None:
    state, events = run(new_game(2, deck=deck_with([42, 7])), Draw("Ann"), Draw("Ben"))
    assert events == [Drew("Ann", 42), Drew("Ben", 7)]
    assert state.known_hand("Ann") == (42,) and state.deck_count == 98


def test_classic_draw_at_a_real_table_may_be_unknown() -> None:
    state, events = run(new_game(2), Draw("Ann"), Draw("Ben", 12))
    assert events == [Drew("Ann", None), Drew("Ben", 12)]
    assert state.hand_count("Ann") == 1 and state.known_hand("Ann") == ()
    state, _ = run(state, Play("Ann", 30, 30))  # Ann's hidden card turns out to be 30
    assert state.pegs == {30: "Ann"} and state.hand_count("Ann") == 0


def test_classic_discard_lays_the_card_face_up_and_ends_the_turn() -> None:
    state, events = run(new_game(2, hands={"Ann": [99]}), Discard("Ann", 99))
    assert events == [Discarded("Ann", 99)]
    assert state.face_up == (99,) and state.to_move == "Ben" and not state.pegs


@pytest.mark.parametrize("n", COUNTS)
def test_classic_a_player_with_no_cards_facing_an_empty_deck_is_passed_over(n: int) -> None:
    # Everyone's cards are given; the deck holds only card 99, which Ann draws.
    players = NAMES[:n]
    hands = {p: [] for p in players}
    hands["Ann"] = [0, 1, 2, 3]
    hands["Ben"] = [10]
    given = [0, 1, 2, 3, 10]
    state = new_game(n, hands=hands, deck=[c for c in range(100) if c not in given])
    state = dataclasses.replace(state, deck=(99,), face_up=(*range(11, 99), 4, 5, 6, 7, 8, 9))
    assert state.deck_count == 1
    state, events = run(state, Draw("Ann"))
    assert state.deck_count == 0 and state.to_move == "Ben"
    state, events = run(state, Play("Ben", 10, 10))
    skipped = [e.player for e in events if isinstance(e, TurnSkipped)]
    assert skipped == list(players[2:]) and all(
        isinstance(e, TurnSkipped) and e.reason == "no cards" for e in events[1:]
    )
    assert state.to_move == "Ann"


def test_classic_is_a_tie_when_every_card_is_face_up_without_five_in_a_row() -> None:
    state = new_game(2, hands={"Ann": [98], "Ben": [99]}, deck=deck_with([], exclude=[98, 99]))
    state = dataclasses.replace(state, deck=(), face_up=tuple(range(98)))
    state, events = run(state, Discard("Ann", 98))
    assert state.outcome is None
    state, events = run(state, Play("Ben", 99, 99))
    assert events[-1] == Tied("every card has been played or discarded")
    assert state.outcome is not None and state.outcome.status == "tie" and state.to_move is None


# -- five in a row ----------------------------------------------------------------------------------


def _race(squares: list[int], blocker: list[int], ruleset: str = "classic") -> tuple[object, list[object]]:
    """Ann plays cards equal to ``squares`` in order; Ben answers on ``blocker`` squares."""
    hands = {"Ann": squares[:4], "Ben": blocker[:4]}
    state = new_game(2, ruleset, hands=hands)
    events: list[object] = []
    for i, square in enumerate(squares):
        if i == 4:
            state, ev = run(state, Draw("Ann", square))
            events += ev
            state, ev = run(state, Draw("Ben", blocker[4]))
            events += ev
        state, ev = run(state, Play("Ann", square, square))
        events += ev
        if state.outcome is not None:
            break
        state, ev = run(state, Play("Ben", blocker[i], blocker[i]))
        events += ev
    return state, events


@pytest.mark.parametrize("ruleset", ["classic", "5of99"])
@pytest.mark.parametrize(
    "line",
    [[0, 1, 2, 3, 4], [0, 10, 20, 30, 40], [0, 11, 22, 33, 44], [4, 13, 22, 31, 40], [95, 96, 97, 98, 99]],
    ids=["row", "column", "diagonal", "anti-diagonal", "edge"],
)
def test_five_in_a_row_column_or_diagonal_wins(line: list[int], ruleset: str) -> None:
    state, events = _race(line, [60, 61, 62, 63, 65], ruleset)
    won = [e for e in events if isinstance(e, Won)]
    assert won == [Won(("Ann",), tuple(sorted(line)) if line != [4, 13, 22, 31, 40] else (4, 13, 22, 31, 40))]
    assert state.outcome is not None and state.outcome.status == "won" and state.outcome.winners == ("Ann",)
    with pytest.raises(GameOverError, match="the game is over"):
        apply(state, Draw("Ben"))


def test_four_in_a_row_does_not_win_and_a_gap_breaks_the_run() -> None:
    state, events = _race([0, 1, 2, 3, 5], [60, 61, 62, 63, 75])
    assert state.outcome is None and not any(isinstance(e, Won) for e in events)


def test_an_opponents_peg_breaks_a_run() -> None:
    state, _ = _race([0, 1, 3, 4, 5], [2, 61, 62, 63, 64])
    assert state.outcome is None


def test_joining_two_runs_into_six_wins_with_the_whole_run() -> None:
    state = new_game(2, hands={"Ann": [0, 1, 2, 4], "Ben": [60, 61, 62, 70]})
    state, _ = run(state, Play("Ann", 0, 0), Play("Ben", 60, 60), Play("Ann", 1, 1), Play("Ben", 61, 61),
                   Play("Ann", 2, 2), Play("Ben", 62, 62), Play("Ann", 4, 4), Play("Ben", 70, 70),
                   Draw("Ann", 5), Draw("Ben", 80), Play("Ann", 5, 5), Draw("Ben", 81), Draw("Ann", 3),
                   Draw("Ben", 82))
    assert state.outcome is None  # 0 1 2 _ 4 5
    state, events = run(state, Play("Ann", 3, 3))
    assert events[-1] == Won(("Ann",), (0, 1, 2, 3, 4, 5))


@pytest.mark.parametrize("ruleset", ["classic", "5of99"])
@pytest.mark.parametrize("n", [4, 6])
def test_partners_share_a_side_and_win_together(n: int, ruleset: str) -> None:
    partner = NAMES[n // 2]
    players = NAMES[:n]
    hands = {"Ann": [0, 2, 4], partner: [1, 3]}
    state = new_game(n, ruleset, hands=hands, deck=[c for c in range(100) if c not in (0, 1, 2, 3, 4)])
    rounds = [[Play("Ann", 0, 0)], [Play("Ann", 2, 2)], [Play("Ann", 4, 4)]]
    partner_plays = [Play(partner, 1, 1), Play(partner, 3, 3)]
    events: list[object] = []
    for r in range(3):
        state, ev = run(state, *rounds[r])
        events += ev
        if state.outcome is not None:
            break
        for p in players[1:]:
            if p == partner and r < 2:
                state, ev = run(state, partner_plays[r])
            else:
                state, ev = pass_turn(state)  # draws, or (5of99, full hand) plays high on the board
            events += ev
    assert state.outcome is not None and state.outcome.winners == ("Ann", partner)
    assert events[-1] == Won(("Ann", partner), (0, 1, 2, 3, 4))


# -- penalties ------------------------------------------------------------------------------------

RULESETS = ("classic", "5of99")


def pass_turn(state: GameState) -> tuple[GameState, list[object]]:
    """The player to move does something legal: draw if allowed, else their lowest card on the top square."""
    who = state.to_move
    assert who is not None
    if state.hand_count(who) < state.setup.hand_limit and state.deck_count:
        state, events = run(state, Draw(who))
    else:
        state, events = run(state, Play(who, min(state.known_hand(who)), state.empty_squares()[-1]))
    return state, list(events)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", COUNTS)
def test_play_out_of_turn_removes_the_peg_discards_the_card_and_loses_the_next_turn(
    n: int, ruleset: str
) -> None:
    state = new_game(n, ruleset, hands={"Ben": [10]}, deck=deck_with([], exclude=[10]))
    held = state.hand_count("Ben")
    state, events = run(state, Play("Ben", 10, 20))
    assert events == [Penalised("Ben", "play-out-of-turn", 10, 20)]
    assert not state.pegs and state.face_up == (10,) and state.hand_count("Ben") == held - 1
    assert state.to_move == "Ann"  # the turn stays where it was
    assert [(p.action, p.by, p.offence) for p in state.penalties] == [(0, "Ben", "play-out-of-turn")]
    state, events = pass_turn(state)
    assert TurnSkipped("Ben", "penalty") in events
    assert state.to_move == NAMES[2 % n]


@pytest.mark.parametrize("n", COUNTS)
def test_discard_out_of_turn_leaves_the_card_on_the_pile_and_loses_the_next_turn(n: int) -> None:
    state = new_game(n, hands={"Ben": [10]})
    state, events = run(state, Discard("Ben", 10))
    assert events == [Penalised("Ben", "discard-out-of-turn", 10)]
    assert state.face_up == (10,) and state.to_move == "Ann"
    state, events = run(state, Draw("Ann"))
    assert events[-1] == TurnSkipped("Ben", "penalty") and state.to_move == NAMES[2 % n]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", COUNTS)
def test_draw_out_of_turn_shows_the_card_cuts_it_back_and_loses_the_next_turn(n: int, ruleset: str) -> None:
    state = new_game(n, ruleset, deck=list(range(100)))
    top, held, deck = (state.deck or ())[0], state.hand_count("Ben"), state.deck_count
    state, events = run(state, Draw("Ben"))
    assert events == [Penalised("Ben", "draw-out-of-turn", top)]
    assert state.hand_count("Ben") == held and state.deck_count == deck and top in (state.deck or ())
    assert state.to_move == "Ann"
    state, events = pass_turn(state)
    assert events[-1] == TurnSkipped("Ben", "penalty") and state.to_move == NAMES[2 % n]


def test_draw_out_of_turn_at_a_real_table_keeps_the_shown_card_in_the_deck() -> None:
    state, _ = run(new_game(3), Draw("Ann"))
    state, events = run(state, Draw("Cat", 33))
    assert events == [Penalised("Cat", "draw-out-of-turn", 33)]
    with pytest.raises(CardUnavailableError, match="card 33 is in the deck"):
        apply(state, Play("Ann", 33, 40))  # Ann's hidden card was drawn before 33 went back
    state, events = run(state, Draw("Ben"))
    assert events[-1] == TurnSkipped("Cat", "penalty") and state.to_move == "Ann"
    state, _ = run(state, Draw("Ann"), Draw("Ben"), Draw("Cat"))
    state, events = run(state, Play("Ann", 33, 40))  # a hidden card drawn after the cut may be 33
    assert events[0] == Played("Ann", 33, 40)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", COUNTS)
def test_illegal_play_below_the_card_removes_the_peg_and_loses_the_next_turn(n: int, ruleset: str) -> None:
    state = new_game(n, ruleset, hands={"Ann": [50]}, deck=deck_with([], exclude=[50]))
    state, events = run(state, Play("Ann", 50, 12))
    assert events[0] == Penalised("Ann", "illegal-play", 50, 12)
    assert not state.pegs and state.face_up == (50,)
    assert state.to_move == NAMES[1]  # the offender's turn is used up
    for _ in NAMES[1:n]:
        state, events = pass_turn(state)
    assert TurnSkipped("Ann", "penalty") in events and state.to_move == NAMES[1 % n]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", COUNTS)
def test_illegal_draw_with_a_full_hand_shows_the_card_cuts_it_back_and_loses_the_next_turn(
    n: int, ruleset: str
) -> None:
    full = [1, 2, 3, 4, 5][: 5 if ruleset == "classic" else 4]
    state = new_game(n, ruleset, hands={"Ann": full}, deck=deck_with([], exclude=full))
    top, deck = (state.deck or ())[0], state.deck_count
    state, events = run(state, Draw("Ann"))
    assert events[0] == Penalised("Ann", "illegal-draw", top)
    assert state.hand_count("Ann") == len(full) and top in (state.deck or ()) and state.deck_count == deck
    assert state.to_move == NAMES[1]
    for _ in NAMES[1:n]:
        state, events = pass_turn(state)
    assert TurnSkipped("Ann", "penalty") in events


def test_two_offences_skip_two_turns() -> None:
    state = new_game(3, hands={"Cat": [10, 11]})
    state, _ = run(state, Discard("Cat", 10), Discard("Cat", 11))
    assert state.skips == (0, 0, 2)
    state, _ = run(state, Draw("Ann"), Draw("Ben"))
    assert state.to_move == "Ann"
    state, events = run(state, Draw("Ann"), Draw("Ben"))
    assert events[-1] == TurnSkipped("Cat", "penalty") and state.to_move == "Ann"
    state, _ = run(state, Draw("Ann"), Draw("Ben"))
    assert state.to_move == "Cat"


def test_a_penalised_play_never_wins() -> None:
    state = new_game(2, hands={"Ann": [0, 1, 2, 3], "Ben": [60, 61, 62, 90]})
    state, _ = run(state, Play("Ann", 0, 0), Play("Ben", 60, 60), Play("Ann", 1, 1), Play("Ben", 61, 61),
                   Play("Ann", 2, 2), Play("Ben", 62, 62), Play("Ann", 3, 3))
    state, _ = run(state, Draw("Ben", 80))
    state, _ = run(state, Draw("Ann", 50))
    state, events = run(state, Draw("Ben", 81))
    state, events = run(state, Play("Ann", 50, 4))  # would make five, but 4 < 50
    assert events[0] == Penalised("Ann", "illegal-play", 50, 4) and state.outcome is None


def test_a_play_out_of_turn_onto_a_winning_square_does_not_win() -> None:
    state = new_game(2, hands={"Ann": [0, 1, 2, 3, 4], "Ben": [60, 61, 62, 63]})
    state, _ = run(state, Play("Ann", 0, 0), Play("Ben", 60, 60), Play("Ann", 1, 1), Play("Ben", 61, 61),
                   Play("Ann", 2, 2), Play("Ben", 62, 62), Play("Ann", 3, 3))
    state, events = run(state, Play("Ann", 4, 4))
    assert events == [Penalised("Ann", "play-out-of-turn", 4, 4)] and state.outcome is None


# -- 5of99 ------------------------------------------------------------------------------------------


def test_5of99_has_no_discard() -> None:
    state = new_game(2, "5of99", deck=list(range(100)))
    with pytest.raises(NotInRulesetError, match="5of99 has no discard"):
        apply(state, Discard("Ann", state.known_hand("Ann")[0]))


def test_classic_has_no_dead_hand_declaration() -> None:
    with pytest.raises(NotInRulesetError, match="only 5of99"):
        apply(new_game(2, hands={"Ann": [99]}), RevealDeadHand("Ann", (99,)))


def _almost_full(state: object, keep_empty: list[int], owners: tuple[int, int] = (0, 1)) -> object:
    """Fill every square except ``keep_empty`` with a pattern that has no five in a row."""
    holes = []
    for h in range(100):
        r, c = divmod(h, 10)
        holes.append(-1 if h in keep_empty else owners[((r + 2 * c) // 2) % 2])
    assert not winning_sides_brute(holes)
    return holes


def test_5of99_a_player_holding_only_dead_cards_is_out_and_the_last_side_left_wins() -> None:
    # Squares 0..9 stay empty; Ann keeps 95 and 96, which become dead once 7 and 9 are taken.
    hands = {"Ann": [95, 96, 1, 2], "Ben": [3, 4, 5, 6]}
    state = new_game(2, "5of99", hands=hands, deck=deck_with([], exclude=[95, 96, 1, 2, 3, 4, 5, 6]))
    state = dataclasses.replace(state, holes=tuple(_almost_full(state, list(range(10)))))
    assert state.is_dead(95) and not state.is_dead(5)
    state, events = run(state, Play("Ann", 1, 7), Play("Ben", 3, 8))
    assert state.outcome is None and not state.out
    state, events = run(state, Play("Ann", 2, 9))
    assert PlayerOut("Ann", (95, 96)) in events
    assert events[-1] == Won(("Ben",), ()) and state.outcome is not None
    assert state.pegs[7] == "Ann" and state.out == {"Ann"}  # an out player's pegs stay


def test_5of99_a_real_table_player_reveals_a_dead_hand_and_the_engine_verifies_it() -> None:
    state = new_game(3, "5of99")  # hands unknown
    holes = _almost_full(state, [0, 1, 2, 3, 4, 50], owners=(0, 1))
    state = dataclasses.replace(state, holes=tuple(holes))
    with pytest.raises(NotDeadHandError, match="card 12 can still be played on square 50"):
        apply(state, RevealDeadHand("Ann", (60, 70, 80, 12)))
    with pytest.raises(NotDeadHandError, match="holds 4 cards"):
        apply(state, RevealDeadHand("Ann", (60, 70, 80)))
    state, events = run(state, RevealDeadHand("Ann", (60, 70, 80, 90)))
    assert events[0] == PlayerOut("Ann", (60, 70, 80, 90))
    assert state.out == {"Ann"} and state.to_move == "Ben" and state.outcome is None
    assert set(state.face_up) == {60, 70, 80, 90}
    with pytest.raises(PlayerOutError, match="Ann is out of the game"):
        apply(state, Draw("Ann"))
    state, events = run(state, RevealDeadHand("Cat", (51, 52, 53, 54)))
    assert events[-1] == Won(("Ben",), ())


def test_5of99_a_revealed_card_known_elsewhere_is_refused() -> None:
    state = new_game(2, "5of99", hands={"Ben": [60]})
    state = dataclasses.replace(state, holes=tuple(_almost_full(state, [0, 1])))
    with pytest.raises(NotDeadHandError, match="60 is known to be in Ben's hand"):
        apply(state, RevealDeadHand("Ann", (60, 70, 80, 90)))


def test_5of99_a_player_with_no_cards_when_the_deck_is_empty_is_out() -> None:
    hands = {"Ann": [10, 11, 12, 13], "Ben": [14, 15, 16, 17], "Cat": [18, 19, 20, 21]}
    state = new_game(3, "5of99", hands=hands, deck=deck_with([], exclude=range(10, 22)))
    cat = dataclasses.replace(state.hands[2], known=(18,))
    state = dataclasses.replace(state, deck=(), hands=(*state.hands[:2], cat),
                                face_up=tuple(c for c in range(100) if not 10 <= c <= 18))
    assert state.deck_count == 0
    state, events = run(state, Play("Ann", 10, 10), Play("Ben", 14, 14))
    state, events = run(state, Play("Cat", 18, 18))
    assert PlayerOut("Cat", ()) in events and state.to_move == "Ann" and state.outcome is None


def test_5of99_every_player_out_at_once_is_a_tie() -> None:
    state = new_game(2, "5of99", hands={"Ann": [5, 97, 98, 99], "Ben": [96, 95, 94, 93]},
                     deck=deck_with([], exclude=[5, 93, 94, 95, 96, 97, 98, 99]))
    state = dataclasses.replace(state, holes=tuple(_almost_full(state, [5, 6])))
    state, events = run(state, Play("Ann", 5, 6))
    assert {e.player for e in events if isinstance(e, PlayerOut)} == {"Ann", "Ben"}
    assert events[-1] == Tied("every player is out")


def test_5of99_a_full_board_is_a_draw() -> None:
    state = new_game(3, "5of99", hands={"Ann": [0, 1, 2, 3], "Ben": [40, 41, 42, 43], "Cat": [7, 8, 9, 10]})
    holes = _almost_full(state, [0])
    state = dataclasses.replace(state, holes=tuple(holes))
    state, events = run(state, Play("Ann", 0, 0))
    assert events[-1] == Tied("the board is full") and state.outcome is not None


# -- invalid input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["classic", "5of99"])
def test_invalid_input_names_the_action_and_reason_and_changes_nothing(ruleset: str) -> None:
    deck = list(range(100))
    state = new_game(2, ruleset, deck=deck) if ruleset == "5of99" else new_game(
        2, hands={"Ann": [0, 2], "Ben": [1]}, deck=[c for c in deck if c not in (0, 1, 2)])
    ann = state.known_hand("Ann")
    ben = state.known_hand("Ben")
    state, _ = run(state, Play("Ann", ann[0], 50))
    before = state
    cases = [
        (Play("Ben", ben[0], 50), SquareTakenError, "square 50 already holds Ann's peg"),
        (Play("Ben", ann[0], 60), CardUnavailableError, f"Ben does not hold card {ann[0]}"),
        (Play("Ben", ben[0], 100), BadNumberError, "square 100 is not a number 0..99"),
        (Play("Zed", 5, 60), UnknownPlayerError, "'Zed' is not playing"),
        (Draw("Ben", 99), Exception, "top of the deck"),
    ]
    for action, error, message in cases:
        with pytest.raises(error, match=message) as info:
            apply(state, action)
        assert isinstance(info.value, InvalidActionError)
        assert str(info.value).startswith(action.describe())
        assert state == before


def test_a_player_with_no_cards_cannot_play_or_discard() -> None:
    state = new_game(2)
    with pytest.raises(NoCardsError, match="Ann holds no cards"):
        apply(state, Play("Ann", 5, 50))
    with pytest.raises(NoCardsError):
        apply(state, Discard("Ann", 5))


def test_a_card_already_face_up_cannot_be_played_again() -> None:
    state, _ = run(new_game(2), Draw("Ann"), Draw("Ben"), Play("Ann", 5, 50))
    with pytest.raises(CardUnavailableError, match="card 5 is already face up"):
        apply(state, Play("Ben", 5, 60))
    with pytest.raises(CardUnavailableError, match="already face up"):
        apply(state, Draw("Ben", 5))


def test_drawing_from_an_empty_deck_is_refused() -> None:
    state = new_game(2, hands={"Ann": [1]}, deck=deck_with([], exclude=[1]))
    state = dataclasses.replace(state, deck=(), face_up=tuple(c for c in range(100) if c != 1 and c != 2),
                                hands=(state.hands[0], dataclasses.replace(state.hands[1], known=(2,))))
    with pytest.raises(EmptyDeckError, match="the deck is empty"):
        apply(state, Draw("Ann"))


def test_checked_and_unchecked_application_agree_on_valid_input() -> None:
    state = new_game(2, deck=list(range(100)))
    actions = [Draw("Ann"), Draw("Ben"), Play("Ann", 0, 55), Discard("Ben", 1), Draw("Ann"),
               Play("Ann", 2, 9)]
    checked, unchecked = state, state
    for action in actions:
        checked, ev1 = apply(checked, action)
        unchecked, ev2 = apply_unchecked(unchecked, action)
        assert checked == unchecked and ev1 == ev2
    assert checked.penalties[0].offence == "play-out-of-turn"
    with pytest.raises(InvalidActionError):
        apply(checked, Play("Ann", 50, 60))
    with pytest.raises(NoCardsError):
        check(checked, Play("Ann", 50, 60))
    assert not is_valid(checked, Play("Ann", 50, 60))
    assert is_valid(checked, Draw("Ann"))  # out of turn: a penalty, not invalid input


@pytest.mark.parametrize("n", [4, 6])
def test_5of99_partners_a_side_is_left_only_when_all_its_players_are_out(n: int) -> None:
    state = new_game(n, "5of99")  # a real table: hands hidden
    state = dataclasses.replace(state, holes=tuple(_almost_full(state, [0, 1, 2, 3, 4, 50])))
    dead = iter(range(51, 100))
    losers = [p for p in NAMES[:n] if state.side_of(p) != state.side_of("Ann")]
    for i, player in enumerate(losers):
        state, events = run(state, RevealDeadHand(player, tuple(next(dead) for _ in range(4))))
        assert PlayerOut(player, events[0].cards) == events[0]  # type: ignore[union-attr]
        if i < len(losers) - 1:
            assert state.outcome is None
    assert state.outcome is not None and state.outcome.winners == state.side_of("Ann")
    assert len(state.outcome.winners) == 2


def test_a_penalty_records_the_card_even_when_it_came_from_a_known_deck() -> None:
    state, _ = run(new_game(2, deck=deck_with([44])), Draw("Ben"))
    assert [(p.action, p.by, p.offence, p.card, p.square) for p in state.penalties] == [
        (0, "Ben", "draw-out-of-turn", 44, None)
    ]


@pytest.mark.parametrize("ruleset", ["classic", "5of99"])
def test_three_players_each_their_own_side_the_first_five_wins(ruleset: str) -> None:
    hands = {"Ann": [0, 3, 6, 9], "Ben": [1, 4, 7, 10], "Cat": [2, 5, 8, 11]}
    state = new_game(3, ruleset, hands=hands, deck=list(range(12, 100)))
    for i in range(4):
        state, _ = run(state, Play("Ann", 3 * i, 20 + i), Play("Ben", 3 * i + 1, 80 + i),
                       Play("Cat", 3 * i + 2, 85 + i))
    assert state.outcome is None and len(state.pegs) == 12
    state, _ = run(state, Draw("Ann"), Draw("Ben"), Draw("Cat"))
    assert state.known_hand("Ann") == (12,)
    state, events = run(state, Play("Ann", 12, 24))
    assert events[-1] == Won(("Ann",), (20, 21, 22, 23, 24)) and state.to_move is None
