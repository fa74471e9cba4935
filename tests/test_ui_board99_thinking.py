"""The board game's screen while a computer thinks: frames go on, a person's verdict is not held up.

A deliberately slow chooser (it waits for the test's gate, 5 s at most) is injected into the real
screen. The old screen called the chooser on Kivy's main thread from its pump, so each test below
sat 5 s inside a tap or a pump and then found the computer's move already made.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from rules.board99.ai import choose_action
from tests.test_ui_board99 import Driver
from tests.ui_support import find, frames, tap

pytestmark = pytest.mark.ui


def frames_while(condition: Callable[[], bool], seconds: float = 5.0) -> int:
    """Run Kivy frames while ``condition()`` holds (the screen's 30 Hz pump runs among them)."""
    deadline, count = time.monotonic() + seconds, 0
    while condition():
        assert time.monotonic() < deadline, "still waiting after the time limit"
        frames(1)
        count += 1
    return count


class SlowComputer:
    """The real chooser, held at a gate once ``slow`` is set; records the threads it ran on."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.slow = False
        self.threads: list[str] = []
        self.finished = threading.Event()

    def __call__(self, view: Any, level: str, rng: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        if self.slow:
            self.gate.wait(5)
        try:
            return choose_action(view, level, rng)
        finally:
            self.finished.set()


def start_against_ben(ui: Any, chooser: Any) -> Driver:
    from app.i18n import tr

    d = Driver(ui)
    d.screen.computer_chooser = chooser
    tap(find(d.root, text=tr("New: {game}", game=tr("The Game of 99"))))
    setup = d.root.get_screen("board99-setup")
    d.setup_tap(setup.player_rows[1].kind_button)  # Ben: Person -> Basic
    d.setup_tap(find(d.root, text=tr("Rows")))
    tap(find(d.root, text=tr("Start")))
    d.settle()
    assert d.screen.game.table.computers == {"Ben": "basic"} and d.screen.game.state.to_move == "Ann"
    return d


def test_the_screen_keeps_drawing_while_a_slow_computer_thinks(ui: Any) -> None:
    from kivy.clock import Clock

    slow = SlowComputer()
    slow.slow = True
    d = start_against_ben(ui, slow)
    tap(find(d.screen, text="DRAW"))  # Ann draws: Ben's turn, his choice is held at the gate
    assert [a["by"] for a in d.stored()] == ["Ann"]
    assert d.screen.referee.thinking == "Ben"
    before = Clock.frames
    start = time.monotonic()
    # at least 5 frames (the 30 Hz pump fires among them), however slow a loaded machine draws them
    while (Clock.frames - before < 5 or time.monotonic() - start < 0.3) and time.monotonic() - start < 20:
        frames(1)
    assert Clock.frames - before >= 5 and d.screen.referee.thinking == "Ben"
    assert "Ben (computer) is choosing." in d.screen.prompt_label.text
    assert slow.threads and slow.threads[-1].startswith("computer-thinker")
    slow.gate.set()
    frames_while(lambda: len(d.stored()) < 2)  # the pump, not the test, applies the choice
    assert d.stored()[1]["by"] == "Ben" and d.screen.referee.thinking is None


def test_a_persons_play_is_judged_and_shown_while_the_computer_then_thinks(ui: Any) -> None:
    slow = SlowComputer()
    d = start_against_ben(ui, slow)
    game = d.screen.game
    for _ in range(8):  # draw until Ann holds a card (Ben answers at once: not slow yet)
        if game.state.known_hand("Ann"):
            break
        d.press("DRAW")
    hand = game.state.known_hand("Ann")
    assert hand and game.state.to_move == "Ann"
    slow.slow = True  # from now on Ben thinks for up to 5 s
    card = hand[0]
    d.press("PLAY")
    tap(find(d.modal(), text=str(card)))
    frames(2)
    square = game.state.legal_squares(card)[0]
    d.tap_hole(d.screen.referee.hole_of(square))
    d.clock.now += 0.5
    start = time.perf_counter()
    d.screen.pump()  # the stable board: Ann's play is judged, stored, and Ben starts thinking
    pumped = time.perf_counter() - start
    frames(1)
    assert d.stored()[-1] == {"by": "Ann", "do": "play", "card": card, "square": square}
    assert any(f"card {card}" in line for line in d.screen.log_lines)
    assert d.screen.referee.thinking == "Ben", f"the pump took {pumped:.2f} s: it waited for Ben"
    slow.gate.set()
    frames_while(lambda: d.screen.referee.thinking is not None)
    # Ben's choice is applied by the screen's 30 Hz pump (a Kivy interval): frames until it has run
    frames_while(lambda: not (game.state.to_move == "Ann" or d.screen.referee.phase.value == "computer-peg"))


def test_leaving_the_screen_while_the_computer_thinks_drops_its_choice_and_resume_asks_again(
        ui: Any) -> None:
    slow = SlowComputer()
    slow.slow = True
    d = start_against_ben(ui, slow)
    game_id = d.screen.game.id
    tap(find(d.screen, text="DRAW"))
    assert d.screen.referee.thinking == "Ben"
    frames_while(lambda: not slow.threads)  # the worker has started (at the next pump) and waits
    tap(find(d.screen, text="Menu"))  # left mid-thought: the screen stops, the referee closes
    frames(2)
    assert d.root.current == "home" and d.screen.referee is None
    slow.gate.set()
    assert slow.finished.wait(5)
    frames(3)
    assert [a["by"] for a in d.store.load(game_id).actions] == ["Ann"]  # the late choice was dropped
    slow.slow = False
    d.app.ctx.go(d.app.uis["board99"].resume(game_id))  # resumed: Ben is asked again and moves
    frames(2)
    d.think()
    assert [a["by"] for a in d.store.load(game_id).actions] == ["Ann", "Ben"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_computer_that_cannot_choose_is_said_on_screen(ui: Any, language: str) -> None:
    import json

    from app import i18n
    from app.i18n import tr
    from app.paths import data_dir
    from tests.screen_audit import audit

    def broken(view: Any, level: str, rng: Any) -> Any:
        raise RuntimeError("no move")

    data_dir().mkdir(parents=True, exist_ok=True)  # the app takes its language from the settings
    (data_dir() / "settings.json").write_text(json.dumps({"language": language}), encoding="utf-8")
    try:
        d = start_against_ben(ui, broken)
        tap(find(d.screen, text=tr("DRAW")))
        d.think()
        frames(2)
        assert i18n.language() == language
        text = d.screen.prompt_label.text
        assert text == tr("{name} (computer) could not choose a move ({error}). Undo, or leave the game "
                          "and resume it to try again.", name="Ben", error="RuntimeError")
        assert not d.screen.undo_button.disabled  # the way on that the message names
        ui.screenshot(f"board99-computer-failed-{language}")
        assert audit(language, root=d.screen.panel) == []
    finally:
        i18n.set_language("en")
