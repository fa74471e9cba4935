"""``table99 replay`` for Parlett records: every deal, the games, the rubber, what comes next."""

from __future__ import annotations

from typing import Any

from rules.parlett.match import Scoresheet
from rules.parlett.record import sheet_from_record
from rules.parlett.scoring import Trump

TRUMP_NAMES = {Trump.NO_TRUMP: "no trump", Trump.CLUBS: "clubs", Trump.HEARTS: "hearts",
               Trump.SPADES: "spades", Trump.DIAMONDS: "diamonds", Trump.NINES: "nines"}


def summary(sheet: Scoresheet) -> dict[str, Any]:
    """The replay as plain data (also what the app's screens and tests compare)."""
    deals = []
    for d in sheet.deals:
        s = d.score
        deals.append({
            "deal": d.number, "game": d.game, "dealer": d.dealer, "trump": d.trump.value,
            "bids": {h: b.label() for h, b in d.entry.bids.items()},
            "premium": {h: p.value for h, p in d.entry.premiums.items()},
            "tricks": dict(d.entry.tricks),
            "made": [h for h, ok in s.made.items() if ok],
            "scores": s.total,
            "parts": {h: {"tricks": s.trick_points[h], "contract": s.contract[h], "premium": s.premium[h]}
                      for h in s.made},
            "running_totals": d.game_totals,
            "rubber_totals": d.rubber_totals,
        })
    games = [{"game": g.number, "deals": g.deals, "winners": list(g.winners), "totals": g.final,
              "in_play": g.totals, "premiums": g.premiums, "carried": g.carried, "dummy_bonus": g.dummy_bonus}
             for g in sheet.games]
    over = sheet.over
    next_trump = sheet.next_trump
    return {
        "variant": sheet.table.variant.name,
        "players": list(sheet.table.players),
        "hands": list(sheet.table.hands),
        "deals": deals,
        "games": games,
        "rubber": {"totals": sheet.rubber_totals, "over": over, "winners": list(sheet.winners),
                   "margin": sheet.margin,
                   "games_played": len(sheet.games), "games": sheet.table.rubber_games if sheet.uses_games
                   else None, "target": sheet.table.options.target,
                   "dummy_bonus": sheet.table.options.dummy_rule if sheet.table.variant.has_dummy else None,
                   "nine_rounds": sheet.table.options.nine_rounds,
                   "settlement": sheet.settlement, "standings": sheet.standings},
        "next": None if over else {
            "dealer": sheet.next_dealer,
            "trump": "turn-up" if next_trump is None else next_trump.value,
            "trump_may_be_chosen": sheet.table.options.chosen_trumps,
        },
    }


def replay_json(record: dict[str, Any]) -> dict[str, Any]:
    return summary(sheet_from_record(record))


def replay_text(record: dict[str, Any]) -> str:
    data = replay_json(record)
    lines = [f"Ninety-Nine ({data['variant']}): {', '.join(data['players'])}"]
    for d in data["deals"]:
        trump = TRUMP_NAMES[Trump(d["trump"])]
        lines.append(f"Deal {d['deal']} (game {d['game']}), dealer {d['dealer']}, {trump}; "
                     f"made: {', '.join(d['made']) or 'nobody'}")
        lines.append("  " + "; ".join(f"{h} {d['scores'][h]:+d} = {d['running_totals'][h]}"
                                      for h in data["hands"]))
    for g in data["games"]:
        outcome = (f"won by {' and '.join(g['winners'])}" if g["winners"]
                   else "a tie between the live players (the dummy won)")
        if g["dummy_bonus"] is not None:  # the dummy beat or tied the loser
            winner = g["winners"][0]
            outcome += (f"; {winner} carries 100 forward" if g["dummy_bonus"] == "carry"
                        else f"; {winner} wins double (+{g['carried'][winner]})")
        lines.append(f"Game {g['game']}: {outcome}; " + ", ".join(f"{h} {v}" for h, v in g["totals"].items()))
    rubber = data["rubber"]
    state = "in progress"
    if rubber["over"]:
        state = "over, won by " + " and ".join(rubber["winners"])
        state += f" by {rubber['margin']} points" if rubber["margin"] else " (shared)"
    series = "Game of nine rounds" if rubber["nine_rounds"] else "Rubber"
    lines.append(f"{series} {state}: " + ", ".join(f"{h} {v}" for h, v in rubber["totals"].items()))
    if rubber["standings"] != rubber["totals"]:
        lines.append("Counted for hard score (a game the dummy won is a tie): " + ", ".join(
            f"{p} {rubber['standings'][p]}" for p in data["players"]))
    if rubber["settlement"] is not None:
        lines.append("Hard score: " + ", ".join(
            f"{p} wins {v}" if v > 0 else f"{p} owes {-v}" if v < 0 else f"{p} is square"
            for p, v in rubber["settlement"].items()))
    if data["next"] is not None:
        nxt = data["next"]
        trump = "the turned-up card" if nxt["trump"] == "turn-up" else TRUMP_NAMES[Trump(nxt["trump"])]
        lines.append(f"Next: {nxt['dealer']} deals, {trump}")
    return "\n".join(lines)
