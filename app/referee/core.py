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
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from typing import Any

from app.board99_game import Board99Game, colour_name
from app.i18n import tr
from app.referee.events import (
    ActionAccepted,
    ActionUndone,
    AnnouncementRefused,
    ComputerChose,
    Phase,
    Prompt,
    PromptKind,
    SourceProblem,
    TurnChanged,
)
from app.referee.refusals import refusal_text
from app.referee.stability import StabilityWindow
from app.referee.thinking import InlineThinker, Thinker
from hardware.board_source import BoardEvent, BoardReading, HealthState, SourceHealth
from rules import board99 as rules
from rules.board99.setup import CARDS
from rules.errors import InvalidActionError

log = logging.getLogger(__name__)
Listener = Callable[[Any], None]

PEG_REMOVING_OFFENCES = ("play-out-of-turn", "illegal-play")
MAX_HELD = 6  # announcements that may wait for the board at once (one round of six players)
THINK_TIMEOUT = 10.0  # s: the slowest level takes well under 1 s on the board computer


class RefereeRefusal(Exception):
    """An announcement the referee cannot accept now; the message is for the screen (translated)."""


@dataclass(frozen=True)
class _PendingPlay:
    by: str
    card: int
    hole: int | None = None  # a computer's chosen hole; None for a person's play


@dataclass(frozen=True)
class _HeldAnnouncement:
    """An announcement made while pegs were settling, applied once the board is still.

    ``by`` is None when the screen did not name anyone: it then means "the player to move" *after*
    the settling peg was judged (Ann's peg lands, Ben taps PLAY at once: Ben's play, not Ann's).
    """

    kind: str  # "play", "draw", "discard", "dead-hand"
    by: str | None
    card: int | None = None
    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Thought:
    """A computer's choice being computed for the game as it stood at ``version``."""

    version: int
    player: str
    level: str
    future: Future[Any]
    asked: float = 0.0  # the referee's clock when it was asked for (to report a hung choice)


@dataclass(frozen=True)
class _PendingPenalty:
    action: Any
    hole: int
    new_state: Any
    events: tuple[Any, ...]


class Referee:
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
        self._thought: _Thought | None = None  # a computer's choice still being computed
        self._computer_error: tuple[int, str] | None = None  # (version, message) of a failed choice
        self._closed = False
        self._think_timeout = think_timeout
        self._overdue: _Thought | None = None  # a choice already reported as taking too long
        self._listeners: list[Listener] = []
        self._pending: _PendingPlay | None = None
        self._penalty: _PendingPenalty | None = None
        self._unannounced_hole: int | None = None
        self._must_agree = True  # a new, resumed or undone game: the board must match first
        self._board: BoardReading | None = None  # the last stable reading
        self._source_ok = True
        self._held: list[_HeldAnnouncement] = []
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
        return ", ".join(_held_text(held) for held in self._held)

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

    def _hold(self, held: _HeldAnnouncement) -> bool:
        """Hold an announcement while the board settles; True when held (the caller stops).

        Several may wait, in the order they were made (Ben's DRAW, then Ann's, tapped while Ann's
        peg still settles); each goes to the player to move when its turn to be applied comes.
        """
        if self._releasing:
            return False  # applying a held announcement now
        if not self.settling and not self._held and not self._waits_for_peg(held) and self._thought is None:
            return False  # (while a computer thinks, a person's tap waits for its move, as in turn)
        if len(self._held) >= MAX_HELD:
            raise RefereeRefusal(tr("Wait: {what} is waiting for the pegs to settle.",
                                    what=_held_text(self._held[-1])))
        self._held.append(held)
        self._refresh_prompt()
        return True

    def _waits_for_peg(self, held: _HeldAnnouncement) -> bool:
        """An announcement naming nobody while a person's PLAY still waits for its peg.

        With a source that reports late (a camera, a slow link) the next player's tap can arrive
        before the reading of the peg just played: applying it at once would file it under the
        player whose peg is still on its way. It waits for that peg instead. Naming a player on
        purpose (or CANCEL first) still replaces the pending play, as a correction does.
        """
        pending = self._pending
        return held.by is None and pending is not None and pending.hole is None

    def _release_held(self) -> None:
        """Apply held announcements, oldest first, as soon as each can be judged.

        Each waits until no play waits for its peg. A held PLAY may then go ahead even while a peg
        is still settling (at a quick table that peg is usually the play being announced: it is
        judged against the PLAY once still), and so may a DRAW or DISCARD tapped before a held
        PLAY (Ann draws, Ben plays and pegs at once: the settling peg is Ben's). A DRAW, DISCARD or
        dead hand with no PLAY after it waits for a still board, so a peg nobody announced is
        asked about first.
        """
        while (self._held and self._source_ok and self._pending is None and self._penalty is None
               and self._thought is None):
            held = self._held[0]
            play_follows = any(later.kind == "play" for later in self._held[1:])
            if held.kind != "play" and self.settling and not play_follows:
                return
            self._held.pop(0)
            self._releasing = True
            try:
                self._apply_held(held)
            except RefereeRefusal as exc:
                later, self._held = self._held, []
                self._emit(AnnouncementRefused(str(exc) + " " + tr(
                    "Not applied: {what}. Announce it again.", what=_held_text(held))))
                for item in later:  # made after a refused one: whose turn they were is unknown
                    self._emit(AnnouncementRefused(tr("Not applied: {what}. Announce it again.",
                                                      what=_held_text(item))))
                self._refresh_prompt()
                return
            finally:
                self._releasing = False
        if self._held and (self._penalty is not None or self.phase in (Phase.FIX_BOARD, Phase.WHO_PLAYED)) \
                and not self.settling:
            self._refuse_held()

    def _refuse_held(self) -> None:
        """The board needs a person first (a penalty, a peg to explain): held taps are void."""
        held, self._held = self._held, []
        reason = (tr("First take the penalised peg off the board.") if self._penalty is not None
                  else tr("First make the board match the game."))
        for item in held:
            self._emit(AnnouncementRefused(reason + " " + tr("Not applied: {what}. Announce it again.",
                                                             what=_held_text(item))))
        self._refresh_prompt()

    def _apply_held(self, held: _HeldAnnouncement) -> None:
        if held.kind == "play":
            assert held.card is not None
            self.announce_play(held.card, held.by)
        elif held.kind == "draw":
            self.announce_draw(held.by, held.card)
        elif held.kind == "discard":
            assert held.card is not None
            self.announce_discard(held.card, held.by)
        else:
            self.announce_dead_hand(held.cards, held.by)

    # -- input: announcements -----------------------------------------------------------------------
    def announce_play(self, card: int, by: str | None = None) -> None:
        """PLAY ``card`` by ``by`` (default: the player to move); then one new peg is expected."""
        if self._hold(_HeldAnnouncement("play", by, card)):
            return
        by = self._who(by)
        self._check_can_announce()
        self._check_not_computer(by)
        if not 0 <= card <= 99:
            raise RefereeRefusal(tr("There is no card {card}.", card=card))
        self._pending = _PendingPlay(by, card)
        self._unannounced_hole = None
        self._judge()

    def identify_unannounced(self, by: str, card: int) -> None:
        """Answer "who played the new peg, with which card?" (a forgotten announcement or out of turn)."""
        if self._unannounced_hole is None:
            raise RefereeRefusal(tr("There is no unannounced peg to explain."))
        if by not in self.game.setup.players:
            raise RefereeRefusal(tr("{name} is not playing.", name=by))
        self._check_not_computer(by)
        self._pending = _PendingPlay(by, card)
        self._unannounced_hole = None
        self._judge()

    def announce_draw(self, by: str | None = None, card: int | None = None) -> None:
        if self._hold(_HeldAnnouncement("draw", by, card)):
            return
        by = self._who(by)
        self._check_can_announce()
        self._check_not_computer(by)
        self._check_board_agrees()
        self._apply_now(rules.Draw(by, card))

    def announce_discard(self, card: int, by: str | None = None) -> None:
        if self._hold(_HeldAnnouncement("discard", by, card)):
            return
        by = self._who(by)
        self._check_can_announce()
        self._check_not_computer(by)
        self._check_board_agrees()
        self._apply_now(rules.Discard(by, card))

    def announce_dead_hand(self, cards: tuple[int, ...], by: str | None = None) -> None:
        """5of99: a player shows a hand of dead cards; the rules verify it."""
        if self._hold(_HeldAnnouncement("dead-hand", by, cards=tuple(cards))):
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

    def _computer_turn(self) -> None:
        """While a computer is to move, let it choose: draws and discards apply at once.

        The choice is asked of the thinker; when it is not ready at once (a worker thread), the
        referee returns and :meth:`tick` applies it later through this same method. A choice made
        for an older game (a commit or an undo since: ``_version``) is dropped and asked again.
        """
        # Bounded only against a broken chooser: every draw or discard uses up a card, so a game
        # of computers alone (the exhibitor's loop) may draw many times before the next peg.
        for _ in range(2 * CARDS):
            player = self.state.to_move
            if self.state.outcome is not None or not self.game.is_computer(player):
                self._thought = None  # nothing to choose (a stale choice is dropped with it)
                return
            if self._pending:  # a peg to place first: a current choice is kept (tick applies it)
                return
            assert player is not None
            thought = self._thought
            if thought is None or thought.version != self._version or thought.player != player:
                thought = self._think(player)
            if not thought.future.done():
                self._thought = thought  # tick() applies it once computed
                return
            self._thought = None
            if thought is self._overdue:  # it came after all: the "has not chosen" problem goes
                self._overdue = self._computer_error = None
            action = self._chosen(thought)
            if action is None:
                return
            if isinstance(action, rules.Play):
                hole = self.hole_of(action.square)
                self._pending = _PendingPlay(player, action.card, hole)
                self._emit(ComputerChose(player, action, hole))
                return
            try:
                new_state, events = rules.apply(self.state, action)
            except InvalidActionError as exc:
                self._computer_failed(thought, exc)
                return
            self._emit(ComputerChose(player, action))
            self._record(action, new_state, events)

    def _think(self, player: str) -> _Thought:
        """Ask the thinker for ``player``'s choice, from values made here: the worker shares nothing."""
        if self._choose is None:
            from rules.board99.ai import choose_action

            self._choose = choose_action
        choose = self._choose
        level = self.game.table.computers[player]
        view, rng = self.state.view_for(player), self.game.computer_rng()  # immutable, and seeded
        future = self._thinker.submit(lambda: choose(view, level, rng))
        return _Thought(self._version, player, level, future, self.window.clock())

    def _chosen(self, thought: _Thought) -> Any | None:
        """The finished choice, or None when it failed (then logged and shown, never silent)."""
        if thought.future.cancelled():
            return None  # closed with the screen
        try:
            action = thought.future.result()
        except BaseException as exc:  # the worker hands over anything (a SystemExit in a chooser):
            self._computer_failed(thought, exc)  # never raised into the screen's pump
            return None
        if not isinstance(action, (rules.Play, rules.Draw, rules.Discard, rules.RevealDeadHand)) \
                or action.by != thought.player:
            self._computer_failed(thought, ValueError(f"not an action of {thought.player}: {action!r}"))
            return None
        return action

    def _computer_failed(self, thought: _Thought, exc: BaseException) -> None:
        log.error("computer %s (%s) could not choose a move: %s: %s", thought.player, thought.level,
                  type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")
        name, error = thought.player, type(exc).__name__
        if self._undo_count():
            text = tr("{name} (computer) could not choose a move ({error}). Undo, or leave the game and "
                      "resume it to try again.", name=name, error=error)
        elif self.game.actions:  # only computers' actions: nothing to undo, but resuming retries
            text = tr("{name} (computer) could not choose a move ({error}). Leave the game and resume "
                      "it to try again.", name=name, error=error)
        else:  # the game's first move: leaving deletes a game with no actions (game_screen.leave)
            text = tr("{name} (computer) could not choose a move ({error}). Leave the game and start a "
                      "new one.", name=name, error=error)
        self._computer_error = (self._version, text)
        self._refresh_prompt()

    def _person_first(self) -> bool:
        """A person's peg is being sorted out (a penalty, an unexplained peg, a person's play, a board
        to fix): a computer's finished choice waits for it, never committed over it or dropped."""
        pending = self._pending
        return (self._penalty is not None or self._unannounced_hole is not None
                or (pending is not None and not self.game.is_computer(pending.by))
                or self.phase in (Phase.FIX_BOARD, Phase.WHO_PLAYED))

    def _computer_stuck(self) -> bool:
        """A computer is to move and nothing will ever ask it: no choice in flight, none waiting,
        no reported failure. Only a bug gets here; the tick's safety net asks it again."""
        player = self.state.to_move
        error = self._computer_error
        return (not self._closed and self._thought is None and self.state.outcome is None
                and player is not None and self.game.is_computer(player) and self._pending is None
                and not self._person_first() and (error is None or error[0] != self._version))

    def _collect_thought(self) -> None:
        """A computer's choice computed on the worker is ready: apply it now, on this thread.

        It waits (kept, still current) while a person's peg is sorted out, and is applied on the
        first tick after. A computer to move with nothing asked (a choice dropped by a bug) is
        asked again here, so the game never stalls on "Ben (computer) is choosing."
        """
        thought = self._thought
        if thought is None and not self._computer_stuck():
            return
        if thought is not None and not thought.future.done():
            self._check_overdue(thought)
            return
        if thought is not None and self._person_first():
            return
        # No window.forget() here, unlike after a person's commit: a computer's committed actions
        # (draw, discard, dead hand) never change the pegs the game expects, and it is only applied
        # while the board agrees with the game (_person_first), so judging the last stable board
        # again now is all a new reading could do.
        self._computer_turn()
        self._judge()

    def _check_overdue(self, thought: _Thought) -> None:
        """A choice not made within ``think_timeout``: logged and shown once (a hung chooser must
        not leave "Ben (computer) is choosing." up for ever). Still applied if it comes after all."""
        if thought is self._overdue or self.window.clock() - thought.asked <= self._think_timeout:
            return
        self._overdue = thought
        log.error("computer %s (%s) could not choose a move: TimeoutError: no choice after %.0f s",
                  thought.player, thought.level, self._think_timeout)
        self._computer_error = (self._version, tr(
            "{name} (computer) has not chosen after {seconds} s. Leave the game and resume it to "
            "try again.", name=thought.player, seconds=round(self._think_timeout)))
        self._refresh_prompt()

    @property
    def thinking(self) -> str | None:
        """The computer whose choice is being computed right now, or None."""
        thought = self._thought
        return thought.player if thought is not None and not thought.future.done() else None

    def finish_thinking(self, timeout: float = 10.0) -> bool:
        """Wait for the computers' choices and apply them; True when none is left in flight.

        For tests, benchmarks and a terminal only: the screen never waits, its pump applies a
        choice once it is ready.
        """
        deadline = time.monotonic() + timeout
        while (thought := self._thought) is not None:
            self._thinker.poll()
            wait_for([thought.future], max(0.0, deadline - time.monotonic()))
            if not thought.future.done():
                return False
            self.tick()  # applies it; the next computer's choice may be asked for at once
            if self._thought is thought:  # made, but waiting for a person (a penalty, a peg)
                return False
        return True

    def close(self) -> None:
        """The screen is left or the game replaced: drop a choice in flight and stop the thinker."""
        self._thought = None
        self._closed = True
        self._version += 1
        self._thinker.close()

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
            self._penalty = _PendingPenalty(action, hole, new_state, tuple(events))
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


def _held_text(held: _HeldAnnouncement) -> str:
    what = {"play": tr("PLAY"), "draw": tr("DRAW"), "discard": tr("DISCARD"),
            "dead-hand": tr("DEAD HAND")}[held.kind]
    if held.card is not None:
        what = f"{what} {held.card}"
    if held.by is not None:
        what = tr("{name}: {what}", name=held.by, what=what)
    return what


def offence_text(offence: str) -> str:
    return {
        "play-out-of-turn": tr("Played out of turn"),
        "discard-out-of-turn": tr("Discarded out of turn"),
        "draw-out-of-turn": tr("Drew out of turn"),
        "illegal-play": tr("Illegal play"),
        "illegal-draw": tr("Illegal draw"),
    }.get(offence, offence)


def outcome_text(outcome: Any) -> str:
    if outcome.status == "won":
        return tr("{names} won!", names=" & ".join(outcome.winners))
    return tr("A tie: no five in a row.")


def describe_action(action: Any) -> str:
    if isinstance(action, rules.Play):
        return tr("{name} played card {card} on square {square}", name=action.by, card=action.card,
                  square=action.square)
    if isinstance(action, rules.Draw):
        if action.card is None:
            return tr("{name} drew a card", name=action.by)
        return tr("{name} drew card {card}", name=action.by, card=action.card)
    if isinstance(action, rules.Discard):
        return tr("{name} discarded card {card}", name=action.by, card=action.card)
    return tr("{name}: {action}", name=getattr(action, "by", "?"), action=type(action).__name__)
