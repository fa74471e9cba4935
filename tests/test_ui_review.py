"""A user's-eye review of the screens in German (the longer language) on the 800x480 touchscreen:
no word broken in the middle of a button, nothing spilling out of its box, touch targets >= 48 px."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.store import GameStore
from tests.ui_support import frames, walk

pytestmark = pytest.mark.ui


@pytest.fixture
def german() -> Iterator[None]:
    from app import i18n
    from app.paths import data_dir

    data_dir().mkdir(parents=True, exist_ok=True)
    (data_dir() / "settings.json").write_text(json.dumps({"language": "de"}), encoding="utf-8")
    try:
        yield
    finally:
        i18n.set_language("en")


def build_app(store: GameStore | None = None) -> tuple[Any, Any]:
    from app.config import Config
    from app.paths import default_database
    from app.ui.shell import Table99App

    app = Table99App(config=Config(), store=store or GameStore(default_database()))
    return app, app.build()


def words_fit(button: Any) -> bool:
    """Every word of the label fits on one line of the button at the font it is drawn with."""
    from app.ui.widgets import text_width

    room = button.width - 8
    return all(text_width(w, button.font_size, button.font_name, button.bold) <= room + 0.5
               for w in button.text.split())


def test_board_game_buttons_never_break_a_german_word(ui: Any, german: None) -> None:
    from app.games.board99.game import Board99Game, TableSetup
    from app.paths import default_database
    from app.ui.widgets import MIN_FONT, BigButton
    from rules import board99 as rules

    store = GameStore(default_database())
    game = Board99Game.create(store, rules.make_setup(["Annegret", "Bernhard"]),
                              TableSetup({"Annegret": "red", "Bernhard": "blue"}))
    app, root = build_app(store)
    ui.show(root)
    root.current = app.uis["board99"].resume(game.id)
    frames(4)
    screen = root.get_screen("board99-game")
    assert screen.discard_button.text == "ABWERFEN"
    ui.screenshot("review-board99-game-de")
    buttons = [w for w in walk(screen) if isinstance(w, BigButton) and w.text]
    assert len(buttons) >= 6
    for button in buttons:
        assert words_fit(button), (button.text, button.font_size, button.width)
        assert button.font_size >= MIN_FONT and button.height >= 48 and button.width >= 48
    screen.draw()  # Annegret draws: Undo now names it, in the same words as the buttons
    frames(2)
    assert screen.undo_button.text == "Rückgängig: Annegret ZIEHEN" and not screen.undo_button.disabled
    assert words_fit(screen.undo_button) and screen.undo_button.font_size >= MIN_FONT
    ui.screenshot("review-board99-undo-de")


def parlett_in_german(ui: Any, width: int, height: int) -> tuple[Any, Any]:
    from app import i18n
    from tests.test_ui_parlett import build, start_three

    i18n.set_language("de")
    game_ui, _ctx, manager = build()
    ui.resize(width, height)
    return game_ui, start_three(ui, manager, game_ui)


def inside(widget: Any, width: int) -> bool:
    left = widget.to_window(widget.x, widget.y)[0]
    return left >= -0.5 and left + widget.width <= width + 0.5


def test_parlett_setup_variant_names_stay_inside_their_buttons(ui: Any, german: None) -> None:
    _game_ui, setup = parlett_in_german(ui, 800, 480)
    toggles = list(setup.variant_row.children)
    assert any(t.text == "2 Spieler + Strohmann" for t in toggles)
    for toggle in toggles:
        assert toggle.texture_size[0] <= toggle.width and toggle.texture_size[1] <= toggle.height, toggle.text
    ui.screenshot("review-parlett-setup-de")


def test_parlett_deal_in_portrait_keeps_targets_and_text_on_screen(ui: Any, german: None) -> None:
    from tests.test_ui_parlett import role
    from tests.ui_support import tap

    game_ui, setup = parlett_in_german(ui, 480, 600)  # the Pi screen upright is 480 wide
    tap(setup.start_button)
    frames(3)
    deal = game_ui.screens["parlett-deal"]
    assert deal.height > deal.width
    for hand in ("Ann", "Ben", "Cat"):
        for name in ("minus", "plus"):
            key = role(deal, name, hand)
            assert key.width >= 48 and key.height >= 48
    formal = role(deal, "formal")  # its own row in portrait, and its label visible on it
    assert inside(formal, 480) and formal.texture_size[0] <= formal.width
    status = deal.status
    assert "Es fehlen Tipps" in status.text
    assert status.texture_size[0] <= 480 and status.texture_size[1] <= status.height
    ui.screenshot("review-parlett-deal-portrait-de")


def test_camera_calibration_without_a_camera_shows_no_white_box(ui: Any, german: None, tmp_path: Any) -> None:
    from types import SimpleNamespace

    from PIL import Image

    from app import i18n
    from app.config import Config
    from app.ui.camera_calibration import CameraCalibrationScreen
    from vision.capture import CaptureError

    def broken() -> Any:
        raise CaptureError("camera 0: cannot be opened")

    i18n.set_language("de")
    screen = CameraCalibrationScreen(SimpleNamespace(config=Config(), manager=None), open_capture=broken,
                                     save_to=tmp_path / "camera.json")
    ui.show(screen)
    screen.on_enter()
    frames(2)
    assert "Kein Kamerabild" in screen.status.text
    shot = Image.open(ui.screenshot("review-camera-calibration-no-camera-de")).convert("RGB")
    x, y = screen.picture.to_window(*screen.picture.center)
    assert max(shot.getpixel((int(x), shot.height - int(y)))) < 100  # the dark background, not white


def test_history_abandon_is_not_the_word_for_cancel_and_counts_agree(ui: Any, german: None) -> None:
    """German "Abbrechen" is Cancel everywhere else: abandoning a game must read differently, so
    nobody gives up a game believing they cancel something. One action is "1 Aktion"."""
    from app.games.board99.game import Board99Game, TableSetup
    from app.i18n import tr
    from app.paths import default_database
    from app.ui.widgets import ConfirmBox
    from rules import board99 as rules
    from tests.ui_support import find, tap

    store = GameStore(default_database())
    game = Board99Game.create(store, rules.make_setup(["Ann", "Ben"]), TableSetup({"Ann": "red"}))
    game.commit(rules.Draw("Ann"), rules.apply(game.state, rules.Draw("Ann"))[0])
    _app, root = build_app(store)
    ui.show(root)
    tap(find(root, text="Frühere Spiele"))
    frames(2)
    shown = [w.text for w in walk(root.get_screen("history")) if isinstance(getattr(w, "text", None), str)]
    assert tr("Cancel") == "Abbrechen" and "Abbrechen" not in shown
    assert any(re.search(r"\b1 Aktion\b(?!en)", t) for t in shown), shown
    tap(find(root, text="Aufgeben"))
    from kivy.core.window import Window

    box = next(w for w in Window.children if isinstance(w, ConfirmBox))
    assert box.yes_button.text == "Aufgeben" and "aufgeben" in box.children[0].children[-1].text
    tap(box.no_button)
    assert store.games()[0].status == "playing"


def test_six_players_in_german_keep_targets_and_text_inside_the_panel(ui: Any, german: None) -> None:
    """Six players with long names: "Von:" (who announces) shows each name whole on one big button,
    and the status lines and the log stay between the heading and the buttons."""
    from app.games.board99.game import Board99Game, TableSetup
    from app.paths import default_database
    from rules import board99 as rules
    from tests.ui_support import tap

    names = ["Annegret", "Bernhard", "Cordula", "Dietrich", "Elisabeth", "Friedrich"]
    store = GameStore(default_database())
    colours = {"Annegret": "red", "Bernhard": "blue", "Cordula": "green"}
    game = Board99Game.create(store, rules.make_setup(names), TableSetup(colours))
    state = game.state
    for name in names:
        state, _ = rules.apply(state, rules.Draw(name))
        game.commit(rules.Draw(name), state)
    app, root = build_app(store)
    ui.show(root)
    root.current = app.uis["board99"].resume(game.id)
    frames(4)
    screen = root.get_screen("board99-game")
    for event in rules.apply(state, rules.Play("Annegret", 70, 12))[1]:  # the longest log line there is
        screen._on_referee_event(event)
    frames(3)
    ui.screenshot("review-board99-six-de")
    for name in [*names[1:], names[0]]:  # each tap steps to the next player, round to the first
        tap(screen.who)
        frames(1)
        assert screen.who.text == f"Am Zug: {name} (zum Ändern tippen)" and screen.who.value == name
        assert screen.who.height >= 48 and words_fit(screen.who) and screen.who.font_size >= 15, name
    for label in (screen.turn_label, screen.prompt_label, screen.info_label, screen.log_label):
        assert screen.who.top <= label.y and label.top <= screen.panel.top, label.text
        assert label.texture_size[1] <= label.height + 1, label.text
    # the penalty is the banner (issue 16), not one more grey log line
    assert screen.log_lines[0].startswith("Strafe für Annegret")
    assert screen.banner.label.text.startswith("Strafe für Annegret")
    assert screen.banner.top <= screen.panel.top and screen.banner.y >= screen.who.top


def test_board_game_setup_in_german_keeps_targets_and_whole_words(ui: Any, german: None) -> None:
    """Six players, custom layout open: every button of the setup form stays a 48 px target whose
    words fit, and the name fields are finger-sized too."""
    from kivy.uix.textinput import TextInput

    from app.ui.widgets import MIN_FONT, BigButton
    from tests.ui_support import find, tap

    _app, root = build_app()
    ui.show(root)
    tap(find(root, text="Neu: Das Spiel 99"))
    setup = root.get_screen("board99-setup")
    setup.count.select("6")
    setup.layout.select("custom")
    frames(3)
    ui.screenshot("review-board99-setup-de")
    buttons = [w for w in walk(setup) if isinstance(w, BigButton) and w.text]
    assert len(buttons) >= 6 * 2 + 4 + 6 + 2
    for button in buttons:
        assert button.height >= 48 and button.width >= 48, button.text
        assert words_fit(button) and button.font_size >= MIN_FONT, (button.text, button.width)
    for field in (w for w in walk(setup) if isinstance(w, TextInput)):
        assert field.height >= 48
