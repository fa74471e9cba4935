"""Computers think off the referee's thread: choices are applied later, once, and only if still current.

Each test fails on the old referee, which called the chooser synchronously inside the person's
announcement or peg (and so inside the screen's pump) and applied whatever it returned.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from app.games.board99.game import TableSetup
from app.referee import Phase, PromptKind
from app.referee.thinking import InlineThinker, ThreadThinker
from rules import board99 as rules
from tests.test_referee import Table

BEN_COMPUTER = TableSetup(colours={"Ann": "red", "Ben": "blue"}, computers={"Ben": "basic"})


class ManualThinker:
    """Computes only when the test says so: the referee must not wait for it."""

    def __init__(self) -> None:
        self.asked: list[tuple[Callable[[], Any], Future[Any]]] = []
        self.closed = False

    def submit(self, think: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        self.asked.append((think, future))
        return future

    def run(self, index: int = -1) -> None:
        think, future = self.asked[index]
        future.set_result(think())

    def poll(self) -> None:
        """Started only by run()."""

    def close(self) -> None:
        self.closed = True


def draws(view: Any, level: str, rng: Any) -> Any:
    return rules.Draw(view.player)


def test_the_referee_returns_while_a_slow_computer_thinks_and_applies_its_choice_later() -> None:
    gate = threading.Event()
    called_on: list[str] = []

    def slow(view: Any, level: str, rng: Any) -> Any:
        called_on.append(threading.current_thread().name)
        gate.wait(5)  # the old synchronous referee sat here, inside Ann's DRAW, for 5 s
        return rules.Draw(view.player)

    thinker = ThreadThinker()
    t = Table(table=BEN_COMPUTER, chooser=slow, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()  # Ann draws: Ben (computer) starts thinking
    assert t.stored == [{"by": "Ann", "do": "draw"}]
    assert t.referee.thinking == "Ben" and not gate.is_set()
    t.pump()  # the screen's pump goes on: nothing to apply yet, nothing blocks
    assert len(t.stored) == 1
    gate.set()
    assert t.referee.finish_thinking(5)
    assert t.stored == [{"by": "Ann", "do": "draw"}, {"by": "Ben", "do": "draw", "card": 1}] \
        or t.stored == [{"by": "Ann", "do": "draw"}, {"by": "Ben", "do": "draw"}]
    assert called_on and called_on[0].startswith("computer-thinker")
    assert t.referee.thinking is None and t.game.state.to_move == "Ann"
    thinker.close()


def test_a_choice_for_an_undone_position_is_dropped() -> None:
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()  # Ann draws; Ben's choice is asked for
    assert len(thinker.asked) == 1 and t.referee.thinking == "Ben"
    t.referee.undo()  # Ann takes her draw back before Ben has chosen
    assert t.stored == [] and t.game.state.to_move == "Ann"
    thinker.run(0)  # Ben's choice arrives, for a position that no longer exists
    t.pump()
    t.settle()
    assert t.stored == [] and t.game.state.to_move == "Ann"
    t.referee.announce_draw()  # the game goes on normally: Ben is asked afresh
    assert len(thinker.asked) == 2
    thinker.run()
    t.pump()
    assert [a["by"] for a in t.stored] == ["Ann", "Ben"]


def test_a_choice_arriving_after_the_referee_was_closed_is_dropped() -> None:
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()
    t.referee.close()  # the screen is left
    assert thinker.closed
    thinker.run(0)
    t.pump()
    assert t.stored == [{"by": "Ann", "do": "draw"}]


def test_a_persons_tap_while_a_computer_thinks_waits_for_its_move() -> None:
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()
    t.referee.announce_draw()  # Ann taps DRAW again at once: held, not refused ("Ben is a computer")
    assert len(t.stored) == 1 and t.referee.waiting is not None
    assert t.referee.prompt.text == "Waiting for Ben (computer) to choose, then: DRAW."
    t.pump()  # the screen's pump runs on while Ben thinks: Ann's DRAW keeps waiting
    assert len(t.stored) == 1 and t.referee.waiting is not None
    thinker.run()
    t.pump()
    assert [a["by"] for a in t.stored] == ["Ann", "Ben", "Ann"]


def test_a_worker_error_is_logged_in_one_line_and_shown_never_a_silent_stall(
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(view: Any, level: str, rng: Any) -> Any:
        raise RuntimeError("no move\nsecond line of detail")

    thinker = ThreadThinker()
    t = Table(table=BEN_COMPUTER, chooser=broken, thinker=thinker, deck=tuple(range(100)))
    with caplog.at_level(logging.ERROR, logger="app.referee.computers"):
        t.referee.announce_draw()
        assert t.referee.finish_thinking(5)  # the error does not escape into the screen's pump
        t.pump()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == ["computer Ben (basic) could not choose a move: RuntimeError: no move"]
    prompt = t.referee.prompt
    assert prompt.kind is PromptKind.PROBLEM and "Ben (computer) could not choose a move" in prompt.text
    assert t.stored == [{"by": "Ann", "do": "draw"}]
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1  # not retried in a loop
    t.referee.undo()  # undo clears it: Ann is to move again
    assert t.referee.prompt.kind is not PromptKind.PROBLEM
    thinker.close()


def test_a_computer_choosing_someone_elses_action_is_reported_not_applied() -> None:
    def wrong(view: Any, level: str, rng: Any) -> Any:
        return rules.Draw("Ann")

    t = Table(table=BEN_COMPUTER, chooser=wrong, deck=tuple(range(100)))
    t.referee.announce_draw()
    assert t.stored == [{"by": "Ann", "do": "draw"}] and t.referee.prompt.kind is PromptKind.PROBLEM


def play_out(thinker: Any, seed: int, players: tuple[str, ...]) -> list[dict[str, Any]]:
    """A seeded game of advanced computers only; a person puts each computer's peg where it says."""
    import random

    deck = list(range(100))
    random.Random(seed).shuffle(deck)
    table = TableSetup(colours={}, computers={p: "advanced" for p in players}, seed=seed)
    t = Table(players, table=table, thinker=thinker, deck=tuple(deck))
    for _ in range(300):
        assert t.referee.finish_thinking(10)
        if t.game.state.outcome is not None:
            break
        assert t.phase is Phase.COMPUTER_PEG, t.referee.prompt
        (hole,) = t.referee.prompt.holes
        t.put(hole)
        t.settle()
    assert t.game.state.outcome is not None
    thinker.close()
    return t.stored


@pytest.mark.parametrize("seed", [3, 11])
def test_a_seeded_game_makes_the_same_choices_on_the_worker_as_inline(seed: int) -> None:
    players = ("Ann", "Ben", "Cat")
    assert play_out(ThreadThinker(), seed, players) == play_out(InlineThinker(), seed, players)


def test_the_worker_starts_a_choice_at_the_next_poll_and_close_cancels_one_not_started() -> None:
    """Asked for in the pump that judged a person's peg, a choice starts one tick later: the frame
    showing the verdict is drawn before the worker competes with it for Python's GIL."""
    from concurrent.futures import wait

    thinker = ThreadThinker()
    future = thinker.submit(lambda: 7)
    done, _ = wait([future], 0.2)
    assert not done  # not started before the next tick
    thinker.poll()
    assert future.result(5) == 7
    queued = thinker.submit(lambda: 8)
    thinker.close()  # the screen is left before the next tick
    assert queued.cancelled() and thinker.submit(lambda: 9).cancelled()


def test_closed_thinkers_leave_no_worker_threads_behind() -> None:
    """The exhibitor's loop plays game after game all day: each game's worker ends with its game."""
    # Only this test's own workers: other tests in the same process may still have theirs.
    workers: list[threading.Thread] = []
    for _ in range(30):
        thinker = ThreadThinker()
        future = thinker.submit(lambda: 1)
        thinker.poll()
        assert future.result(5) == 1
        assert thinker._worker is not None and thinker._worker.name.startswith("computer-thinker")
        workers.append(thinker._worker)
        thinker.close()
    deadline = time.monotonic() + 5
    while alive := [t for t in workers if t.is_alive()]:
        assert time.monotonic() < deadline, f"{len(alive)} of {len(workers)} workers still alive"
        time.sleep(0.01)


def test_the_app_exits_while_a_computer_thinks_without_hanging() -> None:
    """Nobody closed the thinker (the window was shut mid-choice, review finding 3: a choice that
    hangs for an hour): the worker is a daemon thread, so the process ends at once."""
    import subprocess
    import sys

    script = (
        "import time\n"
        "from app.referee.thinking import ThreadThinker\n"
        "t = ThreadThinker()\n"
        "f = t.submit(lambda: time.sleep(3600) or 1)\n"
        "t.poll()\n"
        "time.sleep(0.1)\n"
        "print('leaving', f.running())\n"
    )
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=20,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "leaving True"
    assert time.monotonic() - start < 15  # Python does not wait for the hung choice


def test_a_choice_arriving_during_a_persons_penalty_waits_and_loses_nothing() -> None:
    """Review finding 1: Ben's draw used to be committed over Ann's pending out-of-turn penalty."""
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()  # Ann draws: Ben (computer) starts thinking
    t.put(20)  # Ann pegs without announcing, while Ben thinks
    t.settle()
    assert t.phase is Phase.WHO_PLAYED
    t.referee.identify_unannounced("Ann", 0)  # Ben is to move: out of turn
    assert t.phase is Phase.REMOVE_PEG
    thinker.run(0)  # Ben's choice arrives now
    t.pump()
    t.settle()
    assert t.stored == [{"by": "Ann", "do": "draw"}]  # nothing committed over the penalty
    assert t.phase is Phase.REMOVE_PEG
    t.remove(20)
    t.settle()
    assert t.offences() == ["play-out-of-turn"]
    assert t.stored[1]["by"] == "Ann" and t.stored[1]["do"] == "play"
    for index in range(len(thinker.asked)):
        if not thinker.asked[index][1].done():
            thinker.run(index)
    t.pump()
    assert t.stored[2] == {"by": "Ben", "do": "draw"}  # Ben still plays his turn, after the penalty


def test_a_choice_arriving_while_the_board_is_fixed_is_applied_afterwards_never_a_stall() -> None:
    """Review finding 2: a choice arriving while a person's play waited was dropped for good."""
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)),
              sees_colour=True)
    t.referee.announce_draw()  # Ann draws: Ben thinks
    t.put(20, colour="blue")  # a blue peg appears unannounced
    t.settle()
    assert t.phase is Phase.WHO_PLAYED
    t.referee.identify_unannounced("Ann", 0)  # Ann plays red: fix the board
    assert t.phase is Phase.FIX_BOARD
    thinker.run(0)  # Ben's choice arrives now
    t.pump()
    t.referee.cancel_announcement()
    t.remove(20)
    t.settle()
    t.settle()
    assert [a["by"] for a in t.stored] == ["Ann", "Ben"]  # Ben's draw applied, not lost
    assert t.game.state.to_move == "Ann" and t.referee.thinking is None
    t.referee.announce_draw()  # and the game goes on
    assert [a["by"] for a in t.stored][:3] == ["Ann", "Ben", "Ann"]


def test_the_tick_asks_a_computer_again_when_its_choice_was_lost() -> None:
    """Safety net (finding 2): a computer to move with nothing in flight is asked on the next tick."""
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()
    t.referee._thought = None  # as if a bug dropped Ben's choice
    t.pump()
    assert len(thinker.asked) == 2 and t.referee.thinking == "Ben"
    thinker.run()
    t.pump()
    assert [a["by"] for a in t.stored] == ["Ann", "Ben"]
    t.referee.announce_draw()  # Ben is asked; then the screen is left: nothing more is asked
    t.referee.close()
    t.pump()
    assert len(thinker.asked) == 3


def test_a_choice_taking_too_long_is_logged_and_shown_then_applied_if_it_comes(
        caplog: pytest.LogCaptureFixture) -> None:
    """Review finding 3: a hung choice used to leave "Ben (computer) is choosing." up for ever."""
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    with caplog.at_level(logging.ERROR, logger="app.referee.computers"):
        t.referee.announce_draw()
        t.clock.now += 9
        t.pump()
        assert t.referee.prompt.kind is not PromptKind.PROBLEM  # 9 s: still thinking
        t.clock.now += 2
        t.pump()
        t.pump()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == ["computer Ben (basic) could not choose a move: TimeoutError: no choice after 10 s"]
    prompt = t.referee.prompt
    assert prompt.kind is PromptKind.PROBLEM and "Ben (computer) has not chosen" in prompt.text
    thinker.run(0)  # it comes after all: applied, the problem goes
    t.pump()
    assert [a["by"] for a in t.stored] == ["Ann", "Ben"]
    assert t.referee.prompt.kind is not PromptKind.PROBLEM


def test_a_choice_in_flight_when_a_person_commits_out_of_turn_is_asked_again() -> None:
    """Review finding 4 (the ``version`` check): Ann's out-of-turn play is committed while Ben's
    choice is being made; that choice saw the game before it and must not be applied."""
    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()  # Ann draws: Ben's choice is asked for (not computed yet)
    t.put(20)
    t.settle()
    t.referee.identify_unannounced("Ann", 0)  # out of turn: the penalty waits for the peg
    t.remove(20)
    t.settle()  # the penalty is committed while Ben's first choice is still in flight
    assert t.offences() == ["play-out-of-turn"] and len(t.stored) == 2
    assert len(thinker.asked) == 2 and t.referee.thinking == "Ben"  # asked again, for the new game
    thinker.run(0)  # the old choice arrives: dropped
    t.pump()
    assert len(t.stored) == 2
    thinker.run(1)
    t.pump()
    assert t.stored[2] == {"by": "Ben", "do": "draw"}


def test_a_failure_on_the_games_first_move_does_not_offer_undo() -> None:
    """Review finding 5: with nothing to undo (the computer moves first), the message said "Undo, or
    leave the game and resume it"; undo is disabled and leaving deletes a game with no actions."""
    def broken(view: Any, level: str, rng: Any) -> Any:
        raise RuntimeError("no move")

    first = TableSetup(colours={"Ann": "red", "Ben": "blue"}, computers={"Ann": "basic"})
    t = Table(table=first, chooser=broken, deck=tuple(range(100)))
    assert t.referee.undo_target() is None
    text = t.referee.prompt.text
    assert t.referee.prompt.kind is PromptKind.PROBLEM
    assert text == ("Ann (computer) could not choose a move (RuntimeError). "
                    "Leave the game and start a new one.")
    calls: list[int] = []

    def once(view: Any, level: str, rng: Any) -> Any:
        calls.append(1)
        if len(calls) > 1:
            raise RuntimeError("no move")
        return rules.Draw(view.player)

    both = TableSetup(colours={}, computers={"Ann": "basic", "Ben": "basic"})
    t1 = Table(table=both, chooser=once, deck=tuple(range(100)))  # computers only: nothing to undo
    assert len(t1.stored) == 1 and t1.referee.undo_target() is None
    assert t1.referee.prompt.text == ("Ben (computer) could not choose a move (RuntimeError). "
                                      "Leave the game and resume it to try again.")
    t2 = Table(table=BEN_COMPUTER, chooser=broken, deck=tuple(range(100)))
    t2.referee.announce_draw()  # Ann's draw can be undone: the old advice stands
    assert "Undo, or leave the game and resume it" in t2.referee.prompt.text


def test_a_system_exit_inside_a_choice_is_reported_not_raised_into_the_pump() -> None:
    """Review finding 6: the worker hands over any BaseException; tick() must not re-raise it."""
    def exits(view: Any, level: str, rng: Any) -> Any:
        raise SystemExit(3)

    thinker = ThreadThinker()
    t = Table(table=BEN_COMPUTER, chooser=exits, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()
    assert t.referee.finish_thinking(5)
    t.pump()
    prompt = t.referee.prompt
    assert prompt.kind is PromptKind.PROBLEM and "(SystemExit)" in prompt.text
    assert t.stored == [{"by": "Ann", "do": "draw"}]
    thinker.close()


def test_finish_thinking_returns_while_a_made_choice_waits_for_a_person() -> None:
    """Ben's choice is made but waits behind Ann's penalty: finish_thinking (tests, benchmarks,
    the terminal) says so at once instead of looping for ever on a choice it may not apply."""
    import time

    thinker = ManualThinker()
    t = Table(table=BEN_COMPUTER, chooser=draws, thinker=thinker, deck=tuple(range(100)))
    t.referee.announce_draw()
    t.put(20)
    t.settle()
    t.referee.identify_unannounced("Ann", 0)  # out of turn: the peg must come off first
    thinker.run(0)
    result: list[bool] = []
    started = time.monotonic()
    # in a thread: the old loop spun for ever (a hung test would hide which guard broke)
    waiter = threading.Thread(target=lambda: result.append(t.referee.finish_thinking(5)), daemon=True)
    waiter.start()
    waiter.join(8)
    assert result == [False], "finish_thinking did not return"
    assert time.monotonic() - started < 4  # returned at once, not at (or past) the timeout
    assert t.stored == [{"by": "Ann", "do": "draw"}]
