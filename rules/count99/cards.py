"""What each card does to the running count, for both rule sets.

Cards are plain names, the same names the game records use: ``A 2 3 4 5 6 7 8 9 10 J Q K`` for
Quentin C (suits never matter) and ``1``..``9``, ``+10``, ``-10``, ``pass``, ``reverse``, ``skip``,
``99`` for RS Games. Only the Ace and the 10 of Quentin C leave a choice to the player, and even
they lose it near the top: the Ace counts 1 above 88 and the 10 counts -10 from 90 up.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Variant(Enum):
    QUENTIN_C = "quentin-c"
    RS_GAMES = "rs-games"


QUENTIN_C_CARDS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RS_GAMES_CARDS: tuple[str, ...] = (
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "+10", "-10", "pass", "reverse", "skip", "99",
)
CARD_NAMES: dict[Variant, tuple[str, ...]] = {
    Variant.QUENTIN_C: QUENTIN_C_CARDS,
    Variant.RS_GAMES: RS_GAMES_CARDS,
}
# Four of each: 13 x 4 = 52 (a standard deck), 15 x 4 = 60 (RS Games' special deck).
COPIES = 4

TOP = 99  # the highest count that does not bust
ACE_FORCED_ABOVE = 88  # above this an Ace counts +1 (the seed: "if the count is above 88")
TEN_FORCED_FROM = 90  # from this up a 10 counts -10 (the seed: "if the count is 90 or above")
HALVING_ABOVE = 49  # a 2 halves an even count above 49, otherwise it doubles


def full_deck(variant: Variant) -> list[str]:
    """Every card of the variant's deck, in a fixed order (shuffle it yourself)."""
    return [card for card in CARD_NAMES[variant] for _ in range(COPIES)]


@dataclass(frozen=True)
class Effect:
    """The result of playing one card on a count.

    ``count`` is the new count before any bust check (above 99 means the play busts); it never
    goes below 0 (docs/count99.md: a -10 on a count under 10 leaves 0). ``chosen`` is the value
    the player picked for an Ace or 10 (or had forced on them); None for every other card.
    """

    count: int
    chosen: int | None = None
    reverses: bool = False
    skips: bool = False

    def raises(self, before: int) -> bool:
        """Milestones count only for plays that raise the count."""
        return self.count > before


def is_card(variant: Variant, card: str) -> bool:
    return card in CARD_NAMES[variant]


def choices_for(variant: Variant, card: str, count: int) -> tuple[int, ...]:
    """The values a player may choose between for ``card`` at ``count``; () when there is no choice.

    A forced card (an Ace above 88, a 10 from 90) returns its single value.
    """
    if variant is Variant.QUENTIN_C:
        if card == "A":
            return (1,) if count > ACE_FORCED_ABOVE else (1, 11)
        if card == "10":
            return (-10,) if count >= TEN_FORCED_FROM else (10, -10)
    return ()


def has_free_choice(variant: Variant, card: str, count: int) -> bool:
    return len(choices_for(variant, card, count)) > 1


def card_effect(variant: Variant, card: str, count: int, choice: int | None = None) -> Effect:
    """The effect of ``card`` played on ``count``; raises ValueError for an impossible card or choice.

    ``choice`` is required exactly where the player has a free choice; where the value is forced it
    may be omitted or must equal the forced value; for cards without a choice it must be omitted.
    """
    if not is_card(variant, card):
        names = " ".join(CARD_NAMES[variant])
        raise ValueError(f"{card!r} is not a {variant.value} card (cards: {names})")
    options = choices_for(variant, card, count)
    if options:
        if choice is None:
            if len(options) > 1:
                raise ValueError(f"{card} needs a choice: {' or '.join(f'{v:+d}' for v in options)}")
            choice = options[0]
        elif choice not in options:
            allowed = " or ".join(f"{v:+d}" for v in options)
            raise ValueError(f"{card} cannot count {choice:+d} at {count} (allowed: {allowed})")
        return Effect(max(0, count + choice), chosen=choice)
    if choice is not None:
        raise ValueError(f"{card} leaves no choice (got {choice:+d})")
    if variant is Variant.QUENTIN_C:
        return _quentin_c(card, count)
    return _rs_games(card, count)


def _quentin_c(card: str, count: int) -> Effect:
    if card == "2":
        halves = count % 2 == 0 and count > HALVING_ABOVE
        return Effect(count // 2 if halves else count * 2)
    if card == "9":
        return Effect(count)
    if card == "4":
        return Effect(count + 4, reverses=True)
    if card == "J":
        return Effect(count + 10, skips=True)
    if card in ("Q", "K"):
        return Effect(count + 10)
    return Effect(count + int(card))


def _rs_games(card: str, count: int) -> Effect:
    if card == "+10":
        return Effect(count + 10)
    if card == "-10":
        return Effect(max(0, count - 10))
    if card == "pass":
        return Effect(count)
    if card == "reverse":
        return Effect(count, reverses=True)
    if card == "skip":
        return Effect(count, skips=True)
    if card == "99":
        return Effect(TOP)
    return Effect(count + int(card))


def is_safe(variant: Variant, card: str, count: int) -> bool:
    """Whether some way of playing ``card`` keeps the count at 99 or below."""
    options = choices_for(variant, card, count) or (None,)
    return any(card_effect(variant, card, count, c).count <= TOP for c in options)


def spoken_name(card: str) -> str:
    """The card as a word a screen reader says well ("Ace", "Jack", "plus 10")."""
    return {
        "A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "+10": "plus 10", "-10": "minus 10",
        "pass": "Pass", "reverse": "Reverse", "skip": "Skip", "99": "Ninety Nine",
    }.get(card, card)
