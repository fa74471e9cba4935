"""The 74HC165 chain's input numbering (chip order, pin order) and reading it over SPI.

The SPI chain runs on gpiozero's MockFactory, whose SPI is gpiozero's own software SPI clocking
the simulated chips of hardware/mock_board.py in SPI mode 2, as the Pi's SPI block would.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("gpiozero", reason="the GPIO tests need gpiozero (pip install 'table99[gpio]')")

from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from app.config import Config, ConfigError, check_table
from app.source_factories.gpio import SPEC, make, wiring_from
from hardware.board_source import HealthState
from hardware.chain_bits import D7_FIRST, FARTHEST_FIRST, ChainBits
from hardware.gpio_setup import ChainWiring, MockBoard
from hardware.gpio_source import ChainReader, GpioBoardSource
from hardware.mock_board import MockShiftChain
from hardware.scan import ScanSettings
from hardware.shift_register import ShiftRegisterChain
from hardware.spi_chain import SpiShiftRegisterChain

ORDERS = st.sampled_from([("nearest_first", "d0_first"), ("nearest_first", "d7_first"),
                          ("farthest_first", "d0_first"), ("farthest_first", "d7_first")])


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


# -- numbering --------------------------------------------------------------------------------
@given(order=ORDERS, chips=st.integers(1, 20), data=st.data())
def test_numbered_input_i_is_the_wire_that_wire_input_names(order: tuple[str, str], chips: int,
                                                            data: st.DataObject) -> None:
    bits = ChainBits(chips, chip_order=order[0], pin_order=order[1])
    wire_levels = data.draw(st.integers(0, (1 << chips * 8) - 1))
    numbered = bits.numbered(wire_levels)
    for index in range(bits.inputs):
        assert (numbered >> index & 1) == (wire_levels >> bits.wire_input(index) & 1)
    assert sorted(bits.wire_input(i) for i in range(bits.inputs)) == list(range(bits.inputs))


def test_the_orders_number_inputs_as_a_maker_counts_them() -> None:
    assert ChainBits(13).wire_input(0) == 0  # chip 1 = nearest the Pi, D0
    far = ChainBits(13, chip_order=FARTHEST_FIRST)
    assert far.wire_input(0) == 96 and far.wire_input(103) == 7  # chip 1 = the far end
    assert far.describe(0) == "chip 1 pin D0"
    d7 = ChainBits(13, pin_order=D7_FIRST)
    assert d7.wire_input(0) == 7 and d7.describe(0) == "chip 1 pin D7" and d7.describe(15) == "chip 2 pin D0"
    with pytest.raises(ValueError, match="chip_order must be one of nearest_first, farthest_first"):
        ChainBits(13, chip_order="backwards")


def test_a_chain_built_from_the_far_end_reads_its_first_input_first(factory: MockFactory) -> None:
    sim = MockShiftChain(factory)
    sim.set_magnets({96})  # chip 13 counted from the Pi, D0: the maker's chip 1
    with ShiftRegisterChain(chip_order=FARTHEST_FIRST, pin_factory=factory) as chain:
        assert chain.read_mask() == 1
        assert chain.describe_input(0) == "chip 1 pin D0"


def test_tied_inputs_are_numbered_in_the_configured_order(factory: MockFactory) -> None:
    wiring = ChainWiring(chip_order=FARTHEST_FIRST, pin_order=D7_FIRST)  # ties: inputs 102 and 103
    board = MockBoard(wiring)
    assert board.sim.tied == {1: False, 0: True}  # nearest chip, D1 and D0
    reader = board.opener()()
    try:
        assert reader.self_test()[0] is HealthState.CONNECTED
        board.set_inputs({0, 57})
        assert reader.read_mask() & ((1 << 100) - 1) == (1 << 0) | (1 << 57)
    finally:
        reader.close()


# -- SPI --------------------------------------------------------------------------------------
@given(pegs=st.sets(st.integers(0, 99), max_size=12), order=ORDERS)
def test_spi_and_bit_banged_reading_see_the_same_board(pegs: set[int], order: tuple[str, str]) -> None:
    masks = []
    for spi in (False, True):
        board = MockBoard(ChainWiring(spi=spi, chip_order=order[0], pin_order=order[1]))
        reader = board.opener()()
        try:
            board.set_inputs(pegs)
            masks.append(reader.read_mask())
            assert reader.chain.sentinel_ok
        finally:
            reader.close()
    assert masks[0] == masks[1]
    assert masks[1] & ((1 << 100) - 1) == sum(1 << p for p in pegs)


def test_the_spi_chain_uses_the_spi_pins_in_mode_2_and_a_latch(factory: MockFactory) -> None:
    MockShiftChain(factory, 17, 11, 9)
    with SpiShiftRegisterChain(17, pin_factory=factory) as chain:
        assert chain._spi.clock_mode == 2
        assert "clock_pin='GPIO11'" in repr(chain._spi) and "miso_pin='GPIO9'" in repr(chain._spi)
        assert chain.inputs == 104 and chain.describe_input(103) == "chip 13 pin D7"
    assert chain.closed


@pytest.mark.parametrize("fault, says", [
    ("disconnected", "reads all ones: the data wire is loose"),
    ("unpowered", "reads all zeros: the chain has no power"),
    ("broken_after", "a link in the chain is broken"),
])
def test_the_spi_chain_self_test_tells_a_silent_chain_from_an_empty_board(fault: str, says: str) -> None:
    board = MockBoard(ChainWiring(spi=True))
    reader = board.opener()()
    try:
        assert reader.self_test()[0] is HealthState.CONNECTED  # an empty board answers
        setattr(board.sim, fault, 4 if fault == "broken_after" else True)
        state, message = reader.self_test()
        assert state is HealthState.ERROR and says in str(message)
        assert reader.fault() is not None  # and every scan notices it
    finally:
        reader.close()


def test_a_game_board_scanned_over_spi_publishes_debounced_readings() -> None:
    board = MockBoard(ChainWiring(spi=True))
    now = [0.0]
    source = GpioBoardSource(board.opener(), None, ScanSettings(agree=3, stable_seconds=0.05),
                             clock=lambda: now[0])
    assert source.open()
    try:
        board.set_inputs({12, 57})
        for _ in range(4):
            now[0] += 0.005
            source.scan_once()
        assert source.last_reading is not None and source.last_reading.occupied == {12, 57}
        board.sim.disconnected = True
        now[0] += 0.005
        source.scan_once()
        assert source.health.state is HealthState.LOST
    finally:
        source.stop()
        if source.reader is not None:
            source.reader.close()


# -- config -----------------------------------------------------------------------------------
def test_config_names_chip_order_pin_order_and_spi() -> None:
    where = "config.toml: [board.gpio]"
    values = check_table(where, {"spi": True, "chip_order": "farthest_first", "pin_order": "d7_first",
                                 "spi_device": 1}, SPEC)
    wiring = wiring_from(values, where)
    assert wiring == ChainWiring(spi=True, spi_device=1, chip_order="farthest_first", pin_order="d7_first")
    with pytest.raises(ConfigError, match="chip_order"):
        check_table(where, {"chip_order": "backwards"}, SPEC)
    clash = check_table(where, {"spi": True, "latch_pin": 9}, SPEC)
    with pytest.raises(ConfigError, match=r"latch_pin.*GPIO9 is SPI0.s MISO"):
        wiring_from(clash, where)


def test_the_configured_spi_chain_runs_on_mock_pins() -> None:
    source = make({"spi": True, "mock": True, "chip_order": "farthest_first"}, Config())
    assert isinstance(source, GpioBoardSource)
    assert source.open()
    try:
        assert isinstance(source.reader, ChainReader)
        assert isinstance(source.reader.chain, SpiShiftRegisterChain)
        assert source.health.detail == "13 shift registers answer"
    finally:
        if source.reader is not None:
            source.reader.close()


@pytest.mark.parametrize("sentinel_bits", [0, 3, 8, 12])
def test_the_spi_chain_checks_any_number_of_sentinel_bits(sentinel_bits: int) -> None:
    board = MockBoard(ChainWiring(spi=True, sentinel_bits=sentinel_bits, tied_low=(), tied_high=()))
    reader = board.opener()()
    try:
        board.set_inputs({4})
        assert reader.read_mask() == 1 << 4 and reader.chain.sentinel_ok
        board.sim.broken_after = 12  # the last chip's SER floats: the bits after the inputs read high
        reader.read_mask()
        assert reader.chain.sentinel_ok is (sentinel_bits == 0)
    finally:
        reader.close()
