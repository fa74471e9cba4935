"""Long board-game records replay in linear time (issue 17, point 5).

Each penalty used to copy the whole tuple of earlier penalties into the new state, so a record of a
table that keeps drawing out of turn replayed in quadratic time (32k actions 3.0 s, 128k 34 s).
Time is not asserted here (``benchmarks/replay_long_records.py`` prints it); what is asserted is the
cause: the memory one more penalty allocates does not grow with the penalties before it.
"""

from __future__ import annotations

import tracemalloc

from rules import board99 as rules


def out_of_turn_draws(count: int) -> rules.GameState:
    state = rules.GameState.new(rules.make_setup(["Ann", "Ben"], layout="rows"))
    for n in range(count):
        by = "Ben" if n % 2 == 0 else "Ann"  # always the player not to move: a penalty
        state, _ = rules.apply(state, rules.Draw(by))
    return state


def bytes_for_one_more_penalty(state: rules.GameState) -> int:
    by = "Ann" if state.to_move == "Ben" else "Ben"
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        new, _ = rules.apply(state, rules.Draw(by))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(new.penalties) == len(state.penalties) + 1
    return peak - before


def test_one_more_penalty_costs_the_same_after_20000_penalties_as_after_200() -> None:
    short, long = out_of_turn_draws(200), out_of_turn_draws(20_000)
    assert len(long.penalties) > 19_000
    small, large = bytes_for_one_more_penalty(short), bytes_for_one_more_penalty(long)
    # a copied tuple of 19,990 penalties alone is 160 kB; sharing the earlier ones costs nothing
    assert large < small + 20_000, (small, large)


def test_the_penalty_log_reads_like_the_tuple_it_replaces() -> None:
    state = out_of_turn_draws(50)
    penalties = tuple(state.penalties)
    assert len(penalties) == len(state.penalties) and state.penalties == penalties
    assert list(reversed(state.penalties)) == list(reversed(penalties))
    assert state.penalties[0] == penalties[0] and state.penalties[-3:] == penalties[-3:]
    assert [p.action for p in penalties] == sorted(p.action for p in penalties)
