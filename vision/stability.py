"""Hold a reading back until the board has been still and read alike for several frames.

A hand reaching over the board changes the picture from frame to frame; a peg being pushed in
is half-seen for a moment. Neither may ever reach the referee as a play. The rule is strict: a
reading is released only after ``still_frames`` consecutive frames without movement in which no
hole was read as two different things (empty and red, or red and blue), and only when it differs
from the reading released before.

A hole that flickers between a reading and unsure (a peg under glare, a colour on the edge of
its calibrated range) does not stop the board from settling: it is released as unsure. Otherwise
one doubtful hole could hold back every play for as long as the light stays as it is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from vision.profile import UNSURE


class Stabiliser:
    def __init__(self, still_frames: int = 4) -> None:
        if still_frames < 1:
            raise ValueError(f"still_frames must be at least 1, got {still_frames}")
        self.still_frames = still_frames
        self._window: deque[tuple[str, ...]] = deque(maxlen=still_frames)
        self.released: tuple[str, ...] | None = None

    def update(self, letters: Sequence[str], moving: bool) -> tuple[str, ...] | None:
        """Feed one frame; returns a reading to release, or None."""
        if moving:
            self._window.clear()
            return None
        current = tuple(letters)
        if self._window and len(self._window[-1]) != len(current):
            self._window.clear()
        self._window.append(current)
        if len(self._window) < self.still_frames:
            return None
        merged = merge(self._window)
        if merged is None or merged == self.released:
            return None
        self.released = merged
        return merged


def merge(frames: Sequence[tuple[str, ...]]) -> tuple[str, ...] | None:
    """One reading from frames that agree hole by hole (unsure where a hole was ever unsure);
    None when some hole was read as two different things."""
    merged = []
    for seen in zip(*frames, strict=True):
        values = set(seen)
        if len(values) == 1:
            merged.append(seen[0])
            continue
        values.discard(UNSURE)
        if len(values) > 1:
            return None
        merged.append(UNSURE)
    return tuple(merged)
