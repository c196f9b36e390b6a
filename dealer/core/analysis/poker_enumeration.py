"""Hand-category counts by full enumeration: every 5-card hand (2,598,960) or 7-card hand (133,784,560).

The 7-card pass walks the hands as "two lowest cards + five higher cards": the five-card suffixes
come from one lexicographic list of all five-card combinations, whose keys are summed once, so
each hand costs one addition and three table reads (see :mod:`dealer.core.evaluation.tables`).

>>> counts = five_card_counts()
>>> counts["royal flush"], counts["straight flush"], counts["no pair"]
(4, 36, 1302540)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from math import comb

import numpy as np
import numpy.typing as npt

from dealer.core.evaluation import Ranking, categories, evaluate_batch
from dealer.core.evaluation.tables import HIGH_SHIFT, SUIT_SHIFT

Progress = Callable[[int, int], None]

# Category labels as RULES B2 names them (straight flush and flush exclude the higher hands).
LABELS = ("no pair", "one pair", "two pairs", "three of a kind", "straight", "flush", "full house",
          "four of a kind", "straight flush", "five of a kind")
ROYAL = "royal flush"


def all_combinations(cards: int, size: int) -> npt.NDArray[np.uint8]:
    """Every ``size``-subset of ``range(cards)`` in lexicographic order, as rows."""
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(cards), size)),
                       dtype=np.uint8, count=comb(cards, size) * size)
    return flat.reshape(-1, size)


def _labelled(counts: npt.NDArray[np.int64], royals: int) -> dict[str, int]:
    out = {ROYAL: royals}
    for category in range(9, -1, -1):
        ways = int(counts[category]) - (royals if category == 8 else 0)
        if category == 9 and ways == 0:
            continue
        out[LABELS[category]] = ways
    return out


def _royals(values: npt.NDArray[np.int32]) -> int:
    return int(np.count_nonzero((values >> 16) == (8 << 4 | 14)))


def five_card_counts(ranking: Ranking = Ranking.STANDARD) -> dict[str, int]:
    """Counts by category over all C(52,5) hands, royal flushes apart (RULES B2)."""
    values = evaluate_batch(all_combinations(52, 5), ranking, check=False)
    return _labelled(np.bincount(categories(values), minlength=10), _royals(values))


def seven_card_counts(progress: Progress | None = None) -> dict[str, int]:
    """Counts of the best five-card category over all C(52,7) seven-card hands."""
    t = Ranking.STANDARD.tables()
    fives = all_combinations(52, 5)
    key5 = t.card_key[fives].sum(axis=1)
    suit_bits = np.zeros(fives.shape[0], dtype=np.int64)  # 16 bits of rank bits per suit
    for column in range(5):
        ids = fives[:, column].astype(np.int64)
        suit_bits |= np.int64(1) << ((ids % 4) * 16 + ids // 4)
    first = fives[:, 0]
    starts = np.searchsorted(first, np.arange(53))
    counts = np.zeros(10, dtype=np.int64)
    royals = 0
    pairs = [(a, b) for a in range(52) for b in range(a + 1, 52)]
    for done, (a, b) in enumerate(pairs, 1):
        start = int(starts[b + 1]) if b + 1 < 52 else fives.shape[0]
        if start < fives.shape[0]:
            key = key5[start:] + (t.card_key[a] + t.card_key[b])
            values = t.ranks[t.low[key & 0x1FFFF] + t.high[(key >> HIGH_SHIFT) & 0x7FFF]]
            suits = t.flush_suit[key >> SUIT_SHIFT]
            rows = np.flatnonzero(suits >= 0)
            if rows.size:
                bits = suit_bits[start:][rows] | (np.int64(1) << ((a % 4) * 16 + a // 4)) \
                    | (np.int64(1) << ((b % 4) * 16 + b // 4))
                masks = (bits >> (suits[rows].astype(np.int64) * 16)) & 0x1FFF
                values[rows] = np.maximum(values[rows], t.flush[masks])
            counts += np.bincount(values >> 20, minlength=10)
            royals += _royals(values)
        if progress is not None and (done % 25 == 0 or done == len(pairs)):
            progress(done, len(pairs))
    return _labelled(counts, royals)


def category_table(cards: int, progress: Progress | None = None) -> dict[str, object]:
    """``dealer analyze poker`` output: ways, probability and "1 in N" per category."""
    if cards == 5:
        counts = five_card_counts()
    elif cards == 7:
        counts = seven_card_counts(progress)
    else:
        raise ValueError(f"full enumeration is for 5 or 7 cards, not {cards}")
    total = comb(52, cards)
    assert sum(counts.values()) == total
    return {
        "cards": cards,
        "hands": total,
        "method": "full enumeration",
        "categories": {name: {"ways": ways, "probability": ways / total,
                              "one_in": round(total / ways, 2) if ways else None}
                       for name, ways in counts.items()},
    }
