"""Setup: variant, player names in seating order, the first dealer, and the optional rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from app.games.parlett.game import EntryRejected, check_variant_options
from app.i18n import tr
from app.ui.parlett.common import TOUCH, WARNING, FitToggle, button, label, paint
from app.ui.widgets import WrapLabel
from rules.parlett.variants import VARIANTS

if TYPE_CHECKING:
    from app.ui.parlett import ParlettUI

ROW = 48
NINE = "nine"  # the series choice for the German text's game of nine rounds


def variant_title(name: str) -> str:
    return {"three": tr("3 players"), "four": tr("4 players"), "five": tr("5 players"),
            "two": tr("2 players + dummy"), "original": tr("Original 99")}[name]


class SetupScreen(Screen):
    """Choices are plain attributes (``variant``, ``names``, ``options``) so tests can read them."""

    def __init__(self, ui: ParlettUI, **kwargs: Any) -> None:
        super().__init__(name="parlett-setup", **kwargs)
        self.ui = ui
        self.variant = "three"
        self.dealer_index = 0
        self.target: int | str | None = None  # None: the variant's rubber; "nine": nine rounds; or points
        self.flags = {"hidden_bids": False, "new_game_no_trump": True, "declarer_chooses_trumps": False,
                      "nines_as_trumps": False, "unbidden": False, "hard_score": False}
        self.inputs: list[TextInput] = []
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        paint(root)
        root.add_widget(label(tr("New game of Ninety-Nine"), font=26, size_hint_y=None, height=40))
        body = BoxLayout(orientation="vertical", spacing=6, size_hint_y=None)
        body.bind(minimum_height=body.setter("height"))
        # five in a row in landscape; three a row on a portrait phone (set in ``_arrange``)
        self.variant_row = GridLayout(cols=5, spacing=4, size_hint_y=None)
        self.variant_row.bind(minimum_height=self.variant_row.setter("height"))
        for name in VARIANTS:
            # wraps and shrinks inside the button: "2 Spieler + Strohmann" is wider than a fifth of 800 px
            toggle = FitToggle(variant_title(name), font=17, group="parlett-variant",
                               allow_no_selection=False, state="down" if name == self.variant else "normal",
                               height=ROW)
            toggle.variant = name
            toggle.bind(on_release=lambda b: self.choose_variant(b.variant))
            self.variant_row.add_widget(toggle)
        body.add_widget(self.variant_row)
        body.add_widget(WrapLabel(tr("Players in seating order (each one's left is the next):"),
                                  font_size=sp(17), halign="center"))
        self.names_box = GridLayout(cols=3, spacing=4, size_hint_y=None)
        self.names_box.bind(minimum_height=self.names_box.setter("height"))
        body.add_widget(self.names_box)
        # the first dealer and the rubber's length side by side (landscape): everything fits 480 px
        self.table_row = GridLayout(cols=2, spacing=4, size_hint_y=None)
        self.table_row.bind(minimum_height=self.table_row.setter("height"))
        self.dealer_button = button("", self.next_dealer, font=18, size_hint_y=None, height=ROW)
        self.target_button = button("", self.next_target, font=18, size_hint_y=None, height=ROW)
        self.table_row.add_widget(self.dealer_button)
        self.table_row.add_widget(self.target_button)
        body.add_widget(self.table_row)
        self.option_buttons: dict[str, FitToggle] = {}
        self.options_grid = options = GridLayout(cols=3, spacing=4, size_hint_y=None)
        options.bind(minimum_height=options.setter("height"))
        for key, text in (("hidden_bids", tr("Hide bids until the deal is scored")),
                          ("new_game_no_trump", tr("Each new game starts at no trump")),
                          ("declarer_chooses_trumps", tr("Declarer chooses trumps")),
                          ("nines_as_trumps", tr("Nines as trumps")),
                          ("unbidden", tr("Unbidden (last three cards are the bid)")),
                          ("hard_score", tr("Hard score: settle up at the end"))):
            toggle = FitToggle(text, font=15, state="down" if self.flags[key] else "normal", height=ROW)
            toggle.flag = key
            toggle.bind(state=lambda b, s: self.flags.__setitem__(b.flag, s == "down"))
            self.option_buttons[key] = toggle
            options.add_widget(toggle)
        body.add_widget(options)
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(body)
        root.add_widget(scroll)
        self.error = label("", font=16, color=WARNING, size_hint_y=None, height=24, shorten=True)
        root.add_widget(self.error)
        bottom = BoxLayout(size_hint_y=None, height=58, spacing=8)
        bottom.add_widget(button(tr("Back"), ui.go_home))
        self.start_button = button(tr("Start"), self.start, accent=True)
        bottom.add_widget(self.start_button)
        root.add_widget(bottom)
        self.add_widget(root)
        self.choose_variant("three")
        self.bind(size=lambda *_: self._arrange())

    def _arrange(self) -> None:
        """Fewer columns on a portrait phone, taller rows there, so every label fits its button."""
        portrait = self.height > self.width
        self.variant_row.cols = 3 if portrait else 5
        self.options_grid.cols = 2 if portrait else 3
        self.table_row.cols = 1 if portrait else 2
        for toggle in [*self.variant_row.children, *self.options_grid.children]:
            toggle.height = ROW + 16 if portrait else ROW

    # -- choices --------------------------------------------------------------------------------
    def choose_variant(self, name: str) -> None:
        self.variant = name
        variant = VARIANTS[name]
        old = [i.text for i in self.inputs]
        self.names_box.clear_widgets()
        self.inputs = []
        for i in range(variant.players):
            text = old[i] if i < len(old) else tr("Player {n}", n=i + 1)
            field = TextInput(text=text, multiline=False, font_size="20sp", size_hint_y=None,
                              height=TOUCH + 4, write_tab=False)
            field.bind(text=lambda *_: self.refresh())
            self.inputs.append(field)
            self.names_box.add_widget(field)
        self.dealer_index %= variant.players
        for child in self.variant_row.children:
            child.state = "down" if child.variant == name else "normal"
        self.option_buttons["unbidden"].disabled = name != "three"
        for key in ("declarer_chooses_trumps", "nines_as_trumps", "new_game_no_trump"):
            self.option_buttons[key].disabled = name == "original"
        self.refresh()

    @property
    def names(self) -> list[str]:
        return [i.text.strip() for i in self.inputs]

    def next_dealer(self) -> None:
        self.dealer_index = (self.dealer_index + 1) % len(self.inputs)
        self.refresh()

    def next_target(self) -> None:
        """The series: the variant's rubber, the German text's nine rounds, or a target score."""
        choices: list[int | str | None] = [None, NINE, 250, 500]
        self.target = choices[(choices.index(self.target) + 1) % len(choices)]
        self.refresh()

    def options(self) -> dict[str, Any]:
        chosen: dict[str, Any] = {}
        if self.flags["hidden_bids"]:
            chosen["hidden_bids"] = True
        if self.variant != "original":
            if not self.flags["new_game_no_trump"]:
                chosen["new_game_trump"] = "continue"
            for key in ("declarer_chooses_trumps", "nines_as_trumps"):
                if self.flags[key]:
                    chosen[key] = True
            if self.target == NINE:
                chosen["nine_rounds"] = True
            elif self.target is not None:
                chosen["target"] = self.target
        if self.variant == "three" and self.flags["unbidden"]:
            chosen["unbidden"] = True
        if self.flags["hard_score"]:
            chosen["hard_score"] = True  # two players: the dummy rule's winner wins double
        return chosen

    def refresh(self) -> None:
        names = self.names
        dealer = names[self.dealer_index] or "?"
        self.dealer_button.text = tr("First dealer: {name} (tap to change)", name=dealer)
        if self.variant == "original":
            self.target_button.text = tr("Rubber: nine hands")
            self.target_button.disabled = True
        else:
            self.target_button.disabled = False
            games = VARIANTS[self.variant].rubber_games
            if self.target is None:
                self.target_button.text = tr("Rubber: {n} games", n=games)
            elif self.target == NINE:
                self.target_button.text = tr("Nine rounds (German rules)")
            else:
                self.target_button.text = tr("Play to {points} points", points=self.target)
        self.error.text = ""

    def start(self) -> None:
        names = self.names
        if any(not n for n in names):
            self.error.text = tr("Every player needs a name.")
            return
        if len(set(names)) != len(names):
            self.error.text = tr("Two players have the same name.")
            return
        if self.variant == "two" and "dummy" in names:
            self.error.text = tr("\"dummy\" is the dummy's name; choose another.")
            return
        problem = check_variant_options(self.variant, self.options())
        if problem is not None:
            self.error.text = problem
            return
        try:
            self.ui.start_game(self.variant, names, names[self.dealer_index], self.options())
        except EntryRejected as exc:
            self.error.text = tr("The rules refuse this: {why}", why=str(exc))
