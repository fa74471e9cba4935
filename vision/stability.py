"""Hold a reading back until the board has been still and read the same for several frames.

A hand reaching over the board changes the picture from frame to frame; a peg being pushed in
is half-seen for a moment. Neither may ever reach the referee as a play. The rule is simple and
strict: a reading is released only after ``still_frames`` consecutive frames without movement
that all classify every hole identically (unsure holes included), and only when it differs from
the reading released before.
"""

from __future__ import annotations

from collections.abc import Sequence


class Stabiliser:
    def __init__(self, still_frames: int = 4) -> None:
        if still_frames < 1:
            raise ValueError(f"still_frames must be at least 1, got {still_frames}")
        self.still_frames = still_frames
        self._candidate: tuple[str, ...] | None = None
        self._count = 0
        self.released: tuple[str, ...] | None = None

    @property
    def settled(self) -> bool:
        """True while the last released reading is what the board still shows."""
        return self._candidate is not None and self._candidate == self.released

    def update(self, letters: Sequence[str], moving: bool) -> tuple[str, ...] | None:
        """Feed one frame; returns a reading to release, or None."""
        if moving:
            self._candidate, self._count = None, 0
            return None
        current = tuple(letters)
        if current == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = current, 1
        if self._count >= self.still_frames and current != self.released:
            self.released = current
            return current
        return None
