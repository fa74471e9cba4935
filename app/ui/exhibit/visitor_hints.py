"""The guide's words for a visitor's first Game of 99: what to do next, and why a play was a penalty.

No Kivy here, so the sentences can be tested without a window. The hints only *read* the game (the
referee's prompt, the rules' state and events); the referee and the rules stay the only judges. A
hint names the cards and the squares ("You hold 23, 45. Tap PLAY and 45, then put your peg on a
square from 45 up: they glow with a frame."), and the screen makes those squares glow *and* outlines
them (:class:`~app.ui.board99.board_view.BoardView`), so colour is never the only cue.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.games.board99.game import Board99Game
from app.i18n import tr
from app.referee.events import Phase, Prompt, PromptKind
from rules import board99 as rules
from rules.board99.ai import choose_action

SUGGESTION_LEVEL = "intermediate"  # a sensible move to suggest; the opponent plays "basic"


@dataclass(frozen=True)
class Hint:
    """A hint: the words, the card whose allowed squares glow (if any), and whether it is a problem."""

    text: str
    card: int | None = None
    problem: bool = False


def cards_text(cards: tuple[int, ...]) -> str:
    return ", ".join(str(c) for c in sorted(cards))


def suggestion(game: Board99Game, visitor: str) -> Any:
    """A good action for the visitor now (the rules' own intermediate player decides), or None.

    The same position always gets the same suggestion (the random choice is seeded by the move
    number), so the hint does not change while the visitor reads it.
    """
    state = game.state
    if state.outcome is not None or state.to_move != visitor:
        return None
    return choose_action(state.view_for(visitor), SUGGESTION_LEVEL, random.Random(len(game.actions)))


def turn_hint(game: Board99Game, visitor: str, action: Any, short: bool = False) -> Hint:
    """The visitor's turn: which button, which card, and where the card may go.

    ``short``: just the button and the card (under a penalty's explanation, where room is scarce).
    """
    state = game.state
    hand = state.known_hand(visitor)
    if short:
        if isinstance(action, rules.Play):
            return Hint(tr("Next: tap PLAY and {card}.", card=action.card), card=action.card)
        if isinstance(action, rules.Discard):
            return Hint(tr("Next: tap DISCARD and {card}.", card=action.card))
        return Hint(tr("Next: tap DRAW."))
    if isinstance(action, rules.Play):
        return Hint(tr("You hold {cards}. Tap PLAY and {card}, then put your peg on a square from "
                       "{card} up: they glow and have a frame.", cards=cards_text(hand), card=action.card),
                    card=action.card)
    if isinstance(action, rules.Discard):
        return Hint(tr("You hold {cards}. Card {card} has no free square left: tap DISCARD and {card}.",
                       cards=cards_text(hand), card=action.card))
    if not hand:
        if not state.pegs and not state.face_up:
            # The first thing a passer-by needs: what winning is (the visitor's pegs are red,
            # the computer's blue: app.ui.exhibit.visitor's colours).
            return Hint(tr("Win with five red pegs in a row: across, down or diagonally.") + "\n"
                        + tr("Everyone starts with no cards. Tap DRAW to take your first card."))
        return Hint(tr("You have no cards. Tap DRAW to take one."))
    return Hint(tr("You hold {cards}. Tap DRAW to take one more card: you may hold up to five.",
                   cards=cards_text(hand)))


def computer_did(game: Board99Game, visitor: str) -> str:
    """What the computer did since the visitor's last action, in one sentence ("" if nothing).

    The referee applies a computer's draw at once, so without this a visitor would not notice the
    computer's turn went by; the sentence names the last of its actions.
    """
    for action in reversed(game.actions):
        if getattr(action, "by", None) == visitor:
            return ""
        if isinstance(action, rules.Play):
            return tr("The computer played card {card} on square {square}.", card=action.card,
                      square=action.square)
        if isinstance(action, rules.Draw):
            return tr("The computer drew a card.")
        if isinstance(action, rules.Discard):
            return tr("The computer discarded card {card}.", card=action.card)
    return ""


def penalty_reason(offence: str, card: int | None, square: int | None) -> str:
    """Why the rules punished a play, in plain words (the referee's verdict says *what* happened)."""
    if offence == "illegal-play" and card is not None and square is not None:
        return tr("Why: card {card} may only go on a square numbered {card} or more, and square "
                  "{square} is lower.", card=card, square=square)
    if offence == "illegal-play":
        return tr("Why: a card may only go on a square numbered as high as the card or higher.")
    if offence == "illegal-draw":
        return tr("Why: a hand holds at most five cards. With five, PLAY or DISCARD instead.")
    return tr("Why: it was not your turn. Wait until the top of the screen says \"Your turn\".")


def pending_offence(game: Board99Game, visitor: str, card: int | None, square: int) -> str | None:
    """The offence of the peg the referee asks to take off, as the rules judge it (no copy of them)."""
    if card is None:
        return None
    try:
        _, events = rules.apply(game.state, rules.Play(visitor, card, square))
    except Exception:  # the play is invalid input, not a penalty: there is no offence to explain
        return None
    return next((e.offence for e in events if isinstance(e, rules.Penalised)), None)


def visitor_hint(
    game: Board99Game,
    prompt: Prompt,
    visitor: str,
    *,
    simulated: bool,
    square_at: Any,
    last_card: int | None = None,
    refusal: str | None = None,
    penalty: Any = None,
) -> Hint:
    """What the guide says now.

    ``prompt`` is the referee's current prompt, ``square_at(hole)`` the square printed at a hole,
    ``last_card`` the card the visitor last announced, ``refusal`` the referee's last refusal of an
    announcement, ``penalty`` the rules' :class:`Penalised` event the banner is showing.
    """
    state = game.state
    tap = simulated  # on the screen's board a tap is the hand; at a real board the hand is a hand
    if state.outcome is not None:
        if state.outcome.status == "won" and visitor in state.outcome.winners:
            return Hint(tr("Five in a row: you won! Well played. Back to the demo in a moment."))
        if state.outcome.status == "won":
            return Hint(tr("The computer got five in a row first. Thanks for playing! Back to the demo "
                           "in a moment."))
        return Hint(tr("A tie. Thanks for playing! Back to the demo in a moment."))
    phase = prompt.phase
    if phase is Phase.REMOVE_PEG and prompt.holes:
        square = square_at(prompt.holes[0])
        offence = pending_offence(game, visitor, last_card, square) or "illegal-play"
        how = (tr("Tap square {square} to take your peg off.", square=square) if tap
               else tr("Take your peg off square {square}.", square=square))
        return Hint(f"{prompt.text}\n{penalty_reason(offence, last_card, square)} {how}", problem=True)
    if phase in (Phase.FIX_BOARD, Phase.WHO_PLAYED) or prompt.kind is PromptKind.PROBLEM:
        extra = ""
        if tap and phase is Phase.FIX_BOARD:
            extra = tr("Tap the squares it names on the board.")
        elif tap and phase is Phase.WHO_PLAYED:
            extra = tr("Pick its card, or tap the peg again to take it out.")
        return Hint(f"{prompt.text} {extra}".strip(), problem=True)
    if phase is Phase.PLACE_PEG and last_card is not None:
        where = tr("Tap one of them.") if tap else tr("Put a peg in one of them.")
        return Hint(tr("Now put your peg on a square from {card} up: they glow and have a frame.",
                       card=last_card) + " " + where, card=last_card)
    if phase is Phase.COMPUTER_PEG:
        if tap:
            return Hint(tr("The computer plays. Watch its blue peg go in..."))
        return Hint(prompt.text)
    if phase is Phase.WAITING:
        return Hint(prompt.text)
    before = ""
    if refusal:
        before = refusal + "\n"
    elif isinstance(penalty, rules.Penalised) and penalty.by == visitor:
        before = penalty_reason(penalty.offence, penalty.card, penalty.square) + "\n"
    if state.to_move != visitor:
        return Hint(before + tr("The computer is thinking..."), problem=bool(refusal))
    if not before and (did := computer_did(game, visitor)):
        before = did + "\n"
    short = isinstance(penalty, rules.Penalised) and penalty.by == visitor and not refusal
    hint = turn_hint(game, visitor, suggestion(game, visitor), short=short)
    return Hint(before + hint.text, card=hint.card, problem=bool(refusal))
