"""The stability window reports a board only after it has held still for the whole window."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.referee.stability import StabilityWindow
from hardware.board_source import BoardReading


def test_reports_once_after_the_window_and_again_after_forget() -> None:
    now = [0.0]
    window = StabilityWindow(0.4, lambda: now[0])
    window.feed(BoardReading(frozenset({1}), 0.0, 1))
    assert window.poll() is None and window.settling
    now[0] = 0.39
    assert window.poll() is None
    now[0] = 0.4
    reported = window.poll()
    assert reported is not None and reported.occupied == {1}
    assert window.poll() is None and not window.settling
    window.feed(BoardReading(frozenset({1}), 0.5, 2))  # same board again: not news
    now[0] = 2.0
    assert window.poll() is None
    window.forget()
    assert window.poll() is not None


steps = st.lists(st.tuples(st.floats(0, 0.6), st.frozensets(st.integers(0, 3), max_size=2)), max_size=40)


@given(steps)
def test_every_hole_reported_sure_held_still_for_the_window(
    sequence: list[tuple[float, frozenset[int]]],
) -> None:
    """Per hole: a hole the window reports as empty or pegged has been so for the whole window."""
    now = [0.0]
    window = StabilityWindow(0.4, lambda: now[0])
    history: list[tuple[float, frozenset[int]]] = []  # when each board appeared
    reports: list[tuple[float, BoardReading, list[tuple[float, frozenset[int]]]]] = []
    for n, (dt, holes) in enumerate(sequence):
        if not history or history[-1][1] != holes:
            history.append((now[0], holes))
        window.feed(BoardReading(holes, now[0], n))
        now[0] += dt
        if (r := window.poll()) is not None:
            reports.append((now[0], r, list(history)))
    for when, report, seen in reports:
        for hole in range(4):
            if hole in report.unsure:
                continue
            state = hole in report.occupied
            assert (hole in seen[-1][1]) == state, (hole, when, report)
            # the last time the hole was in another state (or the first reading) is a window ago
            changed = seen[0][0]
            for at, holes in seen:
                if (hole in holes) != state:
                    changed = None
                elif changed is None:
                    changed = at
            assert changed is not None and when - changed >= 0.4 - 1e-9, (hole, when, seen)
    now[0] += 1.0
    if (r := window.poll()) is not None:
        reports.append((now[0], r, list(history)))
    if history:  # the last board, once held long enough, is always the last reported, whole
        assert reports and reports[-1][1].occupied == history[-1][1] and not reports[-1][1].unsure


def test_a_peg_that_settled_is_reported_while_the_next_one_still_bounces() -> None:
    now = [0.0]
    window = StabilityWindow(0.4, lambda: now[0])
    window.feed(BoardReading(frozenset(), 0.0, 1))
    now[0] = 0.5
    assert window.poll() is not None
    window.feed(BoardReading(frozenset({90}), now[0], 2))  # Ann's peg
    now[0] = 0.93
    window.feed(BoardReading(frozenset({90, 97}), now[0], 3))  # Ben's, 0.43 s later, bouncing
    report = window.poll()
    assert report is not None and report.occupied == {90} and report.unsure == {97}
    assert window.settling
    now[0] = 1.2
    assert window.poll() is None  # nothing new about the settled holes
    now[0] = 1.34
    report = window.poll()
    assert report is not None and report.occupied == {90, 97} and not report.unsure
    assert not window.settling
