"""Issue 16, point by point: the screens a first-time family meets, readable and self-explaining.

Each test names the point it checks. Rendered checks use the screen audit (tests/screen_audit.py)
on one widget: the contrast of what is drawn, not of the colours the code meant.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from tests.screen_audit import _cut_text, audit
from tests.screen_catalog import Board, app_root, go
from tests.ui_support import find, find_all, frames, tap, walk

pytestmark = pytest.mark.ui
ROOT = Path(__file__).resolve().parent.parent


def shown_texts(root: Any) -> list[str]:
    return [w.text for w in walk(root) if isinstance(getattr(w, "text", None), str)
            and w.text and getattr(w, "opacity", 1) > 0]


# -- 1. the black player's turn ---------------------------------------------------------------------
def test_1_a_black_players_turn_and_selector_are_readable(ui: Any) -> None:
    b = Board(ui, players=("Fin", "Mia"), colours=("black", "white"))
    screen = b.screen
    assert screen.turn_label.text == "Fin's turn"
    assert audit("en", root=screen.turn_row) == []  # the heading against the panel behind it
    assert audit("en", root=screen.who) == []  # "By: Fin" on Fin's black
    assert screen.turn_peg.colour == "black" and screen.turn_peg.text == "Bk"  # lettered, not "K"


# -- 2. pegs: colour-blind safe colours (tests/test_palette.py) and a second cue on the board -------
def test_2_pegs_on_the_board_carry_their_letter(ui: Any) -> None:
    from app.i18n import tr

    b = Board(ui, players=("Ann", "Ben"), colours=("red", "green"))
    b.press(tr("DRAW"))
    b.press(tr("DRAW"))
    b.play(5, 5)
    b.play(14, 14)
    marks = {mark for mark, _size in b.screen.board.__dict__.get("_marks", {})}
    assert marks == {"R", "G"}, marks


# -- 3. the one next thing to do ----------------------------------------------------------------------
def test_3_the_first_thing_to_do_is_drawing_and_draw_is_the_highlighted_button(ui: Any) -> None:
    from app.i18n import tr
    from app.ui import theme

    b = Board(ui)
    screen = b.screen
    assert screen.prompt_label.text == "Everyone draws a card first: Mia, tap DRAW."
    assert tuple(screen.draw_button.background_color) == theme.ACCENT
    assert tuple(screen.play_button.background_color) != theme.ACCENT
    b.press(tr("DRAW"))
    assert screen.prompt_label.text == "Everyone draws a card first: Fin, tap DRAW."
    b.press(tr("DRAW"))
    assert screen.prompt_label.text == "Mia: tap PLAY and say your card, then put your peg in."
    assert tuple(screen.play_button.background_color) == theme.ACCENT
    assert screen.who.text == "By: Mia (tap to change)"  # it says it is a selector


def test_3_a_shown_hand_is_cards_not_buttons_unless_tapping_plays_them(ui: Any) -> None:
    from kivy.uix.behaviors import ButtonBehavior

    from app.i18n import tr
    from app.ui import preferences
    from app.ui.widgets import CardFace

    b = Board(ui, computer=True)
    b.press(tr("DRAW"))
    b.settle()
    b.press(tr("My cards"))
    cards = list(b.screen.hand_row.children)
    assert cards and all(isinstance(c, CardFace) and not isinstance(c, ButtonBehavior) for c in cards)
    preferences.put("play_at_once", True)  # 5of99's "play a card at once"
    b.screen.refresh()
    card = b.screen.game.state.known_hand("Mia")[0]
    tap(find(b.screen.hand_row, text=str(card)))
    assert b.screen.referee.pending_card == card  # announced: now the peg goes in


# -- 4. penalties and wins: a banner, what comes next, a distinct sound --------------------------------
def test_4_a_penalty_is_a_banner_with_what_comes_next_and_its_own_sound(ui: Any) -> None:
    from kivy.metrics import sp

    from app.i18n import tr
    from app.ui import theme

    b = Board(ui)
    b.screen.ctx.announcer.enabled = True
    b.press(tr("DRAW"))
    b.press(tr("DRAW"))
    b.play(60, 57)
    b.hole(57)
    banner = b.screen.banner
    assert banner.kind == "penalty" and banner.opacity == 1 and banner.height > 40
    assert banner.label.text.startswith("Penalty for Mia: Illegal play.")
    assert banner.label.text.endswith("Next: Fin's turn.")
    assert b.screen.chimes.played == ["penalty"]
    assert audit("en", root=banner) == []
    assert banner.label.bold and banner.label.font_size >= sp(theme.BANNER) > b.screen.log_label.font_size
    b.press(tr("DRAW"))  # Fin moves on: the banner has been seen
    assert b.screen.banner.kind is None and b.screen.banner.height == 0


def test_4_a_win_is_a_banner_that_says_what_to_do_next_in_german(ui: Any) -> None:
    from app import i18n
    from tests.screen_catalog import board_win

    i18n.set_language("de")
    try:
        root = board_win(ui)
        screen = root.get_screen("board99-game")
        screen.ctx.announcer.enabled = True
        assert screen.banner.kind == "win"
        assert "NEUES SPIEL" in screen.banner.label.text and "Menü" in screen.banner.label.text
        assert audit("de", root=screen.banner, names=("Mia", "Fin")) == []
    finally:
        i18n.set_language("en")


def test_4_the_sounds_are_two_different_tunes_and_silent_when_sound_is_off(tmp_path: Path) -> None:
    from app.ui.sounds import TUNES, Chimes, write_tune

    assert TUNES["penalty"] != TUNES["win"]
    write_tune(tmp_path / "p.wav", TUNES["penalty"])
    assert (tmp_path / "p.wav").stat().st_size > 10_000
    on = {"value": False}
    chimes = Chimes(tmp_path, lambda: on["value"])
    chimes.play("win")
    assert chimes.played == []
    on["value"] = True
    chimes.play("win")
    assert chimes.played == ["win"]
    with pytest.raises(ValueError, match="unknown sound 'boo'"):
        chimes.play("boo")


# -- 7. Ninety Nine against the computer -------------------------------------------------------------
def test_7_slot_small_card_big_no_key_hints_and_a_readable_log(ui: Any) -> None:
    import re

    from app.ui import theme
    from tests.screen_catalog import count_computer

    root = count_computer(ui)
    screen = root.get_screen("count99-computer")
    texts = shown_texts(screen)
    assert not [t for t in texts if re.search(r"\((D|C|H)\)|Escape", t)], texts
    for button in screen.hand_row.children:
        small = int(re.search(r"\[size=(\d+)\]", button.text).group(1))
        assert small < button.font_size * 0.75, button.text  # the slot number reads as a label
    assert screen.log_label.font_size >= theme.READABLE


# -- 8. German words ----------------------------------------------------------------------------------
def test_8_german_leaves_the_game_with_menu_and_names_things_once(ui: Any) -> None:
    from app import i18n
    from app.games.count99.texts import card_label

    i18n.set_language("de")
    try:
        b = Board(ui)
        assert b.screen.menu_button.text == "Menü"
        assert i18n.tr("Menu") != i18n.tr("Start")
        assert i18n.tr("History") != i18n.tr("Chart")  # the past games are not Parlett's chart
        assert [card_label(c) for c in ("J", "Q", "K", "A")] == ["Bube", "Dame", "König", "Ass"]
        settings = go(app_root(ui), "settings")
        assert not [t for t in shown_texts(settings) if "simulated" in t]
    finally:
        i18n.set_language("en")


# -- 9. hardware screens only where configured -------------------------------------------------------
def test_9_hardware_links_only_where_that_hardware_is_configured(ui: Any) -> None:
    from app.i18n import tr

    plain = app_root(ui)
    assert tr("Teach the sensor board") not in shown_texts(plain.get_screen("home"))
    assert tr("Camera calibration") not in shown_texts(plain.get_screen("home"))
    ui.clear()
    gpio = app_root(ui, Config(board_source="gpio"))
    assert tr("Teach the sensor board") in shown_texts(gpio.get_screen("home"))


def test_9_teaching_on_a_desktop_is_friendly_and_the_cells_are_finger_sized(ui: Any) -> None:
    from app.ui.teach_board import not_answering

    root = go(app_root(ui, Config(board_source="gpio")), "teach_board")
    screen = root.get_screen("teach_board")
    assert all(cell.disabled for cell in screen.cells)  # nothing to tap until check mode
    assert all(cell.width >= 48 and cell.height >= 48 for cell in screen.cells)
    text = not_answering("the GPIO sensors cannot be opened: Unable to load any default pin factory!")
    assert "pin factory" not in text and "Raspberry Pi" in text
    assert "pin factory" not in screen.message.text


# -- 10. history -------------------------------------------------------------------------------------
def test_10_history_tells_games_apart_in_unwrapped_rows_and_drops_empty_games(ui: Any) -> None:
    from kivy.uix.label import Label

    from tests.screen_catalog import history

    root = history(ui)
    screen = root.get_screen("history")
    firsts = [t for t in shown_texts(screen) if t.startswith("The Game of 99 #")]
    assert len(firsts) == len(set(firsts)) == 2
    shortened = find_all(screen, lambda w: isinstance(w, Label) and getattr(w, "shorten", False))
    assert shortened
    for label in shortened:  # one line each, never wrapped, and not cut short with "..."
        assert len(label._label._cached_lines) == 1, label.text
        assert not _cut_text(label), (label.text, _cut_text(label))
    assert any(t.startswith("Exported The Game of 99 as board99-") and "Folder:" in t
               for t in shown_texts(screen))
    # a game left without a move is not kept
    ui.clear()
    b = Board(ui)
    game_id = b.screen.game.id
    tap(b.screen.menu_button)
    assert all(g.id != game_id for g in b.screen.ctx.store.games())
    assert not [t for t in shown_texts(b.root.get_screen("home")) if f"#{game_id}:" in t]


# -- Also: the keyboard, the startup log, "computer" --------------------------------------------------
KEYBOARD = """I: Bus=0003 Vendor=046d Product=c31c Version=0110
N: Name="Logitech USB Keyboard"
H: Handlers=sysrq kbd leds event0
B: EV=120013
B: KEY=1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe
"""
TOUCH_AND_BUTTON = """I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="10-0038 generic ft5x06 (79)"
H: Handlers=mouse0 event0
B: EV=b

I: Bus=0019 Vendor=0001 Product=0001 Version=0100
N: Name="pwr_button"
H: Handlers=kbd event1
B: EV=3
B: KEY=10000000000000 0
"""


def test_also_keyboard_mode_is_on_screen_without_a_physical_keyboard(tmp_path: Path) -> None:
    from app.ui.kivy_setup import has_keyboard, keyboard_mode

    assert has_keyboard(KEYBOARD) and not has_keyboard(TOUCH_AND_BUTTON)
    devices = tmp_path / "devices"
    devices.write_text(TOUCH_AND_BUTTON)
    assert keyboard_mode(devices) == "dock"
    devices.write_text(TOUCH_AND_BUTTON + "\n" + KEYBOARD)
    assert keyboard_mode(devices) == "system"
    assert keyboard_mode(tmp_path / "absent") == "system"


def test_also_the_on_screen_keyboard_opens_for_a_name_in_dock_mode(ui: Any) -> None:
    from kivy.config import Config as KivyConfig
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    before = KivyConfig.get("kivy", "keyboard_mode")
    try:
        from app.ui.kivy_setup import prepare

        prepare("dock")
        Window.configure_keyboards()
        assert Window.allow_vkeyboard and Window.docked_vkeyboard
        root = go(app_root(ui), "board99-setup")
        name = root.get_screen("board99-setup").player_rows[0].name_input
        name.focus = True
        frames(3)
        keyboards = [w for w in Window.children if isinstance(w, VKeyboard)]
        assert keyboards and keyboards[0].docked
        name.focus = False
        frames(2)
    finally:
        KivyConfig.set("kivy", "keyboard_mode", before)
        Window.configure_keyboards()


def test_also_the_cutbuffer_critical_becomes_one_info_line() -> None:
    import logging

    from app.ui.kivy_setup import CalmCutbuffer

    record = logging.LogRecord("kivy", logging.CRITICAL, __file__, 1,
                               "Cutbuffer: Unable to find any valuable Cutbuffer provider. ...\nxclip - "
                               "FileNotFoundError: ...\n  File ...", None, None)
    assert CalmCutbuffer().filter(record)
    assert record.levelno == logging.INFO and "\n" not in record.getMessage()
    other = logging.LogRecord("kivy", logging.CRITICAL, __file__, 1, "Window: no window", None, None)
    CalmCutbuffer().filter(other)
    assert other.levelno == logging.CRITICAL


def read_until(process: subprocess.Popen[str], marker: str, seconds: float) -> list[str]:
    """The process's output lines until one holds ``marker`` or ``seconds`` pass (a reader thread,
    so a process that never prints the marker, or hangs silent, cannot hang the test); then the
    process is stopped and the rest of its output collected."""
    import queue
    import threading

    got: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            got.put(line)
        got.put(None)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = got.get(timeout=left)
        except queue.Empty:
            break
        if line is None:
            break
        lines.append(line)
        if marker in line:
            time.sleep(2)
            break
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)
    reader.join(timeout=10)
    while not got.empty():
        line = got.get_nowait()
        if line is not None:
            lines.append(line)
    return lines


def test_read_until_gives_up_on_a_silent_process() -> None:
    """The startup-log reader has a deadline: a process that prints nothing does not hang it."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    start = time.monotonic()
    assert read_until(process, "never", seconds=1) == []
    assert time.monotonic() - start < 20 and process.poll() is not None


def test_also_table99_run_starts_without_tracebacks_or_critical_lines(tmp_path: Path) -> None:
    """``table99 run`` (what scripts/run starts) on the offscreen display, stopped after it is up."""
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_LOG_MODE": "PYTHON",
           "TABLE99_DATA_DIR": str(tmp_path / "data"), "KCFG_GRAPHICS_WIDTH": "800",
           "KCFG_GRAPHICS_HEIGHT": "480", "DISPLAY": os.environ.get("DISPLAY", ":99")}
    env.pop("KIVY_NO_CONSOLELOG", None)
    process = subprocess.Popen([sys.executable, "-m", "app", "run"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = read_until(process, "Cutbuffer", seconds=60)  # the last provider Kivy loads
    log = "".join(lines)
    assert "starting Table99" in log, log
    assert "Traceback" not in log and "CRITICAL" not in log, log


def test_also_the_difficulty_choice_says_computer(ui: Any) -> None:
    from app.ui.board99.setup_screen import level_label

    assert all(level_label(k).startswith("Computer") for k in ("basic", "intermediate", "advanced"))
    root = go(app_root(ui), "board99-setup")
    row = root.get_screen("board99-setup").player_rows[1]
    row.next_kind()
    frames(2)
    assert row.kind_button.text == "Computer: basic"
    assert audit("en", root=row) == []


# -- 5of99's interface options -------------------------------------------------------------------------
def test_5of99_options_background_card_backs_and_computer_speed(ui: Any) -> None:
    from app.i18n import tr
    from app.ui import preferences, theme
    from app.ui.widgets import CardBack
    from tests.screen_audit import Frame

    preferences.put("background", "green")
    preferences.put("animation", "fast")
    b = Board(ui, computer=True)
    b.press(tr("DRAW"))
    b.settle()
    x, y = b.screen.panel.to_window(b.screen.panel.right - 4, b.screen.panel.center_y)
    frame = Frame()
    ground = frame.ground((x - 2, y - 2, 4, 4))
    assert all(abs(a - e) < 0.02 for a, e in zip(ground, theme.BACKGROUNDS["green"], strict=False)), ground
    backs = [w for w in b.screen.hand_row.children if isinstance(w, CardBack)]
    assert len(backs) == 1  # Mia's one card, face down until My cards
    assert audit("en") == []  # the green ground keeps every text readable
    ui.clear()
    from tests.screen_catalog import count_computer

    root = count_computer(ui)
    screen = root.get_screen("count99-computer")
    screen.delay = None  # the settings decide
    assert screen.pace() == theme.ANIMATION_SECONDS["fast"]


# -- review: Ninety Nine against the computer says the next step; the direction reads as its own line --
def test_count99_against_the_computer_says_what_to_do_next_in_both_languages(ui: Any) -> None:
    from app import i18n
    from tests.screen_catalog import count_computer

    for language, step, direction in (("en", "Tap a card to play it.", "Direction: "),
                                      ("de", "Tippe eine Karte an, um sie zu spielen.", "Richtung:")):
        i18n.set_language(language)
        try:
            screen = count_computer(ui).get_screen("count99-computer")
            screen.refresh()
            frames(2)
            texts = shown_texts(screen)
            assert step in texts, texts
            turn = screen.status.turn_label.text.split("\n")
            assert turn[1].startswith(direction), turn
            assert audit(language, root=screen.choice_bar) == []
        finally:
            i18n.set_language("en")


def test_the_chosen_option_is_outlined_not_only_green(ui: Any) -> None:
    """Settings and setup choices: the chosen button has a white outline (read from the frame) that
    the others have not, so green against grey is not the only cue."""
    from app.ui import theme
    from app.ui.theme import contrast
    from app.ui.widgets import Choice
    from tests.screen_audit import Frame

    choice = Choice([("a", "One"), ("b", "Two"), ("c", "Three")], "b", size_hint_y=None, height=64)
    ui.show(choice)
    frame = Frame()

    def edge_is_light(button: Any) -> bool:
        wx, wy = button.to_window(button.x, button.y)
        row = int(wy + button.height / 2)
        pixels = [tuple(frame.data[row * frame.stride + col * 3 + k] / 255 for k in range(3))
                  for col in range(int(wx), int(wx + 8))]
        return any(contrast(p, theme.TEXT) < 1.2 for p in pixels)

    assert edge_is_light(choice.buttons["b"])
    assert not edge_is_light(choice.buttons["a"]) and not edge_is_light(choice.buttons["c"])
    choice.select("c")
    frame = Frame()
    assert edge_is_light(choice.buttons["c"]) and not edge_is_light(choice.buttons["b"])
