"""The teach-the-board logic: a simulated player follows the prompts on a scrambled board."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.teach import Step, TeachSession, default_teach_map
from hardware.wiring import WiringMap


def follow(
    session: TeachSession, true_input: dict[int, int], sentinels: frozenset[int] = frozenset()
) -> None:
    """Put a peg in each named hole, then lift it, until the round is done."""
    session.feed(sentinels)
    session.begin()
    guard = 0
    while (status := session.status()).step is not Step.DONE:
        assert status.step is Step.PLACE, status
        assert status.hole is not None
        status = session.feed(sentinels | {true_input[status.hole]})
        assert status.step is Step.LIFT and status.learned == true_input[status.hole]
        session.feed(sentinels)
        guard += 1
        assert guard <= 200


@settings(max_examples=25)
@given(st.permutations(list(range(102))))
def test_teaching_every_hole_learns_the_real_wiring(order: list[int]) -> None:
    truth = dict(enumerate(order[:100]))
    session = TeachSession(WiringMap.empty(104))
    follow(session, truth, sentinels=frozenset({102}))  # a sentinel reads a magnet all the time
    assert session.map == WiringMap(104, tuple(order[:100]))
    assert session.ignored_at_start == {102}
    assert session.status().done == 100 == session.status().total


def test_known_holes_are_skipped() -> None:
    known = WiringMap.identity(104).with_hole(5, None).with_hole(77, None)
    session = TeachSession(known)
    assert session.status().total == 2
    follow(session, {5: 5, 77: 101})
    assert session.map.input_of(77) == 101 and session.map.complete()


def test_two_pegs_at_once_are_not_learned() -> None:
    session = TeachSession(WiringMap.empty(104))
    session.begin()
    status = session.feed({3, 4})
    assert status.step is Step.PLACE and status.sensed == (3, 4)
    status = session.feed({4})
    assert status.step is Step.LIFT and session.map.input_of(0) == 4


def test_an_input_already_taken_asks_before_moving_it() -> None:
    session = TeachSession(WiringMap.identity(104), holes=[10])
    session.begin()
    status = session.feed({20})  # hole 10 named, but input 20 is hole 20's
    assert status.step is Step.CONFLICT and status.other_hole == 20 and status.hole == 10
    assert session.map.input_of(10) == 10  # nothing changed yet
    session.feed(set())  # the player re-seats the peg...
    assert session.status().step is Step.PLACE
    session.feed({20})
    session.confirm_conflict()  # ...no: it really is in hole 10
    assert session.map.input_of(10) == 20 and session.map.input_of(20) is None
    assert session.status().step is Step.LIFT
    session.feed(set())
    status = session.status()
    assert status.step is Step.PLACE and status.hole == 20  # hole 20 is taught again
    session.feed({10})
    session.feed(set())
    assert session.status().step is Step.DONE
    assert session.map.input_of(20) == 10


def test_skip_back_and_reteach() -> None:
    session = TeachSession(WiringMap.empty(104), holes=[0, 1, 2])
    session.begin()
    session.feed({50})
    session.feed(set())
    session.skip()  # hole 1 left unknown
    assert session.status().hole == 2
    session.back()  # back to hole 1
    assert session.status().hole == 1
    session.back()  # and hole 0 is forgotten to be taught again
    assert session.status().hole == 0 and session.map.input_of(0) is None
    session.feed({51})
    session.feed(set())
    session.skip()
    session.feed({52})
    session.feed(set())
    assert session.status().step is Step.DONE
    assert session.map.hole_inputs[:3] == (51, None, 52)
    session.reteach(2)
    session.feed({53})
    session.feed(set())
    assert session.status().step is Step.DONE and session.map.input_of(2) == 53


def test_check_mode_shows_holes_and_unknown_inputs() -> None:
    session = TeachSession(WiringMap.identity(104).with_hole(9, None), holes=[])
    session.begin()
    assert session.status().step is Step.DONE
    session.check_mode()
    session.feed({3, 44, 9})
    assert session.status().step is Step.CHECK
    assert session.checked_holes() == {3, 44}
    assert session.unknown_sensed() == (9,)
    session.leave_check_mode()
    assert session.status().step is Step.DONE


def test_a_saved_map_for_another_board_is_not_reused() -> None:
    assert default_teach_map(104, WiringMap.identity(100)) == WiringMap.empty(104)
    saved = WiringMap.identity(104)
    assert default_teach_map(104, saved) is saved
    assert TeachSession.everything(saved).status().total == 100
