"""Review findings for Ninety Nine (issue 5): each test failed before its fix."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from app.games.count99.game import ComputerGame
from app.store import GameStore
from rules.count99.cards import Variant
from rules.count99.deal import CardGame
from rules.count99.replay import replay_json
from rules.count99.table import (
    DirectionReversed,
    MilestonePassed,
    PlayCard,
    PlayerSkipped,
    Setup,
    StartRound,
    Table,
    TokensLost,
)
from rules.errors import InvalidRecordError

ROOT = Path(__file__).resolve().parent.parent
# Two players, one card each, manual draw: with this seed the person (seat 0) starts holding a Jack.
JACK_SEED = 19
JACK_SETUP = Setup(Variant.QUENTIN_C, ("You", "Cpu"), hand_size=1)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.sqlite")


def test_the_seed_deals_the_person_a_jack() -> None:
    game = CardGame(JACK_SETUP, seed=JACK_SEED, manual_draw=True)
    game.advance()
    assert game.table.turn == 0 and game.hands[0] == ["J"]


def test_a_jack_back_to_yourself_in_manual_draw_lets_you_draw_before_no_cards(store: GameStore) -> None:
    """Seed: "no cards ... because you forgot to draw": playing a Jack with two players hands the
    turn straight back, and the person must get the chance to draw before being charged 3 tokens."""
    session = ComputerGame.create(store, JACK_SETUP, level="easy", manual_draw=True, seed=JACK_SEED)
    session.play(0)
    assert session.table.tokens == (9, 9) and session.table.turn == 0 and session.table.in_round
    assert session.game.hands[0] == [] and session.game.can_draw(0)
    session.draw()
    assert len(session.game.hands[0]) == 1 and session.table.tokens == (9, 9)
    stored = store.load(session.game_id).actions
    assert not any(a.get("no-cards") for a in stored)


def table99(*args: str, stdin: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8",
           "TABLE99_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=60)


@pytest.mark.parametrize(("keys", "penalised"), [("1\nd\nq\n", False), ("1\n\nq\n", True)])
def test_terminal_jack_back_to_yourself_waits_for_d_or_enter(
    tmp_path: Path, keys: str, penalised: bool
) -> None:
    done = table99("play", "count99", "--seed", str(JACK_SEED), "--opponents", "1", "--hand-size", "1",
                   "--manual-draw", "--level", "easy", stdin=keys, data_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "You play Jack. Count 10." in lines
    assert "Press D to draw, or Enter to let the others play." in lines
    assert ("You lose 3 tokens, 6 left." in lines) is penalised, done.stdout
    assert any(line.startswith("You draw ") for line in lines) is not penalised


@pytest.mark.parametrize("key", ["²", "³"])  # AltGr+2 and AltGr+3 on a German keyboard
def test_terminal_a_superscript_digit_is_an_unknown_key_not_a_crash(tmp_path: Path, key: str) -> None:
    done = table99("play", "count99", "--seed", "1", stdin=f"{key}\nq\n", data_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"Unknown key {key}. Type ? for help." in done.stdout.splitlines()


@pytest.mark.ui
def test_app_a_superscript_digit_key_is_not_a_crash(
    ui: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kivy.core.window import Window

    from app.ui.count99.computer_screen import ComputerScreen
    from tests.test_ui_count99 import build, button
    from tests.ui_support import tap

    monkeypatch.setattr(ComputerScreen, "delay", 0)
    ctx, _ = build(ui, tmp_path)
    setup = ctx.manager.get_screen("count99-setup")
    tap(button(setup, "Against the computer"))
    tap(button(setup, "Start"))
    screen = ctx.manager.current_screen
    hand = list(screen.session.game.hands[0])
    Window.dispatch("on_key_down", 178, 0, "²", [])
    assert screen.session.game.hands[0] == hand and screen.session.humans_turn()


# -- gaps in the named card tests (these held already; nothing asserted them) ----------------------
def _table_at(variant: Variant, count: int, players: int = 3) -> Table:
    table, _ = Table.new(Setup(variant, ("Ann", "Ben", "Cat", "Dan")[:players])).apply(StartRound(0))
    return replace(table, count=count)


def test_rs_four_adds_four_and_never_reverses() -> None:
    table, events = _table_at(Variant.RS_GAMES, 10).apply(PlayCard(0, "4"))
    assert (table.count, table.direction, table.turn) == (14, 1, 1)
    assert not any(isinstance(e, DirectionReversed) for e in events)


def test_rs_two_adds_two_even_above_49() -> None:
    assert _table_at(Variant.RS_GAMES, 50).apply(PlayCard(0, "2"))[0].count == 52


def test_qc_nine_on_99_is_not_landing_on_99() -> None:
    table, events = _table_at(Variant.QUENTIN_C, 99).apply(PlayCard(0, "9"))
    assert table.count == 99 and table.in_round and table.turn == 1
    assert not any(isinstance(e, TokensLost) for e in events)


def test_qc_jack_through_33_costs_a_token_and_still_skips() -> None:
    table, events = _table_at(Variant.QUENTIN_C, 30).apply(PlayCard(0, "J"))
    assert table.count == 40 and table.tokens == (8, 9, 9) and table.turn == 2
    assert MilestonePassed(0, 33) in events and PlayerSkipped(1) in events


def test_replay_json_shows_the_direction_after_a_four() -> None:
    record = {"format": "table99/count99", "version": 1, "variant": "quentin-c",
              "players": ["Ann", "Ben", "Cat"], "tokens": 9, "hand_size": 3,
              "rounds": [{"first": "Ann", "plays": [{"by": "Ann", "card": "4"}, {"by": "Cat", "card": "5"}]}]}
    steps = replay_json(record)["steps"]
    assert [(s["count"], s["turn"], s["direction"]) for s in steps] == [
        (4, "Cat", "counterclockwise"), (9, "Ben", "counterclockwise")
    ]


def test_replay_json_numbers_a_penalty_entry_as_its_own_play() -> None:
    """The step's "play" must agree with its "where" (which error messages use), penalties included."""
    record = {"format": "table99/count99", "version": 1, "variant": "rs-games", "players": ["Ann", "Ben"],
              "tokens": 9, "hand_size": 3,
              "rounds": [{"first": "Ann", "plays": [{"by": "Ann", "no-cards": True}]},
                         {"first": "Ben", "plays": [{"by": "Ben", "card": "99"},
                                                    {"by": "Ann", "no-safe-card": True}]}]}
    steps = replay_json(record)["steps"]
    assert [(s["where"], s["round"], s["play"]) for s in steps] == [
        ("round 1, play 1", 1, 1), ("round 2, play 1", 2, 1), ("round 2, play 2", 2, 2)
    ]


def test_a_round_start_hidden_in_plays_is_refused() -> None:
    """Rounds are entries of "rounds" (issue 5); a {"start": ...} among plays would open round 2 while
    errors and steps still called it round 1."""
    record = {"format": "table99/count99", "version": 1, "variant": "quentin-c", "players": ["Ann", "Ben"],
              "tokens": 9, "hand_size": 3,
              "rounds": [{"first": "Ann", "plays": [{"by": "Ann", "no-cards": True}, {"start": "Ben"},
                                                    {"by": "Ben", "card": "K"}]}]}
    with pytest.raises(InvalidRecordError, match="rounds") as info:
        replay_json(record)
    assert info.value.where == "round 1, play 2"
