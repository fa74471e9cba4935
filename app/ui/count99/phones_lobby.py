"""Ninety Nine with phones, the lobby on the table's screen: the QR code, the seat codes, who joined.

Left: the web display's QR code and address for this table (a phone scans it, picks its seat and
types the seat's code and a name). Right: each seat with its 4-digit code in large type, who has
joined, and per seat a new code (a burnt code, a lost phone) or "Computer" (nobody came); a
computer's seat can become a person's again. Start is enabled once every person's seat has joined;
until then the line above it says whose seats are missing.

The screen looks at ``table.snapshot`` on a 5 Hz Clock poll (a phone joining through the web
thread shows within a fifth of a second) and redraws from ``table.host_view`` (the codes), both
lock-free; the host's taps run on a worker thread (:class:`HostActions`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from app.games.count99.phones import PERSON, STAND_IN
from app.games.count99.texts import variant_name
from app.games.views import Tr
from app.i18n import language, tr, trn
from app.ui import theme
from app.ui.count99.phones_link import FollowsTable, HostActions, join_url, web_missing, web_of
from app.ui.count99.phones_setup import seat_kind_name
from app.ui.count99.widgets import Text, paint
from app.ui.web_join import qr_texture
from app.ui.widgets import ACCENT, BigButton, ConfirmBox, WrapLabel, text_height

NAME = "count99-phones-lobby"
ROW = 56
CODE_COLOUR = (1, 0.84, 0.3, 1)  # the web join screen's code colour: about 12:1 on the ground


class FitText(Text):
    """A label whose font shrinks (down to 13 px) until its wrapped lines fit its box."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(text, **kwargs)
        self._base_font = self.font_size
        self.bind(size=self._fit, text=self._fit)

    def _fit(self, *_: Any) -> None:
        size = self._base_font
        while size > theme.MIN_FONT and text_height(self.text, size, self.width) > self.height:
            size -= 1
        self.font_size = size


class PhonesLobbyScreen(FollowsTable, Screen):
    """``on_started(table)`` once the game has started (from here or from the web); ``on_closed(table)``
    when the host closes the table instead."""

    def __init__(self, ctx: Any, actions: HostActions, on_started: Callable[[Any], Any],
                 on_closed: Callable[[Any], Any], **kwargs: Any) -> None:
        super().__init__(name=NAME, **kwargs)
        self.ctx = ctx
        self.actions = actions
        self.on_started = on_started
        self.on_closed = on_closed
        self.shown_url = ""
        root = BoxLayout(padding=10, spacing=10)
        paint(root)
        self.add_widget(root)
        left = BoxLayout(orientation="vertical", spacing=6, size_hint_x=None, width=250)
        root.add_widget(left)
        self.qr = Image(fit_mode="contain", size_hint_y=None, height=240)
        left.add_widget(self.qr)
        self.address = WrapLabel("", font_size=sp(15))
        left.add_widget(self.address)
        self.how = WrapLabel(tr("Scan the code or open the address, choose your seat, type its code "
                                "and your name."), font_size=sp(16), color=theme.TEXT_MUTED)
        left.add_widget(self.how)
        left.add_widget(BoxLayout())
        right = BoxLayout(orientation="vertical", spacing=6)
        root.add_widget(right)
        self.title = Text("", font_size=sp(22), bold=True, size_hint_y=None, height=34)
        right.add_widget(self.title)
        self.rows = BoxLayout(orientation="vertical", spacing=6, size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll = ScrollView(do_scroll_x=False)  # eight seats do not fit: they scroll
        scroll.add_widget(self.rows)
        right.add_widget(scroll)
        self.reason = FitText("", font_size=sp(theme.READABLE), size_hint_y=None, height=48)
        right.add_widget(self.reason)
        buttons = BoxLayout(size_hint_y=None, height=56, spacing=8)
        buttons.add_widget(BigButton(tr("Close the table"), on_press=self.ask_close, height=56))
        self.start_button = BigButton(tr("Start"), on_press=self.start, height=56, background_color=ACCENT)
        buttons.add_widget(self.start_button)
        right.add_widget(buttons)

    # -- following the table (FollowsTable) ----------------------------------------------------------
    def moved_on(self, table: Any, snapshot: dict[str, Any]) -> bool:
        if snapshot.get("started"):  # started here or from the host's phone: the game screen takes it
            self.on_started(table)
            return True
        return False

    # -- showing ------------------------------------------------------------------------------------
    def refresh(self) -> None:
        table = self.session
        if table is None:
            return
        host = table.host_view(Tr(language()))  # lock-free: the last change's state and the codes
        self.shown_seq = host.get("seq")
        self.title.text = tr("{rules}: {n} seats", rules=variant_name(host["variant"]), n=len(host["seats"]))
        self._show_address(table)
        self.rows.clear_widgets()
        for state in host["seats"]:
            self.rows.add_widget(self._seat_row(state))
        missing = [s["index"] + 1 for s in host["seats"] if s["kind"] == PERSON and not s["joined"]]
        web_line = web_missing(self.ctx)
        self.start_button.disabled = bool(missing) or bool(web_line) or self.actions.pending > 0
        if web_line:
            text, colour = web_line, theme.PROBLEM_TEXT
        elif self.note:
            text, colour = self.note, theme.PROBLEM_TEXT
        elif host.get("joins_locked"):  # someone guessed codes: a new code (any seat) opens joins again
            text = tr("Too many wrong codes: nobody can join until you make a new code.")
            colour = theme.PROBLEM_TEXT
        elif missing:
            text = trn("Start when everyone has joined: waiting for seat {list}.",
                       "Start when everyone has joined: waiting for seats {list}.", len(missing),
                       list=", ".join(map(str, missing)))
            colour = theme.TEXT
        else:
            text, colour = tr("Everyone is here: start the game."), theme.GOOD_TEXT
        self.reason.text, self.reason.color = text, colour

    def _show_address(self, table: Any) -> None:
        web = web_of(self.ctx)
        if web is None:
            self.qr.texture, self.qr.opacity = None, 0
            self.address.text = web_missing(self.ctx)
            self.address.color = theme.PROBLEM_TEXT
            self.shown_url = ""
            return
        url = join_url(web, table.table_id)
        if url != self.shown_url:  # the address may change with the network: a new code only then
            self.qr.texture, self.qr.opacity = qr_texture(url), 1
            self.shown_url = url
        self.address.text, self.address.color = url, theme.TEXT

    def _seat_row(self, state: dict[str, Any]) -> BoxLayout:
        index = state["index"]
        row = BoxLayout(size_hint_y=None, height=ROW, spacing=6, padding=(0, 2))
        row.add_widget(Label(text=str(index + 1), font_size=sp(22), bold=True, size_hint_x=None, width=28))
        person = state["kind"] == PERSON
        code = state.get("code") if person else None
        code_label = Label(text=code or "", font_size=sp(34), bold=True, color=CODE_COLOUR,
                           size_hint_x=None, width=100)
        code_label.seat_code = index
        row.add_widget(code_label)
        if not person:
            said = seat_kind_name(state["kind"])
        elif state["joined"]:
            said = tr("{name} joined", name=state["name"])
        elif state.get("burnt"):
            said = tr("Code burnt: make a new one")
        else:
            said = tr("Waiting for a phone")
        status = FitText(said, font_size=sp(18),
                         color=theme.GOOD_TEXT if person and state["joined"] else theme.TEXT)
        status.seat_status = index
        row.add_widget(status)
        if person:
            row.add_widget(BigButton(tr("New code"), on_press=lambda: self.new_code(index),
                                     size_hint=(None, 1), width=100, font_size=sp(17)))
            row.add_widget(BigButton(tr("Computer"), on_press=lambda: self.set_kind(index, STAND_IN),
                                     size_hint=(None, 1), width=110, font_size=sp(17)))
        else:
            row.add_widget(BigButton(tr("Person"), on_press=lambda: self.set_kind(index, PERSON),
                                     size_hint=(None, 1), width=216, font_size=sp(17)))
        return row

    # -- the host's taps ----------------------------------------------------------------------------
    def new_code(self, index: int) -> None:
        table = self.session
        self.actions.run(lambda: table.new_code(index), self.action_done)

    def set_kind(self, index: int, kind: str) -> None:
        table = self.session
        self.actions.run(lambda: table.set_seat(index, kind), self.action_done)

    def start(self) -> None:
        table = self.session
        self.start_button.disabled = True  # one tap starts one game

        def done(text: str) -> None:
            if text:
                self.action_done(text)
            else:
                self.on_started(table)

        title = ", ".join(s["name"] for s in table.snapshot["seats"])
        self.actions.run(lambda: table.start(title=title), done)

    def ask_close(self) -> None:
        snapshot = self.session.snapshot if self.session is not None else {"seats": []}
        if any(s["joined"] for s in snapshot["seats"]):
            ConfirmBox(tr("Close the table? The phones that joined lose their seats."), self.close,
                       yes=tr("Close the table")).open()
        else:
            self.close()

    def close(self) -> None:
        table, self.session = self.session, None
        self.on_closed(table)

