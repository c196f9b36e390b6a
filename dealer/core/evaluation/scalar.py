"""Scalar evaluation for the rules: one hand of :class:`~dealer.core.cards.Card` at a time.

>>> str(evaluate("AS KS QS JS 10S 2D 2C"))
'royal flush'
>>> evaluate("5D 4C 3H 2S AS") < evaluate("6D 5C 4H 3S 2S")           # RULES B1: the wheel is lowest
True
>>> evaluate("5D 4C 3H 2S AS", Ranking.PAI_GOW) > evaluate("KD QC JH 10S 9S", Ranking.PAI_GOW)  # RULES A8
True
>>> str(evaluate("JK AS AD AH AC"))                                     # the bug makes five aces
'five aces'
>>> str(evaluate("10C 10D 2S 2H 2D", wild=DEUCES_WILD))
'five tens'
>>> best = best_hand("AH KH 7C 7D 2S 9H 4H")
>>> str(best.value), " ".join(c.code for c in best.cards)
('pair of sevens', 'AH KH 7C 7D 9H')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from dealer.core.cards import Card, Rank, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation.batch import card_id
from dealer.core.evaluation.ranking import Ranking
from dealer.core.evaluation.tables import (
    HIGH_SHIFT,
    JOKER_HIGH,
    SUIT_SHIFT,
    flush_value,
    front_value,
    natural_value,
)
from dealer.core.evaluation.values import HandValue

__all__ = ["BestHand", "Wild", "NO_WILD", "DEUCES_WILD", "JOKER_WILD", "ONE_EYED_JACKS_WILD",
           "best_hand", "evaluate", "omaha_best", "to_cards"]


@dataclass(frozen=True)
class Wild:
    """Which cards are fully wild (RULES B1). Without ``jokers`` a joker is the bug instead."""

    jokers: bool = False
    ranks: frozenset[Rank] = frozenset()
    cards: frozenset[Card] = field(default_factory=frozenset)

    def is_wild(self, card: Card) -> bool:
        if card.is_joker:
            return self.jokers
        return card.rank in self.ranks or card in self.cards

    @property
    def any(self) -> bool:
        return self.jokers or bool(self.ranks) or bool(self.cards)


NO_WILD = Wild()
JOKER_WILD = Wild(jokers=True)
DEUCES_WILD = Wild(ranks=frozenset({Rank.TWO}))
ONE_EYED_JACKS_WILD = Wild(cards=frozenset(parse_cards("JS JH")))


def to_cards(cards: Iterable[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(Card.parse(c) if isinstance(c, str) else c for c in cards)


@cache
def _lists(wheel_high: bool) -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    t = Ranking.PAI_GOW.tables() if wheel_high else Ranking.STANDARD.tables()
    return (t.card_key.tolist(), t.low.tolist(), t.high.tolist(), t.ranks.tolist(), t.flush.tolist(),
            t.flush_suit.tolist())


def _value_of_ids(ids: Sequence[int], wheel_high: bool) -> int:
    card_key, low, high, ranks, flush, flush_suit = _lists(wheel_high)
    key = 0
    for i in ids:
        key += card_key[i]
    h = (key >> HIGH_SHIFT) & 0x7FFF
    value = ranks[low[key & 0x1FFFF] + high[h]]
    if len(ids) >= 5:
        suit = flush_suit[(key >> SUIT_SHIFT) | (h >= JOKER_HIGH) << 12]
        if suit >= 0:
            mask = 0
            for i in ids:
                if i == 52:
                    mask |= 1 << 13
                elif i % 4 == suit:
                    mask |= 1 << (i // 4)
            value = max(value, flush[mask])
    return value


def _check_hand(cards: tuple[Card, ...], ranking: Ranking) -> None:
    if not 1 <= len(cards) <= 7:
        raise IllegalOperation(f"a hand to evaluate has 1 to 7 cards, got {len(cards)}")
    faces = [c for c in cards if not c.is_joker]
    if len(set(faces)) != len(faces):
        raise IllegalOperation(f"a hand holds each card once, got {' '.join(c.code for c in cards)}")
    if sum(c.is_joker for c in cards) > 1:
        raise IllegalOperation("a hand may hold one joker (the pack has one)")
    if ranking is Ranking.PUSOY and len(faces) != len(cards):
        raise IllegalOperation("RULES A9: pusoy uses a 52-card pack with no joker")


def evaluate(cards: Iterable[Card | str] | str, ranking: Ranking = Ranking.STANDARD,
             wild: Wild = NO_WILD) -> HandValue:
    """The value of a hand of 1 to 7 cards: best five of five or more, else a front hand."""
    hand = to_cards(cards)
    _check_hand(hand, ranking)
    if wild.any and any(wild.is_wild(c) for c in hand):
        return HandValue(_wild_value(hand, wild, ranking.wheel_high))
    return HandValue(_value_of_ids([card_id(c) for c in hand], ranking.wheel_high))


def _wild_value(hand: tuple[Card, ...], wild: Wild, wheel_high: bool) -> int:
    wilds = [c for c in hand if wild.is_wild(c)]
    naturals = [c for c in hand if not wild.is_wild(c)]
    if any(c.is_joker for c in naturals):
        raise IllegalOperation("a bug joker together with other wild cards is not supported; "
                               "make the joker fully wild too")
    size = min(5, len(hand))
    keep = max(0, size - len(wilds))
    return max(_wild_five(combo, min(len(wilds), size), wheel_high)
               for combo in itertools.combinations(naturals, keep))


def _wild_five(naturals: tuple[Card, ...], wilds: int, wheel_high: bool) -> int:
    """Best value of ``naturals`` plus ``wilds`` fully wild cards (each may be any card)."""
    counts: dict[int, int] = {}
    for c in naturals:
        assert c.rank is not None
        counts[c.rank.high] = counts.get(c.rank.high, 0) + 1
    total = len(naturals) + wilds
    best = 0
    for extra in itertools.combinations_with_replacement(range(2, 15), wilds):
        trial = dict(counts)
        for r in extra:
            trial[r] = trial.get(r, 0) + 1
        best = max(best, natural_value(trial, wheel_high) if total >= 5 else front_value(trial))
    suits = {c.suit for c in naturals}
    if total >= 5 and len(suits) <= 1:
        present = {r for r in counts}
        mask = sum(1 << (r - 2) for r in present)
        for extra in itertools.combinations(sorted(set(range(2, 15)) - present), wilds):
            best = max(best, flush_value(mask | sum(1 << (r - 2) for r in extra), wheel_high))
    return best


@dataclass(frozen=True)
class BestHand:
    """A hand's value and the five (or fewer) cards that make it."""

    value: HandValue
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, object]:
        return {"value": int(self.value), "category": self.value.category.label,
                "description": str(self.value), "cards": [c.code for c in self.cards]}


def best_hand(cards: Iterable[Card | str] | str, ranking: Ranking = Ranking.STANDARD,
              wild: Wild = NO_WILD) -> BestHand:
    """The best five cards of a hand (the whole hand if it has five or fewer), in the dealt order."""
    hand = to_cards(cards)
    value = evaluate(hand, ranking, wild)
    if len(hand) <= 5:
        return BestHand(value, hand)
    for combo in itertools.combinations(hand, 5):
        if evaluate(combo, ranking, wild) == value:
            return BestHand(value, combo)
    raise AssertionError("the best five cards must be one of the five-card combinations")


def omaha_best(hole: Iterable[Card | str] | str, board: Iterable[Card | str] | str,
               ranking: Ranking = Ranking.STANDARD) -> BestHand:
    """RULES B5: exactly two hole cards and exactly three board cards."""
    hole_cards, board_cards = to_cards(hole), to_cards(board)
    if len(hole_cards) < 2 or len(board_cards) < 3:
        raise IllegalOperation("RULES B5: omaha needs at least two hole cards and three board cards")
    best: BestHand | None = None
    for two in itertools.combinations(hole_cards, 2):
        for three in itertools.combinations(board_cards, 3):
            value = evaluate(two + three, ranking)
            if best is None or value > best.value:
                best = BestHand(value, two + three)
    assert best is not None
    return best
