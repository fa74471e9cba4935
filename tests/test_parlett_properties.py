"""Property tests: any series of valid deals scores within the rules and replays to itself."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from rules.parlett import DUMMY, VARIANTS, Scoresheet, Table
from rules.parlett.cards import RANK_NAMES
from rules.parlett.record import entry_from_json, sheet_from_record, to_record
from rules.parlett.replay import replay_json
from rules.parlett.scoring import Trump, trump_after
from rules.parlett.variants import Options

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


@st.composite
def tricks_for(draw, hands: list[str], total: int) -> dict[str, int]:  # type: ignore[no-untyped-def]
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=len(hands) - 1, max_size=len(hands) - 1)))
    bounds = [0, *cuts, total]
    return {h: bounds[i + 1] - bounds[i] for i, h in enumerate(hands)}


@st.composite
def deal_json(draw, variant_name: str, hands: list[str], players: list[str]) -> dict:  # type: ignore[no-untyped-def, type-arg]
    variant = VARIANTS[variant_name]
    bid = st.one_of(st.integers(0, variant.max_bid), st.text("CHSD", min_size=3, max_size=3))
    deal: dict = {"bids": {h: draw(bid) for h in hands}}  # type: ignore[type-arg]
    kinds = ["declare", "reveal"] if variant.can_reveal else ["declare"]
    if variant.many_declare:
        chosen = draw(st.lists(st.sampled_from(players), unique=True, max_size=len(players)))
        premium = {p: "declare" for p in chosen}
    else:
        holder = draw(st.one_of(st.none(), st.sampled_from(players)))
        premium = {} if holder is None else {holder: draw(st.sampled_from(kinds))}
    if premium:
        deal["premium"] = premium
    deal["tricks"] = draw(tricks_for(hands, variant.tricks))
    if variant_name == "original":
        rank = draw(st.sampled_from(["6", "7", "8", "9", "T", "J", "Q", "K", "A", "X"]))
        deal["turn_up"] = "X" if rank == "X" else rank + draw(st.sampled_from("CHSD"))
    return deal


@st.composite
def records(draw) -> dict:  # type: ignore[no-untyped-def, type-arg]
    name = draw(st.sampled_from(list(VARIANTS)))
    variant = VARIANTS[name]
    players = NAMES[: variant.players]
    hands = players + ([DUMMY] if variant.has_dummy else [])
    options = {}
    if name != "original" and draw(st.booleans()):
        options["new_game_trump"] = "continue"
    if variant.has_dummy and draw(st.booleans()):
        options["dummy_bonus"] = "double"
    if name != "original" and draw(st.booleans()):
        options["nine_rounds"] = True  # the German text's game of nine deals
    if draw(st.booleans()):
        options["hard_score"] = True
    deals = draw(st.lists(deal_json(name, hands, players), max_size=14))
    return {"format": "table99/parlett", "version": 1, "variant": name, "options": options,
            "players": players, "dealer": draw(st.sampled_from(players)), "deals": deals}


def playable(record: dict) -> dict:  # type: ignore[type-arg]
    """The record cut where its rubber ends (deals after that are rightly refused)."""
    sheet = sheet_from_record(record | {"deals": []})
    kept = []
    for raw in record["deals"]:
        if sheet.over:
            break
        sheet = sheet.add(entry_from_json(raw, sheet.table))
        kept.append(raw)
    return record | {"deals": kept}


@given(records())
def test_replay_of_a_random_series_of_deals_equals_the_series(record: dict) -> None:  # type: ignore[type-arg]
    record = playable(record)
    sheet = sheet_from_record(record)
    assert len(sheet.deals) == len(record["deals"])
    written = json.loads(json.dumps(to_record(sheet.table, [d.entry for d in sheet.deals])))
    again = sheet_from_record(written)
    assert replay_json(written) == replay_json(record)
    assert [d.score for d in again.deals] == [d.score for d in sheet.deals]
    for raw, result in zip(record["deals"], sheet.deals, strict=True):
        assert dict(result.entry.tricks) == raw["tricks"]


@given(records())
def test_every_deal_hands_out_exactly_the_tricks_played_and_totals_add_up(record: dict) -> None:  # type: ignore[type-arg]
    sheet = sheet_from_record(playable(record))
    variant = sheet.table.variant
    running = dict.fromkeys(sheet.table.hands, 0)
    for d in sheet.deals:
        assert sum(d.score.trick_points.values()) == variant.tricks
        if variant.players == 3 and not variant.has_dummy:
            assert max(d.score.total.values()) <= 99
        for h, v in d.score.total.items():
            running[h] += v
    for g in sheet.games:
        if g.dummy_bonus == "double":  # hard score: the winner's margin over the other live player doubles
            winner, loser = g.winners[0], next(p for p in sheet.table.players if p != g.winners[0])
            margin = g.totals[winner] + g.premiums[winner] - g.totals[loser] - g.premiums[loser]
            assert g.final[winner] - g.final[loser] == 2 * margin > 0
    games_final = sum(sum(g.final.values()) for g in sheet.games)
    games_play = sum(sum(g.totals.values()) for g in sheet.games)
    assert sum(sheet.rubber_totals.values()) == sum(running.values()) + games_final - games_play


@given(st.lists(st.tuples(tricks_for(["Ann", "Ben", "Cat"], 9), st.integers(0, 9), st.integers(0, 9),
                          st.integers(0, 9), st.sampled_from([None, "declare", "reveal"])), max_size=5))
def test_three_players_never_score_more_than_99_in_a_deal(deals) -> None:  # type: ignore[no-untyped-def]
    table = Table(VARIANTS["three"], Options(), ("Ann", "Ben", "Cat"), 0)
    sheet = Scoresheet.start(table)
    for tricks, a, b, c, kind in deals:
        raw = {"bids": {"Ann": a, "Ben": b, "Cat": c}, "tricks": tricks}
        if kind:
            raw["premium"] = {"Ann": kind}
        if sheet.over:
            break
        sheet = sheet.add(entry_from_json(raw, table))
        assert all(v <= 99 for v in sheet.deals[-1].score.total.values())


def test_rank_names_cover_every_pack() -> None:
    for variant in VARIANTS.values():
        assert all(c.is_joker or c.rank in RANK_NAMES for c in variant.pack)


@given(st.lists(st.sampled_from([None, "declare", "reveal"]), min_size=3, max_size=4),
       st.integers(0, 3), st.booleans())
def test_formal_procedure_gives_the_same_premium_as_the_informal_priority(intents, dealer, cheap) -> None:  # type: ignore[no-untyped-def]
    """Players who call as far as they are willing (or, when ``cheap``, declare first and raise only
    when overcalled) end with the premium the seed's priority gives to their offers made at once."""
    from rules.parlett import Announcements, Premium, resolve_offers

    variant = VARIANTS["three" if len(intents) == 3 else "four"]
    players = NAMES[: len(intents)]
    dealer_name = players[dealer % len(players)]
    willing = {p: Premium(k) for p, k in zip(players, intents, strict=True) if k is not None}
    formal = Announcements(players, dealer_name, variant)
    while not formal.done:
        who = formal.waiting_for
        assert who is not None
        want = willing.get(who)
        if formal.holder is None:
            call = Premium.DECLARE if want is Premium.REVEAL and cheap else want
        elif formal.holder != who and formal.kind is Premium.DECLARE and want is Premium.REVEAL:
            call = Premium.REVEAL  # overcall a declaration
        elif formal.holder != who and want is Premium.REVEAL and formal.kind is Premium.REVEAL:
            call = Premium.REVEAL  # an overcalled declarer raising
        else:
            call = None
        formal.call(who, call)
    informal = resolve_offers(willing, players, dealer_name, variant)
    assert set(formal.result) == set(informal)  # the same player holds the premium
    if not cheap:  # (a cheap declarer nobody overcalls keeps the cheaper declaration)
        assert formal.result == informal


WORDS = ["CHS", "DDD", "declare", "reveal", "9H", "X", "nines", "Ann", "dummy", ""]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["Ann", "Ben", "Cat", "bids", "tricks", "premium", "turn_up", "trump", "dummy"]), inner, max_size=4),
    max_leaves=12)


@given(records(), st.sampled_from(["variant", "options", "players", "dealer", "deals", "deal", "version"]),
       JSON_VALUES)
def test_any_damaged_record_replays_or_raises_invalid_record_error(record, field, junk) -> None:  # type: ignore[no-untyped-def]
    """Bad input never crashes the replay with anything but a clear InvalidRecordError."""
    from rules.errors import InvalidRecordError

    damaged = json.loads(json.dumps(record))
    if field == "deal" and damaged["deals"]:
        damaged["deals"][0] = junk
    elif field == "deal":
        damaged["deals"] = [junk]
    else:
        damaged[field] = junk
    try:
        replay_json(damaged)
    except InvalidRecordError as exc:
        assert exc.where and str(exc)


def unshown_where_failed(record: dict, pick: list[bool]) -> dict:  # type: ignore[type-arg]
    """The record with some failed live players' bids entered as not shown (never a premium holder,
    whose bid cards are face up, nor the dummy, whose bid is always turned up)."""
    sheet = sheet_from_record(record)
    deals = []
    flags = iter(pick * (len(record["deals"]) * 5 + 1))
    for raw, result in zip(record["deals"], sheet.deals, strict=True):
        bids = dict(raw["bids"])
        for hand, ok in result.score.made.items():
            if not ok and hand != DUMMY and hand not in raw.get("premium", {}) and next(flags):
                bids[hand] = "unshown"
        deals.append(raw | {"bids": bids})
    return record | {"deals": deals}


@given(records(), st.lists(st.booleans(), min_size=1, max_size=6))
def test_a_failed_bid_left_unshown_scores_exactly_as_the_bid_shown(record, pick) -> None:  # type: ignore[no-untyped-def]
    """The seed: "no-one who fails need show them". Hiding a failed player's bid changes nothing:
    every deal's scores, trump and dealer, the games, the rubber and what comes next; and the record
    with "unshown" bids replays to itself."""
    record = playable(record)
    hidden = unshown_where_failed(record, pick)
    shown, unseen = replay_json(record), replay_json(hidden)
    for a, b in zip(shown["deals"], unseen["deals"], strict=True):
        assert {k: v for k, v in a.items() if k != "bids"} == {k: v for k, v in b.items() if k != "bids"}
    rest = {k: v for k, v in shown.items() if k != "deals"}
    assert rest == {k: v for k, v in unseen.items() if k != "deals"}
    sheet = sheet_from_record(hidden)
    written = json.loads(json.dumps(to_record(sheet.table, [d.entry for d in sheet.deals])))
    assert replay_json(written) == unseen


@given(records())
def test_hard_score_settlement_adds_up_to_nothing_and_follows_the_winners(record) -> None:  # type: ignore[no-untyped-def]
    """What the players win and owe sums to 0; a sole winner of the rubber never owes (with games
    too: two players for hard score once named a winner who paid, issue 18's review)."""
    sheet = sheet_from_record(playable(record))
    settlement = sheet.settlement
    if not (sheet.table.options.hard_score and sheet.over):
        assert settlement is None
        return
    assert settlement is not None and sum(settlement.values()) == 0
    assert set(settlement) == set(sheet.table.players)
    if len(sheet.winners) == 1:
        assert settlement[sheet.winners[0]] > 0
    assert {p for p, v in settlement.items() if v == max(settlement.values())} >= set(sheet.winners)


@given(records(), st.integers(0, 13))
def test_a_sheet_branched_from_an_older_one_leaves_the_newer_unchanged(record, cut) -> None:  # type: ignore[no-untyped-def]
    """Sheets share their deal list (so a deal costs the same however long the series): adding a
    deal to an older sheet must not change what a sheet made from it later sees."""
    record = playable(record)
    deals = record["deals"]
    sheets = [sheet_from_record(record | {"deals": []})]
    for raw in deals:
        sheets.append(sheets[-1].add(entry_from_json(raw, sheets[-1].table)))
    before = [replay_json_of(s) for s in sheets]
    old = sheets[min(cut, len(deals))]
    if not old.over:
        branch = old.add(entry_from_json(deals[0] if deals else {"bids": {}, "tricks": {}}, old.table)) \
            if deals else None
        if branch is not None:
            assert len(branch.deals) == len(old.deals) + 1
            assert branch.deals[-1].entry == entry_from_json(deals[0], old.table)  # its own deal
            again = old.add(entry_from_json(deals[-1], old.table))  # a second branch from the same sheet
            assert again.deals[-1].entry == entry_from_json(deals[-1], old.table)
            assert branch.deals[-1].entry == entry_from_json(deals[0], old.table)
    assert [replay_json_of(s) for s in sheets] == before


def replay_json_of(sheet: Scoresheet) -> dict:  # type: ignore[type-arg]
    from rules.parlett.replay import summary

    return summary(sheet)


@given(records())
def test_a_nine_round_game_is_over_exactly_after_nine_deals_with_no_100_premium(record) -> None:  # type: ignore[no-untyped-def]
    if not record["options"].get("nine_rounds"):
        record = record | {"options": {**record["options"], "nine_rounds": True}}
        if record["variant"] == "original":
            return
        record["options"].pop("target", None)
    sheet = sheet_from_record(playable(record))
    assert sheet.over == (len(sheet.deals) == 9)
    assert len(sheet.deals) == min(9, len(record["deals"]))
    for game in sheet.games:
        assert game.deals == 9 and set(game.premiums.values()) == {0}
    if sheet.over:
        assert sheet.rubber_totals == {h: v for h, v in sheet.games[0].final.items()}


def _plain_definitions(sheet: Scoresheet) -> dict[str, object]:
    """What the scoresheet's running figures mean, computed the slow, obvious way (the definitions
    the sheet used before issue 17 made each of them independent of the rubber's length)."""
    game = len(sheet.games) + 1
    current = tuple(d for d in sheet.deals if d.game == game)
    game_totals = dict(current[-1].game_totals) if current else dict.fromkeys(sheet.table.hands, 0)
    rubber = dict.fromkeys(sheet.table.hands, 0)
    for g in sheet.games:
        for h, v in g.final.items():
            rubber[h] += v
    for h, v in game_totals.items():
        rubber[h] += v
    players, options = sheet.table.players, sheet.table.options
    if not sheet.uses_games:
        dealer = players[(sheet.table.first_dealer + len(sheet.deals)) % len(players)]
    else:
        dealer = players[(sheet.table.first_dealer + len(sheet.games) + len(current)) % len(players)]
    previous = current if options.new_game_trump == "no_trump" else sheet.deals
    return {"current": current, "game_totals": game_totals, "rubber": rubber, "dealer": dealer,
            "last_trump_from": previous[-1] if previous else None,
            "deals_per_game": [sum(1 for d in sheet.deals if d.game == g.number) for g in sheet.games]}


@given(records(), st.sampled_from([None, 150, 400]))
def test_the_running_figures_equal_their_plain_definitions_after_every_deal(
    record: dict, target: int | None  # type: ignore[type-arg]
) -> None:
    if target is not None and record["variant"] != "original" and not record["options"].get("nine_rounds"):
        record = record | {"options": record["options"] | {"target": target}}
    sheet = sheet_from_record(playable(record) | {"deals": []})
    for raw in playable(record)["deals"]:
        sheet = sheet.add(entry_from_json(raw, sheet.table))
        plain = _plain_definitions(sheet)
        assert tuple(sheet.current_game_deals) == plain["current"]
        assert sheet.game_totals == plain["game_totals"]
        assert sheet.rubber_totals == plain["rubber"] == sheet.deals[-1].rubber_totals
        assert sheet.next_dealer == plain["dealer"]
        assert [g.deals for g in sheet.games] == plain["deals_per_game"]
        if sheet.table.variant.name != "original":
            last, variant = plain["last_trump_from"], sheet.table.variant
            if last is None and sheet.table.options.declarer_chooses_trumps:
                expected = Trump.NO_TRUMP  # the seed's variation: nobody declared in the first deal
            elif last is None:
                expected = Trump(variant.first_trump)
            elif sheet.table.options.declarer_chooses_trumps:
                expected = last.trump
            else:
                expected = trump_after(last.score, variant)
            assert sheet.next_trump == expected
