"""The Ninety Nine screens, headless: setup, the count keeper at the table, the game against the computer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.games.count99.texts import card_name
from app.speech import Announcer
from app.store import GameStore
from app.ui.context import AppContext
from tests.ui_support import find, find_all, frames, frames_until, tap

pytestmark = pytest.mark.ui


def make_ctx(tmp_path: Path) -> AppContext:
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    announcer = Announcer(enabled=True, runner=lambda argv: None)  # type: ignore[arg-type,return-value]
    announcer._binary = None  # record what would be said, run nothing
    return AppContext(store=GameStore(tmp_path / "games.sqlite"), config=Config(), announcer=announcer,
                      manager=ScreenManager(transition=NoTransition()))


def build(ui: Any, tmp_path: Path) -> tuple[AppContext, Any]:
    from kivy.uix.screenmanager import Screen

    from app.ui.count99 import make_ui

    ctx = make_ctx(tmp_path)
    ctx.manager.add_widget(Screen(name="home"))
    game_ui = make_ui()
    game_ui.build(ctx)
    ctx.go(game_ui.new_game_screen())
    ui.show(ctx.manager)
    return ctx, game_ui


def button(root: Any, text: str) -> Any:
    """A card button by the card (the keeper names face cards as the log does: "King", "Bube")."""
    from app.games.count99.texts import card_label

    return find(root, text=card_label(text) if text in ("A", "J", "Q", "K") else text)


def test_count_keeper_at_the_table(ui: Any, tmp_path: Path) -> None:
    ctx, game_ui = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    ui.screenshot("count99-setup")
    tap(button(setup, "Start"))
    assert ctx.manager.current == "count99-table"
    screen = ctx.manager.current_screen
    status = screen.status
    assert status.count_label.text == "0" and "Ann's turn" in status.turn_label.text
    tap(button(screen, "K"))
    tap(button(screen, "Q"))
    assert status.count_label.text == "20" and "Cat's turn" in status.turn_label.text
    # The Ace asks for its value because it is the player's choice here.
    tap(button(screen, "A"))
    assert screen.choice_bar.children, "the Ace's choice is offered"
    ui.screenshot("count99-table-ace-choice")
    tap(button(screen, "+11"))
    assert status.count_label.text == "31"
    tap(button(screen, "2"))  # Ann: 31 doubled to 62, through 33
    assert status.count_label.text == "62"
    assert "Ann passes through 33." in ctx.announcer.spoken[-1]
    assert "Ann: 8" in status.tokens_label.text
    tap(button(screen, "4"))  # Ben: 66, everyone else loses one; direction reverses
    assert "Ben lands on 66!" in ctx.announcer.spoken[-1]
    assert "counterclockwise" in status.turn_label.text and "Ann's turn" in status.turn_label.text
    ui.screenshot("count99-table-66")
    tap(button(screen, "Undo"))
    assert status.count_label.text == "62" and "Ben's turn" in status.turn_label.text
    assert "Ann: 8" in status.tokens_label.text and "Cat: 9" in status.tokens_label.text
    # Physical busting: K K K K from 62 -> 72 (Ben, passes 66), 82, 92, 102 (Cat busts).
    for _ in range(4):
        tap(button(screen, "K"))
    assert status.round_label.text == "Round 2" and status.count_label.text == "0"
    assert any("Round 1 over" in said for said in ctx.announcer.spoken)
    stored = ctx.store.load(screen.game.game_id)
    assert stored.actions[-1] == {"start": "Ben"}
    # Resume from the store (as after a crash) shows the same table.
    name = game_ui.resume(stored.id)
    assert name == "count99-table" and ctx.manager.get_screen(name).game.table == screen.game.table


def test_rs_games_keeper_has_no_safe_card_and_a_winner(ui: Any, tmp_path: Path) -> None:
    ctx, _ = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    tap(button(setup, "RS Games"))
    setup.names.text = "Ann, Ben"
    for _ in range(8):
        tap(setup.tokens.minus)
    assert setup.tokens.value == 1
    tap(button(setup, "Start"))
    screen = ctx.manager.current_screen
    tap(button(screen, "99"))
    tap(button(screen, "No safe card"))
    assert screen.status.turn_label.text == "Ann wins!"
    assert ctx.announcer.spoken[-1].endswith("Ann wins the game!")
    assert all(child.disabled for child in screen.cards.children)
    ui.screenshot("count99-table-rs-winner")
    tap(button(screen, "Export"))
    # the message names the file and, on its own line, the folder (issue 16, point 10)
    file_line, folder_line = screen.message.text.split("\n")
    exported = Path(folder_line.split(": ", 1)[1]) / file_line.rsplit(" as ", 1)[1]
    assert exported.is_file() and '"no-safe-card": true' in exported.read_text()


def test_setup_refuses_a_single_player(ui: Any, tmp_path: Path) -> None:
    ctx, _ = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    setup.names.text = "Ann"
    tap(button(setup, "Start"))
    assert ctx.manager.current == "count99-setup" and "players" in setup.problem.text


def test_game_against_the_computer_with_keys(ui: Any, tmp_path: Path, monkeypatch: Any) -> None:
    from kivy.core.window import Window

    from app.ui.count99.computer_screen import ComputerScreen

    monkeypatch.setattr(ComputerScreen, "delay", 0)
    monkeypatch.setattr("app.games.count99.game.new_seed", lambda: 7)  # a fixed shuffle
    ctx, game_ui = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    tap(button(setup, "Against the computer"))
    tap(button(setup, "Manual draw"))
    ui.screenshot("count99-setup-computer")
    tap(button(setup, "Start"))
    screen = ctx.manager.current_screen
    assert screen.name == "count99-computer"
    session = screen.session
    assert session.game.manual_draw and session.humans_turn()  # round 1: seat 0 (you) starts
    assert len(screen.hand_row.children) == 3
    ui.screenshot("count99-computer-start")
    Window.dispatch("on_key_down", 99, 0, "c", [])
    assert ctx.announcer.spoken[-1] == "Count 0, clockwise."
    Window.dispatch("on_key_down", 104, 0, "h", [])
    assert ctx.announcer.spoken[-1].startswith("Your hand: 1: ")
    card = session.game.hands[0][0]
    Window.dispatch("on_key_down", 49, 0, "1", [])
    if screen.pending is not None:  # an Ace or a 10: pick the first offered value
        tap(find_all(screen.choice_bar, lambda w: getattr(w, "text", "").startswith(("+", "-")))[0])
    assert len(session.game.hands[0]) == 2 and any(line.startswith("You play ") for line in screen.log)
    Window.dispatch("on_key_down", 32, 0, " ", [])  # Space draws
    assert len(session.game.hands[0]) == 3
    frames_until(lambda: session.humans_turn() or session.table.over)
    assert any(line.startswith(("Computer 1 plays", "Computer 2 plays")) for line in screen.log)
    ui.screenshot("count99-computer-after")
    assert card  # the first card was a real card name
    # The game is stored as it goes: resuming rebuilds the same hands.
    name = game_ui.resume(session.game_id)
    assert name == "count99-computer"
    assert ctx.manager.get_screen(name).session.game.hands == session.game.hands
    frames(2)


def test_the_count_keeper_in_german(ui: Any, tmp_path: Path) -> None:
    from app import i18n

    i18n.set_language("de")
    try:
        ctx, _ = build(ui, tmp_path)
        setup = ctx.manager.get_screen("count99-setup")
        assert setup.names.text == "Anna, Ben, Clara"
        tap(button(setup, i18n.tr("Start")))
        screen = ctx.manager.current_screen
        tap(button(screen, "10"))
        assert screen.message.text == "Wie zählt 10?"
        tap(button(screen, "+10"))
        tap(button(screen, "K"))
        tap(button(screen, "Q"))
        tap(button(screen, "3"))  # Anna: 30 -> 33
        assert "Anna trifft 33!" in ctx.announcer.spoken[-1]
        assert "Ben ist dran" in screen.status.turn_label.text
        ui.screenshot("count99-table-german")
    finally:
        i18n.set_language("en")


def test_a_hand_of_thirteen_keeps_finger_sized_buttons(ui: Any, tmp_path: Path, monkeypatch: Any) -> None:
    from app.ui.count99.computer_screen import ComputerScreen

    monkeypatch.setattr(ComputerScreen, "delay", 0)
    ctx, _ = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    tap(button(setup, "Against the computer"))
    for _ in range(10):
        tap(setup.hand_size.plus)
    assert setup.hand_size.value == 13
    tap(button(setup, "Start"))
    screen = ctx.manager.current_screen
    frames(3)
    hand = screen.hand_row.children
    assert len(hand) == 13
    assert all(b.width >= 48 and b.height >= 48 for b in hand), [tuple(b.size) for b in hand]
    ui.screenshot("count99-computer-13-cards")


@pytest.mark.parametrize(("language", "label", "easy"), [("en", "Computer level", "Easy"),
                                                          ("de", "Computerstärke", "Leicht")])
def test_setup_labels_the_computer_level(
    ui: Any, tmp_path: Path, language: str, label: str, easy: str
) -> None:
    from app import i18n

    i18n.set_language(language)
    try:
        ctx, _ = build(ui, tmp_path)
        setup = ctx.manager.get_screen("count99-setup")
        tap(button(setup, i18n.tr("Against the computer")))
        text = button(setup, label)
        level = button(setup, easy)
        frames(2)
        x, y = text.to_window(*text.center)
        lx, ly = level.to_window(*level.center)
        assert abs(y - ly) < 5 and x < lx, "the label sits on the level's row, before its buttons"
        assert text.texture_size[0] <= text.width, "the label fits"
        ui.screenshot(f"count99-setup-computer-{language}")
        tap(button(setup, i18n.tr("At the table")))
        assert setup.computer_row.opacity == 0 and setup.level_row.parent is None
    finally:
        i18n.set_language("en")


def test_once_you_are_out_the_computers_play_on_quicker_to_the_winner(
    ui: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from app.games.count99.game import ComputerGame
    from app.ui.count99.computer_screen import ComputerScreen
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    monkeypatch.setattr(ComputerScreen, "delay", 0.01)
    ctx, _ = build(ui, tmp_path)
    players = ("You", "Computer 1", "Computer 2", "Computer 3")
    setup = Setup(Variant.QUENTIN_C, players, tokens=2, hand_size=13)
    session = ComputerGame.create(ctx.store, setup, level="hard", seed=34)  # you go out in round 1
    ctx.go("count99-computer")
    screen = ctx.manager.current_screen
    screen.open(session, session.opening)
    while session.table.is_in(0):
        frames_until(lambda: session.humans_turn() or not session.table.is_in(0))
        if session.humans_turn():
            screen.play_slot(0)
            if screen.pending is not None:
                screen.choose(screen.session.game.view(0).options()[0][1])
    assert "You are out. The computers play on to the end." in screen.log
    assert screen.pace() == pytest.approx(0.0025)
    frames_until(lambda: session.table.over, limit=2000)
    assert screen.status.turn_label.text == "Computer 3 wins!"
    assert ctx.announcer.spoken[-1].endswith("Computer 3 wins the game!")
    ui.screenshot("count99-computer-you-are-out")


def test_arrow_keys_and_enter_reach_every_slot_of_a_thirteen_card_hand(
    ui: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """Digits reach ten slots (0 is the tenth); the arrows and Enter reach slots 11 to 13 too."""
    from kivy.core.window import Window

    from app.ui.count99.computer_screen import ComputerScreen

    monkeypatch.setattr(ComputerScreen, "delay", 0)
    monkeypatch.setattr("app.games.count99.game.new_seed", lambda: 7)
    ctx, _ = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    tap(button(setup, "Against the computer"))
    for _ in range(10):
        tap(setup.hand_size.plus)
    tap(button(setup, "Start"))
    screen = ctx.manager.current_screen
    session = screen.session
    assert session.humans_turn()
    hand = list(session.game.hands[0])
    Window.dispatch("on_key_down", 276, 0, None, [])  # Left from nothing: the last card
    assert ctx.announcer.spoken[-1] == f"13: {card_name(hand[12])}."
    for _ in range(11):
        Window.dispatch("on_key_down", 275, 0, None, [])  # Right wraps round to the first ...
    assert screen.cursor == 10 and ctx.announcer.spoken[-1] == f"11: {card_name(hand[10])}."
    colours = [tuple(b.background_color) for b in reversed(screen.hand_row.children)]
    assert colours[10] != colours[0] and len(set(colours[:10] + colours[11:])) == 1, "slot 11 stands out"
    ui.screenshot("count99-computer-cursor")
    Window.dispatch("on_key_down", 13, 0, None, [])  # Enter plays slot 11
    if screen.pending is not None:  # an Ace or a 10: the choice is made with keys too
        assert "1: +" in ctx.announcer.spoken[-1] and "2: " in ctx.announcer.spoken[-1]
        Window.dispatch("on_key_down", 50, 0, "2", [])
        assert screen.pending is None
    assert any(line.startswith(f"You play {card_name(hand[10])}") for line in screen.log), screen.log


@pytest.mark.parametrize(("key", "value"), [("1", "+1"), ("2", "+11"), ("+", "+11"), ("-", "+1")])
def test_an_ace_is_played_with_keys_only(
    ui: Any, tmp_path: Path, monkeypatch: Any, key: str, value: str
) -> None:
    from kivy.core.window import Window

    from app.games.count99.game import ComputerGame
    from app.ui.count99.computer_screen import ComputerScreen
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    monkeypatch.setattr(ComputerScreen, "delay", 0)
    ctx, _ = build(ui, tmp_path)
    session = ComputerGame.create(ctx.store, Setup(Variant.QUENTIN_C, ("You", "Computer 1")), seed=1)
    session.game.hands[0][0] = "A"  # put an Ace in slot 1 (not stored: this test never reloads)
    ctx.go("count99-computer")
    screen = ctx.manager.current_screen
    screen.open(session, [])
    frames(2)
    assert session.humans_turn()
    Window.dispatch("on_key_down", 49, 0, "1", [])
    assert screen.pending == 0
    assert ctx.announcer.spoken[-1] == "Which way does the Ace count? 1: +1, 2: +11, Escape: cancel."
    Window.dispatch("on_key_down", 27, 0, None, [])  # Escape: the Ace stays in the hand
    assert screen.pending is None and ctx.announcer.spoken[-1] == "Ace stays in your hand."
    Window.dispatch("on_key_down", 49, 0, "1", [])
    Window.dispatch("on_key_down", ord(key), 0, key, [])
    assert screen.pending is None and f"You play Ace as {value}. Count {int(value)}." in screen.log


def eight_at_the_table(ui: Any, tmp_path: Path) -> Any:
    """The count keeper for eight players with long names; returns its screen."""
    ctx, _ = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    setup.names.text = "Annabelle, Benedikt, Catherine, Dan, Eve, Fay, Gus, Hal"
    tap(button(setup, "Start"))
    return ctx.manager.current_screen


def fits(label: Any) -> bool:
    """Whether all of a label's text fits its height (a label clips what does not, so measure it)."""
    from kivy.uix.label import Label

    whole = Label(text=label.text, font_size=label.font_size, text_size=(label.width, None))
    whole.texture_update()
    return bool(whole.texture_size[1] <= label.height)


def test_eight_players_tokens_all_fit_beside_the_count(ui: Any, tmp_path: Path) -> None:
    screen = eight_at_the_table(ui, tmp_path)
    frames(3)
    tokens = screen.status.tokens_label
    from app.ui.widgets import READABLE

    assert fits(tokens) and tokens.font_size == READABLE, "all fit, readable from a metre"
    assert "> Annabelle: 9   Benedikt: 9" in tokens.text.splitlines()
    assert screen.status.count_label.texture_size[1] <= screen.status.count_label.height
    ui.screenshot("count99-table-eight-players")


def test_a_long_announcement_is_shown_whole_and_the_cards_stay_finger_sized(ui: Any, tmp_path: Path) -> None:
    screen = eight_at_the_table(ui, tmp_path)
    for card in ("K", "Q", "K", "3"):  # Dan lands on 33: seven others lose a token
        tap(button(screen, card))
    frames(3)
    assert screen.message.text.count("loses 1 token") == 7 and fits(screen.message)
    assert all(card.height >= 48 for card in screen.cards.children)
    ui.screenshot("count99-table-eight-players-33")


def test_rs_games_card_buttons_fit_their_german_names(ui: Any, tmp_path: Path) -> None:
    from app import i18n

    i18n.set_language("de")
    try:
        ctx, _ = build(ui, tmp_path)
        setup = ctx.manager.get_screen("count99-setup")
        tap(button(setup, "RS Games"))
        tap(button(setup, i18n.tr("Start")))
        screen = ctx.manager.current_screen
        frames(3)
        from app.ui.widgets import text_width

        for card in (*screen.cards.children, *screen.actions.children):
            longest = max(text_width(word, card.font_size) for word in card.text.split())
            assert longest <= card.width - 8, f"{card.text!r} is broken mid-word"
            assert card.texture_size[1] <= card.height, (card.text, card.texture_size, card.size)
        ui.screenshot("count99-table-rs-german")
    finally:
        i18n.set_language("en")


def test_another_digit_while_an_ace_waits_plays_that_card_and_drops_the_question(
    ui: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from kivy.core.window import Window

    from app.games.count99.game import ComputerGame
    from app.ui.count99.computer_screen import ComputerScreen
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    monkeypatch.setattr(ComputerScreen, "delay", 0)
    ctx, _ = build(ui, tmp_path)
    session = ComputerGame.create(ctx.store, Setup(Variant.QUENTIN_C, ("You", "Computer 1")), seed=1)
    session.game.hands[0][0], session.game.hands[0][2] = "A", "5"  # not stored: never reloaded
    ctx.go("count99-computer")
    screen = ctx.manager.current_screen
    screen.open(session, [])
    frames(2)
    Window.dispatch("on_key_down", 49, 0, "1", [])
    assert screen.pending == 0
    Window.dispatch("on_key_down", 51, 0, "3", [])
    assert screen.pending is None and "You play 5. Count 5." in screen.log
    # the question is gone: no value buttons, only the next-step line
    assert not find_all(screen.choice_bar, lambda w: getattr(w, "text", "").startswith(("+", "-", "Cancel")))
    assert [w.text for w in screen.choice_bar.children] == [screen.next_step.text]


def test_keeper_another_card_tapped_while_an_ace_waits_drops_the_question(ui: Any, tmp_path: Path) -> None:
    ctx, _ = build(ui, tmp_path)
    tap(button(ctx.manager.get_screen("count99-setup"), "Start"))
    screen = ctx.manager.current_screen
    tap(button(screen, "A"))
    assert screen.pending == "A" and screen.choice_bar.children
    tap(button(screen, "K"))
    assert screen.pending is None and not screen.choice_bar.children
    assert screen.status.count_label.text == "10"


def test_keeper_no_safe_card_below_90_is_refused_with_a_reason(ui: Any, tmp_path: Path) -> None:
    ctx, _ = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    tap(button(setup, "RS Games"))
    tap(button(setup, "Start"))
    screen = ctx.manager.current_screen
    tap(button(screen, "No safe card"))
    assert screen.message.text == "Not allowed: at 0 every RS Games card is safe (the most a card adds is 10)"
    assert screen.game.table.tokens == (9, 9, 9) and not screen.game.can_undo()
