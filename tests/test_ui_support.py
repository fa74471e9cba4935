"""The UI tests' frame stepping (tests/ui_support.py): frames are not paced, waits still get their time.

Kivy's clock paced each frame to 1/60 s, and half of a UI test's time was that sleep. The helpers
now step frames at once; these tests hold them to what the UI tests rely on.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui_support import PACED_FPS, frames, frames_until, steps

pytestmark = pytest.mark.ui


def test_frames_do_not_sleep_until_the_next_sixtieth_of_a_second(
        ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import kivy.clock

    sleeps: list[float] = []
    real = kivy.clock._usleep
    monkeypatch.setattr(kivy.clock, "_usleep", lambda us, obj: sleeps.append(us) or real(us, obj))
    frames(30)
    assert sleeps == []


def test_frames_until_gives_a_clock_timeout_its_time(ui: Any) -> None:
    """A callback 0.5 s away on Kivy's clock is waited for with a limit of 60 frames (1 s at
    60 fps), though 60 unpaced frames take far less than 0.5 s."""
    from kivy.clock import Clock

    fired: list[float] = []
    Clock.schedule_once(fired.append, 0.5)
    frames_until(lambda: bool(fired), limit=60)
    assert fired


def test_frames_until_fails_after_its_frames_and_their_time(ui: Any) -> None:
    import time

    asked = 0

    def never() -> bool:
        nonlocal asked
        asked += 1
        return False

    start = time.monotonic()
    with pytest.raises(AssertionError, match="condition not met after"):
        frames_until(never, limit=12)
    assert asked > 12  # at least the limit's frames ran, each asked again
    assert time.monotonic() - start >= 12 / PACED_FPS


def test_steps_run_the_clock_and_layout_but_leave_the_drawing_to_the_next_frame(ui: Any) -> None:
    from kivy.clock import Clock
    from kivy.uix.label import Label

    label = ui.show(Label(text="one"))
    drawn: list[object] = []

    def count(*_: object) -> None:
        drawn.append(None)

    ui.window.bind(on_draw=count)
    try:
        fired: list[float] = []
        Clock.schedule_once(fired.append, 0)
        label.text = "two"
        steps(3)
        assert fired and label.texture_size[0] > 0 and drawn == []
        frames(1)
        assert len(drawn) == 1
    finally:
        ui.window.unbind(on_draw=count)
