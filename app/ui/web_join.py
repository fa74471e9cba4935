"""The table's side of the web display: the address and QR code, pairing codes, revoking devices.

:func:`connect_live` wires the app's :class:`~app.games.live.LiveTable` to Kivy: commands from paired
browsers run on the main thread (``Clock``), find the session the table's screen has open (so a
deal entered on a tablet lands in the very session the touchscreen shows) and redraw the screen
afterwards. The screen talks to the web server only through ``live.web`` (duck-typed: this front
end never imports another one).
"""

from __future__ import annotations

import io
import logging
from typing import Any

from kivy.clock import Clock
from kivy.core.image import Image as CoreImage
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen

from app.i18n import tr
from app.ui.widgets import ACCENT, TOUCH, WARNING, Background, BigButton, WrapLabel

log = logging.getLogger(__name__)
NAME = "web-join"


# -- the LiveTable on Kivy's main thread -------------------------------------------------------------
def connect_live(app: Any, live: Any, *, open_game: Any = None, board_screen: Any = None,
                 family: bool = True) -> Any:
    """Let ``live`` run commands on Kivy's main thread and reach the screens' sessions; returns a
    function that lets go again (its Clock events and binding).

    ``open_game()`` and ``board_screen()`` replace how the game on show and the board game's screen
    are found (exhibitor mode: the loop's demo or the visitor's game, app/ui/exhibit/phone.py).
    ``family=False`` (exhibitor mode's scratch store): ``live`` never reaches the family's game UIs
    (``app.uis``): its sessions are not looked up and their screens not redrawn; the scratch store's
    ids are not the family's, so one could otherwise pick up a family session of the same id."""

    def find_session(kind: str, game_id: int) -> Any:
        ui = getattr(app, "uis", {}).get(kind)
        if kind == "parlett":
            session = getattr(ui, "session", None)
            return session if session is not None and session.game_id == game_id else None
        if kind == "count99":
            keeper = getattr(ui, "keeper", None)
            game = getattr(keeper, "game", None)
            return game if game is not None and game.game_id == game_id else None
        return None

    def on_changed(kind: str, game_id: int) -> None:
        manager = app.ctx.manager if app.ctx is not None else None
        screen = manager.current_screen if manager is not None else None
        name = getattr(screen, "name", "")
        if not name.startswith(kind):
            return
        try:
            if name == "parlett-deal":  # the deal being tapped in was for a deal number now scored
                ui = app.uis["parlett"]
                ui.go("parlett-winner" if ui.session.sheet.over else "parlett-totals")
            elif hasattr(screen, "refresh"):
                screen.refresh()
        except Exception:  # the store holds the change already; a screen that cannot redraw logs it
            log.exception("the table's screen could not show a change made on a paired device")

    def family_open_game() -> int | None:
        """The game the table's screen has open (its screen or its game's UI holds it), or None."""
        manager = app.ctx.manager if app.ctx is not None else None
        screen = manager.current_screen if manager is not None else None
        name = getattr(screen, "name", "") or ""
        ui = getattr(app, "uis", {}).get(name.split("-")[0])
        if ui is None:
            return None  # home, history, settings: /live stays on the game it follows
        for holder in (screen, getattr(ui, "keeper", None), ui):
            for attr in ("game", "session"):
                game = getattr(holder, attr, None)
                for key in ("game_id", "id"):
                    value = getattr(game, key, None)
                    if isinstance(value, int) and not isinstance(value, bool):
                        return value
        return None

    shown_transient: list[int] = []  # the game whose in-between state the web display was told

    def board_in_between(_dt: float = 0) -> None:
        """The board game's state between commits (pegs settling, held announcements), for the web
        display: read from the referee the table's screen runs, so phones see "PLAY 50, waiting for
        the pegs" (or "Ben (computer) is choosing.") as the table does. Polled at 10 Hz rather than
        hooked into the referee: it only reads, and the table's own verdict path stays as it is (a
        commit clears the state at once: LiveTable.committed)."""
        manager = app.ctx.manager if getattr(app, "ctx", None) is not None else None
        if board_screen is not None:
            screen, on_show = board_screen(), True  # it gives only a screen on show, or None
        else:
            screen = getattr(getattr(app, "uis", {}).get("board99"), "game_screen", None)
            on_show = manager is not None and manager.current_screen is screen
        referee = getattr(screen, "referee", None)
        game = getattr(screen, "game", None)
        game_id = getattr(game, "id", None)
        state: dict[str, Any] | None = None
        if referee is not None and isinstance(game_id, int) and on_show:
            try:
                held = list(referee.held_announcements)
                settling = bool(referee.settling)
                thinking = getattr(referee, "thinking", None)  # a computer choosing: a tap waits for it
            except Exception:  # the screen is between games: nothing in flight
                held, settling, thinking = [], False, None
            if settling or held:
                state = {"settling": settling, "held": held}
            if thinking:
                state = {"settling": settling, "held": held, "thinking": str(thinking)}
        for old in shown_transient:
            if old != game_id:
                live.set_transient(old, None)
        shown_transient[:] = [game_id] if isinstance(game_id, int) else []
        if isinstance(game_id, int):
            live.set_transient(game_id, state)

    if family:
        live.find_session = find_session
        live.on_changed = on_changed
    else:  # the phone view cannot change a game anyway (follow-only): nothing to find, nothing to redraw
        live.find_session = lambda kind, game_id: None
        live.on_changed = lambda kind, game_id: None
    live.open_game = open_game or family_open_game
    manager = app.ctx.manager if getattr(app, "ctx", None) is not None else None

    def screen_changed(*_: Any) -> None:  # a game opened on the table's screen: the web's /live follows it
        Clock.schedule_once(lambda _dt: live.screen_changed(), 0)

    if manager is not None:
        manager.bind(current=screen_changed)
    live.wake = lambda: Clock.schedule_once(lambda _dt: live.drain(), 0)
    live.later = lambda fn: Clock.schedule_once(lambda _dt: fn(), 0)  # after the frame now being made
    events = [Clock.schedule_interval(lambda _dt: live.drain(), 0.5),  # in case a wake-up was missed
              Clock.schedule_interval(board_in_between, 0.1)]

    def disconnect() -> None:
        for event in events:
            event.cancel()
        if manager is not None:
            manager.unbind(current=screen_changed)

    return disconnect


QUIET_ZONE = 4  # modules of light around a QR code, as the standard asks (ISO/IEC 18004)


def qr_texture(text: str, size: int | None = None) -> Any:
    """A QR code of ``text`` as a texture, with its whole quiet zone (the family's screens: scaled to
    fit, error correction M). With ``size`` see :func:`qr_image`: the texture only, half its zone."""
    if size is not None:
        return qr_image(text, size)[0]
    import segno

    code = segno.make(text, error="m", boost_error=True)
    return _texture(code, scale=8, border=QUIET_ZONE)


def qr_image(text: str, size: int) -> tuple[Any, int]:
    """A QR code of ``text`` at most ``size`` pixels square, drawn with whole pixels per module and
    no smoothing, so a camera sees sharp edges (the attract loop's); and its pixels per module. It
    takes the smallest code (error correction L, raised as far as the same size allows): a screen is
    not a crumpled flyer, and fewer modules are bigger ones. The texture holds 2 modules of quiet
    zone; the caller paints the other 2 around it (:data:`QUIET_ZONE`: the image on the loop's dark
    ground gets a white frame), so the modules stay as big as ``size`` allows."""
    import segno

    code = segno.make(text, error="l", boost_error=True)
    scale = max(1, size // code.symbol_size(scale=1, border=QUIET_ZONE // 2)[0])
    texture = _texture(code, scale=scale, border=QUIET_ZONE // 2)
    texture.mag_filter = texture.min_filter = "nearest"
    return texture, scale


def _texture(code: Any, scale: int, border: int) -> Any:
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=border, dark="#000000", light="#ffffff")
    buffer.seek(0)
    return CoreImage(buffer, ext="png").texture


# -- the screen ---------------------------------------------------------------------------------------
class WebJoinScreen(Screen):
    """Phones, tablets and TV: scan to watch; pair a tablet to keep the score; revoke it."""

    def __init__(self, ctx: Any, **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        Background.paint(self.box)
        self.add_widget(self.box)
        self.pairing = False
        self._tick: Any = None

    @property
    def web(self) -> Any:
        live = self.ctx.extras.get("live")
        return getattr(live, "web", None)

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()
        self._tick = Clock.schedule_interval(lambda _dt: self._countdown(), 1.0)

    def on_leave(self, *args: Any) -> None:
        if self._tick is not None:
            self._tick.cancel()

    def _countdown(self) -> None:
        web = self.web
        if self.pairing and web is not None and web.access.code_left() is None:
            self.pairing = False
            self.refresh()
        elif self.pairing and hasattr(self, "code_label") and web is not None:
            live = web.access.code_left()
            if live is not None:
                self.code_label.text = self._code_text(*live)

    def _code_text(self, code: str, left: float) -> str:
        return tr("Pairing code: {code} (for {seconds} s)", code=f"{code[:3]} {code[3:]}", seconds=int(left))

    def refresh(self) -> None:
        box, web = self.box, self.web
        box.clear_widgets()
        box.add_widget(WrapLabel(tr("Phones, tablets and TV"), font_size=sp(26), bold=True))
        if web is None:
            box.add_widget(WrapLabel(tr("The web display is off. Turn it on with [web] enabled = true in the "
                                        "config, or start with table99 run --web-port 8099.")))
        else:
            row = BoxLayout(spacing=10)
            if self.pairing and web.access.code_left() is not None:
                code, left = web.access.code_left()
                url = web.pair_url(code)
                row.add_widget(Image(texture=qr_texture(url), fit_mode="contain", size_hint_x=0.45))
                text = BoxLayout(orientation="vertical", spacing=6)
                self.code_label = WrapLabel(self._code_text(code, left), font_size=sp(30), bold=True,
                                            color=(1, 0.84, 0.3, 1))
                text.add_widget(self.code_label)
                text.add_widget(WrapLabel(tr("Scan this with the tablet, or open the address below and type "
                                             "the code. A paired tablet may enter deals and tap cards."),
                                          font_size=sp(17)))
                text.add_widget(WrapLabel(url, font_size=sp(15)))
                text.add_widget(BoxLayout())
                text.add_widget(BigButton(tr("Cancel the code"), on_press=self.cancel_code, height=TOUCH + 8))
                row.add_widget(text)
            else:
                url = web.view_url()
                row.add_widget(Image(texture=qr_texture(url), fit_mode="contain", size_hint_x=0.45))
                text = BoxLayout(orientation="vertical", spacing=6)
                text.add_widget(WrapLabel(
                    tr("Scan to follow the game on a phone, tablet or TV (same Wi-Fi)."), font_size=sp(18)))
                text.add_widget(WrapLabel(url, font_size=sp(15)))
                devices = web.access.device_list()
                text.add_widget(WrapLabel(tr("Paired devices: {n}", n=len(devices)), font_size=sp(18)))
                for device in devices[:4]:
                    line = BoxLayout(size_hint_y=None, height=TOUCH + 4, spacing=6)
                    line.add_widget(WrapLabel(device.name, font_size=sp(17), size_hint_y=1, valign="middle"))
                    line.add_widget(BigButton(tr("Revoke"), on_press=lambda d=device: self.revoke(d.id),
                                              size_hint_x=None, width=150, height=TOUCH + 4,
                                              background_color=WARNING))
                    text.add_widget(line)
                text.add_widget(BoxLayout())
                text.add_widget(BigButton(tr("Pair a tablet"), on_press=self.new_code, height=TOUCH + 8,
                                          background_color=ACCENT))
                row.add_widget(text)
            box.add_widget(row)
        box.add_widget(BigButton(tr("Back"), on_press=lambda: self.ctx.go("home"), height=64))

    def new_code(self) -> None:
        self.web.access.new_code()
        self.pairing = True
        self.refresh()

    def cancel_code(self) -> None:
        self.web.access.cancel_code()
        self.pairing = False
        self.refresh()

    def revoke(self, device_id: str) -> None:
        self.web.access.revoke(device_id)
        self.refresh()


def make_screen(ctx: Any) -> WebJoinScreen:
    return WebJoinScreen(ctx)
