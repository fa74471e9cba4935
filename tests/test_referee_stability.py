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
def test_every_reported_board_held_still_for_the_window(sequence: list[tuple[float, frozenset[int]]]) -> None:
    now = [0.0]
    window = StabilityWindow(0.4, lambda: now[0])
    changes: list[tuple[float, frozenset[int]]] = []  # when each board appeared
    reported: list[tuple[float, frozenset[int]]] = []
    known_at_report: list[int] = []
    for n, (dt, holes) in enumerate(sequence):
        if not changes or changes[-1][1] != holes:
            changes.append((now[0], holes))
        window.feed(BoardReading(holes, now[0], n))
        now[0] += dt
        if (r := window.poll()) is not None:
            reported.append((now[0], r.occupied))
            known_at_report.append(len(changes))
    for (when, holes), known in zip(reported, known_at_report, strict=True):
        since, latest = changes[known - 1]
        assert latest == holes and when - since >= 0.4
    now[0] += 1.0
    if (r := window.poll()) is not None:
        reported.append((now[0], r.occupied))
    if changes:  # the last board, once held long enough, is always the last reported
        assert reported and reported[-1][1] == changes[-1][1]
