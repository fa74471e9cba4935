"""``table99 play count99``: Ninety Nine against computer players, in a plain terminal.

Written for screen readers: every event is one line of its own, nothing is redrawn or erased,
no colours or cursor movement, and the count, hand and tokens are there on demand (C, H, T).
Input is read a line at a time, so it works the same typed or piped (the tests pipe it):

    1..13      play the card in that slot (an Ace or 10 asks for its value: 1/11, + or -;
               or give it at once: "2 11", "3 -")
    D or Space draw a card (manual-draw games)
    C          the count        H  your hand        T  everyone's tokens
    ?          help             Q  quit
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TextIO

from app.games.count99.game import ANNOUNCED, KIND, ComputerGame
from app.games.count99.texts import (
    card_name,
    describe,
    direction_name,
    hand_text,
    level_name,
    tokens_text,
    variant_name,
)
from app.i18n import set_language, tr, trn
from app.paths import default_database
from app.store import GameStore, StoreError
from rules.count99.cards import Variant, choices_for, full_deck
from rules.count99.errors import Count99Error
from rules.count99.players import LEVELS
from rules.count99.table import HAND_SIZE_RANGE, TOKENS_RANGE, Eliminated, Setup

KEYS_HELP = (
    "keys during the game: a slot number plays that card (an Ace or 10 asks for its value, or give it "
    "at once: 2 11, 3 -); D or Space draws (with --manual-draw); C the count; H your hand; T the tokens; "
    "? help; Q quit and save. One line per event, nothing redrawn: made for screen readers."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = KEYS_HELP
    parser.add_argument("--variant", choices=[v.value for v in Variant], default="quentin-c")
    parser.add_argument("--opponents", type=int, default=2, help="computer players, 1 to 7 (default 2)")
    parser.add_argument("--level", choices=LEVELS, default="hard", help="computer strength (default hard)")
    parser.add_argument("--tokens", type=int, default=9, help="tokens each, 1 to 50 (default 9)")
    parser.add_argument("--hand-size", type=int, default=3, help="cards in hand, 1 to 13 (default 3)")
    parser.add_argument("--manual-draw", action="store_true", help="draw with D or Space yourself")
    parser.add_argument("--seed", type=int, default=None, help="shuffle seed, for a repeatable game")
    parser.add_argument("--name", default="You", help="your name in the game record")
    parser.add_argument("--language", choices=["en", "de"], default="en")
    parser.add_argument("--resume", type=int, default=None, metavar="ID",
                        help="continue a stored game (its number is said when you quit)")


class TerminalGame:
    """One game: the human sits in seat 0, computers in the other seats."""

    def __init__(self, session: ComputerGame, out: TextIO) -> None:
        self.session = session
        self.game = session.game  # read-only use; every change goes through the session (stored)
        self.out = out
        self._prompted_at: list[dict[str, object]] | None = None
        self._watching = False  # the person is out: the computers play on, we say only the news

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def report(self, events: list[object]) -> None:
        """One line per event; once the person is out, only the news (no card-by-card flood)."""
        for event in events:
            if self._watching and not isinstance(event, ANNOUNCED):
                continue
            text = describe(event, self.game.setup, you=0)
            if text:
                self.say(text)
            if isinstance(event, Eliminated) and event.seat == 0 and not self.game.table.over:
                self._watching = True
                self.say(tr("The computers play on to the end; you hear how each round ends."))

    def run(self, lines: Iterator[str]) -> int:
        self.report(self.session.opening)
        self.report(self.run_computers())
        while not self.game.table.over:
            if self.game.actions != self._prompted_at:
                self.prompt_turn()
            line = next(lines, None)
            if line is None:
                self.say(tr("Input ended; the game is left unfinished."))
                self.say_saved()
                return 0
            if not self.handle(line, lines):
                self.say_saved()
                self.say(tr("Goodbye."))
                return 0
        return 0

    def prompt_turn(self) -> None:
        """Say whose turn once per turn (not again after C or H: a screen reader hears it once)."""
        self._prompted_at = list(self.game.actions)
        table = self.game.table
        self.say(tr("Your turn. Count {count}.", count=table.count))
        self.say(hand_text(self.game.hands[0]))

    def handle(self, line: str, lines: Iterator[str]) -> bool:
        """Act on one line on the human's turn; False to quit."""
        command = line.strip().lower()
        if line.strip("\r\n") == " " or command == "d":
            self.draw()
        elif command in ("q", "quit"):
            return False
        elif command and command.split()[0].isdecimal():  # "²".isdigit() but int("²") fails
            self.play(command, lines)
        else:
            self.answer(command)
        return True

    def answer(self, command: str) -> None:
        table = self.game.table
        if command == "c":
            self.say(tr("Count {count}, {direction}.", count=table.count,
                        direction=direction_name(table.direction)))
        elif command == "h":
            self.say(hand_text(self.game.hands[0]))
        elif command == "t":
            self.say(tokens_text(self.game.setup, table.tokens, you=0))
        elif command in ("?", "help", ""):
            self.help()
        else:
            self.say(tr("Unknown key {key}. Type ? for help.", key=command))

    def help(self) -> None:
        self.say(tr("Type a slot number to play that card, for example 2."))
        self.say(tr("An Ace asks for 1 or 11, a 10 for + or -; or type both, for example 2 11."))
        self.say(tr("C the count, H your hand, T the tokens, D or Space draw, Q quit."))

    def draw(self) -> None:
        if not self.game.manual_draw:
            self.say(tr("Cards are drawn for you automatically."))
            return
        if not self.game.can_draw(0):
            self.say(tr("Your hand is full."))
            return
        self.report(self.session.draw())

    def play(self, command: str, lines: Iterator[str]) -> None:
        parts = command.split()
        slot = int(parts[0]) - 1
        hand = self.game.hands[0]
        if not 0 <= slot < len(hand):
            self.say(trn("There is no card in slot {slot}. You hold {n} card.",
                         "There is no card in slot {slot}. You hold {n} cards.", len(hand), slot=slot + 1))
            return
        card = hand[slot]
        options = choices_for(self.game.variant, card, self.game.table.count)
        choice = None
        if len(options) > 1:
            answer = parts[1] if len(parts) > 1 else None
            while (choice := parse_choice(card, answer)) is None:
                if answer is not None and answer.lower() in ("c", "h", "t", "?"):
                    self.answer(answer.lower())
                elif answer is not None and answer.lower() == "q":
                    self.say(tr("{card} stays in your hand.", card=card_name(card)))
                    return
                elif answer is not None:
                    self.say(tr("That is not a value for {card}.", card=card_name(card)))
                if card == "A":
                    self.say(tr("Ace: 1 or 11?"))
                else:
                    self.say(tr("10: + or -?"))
                answer = next(lines, None)
                if answer is None:
                    return
                answer = answer.strip()
        try:
            events = self.session.play(slot, choice)
        except Count99Error as exc:
            self.say(tr("Not allowed: {reason}", reason=str(exc)))
            return
        self.report(events)
        if self.game.manual_draw and not self.game.table.over and self.game.can_draw(0):
            self.wait_for_draw(lines)
        self.report(self.run_computers())

    def run_computers(self) -> list[object]:
        events: list[object] = self.session.advance()  # a turn that came straight back is checked now
        while not self.game.table.over and not self.session.humans_turn():
            events += self.session.computer_step()
        return events

    def say_saved(self) -> None:
        self.say(tr("Game {id} is saved. Continue it with: table99 play count99 --resume {id}",
                    id=self.session.game_id))

    def wait_for_draw(self, lines: Iterator[str]) -> None:
        """Manual draw: the others wait for one key, so forgetting to draw is the player's choice."""
        self.say(tr("Press D to draw, or Enter to let the others play."))
        for line in lines:
            command = line.strip().lower()
            if line.strip("\r\n") == " " or command == "d":
                self.draw()
                if not self.game.can_draw(0):
                    return
                self.say(tr("Press D to draw again, or Enter to go on."))
            elif command == "":
                return
            elif command.split()[0].isdigit():
                self.say(tr("Not your turn yet. Press D to draw, or Enter to let the others play."))
            else:
                self.answer(command)


def parse_choice(card: str, answer: str | None) -> int | None:
    if answer is None:
        return None
    answer = answer.strip().lower()
    if card == "A":
        return {"1": 1, "11": 11, "+1": 1, "+11": 11}.get(answer)
    return {"+": 10, "-": -10, "10": 10, "+10": 10, "-10": -10, "plus": 10, "minus": -10}.get(answer)


def open_session(args: argparse.Namespace, store: GameStore) -> ComputerGame:
    """A new stored game from the arguments, or the stored one ``--resume`` names."""
    if args.resume is not None:
        try:
            stored = store.load(args.resume)
        except KeyError:
            raise Count99Error(tr("there is no game {id}", id=args.resume)) from None
        if stored.kind != KIND or stored.setup.get("mode") != "computer":
            raise Count99Error(tr("game {id} is not a Ninety Nine game against the computer", id=args.resume))
        if stored.status != "playing":
            raise Count99Error(tr("game {id} is already over", id=args.resume))
        return ComputerGame.load(store, args.resume)
    if not 1 <= args.opponents <= 7:
        raise Count99Error(tr("--opponents must be 1 to 7"))
    # Checked here too, to say it in the player's language (the rules' own errors are English).
    for option, value, (low, high) in (("--tokens", args.tokens, TOKENS_RANGE),
                                       ("--hand-size", args.hand_size, HAND_SIZE_RANGE)):
        if not low <= value <= high:
            raise Count99Error(tr("{option} must be {low} to {high}, not {value}", option=option, low=low,
                                  high=high, value=value))
    deck = len(full_deck(Variant(args.variant)))
    if (args.opponents + 1) * args.hand_size > deck:
        too_many = "{players} players with {cards} cards each need more than the {deck}-card deck."
        raise Count99Error(tr(too_many, players=args.opponents + 1, cards=args.hand_size, deck=deck))
    names = (args.name, *(tr("Computer {n}", n=n) for n in range(1, args.opponents + 1)))
    setup = Setup(Variant(args.variant), names, tokens=args.tokens, hand_size=args.hand_size)
    return ComputerGame.create(store, setup, level=args.level, manual_draw=args.manual_draw, seed=args.seed)


def main(args: argparse.Namespace) -> int:
    set_language(args.language)
    try:
        store = GameStore(default_database())
        session = open_session(args, store)
    except (Count99Error, StoreError) as exc:
        print(f"table99 play count99: {exc}", file=sys.stderr)
        return 2
    out = sys.stdout
    setup = session.setup
    manual = session.game.manual_draw
    draw = tr("You draw cards yourself with D.") if manual else tr("Cards are drawn automatically.")
    print(trn("Ninety Nine, {variant} rules, against {n} computer player ({level}).",
              "Ninety Nine, {variant} rules, against {n} computer players ({level}).",
              len(setup.players) - 1, variant=variant_name(setup.variant.value),
              level=level_name(session.level)),
          file=out)
    print(tr("{tokens} each, {cards} in hand. {draw}", tokens=trn("{n} token", "{n} tokens", setup.tokens),
             cards=trn("{n} card", "{n} cards", setup.hand_size), draw=draw), file=out)
    if args.resume is not None:
        table = session.table
        print(tr("Resuming game {id}: round {n}.", id=session.game_id, n=table.round_no), file=out)
        print(tokens_text(setup, table.tokens, you=0), file=out)
    print(tr("Type ? for help, Q to quit."), file=out)
    try:
        code = TerminalGame(session, out).run(iter(sys.stdin.readline, ""))
    finally:
        store.close()
    if session.table.over:
        print(tokens_text(setup, session.table.tokens, you=0), file=out)
    return code


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="table99 play count99")
    add_arguments(parser)
    sys.exit(main(parser.parse_args()))
