"""A long Parlett rubber replays in linear time (issue 17, point 5).

Each deal added used to rescan every deal before it (the current game's deals, the totals), so a
rubber played to a target nobody reaches replayed in quadratic time (3,000 deals 1.4 s, growing).
Time is not asserted here (``benchmarks/parlett_long_rubber.py`` prints it); what is asserted is
the cause: the Python calls one more deal costs do not grow with the deals before it.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from rules.parlett.match import Scoresheet
from rules.parlett.record import entry_from_json, sheet_from_record

DEAL = {"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}


def rubber(deals: int, options: dict[str, int]) -> Scoresheet:
    return sheet_from_record({"format": "table99/parlett", "version": 1, "variant": "three",
                              "options": options, "players": ["Ann", "Ben", "Cat"], "dealer": "Cat",
                              "deals": [DEAL] * deals})


def calls_for_one_more_deal(sheet: Scoresheet) -> int:
    entry = entry_from_json(DEAL, sheet.table)
    calls = [0]

    def count(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            calls[0] += 1

    sys.setprofile(count)
    try:
        sheet.add(entry)
    finally:
        sys.setprofile(None)
    return calls[0]


@pytest.mark.parametrize("options", [{"target": 10**9}, {"rubber_games": 10**6}], ids=["target", "games"])
def test_one_more_deal_costs_the_same_after_2000_deals_as_after_20(options: dict[str, int]) -> None:
    short, long = rubber(20, options), rubber(2000, options)
    small, large = calls_for_one_more_deal(short), calls_for_one_more_deal(long)
    # rescanning 2,000 deals is thousands of calls; bisection adds a dozen
    assert large < small + 100, (small, large)
