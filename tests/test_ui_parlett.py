"""The Parlett score display headless: setup, deal entry, totals, corrections, chart, winner,
resume after a crash, portrait, German. Screenshots land in test-artifacts/screens/parlett-*.png."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app import i18n
from app.config import Config
from app.paths import default_database
from app.speech import Announcer
from app.store import GameStore
from rules.parlett.premiums import Premium
from tests.ui_support import find, find_all, frames, frames_until, tap, walk

pytestmark = pytest.mark.ui


def build(store: GameStore | None = None) -> tuple[Any, Any, Any]:
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    from app.ui.context import AppContext
    from app.ui.parlett import make_ui

    manager = ScreenManager(transition=NoTransition())
    ctx = AppContext(store=store or GameStore(default_database()), config=Config(),
                     announcer=Announcer(enabled=True), manager=manager)
    game_ui = make_ui()
    game_ui.build(ctx)
    return game_ui, ctx, manager


def texts(root: Any) -> list[str]:
    return [w.text for w in walk(root) if isinstance(getattr(w, "text", None), str)]


def role(root: Any, name: str, hand: str | None = None) -> Any:
    found = [w for w in walk(root) if getattr(w, "role", None) == name
             and (hand is None or getattr(w, "hand", None) == hand)]
    assert found, f"no widget with role {name} for {hand}"
    return found[0]


def enter_bid(manager: Any, hand: str, *, suits: str = "", number: int | None = None,
              screenshot: Any = None) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    tap(role(manager.current_screen, "bid", hand))
    frames_until(lambda: any(isinstance(w, ModalView) for w in Window.children))
    pad = next(w for w in Window.children if isinstance(w, ModalView))
    if screenshot is not None:
        screenshot()
    if number is not None:
        tap(find(pad, text=str(number)))
    for letter in suits:
        tap(next(w for w in walk(pad) if getattr(w, "suit_letter", None) == letter))
    frames_until(lambda: not any(isinstance(w, ModalView) for w in Window.children))


def set_tricks(manager: Any, tricks: dict[str, int]) -> None:
    screen = manager.current_screen
    for hand, n in tricks.items():
        for _ in range(12):  # bounded: a missed tap must fail the test, not hang it
            if screen.tricks[hand] == n:
                break
            frames(1)  # lay out widgets rebuilt by an earlier change before touching them
            tap(role(screen, "plus" if screen.tricks[hand] < n else "minus", hand))
        assert screen.tricks[hand] == n, f"could not set {hand}'s tricks to {n}"


def start_three(ui: Any, manager: Any, game_ui: Any, **flags: bool) -> Any:
    manager.current = game_ui.new_game_screen()
    ui.show(manager)
    setup = manager.current_screen
    for field, name in zip(setup.inputs, ["Ann", "Ben", "Cat"], strict=True):
        field.text = name
    for key, value in flags.items():
        setup.option_buttons[key].state = "down" if value else "normal"
    tap(setup.dealer_button)
    tap(setup.dealer_button)  # Cat deals first
    frames(2)
    return setup


def test_setup_then_a_deal_tapped_in_is_committed_and_shown(ui: Any) -> None:
    game_ui, ctx, manager = build()
    setup = start_three(ui, manager, game_ui)
    ui.screenshot("parlett-setup")
    tap(setup.start_button)
    assert manager.current == "parlett-deal"
    deal = manager.current_screen
    assert any("Dealer: Cat" in t for t in texts(deal)) and any("No trump" in t for t in texts(deal))
    enter_bid(manager, "Ann", suits="CHS")
    enter_bid(manager, "Ben", number=4)
    enter_bid(manager, "Cat", suits="DDD")
    tap(role(deal, "premium", "Ann"))
    set_tricks(manager, {"Ann": 6, "Ben": 2})
    assert "add up to 8, not 9" in deal.status.text and deal.score_button.disabled
    set_tricks(manager, {"Cat": 1})
    assert not deal.score_button.disabled
    ui.screenshot("parlett-deal")
    tap(deal.score_button)
    assert manager.current == "parlett-totals"
    stored = ctx.store.load(game_ui.session.game_id)
    assert stored.actions == ({"bids": {"Ann": "CHS", "Ben": 4, "Cat": "DDD"}, "premium": {"Ann": "declare"},
                               "tricks": {"Ann": 6, "Ben": 2, "Cat": 1}},)
    totals = manager.current_screen
    assert role(totals, "total", "Ann").text == "66"
    assert role(totals, "last", "Ann").text == "✓ +66" and role(totals, "last", "Ben").text == "+2"
    assert any("made it: Ann" in t for t in texts(totals))
    assert "Made it: Ann. Next deal: Ann, Spades" in ctx.announcer.spoken
    assert any("Next deal: Ann, Spades" in t for t in texts(totals))
    ui.screenshot("parlett-totals")


def test_premium_priority_reveal_overcalls_declare(ui: Any) -> None:
    game_ui, _, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    deal = manager.current_screen
    tap(role(deal, "premium", "Ann"))  # Ann declares
    tap(role(deal, "premium", "Ben"))
    tap(role(deal, "premium", "Ben"))  # Ben reveals
    assert deal.premiums() == {"Ben": deal.premiums()["Ben"]} and deal.premiums()["Ben"].value == "reveal"
    assert "(overcalled)" in role(deal, "premium", "Ann").text


def test_hidden_bids_stay_hidden_until_shown(ui: Any) -> None:
    game_ui, _, manager = build()
    tap(start_three(ui, manager, game_ui, hidden_bids=True).start_button)
    deal = manager.current_screen
    enter_bid(manager, "Ann", suits="CCC")
    shown = role(deal, "bid", "Ann").text
    assert "9" not in shown and "♣" not in shown
    tap(find(deal, text="Show bids"))
    assert "♣♣♣ = 9" in role(deal, "bid", "Ann").text


def _play_deals(game_ui: Any, deals: list[dict[str, Any]]) -> None:
    for d in deals:
        game_ui.session.add_deal(d)


BIG = {"bids": {"Ann": 9, "Ben": 0, "Cat": 0}, "premium": {"Ann": "reveal"},
       "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}}
SMALL = {"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}


def test_correcting_an_earlier_deal_rescores_everything_after_it(ui: Any) -> None:
    game_ui, ctx, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    _play_deals(game_ui, [SMALL, SMALL])
    game_ui.show_totals()
    frames(3)
    assert game_ui.session.sheet.deals[1].trump.value == "C"
    tap(next(w for w in walk(manager.current_screen) if getattr(w, "deal_index", None) == 0))
    frames_until(lambda: manager.current == "parlett-deal")  # a ScrollView passes the tap on later
    deal = manager.current_screen
    assert deal.editing == 0 and deal.tricks == {"Ann": 3, "Ben": 3, "Cat": 3}
    set_tricks(manager, {"Ann": 4, "Ben": 2})  # now only Cat made it: deal 2 is in spades
    tap(deal.score_button)
    assert manager.current == "parlett-totals"
    sheet = game_ui.session.sheet
    assert sheet.deals[1].trump.value == "S" and len(sheet.deals) == 2
    stored = ctx.store.load(game_ui.session.game_id)
    assert stored.actions[0]["tricks"] == {"Ann": 4, "Ben": 2, "Cat": 3} and len(stored.actions) == 2


def test_game_progress_chart_and_winner_screen(ui: Any) -> None:
    game_ui, ctx, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    _play_deals(game_ui, [BIG, BIG])
    game_ui.show_totals()
    frames(3)
    shown = texts(manager.current_screen)
    assert any("Game 2 of 3" in t for t in shown) and any("Game 1 won by Ann" in t for t in shown)
    tap(find(manager.current_screen, text="Chart"))
    assert manager.current == "parlett-chart"
    chart = manager.current_screen.chart
    assert set(chart.lines) == {"Ann", "Ben", "Cat"} and chart.game_ends == [2]
    ann, ben = chart.points_for(chart.series["Ann"]), chart.points_for(chart.series["Ben"])
    assert len(ann) == 6 and ann[-1] > ben[-1]  # Ann's line ends higher
    ui.screenshot("parlett-chart")
    _play_deals(game_ui, [BIG] * 3)
    game_ui.session.add_deal(BIG)
    game_ui.after_change()
    assert manager.current == "parlett-winner"
    assert "Ann wins the rubber!" in manager.current_screen.headline.text
    assert "by 714 points" in texts(manager.current_screen)  # Ann 774, Ben and Cat 60
    assert ctx.store.load(game_ui.session.game_id).status == "finished"
    ui.screenshot("parlett-winner")


def test_resume_after_a_crash_and_export_the_record(ui: Any, tmp_path: Any) -> None:
    store = GameStore(default_database())
    game_ui, _, manager = build(store)
    tap(start_three(ui, manager, game_ui).start_button)
    _play_deals(game_ui, [SMALL, BIG])
    game_id = game_ui.session.game_id
    ui.clear()
    # a new app process: only the database survives
    again, _, manager2 = build(GameStore(default_database()))
    manager2.current = again.resume(game_id)
    ui.show(manager2)
    assert manager2.current == "parlett-totals"
    assert role(manager2.current_screen, "total", "Ann").text == str(3 + 10 + 79)
    path = again.session.export(tmp_path)
    record = json.loads(path.read_text())
    assert record["deals"] == [SMALL, BIG] and record["dealer"] == "Cat"
    from rules.parlett.replay import replay_json

    assert replay_json(record)["rubber"]["totals"]["Ann"] == 92


def test_original_99_asks_for_the_turned_up_card(ui: Any) -> None:
    game_ui, _, manager = build()
    manager.current = game_ui.new_game_screen()
    ui.show(manager)
    setup = manager.current_screen
    tap(next(w for w in setup.variant_row.children if w.variant == "original"))
    tap(setup.start_button)
    deal = manager.current_screen
    for hand in ("Player 1", "Player 2", "Player 3"):
        deal.set_bid(hand, 3)
    set_tricks(manager, {"Player 1": 3, "Player 2": 3, "Player 3": 3})
    assert "turned-up card" in deal.status.text and deal.score_button.disabled
    deal.set_turn_up("KH")
    assert deal.trump().value == "H" and not deal.score_button.disabled


def test_portrait_layout_and_german(ui: Any) -> None:
    i18n.set_language("de")
    try:
        game_ui, _, manager = build()
        ui.resize(360, 600)  # portrait; the offscreen test surface draws at most 800x600
        tap(start_three(ui, manager, game_ui).start_button)
        deal = manager.current_screen
        frames(3)
        assert any("Geber: Cat" in t for t in texts(deal)) and any("Ohne Trumpf" in t for t in texts(deal))
        ui.screenshot("parlett-deal-portrait-de")
        _play_deals(game_ui, [SMALL])
        game_ui.show_totals()
        frames(3)
        cells = find_all(manager.current_screen, lambda w: getattr(w, "role", None) == "total")
        xs = {round(c.to_window(*c.center)[0]) for c in cells}
        ys = {round(c.to_window(*c.center)[1]) for c in cells}
        assert len(ys) == 3 and len(xs) == 1  # stacked, one above the other
        assert all(c.to_window(*c.pos)[0] >= 0 and c.to_window(c.right, c.y)[0] <= 360 for c in cells)
        ui.screenshot("parlett-totals-portrait-de")
        ui.resize(800, 480)
        game_ui.next_deal()
        frames(3)
        deal = manager.current_screen
        deal.set_bid("Ann", "CHS")
        frames(2)
        tap(role(deal, "premium", "Ben"))
        ui.screenshot("parlett-deal-landscape-de")
        assert "Offene Tippkarten" in role(deal, "premium", "Ben").text
    finally:
        i18n.set_language("en")


def _start_variant(ui: Any, manager: Any, game_ui: Any, variant: str) -> Any:
    manager.current = game_ui.new_game_screen()
    ui.show(manager)
    setup = manager.current_screen
    tap(next(w for w in setup.variant_row.children if w.variant == variant))
    tap(setup.start_button)
    frames(2)
    return manager.current_screen


def test_two_players_with_the_dummy(ui: Any) -> None:
    game_ui, _, manager = build()
    deal = _start_variant(ui, manager, game_ui, "two")
    assert any("Clubs" in t for t in texts(deal))  # the two-player game starts at clubs
    assert any(t == "Dummy" for t in texts(deal))
    assert not [w for w in walk(deal) if getattr(w, "role", None) == "premium" and w.hand == "dummy"]
    for hand in ("Player 1", "Player 2", "dummy"):
        deal.set_bid(hand, 3)
    set_tricks(manager, {"Player 1": 3, "Player 2": 3, "dummy": 3})
    tap(role(deal, "premium", "Player 1"))
    tap(role(deal, "premium", "Player 1"))  # no reveal with two players: back to no premium
    assert deal.premiums() == {}
    ui.screenshot("parlett-deal-two")
    tap(deal.score_button)
    assert manager.current == "parlett-totals"
    assert role(manager.current_screen, "total", "dummy").text == "13"


def test_five_players_declare_together_and_declarer_chooses_nines(ui: Any) -> None:
    game_ui, _, manager = build()
    manager.current = game_ui.new_game_screen()
    ui.show(manager)
    setup = manager.current_screen
    tap(next(w for w in setup.variant_row.children if w.variant == "five"))
    setup.option_buttons["nines_as_trumps"].state = "down"
    from kivy.uix.scrollview import ScrollView

    next(w for w in walk(setup) if isinstance(w, ScrollView)).scroll_y = 0  # scroll down to it
    frames(3)
    tap(setup.target_button)
    frames_until(lambda: setup.target == "nine")  # the ScrollView hands the tap on a moment later
    assert setup.target_button.text == "Nine rounds (German rules)"
    frames(3)
    tap(setup.target_button)
    frames_until(lambda: setup.target == 250)
    assert setup.options() == {"nines_as_trumps": True, "target": 250}
    tap(setup.start_button)
    deal = manager.current_screen
    tap(role(deal, "premium", "Player 1"))
    tap(role(deal, "premium", "Player 3"))
    assert set(deal.premiums()) == {"Player 1", "Player 3"}
    tap(role(deal, "trump-nines"))
    assert deal.trump().value == "nines"
    for hand, n in zip(deal.tricks, (3, 2, 2, 1, 1), strict=True):
        deal.set_bid(hand, n)
    set_tricks(manager, {"Player 1": 3, "Player 2": 2, "Player 3": 2, "Player 4": 1, "Player 5": 1})
    ui.screenshot("parlett-deal-five")
    tap(deal.score_button)
    last = game_ui.session.sheet.deals[-1]
    assert last.trump.value == "nines" and last.score.premium["Player 1"] == 50
    assert any("Playing to 250" in t for t in texts(manager.current_screen))
    ui.screenshot("parlett-totals-five")


def test_the_last_deal_can_be_deleted(ui: Any) -> None:
    game_ui, ctx, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    _play_deals(game_ui, [SMALL, BIG, BIG])  # game 1 over after deal 3
    game_ui.correct(0)
    frames(2)
    deal = manager.current_screen
    assert not [w for w in walk(deal) if getattr(w, "role", None) == "delete"]  # only the last deal
    set_tricks(manager, {"Ann": 4, "Ben": 2})
    deal.set_bid("Ann", 9)
    deal.offers = {}
    deal.set_bid("Ann", 4)
    tap(deal.score_button)
    assert manager.current == "parlett-totals"  # a valid correction of deal 1
    game_ui.correct(2)
    frames(2)
    tap(role(manager.current_screen, "delete"))
    assert len(game_ui.session.sheet.deals) == 2
    assert len(ctx.store.load(game_ui.session.game_id).actions) == 2
    assert manager.current == "parlett-totals"


def test_a_correction_that_would_end_the_rubber_early_is_refused_with_the_reason(ui: Any) -> None:
    from rules.parlett.premiums import Premium

    game_ui, ctx, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    _play_deals(game_ui, [SMALL] + [BIG] * 6)  # games end after deals 3, 5 and 7
    before = ctx.store.load(game_ui.session.game_id).actions
    game_ui.correct(0)
    frames(2)
    deal = manager.current_screen
    for hand, bid in BIG["bids"].items():
        deal.set_bid(hand, bid)
    deal.offers = {"Ann": Premium.REVEAL}
    set_tricks(manager, BIG["tricks"])
    tap(deal.score_button)
    assert manager.current == "parlett-deal"
    assert "The rules refuse this: deal 7: the rubber is over" in deal.status.text
    assert ctx.store.load(game_ui.session.game_id).actions == before


def test_formal_announcements_in_turn_with_a_raise(ui: Any) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    game_ui, _, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)  # Cat deals: Ann, Ben, Cat in turn
    deal = manager.current_screen
    tap(role(deal, "formal"))
    frames_until(lambda: any(isinstance(w, ModalView) for w in Window.children))
    pad = next(w for w in Window.children if isinstance(w, ModalView))
    assert "Ann: declare or reveal?" in pad.question.text
    tap(role(pad, "formal-declare"))  # Ann declares
    assert "Ben" in pad.question.text and role(pad, "formal-declare").disabled
    tap(role(pad, "formal-reveal"))  # Ben overcalls
    assert "Ann: raise to reveal?" in pad.question.text
    ui.screenshot("parlett-formal")
    tap(role(pad, "formal-reveal"))  # Ann raises; the procedure ends
    frames_until(lambda: not any(isinstance(w, ModalView) for w in Window.children))
    assert deal.premiums() == {"Ann": deal.premiums()["Ann"]} and deal.premiums()["Ann"].value == "reveal"


def test_four_players_bid_ten_on_the_pad_means_0_or_10_and_turn_up_pad(ui: Any) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    game_ui, _, manager = build()
    deal = _start_variant(ui, manager, game_ui, "four")
    enter_bid(manager, "Player 1", number=10, screenshot=lambda: ui.screenshot("parlett-bid-pad-four"))
    assert role(deal, "bid", "Player 1").text == "0 or 10"
    enter_bid(manager, "Player 2", suits="DDD")
    assert "= 0 or 10" in role(deal, "bid", "Player 2").text
    ui.clear()
    game_ui2, _, manager2 = build()
    deal2 = _start_variant(ui, manager2, game_ui2, "original")
    tap(find(deal2, text="Turned-up card: ?"))
    frames_until(lambda: any(isinstance(w, ModalView) for w in Window.children))
    pad = next(w for w in Window.children if isinstance(w, ModalView))
    ui.screenshot("parlett-turn-up-pad")
    tap(find(pad, text="Q"))
    tap(next(w for w in walk(pad) if getattr(w, "text", None) == "♠"))
    frames_until(lambda: not any(isinstance(w, ModalView) for w in Window.children))
    assert deal2.turn_up == "QS" and deal2.trump().value == "S"


TWO_BIG = {"bids": {"Ann": 9, "Ben": 1, "dummy": 3}, "premium": {"Ann": "declare"},
           "tricks": {"Ann": 9, "Ben": 0, "dummy": 0}}


@pytest.mark.parametrize("hard_score", [False, True])
def test_two_players_dummy_rule_carry_or_hard_score_double_is_chosen_and_shown(ui: Any,
                                                                               hard_score: bool) -> None:
    game_ui, _, manager = build()
    manager.current = game_ui.new_game_screen()
    ui.show(manager)
    setup = manager.current_screen
    tap(next(w for w in setup.variant_row.children if w.variant == "two"))
    for field, name in zip(setup.inputs, ["Ann", "Ben"], strict=True):
        field.text = name
    if hard_score:
        tap(setup.option_buttons["hard_score"])
    assert setup.options() == ({"hard_score": True} if hard_score else {})
    tap(setup.start_button)
    frames(2)
    assert any(("hard score" in t) == hard_score for t in texts(manager.current_screen) if "Game 1" in t)
    _play_deals(game_ui, [TWO_BIG, TWO_BIG])  # Ann 138, Ben and the dummy 0: the dummy ties Ben
    game_ui.show_totals()
    frames(3)
    shown = texts(manager.current_screen)
    game = game_ui.session.sheet.games[0]
    if hard_score:
        assert game.carried["Ann"] == 238
        assert any("Ann wins double (+238)" in t for t in shown)
        ui.screenshot("parlett-totals-two-hard-score")
    else:
        assert game.carried["Ann"] == 100
        assert any("Ann carries 100 forward" in t for t in shown)
    assert role(manager.current_screen, "game", "Ann").text == "this game 0"  # game 2 has begun
    # the big number is the rubber's standing
    assert role(manager.current_screen, "total", "Ann").text == str(238 + game.carried["Ann"])


def _buttons(root: Any) -> list[Any]:
    from kivy.uix.button import Button
    from kivy.uix.togglebutton import ToggleButton

    return [w for w in walk(root) if isinstance(w, Button) and not isinstance(w, ToggleButton) and w.text]


def test_portrait_buttons_are_the_apps_big_buttons_and_shrink_until_the_longest_word_fits(ui: Any) -> None:
    """360 px wide, German: "keine Ansage" in a narrow column must not break as "Ansag-e"."""
    from app.ui.widgets import MIN_FONT, BigButton, text_width

    i18n.set_language("de")
    try:
        game_ui, _, manager = build()
        ui.resize(360, 600)
        tap(start_three(ui, manager, game_ui).start_button)
        frames(3)
        screens = [manager.current_screen]
        game_ui.session.add_deal(SMALL)
        game_ui.show_totals()
        frames(3)
        screens.append(manager.current_screen)
        checked = 0
        for screen in screens:
            for b in _buttons(screen):
                assert isinstance(b, BigButton), b.text
                if b.markup:
                    continue
                widest = max(text_width(w, b.font_size, b.font_name, b.bold) for w in b.text.split())
                assert widest <= b.width - 8 or b.font_size <= MIN_FONT, (b.text, b.width, b.font_size)
                checked += 1
        premium = role(screens[0], "premium", "Ann")
        assert premium.text == "keine Ansage" and premium.font_size < premium._base_font  # it did shrink
        assert checked >= 10
    finally:
        i18n.set_language("en")


def _luminance(rgb: Any) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: Any, b: Any) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_gold_buttons_are_drawn_gold_with_readable_text(ui: Any) -> None:
    """The screenshot's pixels, not just the property: gold used to tint Kivy's grey button image
    and came out dark brown."""
    from PIL import Image

    from app.ui.parlett.common import ACCENT

    game_ui, _, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    deal = manager.current_screen
    for hand in ("Ann", "Ben", "Cat"):
        deal.set_bid(hand, 3)
    set_tricks(manager, {"Ann": 3, "Ben": 3, "Cat": 3})
    frames(2)
    shots = [(ui.screenshot("parlett-deal"), deal.score_button)]
    tap(deal.score_button)
    frames(3)
    shots.append((ui.screenshot("parlett-totals-gold"), role(manager.current_screen, "next")))
    for path, b in shots:
        image = Image.open(path).convert("RGB")
        x, y = b.to_window(b.x + 6, b.center_y)
        pixel = [c / 255 for c in image.getpixel((round(x), image.height - round(y)))]
        assert all(abs(p - a) < 0.06 for p, a in zip(pixel, ACCENT, strict=False)), (b.text, pixel)
        assert _contrast(b.color, pixel) >= 4.5, (b.text, b.color)


def test_screens_are_painted_by_the_shared_background_helper(ui: Any) -> None:
    from app.ui.parlett.common import BACKGROUND, PANEL

    game_ui, _, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    deal = manager.current_screen
    assert tuple(deal.root_box._background_colour.rgba) == BACKGROUND  # set by widgets.Background.paint
    game_ui.session.add_deal(SMALL)
    game_ui.show_totals()
    frames(2)
    panels = [w for w in walk(manager.current_screen) if hasattr(w, "_background_colour")]
    assert any(tuple(p._background_colour.rgba) == PANEL for p in panels)


def test_chart_keeps_every_line_visible_when_totals_are_equal(ui: Any) -> None:
    from app.ui.parlett.chart import TotalsChart

    chart = ui.show(TotalsChart(size=(800, 480)))
    chart.set_series({"Ann": [0, 10, 20, 30], "Ben": [0, 5, 5, 12], "Cat": [0, 5, 5, 12]})
    frames(2)
    ann, ben, cat = (chart.drawn[h] for h in ("Ann", "Ben", "Cat"))
    for i in range(1, len(ben), 2):  # y of every point: equal totals are drawn apart, thicker than a line
        assert abs(ben[i] - cat[i]) >= 5
    assert len({ann[1], ben[1], cat[1]}) == 3  # all three start at 0, and all three show
    assert ann[2:] == chart.points_for([0, 10, 20, 30])[2:]  # a total nobody shares is drawn where it is
    assert abs((ben[3] + cat[3]) / 2 - chart.points_for([0, 5])[3]) < 1e-6  # spread around the true value
    assert set(chart.lines) == {"Ann", "Ben", "Cat"}
    ui.screenshot("parlett-chart-equal-totals")


FIVE_BIG = {"bids": {f"Spieler {n}": 9 if n == 1 else 0 for n in range(1, 6)},
            "premium": {"Spieler 1": "declare"},
            "tricks": {f"Spieler {n}": 9 if n == 1 else 0 for n in range(1, 6)}}


@pytest.mark.parametrize("variant", ["three", "five"])
def test_every_screen_fits_a_portrait_phone_in_german(ui: Any, variant: str) -> None:
    """Setup, deal, totals, chart and winner at 360x600: nothing runs off the screen's sides."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from app.ui.widgets import MIN_FONT, text_width

    i18n.set_language("de")
    try:
        game_ui, _, manager = build()
        ui.resize(360, 600)
        if variant == "three":
            setup, big = start_three(ui, manager, game_ui), BIG
        else:
            manager.current = game_ui.new_game_screen()
            ui.show(manager)
            setup, big = manager.current_screen, FIVE_BIG
            tap(next(w for w in setup.variant_row.children if w.variant == "five"))
        shots = {"setup": setup}
        tap(setup.start_button)
        frames(3)
        shots["deal"] = manager.current_screen
        for _ in range(12):
            game_ui.session.add_deal(big)
            if len(game_ui.session.sheet.deals) >= 2:
                break
        game_ui.show_totals()
        frames(3)
        shots["totals"] = manager.current_screen
        game_ui.go("parlett-chart")
        frames(3)
        shots["chart"] = manager.current_screen
        for _ in range(20):
            if game_ui.session.sheet.over:
                break
            game_ui.session.add_deal(big)
        game_ui.after_change()
        frames(3)
        assert manager.current == "parlett-winner"
        shots["winner"] = manager.current_screen
        for name, screen in shots.items():
            manager.current = screen.name
            frames(3)
            ui.screenshot(f"parlett-portrait-de-{variant}-{name}")
            for w in walk(screen):
                if not (isinstance(w, Label) and w.text and w.width > 0 and w.get_root_window() is not None):
                    continue
                centre = w.to_window(*w.center)[0]
                half = max(w.width, w.texture_size[0]) / 2  # the text as drawn, not only its box
                assert centre - half >= -1 and centre + half <= 361, (name, w.text, centre, half)
                if getattr(w, "role", None) == "total":  # the big numbers fit their rows
                    assert w.texture_size[1] <= w.height + 2, (name, w.text, w.size, w.texture_size)
                if isinstance(w, Button):  # a button's text stays inside it, never broken mid-word
                    assert w.texture_size[0] <= w.width + 1 and w.texture_size[1] <= w.height + 2, (
                        name, w.text, w.size, w.texture_size)
                    if not w.markup:
                        words = w.text.split()
                        widest = max(text_width(word, w.font_size, w.font_name, w.bold) for word in words)
                        assert widest <= w.width - 8 or w.font_size <= MIN_FONT, (name, w.text, w.font_size)
    finally:
        i18n.set_language("en")


def test_a_power_cut_during_play_keeps_the_bids_already_tapped_in(ui: Any) -> None:
    """Bids go in when the deal starts (hidden), tricks after play: a crash in between loses nothing."""
    store = GameStore(default_database())
    game_ui, _, manager = build(store)
    tap(start_three(ui, manager, game_ui, hidden_bids=True).start_button)
    enter_bid(manager, "Ann", suits="CHS")
    enter_bid(manager, "Ben", number=4)
    tap(role(manager.current_screen, "premium", "Ann"))
    set_tricks(manager, {"Ann": 2})
    game_id = game_ui.session.game_id
    ui.clear()
    again, _, manager2 = build(GameStore(default_database()))  # a new process: only the database is left
    manager2.current = again.resume(game_id)
    ui.show(manager2)
    assert manager2.current == "parlett-deal"  # straight back to the deal being played
    deal = manager2.current_screen
    assert deal.bids == {"Ann": "CHS", "Ben": 4} and deal.tricks == {"Ann": 2, "Ben": 0, "Cat": 0}
    assert deal.premiums() == {"Ann": Premium.DECLARE}
    assert role(deal, "bid", "Ann").text == "hidden ✓"  # still hidden after the restart
    enter_bid(manager2, "Cat", suits="DDD")
    set_tricks(manager2, {"Ann": 6, "Ben": 2, "Cat": 1})
    tap(deal.score_button)
    assert manager2.current == "parlett-totals"
    assert again.session.sheet.deals[0].entry.premiums == {"Ann": Premium.DECLARE}
    again.next_deal()  # the draft was for the scored deal: the next one starts empty
    assert manager2.current_screen.bids == {}


DUMMY_BIG = {"bids": {"Ann": 1, "Ben": 1, "dummy": 9}, "premium": {"Ann": "declare", "Ben": "declare"},
             "tricks": {"Ann": 0, "Ben": 0, "dummy": 9}}


def test_a_game_the_dummy_wins_is_shown_as_a_tie_between_the_live_players(ui: Any) -> None:
    game_ui, _, manager = build()
    manager.current = game_ui.new_game_screen()
    ui.show(manager)
    setup = manager.current_screen
    tap(next(w for w in setup.variant_row.children if w.variant == "two"))
    for field, name in zip(setup.inputs, ["Ann", "Ben"], strict=True):
        field.text = name
    tap(setup.start_button)
    _play_deals(game_ui, [DUMMY_BIG, DUMMY_BIG])  # both declare and fail: the dummy scores 9+30+60
    assert game_ui.session.sheet.games[0].winners == ()
    game_ui.show_totals()
    frames(3)
    assert "Game 1: the dummy won, a tie between Ann and Ben" in texts(manager.current_screen)
    while not game_ui.session.sheet.over:
        game_ui.session.add_deal(DUMMY_BIG)
    game_ui.after_change()
    frames(3)
    assert any("Game 3: tie (dummy)" in t for t in texts(manager.current_screen))


# -- issue 18 (nine rounds, unshown bids, hard score) and issue 16 points 5 and 6 --------------------
def _contrast(a: Any, b: Any) -> float:
    def lum(c: Any) -> float:
        lin = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c[:3]]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_setup_offers_nine_rounds_and_hard_score_and_the_game_ends_after_nine_deals(ui: Any,
                                                                                   lang: str) -> None:
    i18n.set_language(lang)
    try:
        game_ui, ctx, manager = build()
        setup = start_three(ui, manager, game_ui)
        from kivy.uix.scrollview import ScrollView

        next(w for w in walk(setup) if isinstance(w, ScrollView)).scroll_y = 0
        frames(3)
        tap(setup.target_button)
        frames_until(lambda: setup.target == "nine")
        tap(setup.option_buttons["hard_score"])
        frames(2)
        assert setup.options() == {"nine_rounds": True, "hard_score": True}
        assert setup.target_button.text == i18n.tr("Nine rounds (German rules)")
        assert not setup.option_buttons["hard_score"].disabled
        ui.screenshot(f"parlett-setup-nine-rounds-{lang}")
        tap(setup.start_button)
        assert manager.current == "parlett-deal"
        assert any(i18n.tr("Round {n} of 9 (German rules)", n=1) in t for t in texts(manager.current_screen))
        _play_deals(game_ui, [BIG] * 8)
        assert not game_ui.session.sheet.over  # Ann is far past 100: the nine-round game goes on
        _play_deals(game_ui, [SMALL])
        game_ui.after_change()
        frames(3)
        assert manager.current == "parlett-winner"
        shown = texts(manager.current_screen)
        assert any(i18n.tr("{names} wins the game!", names="Ann") in t for t in shown)
        settlement = role(manager.current_screen, "settlement").text
        totals = game_ui.session.sheet.rubber_totals
        won = 2 * totals["Ann"] - totals["Ben"] - totals["Cat"]  # Ann settles with Ben and with Cat
        assert i18n.tr("{name} wins {points}", name="Ann", points=won) in settlement
        assert i18n.tr("{name} owes {points}", name="Ben", points=totals["Ann"] - totals["Ben"]) in settlement
        ui.screenshot(f"parlett-winner-hard-score-{lang}")
        assert ctx.store.load(game_ui.session.game_id).setup["options"] == {"nine_rounds": True,
                                                                             "hard_score": True}
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_bid_pad_offers_not_shown_for_a_failed_bid_and_the_deal_scores(ui: Any, lang: str) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    i18n.set_language(lang)
    try:
        game_ui, ctx, manager = build()
        tap(start_three(ui, manager, game_ui).start_button)
        deal = manager.current_screen
        enter_bid(manager, "Ann", suits="CHS")
        tap(role(deal, "premium", "Ann"))  # Ann declares: her bid cards are face up
        frames(2)
        tap(role(deal, "bid", "Ben"))
        frames_until(lambda: any(isinstance(w, ModalView) for w in Window.children))
        pad = next(w for w in Window.children if isinstance(w, ModalView))
        frames(2)
        ui.screenshot(f"parlett-bid-pad-{lang}")
        unshown = role(pad, "bid-unshown")
        assert unshown.text == i18n.tr("Not shown (failed)") and not unshown.disabled
        assert unshown.height >= 48 and unshown.width >= 48
        tap(unshown)
        frames_until(lambda: not any(isinstance(w, ModalView) for w in Window.children))
        assert role(deal, "bid", "Ben").text == i18n.tr("not shown")
        tap(role(deal, "bid", "Ann"))  # the declarer's pad: no "not shown"
        frames_until(lambda: any(isinstance(w, ModalView) for w in Window.children))
        pad = next(w for w in Window.children if isinstance(w, ModalView))
        assert role(pad, "bid-unshown").disabled
        pad.dismiss()
        frames(2)
        enter_bid(manager, "Cat", number=0)
        set_tricks(manager, {"Ann": 6, "Ben": 2, "Cat": 1})
        assert not deal.score_button.disabled
        tap(deal.score_button)
        stored = ctx.store.load(game_ui.session.game_id)
        assert stored.actions[0]["bids"] == {"Ann": "CHS", "Ben": "unshown", "Cat": 0}
        assert game_ui.session.sheet.deals[0].score.made == {"Ann": True, "Ben": False, "Cat": False}
    finally:
        i18n.set_language("en")


def test_the_dummys_bid_pad_has_no_not_shown(ui: Any) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    game_ui, _, manager = build()
    _start_variant(ui, manager, game_ui, "two")
    tap(role(manager.current_screen, "bid", "dummy"))
    frames_until(lambda: any(isinstance(w, ModalView) for w in Window.children))
    pad = next(w for w in Window.children if isinstance(w, ModalView))
    assert role(pad, "bid-unshown").disabled
    pad.dismiss()


def test_a_premium_bidder_whose_bid_was_entered_unshown_cannot_score(ui: Any) -> None:
    game_ui, _, manager = build()
    tap(start_three(ui, manager, game_ui).start_button)
    deal = manager.current_screen
    deal.set_bid("Ann", "unshown")
    deal.set_bid("Ben", 4)
    deal.set_bid("Cat", 0)
    frames(2)
    tap(role(deal, "premium", "Ann"))  # declared after the bid was entered as unshown
    assert deal.offers == {"Ann": Premium.DECLARE}
    set_tricks(manager, {"Ann": 6, "Ben": 2, "Cat": 1})
    assert "Ann played a premium: enter the bid" in deal.status.text and deal.score_button.disabled


@pytest.mark.parametrize("lang", ["en", "de"])
def test_deal_entry_has_column_headings_and_a_readable_marked_warning(ui: Any, lang: str) -> None:
    """Issue 16 point 6: headings bid/premium/tricks; "bids missing" at >= 4.5:1 and with a sign,
    not only a colour; "NT" in German."""
    from app.ui.parlett.common import BACKGROUND, HEADING, PANEL, WARNING

    i18n.set_language(lang)
    try:
        game_ui, _, manager = build()
        tap(start_three(ui, manager, game_ui).start_button)
        deal = manager.current_screen
        frames(2)
        headings = [w.text for w in sorted(walk(deal), key=lambda w: w.x)
                    if getattr(w, "role", None) == "heading" and w.text]
        assert headings == [i18n.tr("Bid"), i18n.tr("Premium"), i18n.tr("Tricks"), i18n.tr("Made")]
        assert deal.status.text.startswith("⚠ ")
        assert i18n.tr("Bids missing: {names}", names="") in deal.status.text
        assert tuple(deal.status.color) == WARNING
        assert _contrast(WARNING, BACKGROUND) >= 4.5 and _contrast(WARNING, PANEL) >= 4.5
        assert _contrast(HEADING, BACKGROUND) >= 4.5
        trump = [w.text for w in walk(deal) if getattr(w, "text", None) in ("NT", "OT")]
        assert trump == (["NT"] if lang == "en" else ["OT"])
        ui.screenshot(f"parlett-deal-headings-{lang}")
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_totals_big_numbers_are_the_rubber_standings_and_the_deal_list_shows_that_it_scrolls(
        ui: Any, lang: str) -> None:
    """Issue 16 point 5: after game 1 the big numbers were the new game's (0 0 0) while the rubber
    stood 238-0-0 in small print; the deal list's third row was cut off with no sign it scrolls."""
    i18n.set_language(lang)
    try:
        game_ui, _, manager = build()
        tap(start_three(ui, manager, game_ui).start_button)
        _play_deals(game_ui, [BIG, BIG, SMALL, SMALL, SMALL, SMALL])  # game 1 ends after the second deal
        game_ui.show_totals()
        frames(3)
        totals = manager.current_screen
        sheet = game_ui.session.sheet
        for hand in ("Ann", "Ben", "Cat"):
            assert role(totals, "total", hand).text == str(sheet.rubber_totals[hand])
            in_game = i18n.tr("this game {points}", points=sheet.game_totals[hand])
            assert role(totals, "game", hand).text == in_game
        big, small = role(totals, "total", "Ann"), role(totals, "game", "Ann")
        assert big.font_size > 2 * small.font_size
        hint = role(totals, "scroll-hint")
        frames_until(lambda: hint.text.startswith("▼"))
        assert i18n.tr("more below: scroll") in hint.text
        heading = find(totals, text=i18n.tr("Every deal ({n}): tap one to correct it", n=6))
        assert heading.font_size >= 18
        ui.screenshot(f"parlett-totals-scroll-hint-{lang}")
        totals.deal_scroll.scroll_y = 0
        frames_until(lambda: hint.text.startswith("▲"))
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_five_players_hard_score_settlement_fits_the_winner_screen(ui: Any, lang: str) -> None:
    i18n.set_language(lang)
    try:
        game_ui, _, manager = build()
        setup = _start_variant(ui, manager, game_ui, "five")
        del setup
        session = game_ui.session
        from app.games.parlett.game import ParlettSession

        players = list(session.table.players)
        game_ui.session = ParlettSession.new(session.store, "five", players, players[0],
                                             {"hard_score": True, "target": 250})
        deal = {"bids": dict.fromkeys(players, 1), "tricks": dict(zip(players, (5, 1, 1, 1, 1), strict=True)),
                "premium": {players[0]: "declare"}}
        while not game_ui.session.sheet.over:
            game_ui.session.add_deal(deal)
        game_ui.after_change()
        frames(4)
        screen = manager.current_screen
        assert manager.current == "parlett-winner"
        settlement = role(screen, "settlement")
        assert settlement.texture_size[1] <= settlement.height + 1  # the wrapped lines fit their row
        assert settlement.texture_size[0] <= screen.width
        ui.screenshot(f"parlett-winner-five-hard-score-{lang}")
    finally:
        i18n.set_language("en")


def test_the_bid_pad_fits_a_portrait_phone_in_german(ui: Any) -> None:
    from kivy.core.window import Window
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView

    i18n.set_language("de")
    try:
        game_ui, _, manager = build()
        ui.resize(360, 600)
        tap(start_three(ui, manager, game_ui).start_button)
        frames(3)
        tap(role(manager.current_screen, "bid", "Ann"))
        frames_until(lambda: any(isinstance(w, ModalView) for w in Window.children))
        pad = next(w for w in Window.children if isinstance(w, ModalView))
        frames(4)
        ui.screenshot("parlett-bid-pad-portrait-de")
        for w in walk(pad):
            if isinstance(w, Label) and w.text:
                assert w.texture_size[0] <= w.width + 1 and w.texture_size[1] <= w.height + 2, (
                    w.text, w.size, w.texture_size)
                left, bottom = w.to_window(*w.pos)
                assert left >= -1 and left + w.width <= 361 and bottom >= -1, (w.text, w.pos)
        pad.dismiss()
    finally:
        i18n.set_language("en")
