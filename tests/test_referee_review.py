"""Review findings for the referee: each test failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.board99.game import TableSetup
from app.referee import ActionUndone, Phase, RefereeRefusal
from hardware.board_source import BoardReading
from rules import board99 as rules
from tests.test_referee import Table


def illegal_play_waiting_for_removal() -> Table:
    t = Table()
    t.both_draw()
    t.referee.announce_play(60)
    t.put(57)
    t.settle()
    assert t.phase is Phase.REMOVE_PEG
    return t


def test_a_hand_over_the_penalised_peg_is_not_taken_for_its_removal() -> None:
    t = illegal_play_waiting_for_removal()
    # the camera cannot see hole 57 (a hand over it): the peg may still be there
    t.referee.on_board_event(BoardReading(frozenset(), 0.0, 900, unsure=frozenset({57})))
    t.settle()
    assert len(t.stored) == 2 and t.phase is Phase.REMOVE_PEG and not t.offences()
    t.referee.on_board_event(BoardReading(frozenset(), 1.0, 901))  # the hand is gone, so is the peg
    t.settle()
    assert t.offences() == ["illegal-play"] and len(t.stored) == 3


def test_a_penalised_peg_moved_to_another_square_is_named_as_the_peg_to_take_out() -> None:
    t = illegal_play_waiting_for_removal()
    t.remove(57)
    t.put(70)  # the player "corrects" the illegal play by moving the peg
    t.settle()
    assert t.phase is Phase.FIX_BOARD and t.referee.prompt.holes == (70,)
    assert "70" in t.referee.prompt.text and len(t.stored) == 2
    t.put(57)
    t.settle()  # both must come out: not "all but the one that was played"
    assert set(t.referee.prompt.holes) == {57, 70} and "all but" not in t.referee.prompt.text
    t.remove(57, 70)
    t.settle()
    assert t.offences() == ["illegal-play"] and t.phase is Phase.ANNOUNCE


def draw_then_discard(view: Any, level: str, rng: Any) -> Any:
    return rules.Draw(view.player) if len(view.hand) < 5 else rules.Discard(view.player, view.hand[0])


def test_undo_in_a_computer_game_takes_back_the_persons_action_not_only_the_computers_reply() -> None:
    t = Table(table=TableSetup(colours={"Ann": "red", "Ben": "blue"}, computers={"Ben": "basic"}),
              chooser=draw_then_discard, deck=tuple(range(100)))
    t.referee.announce_draw()  # Ann draws; the computer Ben draws at once
    assert t.stored == [{"by": "Ann", "do": "draw"}, {"by": "Ben", "do": "draw"}]
    preview = t.referee.undo_preview()
    assert preview is not None and "Ann drew" in preview and "Ben drew" in preview
    assert t.referee.undo_target() == rules.Draw("Ann")  # what the Undo button names
    assert t.referee.undo() == rules.Draw("Ann")
    assert t.stored == [] and t.game.state.to_move == "Ann"
    assert [e.index for e in t.events if isinstance(e, ActionUndone)] == [1, 0]
    assert t.referee.undo_preview() is None


def test_undo_has_nothing_to_take_back_when_only_a_computer_has_moved() -> None:
    t = Table(table=TableSetup(colours={"Ann": "red", "Ben": "blue"}, computers={"Ben": "basic"}),
              chooser=draw_then_discard, deck=tuple(range(100)), first="Ben")
    assert t.stored == [{"by": "Ben", "do": "draw"}]  # the computer moved first, at once
    assert t.referee.undo_preview() is None and t.referee.undo_target() is None
    assert t.referee.undo() is None
    assert len(t.stored) == 1


def test_no_one_can_draw_discard_or_explain_a_peg_for_a_computer() -> None:
    colours = {"Ann": "red", "Ben": "blue", "Cat": "green"}
    t = Table(players=("Ann", "Ben", "Cat"), table=TableSetup(colours=colours, computers={"Ben": "basic"}),
              chooser=draw_then_discard, deck=tuple(range(100)))
    for announce in (lambda: t.referee.announce_draw(by="Ben"),
                     lambda: t.referee.announce_discard(5, by="Ben")):
        with pytest.raises(RefereeRefusal, match="computer"):
            announce()  # its cards are virtual: a person's slip must not cost it a penalty
    t.put(57)
    t.settle()
    assert t.phase is Phase.WHO_PLAYED
    with pytest.raises(RefereeRefusal, match="computer"):
        t.referee.identify_unannounced("Ben", 3)
    assert t.stored == [] and not t.offences() and t.phase is Phase.WHO_PLAYED


def test_5of99_has_no_discard_so_the_turn_prompt_does_not_offer_one() -> None:
    t = Table(ruleset="5of99")
    assert t.phase is Phase.ANNOUNCE and "Ann" in t.referee.prompt.text
    assert "DISCARD" not in t.referee.prompt.text and "DRAW" in t.referee.prompt.text
    assert "DISCARD" in Table().referee.prompt.text  # classic still offers it
