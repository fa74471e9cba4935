"""The 74HC165 chain, the diode matrix and the GPIO board source on gpiozero's MockFactory.

Custom MockPin subclasses (hardware/mock_board.py) behave like the chips and the matrix, so the
real driver code runs; faults are staged by setting attributes on the simulated board.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("gpiozero", reason="the GPIO tests need gpiozero (pip install 'table99[gpio]')")

from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.board_source import BoardReading, HealthMessage, HealthState, SourceHealth, health_message
from hardware.gpio_source import ChainReader, GpioBoardSource, MatrixReader
from hardware.matrix import DEFAULT_COLUMNS, DEFAULT_ROWS, SensorMatrix
from hardware.mock_board import MockMatrix, MockShiftChain
from hardware.scan import ScanSettings, bits
from hardware.shift_register import ShiftRegisterChain
from hardware.wiring import WiringMap

CHECK_PIN = 10


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


class Clock:
    """The source's clock, moved by the test: one scan every 5 ms."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Rig:
    """A GPIO source on a simulated chain or matrix, scanned by hand, with everything it published."""

    def __init__(
        self, factory: MockFactory, *, kind: str = "chain", wiring: WiringMap | None = None,
        tied: bool = False, **scan: float,
    ) -> None:
        opener: Any
        if kind == "chain":
            chain = MockShiftChain(factory)
            ties: dict[str, tuple[int, ...]] = {}
            if tied:  # the documented default wiring: input 102 to GND, 103 to 3V3
                chain.tied = {102: False, 103: True}
                ties = {"tied_low": (102,), "tied_high": (103,)}
            self.sim: Any = chain

            def opener() -> ChainReader:
                return ChainReader(ShiftRegisterChain(pin_factory=factory, **ties))  # type: ignore[arg-type]
        else:
            self.sim = MockMatrix(factory, DEFAULT_ROWS, DEFAULT_COLUMNS, check=CHECK_PIN)

            def opener() -> MatrixReader:
                return MatrixReader(SensorMatrix(check=CHECK_PIN, pin_factory=factory), has_check=True)
        self.clock = Clock()
        options = {"agree": 3, "stable_seconds": 0.05, **scan}
        self.source = GpioBoardSource(opener, wiring, ScanSettings(**options), clock=self.clock)  # type: ignore[arg-type]
        self.readings: list[BoardReading] = []
        self.health: list[SourceHealth] = []
        self.source.subscribe(self._note)

    def _note(self, event: object) -> None:
        if isinstance(event, BoardReading):
            self.readings.append(event)
        elif isinstance(event, SourceHealth):
            self.health.append(event)

    def open(self) -> bool:
        return self.source.open()

    def scan(self, holes: set[int] | None = None, times: int = 1) -> None:
        for _ in range(times):
            if holes is not None:
                self.sim.set_magnets(holes)
            self.clock.now += 0.005
            self.source.scan_once()

    @property
    def boards(self) -> list[frozenset[int]]:
        """The distinct occupied sets published, in order."""
        out: list[frozenset[int]] = []
        for reading in self.readings:
            if not out or out[-1] != reading.occupied:
                out.append(reading.occupied)
        return out


# -- the chain ----------------------------------------------------------------------------------
@settings(max_examples=40)
@given(st.sets(st.integers(0, 103)), st.booleans(), st.integers(1, 13))
def test_chain_reads_every_input_in_the_documented_order(
    magnets: set[int], active_high: bool, chips: int
) -> None:
    factory = MockFactory()
    try:
        magnets = {m for m in magnets if m < chips * 8}
        sim = MockShiftChain(factory, chips=chips, active_high=active_high)
        sim.set_magnets(magnets)
        with ShiftRegisterChain(chips=chips, active_high=active_high, pin_factory=factory) as chain:
            assert set(bits(chain.read_mask())) == magnets
            assert chain.sentinel_ok
            assert chain.value == tuple(i in magnets for i in range(chips * 8))
    finally:
        factory.reset()


@settings(max_examples=40)
@given(st.sets(st.integers(0, 101)), st.integers(0, 12), st.booleans())
def test_any_broken_link_fails_the_sentinels_whatever_the_pegs(
    magnets: set[int], broken_after: int, active_high: bool
) -> None:
    """No arrangement of pegs can make a broken chain look whole (so none is ever published)."""
    factory = MockFactory()
    try:
        sim = MockShiftChain(factory, active_high=active_high)
        sim.tied = {102: False, 103: True}
        sim.set_magnets(magnets)
        sim.broken_after = broken_after
        with ShiftRegisterChain(active_high=active_high, tied_low=[102], tied_high=[103],
                                pin_factory=factory) as chain:
            chain.read_mask()
            assert not chain.sentinel_ok
            sim.broken_after = None
            assert set(bits(chain.read_mask())) == magnets | ({103} if active_high else {102})
            assert chain.sentinel_ok
    finally:
        factory.reset()


def test_chain_names_inputs_by_chip_and_pin(factory: MockFactory) -> None:
    MockShiftChain(factory)
    with ShiftRegisterChain(pin_factory=factory) as chain:
        assert chain.describe_input(0) == "chip 1 pin D0"
        assert chain.describe_input(103) == "chip 13 pin D7"
    assert chain.closed


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ({"disconnected": True}, "reads all ones"),
        ({"unpowered": True}, "reads all zeros"),
        ({"broken_after": 5}, "a link in the chain is broken"),
    ],
)
def test_self_test_tells_a_silent_chain_from_an_empty_board(
    factory: MockFactory, fault: dict[str, object], message: str
) -> None:
    rig = Rig(factory, tied=True)
    for name, value in fault.items():
        setattr(rig.sim, name, value)
    assert not rig.open()
    assert rig.source.health.state is HealthState.ERROR
    assert message in rig.source.health.detail
    assert "does not answer" in rig.source.health.detail


def test_a_broken_link_with_pegs_before_it_is_named(factory: MockFactory) -> None:
    rig = Rig(factory)
    rig.sim.set_magnets({1, 9})
    rig.sim.broken_after = 6
    assert not rig.open()
    assert "a link in the chain is broken" in rig.source.health.detail


def test_an_unpowered_chain_fails_even_with_active_high_sensors(factory: MockFactory) -> None:
    sim = MockShiftChain(factory, active_high=True)
    sim.tied = {102: False, 103: True}
    sim.unpowered = True
    chain = ShiftRegisterChain(active_high=True, tied_low=[102], tied_high=[103], pin_factory=factory)
    state, detail = ChainReader(chain).self_test()
    assert state is HealthState.ERROR and "reads all zeros" in str(detail)
    sim.unpowered = False
    assert ChainReader(chain).self_test()[0] is HealthState.CONNECTED
    chain.close()


def test_an_empty_board_passes_the_self_test(factory: MockFactory) -> None:
    rig = Rig(factory)
    assert rig.open()
    assert rig.source.health.state is HealthState.CONNECTED
    assert rig.source.health.detail == "13 shift registers answer"


def test_a_chain_breaking_mid_game_is_lost_not_an_empty_board(factory: MockFactory) -> None:
    rig = Rig(factory)
    rig.open()
    rig.scan({3, 40, 90}, times=20)
    assert rig.boards[-1] == {3, 40, 90}
    published = len(rig.readings)
    rig.sim.broken_after = 2  # chips 4.. fall off: their pegs would seem lifted
    rig.scan(times=20)
    assert rig.source.health.state is HealthState.LOST
    assert "stopped answering" in rig.source.health.detail
    assert len(rig.readings) == published  # nothing published while the chain is broken
    rig.sim.broken_after = None
    rig.scan(times=20)
    assert rig.source.health.state is HealthState.CONNECTED
    assert rig.boards[-1] == {3, 40, 90}


# -- the matrix -------------------------------------------------------------------------------
def open_matrix(factory: MockFactory, check: bool = True) -> tuple[MockMatrix, SensorMatrix]:
    sim = MockMatrix(factory, DEFAULT_ROWS, DEFAULT_COLUMNS, check=CHECK_PIN if check else None)
    return sim, SensorMatrix(check=CHECK_PIN if check else None, pin_factory=factory)


@settings(max_examples=40)
@given(st.sets(st.integers(0, 99)), st.booleans(), st.booleans())
def test_matrix_reads_every_sensor_without_ghosts(
    magnets: set[int], active_low: bool, select_high: bool
) -> None:
    """Any pegs, any column level, rows selected directly or through an inverting driver."""
    factory = MockFactory()
    try:
        sim = MockMatrix(factory, DEFAULT_ROWS, DEFAULT_COLUMNS, active_low=active_low,
                         select_high=select_high, check=CHECK_PIN)
        sim.set_magnets(magnets)
        with SensorMatrix(active_low=active_low, select_high=select_high, check=CHECK_PIN,
                          pin_factory=factory) as matrix:
            assert set(bits(matrix.read_mask())) == magnets
            assert matrix.check_ok
            assert matrix.idle_columns() == 0
    finally:
        factory.reset()


def test_matrix_three_corners_do_not_light_the_fourth(factory: MockFactory) -> None:
    sim, matrix = open_matrix(factory)
    sim.set_magnets({0, 9, 90})  # with diodes, 99 stays dark
    with matrix:
        assert set(bits(matrix.read_mask())) == {0, 9, 90}
        assert matrix.describe_input(99) == "row line 10 / column line 10"


def test_matrix_self_test_finds_a_disconnected_matrix_and_a_short(factory: MockFactory) -> None:
    sim, matrix = open_matrix(factory)
    reader = MatrixReader(matrix, has_check=True)
    assert reader.self_test() == (HealthState.CONNECTED, health_message("the sensor matrix answers"))
    sim.disconnected = True
    state, detail = reader.self_test()
    assert state is HealthState.ERROR and "does not answer" in str(detail)
    sim.disconnected = False
    sim.short_column(4)
    state, detail = reader.self_test()
    assert state is HealthState.ERROR and "column line(s) 5" in str(detail)
    reader.close()


def test_matrix_without_check_input_says_what_it_cannot_prove(factory: MockFactory) -> None:
    _, matrix = open_matrix(factory, check=False)
    state, detail = MatrixReader(matrix, has_check=False).self_test()
    assert state is HealthState.CONNECTED and "cannot prove" in str(detail)
    matrix.close()


def test_matrix_source_publishes_holes_through_the_wiring_map(factory: MockFactory) -> None:
    sim, _ = None, None
    sim = MockMatrix(factory, DEFAULT_ROWS, DEFAULT_COLUMNS, check=CHECK_PIN)
    wiring = WiringMap(100, tuple(99 - h for h in range(100)))  # wired back to front
    clock = Clock()
    source = GpioBoardSource(
        lambda: MatrixReader(SensorMatrix(check=CHECK_PIN, pin_factory=factory), True), wiring,
        ScanSettings(agree=2), clock=clock,
    )
    assert source.open()
    sim.set_magnets({0, 42})
    for _ in range(3):
        clock.now += 0.005
        source.scan_once()
    assert source.last_reading is not None
    assert source.last_reading.occupied == {99, 57}
    assert source.describe_hole(57) == "hole 57 (row 6, column 8; row line 5 / column line 3)"
    source.stop()


# -- reading well: bounce, stuck, slides, a hand ---------------------------------------------------
@pytest.mark.parametrize("kind", ["chain", "matrix"])
def test_contact_bounce_gives_one_clean_change_then_the_stable_signal(
    factory: MockFactory, kind: str
) -> None:
    rig = Rig(factory, kind=kind)
    rig.open()
    rig.scan(set(), times=3)
    for level in (1, 0, 1, 1, 0, 1, 0, 0, 1):  # a peg dropped into hole 57 bounces
        rig.scan({57} if level else set())
    assert rig.boards == [frozenset()]  # not believed yet
    assert rig.readings[-1].unsure == {57}  # but the referee is told to wait
    rig.scan({57}, times=3)
    assert rig.boards == [frozenset(), {57}]
    assert not rig.source.stable
    rig.scan({57}, times=12)  # 60 ms quiet > stable_seconds
    assert rig.source.stable
    last = rig.readings[-1]
    assert last.occupied == {57} and last.unsure == frozenset()
    assert rig.readings[-2].same_board(last) and last.sequence == rig.readings[-2].sequence + 1


@pytest.mark.parametrize("kind", ["chain", "matrix"])
def test_a_stuck_sensor_is_named_in_the_health(factory: MockFactory, kind: str) -> None:
    rig = Rig(factory, kind=kind, stuck_seconds=1.0)
    rig.sim.stuck[33] = True  # sensor of hole 33 always senses a magnet
    rig.sim.stuck[34] = False  # sensor of hole 34 never does
    rig.open()
    rig.scan({34}, times=250)  # a peg sits on 34 for 1.25 s, unseen
    assert rig.boards == [{33}]
    assert rig.source.health.bad_holes == (33,)
    assert "hole 33 (row 4, column 4) may be stuck" in rig.source.health.detail
    assert rig.source.scanner is not None
    assert 34 in rig.source.scanner.never_changed()


@pytest.mark.parametrize("kind", ["chain", "matrix"])
def test_a_flickering_hole_is_named_and_recovers(factory: MockFactory, kind: str) -> None:
    rig = Rig(factory, kind=kind, flicker_toggles=8, flicker_window=0.5)
    rig.open()
    for i in range(20):
        rig.scan({71} if i % 2 else set())
    assert rig.source.health.bad_holes == (71,)
    assert "hole 71 (row 8, column 2) flickers" in rig.source.health.detail
    assert rig.boards == [frozenset()]  # and it never reached the board
    rig.scan(set(), times=120)
    assert rig.source.health.bad_holes == ()


@pytest.mark.parametrize("kind", ["chain", "matrix"])
def test_a_peg_slid_quickly_across_holes_lands_only_where_it_rests(factory: MockFactory, kind: str) -> None:
    rig = Rig(factory, kind=kind)
    rig.open()
    rig.scan({5}, times=5)
    for hole in (15, 25, 35, 45):  # slid down a column, two scans per hole
        rig.scan({5, hole}, times=2)
    rig.scan({5, 55}, times=20)
    assert rig.boards == [{5}, {5, 55}]


@pytest.mark.parametrize("kind", ["chain", "matrix"])
def test_a_peg_slid_slowly_shows_the_path_but_is_stable_only_at_rest(factory: MockFactory, kind: str) -> None:
    rig = Rig(factory, kind=kind)
    rig.open()
    rig.scan(set(), times=20)
    stable_before = sum(1 for r in rig.readings if not r.unsure)
    for hole in (60, 61, 62):  # 25 ms per hole: long enough to count, too short to be stable
        rig.scan({hole}, times=5)
    rig.scan({63}, times=20)
    assert rig.boards[-1] == {63}
    assert {60} in rig.boards and {62} in rig.boards
    assert rig.source.stable
    # every published board from the path was superseded before stable_seconds passed
    path_times = [r.timestamp for r in rig.readings if r.occupied in ({60}, {61}, {62})]
    assert max(path_times) - min(path_times) < 0.05 + 0.02
    assert sum(1 for r in rig.readings if not r.unsure) > stable_before


@pytest.mark.parametrize("kind", ["chain", "matrix"])
def test_a_hand_carrying_pegs_over_the_board_changes_nothing(factory: MockFactory, kind: str) -> None:
    rig = Rig(factory, kind=kind)
    rig.open()
    board = {2, 47, 88}
    rig.scan(board, times=20)
    before = list(rig.boards)
    for column in range(10):  # the hand sweeps across row 5 with a magnet, a scan per hole
        rig.scan(board | {40 + column, 50 + column})
    rig.scan(board, times=20)
    assert rig.boards == before == [board]
    assert rig.source.stable


# -- the thread -------------------------------------------------------------------------------
def test_the_scan_thread_publishes_and_stops(factory: MockFactory) -> None:
    sim = MockShiftChain(factory)
    source = GpioBoardSource(
        lambda: ChainReader(ShiftRegisterChain(pin_factory=factory)), None,
        ScanSettings(agree=2, stable_seconds=0.02), scan_hz=500,
    )
    seen = threading.Event()

    def listener(event: object) -> None:
        if isinstance(event, BoardReading) and event.occupied == {12} and source.stable:
            seen.set()

    source.subscribe(listener)
    sim.set_magnets({12})
    with source:
        assert seen.wait(5.0)
        assert source.health.state is HealthState.CONNECTED
        assert source.scan_rate > 0
    assert source.health.state is HealthState.STOPPED
    assert source.reader is None


def test_no_gpio_is_an_error_health_not_a_crash() -> None:
    def no_gpio() -> ChainReader:
        raise OSError("no GPIO here")

    source = GpioBoardSource(no_gpio)
    source.start()
    assert source.health.state is HealthState.ERROR
    assert "cannot open the GPIO sensors: no GPIO here" in source.health.detail
    source.stop()


def test_a_chain_plugged_in_after_start_is_found_by_the_retry(factory: MockFactory) -> None:
    sim = MockShiftChain(factory)
    sim.disconnected = True
    source = GpioBoardSource(
        lambda: ChainReader(ShiftRegisterChain(pin_factory=factory)), None, ScanSettings(agree=2),
        scan_hz=500, retry_seconds=0.01,
    )
    connected = threading.Event()
    source.subscribe(lambda e: connected.set() if isinstance(e, SourceHealth) and e.ok else None)
    with source:
        assert source.health.state is HealthState.ERROR
        assert "reads all ones" in source.health.detail
        sim.disconnected = False  # the cable goes in
        assert connected.wait(5.0)


class FlakyReader:
    """A reader whose pins fail for a few scans (an I/O error), then work again."""

    inputs = 104

    def __init__(self) -> None:
        self.scans = 0

    def read_mask(self) -> int:
        self.scans += 1
        if 5 <= self.scans < 10:
            raise OSError("GPIO read failed")
        return 1 << 7

    def fault(self) -> HealthMessage | None:
        return None

    def self_test(self) -> tuple[HealthState, HealthMessage]:
        return HealthState.CONNECTED, health_message("fine")

    def describe_input(self, index: int) -> str:
        return f"input {index}"

    def close(self) -> None:
        pass


def test_a_pin_error_mid_game_is_reported_and_scanning_goes_on() -> None:
    source = GpioBoardSource(FlakyReader, None, ScanSettings(agree=2, stable_seconds=0.01), scan_hz=1000)
    states: list[HealthState] = []
    recovered = threading.Event()

    def listener(event: object) -> None:
        if isinstance(event, SourceHealth):
            states.append(event.state)
            if event.state is HealthState.CONNECTED and HealthState.LOST in states:
                recovered.set()

    source.subscribe(listener)
    with source:
        assert recovered.wait(5.0)
    assert HealthState.LOST in states
    assert source.last_reading is not None and source.last_reading.occupied == {7}


def test_a_lost_chain_is_never_reported_stable(factory: MockFactory) -> None:
    """Issue 20, point 7: the last quiet board of a chain that stopped answering is not the board now."""
    rig = Rig(factory)
    rig.open()
    rig.scan({3, 40}, times=20)
    assert rig.source.stable
    rig.sim.broken_after = 2
    rig.scan(times=20)
    assert rig.source.health.state is HealthState.LOST
    assert not rig.source.stable
    rig.sim.broken_after = None
    rig.scan({3, 40}, times=20)
    assert rig.source.health.state is HealthState.CONNECTED and rig.source.stable
