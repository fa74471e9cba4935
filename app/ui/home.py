"""The shell's own screens: home (the games, unfinished ones to resume, optional hardware screens),
history (finished games, export) and settings (language, speech, the interface options).

The home screen lists every game of :data:`app.ui.context.GAMES` whose UI package imports (a game
still being written, or missing a library, is logged and left out rather than stopping the app).
Optional screens from other parts (the GPIO teach step, camera calibration) are linked when their
modules import and expose ``make_screen(ctx) -> Screen``.
"""

from __future__ import annotations

import importlib
import json
import logging
import time
from pathlib import Path
from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from app import i18n
from app.i18n import tr, trn
from app.paths import data_dir
from app.settings import SETTINGS_FILE as SETTINGS_FILE  # re-exported (tests)
from app.settings import load_settings, save_settings
from app.ui import preferences, theme
from app.ui.context import GAMES, AppContext
from app.ui.widgets import (
    ACCENT,
    READABLE,
    TOUCH,
    WARNING,
    Background,
    BigButton,
    Choice,
    ConfirmBox,
    WrapLabel,
)

log = logging.getLogger(__name__)
OPTIONAL_SCREENS = {
    "app.ui.teach_board": "Teach the sensor board",
    "app.ui.camera_calibration": "Camera calibration",
    "app.ui.web_join": "Phones, tablets and TV",  # web display (issue 14)
}
# A hardware screen is linked from home only where its hardware is the configured board source.
NEEDS_SOURCE = {
    "app.ui.teach_board": ("gpio", "serial"),
    "app.ui.camera_calibration": ("camera",),
}


def hardware_linked(module: str, board_source: str) -> bool:
    return board_source in NEEDS_SOURCE.get(module, (board_source,))


def source_name(source: str) -> str:
    """The configured board source in the players' words (the config file's word is English)."""
    return {"simulated": tr("on the screen"), "scripted": tr("a recording"), "gpio": tr("hall sensors"),
            "serial": tr("a serial sensor board"), "camera": tr("a camera")}.get(source, source)


def optional_screen_title(module: str) -> str:
    return {"app.ui.teach_board": tr("Teach the sensor board"),
            "app.ui.camera_calibration": tr("Camera calibration"),
            "app.ui.web_join": tr("Phones, tablets and TV")}[module]


def load_game_uis(ctx: AppContext) -> dict[str, Any]:
    uis: dict[str, Any] = {}
    for kind, module_name in GAMES.items():
        try:
            ui = importlib.import_module(module_name).make_ui()
            ui.build(ctx)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                log.exception("the %s screens could not be loaded; leaving them out", kind)
            else:
                log.warning("no screens for %s yet (%s is missing)", kind, module_name)
            continue
        except Exception:
            log.exception("the %s screens could not be loaded; leaving them out", kind)
            continue
        uis[kind] = ui
    return uis


def game_title(kind: str, uis: dict[str, Any]) -> str:
    titles = {"board99": tr("The Game of 99"), "parlett": tr("Ninety-Nine (Parlett)"),
              "count99": tr("Ninety Nine (count)")}
    return titles.get(kind, getattr(uis.get(kind), "title", kind))


def result_text(result: str) -> str:
    """The store keeps results in plain English ("won: Ann, Cat", "tie"); show them translated."""
    if result.startswith("won: "):
        return tr("won by {names}", names=result[len("won: "):])
    if result == "tie":
        return tr("a tie")
    return result


def summary_lines(summary: Any, uis: dict[str, Any]) -> tuple[str, str]:
    """Two lines that tell games apart: the game and its players; its state, moves and last play."""
    statuses = {"playing": tr("unfinished"), "finished": tr("finished"), "abandoned": tr("abandoned")}
    when = time.strftime("%d.%m. %H:%M", time.localtime(summary.updated))
    first = f"{game_title(summary.kind, uis)} #{summary.id}: {summary.title}"
    parts = [statuses.get(summary.status, summary.status),
             trn("{n} action", "{n} actions", summary.actions), tr("last {when}", when=when)]
    if summary.result:
        parts.insert(1, result_text(summary.result))
    return first, " · ".join(parts)


class GameLines(BoxLayout):
    """A game in two lines that never wrap: cut with an ellipsis if a title is very long."""

    def __init__(self, first: str, second: str, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        lines = ((first, READABLE, theme.TEXT), (second, sp(theme.SMALL), theme.TEXT_MUTED))
        for text, size, colour in lines:
            label = Label(text=text, font_size=size, color=colour, halign="left", valign="middle",
                          shorten=True, shorten_from="right")
            label.bind(size=lambda lab, sz: setattr(lab, "text_size", sz))
            self.add_widget(label)


def scrolling(box: BoxLayout) -> ScrollView:
    box.size_hint_y = None
    box.bind(minimum_height=box.setter("height"))
    scroll = ScrollView(do_scroll_x=False)
    scroll.add_widget(box)
    return scroll


class HomeScreen(Screen):
    def __init__(self, ctx: AppContext, uis: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(name="home", **kwargs)
        self.ctx, self.uis = ctx, uis
        self.optional: dict[str, str] = {}
        self.root_box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        Background.paint(self.root_box)
        self.add_widget(self.root_box)

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        ctx, box = self.ctx, self.root_box
        box.clear_widgets()
        box.add_widget(WrapLabel("Table99", font_size=sp(30), bold=True))
        if ctx.config_problem:
            box.add_widget(WrapLabel(tr("Problem: {problem}", problem=ctx.config_problem),
                                     color=(1, 0.6, 0.3, 1), font_size=sp(16)))
        if ctx.extras.get("exhibit_left"):  # the staff left exhibitor mode: say for how long
            box.add_widget(WrapLabel(tr("Exhibitor mode is off until the table restarts."), font_size=sp(16)))
        content = BoxLayout(orientation="vertical", spacing=8)
        entries = []  # (title, screen): each game's setup, then other ways in (Ninety Nine with phones)
        for kind, ui in self.uis.items():
            entries.append((game_title(kind, self.uis), ui.new_game_screen()))
            entries += getattr(ui, "more_new_games", list)()
        columns = 2 if len(entries) == 4 else min(3, max(1, len(entries)))
        rows = -(-len(entries) // columns)
        height = 80 if rows == 1 else 64
        new_games = GridLayout(cols=columns, spacing=8, size_hint_y=None,
                               height=rows * height + (rows - 1) * 8)
        for title, screen_name in entries:
            new_games.add_widget(BigButton(tr("New: {game}", game=title),
                                           on_press=lambda name=screen_name: ctx.go(name),
                                           background_color=ACCENT, height=height))
        content.add_widget(new_games)
        # A game nobody has made a move in is no game to resume (it is removed when left).
        unfinished = [g for g in ctx.store.unfinished() if g.kind in self.uis and g.actions]
        if unfinished:
            content.add_widget(WrapLabel(tr("Unfinished games")))
        for summary in unfinished[:4]:
            row = BoxLayout(size_hint_y=None, height=TOUCH + 16, spacing=8)
            row.add_widget(GameLines(*summary_lines(summary, self.uis)))
            row.add_widget(BigButton(tr("Resume"), on_press=lambda s=summary: self.resume(s.kind, s.id),
                                     size_hint_x=None, width=160, height=TOUCH + 8))
            content.add_widget(row)
        box.add_widget(scrolling(content))
        bottom = BoxLayout(size_hint_y=None, height=64, spacing=8)
        bottom.add_widget(BigButton(tr("History"), on_press=lambda: ctx.go("history"), height=64))
        bottom.add_widget(BigButton(tr("Settings"), on_press=lambda: ctx.go("settings"), height=64))
        for module, screen_name in self.optional.items():
            if not hardware_linked(module, ctx.config.board_source):
                continue  # no such hardware configured: no link (the settings say how to add it)
            bottom.add_widget(BigButton(optional_screen_title(module),
                                        on_press=lambda n=screen_name: ctx.go(n), height=64))
        box.add_widget(bottom)

    def resume(self, kind: str, game_id: int) -> None:
        try:
            screen = self.uis[kind].resume(game_id)
        except Exception as exc:  # a damaged game must not take the app down
            log.exception("cannot resume game %s", game_id)
            self.ctx.config_problem = tr("Game {id} cannot be resumed: {reason}", id=game_id, reason=str(exc))
            self.refresh()
            return
        self.ctx.go(screen)


class HistoryScreen(Screen):
    def __init__(self, ctx: AppContext, uis: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(name="history", **kwargs)
        self.ctx, self.uis = ctx, uis
        self.root_box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        Background.paint(self.root_box)
        self.add_widget(self.root_box)
        self.message = ""

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        box = self.root_box
        box.clear_widgets()
        box.add_widget(WrapLabel(tr("History"), font_size=sp(theme.TITLE), bold=True))
        if self.message:  # what an export did, in words, with the folder on its own line
            box.add_widget(WrapLabel(self.message, font_size=READABLE, color=theme.GOOD_TEXT))
        games = BoxLayout(orientation="vertical", spacing=6)
        summaries = [g for g in self.ctx.store.games() if g.actions or g.status != "playing"]
        if not summaries:
            games.add_widget(WrapLabel(tr("No games yet.")))
        for summary in summaries[:50]:
            row = BoxLayout(size_hint_y=None, height=TOUCH + 16, spacing=6)
            row.add_widget(GameLines(*summary_lines(summary, self.uis)))
            row.add_widget(BigButton(tr("Export"), on_press=lambda s=summary: self.export(s.id),
                                     size_hint_x=None, width=130, height=TOUCH + 8))
            if summary.status == "playing":
                row.add_widget(BigButton(tr("Abandon"), on_press=lambda s=summary: self.ask_abandon(s.id),
                                         size_hint_x=None, width=130, height=TOUCH + 8,
                                         background_color=WARNING))
            games.add_widget(row)
        box.add_widget(scrolling(games))
        box.add_widget(BigButton(tr("Back"), on_press=lambda: self.ctx.go("home"), height=64))

    def export(self, game_id: int) -> Path:
        """Write the game as its JSON record into the data directory's exports folder."""
        stored = self.ctx.store.load(game_id)
        ui = self.uis.get(stored.kind)
        if ui is None:
            self.message = tr("This kind of game cannot be exported here.")
            self.refresh()
            raise LookupError(f"no UI for game kind {stored.kind!r}")
        record = ui.export_record(game_id)  # each game writes its own record format
        folder = data_dir() / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{stored.kind}-{game_id}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
        self.message = tr("Exported {game} as {file}", game=game_title(stored.kind, self.uis),
                          file=path.name) + "\n" + tr("Folder: {path}", path=str(folder))
        self.refresh()
        return path

    def ask_abandon(self, game_id: int) -> None:
        ConfirmBox(tr("Abandon this game? It stays in the history."),
                   lambda: (self.ctx.store.set_status(game_id, "abandoned"), self.refresh()),
                   yes=tr("Abandon")).open()


class SettingsScreen(Screen):
    """Language and speech, changed on the spot and remembered in the data directory."""

    def __init__(self, ctx: AppContext, on_language: Any, **kwargs: Any) -> None:
        super().__init__(name="settings", **kwargs)
        self.ctx = ctx
        self.on_language = on_language
        box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        Background.paint(box)
        self.box = box
        self.add_widget(box)

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        ctx, box = self.ctx, self.box
        box.clear_widgets()
        box.add_widget(WrapLabel(tr("Settings"), font_size=sp(theme.TITLE), bold=True))
        rows = BoxLayout(orientation="vertical", spacing=6)

        def row(title: str, choice: Choice) -> None:
            line = BoxLayout(size_hint_y=None, height=TOUCH, spacing=8)
            label = WrapLabel(title, size_hint=(None, 1), width=250, valign="middle", font_size=READABLE)
            label.text_size = (250, None)  # wraps from the start: its width never changes
            line.add_widget(label)
            line.add_widget(choice)
            rows.add_widget(line)

        row(tr("Language"), Choice([("en", "English"), ("de", "Deutsch")], i18n.language(),
                                   on_change=self.set_language))
        spoken = "on" if ctx.announcer.enabled else "off"
        row(tr("Spoken announcements and sounds"),
            Choice([("off", tr("Off")), ("on", tr("On"))], spoken, on_change=self.set_speech))
        if not ctx.announcer.available:
            rows.add_widget(WrapLabel(tr("espeak-ng is not installed: nothing will be spoken."),
                                      font_size=READABLE, color=theme.PROBLEM_TEXT))
        # 5of99's interface options, where they make sense on this table.
        backgrounds = {"slate": tr("Slate"), "green": tr("Green"), "blue": tr("Blue"), "black": tr("Black")}
        row(tr("Background"), Choice(list(backgrounds.items()), preferences.get("background"),
                                     on_change=self.set_background))
        backs = {"blue": tr("Blue"), "red": tr("Red"), "green": tr("Green")}
        row(tr("Card backs"), Choice(list(backs.items()), preferences.get("card_back"),
                                     on_change=lambda v: preferences.put("card_back", v)))
        speeds = {"slow": tr("Slow"), "normal": tr("Normal"), "fast": tr("Fast"), "off": tr("At once")}
        row(tr("Computer moves"), Choice(list(speeds.items()), preferences.get("animation"),
                                         on_change=lambda v: preferences.put("animation", v)))
        at_once = "on" if preferences.get("play_at_once") else "off"
        row(tr("Tap a card in my hand to play it"),
            Choice([("off", tr("Off")), ("on", tr("On"))], at_once,
                   on_change=lambda v: preferences.put("play_at_once", v == "on")))
        config = ctx.config
        rows.add_widget(WrapLabel(tr("Board source: {source}; stable after {seconds} s; config file: {path}",
                                     source=source_name(config.board_source), seconds=config.stable_seconds,
                                     path=config.path or tr("none (defaults)")), font_size=sp(theme.SMALL)))
        rows.add_widget(WrapLabel(tr("Games are saved in {path}", path=str(ctx.store.path)),
                                  font_size=sp(theme.SMALL)))
        if config.board_source not in ("gpio", "serial", "camera"):
            hint = tr("Teaching a sensor board and calibrating a camera appear on the home "
                      "screen once the config file's [board] source names that hardware.")
            rows.add_widget(WrapLabel(hint, font_size=sp(theme.SMALL)))
        box.add_widget(scrolling(rows))
        box.add_widget(BigButton(tr("Back"), on_press=lambda: ctx.go("home"), height=64))

    def set_background(self, value: str) -> None:
        """A new ground colour: every screen is painted again (as for a new language)."""
        preferences.put("background", value)
        self.on_language(i18n.language())

    def set_language(self, language: str) -> None:
        settings = load_settings()
        settings["language"] = language
        save_settings(settings)
        self.on_language(language)

    def set_speech(self, value: str) -> None:
        self.ctx.announcer.enabled = value == "on"
        settings = load_settings()
        settings["sound"] = value == "on"
        save_settings(settings)
        if value == "on":
            self.ctx.announcer.say(tr("Spoken announcements are on."))
