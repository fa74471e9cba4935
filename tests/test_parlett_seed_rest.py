"""Issue 18: the rest of the seed. The German text's nine-round game, failed bids left unshown,
hard score's settlement, the two-player first deal under "declarer chooses trumps", and a
scoresheet whose cost per deal does not grow with the series. One named test per point; the
examples in docs/parlett.md are replayed here too."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rules.errors import InvalidRecordError
from rules.parlett import DUMMY, VARIANTS, DealEntry, Options, Scoresheet, Table, Trump, parse_bid
from rules.parlett.bids import UNSHOWN
from rules.parlett.match import Log
from rules.parlett.record import entry_from_json, entry_to_json, sheet_from_record
from rules.parlett.replay import replay_json, replay_text

ROOT = Path(__file__).resolve().parent.parent
P3 = ("Ann", "Ben", "Cat")


def record(deals: list[dict[str, Any]], variant: str = "three", players: tuple[str, ...] = P3,
           **options: Any) -> dict[str, Any]:
    return {"format": "table99/parlett", "version": 1, "variant": variant, "options": options,
            "players": list(players), "dealer": players[0], "deals": deals}


def plain(tricks: dict[str, int], bids: dict[str, Any] | None = None) -> dict[str, Any]:
    """A deal in which nobody makes the bid (each bid one more than the tricks, mod 10)."""
    return {"bids": bids or {h: (t + 1) % 10 for h, t in tricks.items()}, "tricks": tricks}


# -- the German text's game of nine rounds ----------------------------------------------------------
def test_nine_rounds_game_is_nine_deals_without_100_target_or_premium_highest_total_wins() -> None:
    """004: "Ein Spiel besteht aus neun Runden ... Wer nach neun Runden die höchste Punktzahl erzielen
    konnte, gewinnt das Spiel". Ann passes 100 after four deals and the game goes on."""
    deal = {"bids": {"Ann": "CCC", "Ben": 1, "Cat": 1}, "tricks": {"Ann": 9, "Ben": 0, "Cat": 0}}
    sheet = sheet_from_record(record([deal] * 8, nine_rounds=True))
    assert sheet.game_totals["Ann"] == 8 * 39 and not sheet.over and sheet.games == ()
    sheet = sheet.add(entry_from_json(deal, sheet.table))
    assert sheet.over and sheet.winners == ("Ann",)
    game = sheet.games[0]
    assert game.deals == 9 and game.premiums == {"Ann": 0, "Ben": 0, "Cat": 0}  # no 100 premium
    assert sheet.rubber_totals == {"Ann": 9 * 39, "Ben": 0, "Cat": 0}
    with pytest.raises(InvalidRecordError, match="deal 10: the rubber is over"):
        sheet_from_record(record([deal] * 10, nine_rounds=True))


def test_nine_rounds_first_deal_no_trump_then_the_usual_trump_rule_and_dealer_rotates() -> None:
    """004: "Die erste Runde wird ohne Trumpf gespielt"; then clubs/hearts/spades/diamonds by successes."""
    made_by = [3, 2, 1, 0]
    deals = []
    for n in made_by:
        bids = {h: (3 if i < n else 4) for i, h in enumerate(P3)}
        deals.append({"bids": bids, "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}})
    sheet = sheet_from_record(record(deals, nine_rounds=True))
    assert [d.trump for d in sheet.deals] == [Trump.NO_TRUMP, Trump.CLUBS, Trump.HEARTS, Trump.SPADES]
    assert sheet.next_trump is Trump.DIAMONDS
    assert [d.dealer for d in sheet.deals] == ["Ann", "Ben", "Cat", "Ann"]


@pytest.mark.parametrize("variant", ["three", "four", "five", "two"])
def test_nine_rounds_works_for_every_variant_but_original(variant: str) -> None:
    v = VARIANTS[variant]
    players = ("Ann", "Ben", "Cat", "Dan", "Eve")[: v.players]
    hands = list(players) + ([DUMMY] if v.has_dummy else [])
    tricks = dict.fromkeys(hands, 0)
    tricks[hands[0]] = v.tricks
    sheet = sheet_from_record(record([plain(tricks)] * 9, variant, players, nine_rounds=True))
    assert sheet.over and len(sheet.deals) == 9 and len(sheet.games) == 1


def test_nine_rounds_refused_for_original_99_and_with_a_target_or_rubber_length() -> None:
    with pytest.raises(InvalidRecordError, match="Original 99 is already nine hands"):
        sheet_from_record(record([], "original", nine_rounds=True))
    with pytest.raises(InvalidRecordError, match="no rubber_games or target"):
        sheet_from_record(record([], target=250, nine_rounds=True))
    with pytest.raises(InvalidRecordError, match="nine_rounds must be true or false"):
        sheet_from_record(record([], nine_rounds="yes"))


def test_nine_rounds_two_players_dummy_winning_is_a_tie_and_hard_score_doubles_the_win() -> None:
    dummy_wins = plain({"Ann": 3, "Ben": 2, DUMMY: 4})
    sheet = sheet_from_record(record([dummy_wins] * 9, "two", ("Ann", "Ben"), nine_rounds=True))
    assert sheet.games[0].winners == () and sheet.winners == ("Ann", "Ben") and sheet.margin == 0
    dummy_ties = plain({"Ann": 5, "Ben": 2, DUMMY: 2})
    carry = sheet_from_record(record([dummy_ties] * 9, "two", ("Ann", "Ben"), nine_rounds=True))
    assert carry.games[0].carried == {"Ann": 0, "Ben": 0, DUMMY: 0}  # no next game to carry into
    hard = sheet_from_record(record([dummy_ties] * 9, "two", ("Ann", "Ben"), nine_rounds=True,
                                    hard_score=True))
    assert hard.games[0].dummy_bonus == "double" and hard.games[0].carried["Ann"] == 27
    assert hard.settlement == {"Ann": 54, "Ben": -54}  # the 27-point margin, won double


def test_nine_rounds_replays_in_json_and_text() -> None:
    deal = plain({"Ann": 3, "Ben": 3, "Cat": 3})
    data = replay_json(record([deal] * 9, nine_rounds=True))
    assert data["rubber"]["nine_rounds"] is True and data["rubber"]["over"] is True
    assert data["next"] is None and data["rubber"]["winners"] == ["Ann", "Ben", "Cat"]
    assert "Game of nine rounds over" in replay_text(record([deal] * 9, nine_rounds=True))


# -- "no-one who fails need show them" ----------------------------------------------------------------
def test_a_failed_bid_entered_as_unshown_scores_as_failed_and_sets_the_next_trump() -> None:
    shown = sheet_from_record(record([{"bids": {"Ann": "CHS", "Ben": 4, "Cat": "DDD"},
                                       "tricks": {"Ann": 6, "Ben": 2, "Cat": 1}}]))
    unshown = sheet_from_record(record([{"bids": {"Ann": "CHS", "Ben": "unshown", "Cat": "unshown"},
                                         "tricks": {"Ann": 6, "Ben": 2, "Cat": 1}}]))
    assert unshown.deals[0].score == shown.deals[0].score
    assert unshown.deals[0].score.made == {"Ann": True, "Ben": False, "Cat": False}
    assert unshown.next_trump is Trump.SPADES  # one success, as with the bids shown
    written = record([entry_to_json(unshown.deals[0].entry)])
    assert written["deals"][0]["bids"]["Ben"] == "unshown"
    assert replay_json(written)["deals"][0]["bids"]["Ben"] == "not shown"


def test_a_claim_of_success_needs_the_bid_an_unshown_bid_never_makes_its_contract() -> None:
    for tricks in range(10):
        assert not UNSHOWN.fulfilled(tricks)
    sheet = sheet_from_record(record([{"bids": {"Ann": "unshown", "Ben": "unshown", "Cat": "unshown"},
                                       "tricks": {"Ann": 3, "Ben": 3, "Cat": 3}}]))
    assert sheet.deals[0].score.successes == 0 and sheet.next_trump is Trump.DIAMONDS


def test_an_unshown_bid_is_refused_for_a_premium_bidder_and_for_the_dummy() -> None:
    with pytest.raises(InvalidRecordError, match="deal 1: Ann played a premium with the bid cards face up"):
        sheet_from_record(record([{"bids": {"Ann": "unshown", "Ben": 4, "Cat": 1},
                                   "premium": {"Ann": "declare"}, "tricks": {"Ann": 6, "Ben": 2, "Cat": 1}}]))
    with pytest.raises(InvalidRecordError, match="the dummy's bid cards are always turned up"):
        sheet_from_record(record([{"bids": {"Ann": 1, "Ben": "unshown", DUMMY: "unshown"},
                                   "tricks": {"Ann": 3, "Ben": 3, DUMMY: 3}}], "two", ("Ann", "Ben")))


def test_an_unshown_bid_keeps_the_opponents_premium_when_a_declarer_fails() -> None:
    """The premium rules still work: a failed declarer's opponents score the premium whether or not
    they show their own (failed) bids."""
    sheet = sheet_from_record(record([{"bids": {"Ann": 5, "Ben": "unshown", "Cat": "unshown"},
                                       "premium": {"Ann": "reveal"},
                                       "tricks": {"Ann": 6, "Ben": 2, "Cat": 1}}]))
    assert sheet.deals[0].score.premium == {"Ann": 0, "Ben": 60, "Cat": 60}


def test_unshown_round_trips_through_the_record_and_other_words_are_still_refused() -> None:
    table = Table(VARIANTS["three"], Options(), P3, 0)
    raw = {"bids": {"Ann": "unshown", "Ben": "CHS", "Cat": 0}, "tricks": {"Ann": 1, "Ben": 6, "Cat": 2}}
    assert entry_to_json(entry_from_json(raw, table)) == raw
    with pytest.raises(ValueError, match="three letters"):
        parse_bid("hidden", VARIANTS["three"])
    with pytest.raises(ValueError, match="has no value"):
        _ = UNSHOWN.value


# -- hard score -------------------------------------------------------------------------------------
def test_hard_score_settlement_each_pair_settles_the_difference_at_the_end() -> None:
    """Totals 246/153/102 (the docs' nine-round example): Ann wins 93 + 144, Ben wins 51 and owes 93,
    Cat owes 144 + 51."""
    example = docs_examples()["nine-rounds"][0]
    sheet = sheet_from_record(example)
    assert sheet.rubber_totals == {"Ann": 246, "Ben": 153, "Cat": 102}
    assert sheet.settlement == {"Ann": 237, "Ben": -42, "Cat": -195}
    without = sheet_from_record(example | {"options": {"nine_rounds": True}})
    assert without.settlement is None


def test_hard_score_settlement_only_once_the_rubber_is_over() -> None:
    sheet = sheet_from_record(record([plain({"Ann": 3, "Ben": 3, "Cat": 3})], hard_score=True))
    assert not sheet.over and sheet.settlement is None


def test_hard_score_two_players_means_the_dummy_rule_wins_double() -> None:
    assert Options(hard_score=True).dummy_rule == "double"
    assert Options(dummy_bonus="double").dummy_rule == "double" and Options().dummy_rule == "carry"
    players = ("Ann", "Ben")
    sheet = Scoresheet.start(Table(VARIANTS["two"], Options(hard_score=True), players, 0))
    while not sheet.games:  # Ann 7, Ben 1, dummy 1 tricks a deal, nobody makes the bid: dummy ties Ben
        bids = {h: parse_bid(b, VARIANTS["two"]) for h, b in (("Ann", 8), ("Ben", 2), (DUMMY, 2))}
        sheet = sheet.add(DealEntry(bids, {"Ann": 7, "Ben": 1, DUMMY: 1}))
    game = sheet.games[0]
    margin = game.totals["Ann"] + game.premiums["Ann"] - game.totals["Ben"]
    assert game.dummy_bonus == "double" and game.carried["Ann"] == margin


def test_hard_score_a_game_the_dummy_won_changes_no_hands() -> None:
    players = ("Ann", "Ben")
    usual = Table(VARIANTS["two"], Options(), players, 0)
    dummy_wins = entry_from_json(plain({"Ann": 3, "Ben": 2, DUMMY: 4}), usual)
    sheet = Scoresheet.start(Table(VARIANTS["two"], Options(rubber_games=1, hard_score=True), players, 0))
    while not sheet.over:
        sheet = sheet.add(dummy_wins)
    assert sheet.games[0].totals["Ann"] > sheet.games[0].totals["Ben"] and sheet.games[0].winners == ()
    assert sheet.settlement == {"Ann": 0, "Ben": 0}


# -- declarer chooses trumps with two players -------------------------------------------------------
def test_declarer_chooses_trumps_two_players_first_deal_without_a_declarer_is_no_trump() -> None:
    """Parlett's variation: "If no one bids in the first deal it is played at no trump" (without
    the option the two-player game starts at clubs)."""
    chooses = Table(VARIANTS["two"], Options(declarer_chooses_trumps=True), ("Ann", "Ben"), 0)
    assert Scoresheet.start(chooses).next_trump is Trump.NO_TRUMP
    sheet = Scoresheet.start(chooses).add(entry_from_json(plain({"Ann": 3, "Ben": 3, DUMMY: 3}), chooses))
    assert sheet.deals[0].trump is Trump.NO_TRUMP and sheet.next_trump is Trump.NO_TRUMP
    usual = Table(VARIANTS["two"], Options(), ("Ann", "Ben"), 0)
    assert Scoresheet.start(usual).next_trump is Trump.CLUBS
    nines = Table(VARIANTS["two"], Options(nines_as_trumps=True), ("Ann", "Ben"), 0)
    assert Scoresheet.start(nines).next_trump is Trump.CLUBS  # Tallyn's: the usual rule otherwise
    declared = {"bids": {"Ann": 3, "Ben": 3, DUMMY: 3}, "premium": {"Ann": "declare"}, "trump": "H",
                "tricks": {"Ann": 3, "Ben": 3, DUMMY: 3}}
    assert Scoresheet.start(chooses).add(entry_from_json(declared, chooses)).deals[0].trump is Trump.HEARTS


# -- a flat cost per deal -----------------------------------------------------------------------------
class CountingLog(Log[Any]):
    reads = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def, override]
        got = super().__getitem__(index)
        CountingLog.reads += len(got) if isinstance(index, slice) else 1
        return got

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in super().__iter__():
            CountingLog.reads += 1
            yield item


@pytest.mark.parametrize("options", [{"rubber_games": 10**6}, {"target": 10**9}])
def test_adding_a_deal_reads_a_fixed_number_of_earlier_deals_however_long_the_series(options: dict) -> None:  # type: ignore[type-arg]
    """The scoresheet used to rescan every deal for each deal added (3,000 deals took 1.4 s). Adding
    a deal now reads at most a few earlier deals, whether the series has 5 or 400 deals."""
    table = Table(VARIANTS["three"], Options(**options), P3, 0)
    deal = entry_from_json(plain({"Ann": 4, "Ben": 3, "Cat": 2}), table)
    reads = []
    for length in (5, 405):  # a game lasts 25 of these deals: both in the same place of a game
        sheet = Scoresheet.start(table)
        for _ in range(length):
            sheet = sheet.add(deal)
        counted = replace(sheet, deals=CountingLog(list(sheet.deals)), games=CountingLog(list(sheet.games)))
        CountingLog.reads = 0
        counted.add(deal)
        reads.append(CountingLog.reads)
    assert reads[0] == reads[1] <= 8, reads


# -- the docs' replay examples --------------------------------------------------------------------------
def docs_examples() -> dict[str, tuple[dict[str, Any], str]]:
    """``<!-- replay-example NAME -->`` in docs/parlett.md, then a ```json record and the ```text
    ``table99 replay`` prints for it."""
    text = (ROOT / "docs" / "parlett.md").read_text(encoding="utf-8")
    pattern = r"<!-- replay-example ([\w-]+) -->\s*```json\n(.*?)```\s*```text\n(.*?)```"
    found = re.findall(pattern, text, re.S)
    return {name: (json.loads(raw), out.rstrip("\n")) for name, raw, out in found}


def test_the_docs_replay_examples_print_what_the_docs_say() -> None:
    examples = docs_examples()
    assert {"nine-rounds", "unshown-bids"} <= set(examples)
    for name, (rec, printed) in examples.items():
        assert replay_text(rec) == printed, name


def test_the_docs_unshown_example_hides_a_failed_bid_and_the_trump_still_follows() -> None:
    rec, _ = docs_examples()["unshown-bids"]
    bids = [set(d["bids"].values()) for d in rec["deals"]]
    assert any("unshown" in b for b in bids)
    data = replay_json(rec)
    assert any(b == "not shown" for d in data["deals"] for b in d["bids"].values())



def test_the_docs_examples_through_the_replay_command(tmp_path: Path) -> None:
    import subprocess
    import sys

    for name, (rec, printed) in docs_examples().items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(rec), encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "app", "replay", str(path)], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert result.stdout.rstrip("\n") == printed, name


def _two_player_hard_score_rubber(seed: int) -> dict:  # type: ignore[type-arg]
    """A whole two-player rubber for hard score, deals drawn from ``seed`` (half the bids made)."""
    import random

    rng, tricks_in_deal = random.Random(seed), VARIANTS["two"].tricks
    hands = ["Ann", "Ben", DUMMY]
    record = {"format": "table99/parlett", "version": 1, "variant": "two", "options": {"hard_score": True},
              "players": ["Ann", "Ben"], "dealer": "Ann", "deals": []}
    sheet = sheet_from_record(record)
    while not sheet.over:
        cuts = sorted(rng.randint(0, tricks_in_deal) for _ in range(2))
        tricks = dict(zip(hands, [cuts[0], cuts[1] - cuts[0], tricks_in_deal - cuts[1]], strict=True))
        top = VARIANTS["two"].max_bid
        bids = {h: tricks[h] if rng.random() < 0.5 else rng.randint(0, top) for h in hands}
        raw = {"bids": bids, "tricks": tricks}
        sheet = sheet.add(entry_from_json(raw, sheet.table))
        record["deals"].append(raw)
    return record


def test_two_for_hard_score_the_rubbers_winner_never_pays() -> None:
    """Seed 002: "If the dummy wins, the game is a tie as between the live players", so for hard score
    nothing of such a game changes hands, and it does not decide the rubber either. Seed 65 draws a
    rubber that Ben leads 384-346 only through a game the dummy won: Ann wins it and the settlement
    (found by issue 18's review: the screen named Ben the winner while he paid)."""
    from rules.parlett.record import sheet_from_record
    from rules.parlett.replay import replay_text

    sheet = sheet_from_record(_two_player_hard_score_rubber(65))
    assert any(not game.winners for game in sheet.games)
    assert sheet.rubber_totals["Ben"] > sheet.rubber_totals["Ann"]
    assert sheet.winners == ("Ann",) and sheet.settlement is not None and sheet.settlement["Ann"] > 0
    assert sheet.margin == sheet.standings["Ann"] - sheet.standings["Ben"] > 0
    assert "Counted for hard score" in replay_text(_two_player_hard_score_rubber(65))
    for seed in range(60):  # and in general: the winners are those the settlement pays most
        sheet = sheet_from_record(_two_player_hard_score_rubber(seed))
        assert sheet.settlement is not None
        best = max(sheet.settlement.values())
        assert set(sheet.winners) == {p for p, v in sheet.settlement.items() if v == best}


def test_with_declarer_chooses_trumps_a_premium_needs_the_named_trump() -> None:
    """Seed 002: "As soon as a premium bidder is established, he announces the trump suit". A deal
    with a premium and no trump was scored at no trump (and no trump then carried on)."""
    record = {"format": "table99/parlett", "version": 1, "variant": "two",
              "options": {"declarer_chooses_trumps": True}, "players": ["Ann", "Ben"], "dealer": "Ann",
              "deals": [{"bids": {"Ann": 3, "Ben": 3, DUMMY: 3}, "premium": {"Ann": "declare"},
                         "tricks": {"Ann": 3, "Ben": 3, DUMMY: 3}}]}
    with pytest.raises(InvalidRecordError, match="names the trump suit"):
        sheet_from_record(record)
    named = json.loads(json.dumps(record))
    named["deals"][0]["trump"] = "S"
    assert sheet_from_record(named).deals[0].trump is Trump.SPADES
