"""Let it ride: the paytable, the optimal pull/ride strategy and the exact house edge (RULES A11).

Every bet still in action is paid at the same ratio by the final five-card hand, so each of the
two withdrawable bets is decided on its own: ride bet 1 when the average result over every final
hand that completes the three cards is positive, ride bet 2 likewise for the four cards seen (the
player's three and the first community card). The 2,598,960 final hands are enumerated once; the
sums for every three- and four-card set come from them (each five-card hand adds its result to its
ten 3-subsets and five 4-subsets). All sums are integers, so the house edge is an exact fraction.

The chart was lost from the seed; the default paytable is the standard one [STD] (0.1 item 7).

>>> pt = DEFAULT_PAYTABLE
>>> from dealer.core.evaluation import evaluate
>>> pt.line(evaluate("10S 10D 4C 7H 2S")), pt.line(evaluate("9S 9D 4C 7H 2S"))
('tens-or-better', 'lose')
>>> s = strategy()
>>> s.ride_first("AS KS QS"), s.ride_first("9C 5D 2H")
(True, False)
>>> s.ride_second("JS 10S 9S 8S"), s.ride_second("JS 10S 4D 2C")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb, lcm
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer.core.analysis.caribbean_analysis import _colex, combinations_array
from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import Ranking, card_id, evaluate_batch, to_cards
from dealer.core.evaluation.values import Category, HandValue
from dealer.core.money import Ratio

__all__ = ["DEFAULT_PAYTABLE", "LINES", "Paytable", "Strategy", "analyze", "strategy"]

LINES = ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush", "straight",
         "three-of-a-kind", "two-pair", "tens-or-better")
_BY_CATEGORY = {Category.STRAIGHT_FLUSH: "straight-flush", Category.FOUR_OF_A_KIND: "four-of-a-kind",
                Category.FULL_HOUSE: "full-house", Category.FLUSH: "flush", Category.STRAIGHT: "straight",
                Category.THREE_OF_A_KIND: "three-of-a-kind", Category.TWO_PAIR: "two-pair"}
_STANDARD = {"royal-flush": Ratio(1000, 1), "straight-flush": Ratio(200, 1), "four-of-a-kind": Ratio(50, 1),
             "full-house": Ratio(11, 1), "flush": Ratio(8, 1), "straight": Ratio(5, 1),
             "three-of-a-kind": Ratio(3, 1), "two-pair": Ratio(2, 1), "tens-or-better": Ratio(1, 1)}


@dataclass(frozen=True)
class Paytable:
    """Payout per bet in action by the final hand ([STD] defaults); below a pair of tens loses."""

    ratios: Mapping[str, Ratio] = field(default_factory=lambda: MappingProxyType(dict(_STANDARD)))

    def __post_init__(self) -> None:
        if sorted(self.ratios) != sorted(LINES):
            raise IllegalOperation(f"a let it ride paytable names exactly the lines {list(LINES)}")

    @classmethod
    def parse(cls, text: str) -> Paytable:
        """``"royal-flush=500:1,full-house=11:1"`` — lines not named keep the [STD] value."""
        ratios = dict(_STANDARD)
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, sep, ratio = part.partition("=")
            if not sep or name.strip() not in LINES:
                raise IllegalOperation(f"bad paytable entry {part!r}: expected LINE=WIN:STAKE with LINE "
                                       f"one of {', '.join(LINES)}")
            ratios[name.strip()] = Ratio.parse(ratio)
        return cls(MappingProxyType(ratios))

    def line(self, value: int) -> str:
        """The paytable line of a final hand, or ``lose``."""
        hv = HandValue(value)
        if hv.is_royal:
            return "royal-flush"
        if hv.category in _BY_CATEGORY:
            return _BY_CATEGORY[hv.category]
        if hv.category is Category.PAIR and hv.ranks[0] >= 10:
            return "tens-or-better"
        return "lose"

    def __hash__(self) -> int:
        return hash(tuple(sorted((name, str(r)) for name, r in self.ratios.items())))

    def __deepcopy__(self, memo: dict[int, object]) -> Paytable:
        return self  # immutable (a read-only mapping of frozen ratios): copies of a table share it

    def ratio(self, value: int) -> Ratio | None:
        line = self.line(value)
        return None if line == "lose" else self.ratios[line]

    def to_json(self) -> dict[str, str]:
        return {line: str(self.ratios[line]) for line in LINES}


DEFAULT_PAYTABLE = Paytable()


def _results(paytable: Paytable) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], int]:
    """Every five-card hand (lexicographic ids) and its result per bet × ``scale`` (an integer)."""
    hands = combinations_array(52, 5)
    values = evaluate_batch(hands, Ranking.STANDARD, check=False)
    scale = lcm(*(r.stake for r in paytable.ratios.values()))
    distinct, inverse = np.unique(values, return_inverse=True)
    per_value = []
    for v in distinct:
        ratio = paytable.ratio(int(v))
        per_value.append(-scale if ratio is None else int(ratio.fraction * scale))
    return hands, np.array(per_value, dtype=np.int64)[inverse], scale


@dataclass(frozen=True)
class Strategy:
    """Sums of results over the completions of every 3- and 4-card set (colex-indexed)."""

    sum3: npt.NDArray[np.int64]  # over the 1,176 completions of each three-card set
    sum4: npt.NDArray[np.int64]  # over the 48 completions of each four-card set
    scale: int

    def _index(self, cards: Iterable[Card | str] | str, size: int) -> int:
        ids = sorted(card_id(c) for c in to_cards(cards))
        if len(ids) != size or len(set(ids)) != size or ids[-1] > 51:
            raise IllegalOperation(f"expected {size} different cards of a 52-card pack")
        return int(_colex(np.array([ids], dtype=np.int64))[0])

    def first_ev(self, cards: Iterable[Card | str] | str) -> Fraction:
        """Expected result per chip of bet 1 (or any bet) given the player's three cards."""
        return Fraction(int(self.sum3[self._index(cards, 3)]), comb(49, 2) * self.scale)

    def second_ev(self, cards: Iterable[Card | str] | str) -> Fraction:
        """Expected result per chip of bet 2 given the three cards and the first community card."""
        return Fraction(int(self.sum4[self._index(cards, 4)]), 48 * self.scale)

    def ride_first(self, cards: Iterable[Card | str] | str) -> bool:
        return self.first_ev(cards) > 0

    def ride_second(self, cards: Iterable[Card | str] | str) -> bool:
        return self.second_ev(cards) > 0


def _build(paytable: Paytable) -> tuple[Strategy, int, int]:
    hands, result, scale = _results(paytable)
    sum3 = np.zeros(comb(52, 3), dtype=np.int64)
    sum4 = np.zeros(comb(52, 4), dtype=np.int64)
    for drop in range(5):
        keep = [i for i in range(5) if i != drop]
        sum4 += np.bincount(_colex(hands[:, keep]), weights=result, minlength=len(sum4)).astype(np.int64)
    for a in range(5):
        for b in range(a + 1, 5):
            keep = [i for i in range(5) if i not in (a, b)]
            sum3 += np.bincount(_colex(hands[:, keep]), weights=result, minlength=len(sum3)).astype(np.int64)
    return Strategy(sum3, sum4, scale), int(result.sum()), len(result)


@cache
def strategy(paytable: Paytable = DEFAULT_PAYTABLE) -> Strategy:
    """The optimal pull/ride strategy for ``paytable`` (built in about a second)."""
    return _build(paytable)[0]


def analyze(paytable: Paytable = DEFAULT_PAYTABLE) -> dict[str, Any]:
    """Exact expected results per unit bet with optimal play, by full enumeration."""
    s, total, hands = _build(paytable)
    n3, n4 = comb(49, 2), 48
    # Each bet's EV: bet 3 always rides; bets 1 and 2 ride only where their conditional EV is positive.
    bet3 = Fraction(total, hands * s.scale)
    # Every 3-card set is equally likely (and every 4-card set); the conditional EVs average over them.
    bet1 = Fraction(int(np.maximum(s.sum3, 0).sum()), len(s.sum3) * n3 * s.scale)
    bet2 = Fraction(int(np.maximum(s.sum4, 0).sum()), len(s.sum4) * n4 * s.scale)
    ride1 = Fraction(int((s.sum3 > 0).sum()), len(s.sum3))
    ride2 = Fraction(int((s.sum4 > 0).sum()), len(s.sum4))
    ev = bet1 + bet2 + bet3
    wager = 1 + ride1 + ride2
    return {
        "game": "let-it-ride", "method": "exact (full enumeration of 2,598,960 final hands)",
        "paytable": paytable.to_json(),
        "expected_result_per_unit": float(ev), "house_edge": float(-ev), "house_edge_fraction": str(-ev),
        "house_edge_note": "per unit of one bet (the third bet, which always rides)",
        "bet_ev": {"bet1": float(bet1), "bet2": float(bet2), "bet3": float(bet3)},
        "ride_probability": {"bet1": float(ride1), "bet2": float(ride2)},
        "average_units_in_action": float(wager), "element_of_risk": float(-ev / wager),
        "element_of_risk_note": "house edge over the average number of units left riding",
        "ride_sets": {"three_card": int((s.sum3 > 0).sum()), "four_card": int((s.sum4 > 0).sum())},
    }
