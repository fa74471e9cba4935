"""Exhibitor mode's attract loop in the screen audit: each game on show, and "Still there?".

Kept apart from tests/screen_catalog.py (which only merges ``EXHIBIT_LOOP_SCREENS`` in) so the
exhibit's helpers do not edit the same lines. The app is built by the shell's own exhibit hook on a
fake clock; the visitor's screen is the real one when app/ui/exhibit/visitor.py is there, else a
stand-in (tests only).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from app.config import Config
from app.store import GameStore
from tests.ui_support import UI, frames, steps


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def exhibit_root(ui: UI, phone: bool = False) -> Any:
    """The app in exhibitor mode; ``phone``: with the phone view (its QR code on the loop), served on
    127.0.0.1 and a free port as table99 run would start it (stopped by the ``ui`` fixture)."""
    from app import i18n
    from app.exhibit.settings import exhibit_defaults
    from app.paths import default_database
    from app.ui.shell import Table99App
    from app.web.launch import start_follow_only

    config = replace(Config(), exhibit={**exhibit_defaults(), "enabled": True, "pin": "2468",
                                        "narration": False, "language": i18n.language()},
                     web={**Config().web, "bind": "127.0.0.1"})
    app = Table99App(config=config, store=GameStore(default_database()))
    if phone:
        app.exhibit_web = lambda live: start_follow_only(config, live, port=0)
    app.exhibit_clock = _Clock()
    app.exhibit_autotick = False
    root = app.build()
    root.app = app
    ui.show(root)
    return root


def advance(root: Any, seconds: float, step: float = 0.5) -> None:
    app = root.app
    for _ in range(int(seconds / step)):
        app.exhibit_clock.now += step
        app.exhibit_controller.tick()
    steps(3)  # not drawn: the screen is drawn once it is on show (loop_showing, still_there)


def loop_showing(kind: str, until: Callable[[Any], bool] = lambda demo: True,
                 phone: bool = False) -> Callable[[UI], Any]:
    """The loop with ``kind`` on show, once ``until(demo)`` holds (at most 20 table minutes);
    ``phone``: with the phone view's QR code."""

    def build(ui: UI) -> Any:
        root = exhibit_root(ui, phone)
        loop = root.app.exhibit_controller.loop
        for _ in range(2400):
            demo = loop.demo
            if demo is not None and demo.kind == kind and until(demo):
                break
            advance(root, 0.5)
        frames(3)
        return root

    return build


def still_there(ui: UI) -> Any:
    from kivy.uix.screenmanager import Screen

    root = exhibit_root(ui)
    controller = root.app.exhibit_controller
    if controller.visitor is None:  # app/ui/exhibit/visitor.py not merged yet: a stand-in screen
        class StandIn(Screen):
            def start(self) -> None: ...

            def stop(self) -> None: ...

        controller.visitor = StandIn(name="exhibit_visitor")
        root.add_widget(controller.visitor)
    controller.start_visitor()
    advance(root, controller.settings.idle_seconds + 3, step=1.0)
    frames(3)
    return root


EXHIBIT_LOOP_SCREENS: dict[str, Callable[[UI], Any]] = {
    "exhibit-loop-board99": loop_showing("board99", lambda d: len(d.game.state.pegs) >= 4),
    "exhibit-loop-board99-penalty": loop_showing(
        "board99", lambda d: d.screen.banner.kind == "penalty"),
    "exhibit-loop-parlett": loop_showing("parlett", lambda d: len(d.session.sheet.deals) >= 2),
    "exhibit-loop-count99": loop_showing("count99", lambda d: d.session.table.count >= 40),
    "exhibit-still-there": still_there,
    # the phone view (its QR code beside the demo): docs/exhibit.md, "The phone view"
    "exhibit-loop-board99-phone": loop_showing("board99", lambda d: len(d.game.state.pegs) >= 4, phone=True),
    "exhibit-loop-parlett-phone": loop_showing("parlett", lambda d: len(d.session.sheet.deals) >= 2,
                                               phone=True),
    "exhibit-loop-count99-phone": loop_showing("count99", lambda d: d.session.table.count >= 40, phone=True),
}
