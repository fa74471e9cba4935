"""The Kivy app: one window, a ScreenManager with the home, history and settings screens
(:mod:`app.ui.home`) and every game's screens, the language, and exhibitor mode when it is on.

The home screen shows ``ctx.config_problem`` when the config was unusable; the app always opens.
"""

from __future__ import annotations

import importlib
import logging
import time
from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import NoTransition, ScreenManager

from app import i18n
from app.config import Config
from app.paths import default_database
from app.settings import SETTINGS_FILE as SETTINGS_FILE  # re-exported (tests)
from app.settings import load_settings
from app.speech import Announcer
from app.store import GameStore
from app.ui.context import AppContext
from app.ui.home import OPTIONAL_SCREENS, HistoryScreen, HomeScreen, SettingsScreen, load_game_uis

log = logging.getLogger(__name__)
class Screens(ScreenManager):
    """The app's screen manager: a change of screen is instant, and so is the new screen's touch.

    Kivy's manager drops every touch while a transition "is active", and even ``NoTransition``
    counts as active until the next frame, although the new screen is already on show and on top.
    At the exhibitor's table a visitor's touch on the loop in that frame, just after the previous
    visitor's game ended, did not start a game (the soak lost one arrival per run). With
    ``NoTransition`` the touch goes to the new screen at once (never to the old one, still a child
    for that frame); an animated transition keeps Kivy's behaviour.
    """

    def _new_screen(self) -> Any:
        """The screen just put on show while a NoTransition still counts as active, else None."""
        if isinstance(self.transition, NoTransition) and self.transition.is_active:
            return self.current_screen
        return None

    def on_touch_down(self, touch: Any) -> bool:
        screen = self._new_screen()
        if screen is not None:  # only the new screen: the old one, still a child this frame, is gone
            return bool(screen.dispatch("on_touch_down", touch))
        return bool(super().on_touch_down(touch))

    def on_touch_move(self, touch: Any) -> bool:
        screen = self._new_screen()
        if screen is not None:
            return bool(screen.dispatch("on_touch_move", touch))
        return bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        screen = self._new_screen()
        if screen is not None:
            return bool(screen.dispatch("on_touch_up", touch))
        return bool(super().on_touch_up(touch))


class Table99App(App):
    """The whole app. ``build`` is also what tests call to get the root widget without ``run``."""

    title = "Table99"
    # Exhibitor mode's clock and ticking (tests and the soak run the loop on a fast clock).
    exhibit_clock: Any = staticmethod(time.monotonic)
    exhibit_autotick = True

    def __init__(
        self,
        config: Config | None = None,
        config_problem: str | None = None,
        store: GameStore | None = None,
        make_source: Any = None,
        exhibit: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.table_config = config or Config()
        self.config_problem = config_problem
        self._store = store
        self._make_source = make_source
        self.ctx: AppContext | None = None
        # Exhibitor mode's parts (settings, lock, counts, scratch store): from [exhibit] at build, or
        # given here (tests); see app/ui/exhibit/controller.py.
        self.exhibit: dict[str, Any] | None = exhibit
        # exhibitor mode's phone view (app/ui/exhibit/phone.py): ``exhibit_web`` is the web display's
        # starter given by table99 run (None: no web display); ``phone_view`` the running one
        self.exhibit_web: Any = None
        self.phone_view: Any = None

    def build(self) -> ScreenManager:
        settings = load_settings()
        config = self.table_config
        language = settings.get("language", config.language)
        i18n.set_language(language if language in ("en", "de") else "en")
        store = self._store or GameStore(default_database())
        announcer = Announcer(bool(settings.get("sound", config.sound)), i18n.language())
        manager = Screens(transition=NoTransition())
        make_source = self._make_source
        if make_source is None:
            from app.sources import make_source as build_source

            def make_source(kind: str | None) -> Any:
                return build_source(config, kind)

        self.ctx = AppContext(store, config, announcer, manager, self.config_problem, make_source)
        self.exhibit_controller: Any = None
        if self.exhibit is None:  # exhibitor mode (issue 15): [exhibit] enabled, or table99 run --exhibit
            from app.ui.exhibit.controller import exhibit_parts

            self.exhibit = exhibit_parts(self.ctx)
        if self.exhibit is not None:
            self.ctx.extras["exhibit"] = self.exhibit
            language = self.exhibit["settings"].language
            i18n.set_language(language if language in ("en", "de") else "en")
            announcer.language = i18n.language()
        live = getattr(self, "live", None)  # web display (issue 14): set by table99 run
        # why the web display did not start (aiohttp missing, the port taken), set by table99 run:
        # the phones' setup says it (app/ui/count99/phones_link.py)
        self.ctx.extras["web_problem"] = getattr(self, "web_problem", None)
        if live is not None:
            from app.ui.web_join import connect_live

            self.ctx.extras["live"] = live
            connect_live(self, live)
        self._fill(manager)
        if self.exhibit is not None and self.phone_view is None:  # the loop's QR code (docs/exhibit.md)
            from app.ui.exhibit.phone import start_phone_view

            self.phone_view = start_phone_view(self, self.exhibit)
            loop = getattr(self.exhibit_controller, "loop", None)
            if loop is not None:
                loop.show_qr()
        return manager

    def _fill(self, manager: ScreenManager) -> None:
        ctx = self.ctx
        assert ctx is not None
        uis = load_game_uis(ctx)  # in exhibitor mode too: the staff's history exports the family's games
        if self.exhibit is not None:
            self._fill_exhibit(manager, uis)
            return
        home = HomeScreen(ctx, uis)
        for module in OPTIONAL_SCREENS:
            try:
                screen = importlib.import_module(module).make_screen(ctx)
            except ImportError:
                continue
            except Exception:
                log.exception("optional screen %s failed to load", module)
                continue
            manager.add_widget(screen)
            home.optional[module] = screen.name
        manager.add_widget(home)
        manager.add_widget(HistoryScreen(ctx, uis))
        manager.add_widget(SettingsScreen(ctx, self.switch_language))
        manager.current = "home"
        self.uis = uis

    def _fill_exhibit(self, manager: ScreenManager, uis: dict[str, Any]) -> None:
        """Exhibitor mode: the attract loop stands where home stands; history and settings stay (the
        staff screen leads there, their Back leads to the loop); the family's game screens are built
        but nothing leads to them."""
        from app.ui.exhibit.controller import ExhibitController, make_staff, make_visitor

        ctx, parts = self.ctx, self.exhibit
        assert ctx is not None and parts is not None
        if self.exhibit_controller is not None:  # rebuilt (a new language): the old one lets go
            self.exhibit_controller.release()
        manager.add_widget(HistoryScreen(ctx, uis))
        manager.add_widget(SettingsScreen(ctx, self.switch_language))
        controller = ExhibitController(ctx, parts["settings"], parts["counts"], parts["scratch"],
                                       lock=parts["lock"], make_visitor=make_visitor, make_staff=make_staff,
                                       on_leave_exhibit=self.leave_exhibit, clock=self.exhibit_clock,
                                       autotick=self.exhibit_autotick)
        controller.build(manager)
        self.exhibit_controller = controller
        self.uis = uis
        if self._app_window is not None:
            controller.start()

    def on_start(self) -> None:
        """Exhibitor mode blocks Escape, F1 and close requests from here on (after Kivy bound its keys)."""
        if self.exhibit_controller is not None:
            self.exhibit_controller.start()

    def open_settings(self, *args: Any) -> bool:
        """Kivy's own settings panel (F1) never opens in exhibitor mode."""
        if self.exhibit is not None:
            return False
        return bool(super().open_settings(*args))

    def leave_exhibit(self) -> None:
        """The staff's Leave exhibitor mode (after the PIN): the family's home screen, for this run, in
        the family's language (the exhibit may have its own), saying that the exhibit is off until
        the table restarts (the config still turns it on)."""
        ctx = self.ctx
        assert ctx is not None
        self.exhibit = None
        self.exhibit_controller = None
        parts = ctx.extras.pop("exhibit", None)
        ctx.extras["exhibit_left"] = True
        language = load_settings().get("language", ctx.config.language)
        i18n.set_language(language if language in ("en", "de") else "en")
        ctx.announcer.language = i18n.language()
        scratch = (parts or {}).get("scratch")
        self.stop_phone_view()  # before the scratch store closes; the family's games are never served
        manager = ctx.manager
        manager.clear_widgets()
        self._fill(manager)
        manager.current = "home"
        if scratch is not None:
            scratch.close()

    def switch_language(self, language: str) -> None:
        """Rebuild every screen in the new language (labels are set once, when built)."""
        ctx = self.ctx
        assert ctx is not None
        i18n.set_language(language)
        ctx.announcer.language = language
        for ui in getattr(self, "uis", {}).values():
            screen = getattr(ui, "game_screen", None)
            if screen is not None and hasattr(screen, "stop"):
                screen.stop()
        manager = ctx.manager
        manager.clear_widgets()
        self._fill(manager)
        manager.current = "settings"

    def stop_phone_view(self) -> None:
        """Stop exhibitor mode's phone view, if it runs (idempotent)."""
        view, self.phone_view = self.phone_view, None
        if view is None:
            return
        if self.ctx is not None and self.ctx.extras.get("live") is view.live:
            self.ctx.extras.pop("live", None)
        try:
            view.stop()
        except Exception:
            log.exception("the exhibit's phone view did not stop cleanly")

    def on_stop(self) -> None:
        self.stop_phone_view()
        if self.exhibit_controller is not None:
            self.exhibit_controller.release()
        if self.ctx is not None:
            for ui in getattr(self, "uis", {}).values():
                source = getattr(ui, "source", None)
                if source is not None:
                    source.stop()
            self.ctx.announcer.close()
