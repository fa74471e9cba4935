"""End to end on mock pins, wired from a config file as the app wires it: a 74HC165 chain with a
taught (scrambled) wiring map, the GPIO source, the referee, the turn LEDs and the buzzer, playing
a short Game of 99 by driving the mock pins."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("gpiozero", reason="the GPIO tests need gpiozero (pip install 'table99[gpio]')")

from app import paths
from app.config import parse_config
from app.games.board99.game import Board99Game, TableSetup
from app.referee import Phase, StabilityWindow
from app.referee.core import Referee
from app.referee.outputs import attach_outputs
from app.source_factories import gpio as gpio_factory
from app.sources import make_source
from app.store import GameStore
from hardware.board_source import HealthState, ReadingQueue
from hardware.gpio_source import GpioBoardSource
from hardware.wiring import WiringMap
from rules import board99 as rules


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


CONFIG = """
[board]
source = "gpio"
stable_seconds = 0.4
[board.gpio]
mock = true
debounce_scans = 3
[outputs]
turn_leds = [5, 6]
buzzer = 12
mock = true
"""


class Table:
    """The app's wiring for a hall-sensor board, from a config file, scanned by hand every 5 ms.

    config -> ``app.sources.make_source`` -> ``[board.gpio]`` factory (mock pins, the taught map
    from the data directory) -> ReadingQueue -> Referee -> ``attach_outputs`` (LEDs, buzzer).
    """

    def __init__(self) -> None:
        self.clock = Clock()
        order = list(range(102))  # inputs 102 and 103 are the chain's tied sentinels
        random.Random(6).shuffle(order)
        self.wiring = WiringMap(104, tuple(order[:100]))  # a hand-built board, taught and saved
        self.wiring.save(paths.data_dir() / gpio_factory.WIRING_FILE)
        config = parse_config(CONFIG, "config.toml")
        source = make_source(config)
        assert isinstance(source, GpioBoardSource) and source.wiring == self.wiring
        self.source = source
        self.mock = source.mock_board
        self.store = GameStore(":memory:")
        setup = rules.make_setup(("Ann", "Ben"), layout="spiral-out")
        self.game = Board99Game.create(self.store, setup, TableSetup(colours={"Ann": "red", "Ben": "blue"}))
        self.referee = Referee(self.game, StabilityWindow(config.stable_seconds, self.clock))
        self.events: list[Any] = []
        self.referee.subscribe(self.events.append)
        self.queue = ReadingQueue()
        self.source.subscribe(self.queue.put)
        outputs = attach_outputs(SimpleNamespace(config=config, extras={}), self.referee)
        assert outputs is not None and outputs.devices.leds is not None
        self.outputs = outputs
        assert self.source.open()
        self.referee.start()
        self.pegs: set[int] = set()
        self.run(0.5)

    def run(self, seconds: float, magnets: set[int] | None = None) -> None:
        for _ in range(round(seconds / 0.005)):
            holes = self.pegs if magnets is None else magnets
            self.mock.set_inputs({self.wiring.input_of(h) for h in holes})  # type: ignore[misc]
            self.clock.now += 0.005
            self.source.scan_once(self.clock.now)
            for event in self.queue.drain():
                self.referee.on_board_event(event)
            self.referee.tick()

    def put(self, hole: int) -> None:
        for contact in (True, False, True, False, True, True):  # the peg bounces as it drops in
            self.run(0.005, self.pegs | {hole} if contact else self.pegs)
        self.pegs.add(hole)
        self.run(0.6)

    def remove(self, hole: int) -> None:
        self.pegs.discard(hole)
        self.run(0.6)

    @property
    def stored(self) -> list[dict[str, Any]]:
        return list(self.store.load(self.game.id).actions)

    def leds(self) -> list[bool]:
        leds = self.outputs.devices.leds
        assert leds is not None
        return list(leds.states)


def test_a_short_game_on_mock_pins_is_refereed_play_by_play() -> None:
    t = Table()
    assert t.source.health.state is HealthState.CONNECTED
    assert t.leds() == [True, False]  # Ann's turn
    for _ in range(2):
        t.referee.announce_draw()
        t.referee.announce_draw()
    t.referee.announce_play(40)
    assert t.referee.phase is Phase.PLACE_PEG
    hole = t.referee.hole_of(57)
    t.put(hole)
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 40, "square": 57}
    assert t.game.state.pegs == {57: "Ann"}
    assert t.leds() == [False, True]  # Ben's turn

    # Ben plays card 70 on square 30: illegal. The peg must come out, then the penalty applies.
    t.referee.announce_play(70)
    wrong = t.referee.hole_of(30)
    t.put(wrong)
    assert t.referee.phase is Phase.REMOVE_PEG and wrong in t.referee.prompt.holes
    t.remove(wrong)
    assert [e.offence for e in t.events if isinstance(e, rules.Penalised)] == ["illegal-play"]
    assert t.outputs.devices.buzzer is not None and t.outputs.devices.buzzer.sounded == ["penalty"]
    assert t.game.state.to_move == "Ann" and t.leds() == [True, False]

    # a hand carrying pegs sweeps over the board: nothing happens
    before = len(t.stored)
    for column in range(10):
        t.run(0.005, t.pegs | {70 + column})
    t.run(0.6)
    assert len(t.stored) == before and t.referee.phase is Phase.ANNOUNCE

    # Ann plays 12 on square 12, sliding the peg in over two neighbouring holes first
    t.referee.announce_play(12)
    for passing in (t.referee.hole_of(13), t.referee.hole_of(14)):
        t.run(0.01, t.pegs | {passing})
    t.put(t.referee.hole_of(12))
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 12, "square": 12}
    assert t.game.state.pegs == {57: "Ann", 12: "Ann"}
    t.outputs.close()
    t.source.stop()


def test_a_chain_failing_mid_game_stops_the_referee_judging() -> None:
    t = Table()
    t.referee.announce_draw()
    t.referee.announce_draw()
    t.mock.sim.disconnected = True  # the data wire comes loose
    t.run(0.6)
    assert t.source.health.state is HealthState.LOST
    assert any(type(e).__name__ == "SourceProblem" for e in t.events)
    t.mock.sim.disconnected = False
    t.run(0.6)
    assert t.source.health.state is HealthState.CONNECTED
    t.source.stop()
