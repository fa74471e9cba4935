"""Defects found by the outside audit of Ninety Nine with phones (issue 33), each now a test that
guards its fix: the shuffle seed, a repeated play, the event counter across a restart, German
refusals, an old table's address, names ("You", "Computer 2"), "away" after a refused play, German
words, the open tables, and the table-wide cap on wrong join codes. The browser's findings (focus,
double tap, touch targets, the TV's announcements, keys) are in tests/test_phones_audit_browser.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.games.count99.phones import PERSON, PhoneError, PhoneOptions, PhoneTable
from app.games.views import Tr
from app.store import GameStore
from tests.phones_support import FakeClock, joined_table
from tests.phones_web_support import PhonesWeb


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    s = GameStore(tmp_path / "games.sqlite")
    yield s
    s.close()


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[PhonesWeb]:
    web = PhonesWeb(tmp_path / "web")
    yield web
    web.close()


def test_a_phone_reconnecting_after_a_restart_hears_the_plays_made_since(store: GameStore) -> None:
    clock = FakeClock()
    _registry, table, _creds = joined_table(
        store, PhoneOptions(seats=(PERSON, "hard"), tokens=50, hand_size=5, computer_pause=0.0), clock)
    table.start(seed=7)
    rng = random.Random(1)
    for _ in range(200):  # play until the phone has seen a few events and the computer is to play
        game = table.game
        assert game is not None and not game.table.over
        if table.seq >= 6 and game.table.turn == 1:
            break
        if game.table.turn == 0:
            slot, choice = rng.choice(game.view(0).options())
            table.play(0, slot, choice)
        else:
            assert table.tick()
    last_seen = table.seq  # the phone's Last-Event-ID when the power went
    assert table.game_id is not None
    again = PhoneTable.load(store, table.game_id, clock=clock)  # the restart
    assert again.tick()  # the computer plays before the phone is back
    heard = again.sentences(0, last_seen, Tr("en"))
    assert any("plays" in text for _seq, text in heard), heard


def test_the_shuffle_seed_cannot_be_searched(store: GameStore) -> None:
    bits = []
    for _ in range(20):
        _registry, table, _creds = joined_table(store, PhoneOptions(seats=(PERSON, "hard")))
        table.start()
        assert table.game is not None
        bits.append(table.game.seed.bit_length())
    assert max(bits) >= 64, bits
    again = PhoneTable.load(store, table.game_id or 0)  # the stored record takes a 128-bit seed
    assert again.game is not None and again.game.hands == table.game.hands


def test_the_game_against_the_computer_draws_an_unsearchable_seed_too(store: GameStore) -> None:
    from app.games.count99.game import ComputerGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    setup = Setup(Variant.QUENTIN_C, ("Bea", "Computer 1"), tokens=9, hand_size=3)
    bits = [ComputerGame.create(store, setup).game.seed.bit_length() for _ in range(10)]
    assert max(bits) >= 64, bits


def test_a_person_named_like_a_computer_does_not_block_the_start(store: GameStore) -> None:
    _registry, table, _creds = joined_table(
        store, PhoneOptions(seats=(PERSON, PERSON, "hard")), names=("Computer 2", "Ben", "x"))
    try:
        table.set_seat(1, "easy")  # the host gives seat 2 to a computer
    except PhoneError:
        return  # refusing the switch with a reason is a fix too
    table.start()
    names = [s.name for s in table.seats]
    assert len(set(names)) == len(names)
    assert names == ["Computer 2", "Computer 1", "Computer 3"]  # the computers skip the person's name


def test_the_hosts_refusals_are_german_on_a_german_device(phones: PhonesWeb) -> None:
    import json

    from tests.web_support import http, same_origin

    headers = {**same_origin(phones.port), "Cookie": phones.host_cookie, "X-CSRF-Token": phones.host_csrf,
               "Accept-Language": "de-DE,de;q=0.9"}
    body = json.dumps({"people": 4, "computers": 4, "hand_size": 13}).encode()  # the host form allows it
    status, _h, raw = http("POST", phones.base + "/api/phones", body, headers)
    assert status == 422
    error = json.loads(raw)["error"]
    assert "seats x" not in error and "deck" not in error, error


def test_a_refused_play_changes_nothing_or_publishes_what_it_changed(store: GameStore) -> None:
    from rules.count99.errors import Count99Error

    clock = FakeClock()
    _registry, table, _creds = joined_table(
        store, PhoneOptions(seats=(PERSON, PERSON, "hard"), turn_seconds=5, computer_pause=0.0), clock)
    table.start(seed=3)
    assert table.game is not None
    first = table.game.table.turn
    assert first is not None and table.seats[first].person
    clock.now += 6
    assert table.tick()  # the time ran out: the computer played that seat
    assert table.snapshot["seats"][first]["away"]
    with pytest.raises((PhoneError, Count99Error)):
        table.play(first, 0)  # the owner's late tap: no longer their turn
    assert table.seats[first].away == table.snapshot["seats"][first]["away"]
    with pytest.raises((PhoneError, Count99Error)):
        table.draw(first)  # nothing to draw (automatic draw), and not their turn
    assert table.seats[first].away == table.snapshot["seats"][first]["away"]


def test_an_unknown_tables_address_answers_with_a_page(phones: PhonesWeb) -> None:
    from tests.web_support import http

    for path in ("/phones/deadbeef", "/phones/deadbeef?tv", "/phones/deadbeef/host"):
        status, headers, body = http("GET", phones.base + path, None, {"Accept-Language": "de"})
        assert status == 404
        kind = headers.get("Content-Type", "")
        assert kind.startswith("text/html"), (kind, body[:80])
        assert b'lang="de"' in body and b"Handy-Tisch" in body
        assert f'href="/v/{phones.web.access.token}/"'.encode() in body  # a way back
    status, headers, _body = http("GET", phones.base + "/phones/deadbeef/api/view", None, {})
    assert status == 404 and headers.get("Content-Type", "").startswith("application/json")  # the API: JSON


def test_no_other_seat_is_announced_as_you(store: GameStore) -> None:
    from app.games.count99.phones import JoinRefused

    try:
        _registry, table, _creds = joined_table(store, PhoneOptions(seats=(PERSON, PERSON)),
                                                names=("You", "Ben"))
    except JoinRefused:
        return  # refusing the name is a fix
    table.start(seed=1)
    rng = random.Random(2)
    for _ in range(6):
        game = table.game
        assert game is not None
        turn = game.table.turn
        assert turn is not None
        slot, choice = rng.choice(game.view(turn).options())
        table.play(turn, slot, choice)
    about_seat_one = [text for _seq, text in table.sentences(1, 0, Tr("en"))]
    mine = [text for _seq, text in table.sentences(1, 0, Tr("en")) if text.startswith("You ")]
    others_as_you = [t for t in mine if t.startswith(("You plays", "You starts", "You loses", "You is"))]
    assert not others_as_you, about_seat_one


def _seed_where_ann_starts_with_a_jack() -> int:
    from rules.count99.cards import Variant
    from rules.count99.deal import CardGame
    from rules.count99.table import Setup

    setup = Setup(Variant.QUENTIN_C, ("Ann", "Computer 1"), tokens=9, hand_size=5)
    for seed in range(1000):
        game = CardGame(setup, seed=seed)
        game.advance()
        if game.table.turn == 0 and "J" in game.hands[0]:
            return seed
    raise AssertionError("no such seed")


def test_a_repeated_play_request_plays_one_card(phones: PhonesWeb) -> None:
    """The HTTP half of a double tap: the same request twice (the Jack gives Ann the turn back)."""
    table = phones.open_table(people=1, computers=1, hand_size=5, tokens=9, computer_pause=5.0)
    ann, ann_csrf = phones.join(table, 0, "Ann")
    table.start(seed=_seed_where_ann_starts_with_a_jack())
    game = table.game
    assert game is not None
    seen = table.seq
    jack = game.hands[0].index("J")
    assert phones.act(table, ann, ann_csrf, op="play", slot=jack, seq=seen)[0] == 200
    assert game.table.turn == 0  # the turn came straight back
    status, data = phones.act(table, ann, ann_csrf, op="play", slot=jack, seq=seen)
    assert status == 422, data
    assert [p["card"] for p in table.snapshot["plays"]] == ["J"]
    status, data = phones.act(table, ann, ann_csrf, op="play", slot=0, seq=None)
    assert status == 400, data  # a play that names no view is refused: the page always names it
    assert phones.act(table, ann, ann_csrf, op="play", slot=0, seq=table.seq)[0] == 200  # a fresh choice


def _refusals(phones: PhonesWeb, lang: str) -> list[tuple[int, str, bytes]]:
    """What a phone (and the host) are told for each kind of bad request, in ``lang``."""
    import json

    from tests.web_support import http, same_origin

    host = {**same_origin(phones.port), "Cookie": phones.host_cookie, "X-CSRF-Token": phones.host_csrf,
            "Accept-Language": lang}
    answers: list[tuple[int, str, bytes]] = []

    def post(path: str, body: object, headers: dict[str, str], raw: bytes | None = None) -> None:
        data = json.dumps(body).encode() if raw is None else raw
        status, got, answer = http("POST", phones.base + path, data, headers)
        answers.append((status, got.get("Content-Type", ""), answer))

    for body in ({"people": 4, "computers": 4, "hand_size": 13}, {"people": 9}, {"people": 1, "computers": 0},
                 {"turn_seconds": 3}, {"tokens": 99}, {"computer_pause": 99}):
        post("/api/phones", body, host)
    post("/api/phones", None, host, raw=b"{bad")
    post("/api/phones", None, host, raw=b"[1]")
    post("/api/phones", None, host, raw=b"x" * 100_000)
    table = phones.open_table(people=2, computers=1, hand_size=3, tokens=9, computer_pause=5.0)
    path = f"/phones/{table.table_id}"
    post(path + "/api/host", {"op": "seat", "index": 2, "kind": "x"}, host)
    post(path + "/api/host", {"op": "new-code", "index": 2}, host)
    ann, ann_csrf = phones.join(table, 0, "Ann")
    phones.join(table, 1, "Ben")
    table.start(seed=5)
    post(path + "/api/host", {"op": "seat", "index": 2, "kind": "easy"}, host)
    game = table.game
    assert game is not None
    if game.table.turn != 0:
        table.play(1, *game.view(1).options()[0])
    phone = {**host, "Cookie": ann, "X-CSRF-Token": ann_csrf}
    for slot in (9, -1):
        post(path + "/api/act", {"op": "play", "slot": slot, "seq": table.seq}, phone)
    wrong = next(i for i, card in enumerate(game.hands[0]) if card not in ("A", "10"))
    post(path + "/api/act", {"op": "play", "slot": wrong, "choice": 3, "seq": table.seq}, phone)
    post(path + "/api/act", {"op": "play", "slot": 0, "seq": 0}, phone)
    post(path + "/api/act", {"op": "play", "slot": 0}, phone)
    return answers


def test_every_refusal_a_german_phone_meets_is_german(phones: PhonesWeb) -> None:
    english, german = _refusals(phones, "en"), _refusals(phones, "de-DE,de;q=0.9")
    for (status, kind, said), (de_status, de_kind, de_said) in zip(english, german, strict=True):
        assert (de_status, de_kind) == (status, kind) and kind.startswith("application/json"), (said, de_said)
        assert status >= 400 and de_said != said, de_said.decode()


def test_a_refused_aces_name_is_said_in_the_readers_language() -> None:
    from app.games.count99.refusals import known_text

    said = known_text("A cannot count +3 at 0 (allowed: +1 or +11)", Tr("de"))
    assert said == "Ass kann bei 0 nicht +3 zählen (erlaubt: +1 oder +11)", said


@pytest.mark.parametrize("name", ["You", "you", " YOU ", "Du", "du"])
def test_a_player_cannot_take_the_name_the_sentences_call_the_listener(store: GameStore, name: str) -> None:
    from app.games.count99.phones import JoinRefused

    with pytest.raises(JoinRefused, match="choose another name"):
        joined_table(store, PhoneOptions(seats=(PERSON, PERSON)), names=(name, "Ben"))


def test_german_pages_name_tokens_and_the_count_as_the_sentences_do(phones: PhonesWeb) -> None:
    """One word each, as the terminal game's sentences say them: "Chips" (not "Marken"), "Stand" for
    the count (not "Summe"), and the status column "Zustand" (not a second "Stand")."""
    table = phones.open_table(people=1, computers=1)
    pages = [phones.get("/phones", phones.host_cookie, **{"Accept-Language": "de"})[1],
             phones.get(f"/phones/{table.table_id}?tv", "", **{"Accept-Language": "de"})[1],
             phones.get(f"/phones/{table.table_id}/host", phones.host_cookie, **{"Accept-Language": "de"})[1]]
    text = "\n".join(pages)
    assert "Chips je Spieler" in text and ">Stand<" in text and ">Zustand<" in text
    assert "Marken" not in text and "Summe" not in text


def test_the_open_tables_are_the_unfinished_ones_and_a_running_game_cannot_be_dropped(
        phones: PhonesWeb) -> None:
    from tests.phones_support import play_out

    done = phones.open_table(people=2, computers=0, hand_size=1, tokens=1)  # no computer: the server's
    phones.join(done, 0, "Ann")  # clock has nothing to race play_out for
    phones.join(done, 1, "Ben")
    done.start(seed=1)
    play_out(done, random.Random(1))
    assert done.over
    running = phones.open_table(people=1, computers=1, computer_pause=5.0)
    phones.join(running, 0, "Ann")
    running.start(seed=2)
    listing = phones.get("/phones", phones.host_cookie)[1]
    assert running.table_id in listing and done.table_id not in listing
    status, data = phones.host(running, op="forget")
    assert status == 422 and "running" in data["error"], data
    assert phones.web.live.phones.get(running.table_id) is running  # the table's screen still finds it
    assert phones.host(done, op="forget")[0] == 200
    assert phones.web.live.phones.get(done.table_id) is None


def test_wrong_codes_across_the_table_stop_joins_until_the_host_makes_a_new_code(store: GameStore) -> None:
    """Burning and renewing codes seat after seat cannot go on guessing: after TABLE_CODE_TRIES wrong
    codes at one table even the right code is refused until the host makes a new code, and the
    host's view says so."""
    from app.games.count99.phones import CODE_TRIES, TABLE_CODE_TRIES, JoinRefused, PhoneTables

    registry = PhoneTables(store, clock=FakeClock())
    table = registry.create(PhoneOptions(seats=(PERSON,) * 8))
    wrong = 0
    for seat in range(8):
        for _ in range(CODE_TRIES):
            if wrong == TABLE_CODE_TRIES:
                break
            code = table.seats[seat].code
            assert code is not None
            with pytest.raises(JoinRefused):
                table.join(seat, "0000" if code != "0000" else "1111", "Guess")
            wrong += 1
    assert table.host_view(Tr("en"))["wrong_codes"] == TABLE_CODE_TRIES
    assert table.host_view(Tr("en"))["joins_locked"] is True
    right = table.seats[7].code
    assert right is not None
    with pytest.raises(JoinRefused, match="at this table"):
        table.join(7, right, "Hal")  # the right code, but guessing has to stop
    fresh = table.new_code(0)  # the host acts
    assert table.host_view(Tr("en"))["joins_locked"] is False
    table.join(7, right, "Hal")
    table.join(0, fresh, "Ann")
