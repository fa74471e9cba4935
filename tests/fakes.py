"""Small stand-ins shared by the tests."""

from __future__ import annotations


class FakeClock:
    """A monotonic clock the test moves by hand (``clock.now += 0.5``): stability windows, idle
    timers and rate limits are stepped, never slept through."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now
