"""A visitor's guided Game of 99 at the exhibitor's table, driven headless by touches.

The visitor screen runs inside the real app (the family's store is the app's), on a scratch store of
its own; a fake clock drives the referee's stability window as in tests/test_ui_board99.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.exhibit_visitor_support import Visitor, dealt
from tests.ui_support import frames

pytestmark = pytest.mark.ui


def test_a_visitor_starts_a_guided_game_and_the_hints_name_card_and_squares(ui: Any) -> None:
    v = Visitor(ui)
    v.start()
    game = v.game
    assert game is not None and game.store is v.scratch
    assert game.setup.players == ("Guest", "Ben") and game.table.computers == {"Ben": "basic"}
    assert v.screen.turn_label.text == "Your turn"
    assert v.screen.hint.text == ("Win with five red pegs in a row: across, down or diagonally.\n"
                                  "Everyone starts with no cards. Tap DRAW to take your first card.")
    ui.screenshot("exhibit-visitor-start")
    v.press("DRAW")
    v.settle()
    hand = game.state.known_hand("Guest")
    assert len(hand) == 1
    did = next(a for a in reversed(v.scratch.load(game.id).actions) if a["by"] == "Ben")
    said = {"draw": "The computer drew a card.",
            "play": f"The computer played card {did.get('card')} on square {did.get('square')}."}[did["do"]]
    # the computer's turn did not go by unseen
    assert v.screen.hint.text.startswith(said + "\nYou hold "), v.screen.hint.text


def test_the_hint_names_the_card_and_its_squares_glow_and_are_outlined(ui: Any) -> None:
    from app.ui.board99 import board_view

    v = Visitor(ui)
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    game = v.game
    hint = v.screen.hint
    assert hint.card in (23, 45, 71, 80, 99)
    assert hint.text == (f"You hold 23, 45, 71, 80, 99. Tap PLAY and {hint.card}, then put your peg on a "
                         f"square from {hint.card} up: they glow and have a frame.")
    legal = {v.screen.referee.hole_of(s) for s in game.state.legal_squares(hint.card)}
    assert legal and v.screen.board.allowed == legal  # they glow ...
    outlines = [i for i in v.screen.board._tints.children if type(i).__name__ == "Line"]
    assert len(outlines) == len(legal)  # ... and each has a frame: colour is not the only cue
    assert board_view.ALLOWED_OUTLINE != board_view.ALLOWED
    ui.screenshot("exhibit-visitor-hint")
    card = hint.card
    v.press("PLAY")
    v.pick(card)
    assert v.screen.referee.phase.value == "place-peg"
    assert v.screen.hint.text.startswith(f"Now put your peg on a square from {card} up")
    assert v.screen.board.allowed == legal
    target = max(legal)
    v.tap_hole(target)
    v.settle()
    played = [a for a in v.scratch.load(game.id).actions if a["by"] == "Guest" and a["do"] == "play"]
    square = v.screen.referee.square_at(target)
    assert played == [{"by": "Guest", "do": "play", "card": card, "square": square}]


def test_the_computer_plays_its_own_pegs_at_a_visitor_friendly_pace(ui: Any) -> None:
    """On the screen's board the computer's peg goes in by itself, COMPUTER_PACE seconds (real time)
    after its choice: long enough to follow, and nobody is asked to place it."""
    import time

    from app.ui.exhibit.visitor import COMPUTER_PACE

    assert 1.0 <= COMPUTER_PACE <= 3.0  # a pause a visitor can follow, not a wait
    v = Visitor(ui)
    v.screen.computer_pace = COMPUTER_PACE
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    chose: list[float] = []
    v.screen.referee.subscribe(lambda e: chose.append(time.monotonic()) if type(e).__name__ == "ComputerChose"
                               and e.hole is not None else None)
    for _ in range(10):  # the visitor plays (as the guide says) until the computer plays a peg
        hint = v.screen.hint
        if hint.card is None:
            v.press("DRAW")
        else:
            v.press("PLAY")
            v.pick(hint.card)
            v.tap_hole(max(v.screen.board.allowed))
        v.settle()
        if chose:
            break
    assert chose, "the computer never played a peg"
    referee = v.screen.referee
    assert referee.phase.value == "computer-peg"
    (hole,) = referee.prompt.holes
    assert v.screen.hint.text == "The computer plays. Watch its blue peg go in..."
    assert hole not in v.screen.source.occupied  # not at once: the visitor sees the choice first
    deadline = time.monotonic() + COMPUTER_PACE + 5
    while hole not in v.screen.source.occupied and time.monotonic() < deadline:
        frames(1)
    placed = time.monotonic()
    assert hole in v.screen.source.occupied
    assert placed - chose[0] >= COMPUTER_PACE * 0.9
    v.settle()
    ben = [a for a in v.scratch.load(v.game.id).actions if a["by"] == "Ben" and a["do"] == "play"]
    assert ben and referee.hole_of(ben[-1]["square"]) == hole
    assert v.screen.board.pegs[hole] == "blue"
    assert v.game.state.to_move == "Guest"


def test_a_penalty_is_explained_under_the_referees_verdict(ui: Any) -> None:
    v = Visitor(ui)
    # Known hands: a shuffled deal could give the visitor card 0, with no square below it.
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    referee = v.screen.referee
    card, low = 99, 12  # the visitor's highest card on a square far below it
    assert card in v.game.state.known_hand("Guest") and low not in v.game.state.pegs
    v.press("PLAY")
    v.pick(card)
    v.tap_hole(referee.hole_of(low))
    v.settle()
    hint = v.screen.hint.text
    assert hint.startswith(f"Illegal play: take Guest's peg off square {low}"), hint  # the referee's words
    assert (f"Why: card {card} may only go on a square numbered {card} or more, and square {low} is lower."
            in hint)
    assert f"Tap square {low} to take your peg off." in hint
    assert v.screen.board.attention == frozenset({referee.hole_of(low)})
    ui.screenshot("exhibit-visitor-remove-peg")
    v.tap_hole(referee.hole_of(low))
    v.settle()
    assert v.screen.banner.kind == "penalty"
    assert v.screen.banner.label.text.startswith("Penalty for Guest: Illegal play.")  # the rules' verdict
    assert "Why: card" in v.screen.hint.text
    stored = v.scratch.load(v.game.id).actions
    assert {"by": "Guest", "do": "play", "card": card, "square": low} in stored
    ui.screenshot("exhibit-visitor-penalty")


def test_stop_ends_the_game_and_frees_board_and_timers(ui: Any) -> None:
    v = Visitor(ui)
    v.start()
    source = v.screen.source
    game_id = v.game.id
    assert source.running and v.screen._event is not None
    v.press("DRAW")
    v.settle()
    v.press("Stop")
    assert v.ended == ["visitor"]
    assert not source.running  # the screen's own simulated board is stopped
    assert v.screen._event is None and v.screen.referee is None and v.screen._timers == []
    with pytest.raises(KeyError):
        v.scratch.load(game_id)  # dropped from the scratch store
    v.press("Stop")  # a second tap (the screen is still shown until the controller moves on)
    v.settle()
    assert v.ended == ["visitor"]  # the end is reported once, and nothing fires after it


def test_stop_cancels_the_computers_pending_peg(ui: Any) -> None:
    v = Visitor(ui)
    v.screen.computer_pace = 60.0
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    for _ in range(10):
        if v.screen._timers:
            break
        hint = v.screen.hint
        v.press("PLAY")
        v.pick(hint.card)
        v.tap_hole(max(v.screen.board.allowed))
        v.settle()
    pending = list(v.screen._timers)
    assert pending and all(t.is_triggered for t in pending)  # the computer's peg, due in a minute
    v.press("Stop")
    assert not any(t.is_triggered for t in pending)  # nothing of the old game fires later


def test_a_finished_game_shows_the_result_then_calls_on_end_finished(ui: Any) -> None:
    v = Visitor(ui)
    # Wall-clock seconds (Kivy's Clock): 0.3 ran out while a loaded machine drew the last frames,
    # and the game was gone before the result was checked (seen with a load average of 18).
    v.screen.result_seconds = 3.0
    v.screen.new_setup = dealt(v.screen, [0, 1, 2, 3, 4], [55, 66, 77, 88, 93])
    v.start()
    for card in range(5):
        assert v.game.state.to_move == "Guest", v.screen.hint.text
        v.press("PLAY")
        v.pick(card)
        v.tap_hole(card)  # Rows: hole n is square n
        v.settle()
    outcome = v.game.state.outcome
    assert outcome is not None and outcome.winners == ("Guest",)
    assert v.scratch.games()[0].status == "finished"
    assert v.screen.banner.kind == "win" and "Guest won" in v.screen.banner.label.text
    assert v.screen.hint.text.startswith("Five in a row: you won!")
    assert v.screen.board.winning == frozenset(range(5))
    assert v.ended == []  # the result stays a moment
    ui.screenshot("exhibit-visitor-won")
    import time

    deadline = time.monotonic() + 15
    while not v.ended and time.monotonic() < deadline:
        frames(1)
    assert v.ended == ["finished"]
    assert v.screen.game is None and v.scratch.games() == []


def test_nothing_of_a_visitors_game_reaches_the_family_store(ui: Any) -> None:
    from app.games.board99.game import Board99Game, TableSetup
    from app.i18n import tr
    from rules import board99 as rules

    v = Visitor(ui)
    family_game = Board99Game.create(v.family, rules.make_setup(["Mia", "Tom"]), TableSetup({}))
    family_game.commit(rules.Draw("Mia"), rules.apply(family_game.state, rules.Draw("Mia"))[0])
    v.start()  # stopped by the visitor
    v.until_visitor_holds(1)
    v.press("Stop")
    v.screen.new_setup = dealt(v.screen, [0, 1, 2, 3, 4], [55, 66, 77, 88, 93])
    v.screen.result_seconds = 3600
    v.start()  # won
    for card in range(5):
        v.press("PLAY")
        v.pick(card)
        v.tap_hole(card)
        v.settle()
    assert v.game.state.outcome is not None
    v.start()  # left running (the table is switched off mid-game)
    v.press("DRAW")
    v.settle()
    assert v.scratch.games() != []  # the running game is in the scratch store ...
    assert [g.id for g in v.family.games()] == [family_game.id]  # ... and never in the family's
    assert [g.id for g in v.family.unfinished()] == [family_game.id]

    def texts(screen: str) -> str:
        v.root.current = screen
        frames(3)
        return " ".join(str(getattr(w, "text", "")) for w in _walk(v.root.get_screen(screen)))

    history = texts("history")
    assert "Mia" in history  # the family's game is listed (so a visitor's would be too) ...
    assert "Guest" not in history and "visitor" not in history  # ... but no visitor's game is
    home = texts("home")
    assert home.count(tr("Resume")) == 1 and "Guest" not in home


def _walk(widget: Any) -> Any:
    yield widget
    for child in widget.children:
        yield from _walk(child)


class RealBoard:
    """A stand-in for a sensor board (not the simulated one): pegs are set by the test's 'hand'."""

    def __init__(self) -> None:
        import time

        from hardware.board_source import BoardReading, BoardSource, HealthState, SourceHealth

        class Board(BoardSource):
            name = "sensors"

            def _start(self) -> None:
                self._set_health(SourceHealth(HealthState.CONNECTED))
                self.pegs(())

            def pegs(self, holes: Any) -> None:
                self._publish(BoardReading(frozenset(holes), time.monotonic(), self._next_sequence(), None))

        self.board = Board()
        self.kinds: list[str | None] = []

    def make_source(self, kind: str | None) -> Any:
        self.kinds.append(kind)
        return self.board


def test_at_a_real_board_the_visitor_places_the_computers_peg_as_the_referee_asks(
        ui: Any) -> None:
    from app.config import Config

    real = RealBoard()
    v = Visitor(ui, config=Config(board_source="gpio"), make_source=real.make_source)
    v.screen.computer_pace = 0.0
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    assert real.kinds == ["gpio"] and v.screen.source is real.board  # the table's board, via make_source
    referee = v.screen.referee
    assert v.game.setup.layout.name == "spiral-out"  # the printed board, not the on-screen Rows
    card = v.screen.hint.card
    assert card is not None
    v.press("PLAY")
    v.pick(card)
    assert v.screen.hint.text.endswith("Put a peg in one of them.")  # a hand, not a tap
    hole = max(v.screen.board.allowed)
    real.board.pegs({hole})
    v.settle()
    assert referee.phase.value == "computer-peg"
    (computer_hole,) = referee.prompt.holes
    assert v.screen.hint.text == referee.prompt.text  # "Ben plays card N: put a blue peg on square ..."
    assert "put a blue peg on" in v.screen.hint.text
    v.settle()
    assert referee.phase.value == "computer-peg"  # nobody but a hand puts it in
    real.board.pegs({hole, computer_hole})
    v.settle()
    assert v.game.state.to_move == "Guest" and len(v.game.state.pegs) == 2
    v.press("Stop")
    assert v.ended == ["visitor"]
    assert real.board._listeners == []  # the screen let go of the board ...
    assert real.board.running  # ... which the table's board game keeps (one physical board)


def until_the_computer_chooses_a_peg(v: Visitor) -> int:
    """The visitor plays as the guide says until the referee waits for the computer's peg."""
    for _ in range(10):
        referee = v.screen.referee
        if referee.phase.value == "computer-peg":
            return int(referee.prompt.holes[0])
        hint = v.screen.hint
        if hint.card is None:
            v.press("DRAW")
        else:
            v.press("PLAY")
            v.pick(hint.card)
            v.tap_hole(max(v.screen.board.allowed))
        v.settle()
    raise AssertionError("the computer never played a peg")


def test_a_stray_peg_during_the_computers_move_is_fixed_and_the_computer_goes_on(ui: Any) -> None:
    v = Visitor(ui)
    v.screen.computer_pace = 60.0  # the visitor's finger is quicker than the computer's hand
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    hole = until_the_computer_chooses_a_peg(v)
    stray = next(h for h in range(100) if h != hole and h not in v.screen.board.pegs)
    v.tap_hole(stray)
    v.settle()
    assert v.screen.referee.phase.value == "fix-board"
    assert v.screen.hint.problem and v.screen.hint.text.endswith("Tap the squares it names on the board.")
    assert f"square {stray} " in v.screen.hint.text  # the referee names the stray peg's square
    v.screen.computer_pace = 0.0
    v.tap_hole(stray)  # taken out again
    v.settle()
    assert hole in v.screen.source.occupied  # the computer's peg went in after all
    assert v.game.state.pegs.get(v.screen.referee.square_at(hole)) == "Ben"


def test_a_peg_without_play_asks_only_which_of_the_visitors_cards(ui: Any) -> None:
    v = Visitor(ui)
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    v.tap_hole(60)  # no PLAY first
    v.settle()
    frames(2)
    modal = v.modal()
    assert v.screen.referee.phase.value == "who-played"
    assert "Pick its card, or tap the peg again to take it out." in v.screen.hint.text
    buttons = sorted(w.text for w in _walk(modal) if type(w).__name__ == "BigButton")
    assert buttons == sorted(["23", "45", "71", "80", "99", "Cancel"])  # no "By:" player choice
    assert any(getattr(w, "text", "") == "A peg on square 60 without PLAY: which card is it?"
               for w in _walk(modal))
    ui.screenshot("exhibit-visitor-who-played")
    v.pick(45)
    v.settle()
    assert v.scratch.load(v.game.id).actions[0] == {"by": "Guest", "do": "play", "card": 45, "square": 60}


def test_an_unusable_real_board_falls_back_to_the_screens_board(ui: Any) -> None:
    from app.config import Config

    def broken(kind: str | None) -> Any:
        raise OSError("no such serial port")

    v = Visitor(ui, config=Config(board_source="gpio"), make_source=broken)
    v.start()
    from hardware.simulated import SimulatedBoard

    assert isinstance(v.screen.source, SimulatedBoard) and v.screen.source.running
    assert v.game.setup.layout.name == "rows" and v.screen.hint.text.startswith("Win with five red pegs")
    assert "Board gpio unusable" in (v.app.ctx.config_problem or "")  # the table's own message
    v.press("Stop")
    assert v.ended == ["visitor"]


def test_the_visitors_pegs_are_activity_and_the_computers_own_peg_is_not(ui: Any) -> None:
    """What the exhibit's idle timer hears from the board (controller: "Still there?"): a peg the
    visitor puts in on the screen's board counts; the computer's peg, put in by the screen's own
    hand, is nobody at the table."""
    v = Visitor(ui)
    v.screen.computer_pace = 60.0  # the test puts the computer's peg in itself
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    heard: list[bool] = []
    v.screen.activity = lambda: heard.append(True)
    v.start()
    hole = until_the_computer_chooses_a_peg(v)
    assert heard  # the visitor's own peg on the way
    heard.clear()
    v.screen._place_computer_peg(hole)
    assert hole in v.screen.source.occupied and heard == []
    stray = next(h for h in range(100) if h not in v.screen.source.occupied)
    v.tap_hole(stray)
    assert heard == [True]


def test_a_flickering_hole_counts_once_until_the_screen_is_touched(ui: Any) -> None:
    """A faulty sensor flickering in one hole must not keep an abandoned game alive for ever: each
    hole counts as activity once until the next touch on the screen; an unsure hole never counts;
    a peg swapped for another colour does."""
    from kivy.tests.common import UnitTestTouch

    from hardware.board_source import BoardReading

    v = Visitor(ui)
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()
    heard: list[bool] = []
    v.screen.activity = lambda: heard.append(True)
    screen = v.screen

    def reading(pegs: dict[int, str], unsure: frozenset[int] = frozenset()) -> BoardReading:
        return BoardReading(frozenset(pegs), 0.0, colours=pegs, unsure=unsure)

    screen.board_events([reading({})])
    for _ in range(5):  # hole 42 flickers
        screen.board_events([reading({42: "red"})])
        screen.board_events([reading({})])
    assert heard == [True]
    screen.board_events([reading({42: "red", 7: "red"}, unsure=frozenset({7}))])  # 7: unsure
    assert heard == [True]
    screen.board_events([reading({42: "red", 8: "red"})])  # another hole: someone is there
    assert heard == [True, True]
    touch = UnitTestTouch(640, 465)  # a touch on the panel's title: the holes may count again
    touch.touch_down()
    touch.touch_up()
    screen.board_events([reading({42: "blue", 8: "red"})])  # a peg swapped for another colour
    assert heard == [True, True, True]
    screen.board_events([reading({42: "red", 8: "red"})])  # swapped back: 42 counted already
    assert heard == [True, True, True]


def test_a_failing_board_hook_never_costs_the_referee_a_board_event(ui: Any) -> None:
    v = Visitor(ui)
    v.screen.new_setup = dealt(v.screen, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.start()

    def broken(events: Any) -> None:
        raise RuntimeError("a hook's bug")

    v.screen.board_events = broken  # type: ignore[method-assign]
    hole = v.screen.referee.hole_of(99)
    v.screen.source.put(hole, "red")
    v.settle()
    assert v.screen.referee.phase.value in ("who-played", "fix-board"), v.screen.referee.prompt.text
    assert hole in v.screen.referee.prompt.holes  # the referee saw the peg despite the hook
