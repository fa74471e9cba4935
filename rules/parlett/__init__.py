"""David Parlett's Ninety-Nine: bids by suit, premiums, trumps, scoring, games and rubbers, and a
trick-play engine with computer players. Pure and typed; see docs/parlett.md for rule decisions."""

from rules.parlett.bids import Bid, bid_from_number, bid_from_suits, parse_bid
from rules.parlett.cards import Card, Suit, parse_card
from rules.parlett.match import DealResult, GameResult, Scoresheet
from rules.parlett.premiums import Announcements, Premium, resolve_offers
from rules.parlett.scoring import DealEntry, DealScore, Trump, score_deal
from rules.parlett.variants import DUMMY, VARIANTS, Options, Table, Variant

__all__ = ["DUMMY", "VARIANTS", "Announcements", "Bid", "Card", "DealEntry", "DealResult", "DealScore",
           "GameResult", "Options", "Premium", "Scoresheet", "Suit", "Table", "Trump", "Variant",
           "bid_from_number", "bid_from_suits", "parse_bid", "parse_card", "resolve_offers", "score_deal"]
