"""``table99 run``: start the touchscreen app (simulated board unless the config or --board says else).

Logs go to stderr through :mod:`logging` so systemd's journal keeps them on a Pi. Without a display
(no $DISPLAY / $WAYLAND_DISPLAY, no framebuffer console driver chosen) the command says so and
exits with status 3 instead of letting SDL fail with a cryptic message.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from dataclasses import replace
from pathlib import Path

from app import quick_exit
from app.config import SOURCES, SYSTEM_CONFIG, Config, default_config_path
from app.startup import carry_out, plan_startup

log = logging.getLogger("table99")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", choices=SOURCES,
                        help="board source (default: the config's, else simulated)")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (kiosk mode)")
    parser.add_argument("--config", type=Path, help="config file (default: $TABLE99_CONFIG or /etc/table99)")
    parser.add_argument("--web-port", type=int, metavar="N",
                        help="serve the web display on port N (0: off; default: the config's [web])")
    parser.add_argument("--exhibit", action="store_true",
                        help="exhibitor mode for this run: the table demos itself, staff PIN from the "
                             "config's [exhibit] (docs/exhibit.md)")


def display_problem(environ: dict[str, str] | None = None) -> str | None:
    """Why no window can open here, or None when one probably can."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER") in ("offscreen", "kmsdrm", "rpi", "dummy"):
        return None  # chosen on purpose: headless tests, or a Pi console without X
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    if sys.platform in ("darwin", "win32"):
        return None
    return (
        "no display found: $DISPLAY and $WAYLAND_DISPLAY are unset. Start table99 run from the "
        "desktop, over 'ssh -X', or on a Pi console with SDL_VIDEODRIVER=kmsdrm."
    )


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    path = args.config if args.config is not None else default_config_path()
    plan = plan_startup(path)  # never raises: every problem becomes a fallback and a line
    config = plan.config
    os.environ["TABLE99_DATA_DIR"] = str(plan.data_dir)  # what every part of the app reads
    if args.board:
        config = _with_source(config, args.board)
    if getattr(args, "exhibit", False):
        config, refusal = with_exhibit(config)
        if refusal:
            print(f"table99 run --exhibit: {refusal}", file=sys.stderr)
            if _at_a_keyboard():
                return 2
            # a service (ExecStart=... --exhibit, Restart=always): refusing would restart it forever
            # with a black screen; the locked kiosk shows the line on the staff screen instead
            config = exhibit_kiosk(config, refusal)
    problem_display = display_problem()
    if problem_display:
        print(f"table99 run: {problem_display}", file=sys.stderr)
        return 3
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONFIG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    if args.fullscreen or config.fullscreen:
        from kivy.config import Config as KivyConfig

        KivyConfig.set("graphics", "fullscreen", "auto")
    store, problems = carry_out(plan)
    for problem in problems:
        log.error("%s", problem)  # the journal; the home screen shows the same lines
    from app.ui.kivy_setup import prepare

    log.info("keyboard: %s", prepare())  # before the window opens: on-screen keyboard, calm log
    from app.ui.shell import Table99App

    log.info("starting Table99 (board: %s, config: %s, data: %s)", config.board_source,
             config.path or "defaults", plan.data_dir)
    app = Table99App(config, "\n".join(problems) or None, store=store)
    server = _start_web(app, config, store, args.web_port, problems)
    club = _start_club(app, config, store, problems)  # club hub (issue 19)
    app.config_problem = "\n".join(problems) or None

    def close_store() -> None:  # on a SIGTERM, from the leaving thread (app/quick_exit.py)
        store.close(for_exit=True)

    quick_exit.close_on_exit(close_store)
    app.bind(on_start=lambda *_: stop_on_sigterm())
    try:
        app.run()
    finally:
        if server is not None:
            server.stop()
        if club is not None:
            club.stop()
        quick_exit.forget(close_store)  # Quit on the screen: the ordinary way out, as before
    return 0


def stop_on_sigterm() -> None:
    """``systemctl stop`` (SIGTERM) ends the app at once, in every mode, the game store closed first.

    SDL turns SIGTERM into a window close request, which exhibitor mode refuses (a visitor's Alt-F4),
    and Kivy's stop could only run after the frame being drawn (seconds under emulation), then joined
    the web and club threads: app/quick_exit.py says why none of it is waited for. Installed once the
    window exists, so this handler replaces SDL's."""
    import signal

    quick_exit.leave_on((signal.SIGTERM,))


def _start_web(app: object, config: Config, store: object, port: int | None, problems: list[str]) -> object:
    """The web display beside Kivy (issue 14); a problem is one more line on the home screen.

    In exhibitor mode (issue 15) the family's web display never starts: the app gets a starter for
    the follow-only one on the scratch store instead (app/web/follow.py, app/ui/exhibit/phone.py),
    which the loop's QR code leads to (docs/exhibit.md, "The phone view")."""
    if port == 0 or (port is None and not config.web["enabled"]):
        return None
    from app.exhibit.parts import exhibit_on

    if exhibit_on(config):
        from app.web.launch import start_follow_only

        log.info("web display: only the game on show (exhibitor mode); the family's games are not served")
        app.exhibit_web = lambda live: start_follow_only(config, live, port=port)  # type: ignore[attr-defined]
        return None
    from app.games.live import LiveTable
    from app.web.launch import start_web

    live = LiveTable(store)  # type: ignore[arg-type]
    server, problem = start_web(config, live, port=port)
    if problem:
        log.error("%s", problem)
        problems.append(problem)
        app.web_problem = problem  # type: ignore[attr-defined]  # Ninety Nine with phones says it
        return None
    app.live = live  # type: ignore[attr-defined]
    # the address without its token: the journal is read by more people than the table's screen
    log.info("web display on port %s (address and QR code: home screen, Phones, tablets and TV)",
             server.port)  # type: ignore[union-attr]
    return server


def _start_club(app: object, config: Config, store: object, problems: list[str]) -> object:
    """The club reporter (issue 19, docs/club.md); a refusal by the broker reaches the home screen."""
    from app.club.launch import start_club

    def shown(text: str) -> None:  # paho's thread: the screen hears it on Kivy's clock
        if "refused" in text:
            from kivy.clock import Clock

            from app.i18n import tr

            line = tr("Club hub: the broker refused this table; check the [club] user name and password "
                      "in the config ({detail})", detail=text)
            Clock.schedule_once(lambda _dt: say_on_home(app, line), 0)

    reporter, problem = start_club(config, store, on_status=shown)
    if problem:
        log.error("%s", problem)
        problems.append(problem)
    return reporter


def say_on_home(app: object, text: str) -> None:
    """One more problem line on the home screen (after any from the start), shown at once if the
    home screen is open. On Kivy's main thread."""
    ctx = app.ctx  # type: ignore[attr-defined]
    lines = [line for line in (ctx.config_problem or "").split("\n") if line]
    if text not in lines:
        ctx.config_problem = "\n".join([*lines, text])
    home = ctx.manager.get_screen("home") if ctx.manager.has_screen("home") else None
    if home is not None and ctx.manager.current == "home":
        home.refresh()


def with_exhibit(config: Config) -> tuple[Config, str | None]:
    """``config`` with exhibitor mode on (``run --exhibit``), or the one line why it is refused.

    Someone is at the keyboard here, so no usable PIN is a refusal, not the locked kiosk a config
    file alone gives (app/exhibit/settings.py): a kiosk nobody can unlock is no help to them."""
    from app.exhibit.settings import PIN_RULE, valid_pin

    if not valid_pin(config.exhibit.get("pin", "")):
        where = config.path or f"{SYSTEM_CONFIG} (or the file named by --config / $TABLE99_CONFIG)"
        return config, (f"no staff PIN is configured: add [exhibit] with pin set to {PIN_RULE} to {where}, "
                        "then check it with 'table99 config'")
    return replace(config, exhibit={**config.exhibit, "enabled": True}, exhibit_problem=""), None


def exhibit_kiosk(config: Config, problem: str) -> Config:
    """``config`` as the locked kiosk (exhibitor mode on, no PIN opens it), ``problem`` saying why."""
    return replace(config, exhibit={**config.exhibit, "enabled": True}, exhibit_problem=problem)


def _at_a_keyboard() -> bool:
    """Whether someone started this from a terminal (a service's stdin is not one)."""
    try:
        return bool(sys.stdin is not None and sys.stdin.isatty())
    except (AttributeError, ValueError, OSError):  # closed or replaced stdin: not a person typing
        return False


def _with_source(config: Config, source: str) -> Config:
    return replace(config, board_source=source)
