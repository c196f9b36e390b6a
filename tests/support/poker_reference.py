"""A deliberately plain, independent poker evaluator used only to check the fast one.

It works on (rank 2..14, suit) pairs, tries every five-card subset and compares tuples; it shares no
code or tables with :mod:`dealer.core.evaluation`.
"""

from __future__ import annotations

import itertools
from collections import Counter

Card = tuple[int, str]


def _straight_top(ranks: set[int], wheel_high: bool) -> tuple[int, ...] | None:
    for top in range(14, 5, -1):
        if set(range(top - 4, top + 1)) <= ranks:
            if wheel_high and top < 14 and {14, 2, 3, 4, 5} <= ranks:
                return (14, 5, 4, 3, 2)
            return tuple(range(top, top - 5, -1))
    if {14, 2, 3, 4, 5} <= ranks:
        return (14, 5, 4, 3, 2) if wheel_high else (5, 4, 3, 2, 1)
    return None


def five(cards: list[Card], wheel_high: bool = False) -> tuple[int, tuple[int, ...]]:
    ranks = [r for r, _ in cards]
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len({s for _, s in cards}) == 1
    straight = _straight_top(set(ranks), wheel_high) if len(counts) == 5 else None
    shape = [c for _, c in groups]
    order = tuple(r for r, _ in groups)
    if straight and flush:
        return 8, straight
    if shape == [4, 1]:
        return 7, order
    if shape == [3, 2]:
        return 6, order
    if flush:
        return 5, tuple(sorted(ranks, reverse=True))
    if straight:
        return 4, straight
    if shape[0] == 3:
        return 3, order
    if shape[:2] == [2, 2]:
        return 2, order
    if shape[0] == 2:
        return 1, order
    return 0, tuple(sorted(ranks, reverse=True))


def best(cards: list[Card], wheel_high: bool = False) -> tuple[int, tuple[int, ...]]:
    return max(five(list(c), wheel_high) for c in itertools.combinations(cards, 5))
