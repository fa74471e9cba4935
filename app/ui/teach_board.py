"""Teach the sensor board: the screen that learns which sensor input is which hole.

The shell links it from the home/settings screens when this module imports (``make_screen``).
The learning itself is :class:`hardware.teach.TeachSession` (UI-free, unit-tested); this screen
only opens the sensor board (the GPIO board, or the serial board when ``[board] source =
"serial"``), passes its raw inputs to the session on the main thread, and shows the session's
status as words and a 10x10 grid:

* the hole to fill is yellow, taught holes green, holes still unknown grey;
* in check mode every sensed peg lights its hole blue (tap a hole to teach it again);
* the map is saved (atomically) where ``[board.gpio]`` (or ``[board.serial]``) reads it, only
  when the player taps Save.
"""

from __future__ import annotations

import logging
import queue
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from app.i18n import tr, trn
from app.source_factories import gpio as gpio_factory
from app.source_factories import serial as serial_factory
from app.ui import theme
from hardware.teach import Step, TeachSession, TeachStatus, default_teach_map
from hardware.wiring import WiringMap, WiringMapError

log = logging.getLogger(__name__)
BACKGROUND = theme.BACKGROUND
NAME = "teach_board"
GREY, GREEN, YELLOW, BLUE, ORANGE = (
    (0.30, 0.32, 0.38, 1), (0.16, 0.60, 0.26, 1), (0.95, 0.80, 0.12, 1), (0.20, 0.45, 0.90, 1),
    (0.85, 0.40, 0.10, 1),
)


def where(hole: int) -> str:
    return tr("row {row}, column {col}", row=hole // 10 + 1, col=hole % 10 + 1)


def instruction(status: TeachStatus, session: TeachSession) -> str:
    """What the player should do now, in words."""
    step = status.step
    if step is Step.CLEAR_BOARD:
        return tr("Take every peg off the board, then tap Start.")
    if step is Step.PLACE and status.hole is not None:
        text = tr("Put a peg in the hole at {where}.", where=where(status.hole))
        if len(status.sensed) > 1:
            text += " " + tr("More than one sensor sees a magnet: use one peg at a time.")
        return text
    if step is Step.CONFLICT and status.hole is not None and status.other_hole is not None:
        return tr(
            "That sensor is already the hole at {other}. Is the peg really at {where}?",
            other=where(status.other_hole), where=where(status.hole),
        )
    if step is Step.LIFT:
        return tr("Learned. Take the peg out.")
    if step is Step.CHECK:
        unknown = session.unknown_sensed()
        text = tr("Check: put pegs anywhere; their holes light up blue. Tap a hole to teach it again.")
        if unknown:
            text += " " + trn("{n} sensed peg belongs to no hole yet.",
                              "{n} sensed pegs belong to no hole yet.", len(unknown))
        return text
    known = len(session.map.known_holes())
    return tr("Done: {known} of 100 holes are known. Tap Save to keep the map.", known=known)


LIBRARY_TOKENS = ("pin factory", "<", "Errno", "Traceback", "Error")  # a library's words, not ours


def not_answering(reason: str) -> str:
    """A board that does not answer, in words a family can act on. A library's own message (English,
    technical: "Unable to load any default pin factory!") goes to the log, not the screen."""
    log.warning("the sensor board does not answer: %s", reason)
    if "pin factory" in reason:
        return tr("No sensor board here: this computer has no GPIO pins. Teaching the board works on "
                  "the Raspberry Pi the board is wired to.")
    text = tr("The sensor board does not answer. Check its cable and power, then open this screen "
              "again. (The details are in the log.)")
    if not any(token in reason for token in LIBRARY_TOKENS):  # the board's own self-test, in words
        text += " " + tr("The board reports: {reason}", reason=reason)
    return text


class HoleCell(Button):
    """One hole of the grid: coloured by its state, tappable in check mode."""

    def __init__(self, hole: int, on_tap: Any) -> None:
        super().__init__(text="", background_normal="", background_color=GREY, font_size=sp(12),
                         disabled=True)  # tappable only in check mode
        self.background_disabled_normal = ""
        self.hole = hole
        with self.canvas.after:  # the grid's lines: the cells touch so each is a full 48 px target
            Color(*BACKGROUND)
            self._edge = Line(rectangle=(0, 0, 1, 1), width=1)
        self.bind(pos=self._edges, size=self._edges)
        self.bind(on_release=lambda *_: on_tap(hole))

    def _edges(self, *_: Any) -> None:
        self._edge.rectangle = (*self.pos, *self.size)


class TeachBoardScreen(Screen):
    """Teach the board, hole by hole. ``source`` is for tests; the app builds the GPIO source."""

    def __init__(self, ctx: Any, source: Any = None, **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.source: Any = source
        self._given_source = source is not None
        self.session: TeachSession | None = None
        self._inputs: queue.SimpleQueue[frozenset[int]] = queue.SimpleQueue()
        self._unsubscribe: Any = None
        self._event: Any = None
        self._seen_board = False  # Start waits for the first reading: its baseline must be real
        self._build()

    # -- layout ---------------------------------------------------------------------------------
    def _build(self) -> None:
        with self.canvas.before:
            Color(*theme.BACKGROUND)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *_: setattr(self._bg, "pos", self.pos),
                  size=lambda *_: setattr(self._bg, "size", self.size))
        root = BoxLayout(orientation="horizontal", padding=(0, 0, 8, 0), spacing=8)
        # A square grid the screen's full height: 48 px cells at 480 px (each a touch target).
        self.grid = GridLayout(cols=10, spacing=0, size_hint_x=None)
        root.bind(height=lambda _, h: setattr(self.grid, "width", h))
        self.cells = [HoleCell(h, self._tap_hole) for h in range(100)]
        for cell in self.cells:
            self.grid.add_widget(cell)
        side = BoxLayout(orientation="vertical", spacing=6)
        self.title = Label(text=tr("Teach the sensor board"), font_size=sp(22), size_hint_y=None, height=40,
                           bold=True)
        self.title.bind(size=lambda *_: setattr(self.title, "text_size", self.title.size))
        self.title.shorten = True
        self.message = Label(text="", font_size=sp(theme.READABLE), halign="left", valign="top")
        self.message.bind(size=lambda *_: setattr(self.message, "text_size", self.message.size))
        self.message.bind(size=self._fit_message, text=self._fit_message)
        self.progress = Label(text="", font_size=sp(16), size_hint_y=None, height=32)
        side.add_widget(self.title)
        side.add_widget(self.message)
        side.add_widget(self.progress)
        self.buttons: dict[str, Button] = {}
        rows = [
            [("start", tr("Start")), ("confirm", tr("Yes, it is there"))],
            [("skip", tr("Skip hole")), ("back", tr("Back"))],
            [("check", tr("Check")), ("all", tr("Teach all again"))],
            [("save", tr("Save")), ("close", tr("Close"))],
        ]
        for row in rows:
            line = BoxLayout(orientation="horizontal", spacing=6, size_hint_y=None, height=56)
            for key, text in row:
                button = Button(text=text, font_size=sp(17), background_normal="",
                                background_color=theme.BUTTON, halign="center", valign="middle")
                button.bind(size=lambda b, sz: setattr(b, "text_size", (sz[0] - 6, None)))
                button.bind(on_release=lambda _b, k=key: self.press(k))
                self.buttons[key] = button
                line.add_widget(button)
            side.add_widget(line)
        root.add_widget(self.grid)
        root.add_widget(side)
        self.add_widget(root)

    # -- the board ------------------------------------------------------------------------------

    def _fit_message(self, *_: Any) -> None:
        """A long message (a board's self-test report) shrinks from READABLE towards MIN_FONT until
        every line shows: Kivy does not draw the lines past a fixed text_size height."""
        label = self.message
        if label.height <= 1 or not label.text:
            return
        label.text_size = label.size
        size = sp(theme.READABLE)
        while True:
            label.font_size = size
            label.texture_update()
            lines = label._label._cached_lines
            shown = "".join(w.text for line in lines for w in line.words)
            if (len("".join(shown.split())) >= len("".join(label.text.split()))
                    or size <= sp(theme.MIN_FONT)):
                return
            size -= 1
    def on_pre_enter(self, *args: Any) -> None:
        self.open_board()

    def on_leave(self, *args: Any) -> None:
        self.close_board()

    def _kind(self) -> str:
        """Which sensor board to teach: the serial board when the app reads one, else GPIO."""
        return "serial" if self.ctx.config.board_source == "serial" else "gpio"

    def open_board(self) -> None:
        """Open the sensor board (GPIO or serial) and a fresh session starting from the saved map."""
        if self.source is None:
            try:
                self.source = self.ctx.make_source(self._kind())
            except Exception as exc:  # a config mistake in [board.gpio]: say it on screen
                log.warning("the sensor board cannot be used: %s", exc)
                self._show_problem(tr("The sensor board cannot be used: {reason}", reason=str(exc)))
                return
        if not hasattr(self.source, "subscribe_inputs"):
            self._show_problem(tr("Teaching needs a hall-sensor board (GPIO or serial)."))
            return
        self._unsubscribe = self.source.subscribe_inputs(self._inputs.put)
        self.source.start()
        if self.source.input_count is None:  # the pins could not be opened: nothing will change
            self._show_problem(not_answering(self.source.health.text(tr)))
            return
        self._event = Clock.schedule_interval(lambda _dt: self.poll(), 0.05)
        self._begin_when_answering()

    def _begin_when_answering(self) -> None:
        """Start the session once the board passes its self-test (the source retries it)."""
        health = self.source.health
        if not health.ok:
            self._show_problem(not_answering(health.text(tr)))
            return
        for button in self.buttons.values():
            button.disabled = False
        self.session = TeachSession(default_teach_map(self.source.input_count, self._saved_map()))
        self.refresh()

    def close_board(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.source is not None:
            self.source.stop()
            if not self._given_source:
                self.source = None

    def _map_path(self) -> Any:
        kind = self._kind()
        default = serial_factory.WIRING_FILE if kind == "serial" else gpio_factory.WIRING_FILE
        return gpio_factory.wiring_file(self.ctx.config.options_for(kind), default)

    def _saved_map(self) -> WiringMap | None:
        path = self._map_path()
        if not path.exists():
            return None
        try:
            return WiringMap.load(path)
        except WiringMapError as exc:
            log.warning("ignoring the saved wiring map: %s", exc)
            return None

    def _show_problem(self, text: str) -> None:
        self.message.text = text
        self.progress.text = ""
        for key, button in self.buttons.items():
            button.disabled = key != "close"

    # -- input ----------------------------------------------------------------------------------
    def poll(self) -> None:
        """Main thread: hand the newest sensed inputs to the session."""
        if self.session is None and self.source is not None:
            self._begin_when_answering()
        latest = None
        while True:
            try:
                latest = self._inputs.get_nowait()
            except queue.Empty:
                break
        if latest is not None and self.session is not None:
            self._seen_board = True
            self.session.feed(latest)
            self.refresh()

    def press(self, key: str) -> None:
        session = self.session
        if key == "close":
            self.ctx.go("home")
            return
        if session is None:
            return
        if key == "start":
            self.poll()
            session.begin()
        elif key == "confirm":
            session.confirm_conflict()
        elif key == "skip":
            session.skip()
        elif key == "back":
            session.back()
        elif key == "check":
            if session.status().step is Step.CHECK:
                session.leave_check_mode()
            else:
                session.check_mode()
        elif key == "all":
            self.session = TeachSession.everything(session.map)
            self.session.feed(session.active_inputs)
        elif key == "save":
            self._save()
            return
        self.refresh()

    def _tap_hole(self, hole: int) -> None:
        if self.session is not None and self.session.status().step is Step.CHECK:
            self.session.reteach(hole)
            self.refresh()

    def _save(self) -> None:
        assert self.session is not None
        path = self._map_path()
        try:
            self.session.map.save(path)
        except OSError as exc:
            self.message.text = tr("Could not save the map: {reason}", reason=exc.strerror or str(exc))
            return
        known = len(self.session.map.known_holes())
        self.message.text = tr("Saved: {known} of 100 holes are known.", known=known)
        if hasattr(self.source, "set_wiring"):
            self.source.set_wiring(self.session.map)

    # -- drawing --------------------------------------------------------------------------------
    def refresh(self) -> None:
        session = self.session
        if session is None:
            return
        status = session.status()
        self.message.text = instruction(status, session)
        self.progress.text = tr("{done} of {total} holes in this round", done=status.done, total=status.total)
        known = session.map.known_holes()
        checked = session.checked_holes() if status.step is Step.CHECK else frozenset()
        for cell in self.cells:
            hole = cell.hole
            colour = GREEN if hole in known else GREY
            if hole in checked:
                colour = BLUE
            if hole == status.other_hole:
                colour = ORANGE
            if hole == status.hole:
                colour = YELLOW
            cell.background_color = colour
        step = status.step
        self.buttons["start"].disabled = step is not Step.CLEAR_BOARD or not self._seen_board
        self.buttons["confirm"].disabled = step is not Step.CONFLICT
        self.buttons["skip"].disabled = step not in (Step.PLACE, Step.CONFLICT)
        self.buttons["back"].disabled = step in (Step.CLEAR_BOARD, Step.LIFT, Step.CHECK) or status.done == 0
        self.buttons["check"].disabled = step in (Step.CLEAR_BOARD, Step.LIFT)
        self.buttons["check"].text = tr("End check") if step is Step.CHECK else tr("Check")
        self.buttons["all"].disabled = step in (Step.CLEAR_BOARD, Step.LIFT)
        self.buttons["save"].disabled = step is Step.CLEAR_BOARD
        for cell in self.cells:
            cell.disabled = step is not Step.CHECK


def make_screen(ctx: Any) -> TeachBoardScreen:
    """What the shell calls to link this screen from settings."""
    return TeachBoardScreen(ctx)
