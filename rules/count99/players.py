"""Computer players. Each is a function of a :class:`PlayerView` (its own hand and public facts).

* ``easy``: plays any card that does not bust, chosen at random: a beginner who knows the values.
* ``hard``: scores every (card, choice): the tokens it wins or loses now, the chance that the next
  player is left without a good card (from the cards not yet seen this round), and the cost of
  spending a lifeline card (9, 10, Ace, 2; Pass, Skip, Reverse, -10, 99) while the count is low.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from rules.count99.cards import TOP, Variant, card_effect, choices_for, full_deck
from rules.count99.deal import CardGame, PlayerView
from rules.count99.table import MILESTONES

Choice = tuple[int, int | None]  # (slot in hand, the Ace's or 10's value or None)


class ComputerPlayer(Protocol):
    level: str

    def choose(self, view: PlayerView) -> Choice: ...


@dataclass
class EasyPlayer:
    rng: random.Random = field(default_factory=random.Random)
    level: str = "easy"

    def choose(self, view: PlayerView) -> Choice:
        options = view.options()
        safe = [o for o in options if _after(view, o) <= TOP]
        return self.rng.choice(safe or options)


LIFELINES = {
    Variant.QUENTIN_C: {"9": 30.0, "10": 22.0, "A": 8.0, "2": 10.0},
    Variant.RS_GAMES: {"pass": 30.0, "-10": 28.0, "skip": 24.0, "reverse": 22.0, "99": 14.0},
}


@dataclass
class HardPlayer:
    rng: random.Random = field(default_factory=random.Random)
    level: str = "hard"

    def choose(self, view: PlayerView) -> Choice:
        pool = self._unseen(view)
        scored = [(self.score(view, o, pool) + self.rng.random() * 0.01, o) for o in view.options()]
        return max(scored, key=lambda so: so[0])[1]

    @staticmethod
    def _unseen(view: PlayerView) -> Counter[str]:
        pool = Counter(full_deck(view.variant))
        pool.subtract(view.hand)
        pool.subtract(view.played_this_round)
        return +pool

    def score(self, view: PlayerView, option: Choice, pool: Counter[str]) -> float:
        slot, choice = option
        card = view.hand[slot]
        effect = card_effect(view.variant, card, view.count, choice)
        before, after = view.count, effect.count
        others = sum(1 for s, t in enumerate(view.tokens) if t > 0 and s != view.seat)
        qc = view.variant is Variant.QUENTIN_C
        if after > TOP:
            return -1000.0
        score = 0.0
        if qc and after > before:
            if after == TOP:
                return 500.0 + 10 * others
            for m in MILESTONES:
                if after == m:
                    score += 90.0 * others
                elif before < m < after:
                    score -= 120.0
        # Spending a lifeline early wastes it.
        worth = LIFELINES[view.variant].get(card, 0.0)
        score -= worth * (1.0 if before < 70 else 0.25)
        # Who must answer this count: with two players a skip hands it back to us.
        active = [s for s, t in enumerate(view.tokens) if t > 0]
        answerer_is_me = effect.skips and len(active) == 2
        if answerer_is_me:
            rest = [c for i, c in enumerate(view.hand) if i != slot]
            if not any(_good(view.variant, c, after) for c in rest):
                score -= 150.0
        else:
            bad = sum(n for c, n in pool.items() if not _good(view.variant, c, after))
            total = sum(pool.values()) or 1
            held = max(1, view.hand_counts[view.next_seat] or view.hand_size)
            score += 110.0 * (bad / total) ** held
        # Keep the count low when nothing better is on offer: fewer dangers next time round.
        score -= after * 0.05
        return score


def _after(view: PlayerView, option: Choice) -> int:
    slot, choice = option
    return card_effect(view.variant, view.hand[slot], view.count, choice).count


def _good(variant: Variant, card: str, count: int) -> bool:
    """Whether a player holding ``card`` at ``count`` can play it without losing a token."""
    for choice in choices_for(variant, card, count) or (None,):
        after = card_effect(variant, card, count, choice).count
        if after > TOP:
            continue
        if variant is Variant.QUENTIN_C and after > count and any(count < m < after for m in MILESTONES):
            continue
        return True
    return False


LEVELS = ("easy", "hard")


def make_player(level: str, seed: int | None = None) -> ComputerPlayer:
    rng = random.Random(seed)
    if level == "easy":
        return EasyPlayer(rng)
    if level == "hard":
        return HardPlayer(rng)
    raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")


def play_until_human(
    game: CardGame, computers: dict[int, ComputerPlayer], limit: int = 100_000
) -> list[object]:
    """Let the game run while computer players are on turn; returns all events.

    Stops when the game is over or a seat without a computer player must act. In manual-draw games
    computer players draw at once after each play: they never forget. Every game ends: a round
    lasts at most ROUND_PLAY_LIMIT (200) cards and every round end costs a token, so even eight
    players with 50 tokens each play at most 8 x 50 x 200 = 80,000 cards, under ``limit``.
    """
    events: list[object] = []
    for _ in range(limit):
        events += game.advance()
        table = game.table
        if table.over or table.turn is None or table.turn not in computers:
            return events
        seat = table.turn
        slot, choice = computers[seat].choose(game.view(seat))
        events += game.play(seat, slot, choice)
        while game.can_draw(seat):
            events += game.draw(seat)
    raise RuntimeError("the game did not end")  # pragma: no cover - a bug guard
