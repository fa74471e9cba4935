"""The staff screen of exhibitor mode (issue 15), headless: right PIN, wrong PIN, the rate limit on
a fake clock, digits never rendered, the counts, export, and the ways out (and relocking)."""

from __future__ import annotations

import csv
import time
from typing import Any

import pytest

from app.exhibit.counts import DemoCounts
from app.exhibit.lock import StaffLock
from tests.screen_catalog import FakeClock, app_root, go
from tests.ui_support import UI, find, frames, frames_until, tap, walk

pytestmark = pytest.mark.ui
PIN = "4711"


class Staff:
    """The family's app with a staff screen added, as the exhibit controller adds it."""

    def __init__(self, ui: UI, pin: str = PIN) -> None:
        from app.ui.exhibit.staff import StaffScreen

        self.root = app_root(ui)
        self.ctx = self.root.app.ctx
        self.clock = FakeClock()
        self.lock = StaffLock(pin, self.clock)
        self.counts = DemoCounts(self.ctx.store, "Spiel")
        self.calls: list[str] = []
        self.screen = StaffScreen(self.ctx, self.lock, self.counts, on_back=lambda: self.calls.append("back"),
                                  on_leave_exhibit=lambda: self.calls.append("leave"))
        self.root.add_widget(self.screen)
        go(self.root, self.screen.name)

    def enter(self, digits: str) -> None:
        """Tap the pad's keys, then Open, as a finger would."""
        for digit in digits:
            tap(self.key(digit))
        tap(self.key("ok"))
        frames(1)

    def key(self, key: str) -> Any:
        return next(w for w in walk(self.screen) if getattr(w, "pin_key", None) == key)

    def texts(self) -> list[str]:
        return [w.text for w in walk(self.root.current_screen) if isinstance(getattr(w, "text", None), str)]


def test_the_right_pin_opens_counts_and_back_relocks(ui: UI) -> None:
    staff = Staff(ui)
    for outcome in ("finished", "idle"):
        demo = staff.counts.started("board99")
        staff.counts.finished(demo) if outcome == "finished" else staff.counts.stopped(demo, "idle")
    assert not staff.screen.unlocked
    staff.enter(PIN)
    assert staff.screen.unlocked
    shown = staff.texts()
    assert "Demos started" in shown and "Spiel" in shown and shown.count("2") == 2 and shown.count("1") == 2
    ui.screenshot("exhibit-staff-unlocked")
    tap(find(staff.screen, text="Back to the demo"))
    assert staff.calls == ["back"] and not staff.screen.unlocked
    assert any(getattr(w, "pin_key", None) == "ok" for w in walk(staff.screen))  # the pad again


def test_a_wrong_pin_says_so_and_stays_locked(ui: UI) -> None:
    staff = Staff(ui)
    staff.enter("1234")
    assert not staff.screen.unlocked and "Wrong PIN." in staff.texts()
    assert staff.screen.entry == ""  # typed again from nothing
    tap(staff.key("5"))
    assert "Wrong PIN." in staff.texts()  # stays until the next try: it was about that one


def test_too_many_tries_wait_with_a_countdown(ui: UI) -> None:
    staff = Staff(ui)
    for entry in ("0000", "1111", "2222"):
        staff.enter(entry)
    assert "Too many tries: wait 30 s." in staff.texts()
    staff.enter(PIN)  # the right PIN during the wait: refused, not even compared
    assert not staff.screen.unlocked and "Too many tries: wait 30 s." in staff.texts()
    staff.clock.now += 20.5
    staff.screen._tick()
    assert "Too many tries: wait 10 s." in staff.texts()
    ui.screenshot("exhibit-staff-wait")
    staff.clock.now += 10
    staff.screen._tick()
    assert not any("Too many" in text for text in staff.texts())
    staff.enter(PIN)
    assert staff.screen.unlocked


def test_the_countdown_runs_on_kivys_clock(ui: UI) -> None:
    staff = Staff(ui)
    for entry in ("0000", "1111", "2222"):
        staff.enter(entry)
    staff.clock.now += 30
    frames_until(lambda: not any("Too many" in text for text in staff.texts()), limit=400)
    assert staff.screen._countdown is None


def test_typed_digits_are_never_rendered(ui: UI) -> None:
    staff = Staff(ui)
    for digit in "8642":
        tap(staff.key(digit))
    frames(2)
    assert staff.screen.entry == "8642"
    keys = {id(w) for w in walk(staff.screen) if getattr(w, "pin_key", None)}
    others = [w.text for w in walk(staff.screen)
              if isinstance(getattr(w, "text", None), str) and id(w) not in keys]
    assert "\u2022 \u2022 \u2022 \u2022" in others
    assert not any(ch.isdigit() for text in others for ch in text), others
    tap(staff.key("del"))
    assert staff.screen.entry == "864" and "\u2022 \u2022 \u2022" in staff.texts()


def test_no_pin_configured_opens_for_nothing(ui: UI) -> None:
    staff = Staff(ui, pin="")
    for entry in ("", "0000", PIN):
        staff.enter(entry)
        assert not staff.screen.unlocked
    assert any("No staff PIN" in text for text in staff.texts())


def test_export_writes_csv_into_the_exports_folder_and_says_where(ui: UI) -> None:
    from app.paths import data_dir

    staff = Staff(ui)
    staff.counts.finished(staff.counts.started("board99"))
    staff.enter(PIN)
    tap(find(staff.screen, text="Export CSV"))
    files = list((data_dir() / "exports").glob("exhibit-*.csv"))
    assert len(files) == 1
    rows = list(csv.reader(files[0].read_text(encoding="utf-8").splitlines()))
    assert rows[0][0] == "id" and rows[1][6] == "finished"
    assert any(f"Folder: {data_dir() / 'exports'}" in text for text in staff.texts())


def test_settings_and_history_come_back_unlocked_anywhere_else_relocks(ui: UI) -> None:
    staff = Staff(ui)
    staff.enter(PIN)
    tap(find(staff.screen, text="Settings"))
    assert staff.root.current == "settings"
    tap(find(staff.root.current_screen, text="Back"))  # the family's Back goes "home" ...
    frames(2)
    assert staff.root.current == staff.screen.name and staff.screen.unlocked  # ... and lands here
    tap(find(staff.screen, text="History"))
    assert staff.root.current == "history"
    tap(find(staff.root.current_screen, text="Back"))
    frames(2)
    assert staff.root.current == staff.screen.name and staff.screen.unlocked
    staff.root.current = "board99-setup"  # e.g. the controller showing something else
    frames(1)
    assert not staff.screen.unlocked


def test_leave_and_quit_ask_first(ui: UI, monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.app import App

    staff = Staff(ui)
    staff.enter(PIN)
    tap(find(staff.screen, text="Leave exhibitor mode"))
    frames(1)
    assert staff.calls == []  # a question first
    tap(find(ui.window, text="No"))
    tap(find(staff.screen, text="Leave exhibitor mode"))
    frames(1)
    dialog_yes = [w for w in walk(ui.window) if getattr(w, "text", None) == "Leave exhibitor mode"
                  and w not in list(walk(staff.screen))]
    tap(dialog_yes[0])
    assert staff.calls == ["leave"] and not staff.screen.unlocked
    stopped: list[bool] = []
    monkeypatch.setattr(App, "get_running_app", staticmethod(lambda: type("A", (), {
        "stop": lambda self: stopped.append(True)})()))
    staff.enter(PIN)
    tap(find(staff.screen, text="Quit"))
    frames(1)
    yes = [w for w in walk(ui.window)
           if getattr(w, "text", None) == "Quit" and w not in list(walk(staff.screen))]
    tap(yes[0])
    assert stopped == [True] and not staff.screen.unlocked


def test_it_relocks_after_nobody_touched_it(ui: UI) -> None:
    staff = Staff(ui)
    staff.enter(PIN)
    assert staff.screen.unlocked and staff.screen.relock_seconds == 120
    staff.screen.relock_seconds = 0.2  # from the next touch on
    tap(find(staff.screen, text="Staff"))  # a touch anywhere (the title here) pushes the relock back
    assert staff.screen.unlocked
    time.sleep(0.3)
    frames_until(lambda: not staff.screen.unlocked)
    assert staff.calls == ["back"]
