"""Referee scenarios: what happens at a real table, reading by reading, with a fake clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.games.board99.game import Board99Game, TableSetup
from app.referee import (
    ActionAccepted,
    ComputerChose,
    Phase,
    Prompt,
    RefereeRefusal,
    SourceProblem,
    StabilityWindow,
)
from app.referee.core import Referee
from app.store import GameStore
from hardware.board_source import HealthState, ReadingQueue, SourceHealth
from hardware.simulated import SimulatedBoard
from rules import board99 as rules


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A store, a simulated board and a referee wired as the app wires them (queue, main thread)."""

    def __init__(
        self,
        players: tuple[str, ...] = ("Ann", "Ben"),
        *,
        store: GameStore | None = None,
        game: Board99Game | None = None,
        sees_colour: bool = False,
        chooser: Any = None,
        thinker: Any = None,
        table: TableSetup | None = None,
        pegs: tuple[int, ...] = (),
        **setup: Any,
    ) -> None:
        self.store = store or GameStore(":memory:")
        if game is None:
            table = table or TableSetup(colours={"Ann": "red", "Ben": "blue", "Cat": "green"})
            game = Board99Game.create(self.store, rules.make_setup(players, layout="rows", **setup), table)
        self.game = game
        self.clock = Clock()
        self.board = SimulatedBoard(sees_colour=sees_colour, clock=self.clock, initial=pegs)
        self.referee = Referee(game, StabilityWindow(0.4, self.clock), sees_colour=sees_colour,
                               computer_chooser=chooser, thinker=thinker)
        self.events: list[Any] = []
        self.referee.subscribe(self.events.append)
        self.queue = ReadingQueue()
        self.board.subscribe(self.queue.put)
        self.referee.start()
        self.board.start()
        self.settle()

    def pump(self) -> None:
        for event in self.queue.drain():
            self.referee.on_board_event(event)
        self.referee.tick()

    def settle(self, seconds: float = 0.5) -> None:
        self.pump()
        self.clock.now += seconds
        self.pump()

    def put(self, *holes: int, colour: str | None = None) -> None:
        for hole in holes:
            self.board.put(hole, colour)
        self.pump()

    def remove(self, *holes: int) -> None:
        for hole in holes:
            self.board.remove(hole)
        self.pump()

    @property
    def stored(self) -> list[dict[str, Any]]:
        return list(self.store.load(self.game.id).actions)

    @property
    def phase(self) -> Phase:
        return self.referee.phase

    def offences(self) -> list[str]:
        return [e.offence for e in self.events if isinstance(e, rules.Penalised)]

    def both_draw(self, times: int = 1) -> None:
        for _ in range(times):
            self.referee.announce_draw()
            self.referee.announce_draw()


def test_a_legal_play_is_accepted_only_once_the_peg_has_settled() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(40)
    assert t.phase is Phase.PLACE_PEG
    assert set(t.referee.prompt.holes) == set(range(40, 100))  # the squares card 40 allows
    t.put(57)
    assert len(t.stored) == 2, "nothing is applied before the stability window has passed"
    t.settle()
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 40, "square": 57}
    assert t.game.state.pegs == {57: "Ann"}
    assert t.game.state.to_move == "Ben" and t.phase is Phase.ANNOUNCE
    accepted = [e for e in t.events if isinstance(e, ActionAccepted)]
    played = [e for e in t.events if isinstance(e, rules.Played)]
    assert accepted[-1].index == 2 and played == [rules.Played("Ann", 40, 57)]
    # the accepted event is published only after the store has it
    assert t.events.index(accepted[-1]) < t.events.index(played[0])


def test_an_illegal_play_waits_for_the_peg_to_come_out_then_applies_the_penalty() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(60)
    t.put(57)
    t.settle()
    assert t.phase is Phase.REMOVE_PEG
    assert t.referee.prompt.holes == (57,) and "57" in t.referee.prompt.text
    assert "Illegal play" in t.referee.prompt.text
    assert len(t.stored) == 2
    with pytest.raises(RefereeRefusal):
        t.referee.announce_draw()  # nothing else until the peg is out
    t.remove(57)
    t.settle()
    assert t.offences() == ["illegal-play"]
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 60, "square": 57}
    assert t.game.state.pegs == {} and 60 in t.game.state.face_up
    assert t.phase is Phase.ANNOUNCE and t.game.state.to_move == "Ben"


def test_play_out_of_turn_takes_the_peg_off_and_penalises() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(10, by="Ben")  # Ann is to move
    t.put(20)
    t.settle()
    assert t.phase is Phase.REMOVE_PEG and "out of turn" in t.referee.prompt.text
    t.remove(20)
    t.settle()
    assert t.offences() == ["play-out-of-turn"]
    assert t.game.state.to_move == "Ann"


def test_discard_and_draw_out_of_turn_and_illegal_draw_are_penalised_at_once() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_discard(33, by="Ben")
    assert t.offences() == ["discard-out-of-turn"]
    t.referee.announce_draw(by="Ben")
    assert t.offences()[-1] == "draw-out-of-turn"
    t2 = Table()
    t2.both_draw(5)
    t2.referee.announce_draw()  # Ann already holds five
    assert t2.offences() == ["illegal-draw"]
    assert len(t2.stored) == 11


def test_a_peg_slid_across_holes_is_judged_only_where_it_stops() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    for hole in (35, 36, 46, 47):  # sliding: in, out, next hole... within the window
        t.put(hole)
        t.clock.now += 0.1
        t.pump()
        t.remove(hole)
        t.clock.now += 0.1
        t.pump()
    t.put(48)
    t.settle()
    assert not t.offences()
    assert t.stored[-1]["square"] == 48
    assert not any(isinstance(e, Prompt) and e.phase is Phase.FIX_BOARD for e in t.events)


def test_two_new_pegs_ask_to_fix_the_board_and_nothing_is_applied() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.put(57, 58)
    t.settle()
    assert t.phase is Phase.FIX_BOARD
    assert set(t.referee.prompt.holes) == {57, 58}
    assert "57" in t.referee.prompt.text and "58" in t.referee.prompt.text
    assert len(t.stored) == 2
    t.remove(58)
    t.settle()
    assert t.stored[-1]["square"] == 57 and t.phase is Phase.ANNOUNCE


def test_a_removed_peg_must_be_put_back_before_anything_else() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.put(57)
    t.settle()
    t.remove(57)
    t.settle()
    assert t.phase is Phase.FIX_BOARD and t.referee.prompt.holes == (57,)
    assert "Ann" in t.referee.prompt.text and "back" in t.referee.prompt.text
    with pytest.raises(RefereeRefusal, match="board"):
        t.referee.announce_draw()
    t.put(57)
    t.settle()
    assert t.phase is Phase.ANNOUNCE
    t.referee.announce_draw()
    assert len(t.stored) == 4


def test_a_hand_flickering_over_the_board_changes_nothing() -> None:
    t = Table(pegs=())
    t.both_draw()
    prompts_before = sum(isinstance(e, Prompt) for e in t.events)
    for step in range(30):  # a sleeve brushing sensors: random holes on and off every 50 ms
        t.board.set_board({(step * 7) % 100, (step * 13) % 100})
        t.clock.now += 0.05
        t.pump()
    t.board.set_board(())
    t.settle()
    assert len(t.stored) == 2 and t.phase is Phase.ANNOUNCE
    assert sum(isinstance(e, Prompt) for e in t.events) == prompts_before


def test_an_unannounced_peg_asks_who_played_it_and_with_which_card() -> None:
    t = Table()
    t.both_draw(2)
    t.put(57)
    t.settle()
    assert t.phase is Phase.WHO_PLAYED and t.referee.prompt.holes == (57,)
    t.referee.identify_unannounced("Ann", 50)  # a forgotten announcement
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 50, "square": 57}
    t.put(58)
    t.settle()
    t.referee.identify_unannounced("Ann", 3)  # Ben is to move: Ann played out of turn
    assert t.phase is Phase.REMOVE_PEG
    t.remove(58)
    t.settle()
    assert t.offences() == ["play-out-of-turn"]


def test_undo_takes_back_the_last_action_and_asks_for_the_peg_to_come_out() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.put(57)
    t.settle()
    assert t.referee.undo_preview() == "Ann played card 30 on square 57"
    undone = t.referee.undo()
    assert undone == rules.Play("Ann", 30, 57)
    assert len(t.stored) == 2 and t.game.state.to_move == "Ann"
    t.settle()
    assert t.phase is Phase.FIX_BOARD and t.referee.prompt.holes == (57,)
    t.remove(57)
    t.settle()
    assert t.phase is Phase.ANNOUNCE
    t.referee.undo()
    t.referee.undo()
    assert t.referee.undo() is None and t.referee.undo_preview() is None and t.stored == []


def test_resume_checks_the_physical_board_against_the_stored_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    t = Table(store=GameStore(path))
    t.both_draw()
    t.referee.announce_play(30)
    t.put(57)
    t.settle()
    game_id = t.game.id
    t.store.close()

    store = GameStore(path)
    resumed = Board99Game.load(store, game_id)
    assert resumed.state.pegs == {57: "Ann"} and len(resumed.actions) == 3
    wrong = Table(store=store, game=resumed, pegs=(12,))  # someone cleared the board and bumped 12
    assert wrong.phase is Phase.FIX_BOARD and set(wrong.referee.prompt.holes) == {12, 57}
    wrong.remove(12)
    wrong.put(57)
    wrong.settle()
    assert wrong.phase is Phase.ANNOUNCE and resumed.state.to_move == "Ben"
    right = Table(store=store, game=Board99Game.load(store, game_id), pegs=(57,))
    assert right.phase is Phase.ANNOUNCE


def test_a_peg_of_the_wrong_colour_is_shown_on_a_colour_board() -> None:
    t = Table(sees_colour=True)
    t.both_draw()
    t.referee.announce_play(30)
    t.put(57, colour="blue")  # Ann plays red
    t.settle()
    assert t.phase is Phase.FIX_BOARD and "blue" in t.referee.prompt.text
    t.remove(57)
    t.put(57, colour="red")
    t.settle()
    assert t.stored[-1]["square"] == 57
    t.board.remove(57)
    t.board.put(57, "green")
    t.settle()
    assert t.phase is Phase.FIX_BOARD and t.referee.prompt.holes == (57,)


def test_a_computer_opponent_chooses_and_a_person_places_its_peg() -> None:
    deck = tuple(range(100))

    def chooser(view: Any, level: str, rng: Any) -> Any:
        assert view.player == "Ben" and level == "basic"
        if not view.hand:
            return rules.Draw("Ben")
        card = view.hand[0]
        return rules.Play("Ben", card, 90)

    t = Table(table=TableSetup(colours={"Ann": "red", "Ben": "blue"}, computers={"Ben": "basic"}),
              chooser=chooser, deck=deck)
    t.referee.announce_draw()  # Ann draws 0; Ben (computer) draws 1 at once
    assert [a["do"] for a in t.stored] == ["draw", "draw"]
    assert t.stored[1] == {"by": "Ben", "do": "draw"} and t.game.state.known_hand("Ben") == (1,)
    t.referee.announce_play(0)
    t.put(12)
    t.settle()
    assert t.phase is Phase.COMPUTER_PEG and t.referee.prompt.holes == (90,)
    assert any(isinstance(e, ComputerChose) and e.hole == 90 for e in t.events)
    with pytest.raises(RefereeRefusal):
        t.referee.announce_draw()
    t.put(91)  # the person put it one hole off
    t.settle()
    assert t.phase is Phase.FIX_BOARD and set(t.referee.prompt.holes) == {90, 91}
    t.remove(91)
    t.put(90)
    t.settle()
    assert t.stored[-1] == {"by": "Ben", "do": "play", "card": 1, "square": 90}
    assert t.phase is Phase.ANNOUNCE and t.game.state.to_move == "Ann"


def test_a_win_is_announced_and_finishes_the_stored_game() -> None:
    t = Table()
    for i in range(5):
        t.both_draw()  # hands are hidden at a real table: the cards are known when played
        t.referee.announce_play(i)
        t.put(50 + i)  # "rows" layout: squares 50..54 are five in a row
        t.settle()
        if t.game.state.outcome is not None:
            break
        t.referee.announce_play(10 + i)
        t.put(60 + i)
        t.settle()
    outcome = t.game.state.outcome
    assert outcome is not None and outcome.winners == ("Ann",)
    assert set(outcome.line) == {50, 51, 52, 53, 54}
    assert t.phase is Phase.OVER and "Ann" in t.referee.prompt.text
    assert t.store.games()[0].status == "finished"
    with pytest.raises(RefereeRefusal, match="over"):
        t.referee.announce_draw()


def test_a_lost_source_is_reported_and_its_readings_ignored_until_it_is_back() -> None:
    t = Table()
    t.both_draw()
    t.referee.on_board_event(SourceHealth(HealthState.LOST, "cable pulled"))
    assert any(isinstance(e, SourceProblem) for e in t.events)
    assert "not connected" in t.referee.prompt.text
    t.put(57)
    t.settle()
    assert t.phase is not Phase.WHO_PLAYED
    t.referee.on_board_event(SourceHealth(HealthState.CONNECTED))
    t.put(58)
    t.remove(58)
    t.settle()
    assert t.phase is Phase.WHO_PLAYED


def test_a_faulty_listener_does_not_stop_the_referee() -> None:
    t = Table()

    def broken(_: Any) -> None:
        raise RuntimeError("LED driver bug")

    t.referee.subscribe(broken)
    t.both_draw()
    assert len(t.stored) == 2


def test_a_dead_hand_in_5of99_is_verified_by_the_rules() -> None:
    t = Table(ruleset="5of99")  # a real table: four hidden cards each, known when shown
    plays = ((99, 99), (0, 98), (96, 96), (1, 97), (95, 95), (2, 94))  # Ann, Ben, Ann, ...
    for card, square in plays:
        t.referee.announce_play(card)
        t.put(square)
        t.settle()
    assert len(t.stored) == 6 and t.game.state.to_move == "Ann"
    with pytest.raises(RefereeRefusal):
        t.referee.announce_dead_hand((97, 98))  # Ann holds one card, not two
    with pytest.raises(RefereeRefusal):
        t.referee.announce_dead_hand((10,))  # square 10 is free: not dead
    t.referee.announce_dead_hand((97,))
    assert t.stored[-1] == {"by": "Ann", "do": "reveal-dead-hand", "cards": [97]}
    assert any(isinstance(e, rules.PlayerOut) for e in t.events)
    outcome = t.game.state.outcome
    assert outcome is not None and outcome.winners == ("Ben",) and t.phase is Phase.OVER


def test_unsure_holes_are_waited_for_not_guessed() -> None:
    from hardware.board_source import BoardReading

    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.referee.on_board_event(BoardReading(frozenset({57}), 0.0, 900, unsure=frozenset({57})))
    t.settle()
    assert len(t.stored) == 2 and t.phase is Phase.PLACE_PEG  # a hand over the camera: wait
    t.referee.on_board_event(BoardReading(frozenset({57}), 1.0, 901))
    t.settle()
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 30, "square": 57}
