"""``table99 play board99``: the terminal game against computer opponents."""

from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import sys
from pathlib import Path

from app.terminal import board99 as terminal
from rules.board99.replay import replay_json

ROOT = Path(__file__).resolve().parent.parent


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    terminal.add_arguments(parser)
    return parser.parse_args(list(argv))


def play(lines: str, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = terminal.run(parse(*argv), io.StringIO(lines), out)
    return code, out.getvalue()


class DrawThenDiscard(io.StringIO):
    """A human who draws to a full hand, then discards the highest card: reads its hand from the output."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out

    def readline(self, size: int | None = -1) -> str:
        last = [ln for ln in self.out.getvalue().splitlines() if ln.startswith("Your cards:")][-1]
        cards = [int(w) for w in last.split("|")[0].split(":")[1].split() if w.isdigit()]
        return "d\n" if len(cards) < 5 else f"x {max(cards)}\n"


def test_commands_help_board_and_refusals(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # --seed 7 deals 33 first: You draw it, then try it on square 10 and play a card not held
    code, text = play("help\nboard\nfoo\nd\np 33 10\np 99 0\nd\nd\nd\nd\nd\nd\nq\n", "--seed", "7",
                      "--save", str(save), "--opponents", "basic")
    assert code == 0
    assert "play CARD SQUARE" in text  # help
    assert text.count(" 72  73  74") >= 2  # the spiral-out board's top row, shown again on "board"
    assert "not understood: foo" in text
    assert "card 33 may only go on a square numbered 33 or more" in text
    assert "you do not hold card 99" in text and "99 may only go" not in text  # the card first
    assert "you hold 5 cards: play or discard" in text
    assert "Game left unfinished." in text
    record = json.loads(save.read_text())
    assert record["format"] == "table99/board99" and record["players"] == ["You", "Basic 1"]
    summary = replay_json(record)
    assert summary["status"] == "playing" and summary["hands"]["You"] == 5


def test_a_refused_play_names_the_reason_without_leaking_hidden_cards() -> None:
    deck = list(range(100))
    random.Random(7).shuffle(deck)  # the terminal's shuffle for --seed 7
    card = deck[50]  # still in the deck
    _, text = play(f"d\np {card} 99\nq\n", "--seed", "7", "--opponents", "basic")
    assert f"you do not hold card {card}" in text
    assert "in the deck" not in text


def test_a_whole_game_against_the_computer_is_saved_and_replays(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = io.StringIO()
    code = terminal.run(parse("--seed", "3", "--save", str(save), "--opponents", "intermediate"),
                        DrawThenDiscard(out), out)
    text = out.getvalue()
    assert code == 0 and "Intermediate 1 wins" in text
    summary = replay_json(json.loads(save.read_text()))
    assert summary["status"] == "won" and summary["winners"] == ["Intermediate 1"]
    assert len(summary["line"]) >= 5


def test_partners_with_three_opponents_and_the_5of99_ruleset(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, text = play("q\n", "--seed", "1", "--opponents", "basic,advanced,basic", "--ruleset", "5of99",
                      "--layout", "twisted", "--save", str(save))
    assert code == 0 and "Sides: You + Advanced 2; Basic 1 + Basic 3" in text
    assert "5of99, layout twisted" in text
    record = json.loads(save.read_text())  # written before the first action, so a quit loses nothing
    assert record["actions"] == [] and record["sides"] == [["You", "Advanced 2"], ["Basic 1", "Basic 3"]]


def test_the_table99_command_runs_it_and_refuses_bad_options() -> None:
    cmd = [sys.executable, "-m", "app", "play", "board99", "--seed", "1"]
    ok = subprocess.run([*cmd, "--opponents", "basic"], input="q\n", cwd=ROOT, capture_output=True, text=True,
                        timeout=60)
    assert ok.returncode == 0 and "The Game of 99 (classic, layout spiral-out), seed 1." in ok.stdout
    bad = subprocess.run([*cmd, "--opponents", "grandmaster"], input="", cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "unknown level 'grandmaster'" in bad.stderr
    bad = subprocess.run([*cmd, "--layout", "spiral"], input="", cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "unknown layout 'spiral'" in bad.stderr
