"""The BoardSource seam: readings validate, listeners are isolated, the queue coalesces."""

from __future__ import annotations

import threading

import pytest

from hardware.board_source import (
    BoardReading,
    BoardSource,
    HealthState,
    ReadingQueue,
    SourceHealth,
)


def test_reading_rejects_bad_holes_and_stray_colours() -> None:
    with pytest.raises(ValueError, match="out of range"):
        BoardReading(frozenset({100}), 0.0)
    with pytest.raises(ValueError, match="without a peg"):
        BoardReading(frozenset({1}), 0.0, colours={2: "red"})
    a = BoardReading(frozenset({1}), 0.0, 1, {1: "red"})
    assert a.same_board(BoardReading(frozenset({1}), 5.0, 9, {1: "red"}))
    assert not a.same_board(BoardReading(frozenset({1}), 0.0, 1, {1: "blue"}))


class Pusher(BoardSource):
    def push(self, holes: set[int]) -> None:
        self._publish(BoardReading(frozenset(holes), 0.0, self._next_sequence()))


def test_listeners_get_health_and_readings_and_a_faulty_one_is_isolated() -> None:
    source = Pusher()
    seen: list[object] = []

    def broken(_: object) -> None:
        raise RuntimeError("listener bug")

    source.subscribe(broken)
    unsubscribe = source.subscribe(seen.append)
    with source:
        source.push({3})
        source.push({3, 4})
    assert [type(e).__name__ for e in seen] == [
        "SourceHealth", "BoardReading", "BoardReading", "SourceHealth"
    ]
    assert seen[0] == SourceHealth(HealthState.STARTING)
    assert [e.sequence for e in seen if isinstance(e, BoardReading)] == [1, 2]
    unsubscribe()
    source.start()
    source.push({5})
    assert len(seen) == 4 and source.last_reading is not None
    assert source.last_reading.occupied == {5}


def test_queue_coalesces_readings_but_keeps_health_order_across_threads() -> None:
    q = ReadingQueue()
    events = [BoardReading(frozenset({i}), float(i), i) for i in range(50)]
    health = SourceHealth(HealthState.LOST, "cable")
    t = threading.Thread(target=lambda: [q.put(e) for e in [*events[:10], health, *events[10:]]])
    t.start()
    t.join()
    drained = q.drain()
    assert drained == [events[9], health, events[49]]
    assert q.drain() == []


def test_full_queue_drops_the_oldest() -> None:
    q = ReadingQueue(maxsize=2)
    h = [SourceHealth(HealthState.LOST, str(i)) for i in range(3)]
    for e in h:
        q.put(e)
    assert q.drain() == h[1:]
