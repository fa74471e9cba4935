"""Setting up a board game: players, names, peg colours, sides, ruleset, layout, computers, source.

Everything fits the 800x480 screen in a scroll view with rows of big buttons. A tap on a player's
colour or type cycles through the choices: on a small screen that beats a drop-down list.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from app.games.board99.game import COLOURS, LEVELS, TableSetup
from app.i18n import tr
from app.referee.refusals import reason_text
from app.ui.widgets import (
    ACCENT,
    FONT,
    TOUCH,
    Background,
    BigButton,
    Choice,
    CycleButton,
    WrapLabel,
    colour_name,
    colour_rgba,
)
from rules import board99 as rules

log = logging.getLogger(__name__)
NAME = "board99-setup"
LAYOUT_KEY, CUSTOM_KEY = "board99_layout", "board99_custom_layout"  # in the data dir's settings.json
DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fin")
LAYOUTS = ("spiral-out", "spiral-in", "twisted", "rows", "random", "custom")
SOURCES = ("simulated", "gpio", "serial", "camera", "scripted")


def layout_label(key: str) -> str:
    return {
        "spiral-out": tr("Spiral out"), "spiral-in": tr("Spiral in"), "twisted": tr("Twisted"),
        "rows": tr("Rows"), "random": tr("Random"), "custom": tr("Custom"),
    }[key]


def level_label(key: str) -> str:
    return {"person": tr("Person"), "basic": tr("Computer: basic"),
            "intermediate": tr("Computer: intermediate"), "advanced": tr("Computer: advanced")}[key]


def parse_custom_layout(text: str) -> rules.Layout:
    """100 numbers separated by spaces, commas or new lines, row by row from the top-left."""
    parts = text.replace(",", " ").split()
    try:
        numbers = [int(p) for p in parts]
    except ValueError as exc:
        raise rules.LayoutError(tr("the custom board must be 100 whole numbers")) from exc
    return rules.parse_layout(numbers)


class PlayerRow(BoxLayout):
    def __init__(self, seat: int, on_colour: Any = None, **kwargs: Any) -> None:
        super().__init__(size_hint_y=None, height=TOUCH, spacing=6, **kwargs)
        self.seat = seat
        self.colour_listener = on_colour  # the form keeps partners' colours together
        self.name_input = TextInput(text=DEFAULT_NAMES[seat], multiline=False, font_size=FONT,
                                    write_tab=False, size_hint_x=0.45)
        self.colour = COLOURS[seat % len(COLOURS)]
        self.colour_button = BigButton(colour_name(self.colour), on_press=self.next_colour, size_hint_x=0.25,
                                       height=TOUCH)
        self.kind = "person"
        self.kind_button = BigButton(level_label(self.kind), on_press=self.next_kind, size_hint_x=0.3,
                                     height=TOUCH, fit_height=True)
        for widget in (self.name_input, self.colour_button, self.kind_button):
            self.add_widget(widget)
        self._show()

    def next_colour(self) -> None:
        self.set_colour(COLOURS[(COLOURS.index(self.colour) + 1) % len(COLOURS)])
        if self.colour_listener is not None:
            self.colour_listener(self)

    def set_colour(self, colour: str) -> None:
        self.colour = colour
        self._show()

    def next_kind(self) -> None:
        kinds = ("person", *LEVELS)
        self.kind = kinds[(kinds.index(self.kind) + 1) % len(kinds)]
        self._show()

    def _show(self) -> None:
        self.colour_button.text = colour_name(self.colour)
        self.colour_button.background_color = colour_rgba(self.colour)
        dark = self.colour in ("white", "yellow")
        self.colour_button.color = (0, 0, 0, 1) if dark else (1, 1, 1, 1)
        self.kind_button.text = level_label(self.kind)

    @property
    def name(self) -> str:
        return str(self.name_input.text).strip()


class SetupScreen(Screen):
    def __init__(self, ctx: Any, on_start: Any, **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.on_start = on_start
        outer = BoxLayout(orientation="vertical", padding=8, spacing=6)
        Background.paint(outer)
        scroll = ScrollView(do_scroll_x=False)
        form = BoxLayout(orientation="vertical", size_hint_y=None, spacing=6)
        form.bind(minimum_height=form.setter("height"))
        self.form = form
        form.add_widget(WrapLabel(tr("New game of 99"), font_size=sp(26), bold=True))
        form.add_widget(WrapLabel(tr("Players")))
        self.count = Choice([(str(n), str(n)) for n in (2, 3, 4, 6)], "2", on_change=self._players_changed)
        form.add_widget(self.count)
        self.rows_box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=6)
        self.rows_box.bind(minimum_height=self.rows_box.setter("height"))
        form.add_widget(self.rows_box)
        self.partners_label = WrapLabel(tr("Sides"))
        form.add_widget(self.partners_label)
        self.partners = Choice([("opposite", tr("Partners opposite")), ("alone", tr("Everyone alone"))],
                               "opposite", on_change=lambda _: self._sides_changed())
        form.add_widget(self.partners)
        # Who starts: the table cuts for it (lowest card in 1963, highest in 5of99); seats stay put.
        self.first = CycleButton([], "0", label=self._starts_label, height=TOUCH)
        form.add_widget(self.first)
        form.add_widget(WrapLabel(tr("Rules")))
        self.ruleset = Choice([("classic", tr("Classic (1963)")), ("5of99", tr("5of99"))], "classic")
        form.add_widget(self.ruleset)
        form.add_widget(WrapLabel(tr("Board layout")))
        self.layout = Choice([(k, layout_label(k)) for k in LAYOUTS], "spiral-out",
                             on_change=lambda _: self._layout_changed())
        form.add_widget(self.layout)
        self.custom = TextInput(hint_text=tr("100 numbers, row by row from the top-left"), font_size=sp(16),
                                size_hint_y=None, height=0, opacity=0)
        form.add_widget(self.custom)
        form.add_widget(WrapLabel(tr("Board")))
        self.source = Choice([(k, source_label(k)) for k in SOURCES], ctx.config.board_source)
        form.add_widget(self.source)
        scroll.add_widget(form)
        outer.add_widget(scroll)
        self.error = WrapLabel("", color=(1, 0.6, 0.3, 1))
        outer.add_widget(self.error)
        buttons = BoxLayout(size_hint_y=None, height=64, spacing=8)
        buttons.add_widget(BigButton(tr("Back"), on_press=lambda: ctx.go("home"), height=64))
        self.start_button = BigButton(tr("Start"), on_press=self.start, height=64, background_color=ACCENT)
        buttons.add_widget(self.start_button)
        outer.add_widget(buttons)
        self.add_widget(outer)
        self.player_rows: list[PlayerRow] = []
        self._players_changed("2")
        self._recall_layout()

    def _recall_layout(self) -> None:
        """Offer the last layout again, and a custom board's numbers (typed once per family)."""
        from app.settings import load_settings

        settings = load_settings()
        numbers = settings.get(CUSTOM_KEY)
        if isinstance(numbers, list) and len(numbers) == 100:
            rows = (numbers[r:r + 10] for r in range(0, 100, 10))
            self.custom.text = "\n".join(" ".join(str(n) for n in row) for row in rows)
        last = settings.get(LAYOUT_KEY)
        if last in LAYOUTS and (last != "custom" or self.custom.text):
            self.layout.select(last)

    def _remember_layout(self, setup: rules.Setup) -> None:
        from app.settings import load_settings, save_settings

        settings = load_settings()
        settings[LAYOUT_KEY] = self.layout.value
        if self.layout.value == "custom":
            settings[CUSTOM_KEY] = list(setup.layout.numbers)
        try:
            save_settings(settings)
        except OSError:  # a read-only data directory must not stop the game
            log.warning("could not remember the board layout", exc_info=True)

    def _players_changed(self, value: str) -> None:
        n = int(value)
        while len(self.player_rows) < n:
            row = PlayerRow(len(self.player_rows), on_colour=self._colour_changed)
            row.name_input.bind(text=lambda *_: self.first._show())
            self.player_rows.append(row)
        del self.player_rows[n:]
        first = self.first.value if int(self.first.value) < n else "0"
        self.first.set_options([(str(seat), str(seat)) for seat in range(n)], first)
        self.rows_box.clear_widgets()
        for row in self.player_rows:
            self.rows_box.add_widget(row)
        sides_matter = n in (4, 6)
        self.partners.disabled = not sides_matter
        self.partners.opacity = 1 if sides_matter else 0.4
        self._sides_changed()

    def _starts_label(self, seat: str) -> str:
        rows = getattr(self, "player_rows", [])  # the button is built before the rows
        name = rows[int(seat)].name if int(seat) < len(rows) else ""
        return tr("Starts: {name}", name=name)

    def _side_seats(self) -> list[list[int]]:
        """The seats of each side as the form stands (partners opposite, as rules.default_sides)."""
        n = len(self.player_rows)
        if n in (4, 6) and self.partners.value == "opposite":
            return [[seat, seat + n // 2] for seat in range(n // 2)]
        return [[seat] for seat in range(n)]

    def _sides_changed(self) -> None:
        """Partners show their side's colour (the first partner's); alone, everyone their own."""
        for index, seats in enumerate(self._side_seats()):
            first = self.player_rows[seats[0]]
            taken = {self.player_rows[s[0]].colour for s in self._side_seats()[:index]}
            if first.colour in taken:  # a partner's colour from before: give this side a free one
                first.set_colour(next(c for c in COLOURS if c not in taken))
            for seat in seats[1:]:
                self.player_rows[seat].set_colour(first.colour)

    def _colour_changed(self, row: PlayerRow) -> None:
        """A tap on a partner's colour changes the side's colour, skipping colours other sides have."""
        sides = self._side_seats()
        side = next(seats for seats in sides if row.seat in seats)
        others = {self.player_rows[seats[0]].colour for seats in sides if seats is not side}
        colour = row.colour
        while colour in others:
            colour = COLOURS[(COLOURS.index(colour) + 1) % len(COLOURS)]
        for seat in side:
            self.player_rows[seat].set_colour(colour)

    def _layout_changed(self) -> None:
        custom = self.layout.value == "custom"
        self.custom.height = 120 if custom else 0
        self.custom.opacity = 1 if custom else 0

    def build_setup(self) -> tuple[rules.Setup, TableSetup]:
        """The chosen setup, or SetupError / LayoutError saying what to fix."""
        names = [row.name for row in self.player_rows]
        layout: Any = self.layout.value
        seed = random.SystemRandom().randrange(1, 2**31)
        if layout == "random":
            layout = f"random:{seed}"
        elif layout == "custom":
            layout = parse_custom_layout(self.custom.text)
        n = len(names)
        sides = None
        if n in (4, 6) and self.partners.value == "alone":
            sides = [[name] for name in names]
        computers = {row.name: row.kind for row in self.player_rows if row.kind != "person"}
        deck = None
        if computers:  # one deck cannot be half paper, half virtual: deal on the screen
            deck = list(range(100))
            random.Random(seed).shuffle(deck)
        first = names[int(self.first.value)] if int(self.first.value) < n else None
        setup = rules.make_setup(names, ruleset=self.ruleset.value, layout=layout, sides=sides, first=first,
                                 deck=deck)
        colours = {row.name: row.colour for row in self.player_rows}
        for side in setup.sides:  # partners share a colour: the first partner's
            for member in side[1:]:
                colours[member] = colours[side[0]]
        side_colours = [colours[side[0]] for side in setup.sides]
        if len(set(side_colours)) != len(side_colours):
            raise rules.SetupError(tr("each side needs its own peg colour"))
        return setup, TableSetup(colours, computers, seed)

    def start(self) -> None:
        try:
            setup, table = self.build_setup()
        except rules.SetupError as exc:
            self.error.text = tr("Cannot start: {reason}", reason=reason_text(str(exc)))
            return
        self.error.text = ""
        self._remember_layout(setup)
        self.on_start(setup, table, self.source.value)


def source_label(key: str) -> str:
    return {"simulated": tr("On screen"), "gpio": tr("Hall sensors"), "serial": tr("Serial board"),
            "camera": tr("Camera"), "scripted": tr("Recording")}[key]
