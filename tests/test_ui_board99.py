"""The board game headless, driven by touches: setup, a legal play, an illegal play, a win."""

from __future__ import annotations

from typing import Any

import pytest

from app.config import Config
from app.store import GameStore
from tests.fakes import FakeClock
from tests.ui_support import find, frames, frames_until, open_modal, tap, tap_hole, walk

pytestmark = pytest.mark.ui


class Driver:
    """The app with a fake clock in the referee's stability window."""

    def __init__(self, ui: Any) -> None:
        from app.paths import default_database
        from app.ui.shell import Table99App

        self.ui = ui
        self.store = GameStore(default_database())
        self.app = Table99App(config=Config(), store=self.store)
        self.root = self.app.build()
        ui.show(self.root)
        self.clock = FakeClock()
        self.screen.clock = self.clock

    @property
    def screen(self) -> Any:
        return self.root.get_screen("board99-game")

    def setup_tap(self, widget: Any) -> None:
        """Scroll the setup form to ``widget`` (as a finger would), then tap it."""
        from kivy.uix.scrollview import ScrollView

        setup = self.root.get_screen("board99-setup")
        scroll = next(w for w in walk(setup) if isinstance(w, ScrollView))
        scroll.scroll_to(widget, animate=False)
        frames(2)
        tap(widget)

    def start_game(self, layout: str = "Rows") -> None:
        from app.i18n import tr

        tap(find(self.root, text=tr("New: {game}", game=tr("The Game of 99"))))
        assert self.root.current == "board99-setup"
        self.setup_tap(find(self.root, text=tr(layout)))
        tap(find(self.root, text=tr("Start")))
        assert self.root.current == "board99-game"
        self.settle()

    def settle(self) -> None:
        """Let the board hold still past the stability window. The screen's 30 Hz Clock interval
        may not fire within a couple of fast headless frames, so call its pump once, as it would."""
        self.think()
        frames(1)
        self.clock.now += 0.5
        self.screen.pump()
        self.think()
        frames(2)

    def think(self) -> None:
        """Wait for the computers' choices (made on a worker thread) and let the screen apply them."""
        referee = self.screen.referee
        if referee is not None:
            assert referee.finish_thinking(), "a computer's choice never came"
            frames(1)

    def press(self, text: str) -> None:
        tap(find(self.screen, text=text))
        self.think()

    def modal(self) -> Any:
        return open_modal()

    def type_card(self, card: int) -> None:
        modal = self.modal()
        for key in str(card):
            tap(find(modal, text=key))
        tap(find(modal, text="OK"))
        frames(2)

    def quick_tap_while_a_peg_settles(self) -> None:
        """Both draw; Ann announces PLAY 30 and pegs 45; 0.2 s later, her peg still settling, Ben
        taps PLAY 50 (issue 20's quick table)."""
        from app.i18n import tr

        self.press(tr("DRAW"))
        self.press(tr("DRAW"))
        self.press(tr("PLAY"))
        self.type_card(30)
        self.tap_hole(45)  # Ann's peg goes in ...
        self.clock.now += 0.2
        self.screen.pump()
        self.press(tr("PLAY"))  # ... and Ben taps PLAY 50 at once
        self.type_card(50)

    def tap_hole(self, hole: int) -> None:
        tap_hole(self.screen.board, hole)

    def stored(self) -> list[dict[str, Any]]:
        return list(self.store.load(self.screen.game.id).actions)


def test_set_up_a_two_player_game_and_make_a_legal_play(ui: Any) -> None:
    d = Driver(ui)
    tap(find(d.root, text="New: The Game of 99"))
    ui.screenshot("board99-setup")
    setup = d.root.get_screen("board99-setup")
    setup.player_rows[0].name_input.text = "Mia"
    setup.player_rows[1].name_input.text = "Tom"
    d.setup_tap(setup.player_rows[1].colour_button)  # Tom: blue -> green
    d.setup_tap(find(d.root, text="Rows"))
    tap(find(d.root, text="Start"))
    d.settle()
    game = d.screen.game
    assert game.setup.players == ("Mia", "Tom") and game.colours == {"Mia": "red", "Tom": "green"}
    assert "Mia's turn" in d.screen.turn_label.text
    d.press("DRAW")
    d.press("DRAW")
    d.press("PLAY")
    d.type_card(40)
    assert set(d.screen.board.allowed) == set(range(40, 100))  # the squares card 40 allows
    ui.screenshot("board99-play-announced")
    d.tap_hole(57)
    assert len(d.stored()) == 2  # not before the board settles
    d.settle()
    assert d.stored()[-1] == {"by": "Mia", "do": "play", "card": 40, "square": 57}
    assert d.screen.board.pegs == {57: "red"}
    assert "Tom's turn" in d.screen.turn_label.text
    ui.screenshot("board99-legal-play")
    for button in (d.screen.play_button, d.screen.draw_button, d.screen.discard_button,
                   d.screen.undo_button):
        assert button.height >= 48 and button.width >= 48


def test_an_illegal_play_shows_the_peg_to_remove_and_then_the_penalty(ui: Any) -> None:
    d = Driver(ui)
    d.app.ctx.announcer.enabled = True  # speech on (espeak-ng may be absent: .spoken records it)
    d.start_game()
    d.press("DRAW")
    d.press("DRAW")
    d.press("PLAY")
    d.type_card(60)
    d.tap_hole(57)
    d.settle()
    assert "Illegal play" in d.screen.prompt_label.text and "57" in d.screen.prompt_label.text
    assert 57 in d.screen.board.attention
    spoken = d.app.ctx.announcer.spoken
    assert any(s.startswith("Illegal play: take Ann's peg off square 57") for s in spoken), spoken
    ui.screenshot("board99-illegal-play")
    d.tap_hole(57)  # take the peg out
    d.settle()
    assert d.stored()[-1] == {"by": "Ann", "do": "play", "card": 60, "square": 57}
    assert any("Penalty for Ann" in line for line in d.screen.log_lines)
    assert "60" in d.screen.info_label.text  # face up
    # one utterance per verdict: a second say() would cut the penalty off before it was heard
    penalty = [s for s in spoken if s.startswith("Penalty for Ann: Illegal play.")]
    assert penalty and penalty[-1].endswith("Ben's turn."), spoken
    ui.screenshot("board99-penalty")


def test_an_unannounced_peg_opens_the_who_played_question(ui: Any) -> None:
    d = Driver(ui)
    d.start_game()
    d.press("DRAW")
    d.press("DRAW")
    d.tap_hole(33)
    d.settle()
    frames_until(lambda: d.screen.modal is not None and d.screen.modal.parent is not None)
    ui.screenshot("board99-who-played")
    modal = d.modal()
    assert modal.who.text == "By: Ann"  # the player to move; a tap steps on to the next player
    tap(modal.who)
    assert modal.who.text == "By: Ben"
    tap(modal.who)
    d.type_card(5)
    assert d.stored()[-1] == {"by": "Ann", "do": "play", "card": 5, "square": 33}


def test_a_win_highlights_the_five_and_offers_a_new_game(ui: Any) -> None:
    d = Driver(ui)
    d.start_game()
    for i in range(5):
        d.press("DRAW")
        d.press("DRAW")
        d.press("PLAY")
        d.type_card(i)
        d.tap_hole(50 + i)
        d.settle()
        if d.screen.game.state.outcome is not None:
            break
        d.press("PLAY")
        d.type_card(10 + i)
        d.tap_hole(70 + i * 2)
        d.settle()
    assert d.screen.game.state.outcome is not None
    assert d.screen.board.winning == frozenset(range(50, 55))
    assert "Ann won" in d.screen.turn_label.text
    assert d.screen.who.disabled and d.screen.who.opacity == 0  # nobody announces after the end
    ui.screenshot("board99-win")
    assert d.store.games()[0].status == "finished"
    d.press("NEW GAME")
    assert d.root.current == "board99-setup"


def test_undo_asks_for_confirmation_first(ui: Any) -> None:
    d = Driver(ui)
    d.start_game()
    d.press("DRAW")
    d.press("Undo: Ann DRAW")
    ui.screenshot("board99-undo-confirm")
    tap(find(d.modal(), text="No"))
    assert len(d.stored()) == 1
    d.press("Undo: Ann DRAW")
    tap(find(d.modal(), text="Undo"))
    assert d.stored() == []


def test_the_game_screen_fits_a_larger_window(ui: Any) -> None:
    """Geometry only: SDL's offscreen driver keeps its first GL surface size, so a screenshot
    after a resize would show a cropped picture that no real window shows."""
    d = Driver(ui)
    d.start_game(layout="Spiral out")
    ui.resize(1280, 800)
    board, panel = d.screen.board, d.screen.panel
    assert board.cell >= 70 and board.right <= panel.x
    assert panel.right <= 1280 and d.screen.play_button.height >= 48


def test_a_computer_opponent_deals_on_screen_and_a_person_places_its_peg(ui: Any) -> None:
    d = Driver(ui)
    d.app.ctx.announcer.enabled = True  # speech on (espeak-ng may be absent: .spoken records it)
    tap(find(d.root, text="New: The Game of 99"))
    setup = d.root.get_screen("board99-setup")
    d.setup_tap(setup.player_rows[1].kind_button)  # Ben: Person -> Basic
    assert setup.player_rows[1].kind == "basic"
    d.setup_tap(find(d.root, text="Rows"))
    tap(find(d.root, text="Start"))
    d.settle()
    game = d.screen.game
    assert game.setup.deck is not None and game.table.computers == {"Ben": "basic"}
    for _ in range(12):
        if game.state.outcome is not None:
            break
        referee = d.screen.referee
        if referee.prompt.phase.value == "computer-peg":
            (hole,) = referee.prompt.holes
            ui.screenshot("board99-computer-peg")
            d.tap_hole(hole)
            d.settle()
            assert d.stored()[-1]["by"] == "Ben" and d.stored()[-1]["do"] == "play"
            continue
        assert game.state.to_move == "Ann"
        hand = game.state.known_hand("Ann")
        if not hand:
            d.press("DRAW")
            continue
        d.press("My cards")
        assert [w.text for w in d.screen.hand_row.children[::-1]] == [str(c) for c in hand]
        ui.screenshot("board99-my-cards")
        d.press("PLAY")
        card = hand[0]
        tap(find(d.modal(), text=str(card)))  # the pad shows Ann's own cards
        frames(2)
        target = next(sq for sq in game.state.legal_squares(card))
        d.tap_hole(d.screen.referee.hole_of(target))
        d.settle()
        ann = [a for a in d.stored() if a["by"] == "Ann"]  # the computer may have moved since
        assert ann[-1] == {"by": "Ann", "do": "play", "card": card, "square": target}
    plays = [a for a in d.stored() if a["do"] == "play"]
    assert {a["by"] for a in plays} == {"Ann", "Ben"}
    assert not any(" plays card " in line for line in d.screen.log_lines)  # the choice is the prompt
    spoken = d.app.ctx.announcer.spoken
    assert any("Ben" in s for s in spoken) and any("Ann's turn" in s for s in spoken)


def test_resume_offers_the_unfinished_game_and_checks_the_board(ui: Any) -> None:
    from app.games.board99.game import Board99Game, TableSetup
    from app.paths import default_database
    from rules import board99 as rules

    store = GameStore(default_database())
    game = Board99Game.create(store, rules.make_setup(["Ann", "Ben"], layout="rows"),
                              TableSetup({"Ann": "red", "Ben": "blue"}))
    state = game.state
    for action in (rules.Draw("Ann"), rules.Draw("Ben"), rules.Play("Ann", 30, 57)):
        state, _ = rules.apply(state, action)
        game.commit(action, state)
    store.close()  # as if the app had been killed here

    d = Driver(ui)  # a fresh app on the same data directory
    tap(find(d.root, text="Resume"))
    assert d.root.current == "board99-game"
    d.settle()
    assert d.screen.game.id == game.id and len(d.stored()) == 3
    assert "put Ann's peg back on square 57" in d.screen.prompt_label.text  # the board is empty
    ui.screenshot("board99-resume-fix-board")
    d.tap_hole(57)
    d.settle()
    # the problem is gone; in its place the one next thing to do
    assert "Ben's turn" in d.screen.turn_label.text
    assert d.screen.prompt_label.text == "Ben: tap PLAY and say your card, then put your peg in."


def test_turn_leds_follow_the_game_and_a_physical_draw_button_announces_a_draw(ui: Any) -> None:
    """[outputs] on gpiozero's mock pins: the game screen drives the LEDs and hears the buttons."""
    from app.paths import default_database
    from app.referee.outputs import EXTRAS_KEY
    from app.ui.shell import Table99App

    config = Config(outputs={"mock": True, "turn_leds": [17, 27], "draw_button": 5, "play_button": 6})
    d = Driver.__new__(Driver)
    d.ui = ui
    d.store = GameStore(default_database())
    d.app = Table99App(config=config, store=d.store)
    d.root = d.app.build()
    ui.show(d.root)
    d.clock = FakeClock()
    d.screen.clock = d.clock
    d.start_game()
    outputs = d.screen.ctx.extras[EXTRAS_KEY]
    assert outputs is not None and outputs.devices.leds.lit == 0  # first player's LED
    button = outputs.devices.buttons.button("draw")
    button.pin.drive_low()  # pressed (pulled up, active low)
    button.pin.drive_high()
    d.screen.pump()
    frames(2)
    assert d.stored() == [{"by": d.screen.game.setup.players[0], "do": "draw"}]
    assert outputs.devices.leds.lit == 1
    outputs.devices.buttons.button("play").pin.drive_low()
    d.screen.pump()
    frames(2)
    assert "OK" in [getattr(w, "text", None) for w in walk(d.modal())]  # the card pad opened


def test_the_game_screen_shows_the_board_link_state(ui: Any) -> None:
    """A sensor board that loses its link: the status line says so with the driver's detail."""
    from hardware.board_source import BoardReading, BoardSource, HealthState, SourceHealth

    class Link(BoardSource):
        def _start(self) -> None:
            self._set_health(SourceHealth(HealthState.CONNECTED, "test board 1.0"))
            self._publish(BoardReading(frozenset(), 0.0, self._next_sequence()))

    d = Driver(ui)
    d.start_game()
    link = Link()
    d.screen.start(d.screen.game, link)
    d.settle()
    assert "Board: connected (test board 1.0)" in d.screen.info_label.text
    link._set_health(SourceHealth(HealthState.LOST, "no heartbeat for 2.0 s; retrying"))
    d.settle()
    assert "Board: connection lost, retrying (no heartbeat for 2.0 s; retrying)" in d.screen.info_label.text
    assert "not connected" in d.screen.prompt_label.text
    ui.screenshot("board99-link-lost")


def test_undo_is_enabled_exactly_when_a_persons_action_can_be_taken_back_and_names_it(ui: Any) -> None:
    """Ann is a computer and moves first: her draw alone cannot be undone (she would draw again at
    once), so Undo stays off until Ben acts; then it names Ben's action, and takes back his action
    with the computer's reply."""
    d = Driver(ui)
    tap(find(d.root, text="New: The Game of 99"))
    setup = d.root.get_screen("board99-setup")
    d.setup_tap(setup.player_rows[0].kind_button)  # Ann: Person -> Basic
    d.setup_tap(find(d.root, text="Rows"))
    tap(find(d.root, text="Start"))
    d.settle()
    game, undo = d.screen.game, d.screen.undo_button
    assert [a["by"] for a in d.stored()] == ["Ann"] and game.state.to_move == "Ben"
    assert undo.disabled and undo.text == "Undo"
    d.press("DRAW")
    assert d.stored()[1] == {"by": "Ben", "do": "draw"}
    assert not undo.disabled and "Ben" in undo.text and "DRAW" in undo.text
    ui.screenshot("board99-undo-names-action")
    tap(undo)
    tap(find(d.modal(), text="Undo"))
    frames(2)
    assert [a["by"] for a in d.stored()] == ["Ann"] and game.state.to_move == "Ben"
    assert undo.disabled and undo.text == "Undo"


def test_the_event_log_is_readable_and_stays_inside_the_panel(ui: Any) -> None:
    """The log is read from a metre away, like the rest of the panel: no smaller than the info
    lines; three long penalty lines must not push anything off the 800x480 screen."""
    from app.ui.widgets import READABLE

    d = Driver(ui)
    d.start_game()
    d.press("DRAW")
    d.press("DRAW")
    for card, hole in ((60, 57), (70, 61)):  # two illegal plays: the longest log lines there are
        d.press("PLAY")
        d.type_card(card)
        d.tap_hole(hole)
        d.settle()
        d.tap_hole(hole)
        d.settle()
    screen = d.screen
    assert sum("Penalty for" in line for line in screen.log_lines) == 2
    assert screen.log_label.font_size >= READABLE and screen.info_label.font_size >= READABLE
    ui.screenshot("board99-log-readable")
    labels = (screen.turn_label, screen.prompt_label, screen.info_label, screen.log_label)
    for label in labels:
        assert screen.who.top <= label.y and label.top <= screen.panel.top, label.text
        assert label.texture_size[1] <= label.height + 1, label.text  # no line cut off


def test_a_custom_board_is_typed_in_checked_and_remembered_for_the_next_game(ui: Any) -> None:
    """A family's board printed differently: its 100 numbers are typed once; a mistake is named;
    the next new game offers the same numbers again."""
    d = Driver(ui)
    tap(find(d.root, text="New: The Game of 99"))
    setup = d.root.get_screen("board99-setup")
    d.setup_tap(find(d.root, text="Custom"))
    assert setup.custom.height >= 48 and setup.custom.opacity == 1
    numbers = list(reversed(range(100)))
    setup.custom.text = " ".join(map(str, numbers[:99])) + " 5"  # 5 twice, 0 missing
    tap(find(d.root, text="Start"))
    assert d.root.current == "board99-setup"
    assert "hole 99: number 5 is already printed at hole 94" in setup.error.text
    setup.custom.text = "\n".join(" ".join(map(str, numbers[r * 10:r * 10 + 10])) for r in range(10))
    tap(find(d.root, text="Start"))
    assert d.root.current == "board99-game"
    assert d.screen.game.setup.layout.numbers == tuple(numbers)
    d.screen.leave()
    ui.clear()
    again = Driver(ui)  # the app started again another day
    tap(find(again.root, text="New: The Game of 99"))
    setup = again.root.get_screen("board99-setup")
    assert setup.layout.value == "custom" and setup.custom.opacity == 1
    assert [int(n) for n in setup.custom.text.split()] == numbers


def test_5of99_at_a_real_table_a_dead_hand_is_typed_in_checked_and_puts_the_player_out(ui: Any) -> None:
    """Squares 50..99 are full (with cards 0..49), so every card left is dead. The player to move
    shows a hand: a wrong card is named on screen and nothing changes; the true hand puts them out and
    the other player wins."""
    from app.games.board99.game import Board99Game, TableSetup
    from app.paths import default_database
    from rules import board99 as rules
    from tests.test_board99_support import fill_squares_50_up

    store = GameStore(default_database())
    game = Board99Game.create(store, rules.make_setup(["Ann", "Ben"], ruleset="5of99", layout="rows"),
                              TableSetup({"Ann": "red", "Ben": "blue"}))
    state = game.state
    for data in fill_squares_50_up(["Ann", "Ben"]):
        action = rules.record_from_json({"format": "table99/board99", "version": 1, "players": ["Ann", "Ben"],
                                         "actions": [data]}).actions[0]
        state, _ = rules.apply(state, action)
        game.commit(action, state)
    store.close()
    d = Driver(ui)
    tap(find(d.root, text="Resume"))
    for hole in range(50, 100):  # the family's board already holds the pegs
        d.screen.source.toggle(hole, None)
    d.settle()
    who = d.screen.game.state.to_move
    assert d.screen.discard_button.text == "DEAD HAND" and who is not None
    held = d.screen.game.state.hand_count(who)
    d.press("DEAD HAND")
    pad = d.modal()
    for card in [12, *range(61, 60 + held)]:
        for key in str(card):
            tap(find(pad, text=key))
        tap(find(pad, text="Add"))
    ui.screenshot("board99-dead-hand-pad")
    tap(find(pad, text="Done"))
    frames(2)
    assert "card 12 is already face up" in d.screen.prompt_label.text  # the refusal stays on screen
    ui.screenshot("board99-dead-hand-refused")
    assert d.screen.game.state.out == frozenset()
    d.press("DEAD HAND")
    pad = d.modal()
    for card in range(70, 70 + held):
        for key in str(card):
            tap(find(pad, text=key))
        tap(find(pad, text="Add"))
    tap(find(pad, text="Done"))
    frames(2)
    state = d.screen.game.state
    other = "Ben" if who == "Ann" else "Ann"
    assert state.out == {who} and state.outcome is not None and state.outcome.winners == (other,)
    assert f"{who} is out: a dead hand." in d.screen.log_lines
    assert f"{other} won!" in d.screen.turn_label.text
    assert d.stored()[-1] == {"by": who, "do": "reveal-dead-hand", "cards": list(range(70, 70 + held))}
    ui.screenshot("board99-dead-hand-out")


def test_setup_shows_partners_with_their_sides_colour_and_changes_it_together(ui: Any) -> None:
    """Partners share one peg colour, so the form shows it on both rows; a tap on either partner's
    colour changes the side's colour. Everyone alone: four different colours again."""
    d = Driver(ui)
    tap(find(d.root, text="New: The Game of 99"))
    setup = d.root.get_screen("board99-setup")
    setup.count.select("4")
    frames(3)  # the form grows by two rows before it can scroll to them
    rows = setup.player_rows
    assert [r.colour for r in rows] == ["red", "blue", "red", "blue"]
    assert rows[2].colour_button.text == "red"
    d.setup_tap(rows[2].colour_button)  # Cat, Ann's partner: red -> the next colour nobody has
    assert rows[0].colour == rows[2].colour == "green" and rows[1].colour == rows[3].colour == "blue"
    setup.partners.select("alone")
    assert len({r.colour for r in rows}) == 4
    setup.partners.select("opposite")
    d.setup_tap(find(d.root, text="Rows"))
    tap(find(d.root, text="Start"))
    game = d.screen.game
    assert game.setup.sides == (("Ann", "Cat"), ("Ben", "Dan"))
    assert game.colours["Ann"] == game.colours["Cat"] and game.colours["Ben"] == game.colours["Dan"]
    assert game.colours["Ann"] != game.colours["Ben"]


def test_setup_lets_the_table_say_who_starts(ui: Any) -> None:
    """At a real table the players cut for the first turn (lowest card in 1963): the form says who
    starts, follows the names as they are typed, and the game begins with that player."""
    d = Driver(ui)
    tap(find(d.root, text="New: The Game of 99"))
    setup = d.root.get_screen("board99-setup")
    setup.count.select("3")
    frames(3)
    assert setup.first.text == "Starts: Ann"
    d.setup_tap(setup.first)
    d.setup_tap(setup.first)
    assert setup.first.text == "Starts: Cat"
    setup.player_rows[2].name_input.text = "Carla"
    frames(1)
    assert setup.first.text == "Starts: Carla"
    d.setup_tap(find(d.root, text="Rows"))
    tap(find(d.root, text="Start"))
    game = d.screen.game
    assert game.setup.first == "Carla" and game.state.to_move == "Carla"
    assert game.setup.players == ("Ann", "Ben", "Carla")  # the seats stay as they are


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_quick_players_tap_while_a_peg_settles_is_shown_waiting_and_filed_for_them(
    ui: Any, language: str
) -> None:
    """Issue 20: Ben taps PLAY while Ann's peg settles; the selector names nobody, the prompt shows
    Ben's PLAY waiting, and once the peg is judged the play is Ben's, not Ann's."""
    import json

    from app import i18n
    from app.paths import data_dir

    data_dir().mkdir(parents=True, exist_ok=True)
    (data_dir() / "settings.json").write_text(json.dumps({"language": language}), encoding="utf-8")
    try:
        d = Driver(ui)
        d.start_game()
        d.quick_tap_while_a_peg_settles()
        frames(2)
        assert i18n.language() == language
        assert d.screen.who.text == i18n.tr("Wait: the pegs are settling")
        assert i18n.tr("Then: {what}.", what=i18n.tr("PLAY") + " 50") in d.screen.prompt_label.text
        ui.screenshot(f"board99-quick-tap-waiting-{language}")
        d.settle()
        assert d.stored()[-1] == {"by": "Ann", "do": "play", "card": 30, "square": 45}
        assert d.screen.referee.pending_card == 50
        assert d.screen.who.text == i18n.tr("By: {name} (tap to change)", name="Ben")
        d.tap_hole(60)
        d.settle()
        assert d.stored()[-1] == {"by": "Ben", "do": "play", "card": 50, "square": 60}
    finally:
        i18n.set_language("en")


def test_the_hand_row_is_rebuilt_only_when_what_it_shows_changed(ui: Any) -> None:
    """A refresh with the same hand keeps its widgets (the verdict's frame built them anew each
    time); a changed hand, My cards, or a row emptied by someone else is built again."""
    d = Driver(ui)
    tap(find(d.root, text="New: The Game of 99"))
    setup = d.root.get_screen("board99-setup")
    d.setup_tap(setup.player_rows[1].kind_button)  # Ben: Person -> Basic
    d.setup_tap(find(d.root, text="Rows"))
    tap(find(d.root, text="Start"))
    d.settle()
    screen = d.screen
    assert screen.game.state.to_move == "Ann"
    d.press("DRAW")
    d.settle()
    while screen.game.state.to_move != "Ann" or screen.referee.prompt.phase.value != "announce":
        if screen.referee.prompt.phase.value == "computer-peg":
            d.tap_hole(screen.referee.prompt.holes[0])
        d.settle()
    shown = list(screen.hand_row.children)
    assert shown and screen.hand_row.height > 0
    screen.refresh()
    assert screen.hand_row.children == shown  # the same widgets, not new ones
    d.press("My cards")
    faces = [w.text for w in screen.hand_row.children[::-1]]
    assert faces == [str(c) for c in screen.game.state.known_hand("Ann")]
    screen.hand_row.clear_widgets()  # as the exhibit's visitor screen does under a penalty banner
    screen.refresh()
    assert [w.text for w in screen.hand_row.children[::-1]] == faces
