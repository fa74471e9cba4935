"""The referee: reconciles what the board shows with what the players announce.

Input arrives on the main thread only: board events drained from a
:class:`~hardware.board_source.ReadingQueue` (:meth:`Referee.on_board_event`), announcements from the
screen (:meth:`announce_play`, :meth:`announce_draw`, :meth:`announce_discard`), and :meth:`tick`,
which the app calls from a Kivy ``Clock`` interval to let the stability window mature.

The board is occupancy-only (hall sensors) or coloured (camera). The referee compares the *stable*
reading with the board the game expects (the rules' pegs mapped to holes by the layout), the way
picochess's Certabo driver compares sensed and expected squares:

* exactly one new peg after PLAY -> the rules judge it; a penalised play (illegal or out of turn)
  waits until the peg is removed, then the penalty is committed;
* one new peg with no announcement -> ask who played it and with which card;
* anything else (two new pegs, a missing peg, a wrong colour) -> "fix the board", naming the holes;
  nothing is applied until the board agrees with the game again.

Listeners (:meth:`subscribe`) receive the rules' events after the action was committed to the store,
and the referee's own events (:mod:`app.referee.events`). Rules logic stays in ``rules.board99``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.games.board99.game import Board99Game, colour_name
from app.games.board99.texts import describe_action, offence_text, outcome_text
from app.i18n import tr
from app.referee.computers import THINK_TIMEOUT, ComputerTurns, Thought
from app.referee.events import (
    ActionAccepted,
    ActionUndone,
    Phase,
    Prompt,
    PromptKind,
    SourceProblem,
    TurnChanged,
)
from app.referee.held import HeldAnnouncement, HeldAnnouncements, held_text
from app.referee.judging import Judging, PendingPenalty, PendingPlay
from app.referee.refusals import RefereeRefusal, refusal_text
from app.referee.stability import StabilityWindow
from app.referee.thinking import InlineThinker, Thinker
from hardware.board_source import BoardEvent, BoardReading, HealthState, SourceHealth
from rules import board99 as rules
from rules.errors import InvalidActionError

log = logging.getLogger(__name__)
Listener = Callable[[Any], None]

class Referee(Judging, HeldAnnouncements, ComputerTurns):
    """One game at the physical board: the board's readings and the players' announcements in,
    checked actions committed to the store and events out. Judging the board, held announcements
    and computer turns are its parts in :mod:`app.referee.judging`, :mod:`app.referee.held` and
    :mod:`app.referee.computers`; this module keeps the state they share and the public methods."""

    def __init__(
        self,
        game: Board99Game,
        window: StabilityWindow | None = None,
        *,
        sees_colour: bool = False,
        computer_chooser: Callable[[Any, str, Any], Any] | None = None,
        thinker: Thinker | None = None,
        think_timeout: float = THINK_TIMEOUT,
    ) -> None:
        self.game = game
        self.window = window or StabilityWindow()
        self.sees_colour = sees_colour
        self._choose = computer_chooser
        # Computers think through this: at once by default, on a worker thread for the screen.
        self._thinker: Thinker = thinker or InlineThinker()
        self._version = 0  # +1 for every commit and undo: a choice made for an older game is stale
        self._thought: Thought | None = None  # a computer's choice still being computed
        self._computer_error: tuple[int, str] | None = None  # (version, message) of a failed choice
        self._closed = False
        self._think_timeout = think_timeout
        self._overdue: Thought | None = None  # a choice already reported as taking too long
        self._listeners: list[Listener] = []
        self._pending: PendingPlay | None = None
        self._penalty: PendingPenalty | None = None
        self._unannounced_hole: int | None = None
        self._must_agree = True  # a new, resumed or undone game: the board must match first
        self._board: BoardReading | None = None  # the last stable reading
        self._source_ok = True
        self._held: list[HeldAnnouncement] = []
        self._releasing = False
        self.prompt: Prompt = Prompt(PromptKind.INFO, "")
        self._refresh_prompt()

    # -- listeners ------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` for every event; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, event: Any) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # one faulty listener (an LED driver) must not stop the game
                log.exception("referee listener failed on %r", event)

    def _set_prompt(self, prompt: Prompt) -> None:
        if prompt != self.prompt:
            self.prompt = prompt
            self._emit(prompt)

    # -- the game as the screen sees it -----------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def layout(self) -> Any:
        return self.game.setup.layout

    @property
    def phase(self) -> Phase:
        return self.prompt.phase

    @property
    def settling(self) -> bool:
        """True while the pegs on the board are still moving (not judged yet).

        The screen uses it not to name a player whose turn may be passing: until the new peg is
        judged, nobody knows whether the turn moved on. Before the first judged board (a game just
        started or resumed) nothing is "settling": there is no play in flight yet.
        """
        return self._board is not None and self.window.settling

    @property
    def board_agrees(self) -> bool:
        """True once a stable board has been judged to match the game since it started or resumed.

        Until then any peg on the board is one the game does not know of (a new game must start on
        the board it expects), so a front end or a test waits for this before the first play."""
        return self._board is not None and not self._must_agree

    @property
    def waiting(self) -> str | None:
        """A held announcement in words ("PLAY 50"), or None: shown while the board settles."""
        if not self._held:
            return None
        return ", ".join(held_text(held) for held in self._held)

    @property
    def held_announcements(self) -> tuple[dict[str, Any], ...]:
        """The held announcements as data (kind, card, by), for a front end that words them in its
        own viewer's language (the web display) rather than the table's."""
        return tuple({"kind": held.kind, "card": held.card, "by": held.by} for held in self._held)

    @property
    def pending_card(self) -> int | None:
        return self._pending.card if self._pending else None

    def hole_of(self, square: int) -> int:
        return int(self.layout.hole_of(square))

    def square_at(self, hole: int) -> int:
        return int(self.layout.number_at(hole))

    def expected_holes(self) -> dict[int, str]:
        """hole -> player for every peg the game has on the board."""
        return {self.hole_of(square): player for square, player in self.state.pegs.items()}

    def where(self, hole: int) -> str:
        """A hole as the players find it: the printed number and its place."""
        return tr("square {square} (row {row}, column {col})", square=self.square_at(hole),
                  row=hole // 10 + 1, col=hole % 10 + 1)

    # -- input: the board -------------------------------------------------------------------------
    def on_board_event(self, event: BoardEvent) -> None:
        if isinstance(event, SourceHealth):
            ok = event.state is HealthState.CONNECTED
            if ok != self._source_ok:
                self._source_ok = ok
                if not ok:
                    self._emit(SourceProblem(event.detail or event.state.value))
                else:
                    # Judge the board afresh (it may have changed meanwhile), and only after a whole
                    # window: a reading from just before the dropout is not a settled board.
                    self.window.restart()
                self._refresh_prompt()
            return
        if not self._source_ok:
            return  # readings from a source in error are not trusted (docs/referee.md)
        self.window.feed(event)
        self.tick()

    def tick(self) -> None:
        """Apply a computer's finished choice; let the stability window mature; judge the board."""
        self._thinker.poll()  # a choice asked for in the last tick starts now, after its frame
        self._collect_thought()
        if not self._source_ok:
            return
        reading = self.window.poll()
        if reading is not None:
            self._board = reading
            self._judge()
        self._release_held()

    # -- input: announcements -----------------------------------------------------------------------
    def announce_play(self, card: int, by: str | None = None) -> None:
        """PLAY ``card`` by ``by`` (default: the player to move); then one new peg is expected."""
        if self._hold(HeldAnnouncement("play", by, card)):
            return
        by = self._who(by)
        self._check_can_announce()
        self._check_not_computer(by)
        if not 0 <= card <= 99:
            raise RefereeRefusal(tr("There is no card {card}.", card=card))
        self._pending = PendingPlay(by, card)
        self._unannounced_hole = None
        self._judge()

    def identify_unannounced(self, by: str, card: int) -> None:
        """Answer "who played the new peg, with which card?" (a forgotten announcement or out of turn)."""
        if self._unannounced_hole is None:
            raise RefereeRefusal(tr("There is no unannounced peg to explain."))
        if by not in self.game.setup.players:
            raise RefereeRefusal(tr("{name} is not playing.", name=by))
        self._check_not_computer(by)
        self._pending = PendingPlay(by, card)
        self._unannounced_hole = None
        self._judge()

    def announce_draw(self, by: str | None = None, card: int | None = None) -> None:
        if self._hold(HeldAnnouncement("draw", by, card)):
            return
        by = self._who(by)
        self._check_can_announce()
        self._check_not_computer(by)
        self._check_board_agrees()
        self._apply_now(rules.Draw(by, card))

    def announce_discard(self, card: int, by: str | None = None) -> None:
        if self._hold(HeldAnnouncement("discard", by, card)):
            return
        by = self._who(by)
        self._check_can_announce()
        self._check_not_computer(by)
        self._check_board_agrees()
        self._apply_now(rules.Discard(by, card))

    def announce_dead_hand(self, cards: tuple[int, ...], by: str | None = None) -> None:
        """5of99: a player shows a hand of dead cards; the rules verify it."""
        if self._hold(HeldAnnouncement("dead-hand", by, cards=tuple(cards))):
            return
        by = self._who(by)
        self._check_can_announce()
        self._check_not_computer(by)
        self._check_board_agrees()
        self._apply_now(rules.RevealDeadHand(by, tuple(cards)))

    def cancel_announcement(self) -> None:
        """Withdraw a PLAY whose peg was not placed yet, or a held announcement (a slip of the finger)."""
        if self._held:
            self._held.pop()
            self._refresh_prompt()
            return
        if self._pending is not None and not self.game.is_computer(self._pending.by):
            self._pending = None
            self._judge()

    # -- undo ---------------------------------------------------------------------------------------
    def _undo_count(self) -> int:
        """How many actions undo takes back: the last person's action and the computers' replies after it.

        A computer's draw or discard alone would be chosen again at once (same view, same seeded
        rng), so undoing only that could never reach the person's mistake.
        """
        for back, action in enumerate(reversed(self.game.actions), 1):
            if not self.game.is_computer(action.by):
                return back
        return 0

    def undo_target(self) -> Any | None:
        """The person's action that undo would take back (computers' replies go with it), or None."""
        count = self._undo_count()
        return self.game.actions[-count] if count else None

    def undo_preview(self) -> str | None:
        """What undo would take back, in words (for the confirmation), or None when nothing."""
        count = self._undo_count()
        if not count:
            return None
        return "; ".join(describe_action(a) for a in self.game.actions[-count:])

    def undo(self) -> Any | None:
        """Take back the last person's action and any computer replies (after the screen's confirmation)."""
        count = self._undo_count()
        if not count:
            return None
        self._pending = self._penalty = None
        self._held = []
        self._unannounced_hole = None
        self._must_agree = True
        self._version += 1  # a computer's choice being made for the undone position is dropped
        self._thought = self._computer_error = None
        action = None
        for _ in range(count):
            index = len(self.game.actions) - 1
            action = self.game.undo()
            self._emit(ActionUndone(index, action))
        self._after_change()
        return action

    # -- judging ------------------------------------------------------------------------------------
    def _who(self, by: str | None) -> str:
        if by is None:
            by = self.state.to_move
        if by is None:
            raise RefereeRefusal(tr("The game is over."))
        if by not in self.game.setup.players:
            raise RefereeRefusal(tr("{name} is not playing.", name=by))
        return str(by)

    def _check_can_announce(self) -> None:
        if self.state.outcome is not None:
            raise RefereeRefusal(tr("The game is over."))
        if self._penalty is not None:
            raise RefereeRefusal(tr("First take the penalised peg off the board."))
        if self._pending is not None and self.game.is_computer(self._pending.by):
            raise RefereeRefusal(tr("First put the computer's peg on the board."))

    def _check_not_computer(self, by: str) -> None:
        """A computer's cards are virtual and the app acts for it: no one announces for it."""
        if self.game.is_computer(by):
            raise RefereeRefusal(tr("{name} is a computer: the app plays for it.", name=by))

    def _check_board_agrees(self) -> None:
        if self.phase in (Phase.FIX_BOARD, Phase.WHO_PLAYED):
            raise RefereeRefusal(tr("First make the board match the game."))

    def _apply_now(self, action: Any) -> None:
        try:
            new_state, events = rules.apply(self.state, action)
        except InvalidActionError as exc:
            raise RefereeRefusal(refusal_text(exc)) from exc
        self._commit(action, new_state, events)

    def _commit(self, action: Any, new_state: Any, events: tuple[Any, ...]) -> None:
        self._record(action, new_state, events)
        self._after_change()

    def _record(self, action: Any, new_state: Any, events: tuple[Any, ...]) -> None:
        index = self.game.commit(action, new_state)  # written to disk before anyone hears of it
        self._version += 1
        self._pending = self._penalty = None
        self._unannounced_hole = None
        self._emit(ActionAccepted(index, action))
        for event in events:
            self._emit(event)
        self._emit(TurnChanged(self.state.to_move, self.game.is_computer(self.state.to_move)))

    def _after_change(self) -> None:
        self.window.forget()
        self._computer_turn()
        self._judge()

    def _refresh_prompt(self) -> None:
        """The prompt for a board that agrees with the game (or an unknown board)."""
        state = self.state
        if not self._source_ok:
            self._set_prompt(Prompt(PromptKind.PROBLEM, tr(
                "The board is not connected. Waiting for it..."), (), self.phase))
            return
        if state.outcome is not None:
            self._set_prompt(Prompt(PromptKind.INFO, outcome_text(state.outcome), (), Phase.OVER))
            return
        if self._penalty is not None:
            penalty = self._penalty
            offence = next(e.offence for e in penalty.events if isinstance(e, rules.Penalised))
            self._set_prompt(Prompt(PromptKind.ACTION, tr(
                "{offence}: take {name}'s peg off {where}.",
                offence=offence_text(offence), name=penalty.action.by, where=self.where(penalty.hole)),
                (penalty.hole,), Phase.REMOVE_PEG))
            return
        if self._unannounced_hole is not None:
            self._set_prompt(Prompt(PromptKind.ACTION, tr(
                "A new peg on {where} without an announcement: who played it, with which card?",
                where=self.where(self._unannounced_hole)), (self._unannounced_hole,), Phase.WHO_PLAYED))
            return
        error = self._computer_error
        if error is not None and error[0] == self._version:
            self._set_prompt(Prompt(PromptKind.PROBLEM, error[1], (), Phase.ANNOUNCE))
            return
        pending = self._pending
        if pending is not None and pending.hole is not None:
            colour = self.game.colours.get(pending.by, "")
            self._set_prompt(Prompt(PromptKind.ACTION, tr(
                "{name} plays card {card}: put a {colour} peg on {where}.", name=pending.by,
                card=pending.card, colour=colour_name(colour), where=self.where(pending.hole)) + self._then(),
                (pending.hole,), Phase.COMPUTER_PEG))
            return
        if pending is not None:
            squares = state.legal_squares(pending.card)
            holes = tuple(self.hole_of(s) for s in squares)
            self._set_prompt(Prompt(PromptKind.ACTION, tr(
                "{name} plays card {card}: put the peg on a free square from {card} up.",
                name=pending.by, card=pending.card) + self._then(), holes, Phase.PLACE_PEG))
            return
        if self._held and self._thought is not None:
            self._set_prompt(Prompt(PromptKind.INFO, tr(
                "Waiting for {name} (computer) to choose, then: {what}.", name=self._thought.player,
                what=self.waiting), (), Phase.WAITING))
            return
        if self._held:
            self._set_prompt(Prompt(PromptKind.INFO, tr(
                "Waiting for the pegs to settle, then: {what}.", what=self.waiting),
                (), Phase.WAITING))
            return
        player = state.to_move
        if self.game.setup.ruleset is rules.Ruleset.FIVE_OF_99:  # 5of99 has no discard
            text = tr("{name}'s turn: PLAY or DRAW.", name=player)
        else:
            text = tr("{name}'s turn: PLAY, DRAW or DISCARD.", name=player)
        self._set_prompt(Prompt(PromptKind.INFO, text, (), Phase.ANNOUNCE))

    def _then(self) -> str:
        """What waits after the play in progress (a quick player's tap), for the prompt."""
        return " " + tr("Then: {what}.", what=self.waiting) if self._held else ""

    def start(self) -> None:
        """Begin (or resume) refereeing: let a computer move if it is its turn."""
        self._emit(TurnChanged(self.state.to_move, self.game.is_computer(self.state.to_move)))
        self._computer_turn()
        self._refresh_prompt()
