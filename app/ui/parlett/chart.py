"""A chart of the running totals deal by deal, drawn with Kivy graphics (no plotting library)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.graphics import Color, Line, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from app.i18n import tr
from app.ui.parlett.common import PLAYER_COLOURS, button, label, paint
from app.ui.parlett.pads import hand_name

if TYPE_CHECKING:
    from app.ui.parlett import ParlettUI


SPREAD = 8  # px between lines drawn for equal totals: a line (2.5 px wide) and a clear gap


class TotalsChart(Widget):
    """One line per hand through its rubber total after each deal (0 before the first).

    Where several hands have the same total the lines would lie on top of each other and hide all
    but the last drawn, so equal points are spread apart vertically, centred on the true value."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.series: dict[str, list[int]] = {}
        self.game_ends: list[int] = []  # deal numbers after which a game ended (drawn as rules)
        self.lines: dict[str, Line] = {}
        self.drawn: dict[str, list[float]] = {}  # the points as drawn, after spreading equal totals
        self.bind(pos=lambda *_: self.redraw(), size=lambda *_: self.redraw())

    def set_series(self, series: dict[str, list[int]], game_ends: list[int] | None = None) -> None:
        self.series = series
        self.game_ends = game_ends or []
        self.redraw()

    def points_for(self, values: list[int]) -> list[float]:
        """Widget coordinates of a series (exposed so tests can check the drawing's geometry)."""
        all_values = [v for s in self.series.values() for v in s] or [0]
        low, high = min(0, *all_values), max(1, *all_values)
        steps = max(1, max(len(s) for s in self.series.values()) - 1) if self.series else 1
        pad = 30
        width, height = max(1, self.width - 2 * pad), max(1, self.height - 2 * pad)
        points: list[float] = []
        for i, v in enumerate(values):
            points += [self.x + pad + width * i / steps, self.y + pad + height * (v - low) / (high - low)]
        return points

    def spread_points(self) -> dict[str, list[float]]:
        """Each series' points, with hands that share a total at a deal spread ``SPREAD`` apart."""
        drawn = {hand: self.points_for(values) for hand, values in self.series.items()}
        length = max((len(v) for v in self.series.values()), default=0)
        for i in range(length):
            groups: dict[int, list[str]] = {}
            for hand, values in self.series.items():
                if i < len(values):
                    groups.setdefault(values[i], []).append(hand)
            for hands in groups.values():
                for j, hand in enumerate(hands):
                    drawn[hand][2 * i + 1] += (j - (len(hands) - 1) / 2) * SPREAD
        return drawn

    def redraw(self) -> None:
        self.canvas.clear()
        self.clear_widgets()
        self.lines = {}
        self.drawn = self.spread_points()
        with self.canvas:
            Color(0.07, 0.17, 0.11, 1)
            Rectangle(pos=self.pos, size=self.size)
            Color(1, 1, 1, 0.35)
            Line(points=[self.x + 30, self.y + 30, self.right - 30, self.y + 30], width=1)
            Line(points=[self.x + 30, self.y + 30, self.x + 30, self.top - 30], width=1)
            if self.series:
                length = max(len(s) for s in self.series.values())
                Color(1, 1, 1, 0.25)
                for end in self.game_ends:
                    x = self.points_for([0] * length)[2 * end] if end < length else None
                    if x is not None:
                        Line(points=[x, self.y + 30, x, self.top - 30], width=1, dash_length=6, dash_offset=4)
            for index, hand in enumerate(self.series):
                Color(*PLAYER_COLOURS[index % len(PLAYER_COLOURS)])
                points = self.drawn[hand]
                if len(points) >= 4:
                    self.lines[hand] = Line(points=points, width=2.5)
                for px, py in zip(points[::2], points[1::2], strict=True):
                    Line(circle=(px, py, 4), width=2)
        all_values = [v for s in self.series.values() for v in s] or [0]
        top = Label(text=str(max(1, *all_values)), pos=(self.x, self.top - 28), size=(60, 24),
                    font_size="14sp")
        self.add_widget(top)


class ChartScreen(Screen):
    def __init__(self, ui: ParlettUI, **kwargs: Any) -> None:
        super().__init__(name="parlett-chart", **kwargs)
        self.ui = ui
        root = BoxLayout(orientation="vertical", padding=6, spacing=4)
        paint(root)
        root.add_widget(label(tr("Totals deal by deal"), font=26, size_hint_y=None, height=44))
        self.legend = GridLayout(size_hint_y=None, height=36, spacing=6)
        root.add_widget(self.legend)
        self.chart = TotalsChart()
        root.add_widget(self.chart)
        root.add_widget(button(tr("Back"), ui.show_totals, size_hint_y=None, height=60))
        self.add_widget(root)

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def on_size(self, *_: Any) -> None:
        if self.ui.session is not None:  # turned to portrait or back: the legend's rows change
            self.refresh()

    def refresh(self) -> None:
        sheet = self.ui.session.sheet
        hands = sheet.table.hands
        series = {h: [0] + [d.rubber_totals[h] for d in sheet.deals] for h in hands}
        ends = [max(d.number for d in sheet.deals if d.game == g.number) for g in sheet.games]
        self.chart.set_series(series, ends)
        self.legend.clear_widgets()
        # a row of names in landscape; on a narrow portrait screen two a row (five players' names)
        self.legend.cols = len(hands) if self.width >= self.height else min(len(hands), 2)
        self.legend.height = 32 * -(-len(hands) // self.legend.cols)
        for index, hand in enumerate(hands):
            self.legend.add_widget(label(f"— {hand_name(hand)} {series[hand][-1]}", font=18, shorten=True,
                                         color=PLAYER_COLOURS[index % len(PLAYER_COLOURS)], bold=True))
