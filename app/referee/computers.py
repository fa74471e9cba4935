"""Computer players at the physical board: asking for a choice, applying it when it is ready.

A computer's choice is computed by a :class:`~app.referee.thinking.Thinker` (at once, or on a worker
thread for the screen) from what its seat may see; it is applied on the main thread by
:meth:`~app.referee.core.Referee.tick`, only while no person's peg is being sorted out, and dropped
when the game changed meanwhile. A failed or hung choice is logged and shown, never silent. This is
one part of :class:`~app.referee.core.Referee`, kept in its own module because it is one idea.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from typing import Any

from app.i18n import tr
from app.referee.events import ComputerChose, Phase
from app.referee.judging import PendingPlay
from rules import board99 as rules
from rules.board99.setup import CARDS
from rules.errors import InvalidActionError

log = logging.getLogger(__name__)
THINK_TIMEOUT = 10.0  # s: the slowest level takes well under 1 s on the board computer


@dataclass(frozen=True)
class Thought:
    """A computer's choice being computed for the game as it stood at ``version``."""

    version: int
    player: str
    level: str
    future: Future[Any]
    asked: float = 0.0  # the referee's clock when it was asked for (to report a hung choice)


class ComputerTurns:
    """The referee's computer turns (a part of :class:`~app.referee.core.Referee`, which owns the
    thinker, the version counter and the state these methods read)."""

    _thought: Thought | None
    _overdue: Thought | None
    _computer_error: tuple[int, str] | None
    _closed: bool
    _version: int
    _think_timeout: float
    _pending: PendingPlay | None
    _penalty: Any
    _unannounced_hole: int | None

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
                self._pending = PendingPlay(player, action.card, hole)
                self._emit(ComputerChose(player, action, hole))
                return
            try:
                new_state, events = rules.apply(self.state, action)
            except InvalidActionError as exc:
                self._computer_failed(thought, exc)
                return
            self._emit(ComputerChose(player, action))
            self._record(action, new_state, events)

    def _think(self, player: str) -> Thought:
        """Ask the thinker for ``player``'s choice, from values made here: the worker shares nothing."""
        if self._choose is None:
            from rules.board99.ai import choose_action

            self._choose = choose_action
        choose = self._choose
        level = self.game.table.computers[player]
        view, rng = self.state.view_for(player), self.game.computer_rng()  # immutable, and seeded
        future = self._thinker.submit(lambda: choose(view, level, rng))
        return Thought(self._version, player, level, future, self.window.clock())

    def _chosen(self, thought: Thought) -> Any | None:
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

    def _computer_failed(self, thought: Thought, exc: BaseException) -> None:
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

    def _check_overdue(self, thought: Thought) -> None:
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
