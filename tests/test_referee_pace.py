"""A real table's pace (issue 20): quick players, dropouts, brushed pegs, a lost chain.

Each test here failed before the fix it names: the quick player's PLAY was filed under the player
whose peg was still settling; a reading from before a dropout was judged the moment the link came
back; a knocked-loose peg made the prompt ask for the new peg to come out too.
"""

from __future__ import annotations

from app.referee import AnnouncementRefused, Phase
from hardware.board_source import BoardReading, HealthState, SourceHealth
from tests.test_referee import Table


def test_a_quick_players_play_waits_for_the_settling_peg_and_goes_to_the_quick_player() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)  # Ann
    t.put(45)
    t.clock.now += 0.2  # Ben taps PLAY 50 while Ann's peg is still in the stability window
    t.referee.announce_play(50)
    # Ann's play is still the prompt (her squares stay lit); Ben's PLAY is shown as waiting
    assert t.phase is Phase.PLACE_PEG and "Then: PLAY 50." in t.referee.prompt.text
    assert t.referee.waiting == "PLAY 50" and t.referee.settling
    assert len(t.stored) == 2, "nothing judged before the window has passed"
    t.clock.now += 0.3
    t.pump()
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 30, "square": 45}
    assert t.phase is Phase.PLACE_PEG and t.referee.pending_card == 50
    t.put(60)
    t.settle()
    assert t.stored[-1] == {"by": "Ben", "do": "play", "card": 50, "square": 60}
    assert not [e for e in t.events if isinstance(e, AnnouncementRefused)]


def test_a_quick_draw_is_filed_under_the_next_player_and_the_peg_stays_announced() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.put(45)
    t.clock.now += 0.1
    t.referee.announce_draw()  # Ben's DRAW, tapped as Ann's peg lands
    t.clock.now += 0.4
    t.pump()
    assert [a["by"] for a in t.stored[-2:]] == ["Ann", "Ben"]
    assert t.stored[-2]["do"] == "play" and t.stored[-1]["do"] == "draw"
    assert t.phase is Phase.ANNOUNCE and t.game.state.to_move == "Ann"


def test_taps_while_pegs_settle_are_applied_in_order_each_for_the_player_then_to_move() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    for _ in range(3):
        t.referee.announce_draw()
    t.referee.announce_play(30)
    t.put(45)
    t.referee.announce_draw()  # Ben
    t.referee.announce_draw()  # Cat, as quick
    assert t.referee.waiting == "DRAW, DRAW"
    t.settle()
    assert [(a["by"], a["do"]) for a in t.stored[-3:]] == [("Ann", "play"), ("Ben", "draw"), ("Cat", "draw")]
    assert t.game.state.to_move == "Ann"


def test_cancel_withdraws_the_last_held_announcement_not_the_settling_play() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.put(45)
    t.referee.announce_draw()
    t.referee.cancel_announcement()
    t.settle()
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 30, "square": 45}
    assert t.game.state.to_move == "Ben" and len(t.stored) == 3


def test_a_held_announcement_that_cannot_stand_is_refused_by_an_event() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(60)
    t.put(45)  # illegal for card 60: the peg must come out first
    t.referee.announce_draw()
    t.settle()
    assert t.phase is Phase.REMOVE_PEG
    refused = [e for e in t.events if isinstance(e, AnnouncementRefused)]
    assert refused and "penalised peg" in refused[-1].text


def test_a_named_player_is_kept_when_the_announcement_is_held() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    for _ in range(3):
        t.referee.announce_draw()
    t.referee.announce_play(30)
    t.put(45)
    t.referee.announce_play(70, by="Cat")  # Cat on purpose (out of turn): stays Cat
    t.settle()
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 30, "square": 45}
    t.put(80)
    t.settle()
    assert t.stored[-1]["by"] == "Ann"  # played before Cat's peg: Ann's record is untouched
    assert t.referee.phase is Phase.REMOVE_PEG  # Cat's out-of-turn peg comes out, then penalty


def test_a_reading_from_before_a_dropout_is_not_judged_when_the_link_returns() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.put(44)  # the peg slides over 44 on its way to 45 ...
    t.clock.now += 0.03
    t.queue.put(SourceHealth(HealthState.LOST, "link dropped"))  # ... as the link drops
    t.pump()
    t.clock.now += 2.0  # a 2 s dropout
    t.queue.put(SourceHealth(HealthState.CONNECTED))
    t.pump()
    assert len(t.stored) == 2, "the 30 ms slide must not be committed when the link returns"
    t.clock.now += 0.02
    t.board.remove(44)
    t.put(45)  # the next reading: the peg where it stopped
    t.settle()
    assert t.stored[-1] == {"by": "Ann", "do": "play", "card": 30, "square": 45}


def test_a_draw_with_no_peg_in_play_waits_for_a_settling_peg_nobody_announced() -> None:
    t = Table()
    t.both_draw()
    t.put(45)  # a peg goes in with no PLAY announced
    t.referee.announce_draw()
    assert t.phase is Phase.WAITING and "DRAW" in t.referee.prompt.text
    t.settle()
    assert t.phase is Phase.WHO_PLAYED  # asked first; the DRAW is void and says so
    refused = [e.text for e in t.events if isinstance(e, AnnouncementRefused)]
    assert refused and "Announce it again" in refused[-1] and len(t.stored) == 2


def test_a_late_source_tap_waits_for_the_peg_of_the_announced_play() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)  # Ann; her peg is in, but the camera has not reported it yet
    t.referee.announce_draw()  # Ben's quick DRAW: not Ann's, and Ann's play is not replaced
    assert t.referee.waiting == "DRAW" and t.referee.pending_card == 30
    t.put(45)
    t.settle()
    assert [(a["by"], a["do"]) for a in t.stored[-2:]] == [("Ann", "play"), ("Ben", "draw")]


def test_readings_while_the_source_is_in_error_are_ignored() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.queue.put(SourceHealth(HealthState.ERROR, "chain fault"))
    t.pump()
    t.referee.on_board_event(BoardReading(frozenset({45}), t.clock.now, sequence=999))
    t.clock.now += 1.0
    t.pump()
    t.queue.put(SourceHealth(HealthState.CONNECTED))
    t.pump()
    t.clock.now += 1.0
    t.pump()
    assert len(t.stored) == 2, "a reading from a source in error was judged"


def test_a_knocked_loose_peg_is_the_only_thing_the_prompt_asks_to_fix() -> None:
    t = Table()
    t.both_draw()
    t.referee.announce_play(30)
    t.put(45)
    t.settle()  # Ann's peg on 45
    t.referee.announce_play(50)  # Ben
    t.put(60)
    t.remove(45)  # ... and his sleeve knocks Ann's peg loose
    t.settle()
    prompt = t.referee.prompt
    assert t.phase is Phase.FIX_BOARD
    assert prompt.holes == (45,), prompt
    assert "take the peg out" not in prompt.text and "60" in prompt.text  # "leave Ben's new peg"
    t.put(45)
    t.settle()
    assert t.stored[-1] == {"by": "Ben", "do": "play", "card": 50, "square": 60}


def test_seeded_whole_games_at_a_quick_tables_pace_store_exactly_what_was_played() -> None:
    """Issue 20's acceptance: 0-3 bounces per peg, 0.1-0.6 s from a peg to the next tap, 2-6
    players, 120 intended actions a game (50+ of them PLAYs, each a peg); the stored record equals
    the intended one, every seed. (``benchmarks/quick_table.py`` runs hundreds of seeds and wider
    paces.)"""
    from tests.quick_table_sim import Pace, run_game

    for seed in range(24):
        players = (2, 3, 4, 6)[seed % 4]
        pace = Pace(latency=(0.0, 0.12)) if seed % 3 == 0 else Pace()
        result = run_game(seed, players=players, plays=120, pace=pace)
        assert sum(1 for a in result.intended if a["do"] == "play") >= 50, seed
        pairs = zip(result.intended, result.stored, strict=False)
        assert result.matches, (seed, next(((i, a, b) for i, (a, b) in enumerate(pairs) if a != b), None))


def test_a_draw_then_a_quick_play_let_the_settling_peg_be_the_plays() -> None:
    """Found by the slow-window profile of benchmarks/quick_table.py: Cat's peg settles, Ann taps
    DRAW, Ben taps PLAY 24 and pegs at once; the DRAW must not wait for Ben's peg (it was then asked
    about as a peg nobody announced)."""
    t = Table(("Ann", "Ben", "Cat"))
    for _ in range(3):
        t.referee.announce_draw()
    t.referee.announce_play(30)  # Ann
    t.put(45)
    t.referee.announce_draw()  # Ben, while Ann's peg settles
    t.referee.announce_play(24)  # Cat, quick
    t.clock.now += 0.3
    t.put(60)  # Cat's peg, before Ann's has been still for the window
    t.clock.now += 0.15
    t.pump()
    t.settle()
    assert [(a["by"], a["do"]) for a in t.stored[-3:]] == [("Ann", "play"), ("Ben", "draw"), ("Cat", "play")]
    assert t.stored[-1]["square"] == 60
