"""Hand values: one comparable integer per hand, whatever the game.

A value packs a category and up to five tie-break ranks into an ``int``::

    bits 20..23  category (0 high card ... 9 five of a kind)
    bits 16..19  first tie-break rank (2..14, ace = 14; 1 = an ace played low)
    bits 12..15  second ... bits 0..3 fifth (0 = no card there, e.g. a two-card front)

Bigger is better, so hands compare with ``<`` / ``==`` and a showdown is ``max``. Suits never
count (RULES B1), so equal values are split pots and pai gow "copies".

>>> v = HandValue.make(Category.FULL_HOUSE, 12, 9)
>>> v.category.label, v.ranks, str(v)
('full house', (12, 9), 'full house, queens full of nines')
>>> HandValue.make(Category.STRAIGHT, 5, 4, 3, 2, 1) < HandValue.make(Category.STRAIGHT, 6, 5, 4, 3, 2)
True
"""

from __future__ import annotations

import enum

__all__ = ["Category", "HandValue", "category_of", "RANK_NAMES"]


class Category(enum.IntEnum):
    """Poker hand categories, lowest first (RULES B1)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


RANK_NAMES = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
              9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}
_PLURAL = {r: ("sixes" if r == 6 else n + "s") for r, n in RANK_NAMES.items()}
_SHORT = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"} | {r: str(r) for r in range(2, 10)}


def category_of(value: int) -> Category:
    return Category(value >> 20)


class HandValue(int):
    """An ``int`` hand value with readable parts (see the module docs for the packing)."""

    __slots__ = ()

    @classmethod
    def make(cls, category: Category | int, *ranks: int) -> HandValue:
        if len(ranks) > 5 or any(not 0 <= r <= 14 for r in ranks):
            raise ValueError(f"a hand value has at most five ranks in 0..14, got {ranks}")
        value = int(category) << 20
        for i, rank in enumerate(ranks):
            value |= rank << (16 - 4 * i)
        return cls(value)

    @property
    def category(self) -> Category:
        return Category(int(self) >> 20)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The tie-break ranks, most significant first, without trailing blanks."""
        digits = [(int(self) >> (16 - 4 * i)) & 15 for i in range(5)]
        while digits and digits[-1] == 0:
            digits.pop()
        return tuple(digits)

    @property
    def is_royal(self) -> bool:
        return self.category is Category.STRAIGHT_FLUSH and self.ranks[:2] == (14, 13)

    def __str__(self) -> str:
        cat, r = self.category, self.ranks
        if self.is_royal:
            return "royal flush"
        if cat is Category.FIVE_OF_A_KIND:
            return f"five {_PLURAL[r[0]]}"
        if cat is Category.FOUR_OF_A_KIND:
            return f"four {_PLURAL[r[0]]}"
        if cat is Category.FULL_HOUSE:
            return f"full house, {_PLURAL[r[0]]} full of {_PLURAL[r[1]]}"
        if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            cards = "-".join(_SHORT[x] for x in r)
            return f"{cat.label}, {cards}"
        if cat is Category.THREE_OF_A_KIND:
            return f"three {_PLURAL[r[0]]}"
        if cat is Category.TWO_PAIR:
            return f"two pair, {_PLURAL[r[0]]} and {_PLURAL[r[1]]}"
        if cat is Category.PAIR:
            return f"pair of {_PLURAL[r[0]]}"
        if cat is Category.FLUSH:
            return f"flush, {RANK_NAMES[r[0]]} high"
        return f"{RANK_NAMES[r[0]]} high" if r else "no cards"

    def __repr__(self) -> str:
        return f"HandValue({int(self)}: {self})"
