"""Judging the board: the stable reading against the pegs the game expects.

Exactly one new peg after PLAY is judged by the rules (a penalised play waits until its peg is
taken off); one new peg with no announcement asks who played it; anything else (two new pegs, a
missing peg, a wrong colour) asks to fix the board, naming the holes, and nothing is applied until
the board agrees again. This is one part of :class:`~app.referee.core.Referee`, kept in its own
module because it is one idea (the prompt that follows from it is worked out in the core).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.board99.game import colour_name
from app.i18n import tr
from app.referee.events import Phase, Prompt, PromptKind
from app.referee.refusals import refusal_text
from hardware.board_source import BoardReading
from rules import board99 as rules
from rules.errors import InvalidActionError

PEG_REMOVING_OFFENCES = ("play-out-of-turn", "illegal-play")


@dataclass(frozen=True)
class PendingPlay:
    by: str
    card: int
    hole: int | None = None  # a computer's chosen hole; None for a person's play


@dataclass(frozen=True)
class PendingPenalty:
    action: Any
    hole: int
    new_state: Any
    events: tuple[Any, ...]


class Judging:
    """The referee's judging of the board (a part of :class:`~app.referee.core.Referee`, which owns
    the last stable board and the state these methods read)."""

    _board: BoardReading | None
    _pending: PendingPlay | None
    _penalty: PendingPenalty | None
    _unannounced_hole: int | None
    _must_agree: bool
    _source_ok: bool
    sees_colour: bool

    def _judge(self) -> None:
        """Compare the last stable board with the game and act on the difference."""
        board = self._board
        if board is None or not self._source_ok:
            self._refresh_prompt()
            return
        expected = self.expected_holes()
        occupied = set(board.occupied)
        unsure = set(board.unsure)
        extra = sorted(occupied - set(expected) - unsure)
        missing = sorted(set(expected) - occupied - unsure)
        wrong_colour = self._wrong_colours(board, expected)

        if self._penalty is not None:
            hole = self._penalty.hole
            gone = hole not in occupied and hole not in unsure  # a hand over it proves nothing
            if gone and not extra and not missing and not wrong_colour:
                penalty = self._penalty
                self._penalty = None
                self._commit(penalty.action, penalty.new_state, penalty.events)
                return
            if extra == [hole] and not missing and not wrong_colour:
                self._refresh_prompt()
                return
            if extra:  # the peg was moved to another hole, or more were put in: all must come out
                self._fix_board(extra, missing, wrong_colour)
                return
        if missing or wrong_colour or len(extra) > 1 or (extra and self._must_agree):
            if self._is_play_in_progress(extra) and not self._must_agree:
                # One new peg for the announced play, and an older peg knocked loose or swapped:
                # only the older peg needs fixing; the new one is judged once the board agrees.
                self._fix_board([], missing, wrong_colour, keep=extra[0])
            else:
                self._fix_board(extra, missing, wrong_colour)
            return
        self._must_agree = False
        if not extra:
            self._unannounced_hole = None
            self._refresh_prompt()
            return
        hole = extra[0]
        if self._pending is None:
            self._unannounced_hole = hole
            self._refresh_prompt()
            return
        self._judge_play(hole, board)

    def _judge_play(self, hole: int, board: BoardReading) -> None:
        pending = self._pending
        assert pending is not None
        if pending.hole is not None and hole != pending.hole:
            self._set_prompt(Prompt(PromptKind.PROBLEM, tr(
                "{name} plays {target}, but the new peg is on {found}: move it.",
                name=pending.by, target=self.where(pending.hole), found=self.where(hole)),
                (pending.hole, hole), Phase.FIX_BOARD))
            return
        colour = self.game.colours.get(pending.by)
        seen = (board.colours or {}).get(hole) if self.sees_colour else None
        if seen is not None and colour is not None and seen != colour:
            self._set_prompt(Prompt(PromptKind.PROBLEM, tr(
                "The new peg on {where} is {seen}, but {name} plays {colour}.",
                where=self.where(hole), seen=colour_name(seen), name=pending.by, colour=colour_name(colour)),
                (hole,), Phase.FIX_BOARD))
            return
        action = rules.Play(pending.by, pending.card, self.square_at(hole))
        try:
            new_state, events = rules.apply(self.state, action)
        except InvalidActionError as exc:
            self._pending = None
            self._unannounced_hole = hole
            self._set_prompt(Prompt(PromptKind.PROBLEM, tr(
                "Not accepted: {reason}. Who played the peg on {where}, with which card?",
                reason=refusal_text(exc), where=self.where(hole)), (hole,), Phase.WHO_PLAYED))
            return
        offences = [e for e in events if isinstance(e, rules.Penalised)
                    and e.offence in PEG_REMOVING_OFFENCES]
        if offences:
            self._pending = None
            self._penalty = PendingPenalty(action, hole, new_state, tuple(events))
            self._refresh_prompt()
            return
        self._commit(action, new_state, tuple(events))

    def _is_play_in_progress(self, extra: list[int]) -> bool:
        """One new peg where the announced play may go (a person's peg, or the computer's hole)."""
        pending = self._pending
        if pending is None or len(extra) != 1 or self._penalty is not None:
            return False
        return pending.hole is None or pending.hole == extra[0]

    def _wrong_colours(self, board: BoardReading, expected: dict[int, str]) -> list[int]:
        if not self.sees_colour or board.colours is None:
            return []
        colours = self.game.colours
        return sorted(
            hole for hole, player in expected.items()
            if hole in board.colours and player in colours and board.colours[hole] != colours[player]
        )

    def _fix_board(self, extra: list[int], missing: list[int], wrong_colour: list[int],
                   keep: int | None = None) -> None:
        parts: list[str] = []
        for hole in extra:
            parts.append(tr("take the peg out of {where}", where=self.where(hole)))
        for hole in missing:
            player = self.expected_holes()[hole]
            parts.append(tr("put {name}'s peg back on {where}", name=player, where=self.where(hole)))
        for hole in wrong_colour:
            player = self.expected_holes()[hole]
            colour = self.game.colours.get(player, "")
            parts.append(tr("{where} needs a {colour} peg ({name})", where=self.where(hole),
                            colour=colour_name(colour), name=player))
        if len(extra) > 1 and not missing and not wrong_colour and not self._must_agree and not self._penalty:
            text = tr("{count} new pegs at once: take out all but the one that was played ({holes}).",
                      count=len(extra), holes=", ".join(str(self.square_at(h)) for h in extra))
        else:
            text = tr("Fix the board: {what}.", what="; ".join(parts))
        if keep is not None and self._pending is not None:
            text += " " + tr("Leave {name}'s new peg on {where}.", name=self._pending.by,
                             where=self.where(keep))
        self._set_prompt(Prompt(PromptKind.PROBLEM, text, tuple(extra + missing + wrong_colour),
                                Phase.FIX_BOARD))
