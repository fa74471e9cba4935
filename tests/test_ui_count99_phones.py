"""The table's screens of Ninety Nine with phones, headless: setup, lobby, game, finished, resume.

The phones themselves are stood in for by the games layer (``table.join``, ``table.play``: what the
web server calls), some from another thread as the web server would; the computers' clock is
``live.phones.tick()`` on a hand-driven clock. The screens follow by their own Clock poll.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from app.games.count99.phones import PERSON, PhoneOptions
from app.games.count99.texts import card_label, card_name
from rules.count99.cards import CARD_NAMES, Variant
from tests.phones_support import FakeClock
from tests.phones_table_support import (
    code_labels,
    in_web_thread,
    live_table,
    people,
    status_texts,
    step,
    texts,
    wait_actions,
)
from tests.test_ui_count99 import make_ctx
from tests.ui_support import find, frames, frames_until, open_modal, tap

pytestmark = pytest.mark.ui


def build(ui: Any, tmp_path: Path, web: bool = True,
          web_problem: str | None = None) -> tuple[Any, Any, Any, Any]:
    """(ctx, the count99 UI, the LiveTable, the clock) on the phones' setup screen."""
    from kivy.uix.screenmanager import Screen

    from app.ui.count99 import make_ui

    ctx = make_ctx(tmp_path)
    clock = FakeClock()
    live = live_table(ctx.store, clock, web=web)
    if web:  # table99 run sets these: the LiveTable only when the web display started
        ctx.extras["live"] = live
    ctx.extras["web_problem"] = web_problem
    ctx.manager.add_widget(Screen(name="home"))
    game_ui = make_ui()
    game_ui.build(ctx)
    ctx.go("count99-phones-setup")
    ui.show(ctx.manager)
    return ctx, game_ui, live, clock


def open_table(ctx: Any, game_ui: Any, tokens: int = 2) -> Any:
    """Four seats: Ann's and Ben's phones, a hard and an easy computer; Quentin C; ``tokens`` each."""
    setup = ctx.manager.get_screen("count99-phones-setup")
    seat4 = setup.seat_buttons[3]
    tap(seat4)  # hard -> easy
    assert seat4.value == "easy" and seat4.text == "4: Computer (easy)"
    for _ in range(9 - tokens):
        tap(setup.tokens.minus)
    tap(find(setup, text="Open the table"))
    assert ctx.manager.current == "count99-phones-lobby"
    return ctx.manager.current_screen.session


def hand_cards(table: Any) -> set[str]:
    assert table.game is not None
    return {card for hand in table.game.hands for card in hand}


def test_setup_lobby_start_and_a_game_to_its_winner(ui: Any, tmp_path: Path) -> None:
    ctx, game_ui, live, clock = build(ui, tmp_path)
    ui.screenshot("count99-phones-setup-en")
    table = open_table(ctx, game_ui)
    assert table is live.phones.get(table.table_id)
    assert table.options.seats == (PERSON, PERSON, "hard", "easy") and table.options.tokens == 2
    lobby = ctx.manager.current_screen
    # Each person's seat shows its code in large type; nobody has joined: Start waits, and says why.
    codes = code_labels(lobby)
    assert codes[0] == table.seats[0].code and codes[1] == table.seats[1].code
    assert all(len(codes[i]) == 4 and codes[i].isdigit() for i in (0, 1)) and codes[2] == codes[3] == ""
    assert lobby.start_button.disabled
    assert lobby.reason.text == "Start when everyone has joined: waiting for seats 1, 2."
    assert lobby.shown_url.endswith(f"/v/{'x' * 22}/phones/{table.table_id}") and lobby.qr.texture
    # Ann joins from her phone (the web server's thread): the lobby shows it by its own poll.
    in_web_thread(lambda: table.join(0, codes[0], "Ann"))
    frames_until(lambda: status_texts(lobby)[0] == "Ann joined")
    assert lobby.reason.text.endswith("waiting for seat 2.") and lobby.start_button.disabled
    # Ben lost the code: a new one; the old one no longer works.
    old = codes[1]
    tap(find_seat_button(lobby, 1, "New code"))
    wait_actions(game_ui)
    frames_until(lambda: code_labels(lobby)[1] not in ("", old))
    ui.screenshot("count99-phones-lobby-en")
    in_web_thread(lambda: table.join(1, code_labels(lobby)[1], "Ben"))
    frames_until(lambda: not lobby.start_button.disabled)
    assert lobby.reason.text == "Everyone is here: start the game."
    tap(lobby.start_button)
    wait_actions(game_ui)
    frames_until(lambda: ctx.manager.current == "count99-phones-game")
    screen = ctx.manager.current_screen
    assert table.started and table.game_id is not None
    assert screen.count_label.text == "0" and "'s turn" in screen.turn_label.text
    assert "clockwise" in screen.direction_label.text and "\u21bb" in screen.direction_label.text
    assert screen.tokens_label.text.startswith("Tokens\n")
    assert "Ann: 2 tokens, 3 cards" in screen.tokens_label.text  # how many cards, never which
    rng = random.Random(7)
    # Some turns (the people's through the games layer, the computers' by the web's clock).
    while len(table.snapshot.get("plays", [])) < 3 and not table.over:
        step(table, live.phones, clock, rng)
    frames_until(lambda: screen.shown_seq == table.snapshot["seq"])
    assert screen.count_label.text == str(table.snapshot["count"])
    assert screen.plays_label.text.startswith("Last plays\n") and ", count " in screen.plays_label.text
    assert screen.said_label.text, "the latest sentence is shown"
    ui.screenshot("count99-phones-game-en")
    # Play on to the end: the screen follows to the winner and offers the way home.
    while not table.over:
        step(table, live.phones, clock, rng)
    frames_until(lambda: "wins the game!" in screen.turn_label.text)
    winner = table.snapshot["seats"][table.snapshot["winner"]]["name"]
    assert screen.turn_label.text == f"{winner} wins the game!"
    assert ctx.announcer.spoken[-1] == f"{winner} wins the game!"
    assert list(screen.bar.children) == [screen.home_button]
    ui.screenshot("count99-phones-finished-en")
    assert ctx.store.load(table.game_id).status == "finished"
    tap(screen.home_button)
    assert ctx.manager.current == "home"


def find_seat_button(lobby: Any, index: int, text: str) -> Any:
    row = next(w for w in lobby.rows.children
               if any(getattr(c, "seat_code", None) == index for c in w.children))
    return find(row, text=text)


def started_game(ui: Any, tmp_path: Path, tokens: int = 2) -> tuple[Any, Any, Any, Any, Any]:
    """Ann and Ben joined and the game started from the lobby; (ctx, ui, live, clock, table)."""
    ctx, game_ui, live, clock = build(ui, tmp_path)
    table = open_table(ctx, game_ui, tokens)
    for seat, name in ((0, "Ann"), (1, "Ben")):
        table.join(seat, table.seats[seat].code, name)
    lobby = ctx.manager.current_screen
    frames_until(lambda: not lobby.start_button.disabled)
    tap(lobby.start_button)
    wait_actions(game_ui)
    frames_until(lambda: ctx.manager.current == "count99-phones-game")
    frames(3)  # laid out
    return ctx, game_ui, live, clock, table


def test_the_host_gives_a_seat_to_a_computer_after_a_confirm(ui: Any, tmp_path: Path) -> None:
    ctx, game_ui, live, clock, table = started_game(ui, tmp_path, tokens=5)
    screen = ctx.manager.current_screen
    tap(screen.remove_button)
    chooser = open_modal()
    tap(find(chooser, text="Ben"))
    confirm = open_modal()
    assert "Ben's seat" in find(confirm, text=confirm.children[0].children[1].text).text
    tap(confirm.no_button)  # No: nothing changes
    frames(2)
    assert table.seats[1].kind == PERSON
    tap(screen.remove_button)
    tap(find(open_modal(), text="Ben"))
    tap(open_modal().yes_button)
    wait_actions(game_ui)
    assert table.seats[1].kind == "hard" and table.seats[1].was_person
    frames_until(lambda: "Ben: 5 tokens" in screen.tokens_label.text
                 and "Computer (hard)" in screen.tokens_label.text.split("Ben:")[1].split("\n")[0])
    assert people(table) == [0]
    # The turn time: one tap sets the next choice, and the games layer has it.
    tap(screen.turn_time)
    wait_actions(game_ui)
    assert table.options.turn_seconds == 30 and screen.turn_time.text == "Turn time: 30 s"
    in_web_thread(lambda: table.set_turn_seconds(15))  # the host's browser page offers 15 s too
    frames_until(lambda: screen.turn_time.text == "Turn time: 15 s")
    # The game goes on with Ann on her phone and three computers, to a winner.
    rng = random.Random(3)
    while not table.over:
        step(table, live.phones, clock, rng)
    frames_until(lambda: "wins the game!" in screen.turn_label.text)
    assert screen.remove_button.parent is None


def test_no_card_of_any_hand_on_the_table_screen(ui: Any, tmp_path: Path) -> None:
    """The screen's texts do not depend on the hands: every hand swapped for other cards (one rank
    nowhere on the screen) changes no text; and no text ever names a card still in a hand apart
    from the public plays and sentences."""
    ctx, _game_ui, live, clock, table = started_game(ui, tmp_path, tokens=5)
    screen = ctx.manager.current_screen
    rng = random.Random(11)
    for _ in range(6):
        step(table, live.phones, clock, rng)
    frames_until(lambda: screen.shown_seq == table.snapshot["seq"])
    before = texts(screen)
    shown = " ".join(before)
    assert "Your hand" not in shown
    ranks = [c for c in CARD_NAMES[Variant.QUENTIN_C]
             if card_name(c) not in shown and card_label(c) not in shown]
    assert ranks, "some rank is named nowhere on the screen"
    sentinel = ranks[0]
    with table.lock:  # every hand becomes the sentinel rank, as many cards as before
        assert table.game is not None
        for hand in table.game.hands:
            hand[:] = [sentinel] * len(hand)
        table.seq += 1
        table._publish()
    frames_until(lambda: screen.shown_seq == table.snapshot["seq"])
    after = texts(screen)
    assert after == before
    assert not any(card_name(sentinel) in t for t in after)
    # The lobby and setup never show a card (there are none yet), nor do they name hands.
    for name in ("count99-phones-setup", "count99-phones-lobby"):
        assert "Your hand" not in " ".join(texts(ctx.manager.get_screen(name)))


def test_the_web_display_off_is_one_line_and_nothing_opens(ui: Any, tmp_path: Path) -> None:
    ctx, _game_ui, live, _clock = build(ui, tmp_path, web=False)
    setup = ctx.manager.current_screen
    assert setup.message.text == ("Phones cannot join: the web display is off. Set [web] enabled = true in "
                                  "the config and restart Table99.")
    assert setup.open_button.disabled
    setup.open()  # even if called: nothing opens, no crash
    assert ctx.manager.current == "count99-phones-setup" and not live.phones.tables()
    ui.screenshot("count99-phones-no-web-en")


def test_a_web_display_that_did_not_start_says_why(ui: Any, tmp_path: Path) -> None:
    problem = "the web display cannot listen on 0.0.0.0:8099: Address already in use"
    ctx, _game_ui, _live, _clock = build(ui, tmp_path, web=False, web_problem=problem)
    setup = ctx.manager.current_screen
    assert setup.message.text == f"Phones cannot join: the web display did not start ({problem})."
    assert setup.open_button.disabled


def test_resume_opens_the_game_screen_from_the_registry(ui: Any, tmp_path: Path) -> None:
    """An unfinished phones game in the store (the app restarted) opens on the game screen: the
    registry loads it (as the web server's resume does); the history lists it as Ninety Nine."""
    from app.games.count99.phones import PhoneTables
    from app.ui.home import summary_lines

    ctx, game_ui, live, clock = build(ui, tmp_path)
    earlier = PhoneTables(ctx.store, clock=clock)  # the run before the restart
    table = earlier.create(PhoneOptions(seats=(PERSON, "hard", "easy"), tokens=3))
    table.join(0, table.seats[0].code, "Ann")
    table.start(seed=5)
    rng = random.Random(1)
    for _ in range(4):
        step(table, earlier, clock, rng)
    assert not table.over
    game_id = table.game_id
    assert game_id is not None
    name = game_ui.resume(game_id)
    assert name == "count99-phones-game"
    ctx.go(name)
    screen = ctx.manager.current_screen
    resumed = screen.session
    assert resumed is not table and resumed.game_id == game_id
    assert live.phones.get(resumed.table_id) is resumed
    frames(2)
    assert screen.count_label.text == str(table.snapshot["count"])
    assert game_ui.resume(game_id) == name and screen.session is resumed  # never a second copy
    summary = next(s for s in ctx.store.games() if s.id == game_id)
    first, _second = summary_lines(summary, {"count99": game_ui})
    assert first.startswith(f"Ninety Nine (count) #{game_id}: ")


def test_resume_without_the_web_display_says_so(ui: Any, tmp_path: Path) -> None:
    from app.games.count99.phones import PhoneTables

    ctx, game_ui, _live, clock = build(ui, tmp_path, web=False)
    table = PhoneTables(ctx.store, clock=clock).create(PhoneOptions(seats=(PERSON, "hard"), tokens=3))
    table.join(0, table.seats[0].code, "Ann")
    table.start(seed=5)
    with pytest.raises(LookupError, match="the web display is off"):
        game_ui.resume(table.game_id)


def test_home_offers_ninety_nine_with_phones(ui: Any, tmp_path: Path) -> None:
    from app.ui.home import HomeScreen

    ctx, game_ui, _live, _clock = build(ui, tmp_path)
    home = HomeScreen(ctx, {"count99": game_ui})
    home.name = "home2"
    ctx.manager.add_widget(home)
    ctx.go("home2")
    frames(2)
    tap(find(home, text="New: Ninety Nine with phones"))
    assert ctx.manager.current == "count99-phones-setup"


def test_a_port_taken_reaches_the_phones_setup_through_the_app(ui: Any, tmp_path: Path) -> None:
    """table99 run's own path: the web display cannot start (the port is taken); the app still
    opens, and the phones' setup says why in one line, with nothing to open."""
    import socket

    from app.commands.run_app import _start_web
    from app.config import Config
    from app.store import GameStore
    from app.ui.shell import Table99App

    pytest.importorskip("aiohttp")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = Config(web={**Config().web, "bind": "127.0.0.1"})
        store = GameStore(tmp_path / "games.sqlite")
        app = Table99App(config=config, store=store)
        problems: list[str] = []
        assert _start_web(app, config, store, port, problems) is None
    assert len(problems) == 1 and f"127.0.0.1:{port}" in problems[0]
    root = app.build()
    ui.show(root)
    root.current = "count99-phones-setup"
    frames(2)
    setup = root.current_screen
    assert setup.message.text == f"Phones cannot join: the web display did not start ({problems[0]})."
    assert setup.open_button.disabled


def test_the_screens_never_wait_for_the_tables_lock(ui: Any, tmp_path: Path) -> None:
    """While another thread holds the table's lock (a commit in the web thread), the game screen
    and the lobby redraw and the host's taps return: the holder is let go by the test, not by
    its own timeout (which it would reach if a screen had waited for the lock)."""
    import threading

    ctx, game_ui, _live, _clock = build(ui, tmp_path)
    table = open_table(ctx, game_ui)
    lobby = ctx.manager.current_screen
    held, release = threading.Event(), threading.Event()
    outcome: list[bool] = []

    def hold() -> None:
        with table.lock:
            held.set()
            outcome.append(release.wait(20))  # False: nobody let it go, the screen must have waited

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(20)
    old = code_labels(lobby)[0]
    lobby.refresh()
    frames(2)  # laid out (the tap goes where the button is drawn)
    tap(find_seat_button(lobby, 0, "New code"))  # queued on the worker: it waits, the screen does not
    assert game_ui.host_actions.pending == 1
    release.set()
    holder.join(30)
    assert outcome == [True]
    wait_actions(game_ui)
    frames_until(lambda: code_labels(lobby)[0] not in ("", old))
    # The game screen likewise, with a game started from the host's browser page (the web thread).
    for seat, name in ((0, "Ann"), (1, "Ben")):
        in_web_thread(lambda s=seat, n=name: table.join(s, table.seats[s].code, n))
    in_web_thread(table.start)
    frames_until(lambda: ctx.manager.current == "count99-phones-game")
    screen = ctx.manager.current_screen
    held.clear(), release.clear(), outcome.clear()
    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(20)
    screen.refresh()
    screen.poll()
    release.set()
    holder.join(30)
    assert outcome == [True]


def test_home_resumes_a_phones_game_and_the_history_exports_it(ui: Any, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Home lists the unfinished phones game with the others; Resume opens the game screen. The
    history's export writes its record like any Ninety Nine game's, without the seed or seats."""
    import json

    from app.games.count99.phones import PhoneTables
    from app.ui.home import HistoryScreen, HomeScreen

    monkeypatch.setenv("TABLE99_DATA_DIR", str(tmp_path / "data"))
    ctx, game_ui, live, clock = build(ui, tmp_path)
    table = PhoneTables(ctx.store, clock=clock).create(PhoneOptions(seats=(PERSON, "hard"), tokens=2))
    table.join(0, table.seats[0].code, "Ann")
    table.start(seed=9)
    home = HomeScreen(ctx, {"count99": game_ui})
    home.name = "home2"
    ctx.manager.add_widget(home)
    ctx.go("home2")
    frames(3)
    tap(find(home, text="Resume"))
    assert ctx.manager.current == "count99-phones-game"
    resumed = ctx.manager.current_screen.session
    assert resumed.game_id == table.game_id and live.phones.get(resumed.table_id) is resumed
    history = HistoryScreen(ctx, {"count99": game_ui})
    ctx.manager.add_widget(history)
    ctx.go("history")
    frames(3)
    assert any(f"#{table.game_id}: Ann, Computer 1" in t for t in texts(history))
    path = history.export(table.game_id)
    record = json.loads(path.read_text())
    assert record["players"] == ["Ann", "Computer 1"] and "seed" not in json.dumps(record)


def test_the_lobbys_qr_code_leads_a_phone_to_the_real_join_page(ui: Any, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """With the real web display (table99 run's start): the lobby's address is the server's own
    phones_url for this table, and a phone opening it gets the join form."""
    import urllib.request

    pytest.importorskip("aiohttp")
    from app.config import Config
    from app.web.launch import start_web

    monkeypatch.setenv("TABLE99_DATA_DIR", str(tmp_path / "data"))
    ctx, game_ui, live, _clock = build(ui, tmp_path)
    config = Config(web={**Config().web, "bind": "127.0.0.1"})
    server, problem = start_web(config, live, port=0)
    assert problem is None and live.web is server
    try:
        table = open_table(ctx, game_ui)
        lobby = ctx.manager.current_screen
        assert lobby.shown_url == server.phones_url(table.table_id)
        local = lobby.shown_url.replace(server.base_url(), f"http://127.0.0.1:{server.port}")
        with urllib.request.urlopen(local, timeout=20) as answer:
            page = answer.read().decode()
        assert answer.status == 200 and 'id="join-form"' in page
    finally:
        server.stop()


def test_the_lobby_says_when_wrong_codes_stopped_joins(ui: Any, tmp_path: Path) -> None:
    from app.games.count99.phones import CODE_TRIES, TABLE_CODE_TRIES, JoinRefused, PhoneOptions

    ctx, game_ui, live, _clock = build(ui, tmp_path)
    table = live.phones.create(PhoneOptions(seats=(PERSON,) * 8))  # enough seats to reach the cap
    ctx.go("count99-phones-lobby")
    lobby = ctx.manager.current_screen
    lobby.open(table)

    def guess() -> None:
        for n in range(TABLE_CODE_TRIES):
            seat = n // CODE_TRIES
            right = table.seats[seat].code
            with pytest.raises(JoinRefused):
                table.join(seat, "0000" if right != "0000" else "1111", "Guess")

    in_web_thread(guess)
    frames_until(lambda: lobby.reason.text.startswith("Too many wrong codes"))
    tap(find_seat_button(lobby, 0, "New code"))
    wait_actions(game_ui)
    frames_until(lambda: lobby.reason.text.startswith("Start when everyone has joined"))


def test_each_host_screen_polls_only_while_on_show(ui: Any, tmp_path: Path) -> None:
    """The lobby and the game screen share one poll lifecycle (phones_link.FollowsTable): entering
    starts a Clock poll, leaving stops it, a refusal's note lasts until the table moves on, and the
    lobby hands a game started elsewhere to the game screen."""
    ctx, game_ui, _live, _clock = build(ui, tmp_path)
    table = open_table(ctx, game_ui)
    lobby = ctx.manager.current_screen
    assert lobby._poll is not None
    lobby.set_kind(3, "person")
    lobby.set_kind(3, "easy")
    wait_actions(game_ui)
    lobby.new_code(2)  # a computer's seat: refused, said until the next change
    wait_actions(game_ui)
    assert lobby.note == "only a person's seat has a code" and lobby.reason.text == lobby.note
    in_web_thread(lambda: table.join(0, table.seats[0].code, "Ann"))
    frames_until(lambda: lobby.note == "")
    ctx.go("home")
    frames(2)
    assert lobby._poll is None
    ctx.go("count99-phones-lobby")
    frames(2)
    assert lobby._poll is not None
    in_web_thread(lambda: table.join(1, table.seats[1].code, "Ben"))
    in_web_thread(table.start)  # from the host's phone: the lobby's poll hands the table on
    frames_until(lambda: ctx.manager.current == "count99-phones-game")
    frames(2)
    game = ctx.manager.current_screen
    assert lobby._poll is None and game._poll is not None and game.session is table
    ctx.go("home")
    frames(2)
    assert game._poll is None


def test_a_phones_game_that_cannot_be_resumed_says_why_in_german(ui: Any, tmp_path: Path,
                                                                 german: None) -> None:
    """The games layer's refusal of a stored phones game (its seats damaged) reached home in English
    in a German app ("Spiel 1 kann nicht fortgesetzt werden: phones game 1 cannot be resumed: game 1:
    its seats are not readable"); now in German, about this game, at every tap (not only the first)."""
    from app.games.count99.phones import PhoneTables
    from app.ui.home import HomeScreen

    ctx, game_ui, _live, clock = build(ui, tmp_path)
    table = PhoneTables(ctx.store, clock=clock).create(PhoneOptions(seats=(PERSON, "hard"), tokens=2))
    table.join(0, table.seats[0].code, "Ann")
    table.start(seed=9)
    setup = dict(ctx.store.load(table.game_id).setup)
    setup["seats"] = "damaged"
    ctx.store.update_setup(table.game_id, setup)
    home = HomeScreen(ctx, {"count99": game_ui})
    for _ in range(2):
        ctx.config_problem = ""
        home.resume("count99", table.game_id)
        assert ctx.config_problem == (f"Spiel {table.game_id} kann nicht fortgesetzt werden: "
                                      f"Spiel {table.game_id}: seine Plätze sind nicht lesbar")


def test_a_host_action_the_store_cannot_save_is_said_in_german(ui: Any, tmp_path: Path, german: None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a refusal but a failure (the disk full, the database locked): the lobby showed the bare
    English exception; now a German sentence says the table could not do it, and why."""
    import sqlite3

    ctx, game_ui, _live, _clock = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-phones-setup")
    tap(find(setup, text="Tisch eröffnen"))
    lobby = ctx.manager.current_screen
    table = lobby.session

    def disk_full(index: object) -> str:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(table, "new_code", disk_full)
    lobby.new_code(0)
    wait_actions(game_ui)
    assert lobby.reason.text == "Der Tisch konnte das nicht tun: database or disk is full"
