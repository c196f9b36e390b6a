"""Paytable evaluation, vectorised: one spin or every stop combination with the same code.

For each pay rule and reel position there are two small tables over the title's symbols:
``natural`` (the symbol itself satisfies the position) and ``wild`` (a wild stands in for it: its
multiplier, else 0). A line rule pays ``pay x (prod(natural + wild) - prod(wild))`` over its
non-``*`` positions: the product is the wild multipliers used (2 x 2 = 4 for two 2x wilds), and the
subtracted term refuses a line made only of stand-ins (three wilds pay their own entry, never a
multiplied top award). A count rule pays when at least ``n`` real symbols show. Each line pays its
highest rule only; ties go to the rule listed first.

>>> from dealer.core.slots.title import title_from_mapping
>>> t = title_from_mapping({"title": {"name": "T", "max_coins": 1},
...     "reels": [{"stops": "7 B - W"}] * 3, "wilds": [{"symbol": "W", "multiplier": 2}],
...     "paytables": [{"name": "P", "pays": [{"line": "7 7 7", "pays": [100]},
...                                          {"line": "W W W", "pays": [500]}]}]})
>>> ev = Evaluator(t)
>>> [ev.window_pays((a, b, c), 1)[0].pay for a, b, c in [(0, 0, 0), (0, 3, 0), (3, 3, 0), (3, 3, 3)]]
[100, 200, 400, 500]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dealer.core.slots.title import ANY, BLANK, CountRule, LineRule, Paytable, Title

__all__ = ["Enumeration", "Evaluator", "LineWin"]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class LineWin:
    """What one payline shows and pays."""

    line: int  # 0 = centre line
    symbols: tuple[str, ...]
    pay: int  # credits, wild multipliers included
    rule: int  # index in the paytable, -1 when nothing pays
    label: str
    multiplier: int
    wild_positions: tuple[int, ...]  # reels where a wild stood in for the winning symbol


@dataclass(frozen=True)
class Enumeration:
    """Every stop combination of the three reels: its line pay and its probability weight."""

    pay: IntArray  # shape (n1, n2, n3): credits over the played lines
    weight: IntArray  # shape (n1, n2, n3): product of the virtual-reel weights
    rule_weight: IntArray  # per rule (+1 for "no win"): summed weight of lines it won
    rule_pay: IntArray  # per rule: summed pay x weight
    total_weight: int


class Evaluator:
    """Evaluates spins of one title under one paytable."""

    def __init__(self, title: Title, paytable: str | None = None) -> None:
        self.title = title
        self.table: Paytable = title.paytable(paytable)
        self.symbols = title.symbols
        self.index = {s: i for i, s in enumerate(self.symbols)}
        self.strips = tuple(
            np.array([self.index[s] for s in reel.stops], dtype=np.int64) for reel in title.reels
        )
        self.weights = tuple(
            np.array([reel.weight(i) for i in range(reel.size)], dtype=np.int64) for reel in title.reels
        )
        # natural[r][k], wild[r][k]: tables over symbols for rule r, reel k
        self._natural: list[list[IntArray]] = []
        self._wild: list[list[IntArray]] = []
        self._star: list[tuple[bool, ...]] = []
        for rule in self.table.rules:
            if isinstance(rule, LineRule):
                self._natural.append([self._natural_table(m) for m in rule.pattern])
                self._wild.append([self._wild_table(m) for m in rule.pattern])
                self._star.append(tuple(m == ANY for m in rule.pattern))
            else:
                self._natural.append([self._natural_table(rule.symbol)] * 3)
                self._wild.append([np.zeros(len(self.symbols), dtype=np.int64)] * 3)
                self._star.append((False, False, False))

    def _members(self, matcher: str) -> frozenset[str]:
        if matcher == ANY:
            return frozenset(self.symbols)
        return self.title.groups.get(matcher, frozenset({matcher}))

    def _natural_table(self, matcher: str) -> IntArray:
        members = self._members(matcher)
        return np.array([1 if s in members else 0 for s in self.symbols], dtype=np.int64)

    def _wild_table(self, matcher: str) -> IntArray:
        out = np.zeros(len(self.symbols), dtype=np.int64)
        if matcher in (ANY, BLANK):
            return out
        members = self._members(matcher)
        for wild in self.title.wilds:
            if wild.symbol not in members and any(wild.substitutes(m) for m in members):
                out[self.index[wild.symbol]] = wild.multiplier
        return out

    # --- the one evaluation routine -------------------------------------------------------------

    def _rule_values(self, r: int, syms: tuple[IntArray, IntArray, IntArray], coins: int) -> IntArray:
        """Pay of rule ``r`` for symbol arrays already shaped to broadcast against each other."""
        rule = self.table.rules[r]
        pay = rule.pays[coins - 1]
        nat = [self._natural[r][k][syms[k]] for k in range(3)]
        if isinstance(rule, CountRule):
            hit: IntArray = (nat[0] + nat[1] + nat[2] >= rule.n).astype(np.int64)
            return pay * hit
        wild = [self._wild[r][k][syms[k]] for k in range(3)]
        both: IntArray | int = 1
        only_wild: IntArray | int = 1
        stars: IntArray | int = 1
        for k in range(3):
            if self._star[r][k]:
                stars = stars * nat[k]
            else:
                both = both * (nat[k] + wild[k])
                only_wild = only_wild * wild[k]
        return np.asarray(pay * (both - only_wild) * stars, dtype=np.int64)

    def best(self, syms: tuple[IntArray, IntArray, IntArray], coins: int) -> tuple[IntArray, IntArray]:
        """Highest pay over the rules and the winning rule (-1 for none), broadcast over ``syms``."""
        shape = np.broadcast_shapes(*(s.shape for s in syms))
        best = np.zeros(shape, dtype=np.int64)
        which = np.full(shape, -1, dtype=np.int64)
        for r in range(len(self.table.rules)):
            value = self._rule_values(r, syms, coins)
            better = value > best
            best = np.where(better, value, best)
            which = np.where(better, r, which)
        return best, which

    # --- one spin -------------------------------------------------------------------------------

    def line_symbols(self, stops: tuple[int, ...], line: int) -> tuple[str, ...]:
        offsets = self.title.paylines[line]
        return tuple(
            reel.symbol_at(stop, off)
            for reel, stop, off in zip(self.title.reels, stops, offsets, strict=True)
        )

    def window_pays(self, stops: tuple[int, ...], coins: int, lines: int = 1) -> list[LineWin]:
        """What each of the first ``lines`` paylines pays for reels stopped at ``stops``."""
        wins = []
        for line in range(lines):
            symbols = self.line_symbols(stops, line)
            syms = tuple(np.array([self.index[s]], dtype=np.int64) for s in symbols)
            best, which = self.best((syms[0], syms[1], syms[2]), coins)
            pay, rule = int(best[0]), int(which[0])
            if rule < 0:
                wins.append(LineWin(line, symbols, 0, -1, "", 1, ()))
                continue
            wild_pos = tuple(
                k for k in range(3) if not self._star[rule][k] and int(self._wild[rule][k][syms[k][0]]) > 0
            )
            base = self.table.rules[rule].pays[coins - 1]
            mult = pay // base if base else 1
            wins.append(LineWin(line, symbols, pay, rule, self.table.rules[rule].label, mult, wild_pos))
        return wins

    # --- every combination ----------------------------------------------------------------------

    def enumerate(self, coins: int, lines: int = 1) -> Enumeration:
        """Line pay and weight of every stop combination (``coins`` per line on ``lines`` lines)."""
        n = [len(s) for s in self.strips]
        w = self.weights
        weight = w[0][:, None, None] * w[1][None, :, None] * w[2][None, None, :]
        total = np.zeros((n[0], n[1], n[2]), dtype=np.int64)
        rules = len(self.table.rules)
        rule_weight = np.zeros(rules + 1, dtype=np.int64)
        rule_pay = np.zeros(rules + 1, dtype=np.int64)
        for line in range(lines):
            offsets = self.title.paylines[line]
            rolled = [np.roll(self.strips[k], -offsets[k]) for k in range(3)]
            syms = (rolled[0][:, None, None], rolled[1][None, :, None], rolled[2][None, None, :])
            best, which = self.best(syms, coins)
            total += best
            rule_weight += _weighted_count(which + 1, weight, rules + 1)
            rule_pay += _weighted_count(which + 1, weight * best, rules + 1)
        return Enumeration(total, weight, rule_weight, rule_pay, int(weight.sum()))

    def payline_symbols(self) -> tuple[IntArray, IntArray, IntArray]:
        """The centre-line symbol index of every stop, shaped to broadcast to (n1, n2, n3)."""
        s = self.strips
        return s[0][:, None, None], s[1][None, :, None], s[2][None, None, :]


def _weighted_count(keys: IntArray, weight: IntArray, size: int) -> IntArray:
    """Exact integer sum of ``weight`` per key in ``range(size)`` (no float rounding)."""
    return np.array([int(weight[keys == k].sum()) for k in range(size)], dtype=np.int64)
