"""``table99 play count99`` and ``table99 replay`` for Ninety Nine, as real subprocesses with pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def table99(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], input=stdin, capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=60,
    )


def test_a_whole_game_to_the_winner_through_piped_keys() -> None:
    # Always play slot 1; a choice prompt eats the next lines until one fits (1 for an Ace, + for a 10).
    keys = "1\n1\n+\n" * 400
    done = table99("play", "count99", "--seed", "3", "--tokens", "1", "--opponents", "2", stdin=keys)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.endswith("wins the game!") or line == "You win the game!" for line in lines)
    assert lines[-1].startswith("Tokens: ")
    # One event per line, nothing a screen reader would stumble on.
    assert "\x1b" not in done.stdout and "\r" not in done.stdout and "\t" not in done.stdout
    assert all(line.strip() == line and line for line in lines)


def test_count_hand_and_tokens_on_demand_without_repeating_the_prompt() -> None:
    done = table99("play", "count99", "--seed", "1", stdin="c\nh\nt\n?\nz\nq\n")
    lines = done.stdout.splitlines()
    assert done.returncode == 0
    start = lines.index("Your turn. Count 0.")
    hand = lines[start + 1]
    assert hand.startswith("Your hand: 1: ")
    assert lines[start + 2 : start + 5] == [
        "Count 0, clockwise.", hand, "Tokens: you 9, Computer 1 9, Computer 2 9."
    ]
    assert "Unknown key z. Type ? for help." in lines and lines[-1] == "Goodbye."
    assert lines.count("Your turn. Count 0.") == 1


def test_manual_draw_with_d_and_space() -> None:
    done = table99("play", "count99", "--seed", "1", "--manual-draw", "--variant", "rs-games",
                   stdin="1\nd\n2\n \nh\nq\n")
    out = done.stdout
    assert "You draw cards yourself with D." in out
    assert "Press D to draw, or Enter to let the others play." in out
    draws = [line for line in out.splitlines() if line.startswith("You draw ") and "yourself" not in line]
    assert len(draws) == 2, out


def test_automatic_draw_says_so_when_d_is_pressed() -> None:
    done = table99("play", "count99", "--seed", "1", stdin="d\nq\n")
    assert "Cards are drawn for you automatically." in done.stdout


def test_german() -> None:
    done = table99("play", "count99", "--seed", "1", "--language", "de", stdin="c\nq\n")
    assert "Du bist dran. Stand 0." in done.stdout and "Auf Wiedersehen." in done.stdout


def test_bad_setup_exits_2_with_the_reason() -> None:
    done = table99("play", "count99", "--tokens", "0", stdin="")
    assert done.returncode == 2 and "tokens must be 1 to 50" in done.stderr
    done = table99("play", "count99", "--hand-size", "13", "--opponents", "7", stdin="")
    assert done.returncode == 2 and "52-card deck" in done.stderr


RECORD = {
    "format": "table99/count99", "version": 1, "variant": "quentin-c", "players": ["Ann", "Ben", "Cat"],
    "tokens": 9, "hand_size": 3,
    "rounds": [{"first": "Ann", "plays": [
        {"by": "Ann", "card": "A", "as": 11},
        {"by": "Ben", "card": "10", "as": -10},
        {"by": "Cat", "card": "J"},
    ]}],
}


def test_replay_json_and_text(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD))
    done = table99("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [(s["count"], s["turn"], s["direction"]) for s in result["steps"]] == [
        (11, "Ben", "clockwise"), (1, "Cat", "clockwise"), (11, "Ben", "clockwise")
    ]
    assert result["final"]["winner"] is None and result["final"]["out"] == []
    text = table99("replay", str(path))
    assert text.returncode == 0 and "Cat plays Jack: count 11." in text.stdout


def test_replay_of_an_invalid_record_exits_2_naming_round_and_play(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(RECORD))
    bad["rounds"][0]["plays"][2]["by"] = "Ann"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    done = table99("replay", str(path), "--json")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "round 1, play 3: it is Cat's turn, not Ann's" in done.stderr


def test_quit_and_resume_the_same_game(tmp_path: Path) -> None:
    first = table99("play", "count99", "--seed", "9", "--variant", "rs-games", stdin="1\nh\nq\n")
    saved = [line for line in first.stdout.splitlines() if line.startswith("Game ")]
    assert saved and "--resume" in saved[0], first.stdout
    game_id = saved[0].split()[1]
    hand = [line for line in first.stdout.splitlines() if line.startswith("Your hand")][-1]
    again = table99("play", "count99", "--resume", game_id, stdin="h\nq\n")
    assert again.returncode == 0, again.stderr
    assert f"Resuming game {game_id}: round 1." in again.stdout
    assert "RS Games rules" in again.stdout
    assert again.stdout.splitlines().count(hand) >= 1, (hand, again.stdout)


def test_resume_of_an_unknown_game_exits_2() -> None:
    done = table99("play", "count99", "--resume", "4242", stdin="")
    assert done.returncode == 2 and "there is no game 4242" in done.stderr


def test_the_opening_lines_say_one_token_one_card_one_computer_player() -> None:
    done = table99("play", "count99", "--seed", "1", "--opponents", "1", "--tokens", "1", "--hand-size", "1",
                   stdin="7\nq\n")
    lines = done.stdout.splitlines()
    assert lines[0] == "Ninety Nine, Quentin C rules, against 1 computer player (hard)."
    assert lines[1] == "1 token each, 1 card in hand. Cards are drawn automatically."
    assert "1 card each is dealt." in lines
    assert "There is no card in slot 7. You hold 1 card." in lines


def test_replay_text_says_one_token_and_one_card(tmp_path: Path) -> None:
    record = {"format": "table99/count99", "version": 1, "variant": "rs-games", "players": ["Ann", "Ben"],
              "tokens": 1, "hand_size": 1,
              "rounds": [{"first": "Ann", "plays": [{"by": "Ann", "card": "99"},
                                                   {"by": "Ben", "card": "1"}]}]}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(record))
    done = table99("replay", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Ninety Nine (rs-games): Ann, Ben; 1 token, 1 card."
    assert "  Ben loses 1 token (went over 99), 0 left." in lines


def test_once_you_are_out_the_computers_finish_and_you_hear_only_the_news() -> None:
    # With this seed and "always slot 1" you go out in round 1 and three computers play on.
    keys = "1\n1\n+\n" * 400
    done = table99("play", "count99", "--seed", "34", "--opponents", "3", "--tokens", "2",
                   "--hand-size", "13", stdin=keys)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    out = lines.index("You are out of the game.")
    assert lines[out + 1] == "The computers play on to the end; you hear how each round ends."
    after = lines[out + 2 :]
    assert not [line for line in after if " plays " in line or "draw" in line], after
    assert "Round 2. Computer 1 starts." in after and after[-2] == "Computer 3 wins the game!"
    assert after[-1] == "Tokens: you out, Computer 1 out, Computer 2 out, Computer 3 1."


def test_german_says_the_level_and_refuses_a_bad_setup_in_german() -> None:
    done = table99("play", "count99", "--seed", "1", "--language", "de", "--level", "easy", stdin="q\n")
    first = done.stdout.splitlines()[0]
    assert first == "Neunundneunzig, Regeln Quentin C, gegen 2 Computerspieler (leicht)."
    for args, said in [
        (("--tokens", "0"), "--tokens muss 1 bis 50 sein, nicht 0"),
        (("--hand-size", "14"), "--hand-size muss 1 bis 13 sein, nicht 14"),
        (("--opponents", "7", "--hand-size", "13"),
         "8 Spieler mit je 13 Karten brauchen mehr als die 52 Karten des Stapels."),
    ]:
        refused = table99("play", "count99", "--language", "de", *args, stdin="q\n")
        assert refused.returncode == 2 and refused.stderr.strip() == f"table99 play count99: {said}"


def test_help_lists_the_keys_of_the_game() -> None:
    done = table99("play", "count99", "--help")
    text = " ".join(done.stdout.split())
    assert done.returncode == 0
    assert ("keys during the game: a slot number plays that card (an Ace or 10 asks for its value, or give "
            "it at once: 2 11, 3 -); D or Space draws (with --manual-draw); C the count; H your hand; "
            "T the tokens; ? help; Q quit and save.") in text
