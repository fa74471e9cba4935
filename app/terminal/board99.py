"""``table99 play board99``: the Game of 99 against computer opponents, in a terminal.

Type ``play CARD SQUARE`` (or ``p 57 63``), ``draw`` (``d``), ``discard CARD`` (classic), ``board``,
``help`` or ``quit``. The deck is shuffled from ``--seed`` (random when not given), so a game can be
played again. With ``--save FILE`` the game record is written after every action, so an interrupted
game loses nothing and ``table99 replay FILE`` shows it.

Terminal text is English only and does not go through ``tr()``: this is a developer's and
tester's console, the touchscreen app is the translated one.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import TextIO

from rules.board99 import (
    NAMED_LAYOUTS,
    Action,
    Discard,
    Discarded,
    Draw,
    Drew,
    Event,
    GameState,
    LayoutError,
    Penalised,
    Play,
    Played,
    PlayerOut,
    Record,
    Ruleset,
    Tied,
    TurnSkipped,
    Won,
    apply,
    make_setup,
    parse_layout,
    record_to_json,
)
from rules.board99.ai import LEVELS, choose_action
from rules.errors import InvalidActionError

SYMBOLS = ("X", "O", "+")  # one per side; partners share theirs
HELP = """Commands:
  play CARD SQUARE   (p 57 63)  play a card and put your peg on a square numbered at least the card
  draw               (d)        take the top card (only with fewer cards than the hand limit)
  discard CARD       (x 99)     lay a card face up (classic only)
  board              (b)        show the board again
  help               (h, ?)     this text
  quit               (q)        stop (the record is kept with --save)"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", choices=[r.value for r in Ruleset], default="classic")
    parser.add_argument(
        "--layout", default="spiral-out",
        help=f"board layout: {', '.join(NAMED_LAYOUTS)}, random:SEED, or 100 numbers separated by commas",
    )
    parser.add_argument(
        "--opponents", default="advanced",
        help="computer levels, comma-separated, one per opponent (basic, intermediate, advanced); "
        "1, 2, 3 or 5 opponents; with 3 or 5 you play with partners sitting opposite",
    )
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--seed", type=int, default=None, help="shuffle seed (random when not given)")
    parser.add_argument("--first", default=None, help="who starts (default: you)")
    parser.add_argument(
        "--save", type=Path, default=None, help="write the game record here after every action"
    )


def board_lines(state: GameState, human: str) -> list[str]:
    """The printed board: numbers where empty, the side's symbol where taken."""
    setup = state.setup
    pegs = state.pegs
    symbol = {p: SYMBOLS[i % len(SYMBOLS)] for i, side in enumerate(setup.sides) for p in side}
    out = []
    for row in setup.layout.rows():
        out.append(" ".join(f"[{symbol[pegs[n]]}]" if n in pegs else f"{n:3d}" for n in row))
    legend = ", ".join(f"{symbol[p]} {p}" for p in setup.players)
    out.append(f"Pegs: {legend}")
    return out


def _verb(who: str, human: str, verb: str) -> str:
    return f"You {verb}" if who == human else f"{who} {verb}s"


def describe(event: Event, human: str = "") -> str:
    """One line saying what happened (the human's own draws show the card drawn)."""
    if isinstance(event, Played):
        return f"{_verb(event.by, human, 'play')} {event.card} on square {event.square}."
    if isinstance(event, Drew):
        if event.by == human and event.card is not None:
            return f"You draw {event.card}."
        return f"{_verb(event.by, human, 'draw')} a card."
    if isinstance(event, Discarded):
        return f"{_verb(event.by, human, 'discard')} {event.card}."
    if isinstance(event, Penalised):
        return f"Penalty: {event.by}, {event.offence}; {event.by} loses the next turn."
    if isinstance(event, TurnSkipped):
        why = "loses this turn (penalty)" if event.reason == "penalty" else "has no cards and is passed over"
        return f"{event.player} {why}."
    if isinstance(event, PlayerOut):
        cards = ", ".join(str(c) for c in event.cards) or "no cards"
        return f"{event.player} is out of the game (dead hand: {cards})."
    if isinstance(event, Won):
        line = f" with squares {', '.join(str(n) for n in event.line)}" if event.line else ""
        return f"{' and '.join(event.winners)} win{'s' if len(event.winners) == 1 else ''}{line}!"
    if isinstance(event, Tied):
        return f"Tie: {event.reason}."
    return str(event)


def parse_command(text: str, human: str, state: GameState) -> Action | str | None:
    """An action, a keyword ("board", "help", "quit"), or an error message starting with '!'."""
    words = text.strip().lower().split()
    if not words:
        return None
    verb, rest = words[0], words[1:]
    if verb in ("q", "quit", "exit"):
        return "quit"
    if verb in ("b", "board"):
        return "board"
    if verb in ("h", "help", "?"):
        return "help"
    try:
        numbers = [int(w) for w in rest]
    except ValueError:
        return f"! numbers please: {' '.join(rest)}"
    if verb in ("d", "draw") and not numbers:
        limit = state.setup.hand_limit
        if state.hand_count(human) >= limit:
            return f"! you hold {limit} cards: play" + (" or discard" if limit == 5 else "")
        if state.deck_count == 0:
            return "! the deck is empty"
        return Draw(human)
    if verb in ("p", "play") and len(numbers) == 2:
        card, square = numbers
        if 0 <= card <= 99 and card not in state.known_hand(human):  # a digital hand is fully known
            return f"! you do not hold card {card}"
        if 0 <= square <= 99 and 0 <= card <= 99 and square < card:
            return f"! card {card} may only go on a square numbered {card} or more"
        return Play(human, card, square)
    if verb in ("x", "discard") and len(numbers) == 1:
        return Discard(human, numbers[0])
    return f"! not understood: {text.strip()} (type help)"


def _computers(opponents: str) -> list[str]:
    levels = [w.strip() for w in opponents.split(",") if w.strip()]
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (expected {', '.join(LEVELS)})")
    if len(levels) not in (1, 2, 3, 5):
        raise ValueError("choose 1, 2, 3 or 5 opponents")
    return levels


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    try:
        levels = _computers(args.opponents)
        layout = parse_layout(args.layout)
    except (ValueError, LayoutError) as exc:
        print(f"table99 play board99: {exc}", file=sys.stderr)
        return 2
    human = args.name
    computers = {f"{level.capitalize()} {i + 1}": level for i, level in enumerate(levels)}
    if human in computers:
        print("table99 play board99: choose another --name", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    rng = random.Random(seed)
    deck = list(range(100))
    rng.shuffle(deck)
    players = [human, *computers]
    try:
        setup = make_setup(players, ruleset=args.ruleset, layout=layout, first=args.first or human, deck=deck)
    except ValueError as exc:
        print(f"table99 play board99: {exc}", file=sys.stderr)
        return 2
    state = GameState.new(setup)
    actions: list[Action] = []
    ai_rng = random.Random(seed + 1)

    def save() -> None:
        if args.save is not None:
            record = record_to_json(Record(setup, tuple(actions)))
            args.save.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")

    save()
    say(f"The Game of 99 ({setup.ruleset.value}, layout {layout.name}), seed {seed}.")
    say("Sides: " + "; ".join(" + ".join(side) for side in setup.sides))
    say("Five in a row, column or diagonal wins. Type help for the commands.")
    show_board = True
    while state.outcome is None:
        who = state.to_move
        assert who is not None
        if who in computers:
            action = choose_action(state.view_for(who), computers[who], ai_rng)
        else:
            if show_board:
                say()
                for line in board_lines(state, human):
                    say(line)
                show_board = False
            hand = " ".join(str(c) for c in state.known_hand(human)) or "(none)"
            counts = ", ".join(f"{p} {state.hand_count(p)}" for p in computers)
            say(f"Your cards: {hand}   |  deck {state.deck_count}, cards held: {counts}")
            stdout.write("> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                say()
                say("Game left unfinished.")
                break
            parsed = parse_command(line, human, state)
            if parsed is None:
                continue
            if parsed == "quit":
                say("Game left unfinished.")
                break
            if parsed == "board":
                show_board = True
                continue
            if parsed == "help":
                say(HELP)
                continue
            if isinstance(parsed, str):
                say(parsed[2:])
                continue
            action = parsed
        try:
            state, events = apply(state, action)
        except InvalidActionError as exc:
            say(f"Not possible: {exc}")
            continue
        actions.append(action)
        save()
        for event in events:
            say(describe(event, human))
        if any(isinstance(e, Played) for e in events):
            show_board = True
    if state.outcome is not None:
        say()
        for line in board_lines(state, human):
            say(line)
    if args.save is not None:
        say(f"Record saved to {args.save}")
    return 0


def main(args: argparse.Namespace) -> int:
    return run(args, sys.stdin, sys.stdout)
