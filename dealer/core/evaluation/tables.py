"""Lookup tables behind the evaluator, built in memory at first use (about a second).

Card ids are ``4 * rank_index + suit`` with rank_index 0..12 for 2..ace and suits C D H S as
0..3; the joker is 52. Each card id has a 64-bit key; the key of a hand is the *sum* of its cards'
keys, so any number of cards is evaluated with additions and three table reads::

    bits  0..16  "low" ranks 2..8 as base-5 digits (5**r per card)
    bits 17..31  "high" ranks 9..A as base-5 digits, the joker as digit 6 (5**6)
    bits 32..43  suit counts, 3 bits per suit

``LOW[low] + HIGH[high]`` is a perfect, dense index of the rank multiset (rank counts, joker
included) for every hand of at most seven cards from one pack; ``RANKS[index]`` is the best value
that ignores flushes (straights and the joker-as-bug included). When four or more cards share a
suit, ``FLUSH[suit rank bits | joker bit]`` gives the best flush or straight flush, and the hand
value is the larger of the two. The same multiset index serves two- and three-card front hands,
whose ``RANKS`` entries rank pairs and trips only (RULES A8, A9: no straights or flushes in front).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from dealer.core.evaluation.values import Category

JOKER_ID = 52
MAX_CARDS = 7
LOW_RANKS = 7  # ranks 2..8
HIGH_RANKS = 6  # ranks 9..A
LOW_SPAN = 5**LOW_RANKS  # 78125
HIGH_SPAN = 2 * 5**HIGH_RANKS  # 31250: six base-5 digits plus the joker digit (0 or 1)
HIGH_SHIFT = 17
SUIT_SHIFT = 32
JOKER_HIGH = 5**HIGH_RANKS

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]


def card_keys() -> list[int]:
    """The key of each card id 0..52 (see the module docs)."""
    keys = []
    for card in range(52):
        r, s = divmod(card, 4)
        rank_part = 5**r if r < LOW_RANKS else (5 ** (r - LOW_RANKS)) << HIGH_SHIFT
        keys.append(rank_part | (1 << (SUIT_SHIFT + 3 * s)))
    keys.append(JOKER_HIGH << HIGH_SHIFT)
    return keys


def _pack(category: int, ranks: list[int] | tuple[int, ...]) -> int:
    value = category << 20
    for i, rank in enumerate(ranks[:5]):
        value |= rank << (16 - 4 * i)
    return value


def _bits(ranks: set[int] | list[int]) -> int:
    """Rank bits: bit r for rank r (2..14), plus bit 1 for an ace so the wheel is a window too."""
    bits = 0
    for r in ranks:
        bits |= 1 << r
    return bits | ((bits >> 14) & 1) << 1


# (window bits, top) for every straight, best first in standard order; top 5 is the wheel.
_WINDOWS = [(0b11111 << (top - 4), top) for top in range(14, 4, -1)]


def _straight_ranks(top: int, wheel_high: bool) -> tuple[int, ...]:
    if top != 5:
        return tuple(range(top, top - 5, -1))
    return (14, 5, 4, 3, 2) if wheel_high else (5, 4, 3, 2, 1)


def _best_straight(bits: int, category: int, wheel_high: bool, fillers: int = 0) -> int:
    """Best straight in ``bits`` when up to ``fillers`` (0 or 1) missing ranks may be supplied."""
    best = 0
    for window, top in _WINDOWS:
        missing = window & ~bits
        if missing == 0 or (fillers and missing & (missing - 1) == 0):
            best = max(best, _pack(category, _straight_ranks(top, wheel_high)))
            if not wheel_high or top == 14:
                return best
    return best


def natural_value(counts: dict[int, int], wheel_high: bool) -> int:
    """Best non-flush value of five or more cards given as {rank (2..14): count}; counts may reach 5."""
    by_count = sorted(((c, r) for r, c in counts.items() if c), reverse=True)
    top_count, top_rank = by_count[0]
    ranks_desc = sorted((r for r, c in counts.items() if c), reverse=True)
    if top_count >= 5:
        return _pack(Category.FIVE_OF_A_KIND, [top_rank])
    if top_count == 4:
        kicker = max(r for r in ranks_desc if r != top_rank) if len(ranks_desc) > 1 else 0
        return _pack(Category.FOUR_OF_A_KIND, [top_rank, kicker])
    pairs_or_better = [r for c, r in by_count if c >= 2]
    if top_count == 3 and len(pairs_or_better) >= 2:
        return _pack(Category.FULL_HOUSE, [top_rank, max(r for r in pairs_or_better if r != top_rank)])
    straight = _best_straight(_bits(ranks_desc), Category.STRAIGHT, wheel_high)
    if straight:
        return straight
    if top_count == 3:
        return _pack(Category.THREE_OF_A_KIND, [top_rank, *[r for r in ranks_desc if r != top_rank][:2]])
    if len(pairs_or_better) >= 2:
        high, low = pairs_or_better[0], pairs_or_better[1]
        kicker = max(r for r in ranks_desc if r not in (high, low))
        return _pack(Category.TWO_PAIR, [high, low, kicker])
    if top_count == 2:
        return _pack(Category.PAIR, [top_rank, *[r for r in ranks_desc if r != top_rank][:3]])
    return _pack(Category.HIGH_CARD, ranks_desc[:5])


def front_value(counts: dict[int, int]) -> int:
    """Value of a hand of at most four cards: sets and high cards only, no straights or flushes."""
    by_count = sorted(((c, r) for r, c in counts.items() if c), reverse=True)
    if not by_count:
        return 0
    top_count, top_rank = by_count[0]
    rest = sorted((r for r, c in counts.items() if c and r != top_rank), reverse=True)
    if top_count >= 4:
        return _pack(Category.FOUR_OF_A_KIND, [top_rank, *rest])
    if top_count == 3:
        return _pack(Category.THREE_OF_A_KIND, [top_rank, *rest])
    if top_count == 2 and len(by_count) > 1 and by_count[1][0] == 2:
        return _pack(Category.TWO_PAIR, [top_rank, by_count[1][1]])
    if top_count == 2:
        return _pack(Category.PAIR, [top_rank, *rest])
    return _pack(Category.HIGH_CARD, sorted((r for c, r in by_count), reverse=True))


def multiset_value(counts: dict[int, int], jokers: int, wheel_high: bool) -> int:
    """RANKS entry: the joker is a bug (an ace, or any rank that completes a straight; RULES B1, A8)."""
    total = sum(counts.values()) + jokers
    as_ace = dict(counts)
    as_ace[14] = as_ace.get(14, 0) + jokers
    if total < 5:
        return front_value(as_ace)
    best = natural_value(as_ace, wheel_high)
    if jokers and best < _pack(Category.STRAIGHT, [15]):
        present = _bits([r for r, c in counts.items() if c])
        best = max(best, _best_straight(present, Category.STRAIGHT, wheel_high, fillers=jokers))
    return best


def flush_value(mask: int, wheel_high: bool) -> int:
    """FLUSH entry: rank bits (bit i = rank i + 2) of one suit's cards, bit 13 = the bug is there."""
    jokers = mask >> 13
    present = {i + 2 for i in range(13) if mask >> i & 1}
    if len(present) + jokers < 5:
        return 0
    best = _best_straight(_bits(present), Category.STRAIGHT_FLUSH, wheel_high, fillers=jokers)
    if best:
        return best
    if jokers:  # the bug completes the flush as the highest rank the suit is missing
        present = present | {max(set(range(2, 15)) - present)}
    return _pack(Category.FLUSH, sorted(present, reverse=True)[:5])


@dataclass(frozen=True)
class Tables:
    """Every table one ranking needs (see the module docs)."""

    card_key: I64  # (53,) key per card id
    low: I32  # (LOW_SPAN,) partial index of the low-rank digits
    high: I32  # (HIGH_SPAN,) partial index of the high-rank digits and the joker
    ranks: I32  # value per rank multiset, flushes ignored
    flush: I32  # (16384,) best flush / straight flush per suit mask (+ joker bit 13)
    flush_suit: npt.NDArray[np.int8]  # (8192,) suit with >= 5 cards (joker counted) or -1
    card_bit: I32  # (53,) rank bit per card id; the joker has bit 13
    card_suit: npt.NDArray[np.int8]  # (53,) suit per card id; -1 for the joker
    wheel_high: bool


def _digit_multisets(digits: int, joker_digit: bool) -> list[tuple[int, tuple[int, ...], int]]:
    """(key, counts, total) for every digit vector with counts <= 4 and total <= 7."""
    out = []
    for counts in itertools.product(range(5), repeat=digits):
        total = sum(counts)
        if total > MAX_CARDS:
            continue
        key = sum(c * 5**i for i, c in enumerate(counts))
        out.append((key, counts, total))
        if joker_digit and total < MAX_CARDS:
            out.append((key + JOKER_HIGH, (*counts, 1), total + 1))
    return out


@cache
def tables(wheel_high: bool) -> Tables:
    """The tables for one straight order: ``wheel_high`` ranks A-2-3-4-5 second (pai gow, RULES A8)."""
    lows = sorted(_digit_multisets(LOW_RANKS, False), key=lambda t: (t[2], t[0]))
    highs = sorted(_digit_multisets(HIGH_RANKS, True), key=lambda t: (t[2], t[0]))
    high_index = np.zeros(HIGH_SPAN, dtype=np.int32)
    highs_up_to = [0] * (MAX_CARDS + 1)  # how many high multisets have total <= n
    for position, (key, _, total) in enumerate(highs):
        high_index[key] = position
        for n in range(total, MAX_CARDS + 1):
            highs_up_to[n] = max(highs_up_to[n], position + 1)
    low_index = np.zeros(LOW_SPAN, dtype=np.int32)
    values: list[int] = []
    for key, low_counts, low_total in lows:
        low_index[key] = len(values)
        room = highs_up_to[MAX_CARDS - low_total]
        for _, high_counts, _ in highs[:room]:
            counts = {i + 2: c for i, c in enumerate(low_counts) if c}
            counts |= {i + 9: c for i, c in enumerate(high_counts[:HIGH_RANKS]) if c}
            jokers = high_counts[HIGH_RANKS] if len(high_counts) > HIGH_RANKS else 0
            values.append(multiset_value(counts, jokers, wheel_high))
    flush = np.array([flush_value(mask, wheel_high) for mask in range(1 << 14)], dtype=np.int32)
    flush_suit = np.full(8192, -1, dtype=np.int8)
    for field in range(4096):
        for jokers in (0, 1):
            for s in range(4):
                if (field >> (3 * s)) & 7 and ((field >> (3 * s)) & 7) + jokers >= 5:
                    flush_suit[field | jokers << 12] = s
    keys = card_keys()
    return Tables(
        card_key=np.array(keys, dtype=np.int64),
        low=low_index,
        high=high_index,
        ranks=np.array(values, dtype=np.int32),
        flush=flush,
        flush_suit=flush_suit,
        card_bit=np.array([1 << (c // 4) for c in range(52)] + [1 << 13], dtype=np.int32),
        card_suit=np.array([c % 4 for c in range(52)] + [-1], dtype=np.int8),
        wheel_high=wheel_high,
    )
