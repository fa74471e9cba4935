"""Exhibitor mode's conductor: which screen shows, when a visitor's game ends, and no way out.

:class:`ExhibitController` is built by the shell when ``[exhibit] enabled`` (see
:func:`build_exhibit` in this module, called from :mod:`app.ui.shell`). It adds the attract loop
(named ``"home``": every game screen's way home leads back to the loop), the visitor's game
(``"exhibit_visitor"``, from :mod:`app.ui.exhibit.visitor`) and the staff screen
(``"exhibit_staff"``, from :mod:`app.ui.exhibit.staff`) to the app's ScreenManager, and:

* a touch anywhere on the loop starts a visitor's game and counts it (``counts.started``);
* no touch, key or peg moved on the board for ``idle_seconds`` during a visitor's game (the visitor's
  screen reports pegs through its ``activity``) shows "Still there?" with a big "Yes, keep playing";
  left alone for ``still_there_seconds`` more, the game is dropped, counted as ``stopped(id, "idle")``,
  and the loop comes back. Any other screen (staff, settings, history)
  left alone for ``idle_seconds`` returns to the loop too: an unlocked staff screen is never left
  open for the next child;
* Escape, Android's back key, F1 (Kivy's settings) and the window's close request do nothing: the
  only way out is the staff PIN (the staff screen's Leave exhibitor mode and Quit, which call
  :meth:`ExhibitController.release`).

Time comes from an injectable ``clock``; :meth:`tick` does all the timing work and is driven by a
Kivy interval unless ``autotick=False`` (tests and the soak call it themselves, on a fast clock).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from app.i18n import tr
from app.store import GameStore
from app.ui import theme
from app.ui.exhibit.attract import NAME as LOOP
from app.ui.exhibit.attract import AttractScreen
from app.ui.widgets import ACCENT, Background, BigButton, WrapLabel

log = logging.getLogger(__name__)
VISITOR = "exhibit_visitor"
STAFF = "exhibit_staff"
UNCOUNTED = -1  # demo_id of a visitor's game whose start could not be counted
ESCAPE, BACK, F1 = 27, 1001, 282
BLOCKED_KEYS = (ESCAPE, BACK, F1)
TICK_SECONDS = 1 / 20


class StillThere(ModalView):
    """ "Still there?" over the visitor's game, with one big button to keep playing."""

    def __init__(self, on_keep: Callable[[], None], seconds: float, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.8, 0.8), auto_dismiss=False, **kwargs)
        box = BoxLayout(orientation="vertical", padding=16, spacing=12)
        Background.paint(box)
        box.add_widget(WrapLabel(tr("Still there?"), font_size=sp(theme.TITLE), bold=True, halign="center"))
        self.note = WrapLabel(tr("If nobody touches the screen, the demo starts again in {seconds} s.",
                                 seconds=int(seconds)), font_size=sp(theme.READABLE), halign="center")
        box.add_widget(self.note)
        self.keep = BigButton(tr("Yes, keep playing"), on_press=on_keep, size_hint_y=1, font_size=sp(30),
                              background_color=ACCENT, color=theme.readable_on(ACCENT))
        box.add_widget(self.keep)
        self.add_widget(box)

    def count_down(self, seconds: float) -> None:
        text = tr("If nobody touches the screen, the demo starts again in {seconds} s.",
                  seconds=max(0, int(seconds + 0.99)))
        if self.note.text != text:
            self.note.text = text


class ExhibitController:
    """Keeps the table in exhibitor mode; see the module's docstring."""

    def __init__(
        self,
        ctx: Any,
        settings: Any,
        counts: Any,
        scratch: GameStore,
        *,
        lock: Any = None,
        clock: Callable[[], float] = time.monotonic,
        make_visitor: Callable[..., Screen] | None = None,
        make_staff: Callable[..., Screen] | None = None,
        on_leave_exhibit: Callable[[], None] | None = None,
        autotick: bool = True,
    ) -> None:
        self.ctx, self.settings, self.counts, self.scratch, self.lock = ctx, settings, counts, scratch, lock
        self.clock = clock
        self.make_visitor = make_visitor
        self.make_staff = make_staff
        self.on_leave_exhibit = on_leave_exhibit
        self.autotick = autotick
        self.demo_id: int | None = None  # the visitor's demo being counted
        self.last_touch = clock()
        self.still_there: StillThere | None = None
        self.asked_at = 0.0
        self.blocking = False
        self.loop: AttractScreen | None = None
        self.visitor: Screen | None = None
        self.staff: Screen | None = None
        self._event: Any = None
        self._window: Any = None
        self._manager: Any = None
        self._ending = False

    # -- building ---------------------------------------------------------------------------------------
    def build(self, manager: Any) -> None:
        """Add the loop, the visitor's game and the staff screen to ``manager``; show the loop."""
        settings = self.settings
        self.loop = AttractScreen(self.ctx, self.scratch, tuple(settings.games), clock=self.clock,
                                  on_touch=self.start_visitor, on_staff=self.open_staff,
                                  narration=bool(settings.narration), language=settings.language,
                                  show_board=bool(getattr(settings, "loop_board", False)))
        manager.add_widget(self.loop)
        self.visitor = self._optional(self.make_visitor, "visitor", self.ctx, self.scratch,
                                      self.visitor_ended)
        if self.visitor is not None:
            manager.add_widget(self.visitor)
            if hasattr(self.visitor, "activity"):  # pegs moved on the board count as a touch
                self.visitor.activity = self.on_activity
        self.staff = self._optional(self.make_staff, "staff", self.ctx, self.lock, self.counts,
                                    self.back_to_loop, self.leave_exhibit)
        if self.staff is not None:
            manager.add_widget(self.staff)
        manager.current = LOOP
        manager.bind(current=self._screen_changed)
        self._manager = manager
        self.loop.start()

    @staticmethod
    def _optional(factory: Callable[..., Screen] | None, what: str, *args: Any) -> Screen | None:
        """A screen from another module; missing or broken, the loop goes on without it (logged)."""
        if factory is None:
            return None
        try:
            return factory(*args)
        except ModuleNotFoundError as exc:
            log.error("the exhibit's %s screen is missing (%s); the loop runs without it", what, exc.name)
            return None
        except Exception:
            log.exception("the exhibit's %s screen could not be built; the loop runs without it", what)
            return None

    def start(self, window: Any = None) -> None:
        """Block the ways out and start ticking (the app's ``on_start``: after Kivy bound its own keys,
        so these handlers are asked first)."""
        if window is None:
            from kivy.core.window import Window as window
        self._window = window
        window.bind(on_keyboard=self.on_key, on_request_close=self.on_request_close,
                    on_touch_down=self.on_activity, on_key_down=self.on_activity)
        self.blocking = True
        if self.autotick and self._event is None:
            self._event = Clock.schedule_interval(lambda _dt: self.tick(), TICK_SECONDS)

    def release(self) -> None:
        """Let the window close again and stop ticking (the staff's Leave or Quit, after the PIN)."""
        self.blocking = False
        if self._event is not None:
            self._event.cancel()
            self._event = None
        window = self._window
        if window is not None:
            window.unbind(on_keyboard=self.on_key, on_request_close=self.on_request_close,
                          on_touch_down=self.on_activity, on_key_down=self.on_activity)
        if self._manager is not None:  # a rebuilt app (new language) has a new controller: this one rests
            self._manager.unbind(current=self._screen_changed)
            self._manager = None
        self._dismiss_still_there()
        if self.loop is not None:
            self.loop.stop()
        if self.visitor is not None and self.demo_id is not None:
            self._stop_visitor("visitor")

    def leave_exhibit(self) -> None:
        """The staff's Leave exhibitor mode (the staff screen checked the PIN)."""
        self.release()
        if self.on_leave_exhibit is not None:
            self.on_leave_exhibit()

    # -- no way out -------------------------------------------------------------------------------------
    def on_key(self, _window: Any, key: int, *_: Any) -> bool:
        """Escape, back and F1 do nothing while the exhibit runs (True: Kivy looks no further)."""
        return self.blocking and key in BLOCKED_KEYS

    def on_request_close(self, *_: Any, **__: Any) -> bool:
        """A close request (the window's X, Alt-F4, Escape's own route) is refused."""
        if self.blocking:
            log.info("exhibit: a request to close the window was refused (staff PIN needed)")
        return self.blocking

    def on_activity(self, *_: Any) -> bool:
        """Any touch or key anywhere: someone is there. Never consumes the event."""
        self.last_touch = self.clock()
        return False

    # -- screens ----------------------------------------------------------------------------------------
    def start_visitor(self) -> None:
        """A touch on the loop: stop the demo and start a visitor's guided game."""
        if self.visitor is None:
            log.warning("exhibit: no visitor's game to start (the visitor screen is missing)")
            return
        assert self.loop is not None
        self.loop.stop()
        self.last_touch = self.clock()
        try:
            self.visitor.start()  # type: ignore[attr-defined]
        except Exception:
            log.exception("the visitor's game could not start; back to the loop")
            self.loop.start()
            return
        try:
            self.demo_id = self.counts.started("board99")
        except Exception:  # the count is lost, not the visitor's game
            log.exception("exhibit: the demo could not be counted")
            self.demo_id = UNCOUNTED  # still a visitor's game: idle and Stop work as ever
        self.ctx.go(VISITOR)

    def visitor_ended(self, why: str) -> None:
        """The visitor's screen says the game ended: "finished" or "visitor" (stopped)."""
        self._stop_visitor(why)
        self.back_to_loop()

    def _count_end(self, why: str) -> None:
        demo_id, self.demo_id = self.demo_id, None
        if demo_id is None or demo_id == UNCOUNTED:
            return
        try:
            if why == "finished":
                self.counts.finished(demo_id)
            else:
                self.counts.stopped(demo_id, why if why in ("visitor", "idle") else "visitor")
        except Exception:  # a database problem loses one count, never the table
            log.exception("exhibit: the end of demo %s could not be counted", demo_id)

    def _stop_visitor(self, why: str) -> None:
        try:
            self.visitor.stop()  # type: ignore[union-attr]
        except Exception:
            log.exception("the visitor's game did not stop cleanly")
        self._count_end(why)

    def open_staff(self) -> None:
        if self.staff is None:
            log.warning("exhibit: no staff screen (app.ui.exhibit.staff is missing)")
            return
        self.last_touch = self.clock()
        self.ctx.go(STAFF)

    def back_to_loop(self) -> None:
        self._dismiss_still_there()
        if self.staff is not None and hasattr(self.staff, "lock_again"):
            # before moving: the loop is "home", which Settings/History opened from the staff screen
            # would take for their own Back and return to the staff screen, still unlocked
            self.staff.lock_again()
        if self.ctx.manager.current != LOOP:
            self.ctx.go(LOOP)  # _screen_changed starts the loop
        elif self.loop is not None:
            self.loop.start()

    def _screen_changed(self, _manager: Any, name: str) -> None:
        """Whoever leads to the loop (a game's Menu, a Back button), the loop starts; a visitor's game
        left this way is counted as stopped by the visitor."""
        if name == LOOP:
            self._dismiss_still_there()
            if self.demo_id is not None and self.visitor is not None:
                self._stop_visitor("visitor")
            self._trim()
            if self.loop is not None:
                self.loop.start()

    def _trim(self) -> None:
        """The announcer keeps every utterance (for tests): keep the last few, all day long."""
        spoken = getattr(self.ctx.announcer, "spoken", None)
        if isinstance(spoken, list) and len(spoken) > 50:
            del spoken[:-50]

    # -- what phones follow (app/ui/exhibit/phone.py) ----------------------------------------------------
    def game_on_show(self) -> int | None:
        """The scratch store's game the screen shows: the loop's demo or the visitor's game; None
        elsewhere (staff, settings, history: the phone view stays on the game it followed)."""
        current = self.ctx.manager.current
        if current == LOOP and self.loop is not None and self.loop.demo is not None:
            return self.loop.demo.game_id
        if current == VISITOR and self.visitor is not None:
            game_id = getattr(getattr(self.visitor, "game", None), "id", None)
            return game_id if isinstance(game_id, int) else None
        return None

    def board_screen_on_show(self) -> Any:
        """The board game's screen on show (the loop's board demo or the visitor's game), or None: its
        referee's in-between state ("the pegs are settling") reaches the phones too."""
        current = self.ctx.manager.current
        if current == LOOP and self.loop is not None and self.loop.demo is not None:
            return self.loop.demo.screen if self.loop.demo.kind == "board99" else None
        if current == VISITOR:
            return self.visitor
        return None

    # -- time -------------------------------------------------------------------------------------------
    def tick(self) -> None:
        """Everything that depends on time: the loop's next move, idle, "Still there?"."""
        now = self.clock()
        current = self.ctx.manager.current
        if current == LOOP:
            if self.loop is not None:
                self.loop.tick()
            return
        idle = now - self.last_touch
        if current == VISITOR and self.demo_id is not None:
            if self.still_there is None:
                if idle >= self.settings.idle_seconds:
                    self.ask_still_there()
            elif self.last_touch > self.asked_at:  # any touch since it asked, as it says
                self.keep_playing()
            else:
                waited = now - self.asked_at
                if waited >= self.settings.still_there_seconds:
                    self.idle_timeout()
                else:
                    self.still_there.count_down(self.settings.still_there_seconds - waited)
            return
        if idle >= self.settings.idle_seconds:  # staff, settings, history left open: back to the demo
            log.info("exhibit: %s left alone for %.0f s; back to the loop", current, idle)
            self.back_to_loop()

    def ask_still_there(self) -> None:
        self.asked_at = self.clock()
        self.still_there = StillThere(self.keep_playing, self.settings.still_there_seconds)
        self.still_there.open(animation=False)

    def keep_playing(self) -> None:
        self._dismiss_still_there()
        self.last_touch = self.clock()

    def idle_timeout(self) -> None:
        """Nobody answered "Still there?": drop the visitor's game and go back to the loop."""
        self._dismiss_still_there()
        if self.visitor is not None and self.demo_id is not None:
            self._stop_visitor("idle")
        self.back_to_loop()

    def _dismiss_still_there(self) -> None:
        if self.still_there is not None:
            self.still_there.dismiss(animation=False)
            self.still_there = None


# -- what the shell calls ---------------------------------------------------------------------------------
def make_visitor(ctx: Any, scratch: GameStore, on_end: Callable[[str], None]) -> Screen:
    from app.ui.exhibit.visitor import VisitorGameScreen

    return VisitorGameScreen(ctx, scratch, on_end)


def make_staff(ctx: Any, lock: Any, counts: Any, on_back: Callable[[], None],
               on_leave_exhibit: Callable[[], None]) -> Screen:
    from app.ui.exhibit.staff import StaffScreen

    return StaffScreen(ctx, lock, counts, on_back, on_leave_exhibit)


def exhibit_parts(ctx: Any) -> dict[str, Any] | None:
    """``ctx.extras["exhibit"]`` from the config's ``[exhibit]`` (app.exhibit.parts.exhibit_extras): None when
    exhibitor mode is off. A bad ``[exhibit]`` gives a locked kiosk there, never a crash."""
    from app.exhibit.parts import exhibit_extras

    parts = exhibit_extras(ctx.config, ctx.store)
    if parts is not None:
        ctx.extras["exhibit"] = parts
    return parts
