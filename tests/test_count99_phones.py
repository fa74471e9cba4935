"""Ninety Nine from phones, the games layer: seats and codes, actions, the clock, store and replay."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.games.count99.game import load_session, record_of
from app.games.count99.phones import CODE_TRIES, JoinRefused, PhoneError, PhoneOptions, PhoneTable, csrf_for
from app.games.live import LiveTable
from app.games.views import Tr
from app.store import GameStore
from rules.count99.cards import Variant
from rules.count99.replay import replay_json
from tests.phones_support import FakeClock, joined_table, play_out

EN = Tr("en")
QUICK = PhoneOptions(seats=("person", "person", "easy", "hard"), tokens=2, hand_size=3, computer_pause=0)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.sqlite")


def test_a_seat_code_burns_after_five_wrong_tries_and_the_host_makes_a_new_one(store: GameStore) -> None:
    _registry, table, _ = joined_table(store, PhoneOptions(seats=("person", "person")))
    table.seats[1].credential = None  # pretend seat 2 has not joined yet
    code = table.new_code(1)
    wrong = "0000" if code != "0000" else "1111"
    for tries in range(1, CODE_TRIES):
        with pytest.raises(JoinRefused, match=f"{CODE_TRIES - tries} tries left"):
            table.join(1, wrong, "Zed")
    with pytest.raises(JoinRefused, match="burnt"):
        table.join(1, wrong, "Zed")
    with pytest.raises(JoinRefused, match="used up"):
        table.join(1, code, "Zed")  # even the right code: it is burnt
    assert table.host_view(EN)["seats"][1]["burnt"] is True
    fresh = table.new_code(1)
    credential = table.join(1, fresh, "Zed")
    assert table.seat_for(credential) == 1 and table.seat_for("nonsense") is None


def test_joining_checks_the_seat_the_name_and_uses_the_code_once(store: GameStore) -> None:
    from app.games.count99.phones import PhoneTables

    table = PhoneTables(store).create(PhoneOptions(seats=("person", "person", "hard")))
    code0, code1 = table.seats[0].code, table.seats[1].code
    assert code0 and code1 and table.seats[2].code is None
    with pytest.raises(JoinRefused, match="computer"):
        table.join(2, code0, "Ann")
    with pytest.raises(JoinRefused, match="no such seat"):
        table.join(7, code0, "Ann")
    with pytest.raises(JoinRefused, match="name"):
        table.join(0, code0, "   ")
    table.join(0, code0, "Ann")
    with pytest.raises(JoinRefused, match="another seat has this name"):
        table.join(1, code1, "ann")
    with pytest.raises(JoinRefused, match="used up"):
        table.join(0, code0, "Ann")
    with pytest.raises(PhoneError, match=r"^seat 2 has not joined yet \(or give it to a computer\)$"):
        table.start()
    assert table.missing() == [1]


def test_seats_not_joined_are_named_in_the_plural_and_in_german(store: GameStore) -> None:
    """One missing seat is "seat 2 has", several "seats 1, 2 have"; both said in German."""
    from app.games.count99.phones import PhoneTables
    from app.games.count99.refusals import known_text
    from app.games.views import Tr

    table = PhoneTables(store).create(PhoneOptions(seats=("person", "person", "hard")))
    with pytest.raises(PhoneError) as several:
        table.start()
    assert str(several.value) == "seats 1, 2 have not joined yet (or give them to a computer)"
    table.join(0, table.seats[0].code or "", "Ann")
    with pytest.raises(PhoneError) as one:
        table.start()
    german = Tr("de")
    assert known_text(str(one.value), german) == ("Platz 2 ist noch nicht beigetreten (oder gib ihn einem "
                                                  "Computer)")
    assert known_text(str(several.value), german) == ("Plätze 1, 2 sind noch nicht beigetreten (oder gib sie "
                                                      "einem Computer)")


def test_a_whole_game_is_stored_and_replays_to_the_same_winner(store: GameStore) -> None:
    _registry, table, _ = joined_table(store, QUICK)
    table.start(seed=7)
    play_out(table, random.Random(1))
    assert table.game is not None and table.game_id is not None
    winner = table.game.setup.players[table.game.table.winner or 0]
    stored = store.load(table.game_id)
    assert stored.status == "finished"
    record = record_of(stored)
    assert record["mode"] == "phones" and "seats" not in record  # no credential digests in records
    assert "seed" not in record  # with the actions it would tell every hand
    from app.club.outbox import public_game

    shared = public_game(stored, "k")["setup"]
    assert "seed" not in shared and "seats" not in shared
    assert replay_json(record)["final"]["winner"] == winner
    session = load_session(store, table.game_id)
    assert isinstance(session, PhoneTable) and session.game is not None
    assert session.game.table == table.game.table


def test_reloading_from_the_store_mid_game_gives_the_same_state_and_credentials(store: GameStore) -> None:
    options = PhoneOptions(seats=("person", "person", "hard"), manual_draw=True, computer_pause=0,
                           turn_seconds=30)
    _registry, table, credentials = joined_table(store, options)
    table.start(seed=3)
    rng = random.Random(2)
    for _ in range(12):
        game = table.game
        assert game is not None
        turn = game.table.turn
        assert turn is not None
        if table.seats[turn].person:
            slot, choice = rng.choice(game.view(turn).options())
            table.play(turn, slot, choice)
        else:
            table.tick()
    assert table.game_id is not None
    again = PhoneTable.load(store, table.game_id)
    assert again.game is not None and table.game is not None
    assert again.game.hands == table.game.hands and again.game.table == table.game.table
    assert again.options.turn_seconds == 30 and again.options.manual_draw
    for seat, credential in credentials.items():
        assert again.seat_for(credential) == seat
    assert store.load(table.game_id).setup["seats"][0]["credential"] != credentials[0]  # a digest


def test_a_timed_out_seat_is_played_by_the_computer_until_its_owner_is_back(store: GameStore) -> None:
    clock = FakeClock()
    options = PhoneOptions(seats=("person", "person"), turn_seconds=10, computer_pause=0)
    _registry, table, _ = joined_table(store, options, clock)
    table.start(seed=5)
    game = table.game
    assert game is not None
    first = game.table.turn
    assert first is not None
    clock.now += 9
    assert table.tick() is False  # not yet
    clock.now += 2
    before = len(game.actions)
    assert table.tick() is True
    assert table.seats[first].away and len(game.actions) > before
    assert game.table.turn != first or game.table.round_no > 1
    # the other seat plays; then the away seat's turn is played at once, without waiting 10 s
    other = 1 - first
    while game.table.turn == other and not game.table.over:
        slot, choice = game.view(other).options()[0]
        table.play(other, slot, choice)
    if game.table.turn == first and not game.table.over:
        assert table.tick() is True
    table.back(first)
    assert not table.seats[first].away
    assert table.seat_view(first, EN)["away"] is False


def test_the_host_removes_a_seat_and_a_computer_plays_it_for_good(store: GameStore) -> None:
    _registry, table, credentials = joined_table(store, QUICK)
    table.start(seed=11)
    table.remove_seat(1)
    assert table.seats[1].kind == "hard" and table.seats[1].was_person
    assert table.seat_for(credentials[1]) is None
    with pytest.raises(PhoneError, match="computer plays this seat"):
        table.play(1, 0)
    assert table.game_id is not None
    again = PhoneTable.load(store, table.game_id)
    assert again.seats[1].kind == "hard" and again.seats[1].name == "Ben"
    play_out(table, random.Random(4))
    assert table.over


def test_actions_out_of_turn_or_before_the_start_change_nothing(store: GameStore) -> None:
    _registry, table, _ = joined_table(store, QUICK)
    with pytest.raises(PhoneError, match="not started"):
        table.play(0, 0)
    table.start(seed=1)
    game = table.game
    assert game is not None and table.game_id is not None
    turn = game.table.turn
    not_turn = 0 if turn != 0 else 1
    stored = len(store.load(table.game_id).actions)
    with pytest.raises(Exception, match="not your turn"):
        table.play(not_turn, 0)
    with pytest.raises(PhoneError, match="slot"):
        table.play(0, "1")
    assert len(store.load(table.game_id).actions) == stored


def test_the_registry_is_on_the_live_table_and_resumes_unfinished_games(store: GameStore) -> None:
    live = LiveTable(store)
    table = live.phones.create(PhoneOptions(seats=("person", "hard"), computer_pause=0))
    assert table.seats[0].code is not None
    credential = table.join(0, table.seats[0].code, "Ann")
    table.start(seed=2)
    assert live.phones.get(table.table_id) is table
    fresh = LiveTable(store)  # the Pi restarted
    assert fresh.phones.get(table.table_id) is None
    assert fresh.phones.resume() == []
    resumed = fresh.phones.get(table.table_id)
    assert resumed is not None and resumed.seat_for(credential) == 0


def test_listeners_hear_of_every_change_and_views_carry_a_growing_seq(store: GameStore) -> None:
    heard: list[int] = []
    registry, table, _ = joined_table(store, QUICK)
    registry.listeners.append(lambda t: heard.append(t.seq))
    table.start(seed=9)
    play_out(table, random.Random(3))
    assert heard == sorted(heard) and len(heard) > 5
    assert table.snapshot["seq"] == heard[-1]


def test_sentences_are_the_terminal_games_for_that_seat(store: GameStore) -> None:
    from app.games.count99.texts import describe

    _registry, table, _ = joined_table(store, QUICK)
    table.start(seed=4)
    play_out(table, random.Random(5))
    assert table.game is not None
    setup = table.game.setup
    heard = [text for _seq, text in table.sentences(0, 0, EN)]
    expected = [describe(e, setup, 0, EN) for _seq, e in table.log]
    assert heard == [t for t in expected if t]
    assert any(text.startswith("You ") for text in heard)


def test_the_csrf_token_is_derived_from_the_credential() -> None:
    assert csrf_for("a") == csrf_for("a") != csrf_for("b")


def test_options_are_checked_with_one_line_reasons() -> None:
    with pytest.raises(PhoneError, match="hand size must be 1 to 13"):
        PhoneOptions(hand_size=14).check()
    with pytest.raises(PhoneError, match="tokens must be 1 to 50"):
        PhoneOptions(tokens=0).check()
    with pytest.raises(PhoneError, match="person"):
        PhoneOptions(seats=("hard", "easy")).check()
    with pytest.raises(PhoneError, match="deck"):
        PhoneOptions(seats=("person",) * 8, hand_size=13, variant=Variant.QUENTIN_C).check()
    with pytest.raises(PhoneError, match="turn time"):
        PhoneOptions(turn_seconds=1).check()


def test_a_lost_phone_rejoins_mid_game_with_a_new_code_and_the_old_cookie_stops(store: GameStore) -> None:
    _registry, table, credentials = joined_table(store, QUICK)
    table.start(seed=6)
    code = table.new_code(0)
    again = table.join(0, code, "ignored: the record names the seat")
    assert table.seat_for(again) == 0 and table.seat_for(credentials[0]) is None
    assert table.seats[0].name == "Ann"
    assert table.game_id is not None
    assert PhoneTable.load(store, table.game_id).seat_for(again) == 0  # stored at once


def test_the_registry_keeps_a_bounded_number_of_tables(store: GameStore) -> None:
    from app.games.count99.phones import MAX_TABLES, PhoneTables

    registry = PhoneTables(store)
    made = [registry.create(PhoneOptions(seats=("person", "hard"))) for _ in range(MAX_TABLES + 3)]
    assert len(registry.tables()) == MAX_TABLES
    assert registry.get(made[-1].table_id) is made[-1] and registry.get(made[0].table_id) is None


def test_table99_replay_replays_a_phones_record_to_the_same_winner(store: GameStore, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    _registry, table, _ = joined_table(store, QUICK)
    table.start(seed=8)
    play_out(table, random.Random(8))
    assert table.game is not None and table.game_id is not None
    winner = table.game.setup.players[table.game.table.winner or 0]
    path = tmp_path / "phones.json"
    path.write_text(json.dumps(record_of(store.load(table.game_id))), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "app", "replay", str(path), "--json"], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["final"]["winner"] == winner


def test_a_card_drawn_is_heard_by_its_own_seat_only(store: GameStore) -> None:
    from rules.count99.deal import CardDrawn

    _registry, table, _ = joined_table(store, QUICK)
    table.start(seed=12)
    play_out(table, random.Random(12))
    drawn = {seat: sum(1 for _s, e in table.log if isinstance(e, CardDrawn) and e.seat == seat)
             for seat in range(4)}
    assert drawn[0] > 0 and drawn[1] > 0
    for seat in range(4):
        heard = [text for _seq, text in table.sentences(seat, 0, EN)]
        assert sum(text.startswith("You draw") for text in heard) == drawn[seat]
    assert not any("draw" in text for _seq, text in table.sentences(None, 0, EN))


def test_a_table_loaded_after_a_restart_shows_its_last_plays_and_says_nothing_twice(store: GameStore) -> None:
    _registry, table, _ = joined_table(store, QUICK)
    table.start(seed=13)
    rng = random.Random(13)
    for _ in range(6):
        game = table.game
        assert game is not None and game.table.turn is not None
        if table.seats[game.table.turn].person:
            table.play(game.table.turn, *rng.choice(game.view(game.table.turn).options()))
        else:
            table.tick()
    assert table.game_id is not None
    again = PhoneTable.load(store, table.game_id)
    assert again.public_view(EN)["plays"] == table.public_view(EN)["plays"]
    assert again.sentences(0, 0, EN) == []  # the history is shown, not said again
    before = store.load(table.game_id)
    assert PhoneTable.load(store, table.game_id).game is not None
    after = store.load(table.game_id)  # loading keeps the game: only the count of loads is written
    assert (after.actions, after.status) == (before.actions, before.status)
    assert after.setup["loads"] == before.setup["loads"] + 1
    play_out(table, rng)
    finished_before = store.load(table.game_id).updated
    assert PhoneTable.load(store, table.game_id).game is not None
    assert store.load(table.game_id).updated == finished_before  # loading a finished game writes nothing


def test_a_refused_seat_change_leaves_the_tables_options_as_they_were(store: GameStore) -> None:
    """Giving the last person's seat to a computer is refused; the refused seats were kept in the
    table's options all the same, so the host's next change (a turn time) was refused with the same
    words, and the options no longer matched the seats."""
    from app.games.count99.phones import PhoneTables

    table = PhoneTables(store, clock=FakeClock()).create(PhoneOptions(seats=("person", "person", "hard")))
    table.set_seat(0, "hard")
    before = table.options
    with pytest.raises(PhoneError, match="at least one seat must be a person's"):
        table.set_seat(1, "hard")
    assert table.options == before and [s.kind for s in table.seats] == list(before.seats)
    table.set_turn_seconds(30)
    assert table.options.turn_seconds == 30
