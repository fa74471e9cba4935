"""The Parlett session in the store: commit before show, refuse without losing, correct, resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.games.parlett.game import EntryRejected, ParlettSession, check_variant_options
from app.paths import default_database
from app.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
SMALL = {"bids": {"Ann": 3, "Ben": 3, "Cat": 3}, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}
BIG = {"bids": {"Ann": 9, "Ben": 0, "Cat": 0}, "premium": {"Ann": "reveal"},
       "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}}


def new(store: GameStore, **options: object) -> ParlettSession:
    return ParlettSession.new(store, "three", ["Ann", "Ben", "Cat"], "Cat", dict(options))


def test_a_deal_is_in_the_store_when_add_deal_returns() -> None:
    store = GameStore(default_database())
    session = new(store)
    session.add_deal(SMALL)
    assert GameStore(default_database()).load(session.game_id).actions == (SMALL,)


def test_a_refused_deal_changes_nothing() -> None:
    store = GameStore(default_database())
    session = new(store)
    session.add_deal(SMALL)
    with pytest.raises(EntryRejected, match="add up to 10"):
        session.add_deal({"bids": SMALL["bids"], "tricks": {"Ann": 4, "Ben": 3, "Cat": 3}})
    assert len(session.sheet.deals) == 1 and len(store.load(session.game_id).actions) == 1


def test_a_correction_that_breaks_a_later_deal_is_refused_whole() -> None:
    store = GameStore(default_database())
    session = new(store)
    for deal in (SMALL, BIG, BIG):  # game 1 ends after deal 3
        session.add_deal(deal)
    before = store.load(session.game_id).actions
    with pytest.raises(EntryRejected, match="deal 1"):
        session.correct_deal(0, {"bids": {"Ann": 3}, "tricks": SMALL["tricks"]})
    assert store.load(session.game_id).actions == before
    session.correct_deal(0, BIG)  # now game 1 ends after deal 2; deal 3 opens game 2
    assert [d.game for d in session.sheet.deals] == [1, 1, 2]
    assert store.load(session.game_id).actions == (BIG, BIG, BIG)


def test_finished_rubber_marks_the_game_finished_with_the_winner() -> None:
    store = GameStore(default_database())
    session = new(store)
    for _ in range(6):
        session.add_deal(BIG)
    stored = store.load(session.game_id)
    assert stored.status == "finished" and stored.result == "Ann"
    with pytest.raises(EntryRejected, match="rubber is over"):
        session.add_deal(BIG)


def test_bad_setups_are_refused_before_anything_is_stored() -> None:
    store = GameStore(default_database())
    with pytest.raises(EntryRejected, match="same name"):
        ParlettSession.new(store, "three", ["Ann", "Ann", "Cat"], "Ann")
    assert store.games("parlett") == []
    assert check_variant_options("four", {"unbidden": True}) == "unbidden is a three-player variant"
    assert check_variant_options("three", {}) is None


def test_survives_a_killed_process_and_exports_a_replayable_record(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import os
        from app.games.parlett.game import ParlettSession
        from app.paths import default_database
        from app.store import GameStore
        session = ParlettSession.new(GameStore(default_database()), "three", ["Ann", "Ben", "Cat"], "Cat")
        session.add_deal({SMALL!r})
        session.add_deal({BIG!r})
        print(session.game_id, flush=True)
        os._exit(9)  # no clean shutdown, like a power cut after the screen showed the deal
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env=os.environ.copy())
    assert done.returncode == 9, done.stderr
    game_id = int(done.stdout.split()[0])
    session = ParlettSession.load(GameStore(default_database()), game_id)
    assert [d.entry.tricks for d in session.sheet.deals] == [SMALL["tricks"], BIG["tricks"]]
    path = session.export(tmp_path)
    result = subprocess.run([sys.executable, "-m", "app", "replay", str(path), "--json"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert json.loads(result.stdout)["rubber"]["totals"]["Ann"] == 13 + 79


def test_the_deal_being_entered_survives_a_crash_and_is_not_exported() -> None:
    """Bids are tapped in when the deal starts (often hidden) and the tricks only after play: a
    power cut in between must not lose them. The draft is kept beside the setup, for the next deal
    only; the exported record holds scored deals alone."""
    store = GameStore(default_database())
    session = new(store)
    session.add_deal(SMALL)
    draft = {"bids": {"Ann": "CHS", "Ben": 4}, "offers": {"Ann": "declare"}, "tricks": {"Ann": 2},
             "revealed": False}
    session.save_draft(draft)
    again = ParlettSession.load(GameStore(default_database()), session.game_id)
    assert again.draft() == draft
    assert "draft" not in again.record() and again.record()["deals"] == [SMALL]
    again.add_deal(SMALL)  # the deal is scored: the draft was for it and is gone
    assert ParlettSession.load(GameStore(default_database()), session.game_id).draft() is None


def test_a_draft_left_behind_by_a_crash_after_scoring_is_not_reused() -> None:
    store = GameStore(default_database())
    session = new(store)
    session.save_draft({"bids": {"Ann": 3}})
    stored = store.load(session.game_id)
    store.append(session.game_id, SMALL)  # the deal was committed, the process died before the draft went
    assert stored.setup["draft"]["deal"] == 1
    again = ParlettSession.load(GameStore(default_database()), session.game_id)
    assert len(again.sheet.deals) == 1 and again.draft() is None
