"""Every screen of the app in a typical state, built headless as a player would reach it.

``SCREENS`` maps a name to a function ``build(ui) -> root`` that leaves the Kivy window showing that
screen (with any popup open). ``tests/test_screen_audit.py`` audits each in English and German, and
``python -m tests.screen_catalog`` saves a screenshot of each under test-artifacts/screens/.

To audit more screens (the Parlett screens after their rework), add builders to ``SCREENS`` or to
``EXTRA_SCREENS`` (``TABLE99_AUDIT_SCREENS=parlett-setup,...`` picks which run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.config import Config
from app.store import GameStore
from tests.exhibit_catalog import EXHIBIT_LOOP_SCREENS
from tests.fakes import FakeClock
from tests.phones_table_catalog import PHONES_TABLE_SCREENS
from tests.ui_support import UI, find, frames, open_modal, tap, tap_hole


def app_root(ui: UI, config: Config | None = None, store: GameStore | None = None) -> Any:
    from dataclasses import replace

    from app import i18n
    from app.paths import default_database
    from app.ui.shell import Table99App

    config = replace(config or Config(), language=i18n.language())
    app = Table99App(config=config, store=store or GameStore(default_database()))
    root = app.build()
    root.app = app
    ui.show(root)
    return root


def go(root: Any, name: str) -> Any:
    root.current = name
    frames(3)
    return root


class Board:
    """The board game driven by taps (as tests/test_ui_board99.py does)."""

    def __init__(self, ui: UI, players: tuple[str, ...] = ("Mia", "Fin"), colours: tuple[str, ...] = (),
                 computer: bool = False) -> None:
        from app.i18n import tr

        self.root = app_root(ui)
        self.screen = self.root.get_screen("board99-game")
        self.clock = FakeClock()
        self.screen.clock = self.clock
        go(self.root, "board99-setup")
        setup = self.root.get_screen("board99-setup")
        if len(players) != 2:
            setup.count.select(str(len(players)))
        for row, name in zip(setup.player_rows, players, strict=False):
            row.name_input.text = name
        if colours:
            setup.partners.select("alone")
        for row, colour in zip(setup.player_rows, colours, strict=False):
            row.set_colour(colour)
        if computer:
            setup.player_rows[1].next_kind()
        setup.layout.select("rows")
        tap(find(self.root, text=tr("Start")))
        self.settle()

    def settle(self) -> None:
        self.think()
        frames(1)
        self.clock.now += 0.5
        self.screen.pump()
        self.think()
        frames(2)

    def think(self) -> None:
        """Wait for the computers' choices (made on a worker thread) and let the screen apply them."""
        referee = self.screen.referee
        if referee is not None:
            assert referee.finish_thinking(), "a computer's choice never came"
            frames(1)

    def press(self, text: str) -> None:
        tap(find(self.screen, text=text))
        self.think()

    def card(self, card: int) -> None:
        modal = open_modal()
        for key in str(card):
            tap(find(modal, pad_key=key))
        tap(find(modal, pad_key=modal.pad.ok_text))
        frames(2)

    def hole(self, hole: int) -> None:
        tap_hole(self.screen.board, hole)
        self.settle()

    def play(self, card: int, hole: int) -> None:
        from app.i18n import tr

        self.press(tr("PLAY"))
        self.card(card)
        self.hole(hole)


def home(ui: UI) -> Any:
    return app_root(ui)


def home_hardware(ui: UI) -> Any:
    return app_root(ui, Config(board_source="gpio"))


def home_unfinished(ui: UI) -> Any:
    from app.games.board99.game import Board99Game, TableSetup
    from app.paths import default_database
    from rules import board99 as rules

    store = GameStore(default_database())
    for names in (("Ann", "Ben"), ("Mia", "Fin", "Tom")):
        game = Board99Game.create(store, rules.make_setup(list(names)), TableSetup({}))
        new_state, _ = rules.apply(game.state, rules.Draw(names[0]))
        game.commit(rules.Draw(names[0]), new_state)
    return app_root(ui, store=store)


def history(ui: UI) -> Any:
    root = home_unfinished(ui)
    from app.i18n import tr

    go(root, "history")
    tap(find(root, text=tr("Export")))
    return root


def settings(ui: UI) -> Any:
    return go(app_root(ui), "settings")


def board_setup(ui: UI) -> Any:
    return go(app_root(ui), "board99-setup")


def board_start(ui: UI) -> Any:
    return Board(ui).root


def board_pegs(ui: UI) -> Any:
    """Six players, every peg colour on the board; Fin (black) to move."""
    from app.i18n import tr

    names = ("Ann", "Ben", "Cat", "Dan", "Eva", "Fin")
    b = Board(ui, players=names, colours=("red", "blue", "green", "yellow", "white", "black"))
    for _ in names:
        b.press(tr("DRAW"))
    for i, _ in enumerate(names[:-1]):
        b.play(i * 11, i * 11)
    return b.root


def board_play_pad(ui: UI) -> Any:
    from app.i18n import tr

    b = Board(ui)
    b.press(tr("DRAW"))
    b.press(tr("DRAW"))
    b.press(tr("PLAY"))
    return b.root


def board_penalty(ui: UI) -> Any:
    from app.i18n import tr

    b = Board(ui)
    b.press(tr("DRAW"))
    b.press(tr("DRAW"))
    b.play(60, 57)
    b.hole(57)  # the illegal peg taken off: the penalty stands
    return b.root


def board_win(ui: UI) -> Any:
    from app.i18n import tr

    b = Board(ui)
    for i in range(5):
        b.press(tr("DRAW"))
        b.press(tr("DRAW"))
        b.play(i, 50 + i)
        if b.screen.game.state.outcome is not None:
            break
        b.play(10 + i, 70 + i * 2)
    return b.root


def board_computer_cards(ui: UI) -> Any:
    from app.i18n import tr

    b = Board(ui, computer=True)
    b.press(tr("DRAW"))  # Mia draws, the computer draws: Mia holds a card
    b.settle()
    b.press(tr("My cards"))
    return b.root


def board_undo_confirm(ui: UI) -> Any:
    from app.i18n import tr

    b = Board(ui)
    b.press(tr("DRAW"))
    tap(b.screen.undo_button)  # asks first
    return b.root


def board_who_played(ui: UI) -> Any:
    """A peg nobody announced: the screen asks who played it, with which card."""
    from app.i18n import tr
    from tests.ui_support import frames_until

    b = Board(ui)
    b.press(tr("DRAW"))
    b.press(tr("DRAW"))
    b.hole(33)
    frames_until(lambda: b.screen.modal is not None and b.screen.modal.parent is not None)
    return b.root


def count_ace_choice(ui: UI) -> Any:
    root = count_computer(ui)
    screen = root.get_screen("count99-computer")
    screen.session.game.hands[0][0] = "A"  # an Ace in slot 1 (shown only, never stored)
    screen.refresh()
    screen.play_slot(0)
    frames(2)
    return root


def count_setup(ui: UI) -> Any:
    return go(app_root(ui), "count99-setup")


def count_keeper(ui: UI) -> Any:
    from app.games.count99.game import KeptGame
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    root = app_root(ui)
    ui_count = root.app.ctx.extras["count99"]
    ui_count.start_table(Setup(Variant.QUENTIN_C, ("Ann", "Ben", "Cat")))
    frames(3)
    keeper = root.get_screen("count99-table")
    assert isinstance(keeper.game, KeptGame)
    return root


def count_computer(ui: UI) -> Any:
    from rules.count99.cards import Variant
    from rules.count99.table import Setup

    root = app_root(ui)
    ui_count = root.app.ctx.extras["count99"]
    ui_count.computer.delay = 0
    ui_count.start_computer(Setup(Variant.QUENTIN_C, ("You", "Ben", "Cat")), "easy", False)
    frames(10)
    return root


def teach_board(ui: UI) -> Any:
    root = app_root(ui, Config(board_source="gpio"))
    return go(root, "teach_board")


def camera_calibration(ui: UI) -> Any:
    """The camera calibration's colour step, with the red peg in the wrong hole (refused)."""
    from dataclasses import replace
    from types import SimpleNamespace

    from app.config import parse_config
    from app.paths import default_database
    from app.ui.camera_calibration import CameraCalibrationScreen
    from tests.render_board import SMALL, Scene, render
    from tests.ui_support import find

    class Camera:
        realtime = True

        def __init__(self) -> None:
            self.scene = Scene(size=SMALL, rotation=-4, tilt=0.2)

        def read(self) -> Any:
            return render(self.scene)

        def close(self) -> None:
            pass

    camera = Camera()
    ctx = SimpleNamespace(config=parse_config(""), manager=None, go=lambda name: None)
    screen = CameraCalibrationScreen(ctx, open_capture=lambda: camera,
                                     save_to=default_database().parent / "camera-audit.json")
    ui.show(screen)
    screen.on_enter()
    frames(2)
    tap(find(screen, text=tr_("Keep the holes")))
    tap(find(screen, text=tr_("Learn")))
    hole = screen.session.target_hole
    camera.scene = replace(camera.scene, pegs={hole + 2: "red"})
    for _ in range(screen.recent.maxlen):  # a step learns the last few frames of the still board
        screen.next_frame()
    tap(find(screen, text=tr_("Learn")))
    frames(2)
    return screen


def camera_calibration_grid(ui: UI) -> Any:
    """A board without stickers: four rough taps refined onto its lines, the grid to confirm."""
    from types import SimpleNamespace

    from app.config import parse_config
    from app.paths import default_database
    from app.ui.camera_calibration import CameraCalibrationScreen
    from tests.render_grid_board import grid_board, rough_taps

    class Camera:
        realtime = True

        def read(self) -> Any:
            return grid_board()

        def close(self) -> None:
            pass

    ctx = SimpleNamespace(config=parse_config(""), manager=None, go=lambda name: None)
    screen = CameraCalibrationScreen(ctx, open_capture=lambda: Camera(),
                                     save_to=default_database().parent / "camera-grid-audit.json")
    ui.show(screen)
    screen.on_enter()
    frames(2)
    for x, y in rough_taps():
        screen._said(screen.session.touch_corner(screen.frame, x, y))
    screen.next_frame()
    screen.refresh()
    frames(2)
    return screen


def web_join(ui: UI) -> Any:
    """Phones, tablets and TV: the view's QR code, a paired tablet to revoke, then a pairing code."""
    from pathlib import Path
    from types import SimpleNamespace

    from app.paths import default_database
    from app.web.pairing import Access

    folder = Path(default_database()).parent / "web-audit"
    folder.mkdir(exist_ok=True)
    access = Access(folder)
    code, _ = access.new_code()
    access.pair(code, "Tablet")  # a name the user typed (no word to translate)
    web = SimpleNamespace(access=access, view_url=lambda: "http://192.168.1.20:8099/v/" + "x" * 22 + "/live",
                          pair_url=lambda c: f"http://192.168.1.20:8099/v/{'x' * 22}/pair?code={c}")
    root = app_root(ui)
    root.app.ctx.extras["live"] = SimpleNamespace(web=web)
    return go(root, "web-join")


def web_join_pairing(ui: UI) -> Any:
    root = web_join(ui)
    root.get_screen("web-join").new_code()
    frames(2)
    return root


# --- exhibitor mode (issue 15): the staff screen, locked and unlocked -----------------------------
def exhibit_staff(ui: UI, state: str) -> Any:
    """The staff screen over the family's app: ``locked`` (two dots and "Wrong PIN."), ``wait``
    (the countdown after three wrong PINs) or ``unlocked`` (counts, after an export)."""
    from app.exhibit.counts import DemoCounts
    from app.exhibit.lock import StaffLock
    from app.ui.exhibit.staff import StaffScreen

    root = app_root(ui)
    ctx = root.app.ctx
    lock = StaffLock("" if state == "no-pin" else "4711", FakeClock())
    if state == "no-pin":  # what exhibit_extras gives for [exhibit] enabled = true without a pin
        from app.config import Config
        from app.exhibit.parts import exhibit_extras

        extras = exhibit_extras(Config(exhibit={"enabled": True, "pin": ""}, path="/etc/table99/config.toml"),
                                ctx.store)
        assert extras is not None
        extras["scratch"].close()
        ctx.extras["exhibit"] = extras
    counts = DemoCounts(ctx.store, "Spiel 2026")
    for outcome in ("finished", "finished", "idle", "visitor", ""):
        demo = counts.started("board99")
        if outcome == "finished":
            counts.finished(demo)
        elif outcome:
            counts.stopped(demo, outcome)
    screen = StaffScreen(ctx, lock, counts, on_back=lambda: None, on_leave_exhibit=lambda: None)
    root.add_widget(screen)
    go(root, screen.name)
    tries = {"locked": ["12"], "wait": ["0000", "1234", "5555"], "unlocked": ["4711"],
             "no-pin": ["4711"]}[state]
    for entry in tries:
        screen.type(entry)
        screen.press("ok")
    if state == "unlocked":
        screen.export()
    else:
        screen.type("34")  # two dots on show
    frames(3)
    return root
def exhibit_visitor(ui: UI, visitor: list[int], computer: list[int]) -> Any:
    """A visitor's guided game (exhibitor mode) with known hands, the scratch store in the data dir."""
    from tests.exhibit_visitor_support import Visitor, dealt

    v = Visitor(ui)
    v.screen.new_setup = dealt(v.screen, visitor, computer)
    v.start()
    return v


def exhibit_visitor_start(ui: UI) -> Any:
    return exhibit_visitor(ui, [], []).root


def exhibit_visitor_hint(ui: UI) -> Any:
    """The visitor holds five cards: the guide names one and its squares glow."""
    return exhibit_visitor(ui, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93]).root


def exhibit_visitor_remove_peg(ui: UI, take_off: bool = False) -> Any:
    """Card 99 on square 50: the referee asks for the peg back, the guide says why."""
    v = exhibit_visitor(ui, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.press(tr_("PLAY"))
    v.pick(99)
    v.tap_hole(50)
    v.settle()
    if take_off:
        v.tap_hole(50)
        v.settle()
    return v.root


def exhibit_visitor_who_played(ui: UI) -> Any:
    """A peg put in without PLAY: the pad asks which of the visitor's cards it is for."""
    from tests.ui_support import frames_until

    v = exhibit_visitor(ui, [23, 45, 71, 80, 99], [55, 66, 77, 88, 93])
    v.tap_hole(60)
    v.settle()
    frames_until(lambda: v.screen.modal is not None and v.screen.modal.parent is not None)
    return v.root


def exhibit_visitor_won(ui: UI) -> Any:
    v = exhibit_visitor(ui, [0, 1, 2, 3, 4], [55, 66, 77, 88, 93])
    v.screen.result_seconds = 3600  # the result stays for the screenshot
    for card in range(5):
        v.press(tr_("PLAY"))
        v.pick(card)
        v.tap_hole(card)
        v.settle()
    return v.root


def tr_(text: str) -> str:
    from app.i18n import tr

    return tr(text)


SCREENS: dict[str, Callable[[UI], Any]] = {
    "home": home,
    "home-hardware": home_hardware,
    "home-unfinished": home_unfinished,
    "history": history,
    "settings": settings,
    "board99-setup": board_setup,
    "board99-start": board_start,
    "board99-pegs": board_pegs,
    "board99-play-pad": board_play_pad,
    "board99-penalty": board_penalty,
    "board99-win": board_win,
    "board99-computer-cards": board_computer_cards,
    "board99-undo-confirm": board_undo_confirm,
    "board99-who-played": board_who_played,
    "count99-setup": count_setup,
    "count99-ace-choice": count_ace_choice,
    "count99-keeper": count_keeper,
    "count99-computer": count_computer,
    "teach-board": teach_board,
    "camera-calibration": camera_calibration,
    "camera-calibration-grid": camera_calibration_grid,
    "web-join": web_join,
    "web-join-pairing": web_join_pairing,
    "exhibit-staff-locked": lambda ui: exhibit_staff(ui, "locked"),  # exhibitor mode (issue 15)
    "exhibit-staff-wait": lambda ui: exhibit_staff(ui, "wait"),
    "exhibit-staff-unlocked": lambda ui: exhibit_staff(ui, "unlocked"),
    "exhibit-staff-no-pin": lambda ui: exhibit_staff(ui, "no-pin"),
    "exhibit-visitor-start": exhibit_visitor_start,
    "exhibit-visitor-hint": exhibit_visitor_hint,
    "exhibit-visitor-remove-peg": exhibit_visitor_remove_peg,
    "exhibit-visitor-penalty": lambda ui: exhibit_visitor_remove_peg(ui, take_off=True),
    "exhibit-visitor-who-played": exhibit_visitor_who_played,
    "exhibit-visitor-won": exhibit_visitor_won,
}
SCREENS.update(PHONES_TABLE_SCREENS)  # Ninety Nine with phones, the table's screens (issue 33)


def parlett(name: str) -> Callable[[UI], Any]:
    def build(ui: UI) -> Any:
        root = app_root(ui)
        return go(root, name)

    return build


def parlett_game(ui: UI, deals: int, show: str) -> Any:
    """Ann, Ben and Cat, Cat dealing, ``deals`` deals of nine tricks for Ann, then ``show``."""
    root = app_root(ui)
    game_ui = root.app.uis["parlett"]
    go(root, game_ui.new_game_screen())
    setup = root.current_screen
    for field, name in zip(setup.inputs, ["Ann", "Ben", "Cat"], strict=True):
        field.text = name
    tap(setup.start_button)
    big = {"bids": {"Ann": 9, "Ben": 0, "Cat": 0}, "premium": {"Ann": "reveal"},
           "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}}
    for _ in range(deals):
        game_ui.session.add_deal(big)
    if deals:
        game_ui.after_change()
    if show == "totals":
        game_ui.show_totals()
    elif show != "current":
        go(root, show)
    frames(3)
    return root


# The Parlett screens, audited with the others (kept apart so they can be picked by name, e.g.
# TABLE99_AUDIT_SCREENS=parlett-setup,parlett-deal,parlett-totals,parlett-chart,parlett-winner)
EXTRA_SCREENS: dict[str, Callable[[UI], Any]] = {
    "parlett-setup": parlett("parlett-setup"),
    "parlett-deal": lambda ui: parlett_game(ui, 0, "current"),
    "parlett-totals": lambda ui: parlett_game(ui, 2, "totals"),
    "parlett-chart": lambda ui: parlett_game(ui, 2, "parlett-chart"),
    "parlett-winner": lambda ui: parlett_game(ui, 6, "current"),
}
EXTRA_SCREENS.update(EXHIBIT_LOOP_SCREENS)  # exhibitor mode's attract loop (tests/exhibit_catalog.py)


def main() -> None:
    import os
    import tempfile

    from app import i18n

    ui = UI()
    for language in ("en", "de"):
        for name, build in {**SCREENS, **EXTRA_SCREENS}.items():
            i18n.set_language(language)
            ui.clear()
            os.environ["TABLE99_DATA_DIR"] = tempfile.mkdtemp(prefix="table99-catalog-")
            try:
                build(ui)
            except Exception as exc:  # a screenshot run shows what it can
                print(f"{name}: {exc!r}")
                continue
            print(ui.screenshot(f"catalog-{name}-{language}"))
    i18n.set_language("en")


if __name__ == "__main__":
    main()
