"""The staff screen of exhibitor mode (issue 15): a PIN pad, then the counts and every way out.

Locked, it shows a PIN pad: big keys, the entered digits as dots only (a visitor looking over a
shoulder learns the length at most), "Wrong PIN." and, after too many tries, a countdown from the
:class:`~app.exhibit.lock.StaffLock`. Unlocked: today's and this event's demo counts, Export CSV (to
the data directory's exports folder, like the history's export), the family's Settings and History,
Leave exhibitor mode, Quit and Back to the demo.

It relocks when it is left for anything but Settings or History, and after :data:`RELOCK_SECONDS`
without a touch anywhere (a member of staff who walks away leaves no open table). While staff are in
Settings or History, their "Back" (which goes to the home screen) is turned back to this screen, so
the family's home screen is never reached from exhibitor mode except through "Leave exhibitor mode".
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from app.exhibit.counts import DemoCounts
from app.exhibit.lock import StaffLock
from app.i18n import tr
from app.paths import data_dir
from app.ui import theme
from app.ui.context import AppContext
from app.ui.widgets import (
    ACCENT,
    BIG_FONT,
    READABLE,
    TOUCH,
    WARNING,
    Background,
    BigButton,
    ConfirmBox,
    WrapLabel,
)

log = logging.getLogger(__name__)
NAME = "exhibit_staff"
MAX_DIGITS = 8
DOT = "\u2022"  # a bullet: Roboto has it, and it shows how many digits, never which
RELOCK_SECONDS = 120.0
STAFF_PAGES = ("settings", "history")  # the family's screens staff may open without relocking


class StaffScreen(Screen):
    """See the module docstring. ``on_back``: to the attract loop; ``on_leave_exhibit``: exhibitor
    mode off for this run (the controller's job)."""

    def __init__(self, ctx: AppContext, lock: StaffLock, counts: DemoCounts, on_back: Callable[[], None],
                 on_leave_exhibit: Callable[[], None], **kwargs: Any) -> None:
        kwargs.setdefault("name", NAME)
        super().__init__(**kwargs)
        self.ctx, self.lock, self.counts = ctx, lock, counts
        self.on_back, self.on_leave_exhibit = on_back, on_leave_exhibit
        self.unlocked = False
        self.relock_seconds = RELOCK_SECONDS
        self.entry = ""  # the digits typed so far: never put in any widget's text
        self.message = ""
        self.export_message = ""
        self._countdown: Any = None
        self._relock: Any = None
        self._visiting = False  # in Settings or History, opened from here
        self.box = BoxLayout(orientation="vertical", padding=theme.PAD, spacing=theme.GAP)
        Background.paint(self.box)
        self.add_widget(self.box)
        self.refresh()

    # -- locked: the PIN pad ------------------------------------------------------------------
    def refresh(self) -> None:
        self.box.clear_widgets()
        if self.unlocked:
            self._build_unlocked()
        else:
            self._build_locked()

    def _build_locked(self) -> None:
        box = self.box
        box.add_widget(WrapLabel(tr("Staff: enter the PIN"), font_size=sp(theme.TITLE), bold=True))
        middle = BoxLayout(spacing=theme.GAP * 2)
        left = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.dots = Label(text=self._dots(), font_size=BIG_FONT * 1.4, size_hint_y=None, height=72)
        left.add_widget(self.dots)
        self.message_label = WrapLabel(self._message_text(), font_size=READABLE, color=theme.PROBLEM_TEXT)
        left.add_widget(self.message_label)
        if not self.lock.has_pin:
            left.add_widget(WrapLabel(tr("Set [exhibit] pin in the config file and restart the table."),
                                      font_size=READABLE))
            detail = WrapLabel(self._config_problem(), font_size=sp(theme.SMALL))
            detail.audit_skip = {"english"}  # the config's own line: English, as in the journal
            left.add_widget(detail)
        left.add_widget(Label())  # pushes the texts up
        middle.add_widget(left)
        keys = GridLayout(cols=3, spacing=theme.GAP, size_hint_x=None, width=3 * 96 + 2 * theme.GAP)
        self.keys: dict[str, BigButton] = {}
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "del", "0", "ok"):
            label = {"del": tr("Delete"), "ok": tr("Open")}.get(key, key)
            button = BigButton(label, on_press=lambda k=key: self.press(k), size_hint_y=1, height=TOUCH,
                               font_size=BIG_FONT if key.isdigit() else sp(theme.FONT))
            button.pin_key = key
            if key == "ok":
                button.background_color = ACCENT
            keys.add_widget(button)
            self.keys[key] = button
        middle.add_widget(keys)
        box.add_widget(middle)
        box.add_widget(BigButton(tr("Back to the demo"), on_press=self.back_to_demo,
                                 height=theme.BUTTON_HEIGHT))
        self._start_countdown()

    def _dots(self) -> str:
        return " ".join(DOT * len(self.entry)) if self.entry else ""

    def _message_text(self) -> str:
        wait = self.lock.wait_seconds()
        if wait > 0:
            return tr("Too many tries: wait {seconds} s.", seconds=math.ceil(wait))
        return tr(self.message) if self.message else ""

    def _config_problem(self) -> str:
        """The config's message on why no PIN opens this table ("" when there is none)."""
        settings = self.ctx.extras.get("exhibit", {}).get("settings")
        return str(getattr(settings, "problem", "") or "")

    def press(self, key: str) -> None:
        """One key of the pad, as a finger presses it (tests call this too)."""
        if self.unlocked:
            return
        if self.lock.wait_seconds() > 0:  # nothing is typed or tried while the wait runs
            self.entry = ""
        elif key == "del":
            self.entry = self.entry[:-1]
            self.message = ""
        elif key == "ok":
            self._try()
            return
        elif key.isdigit() and len(self.entry) < MAX_DIGITS:
            self.entry += key  # "Wrong PIN." stays until the next try: it was about that one
        self._show()

    def type(self, keys: str) -> None:
        """Press digits, then ``ok`` (tests and the screen catalog)."""
        for key in keys:
            self.press(key)

    def _try(self) -> None:
        entry, self.entry = self.entry, ""
        result = self.lock.attempt(entry)
        if result.ok:
            self.unlock()
            return
        self.message = result.message
        self._show()
        self._start_countdown()

    def _show(self) -> None:
        if self.unlocked:
            return
        self.dots.text = self._dots()
        self.message_label.text = self._message_text()

    def _start_countdown(self) -> None:
        if self._countdown is None and self.lock.wait_seconds() > 0:
            self._countdown = Clock.schedule_interval(self._tick, 0.5)

    def _tick(self, _dt: float = 0.0) -> bool:
        """Count the wait down on screen; at zero the pad takes a PIN again."""
        if self.lock.wait_seconds() <= 0:
            self.message = ""
            self._countdown = None
            self._show()
            return False
        self._show()
        return True

    # -- unlocked: counts and the ways out -------------------------------------------------
    def unlock(self) -> None:
        self.unlocked = True
        self.message = ""
        if self._countdown is not None:
            self._countdown.cancel()
            self._countdown = None
        Window.bind(on_touch_down=self._touched)
        self._touched()
        self.refresh()

    def lock_again(self) -> None:
        """Back to the PIN pad: nothing typed, nothing open."""
        was = self.unlocked
        self.unlocked = False
        self.entry = ""
        self.export_message = ""
        self._visiting = False
        self._stop_relock()
        self.ctx.manager.unbind(current=self._manager_moved)
        if was:
            self.refresh()

    def _build_unlocked(self) -> None:
        box = self.box
        box.add_widget(WrapLabel(tr("Staff"), font_size=sp(theme.TITLE), bold=True))
        summary = self.counts.summary()
        table = GridLayout(cols=3, spacing=(theme.GAP * 2, 2), size_hint_y=None, height=3 * 34)
        event = summary.event or tr("this event")
        today = tr("Today ({day})", day=summary.day)
        cells = ("", tr("Demos started"), tr("Finished"), today, str(summary.today_started),
                 str(summary.today_finished), event, str(summary.event_started), str(summary.event_finished))
        for text in cells:
            table.add_widget(Label(text=text, font_size=READABLE, shorten=True))
        box.add_widget(table)
        self.export_label = WrapLabel(self.export_message, font_size=READABLE, color=theme.GOOD_TEXT)
        box.add_widget(self.export_label)
        box.add_widget(Label())  # room between the counts and the buttons
        buttons = GridLayout(cols=3, spacing=theme.GAP, size_hint_y=None,
                             height=2 * theme.BUTTON_HEIGHT + theme.GAP)
        for text, action, colour in (
            (tr("Export CSV"), self.export, theme.BUTTON),
            (tr("Settings"), lambda: self.visit("settings"), theme.BUTTON),
            (tr("History"), lambda: self.visit("history"), theme.BUTTON),
            (tr("Leave exhibitor mode"), self.ask_leave, WARNING),
            (tr("Quit"), self.ask_quit, WARNING),
            (tr("Back to the demo"), self.back_to_demo, ACCENT),
        ):
            buttons.add_widget(BigButton(text, on_press=action, background_color=colour,
                                         size_hint_y=1, height=theme.BUTTON_HEIGHT))
        box.add_widget(buttons)

    def export(self) -> Any:
        """Every demo as CSV into the data directory's exports folder; says where."""
        folder = data_dir() / "exports"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = self.counts.export_csv(folder)
        except OSError as exc:
            self.export_message = tr("The counts could not be exported: {reason}",
                                     reason=exc.strerror or str(exc))
        else:
            self.export_message = (tr("Exported the counts as {file}", file=path.name) + "\n"
                                   + tr("Folder: {path}", path=str(folder)))
            self._refresh_export()
            return path
        self._refresh_export()
        return None

    def _refresh_export(self) -> None:
        if self.unlocked:
            self.export_label.text = self.export_message

    def visit(self, name: str) -> None:
        """The family's Settings or History; their Back comes back here, still unlocked."""
        if not self.ctx.manager.has_screen(name):
            return
        self._visiting = True
        self.ctx.manager.bind(current=self._manager_moved)
        self.ctx.go(name)

    def _manager_moved(self, manager: Any, name: str) -> None:
        if name in STAFF_PAGES or name == self.name:
            return
        if name == "home" and self._visiting and manager.has_screen(self.name):
            Clock.schedule_once(lambda _dt: self.ctx.go(self.name), 0)  # Back from Settings/History
            manager.unbind(current=self._manager_moved)
            return
        self.lock_again()  # anywhere else: the staff's session is over

    def ask_leave(self) -> None:
        ConfirmBox(tr("Leave exhibitor mode? The table is the family's again until it restarts."),
                   self.leave_exhibit, yes=tr("Leave exhibitor mode")).open()

    def leave_exhibit(self) -> None:
        self.lock_again()
        self.on_leave_exhibit()

    def ask_quit(self) -> None:
        ConfirmBox(tr("Quit Table99? On a table set up as a service it starts again by itself."),
                   self.quit, yes=tr("Quit")).open()

    def quit(self) -> None:
        from kivy.app import App

        self.lock_again()
        app = App.get_running_app()
        if app is not None:
            app.stop()

    def back_to_demo(self) -> None:
        self.lock_again()
        self.on_back()

    # -- relocking ------------------------------------------------------------------------------
    def _touched(self, *_: Any) -> None:
        """Any touch on the window while unlocked pushes the automatic relock back."""
        if self._relock is not None:
            self._relock.cancel()
        self._relock = Clock.schedule_once(self._walked_away, self.relock_seconds)

    def _walked_away(self, _dt: float = 0.0) -> None:
        log.info("staff screen relocked after %.0f s without a touch", self.relock_seconds)
        on_staff_page = self.ctx.manager.current in (*STAFF_PAGES, self.name)
        self.lock_again()
        if on_staff_page:
            self.on_back()

    def _stop_relock(self) -> None:
        Window.unbind(on_touch_down=self._touched)
        if self._relock is not None:
            self._relock.cancel()
            self._relock = None

    def on_leave(self, *args: Any) -> None:
        if self.ctx.manager.current not in STAFF_PAGES or not self._visiting:
            self.lock_again()

    def on_pre_enter(self, *args: Any) -> None:
        self._visiting = False
        self.ctx.manager.unbind(current=self._manager_moved)
        self.refresh()
