"""The wiring map (JSON, checks) and the scanner (debounce, stability, health), without GPIO."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.scan import Scanner, ScanSettings, bits, mask_of
from hardware.wiring import WiringMap, WiringMapError, hole_name


# -- wiring map ---------------------------------------------------------------------------------
@given(st.permutations(list(range(104))))
def test_wiring_map_round_trips_through_json(order: list[int]) -> None:
    wiring = WiringMap(104, tuple(order[:100]))
    again = WiringMap.from_json(json.loads(json.dumps(wiring.to_json())))
    assert again == wiring
    for hole in range(100):
        assert again.hole_of(order[hole]) == hole
    assert again.holes_of(order[100:]) == frozenset()  # spare inputs are no hole


def test_wiring_map_rejects_an_input_used_twice_naming_the_hole() -> None:
    data = WiringMap.identity(104).to_json()
    data["holes"][7] = 3  # type: ignore[index]
    with pytest.raises(WiringMapError, match=r"holes?.*7.*input 3 is already hole 3"):
        WiringMap.from_json(data, "map.json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "format must be"),
        ({"version": 9}, "unsupported version 9"),
        ({"inputs": "many"}, "inputs: expected a positive integer"),
        ({"holes": [0, 1]}, "holes: expected a list of 100"),
    ],
)
def test_wiring_map_rejects_bad_files_clearly(change: dict[str, object], message: str) -> None:
    data = {**WiringMap.identity(104).to_json(), **change}
    with pytest.raises(WiringMapError, match=message):
        WiringMap.from_json(data, "map.json")


def test_wiring_map_rejects_an_out_of_range_input_and_unreadable_files(tmp_path: Path) -> None:
    data = WiringMap.identity(104).to_json()
    data["holes"][99] = 104  # type: ignore[index]
    with pytest.raises(WiringMapError, match="hole 99: input 104 out of range"):
        WiringMap.from_json(data)
    broken = tmp_path / "wiring.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(WiringMapError, match="not valid JSON"):
        WiringMap.load(broken)
    with pytest.raises(WiringMapError, match="cannot read"):
        WiringMap.load(tmp_path / "missing.json")


def test_wiring_map_saves_atomically_and_moves_a_taken_input(tmp_path: Path) -> None:
    wiring = WiringMap.empty(104).with_hole(0, 50).with_hole(1, 50)
    assert wiring.input_of(1) == 50 and wiring.input_of(0) is None
    path = tmp_path / "sub" / "wiring.json"
    wiring.save(path)
    assert WiringMap.load(path) == wiring
    assert not list(path.parent.glob("*.tmp"))
    assert wiring.unknown_holes()[:2] == (0, 2)


def test_hole_names_count_from_one_as_people_do() -> None:
    assert hole_name(0) == "row 1, column 1"
    assert hole_name(57) == "row 6, column 8"


# -- debounce ---------------------------------------------------------------------------------
def reference_debounce(scans: list[int], agree: int, width: int) -> list[int]:
    """Per bit: a value changes after `agree` consecutive scans show the new value."""
    out = []
    state = scans[0]
    for t in range(len(scans)):
        for b in range(width):
            window = [scans[k] >> b & 1 for k in range(max(0, t - agree + 1), t + 1)]
            if t >= agree - 1 and all(window):
                state |= 1 << b
            elif t >= agree - 1 and not any(window):
                state &= ~(1 << b)
        out.append(state)
    return out


@given(st.lists(st.integers(0, 15), min_size=1, max_size=40), st.integers(1, 4))
def test_debounce_matches_the_per_hole_rule(scans: list[int], agree: int) -> None:
    scanner = Scanner(WiringMap(4, (0, 1, 2, 3) + (None,) * 96), ScanSettings(agree=agree))
    expected = reference_debounce(scans, agree, 4)
    for t, raw in enumerate(scans):
        scanner.feed(raw, t * 0.005)
        assert scanner.active_inputs == frozenset(bits(expected[t])), t


@given(st.integers(0, 99), st.integers(1, 2))
def test_a_pulse_shorter_than_the_debounce_never_reaches_the_board(hole: int, length: int) -> None:
    scanner = Scanner(WiringMap.identity(104), ScanSettings(agree=3))
    scanner.feed(0, 0.0)
    for t in range(length):
        scanner.feed(1 << hole, 0.005 * (t + 1))
        assert scanner.occupied == frozenset()
        assert scanner.unsure == {hole}
    scanner.feed(0, 0.1)
    scanner.feed(0, 0.105)
    scanner.feed(0, 0.11)
    assert scanner.occupied == frozenset() and scanner.unsure == frozenset()


def test_stable_signal_comes_once_after_a_quiet_board() -> None:
    scanner = Scanner(WiringMap.identity(104), ScanSettings(agree=2, stable_seconds=0.1))
    scanner.feed(0, 0.0)
    outcomes = [scanner.feed(mask_of([5]), 0.01 * (i + 1)) for i in range(30)]
    became = [i for i, o in enumerate(outcomes) if o.became_stable]
    changed = [i for i, o in enumerate(outcomes) if o.changed]
    assert changed == [0, 1]  # unsure first, then the peg
    assert len(became) == 1 and outcomes[became[0]] and scanner.stable
    # stable 0.1 s after the last change at t=0.02
    assert 0.12 - 1e-9 <= 0.01 * (became[0] + 1) < 0.14


def test_flicker_and_stuck_holes_are_judged_and_recover() -> None:
    settings = ScanSettings(agree=3, flicker_toggles=6, flicker_window=1.0, stuck_seconds=5.0)
    scanner = Scanner(WiringMap.identity(104), settings)
    t = 0.0
    scanner.feed(mask_of([9]), t)  # a peg (or a stuck sensor) on hole 9 from the start
    for i in range(10):  # hole 23 toggles every scan
        t += 0.01
        scanner.feed(mask_of([9]) | (mask_of([23]) if i % 2 else 0), t)
    assert scanner.flickering == {23}
    assert scanner.occupied == {9}
    t += 6.0
    scanner.feed(mask_of([9]), t)
    assert scanner.flickering == frozenset()  # quiet for a window: recovered
    assert scanner.stuck == {9}
    assert 9 in scanner.never_changed() and 23 in scanner.never_changed()
