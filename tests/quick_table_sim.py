"""A quick table, simulated on its own terms: players tapping and pegging at a real table's pace.

Written from the issue's description of a table, not from the project's board mocks: the board is
modelled here (a set of pegged holes, a reading with its own sequence number for every change,
delivered to the app a few milliseconds late, as a sensor scan or a serial frame is), pegs bounce
0-3 times as the magnet passes the sensor, and the next player taps 0.1-0.6 s after a peg went in,
often while it is still inside the referee's stability window. The app's side is wired as the game
screen wires it: readings go into a :class:`~hardware.board_source.ReadingQueue` that is drained
30 times a second (the screen's ``Clock`` interval), taps call the referee at once, and a tap names
no player unless the person chose one (the screen's default).

:func:`run_game` returns the record the players intended and the record the store holds; they must
be equal. Used by ``tests/test_referee_pace.py`` (a few seeds) and ``benchmarks/quick_table.py``
(hundreds).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.games.board99.game import Board99Game, TableSetup
from app.referee import RefereeRefusal, StabilityWindow
from app.referee.core import Referee
from app.store import GameStore
from hardware.board_source import BoardReading, ReadingQueue
from rules import board99 as rules
from rules.errors import InvalidActionError

FRAME = 1 / 30  # the game screen drains the queue and ticks the referee 30 times a second
COLOURS = ("red", "blue", "green", "yellow", "white", "black")


@dataclass
class Pace:
    """How quickly the table plays (seconds)."""

    gap: tuple[float, float] = (0.1, 0.6)  # from a peg going in to the next tap
    to_peg: tuple[float, float] = (0.3, 1.2)  # from PLAY to the peg touching the board
    bounces: tuple[int, int] = (0, 3)  # extra make/break pairs as the peg goes in
    bounce_ms: tuple[float, float] = (3.0, 25.0)
    latency: tuple[float, float] = (0.0, 0.05)  # a reading reaches the app this much later
    window: float = 0.4  # the referee's stability window


@dataclass
class Result:
    seed: int
    intended: list[dict[str, Any]]
    stored: list[dict[str, Any]]
    refusals: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return self.intended == self.stored


class _Board:
    """The physical board: pegged holes; every change is a reading, delivered ``latency`` late."""

    def __init__(self, schedule: Callable[[float, Callable[[], None]], None], queue: ReadingQueue,
                 rng: random.Random, pace: Pace) -> None:
        self.holes: set[int] = set()
        self.sequence = 0
        self.schedule = schedule
        self.queue = queue
        self.rng = rng
        self.pace = pace
        self.delivered = 0.0  # readings arrive in order (a scan loop, a serial line), however late

    def change(self, now: float, hole: int, present: bool) -> None:
        if present:
            self.holes.add(hole)
        else:
            self.holes.discard(hole)
        self.sequence += 1
        reading = BoardReading(frozenset(self.holes), now, sequence=self.sequence)
        self.delivered = max(self.delivered, now + self.rng.uniform(*self.pace.latency))
        self.schedule(self.delivered, lambda: self.queue.put(reading))


def _intended_action(state: Any, rng: random.Random) -> Any:
    """What the player to move means to do: mostly play a card on a legal square, sometimes draw."""
    player = state.to_move
    if state.hand_count(player) == 0 or rng.random() < 0.25:
        return rules.Draw(player)
    for _ in range(40):
        card = rng.randrange(0, 100)
        squares = state.legal_squares(card)
        if not squares:
            continue
        square = rng.choice(squares)
        action = rules.Play(player, card, square)
        try:
            new_state, events = rules.apply(state, action)
        except InvalidActionError:
            continue
        if new_state.outcome is not None and len(state.pegs) < 60:
            continue  # keep games long: a win only late in the game
        if any(isinstance(e, rules.Penalised) for e in events):
            continue
        return action
    return rules.Draw(player)


def run_game(seed: int, players: int = 2, plays: int = 60, pace: Pace | None = None) -> Result:
    """Play one seeded game at the table's pace; return the intended and the stored records."""
    pace = pace or Pace()
    rng = random.Random(seed)
    names = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")[:players]
    now = [0.0]
    agenda: list[tuple[float, int, Callable[[], None]]] = []
    counter = [0]

    def schedule(at: float, what: Callable[[], None]) -> None:
        counter[0] += 1
        heapq.heappush(agenda, (at, counter[0], what))

    store = GameStore(":memory:")
    layout = rng.choice(["spiral-out", "rows"])
    setup = rules.make_setup(list(names), layout=layout)
    game = Board99Game.create(store, setup, TableSetup(colours=dict(zip(names, COLOURS, strict=False))))
    referee = Referee(game, StabilityWindow(pace.window, lambda: now[0]))
    queue = ReadingQueue()
    board = _Board(schedule, queue, rng, pace)
    refusals: list[str] = []
    referee.start()
    board.change(0.0, -1, False)  # the empty board's first reading (hole -1: nothing changes)

    intended: list[dict[str, Any]] = []
    state = game.state

    def tap(action: Any) -> None:
        try:
            if isinstance(action, rules.Play):
                referee.announce_play(action.card)
            else:
                referee.announce_draw()
        except RefereeRefusal as exc:
            refusals.append(f"{now[0]:.3f}: {exc}")

    def peg_in(at: float, hole: int) -> float:
        """The peg goes in with 0-3 bounces; returns when it finally rests."""
        t = at
        for _ in range(rng.randint(*pace.bounces)):
            schedule(t, lambda t=t: board.change(t, hole, True))
            t += rng.uniform(*pace.bounce_ms) / 1000
            schedule(t, lambda t=t: board.change(t, hole, False))
            t += rng.uniform(*pace.bounce_ms) / 1000
        schedule(t, lambda t=t: board.change(t, hole, True))
        return t

    t = 1.0  # the first tap, after the empty board has settled
    for _ in range(plays):
        if state.outcome is not None:
            break
        action = _intended_action(state, rng)
        state, _ = rules.apply(state, action)
        intended.append(action)
        schedule(t, lambda a=action: tap(a))
        if isinstance(action, rules.Play):
            rests = peg_in(t + rng.uniform(*pace.to_peg), referee.hole_of(action.square))
            t = rests + rng.uniform(*pace.gap)
        else:
            t += rng.uniform(*pace.gap) + 0.2  # a draw: the card is taken, the next player taps
    end = t + 3.0
    frame = 0.0
    while agenda or frame < end:
        next_event = agenda[0][0] if agenda else end
        if frame <= next_event:
            now[0] = frame
            for event in queue.drain():
                referee.on_board_event(event)
            referee.tick()
            frame += FRAME
            continue
        at, _, what = heapq.heappop(agenda)
        now[0] = at
        what()
    stored = list(store.load(game.id).actions)
    expected = [_as_dict(a) for a in intended]
    return Result(seed, expected, stored, refusals)


def _as_dict(action: Any) -> dict[str, Any]:
    if isinstance(action, dict):
        return action
    if isinstance(action, rules.Play):
        return {"by": action.by, "do": "play", "card": action.card, "square": action.square}
    return {"by": action.by, "do": "draw"}
