"""The attract loop: with nobody at the table, the table plays its own games on screen.

The loop cycles through ``settings.games`` (see :mod:`app.ui.exhibit.demos`): each demo's screen
fills the stage, a caption bar below says what is happening and "Touch to play", the web display's
QR code shows where the live web display runs, and a small Staff button opens the PIN screen. Any
other touch anywhere on the loop calls ``on_touch`` (the controller starts a visitor's game): the
demo's own buttons never receive a touch. The loop moves on only when :meth:`AttractScreen.tick`
is called (by the controller, on its injectable clock), so a test or the soak runs it fast.

Where a sensor board or camera is the configured board source, ``show_board`` (the exhibit
settings' ``loop_board``, when they have it) makes the loop show the real board's readings in place
of the simulated board's game; the default is the simulated board.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from app import memory
from app.i18n import tr
from app.speech import Announcer
from app.store import GameStore
from app.ui import theme
from app.ui.exhibit.demos import DEMOS, REAL_BOARDS, Demo, demo_context
from app.ui.widgets import ACCENT, TOUCH, Background, BigButton, WrapLabel

log = logging.getLogger(__name__)
FAILED_DEMO_PAUSE = 300.0  # s: a demo that failed to start is left out this long
NAME = "home"  # the loop stands where home stands: every game screen's "back to home" leads here
# The phone view's QR code: as big as a column beside the demo allows, in whole pixels per module
# (a LAN address and token: QR version 3, 6 px a module, 198 px with 2 modules of quiet zone, about
# 38 mm on a 7" 800x480 screen; benchmarks/exhibit_qr_distance.py), in a white frame of 2 modules
# more (the standard's 4-module quiet zone on the dark ground): 222 px; the demo keeps 570 px.
PHONE_WIDTH = 230
QR_SIZE = 198


def game_title(kind: str) -> str:
    return {"board99": tr("The Game of 99"), "board": tr("The Game of 99"),
            "parlett": tr("Ninety-Nine (Parlett)"), "count99": tr("Ninety Nine (count)")}.get(kind, kind)


class TouchToPlay(Label):
    """The loop's call to action: big white words on the accent colour (never colour alone)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(text=tr("Touch to play"), font_size=sp(30), bold=True,
                         color=theme.readable_on(ACCENT), halign="center", valign="middle", **kwargs)
        with self.canvas.before:
            Color(*ACCENT)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._follow, size=self._follow)

    def _follow(self, *_: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size
        self.text_size = (self.width - 8, None)


class AttractScreen(Screen):
    """The loop. ``on_touch()`` is called for a touch anywhere but the Staff button."""

    def __init__(self, ctx: Any, scratch: GameStore, games: tuple[str, ...], *,
                 clock: Callable[[], float], on_touch: Callable[[], None], on_staff: Callable[[], None],
                 narration: bool = False, language: str = "en", show_board: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx, self.scratch, self.clock = ctx, scratch, clock
        games = tuple(g for g in games if g in DEMOS) or ("board99", "parlett", "count99")
        if show_board and ctx.config.board_source in REAL_BOARDS:  # the staff's choice: the real board
            games = tuple("board" if g == "board99" else g for g in games)
        self.games = games
        self.on_touch, self.on_staff = on_touch, on_staff
        self.narrator = Announcer(narration, language)
        self.demo: Demo | None = None
        self.index = -1
        self.round = 0  # how many demos were started (a new seed each time: the loop never repeats exactly)
        self.shown: list[str] = []  # the kinds shown, in order (tests read it; kept short)
        self.screens: dict[str, Any] = {}  # each demo's screen, built once and reused all day
        self._failed: dict[str, float] = {}  # kind -> clock time before which it is not tried again
        self.demo_ctx = demo_context(ctx, scratch)
        self._said = ""
        root = BoxLayout()
        Background.paint(root)
        main = BoxLayout(orientation="vertical")
        root.add_widget(main)
        self.stage = BoxLayout()
        main.add_widget(self.stage)
        bar = BoxLayout(size_hint_y=None, height=96, padding=(6, 4), spacing=6)
        Background.paint(bar)
        words = BoxLayout(orientation="vertical")
        self.title_label = WrapLabel("", font_size=sp(theme.FONT), bold=True, size_hint_y=None, height=28,
                                     shorten=True, shorten_from="right")
        self.caption_label = WrapLabel("", font_size=sp(theme.READABLE), size_hint_y=1)
        self.caption_label.bind(size=lambda lab, sz: setattr(lab, "text_size", sz))
        words.add_widget(self.title_label)
        words.add_widget(self.caption_label)
        bar.add_widget(words)
        self.touch_label = TouchToPlay(size_hint_x=None, width=220)
        bar.add_widget(self.touch_label)
        self.bar = bar
        self.staff_button = BigButton(tr("Staff"), on_press=self.on_staff, size_hint=(None, None),
                                      width=88, height=TOUCH, font_size=sp(theme.SMALL),
                                      pos_hint={"center_y": 0.5})
        bar.add_widget(self.staff_button)
        main.add_widget(bar)
        # The phone view's column (docs/exhibit.md, "The phone view"): shown only with a web address.
        self.phone = BoxLayout(orientation="vertical", size_hint_x=None, width=0, padding=(4, 6), spacing=4,
                               opacity=0)
        self.phone_title = WrapLabel(tr("Follow on your phone"), font_size=sp(theme.FONT), bold=True,
                                     halign="center")
        # scale-down: the texture at its own size, centred (whole pixels); the rest of the widget is
        # the white frame that completes the quiet zone (web_join.qr_image)
        self.qr = Image(size_hint=(None, None), size=(QR_SIZE, QR_SIZE), fit_mode="scale-down",
                        pos_hint={"center_x": 0.5})
        with self.qr.canvas.before:
            Color(1, 1, 1, 1)
            frame = Rectangle(pos=self.qr.pos, size=self.qr.size)
        self.qr.bind(pos=lambda w, p: setattr(frame, "pos", p), size=lambda w, sz: setattr(frame, "size", sz))
        self.phone_note = WrapLabel(tr("Scan with the camera, on the same Wi-Fi as the table."),
                                    font_size=sp(theme.SMALL), halign="center", size_hint_y=1)
        self.phone_note.bind(size=lambda lab, sz: setattr(lab, "text_size", sz))
        for widget in (self.phone_title, self.qr, self.phone_note):
            self.phone.add_widget(widget)
        root.add_widget(self.phone)
        self.add_widget(root)
        self._qr_url: str | None = None
        self._qr_failed = False  # the QR code could not be drawn: said in the log once

    # -- touches: one anywhere starts a visitor's game ------------------------------------------------
    def on_touch_down(self, touch: Any) -> bool:
        if self.staff_button.collide_point(*self.staff_button.to_widget(*touch.pos)):
            return bool(super().on_touch_down(touch))
        self.on_touch()
        return True  # the demo's own buttons never see it

    def on_touch_move(self, touch: Any) -> bool:
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not None:
            return bool(super().on_touch_up(touch))
        return bool(self.staff_button.dispatch("on_touch_up", touch)) or True

    # -- the loop -----------------------------------------------------------------------------------
    def start(self) -> None:
        """(Re)start the loop with the next game."""
        if self.demo is None:
            self.next_demo()

    def stop(self) -> None:
        """Stop the demo on show (a visitor came): its game leaves the scratch store."""
        if self.demo is not None:
            try:
                self.demo.stop()
            except Exception:
                log.exception("the %s demo did not stop cleanly", self.demo.kind)
            self.demo = None
        self.stage.clear_widgets()

    def next_demo(self) -> None:
        self.stop()
        # The dropped game's memory back to the system: without it, RSS crept up all day in malloc's
        # per-thread arenas (fragmentation, not a leak; see app.memory). A few ms once per demo.
        memory.release_free_memory()
        now = self.clock()
        ready = [i for i in range(len(self.games)) if self._failed.get(self.games[i], now) <= now]
        if not ready:  # every demo failed lately: a card that still invites a touch, retried later
            self._show_card()
            return
        self.index = min((i for i in ready if i > self.index), default=ready[0])
        kind = self.games[self.index]
        self.round += 1
        screen = self.screens.get(kind)
        demo: Any = None
        try:
            demo = DEMOS[kind](self.demo_ctx, self.scratch, self.clock, seed=self.round, screen=screen)
            demo.start()
        except Exception:  # a demo that cannot start rests a while (one log line, not 20 a second)
            log.exception("the %s demo could not start; trying it again in %.0f s", kind, FAILED_DEMO_PAUSE)
            self._failed[kind] = now + FAILED_DEMO_PAUSE
            try:
                if demo is not None:
                    demo.stop()
            except Exception:
                log.exception("the %s demo did not stop cleanly", kind)
            self._show_card()
            return
        self._failed.pop(kind, None)
        self.demo = demo
        self.screens[kind] = demo.screen
        self.shown = [*self.shown, kind][-12:]
        self.stage.add_widget(demo.widget)
        self.title_label.text = game_title(kind)
        self.show_caption()
        self.show_qr()
        follow = getattr(self.ctx.extras.get("live"), "screen_changed", None)
        if follow is not None:  # the phone view follows the new demo (the loop's screen did not change)
            follow()

    def _show_card(self) -> None:
        """What the stage shows while no demo runs: never a blank screen."""
        if not self.stage.children:
            card = WrapLabel(tr("Touch to play"), font_size=sp(40), bold=True, halign="center")
            self.stage.add_widget(card)
            self.title_label.text = "Table99"

    def tick(self) -> None:
        """Move the demo on (the controller calls this on its clock); the next game when it is done."""
        demo = self.demo
        if demo is None:
            self.next_demo()
            return
        try:
            going = demo.step(self.clock())
        except Exception:
            log.exception("the %s demo failed; going on with the next game", demo.kind)
            going = False
        if going:
            self.show_caption()
        else:
            self.next_demo()

    def show_caption(self) -> None:
        caption = self.demo.caption if self.demo is not None else ""
        if caption != self.caption_label.text:
            self.caption_label.text = caption
            if caption and caption != self._said:
                self._said = caption
                self.narrator.say(caption)
                if len(self.narrator.spoken) > 40:  # the announcer keeps every utterance: not all day
                    del self.narrator.spoken[:-20]

    # -- the live web display's address ----------------------------------------------------------------
    def web_url(self) -> str | None:
        """The phone view's address, asked at every demo on Kivy's main thread: the server keeps it
        (worked out in its own thread, ``ADDRESS_REFRESH``), so no name lookup blocks the screen."""
        web = getattr(self.ctx.extras.get("live"), "web", None)
        if web is None:
            return None
        try:
            return str(web.view_url())
        except Exception:
            log.exception("the web display's address is unknown")
            return None

    def show_qr(self) -> None:
        """The phone view's QR code in its own column at the right, with the Staff button under it;
        without a web address no column (the Staff button stays in the caption bar).

        Never raises: it runs from Kivy's Clock (a new demo, the phone view's start), where an
        exception would end the app (and systemd restart it, over and over). A code that cannot be
        drawn (segno missing beside aiohttp, CoreImage failing) is one log line, and no column."""
        url = self.web_url()
        if url == self._qr_url:
            return
        self._qr_url = url
        texture, module = None, 0
        if url is not None:
            try:
                from app.ui.web_join import qr_image

                texture, module = qr_image(url, size=QR_SIZE)
            except Exception:
                if not self._qr_failed:  # one line, not one per demo
                    self._qr_failed = True
                    log.exception("the phone view's QR code cannot be drawn; the loop runs without it")
        button = self.staff_button
        if button.parent is not None:
            button.parent.remove_widget(button)
        if texture is None:
            self.qr.texture = None
            self.phone.width, self.phone.opacity = 0, 0
            button.pos_hint = {"center_y": 0.5}
            self.bar.add_widget(button)
            return
        frame = 2 * module  # the quiet zone's other 2 modules, white around the texture's own 2
        self.qr.texture = texture  # whole pixels per module: sharp edges
        self.qr.size = (texture.width + 2 * frame, texture.height + 2 * frame)
        self.phone.width, self.phone.opacity = PHONE_WIDTH, 1
        button.pos_hint = {"center_x": 0.5}
        self.phone.add_widget(button)
