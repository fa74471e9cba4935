"""Properties of Ninety Nine from phones: privacy by non-interference, reload, replay, burnt codes.

Privacy is checked as non-interference: whatever the *other* seats hold, a seat's view (and the
public and host views) is exactly the same. So no view can carry a card of another hand, however it
is encoded.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.count99.game import record_of
from app.games.count99.phones import CODE_TRIES, JoinRefused, PhoneOptions, PhoneTable, PhoneTables
from app.games.views import Tr
from app.store import GameStore
from rules.count99.cards import CARD_NAMES, Variant
from rules.count99.replay import replay_json
from tests.phones_support import joined_table, play_out

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
options_strategy = st.builds(
    PhoneOptions,
    variant=st.sampled_from(list(Variant)),
    seats=st.lists(st.sampled_from(["person", "easy", "hard"]), min_size=2, max_size=6).map(
        lambda kinds: tuple(["person", *kinds[1:]])),
    hand_size=st.integers(1, 5),
    tokens=st.integers(1, 3),
    manual_draw=st.booleans(),
    computer_pause=st.just(0.0),
)


def _store() -> GameStore:
    return GameStore(":memory:")


def _views(table: PhoneTable, seat: int, lang: str) -> str:
    _ = Tr(lang)
    table._publish()  # rebuild the public snapshot from the (changed) hands, as a commit would
    return json.dumps([table.seat_view(seat, _), table.public_view(_), table.host_view(_)], sort_keys=True)


@SETTINGS
@given(options=options_strategy, seed=st.integers(0, 10_000), steps=st.integers(0, 40),
       shuffle_seed=st.integers(0, 10_000), lang=st.sampled_from(["en", "de"]))
def test_no_view_depends_on_another_seats_cards(options: PhoneOptions, seed: int, steps: int,
                                                  shuffle_seed: int, lang: str) -> None:
    _registry, table, _ = joined_table(_store(), options)
    table.start(seed=seed)
    rng = random.Random(seed)
    game = table.game
    assert game is not None
    for _step in range(steps):
        if game.table.over:
            break
        turn = game.table.turn
        assert turn is not None
        if table.seats[turn].person and game.hands[turn]:
            table.play(turn, *rng.choice(game.view(turn).options()))
        else:
            table.seats[turn].away = table.seats[turn].person
            table.tick()
    other_rng = random.Random(shuffle_seed)
    names = CARD_NAMES[options.variant]
    for seat in range(len(table.seats)):
        before = _views(table, seat, lang)
        saved = [list(h) for h in game.hands]
        for other in range(len(game.hands)):
            if other != seat:  # same number of cards (that is public), any cards at all
                game.hands[other] = [other_rng.choice(names) for _ in game.hands[other]]
        assert _views(table, seat, lang) == before
        game.hands[:] = saved
    table._publish()
    public = json.dumps(table.public_view(Tr(lang)), sort_keys=True)
    for hand in game.hands:
        hand[:] = [other_rng.choice(names) for _ in hand]
    table._publish()
    assert json.dumps(table.public_view(Tr(lang)), sort_keys=True) == public
    assert "hand" not in table.public_view(Tr(lang)) and "hand" not in table.host_view(Tr(lang))


@SETTINGS
@given(options=options_strategy, seed=st.integers(0, 10_000), play_seed=st.integers(0, 10_000))
def test_a_finished_game_replays_to_the_same_winner_and_reloads_to_the_same_state(
        options: PhoneOptions, seed: int, play_seed: int) -> None:
    store = _store()
    _registry, table, credentials = joined_table(store, options)
    table.start(seed=seed)
    checked: list[bool] = []

    def reload_now_and_then() -> None:
        if len(checked) < 3 and random.Random(len(table.log) + play_seed).random() < 0.05:
            assert table.game is not None and table.game_id is not None
            again = PhoneTable.load(store, table.game_id)
            assert again.game is not None
            assert again.game.table == table.game.table and again.game.hands == table.game.hands
            assert all(again.seat_for(c) == s for s, c in credentials.items())
            checked.append(True)

    play_out(table, random.Random(play_seed), each_step=reload_now_and_then)
    assert table.game is not None and table.game_id is not None
    winner = table.game.setup.players[table.game.table.winner or 0]
    assert replay_json(record_of(store.load(table.game_id)))["final"]["winner"] == winner


@SETTINGS
@given(guesses=st.lists(st.text(alphabet="0123456789", min_size=4, max_size=4), min_size=1, max_size=12))
def test_a_seat_code_burns_after_exactly_five_wrong_tries(guesses: list[str]) -> None:
    table = PhoneTables(_store()).create(PhoneOptions(seats=("person", "hard")))
    code = table.seats[0].code
    assert code is not None
    wrong = 0
    for guess in guesses:
        if wrong >= CODE_TRIES:
            try:
                table.join(0, code, "Ann")
            except JoinRefused as exc:
                assert "used up" in str(exc)
                return
            raise AssertionError("a burnt code let someone in")
        if guess == code:
            table.join(0, guess, "Ann")
            return
        wrong += 1
        try:
            table.join(0, guess, "Ann")
        except JoinRefused:
            continue
        raise AssertionError("a wrong code let someone in")


@SETTINGS
@given(seed=st.integers(0, 10_000),
       events=st.lists(st.tuples(st.sampled_from(["wait", "remove", "back", "play"]), st.integers(0, 3)),
                       min_size=1, max_size=60))
def test_whatever_interrupts_the_game_it_ends_and_replays_to_the_same_winner(
        seed: int, events: list[tuple[str, int]]) -> None:
    from tests.phones_support import FakeClock

    clock = FakeClock()
    store = _store()
    options = PhoneOptions(seats=("person", "person", "person", "easy"), tokens=2, turn_seconds=10,
                           computer_pause=0.0)
    _registry, table, credentials = joined_table(store, options, clock)
    table.start(seed=seed)
    game = table.game
    assert game is not None and table.game_id is not None
    rng = random.Random(seed)
    removed: set[int] = set()
    for what, seat in events:
        if game.table.over:
            break
        if what == "wait":  # the clock runs past a turn time: whoever is on turn is played for
            clock.now += 11
            table.tick()
        elif what == "remove" and table.seats[seat].person:
            table.remove_seat(seat)
            removed.add(seat)
        elif what == "back" and table.seats[seat].person:
            table.back(seat)
        elif what == "play":
            turn = game.table.turn
            if turn is not None and table.seats[turn].person and game.hands[turn]:
                table.play(turn, *rng.choice(game.view(turn).options()))
            else:
                table.tick()
    for seat in removed:
        assert table.seat_for(credentials[seat]) is None and table.seats[seat].kind == "hard"
    play_out(table, rng)
    winner = game.setup.players[game.table.winner or 0]
    assert replay_json(record_of(store.load(table.game_id)))["final"]["winner"] == winner
    again = PhoneTable.load(store, table.game_id)
    assert again.game is not None and again.game.table == game.table
    assert {i for i, s in enumerate(again.seats) if s.was_person} == removed
