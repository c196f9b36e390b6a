"""Exact caribbean stud house edge with the optimal fold/call decision (RULES A10).

The player sees his five cards and the dealer's up card and calls exactly when the call's expected
result beats folding (−1 ante). Counting the dealer's 163,185 possible hole-card sets for each of
the ~122 million (hand, up card) pairs by brute force is ~2·10¹³ evaluations, so the count is done
by **inclusion–exclusion on card removal**: for a fixed up card ``u`` every dealer hand is ``u``
plus four of the other 51 cards; the dealer hands that avoid the player's five cards ``P`` and have
a value below ``x`` number

    Σ_{S ⊆ P, |S| ≤ 4} (−1)^|S| · #{dealer hands ⊇ S with value < x}

and the inner counts are read from tables built once per up card (cumulative class counts for
|S| ≤ 2, sorted keys for |S| = 3, the single hand for |S| = 4). Player hands are folded by suit
symmetry (the up card is fixed a spade, the three other suits permuted) and up cards by their rank.
Everything is integer arithmetic: the result is exact.

:func:`call_counts` is the plain brute force for one hand (used by the game's strategy and to check
the tables).

>>> c = call_counts("AS AD 7C 4H 2S", "KH")
>>> c.total, c.no_qualify + c.wins + c.ties + c.losses
(163185, 163185)
>>> c.should_call(2, DEFAULT_PAYTABLE)
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer.core.analysis.caribbean_paytable import (
    CLASSES,
    DEFAULT_PAYTABLE,
    QUALIFY,
    Paytable,
    hand_class,
)
from dealer.core.cards import Card
from dealer.core.evaluation import Ranking, card_id, evaluate_batch, to_cards

__all__ = ["CallCounts", "analyze", "call_counts", "combinations_array"]

I64 = npt.NDArray[np.int64]
DEALER_HOLE = comb(46, 4)  # 163,185 hole-card sets once 5 + 1 cards are known
ProgressFn = Callable[[int, int], None]


def combinations_array(n: int, k: int) -> npt.NDArray[np.uint8]:
    """Every k-subset of range(n), lexicographic, as an (C(n,k), k) array."""
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)),
                       dtype=np.uint8, count=comb(n, k) * k)
    return flat.reshape(-1, k)


@cache
def _binom() -> I64:
    table = np.zeros((53, 6), dtype=np.int64)
    for n in range(53):
        for k in range(6):
            table[n, k] = comb(n, k)
    return table


def _colex(cols: npt.NDArray[np.integer]) -> I64:
    """Colex index of rows of increasing local card numbers: Σ C(c_i, i+1)."""
    b = _binom()
    out = np.zeros(cols.shape[0], dtype=np.int64)
    for i in range(cols.shape[1]):
        out += b[cols[:, i].astype(np.int64), i + 1]
    return out


@cache
def _classes() -> npt.NDArray[np.int32]:
    """The 7,462 distinct five-card values (standard ranking), ascending."""
    ids = combinations_array(52, 5)
    return np.unique(evaluate_batch(ids, Ranking.STANDARD, check=False))


def _class_of(values: npt.NDArray[np.int32]) -> I64:
    return np.searchsorted(_classes(), values).astype(np.int64)


@dataclass(frozen=True)
class CallCounts:
    """The dealer's hole-card sets for one (hand, up card), by what a call would meet."""

    value: int
    no_qualify: int
    wins: int
    ties: int
    losses: int

    @property
    def total(self) -> int:
        return self.no_qualify + self.wins + self.ties + self.losses

    def call_ev(self, call_multiple: int, paytable: Paytable) -> Fraction:
        """Expected result of calling, per chip of ante."""
        pay = paytable.ratio(hand_class(self.value)).fraction if self.wins else Fraction(0)
        total = (self.no_qualify + self.wins * (1 + call_multiple * pay)
                 - self.losses * (1 + call_multiple))
        return Fraction(total) / self.total

    def should_call(self, call_multiple: int, paytable: Paytable) -> bool:
        """Optimal play: call when the call's expectation beats folding (−1 ante)."""
        return self.call_ev(call_multiple, paytable) > -1


def call_counts(hand: Iterable[Card | str] | str, upcard: Card | str) -> CallCounts:
    """Brute force over every dealer hole-card set (163,185 batch evaluations)."""
    cards = to_cards(hand)
    up = to_cards([upcard])[0]
    known = [card_id(c) for c in cards] + [card_id(up)]
    if len(cards) != 5 or len(set(known)) != 6 or max(known) > 51:
        raise ValueError("a caribbean stud hand is five distinct cards plus a different dealer up card")
    rest = np.array(sorted(set(range(52)) - set(known)), dtype=np.uint8)
    holes = rest[combinations_array(46, 4)]
    dealer = np.concatenate([holes, np.full((holes.shape[0], 1), card_id(up), dtype=np.uint8)], axis=1)
    values = evaluate_batch(dealer, Ranking.STANDARD, check=False)
    mine = int(evaluate_batch(np.array([known[:5]], dtype=np.uint8), check=False)[0])
    qualifies = values >= QUALIFY
    return CallCounts(mine, int((~qualifies).sum()), int((qualifies & (values < mine)).sum()),
                      int((qualifies & (values == mine)).sum()), int((qualifies & (values > mine)).sum()))


class _UpcardTables:
    """Dealer-hand counts for one up card, by the cards they contain (see the module docs)."""

    def __init__(self, upcard: int, quads: npt.NDArray[np.uint8]) -> None:
        self.upcard = upcard
        self.others = np.array([c for c in range(52) if c != upcard], dtype=np.uint8)
        hands = np.concatenate([self.others[quads], np.full((quads.shape[0], 1), upcard, np.uint8)], axis=1)
        cls = _class_of(evaluate_batch(hands, Ranking.STANDARD, check=False))
        self.n = n = len(_classes()) + 1  # thresholds 0..7462
        nc = n - 1
        self.cum0 = np.concatenate([[0], np.cumsum(np.bincount(cls, minlength=nc))]).astype(np.int64)
        cum1 = np.zeros((51, n), dtype=np.int32)
        hist1 = np.zeros(51 * nc, dtype=np.int64)
        for i in range(4):
            hist1 += np.bincount(quads[:, i].astype(np.int64) * nc + cls, minlength=51 * nc)
        cum1[:, 1:] = np.cumsum(hist1.reshape(51, nc), axis=1)
        self.cum1 = cum1
        pairs = list(itertools.combinations(range(4), 2))
        hist2 = np.zeros(comb(51, 2) * nc, dtype=np.int64)
        for a, b in pairs:
            g = _colex(quads[:, [a, b]])
            hist2 += np.bincount(g * nc + cls, minlength=comb(51, 2) * nc)
        cum2 = np.zeros((comb(51, 2), n), dtype=np.int32)
        cum2[:, 1:] = np.cumsum(hist2.reshape(-1, nc), axis=1)
        self.cum2 = cum2
        keys = [_colex(quads[:, list(t)]) * 8192 + cls for t in itertools.combinations(range(4), 3)]
        self.keys3 = np.sort(np.concatenate(keys))
        self.start3 = np.searchsorted(self.keys3, np.arange(comb(51, 3), dtype=np.int64) * 8192)
        self.cls4 = np.empty(comb(51, 4), dtype=np.int64)
        self.cls4[_colex(quads)] = cls

    def counts(self, local: npt.NDArray[np.uint8], mine: I64, qualify: np.int64) -> tuple[I64, I64, I64, I64]:
        """(no-qualify, wins, ties, losses) among the dealer hands avoiding each row's cards, for a
        player hand of class ``mine`` (a player below ace-king cannot beat a qualifying dealer)."""
        no_q = self.below(local, np.full(local.shape[0], qualify, dtype=np.int64))
        lt = self.below(local, mine)
        le = self.below(local, mine + 1)
        above = mine >= qualify
        wins = np.where(above, lt - no_q, 0)
        ties = np.where(above, le - lt, 0)
        return no_q, wins, ties, DEALER_HOLE - no_q - wins - ties

    def below(self, local: npt.NDArray[np.uint8], x: I64) -> I64:
        """Dealer hands avoiding every card of each row of ``local`` (5 local card numbers, increasing)
        whose class is below ``x`` (per row)."""
        out = self.cum0[x].copy()
        for k in range(1, 5):
            sign = -1 if k % 2 else 1
            for subset in itertools.combinations(range(5), k):
                cols = local[:, list(subset)]
                if k == 1:
                    part = self.cum1[cols[:, 0].astype(np.int64), x]
                elif k == 2:
                    part = self.cum2[_colex(cols), x]
                elif k == 3:
                    g = _colex(cols)
                    part = np.searchsorted(self.keys3, g * 8192 + x) - self.start3[g]
                else:
                    part = (self.cls4[_colex(cols)] < x).astype(np.int64)
                out += sign * part.astype(np.int64)
        return out


def _canonical_hands(upcard: int, fives: npt.NDArray[np.uint8], others: npt.NDArray[np.uint8]
                     ) -> tuple[npt.NDArray[np.uint8], I64]:
    """One player hand per class of the suit permutations that fix the up card's suit, with weights."""
    up_suit = upcard % 4
    bits = np.left_shift(1, others.astype(np.int64) // 4)
    masks = [np.where(others % 4 == s, bits, 0)[fives].sum(axis=1) for s in range(4)]
    rest = np.sort(np.stack([masks[s] for s in range(4) if s != up_suit], axis=1), axis=1)
    key = masks[up_suit] << 39 | rest[:, 2] << 26 | rest[:, 1] << 13 | rest[:, 0]
    _, first, weight = np.unique(key, return_index=True, return_counts=True)
    return fives[first], weight.astype(np.int64)


def analyze(call_multiple: int = 2, paytable: Paytable = DEFAULT_PAYTABLE,
            progress: ProgressFn | None = None) -> dict[str, Any]:
    """The exact house edge per unit ante with optimal play (see the module docs); ~1 minute."""
    if call_multiple < 1:
        raise ValueError(f"the call bet is a whole multiple of the ante (>= 1), not {call_multiple}")
    scale = lcm(*(r.stake for r in paytable.ratios.values()))
    classes = _classes()
    pay_of_class = np.array([int(paytable.ratio(hand_class(int(v))).fraction * scale)
                             if v >= QUALIFY else 0 for v in classes], dtype=np.int64)
    qualify = np.int64(np.searchsorted(classes, QUALIFY))
    quads = combinations_array(51, 4)
    fives = combinations_array(51, 5)
    ev_total = 0  # Σ over (hand, up card) of EV × DEALER_HOLE × scale, exact
    calls = 0
    pairs = 0
    by_class = {c: {"hands": 0, "called": 0} for c in (*CLASSES, "no-qualify")}
    for step, rank in enumerate(range(13)):
        upcard = 4 * rank + 3  # a spade; the other suits give the same sums
        tables = _UpcardTables(upcard, quads)
        reps, weight = _canonical_hands(upcard, fives, tables.others)
        mine = _class_of(evaluate_batch(tables.others[reps], Ranking.STANDARD, check=False))
        no_q, wins, ties, losses = tables.counts(reps, mine, qualify)
        pay = pay_of_class[mine]
        call = no_q * scale + wins * (scale + call_multiple * pay) - losses * (scale + call_multiple * scale)
        fold = -DEALER_HOLE * scale
        calling = call > fold
        ev_total += 4 * int((np.where(calling, call, fold) * weight).sum())
        calls += 4 * int(weight[calling].sum())
        pairs += 4 * int(weight.sum())
        names = np.array([hand_class(int(v)) for v in classes])[mine]
        for name in by_class:
            sel = names == name
            by_class[name]["hands"] += 4 * int(weight[sel].sum())
            by_class[name]["called"] += 4 * int(weight[sel & calling].sum())
        if progress is not None:
            progress(step + 1, 13)
    ev = Fraction(ev_total, pairs * DEALER_HOLE * scale)
    p_call = Fraction(calls, pairs)
    wager = 1 + call_multiple * p_call
    return {
        "game": "caribbean-stud", "method": "exact (inclusion-exclusion over card removal)",
        "call_multiple": call_multiple, "paytable": paytable.to_json(),
        "pairs": pairs, "dealer_hole_sets": DEALER_HOLE,
        "expected_result_per_ante": float(ev), "house_edge": float(-ev),
        "house_edge_fraction": str(-ev), "call_probability": float(p_call),
        "average_wager_per_ante": float(wager), "element_of_risk": float(-ev / wager),
        "call_rate_by_class": {k: round(v["called"] / v["hands"], 6) if v["hands"] else None
                               for k, v in by_class.items()},
    }
