"""Vectorised blackjack simulation: the house edge of basic strategy, with a 95 % confidence interval.

Many independent shoes ("lanes") are played side by side with numpy: each lane holds its shoe's cards
and deals the next one by a lazy Fisher-Yates step (a uniform pick among the cards left) — exactly
the same as dealing the next card of a uniformly shuffled shoe. With a **cut card** each lane
deals until its cut card comes out, finishes the round and reshuffles (the cut card is placed by the
house rule, 60-75 cards from the end for six decks). With **continuous shuffle** every round is dealt
from a full shoe. One seat plays one unit per round with the basic-strategy table computed for the
rules (:mod:`dealer.core.analysis.blackjack_strategy`), splits to the rule's hand limit, and never
takes insurance.

>>> from dealer.core.games.blackjack import BlackjackRules
>>> result = simulate(BlackjackRules.parse("s17,das"), 20_000, seed=1)
>>> result.rounds, -0.05 < result.house_edge < 0.05
(20000, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer.core.analysis.blackjack_strategy import StrategyTable, strategy_for
from dealer.core.games.blackjack import BlackjackRules, DoubleOn
from dealer.core.rng import Rng

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]

H, S, P, D, DS, RH, RS, RP = range(8)
_CODE = {"H": H, "S": S, "P": P, "D": D, "Ds": DS, "Rh": RH, "Rs": RS, "Rp": RP}
_UP_INDEX = {1: 9, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}


@dataclass(frozen=True)
class SimResult:
    rules: str
    continuous: bool
    rounds: int
    mean: float  # the player's mean result per unit bet
    stdev: float
    seconds: float

    @property
    def house_edge(self) -> float:
        return -self.mean

    @property
    def ci95(self) -> tuple[float, float]:
        half = 1.96 * self.stdev / math.sqrt(self.rounds)
        return (self.house_edge - half, self.house_edge + half)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "shuffle": "continuous" if self.continuous else "cut-card",
                "rounds": self.rounds, "house_edge": self.house_edge, "ci95": list(self.ci95),
                "stdev_per_round": self.stdev, "seconds": round(self.seconds, 3),
                "rounds_per_second": round(self.rounds_per_second), "method": "vectorised numpy simulation, "
                "basic strategy for the rules, one seat, no insurance"}


def _tables(strategy: StrategyTable) -> tuple[Ints, Ints, Ints, Ints]:
    """Chart codes as arrays indexed [total or pair value, upcard index]."""
    hard = np.full((23, 10), S, dtype=np.int64)
    soft = np.full((23, 10), S, dtype=np.int64)
    pair = np.full((11, 10), H, dtype=np.int64)
    hs = np.full((23, 2, 10), S, dtype=np.int64)
    for up, ui in _UP_INDEX.items():
        for t in range(4, 22):
            hard[t, ui] = _CODE[strategy.hard[(t, up)]]
            hs[t, 0, ui] = _CODE[strategy.hit_stand[(t, False, up)]]
        for t in range(2, 4):
            hard[t, ui] = H
            hs[t, 0, ui] = H
        for t in range(12, 22):
            soft[t, ui] = _CODE[strategy.soft[(t, up)]]
            hs[t, 1, ui] = _CODE[strategy.hit_stand[(t, True, up)]]
        for v in range(1, 11):
            pair[v, ui] = _CODE[strategy.pair[(v, up)]]
    return hard, soft, pair, hs


class _Shoes:
    """One shoe per lane, dealt without replacement by a lazy Fisher-Yates shuffle.

    Each lane keeps all of its shoe's card values in one row; the ``left`` cards still in the shoe
    are the last ``left`` places of the row. Dealing swaps a uniformly chosen remaining card into
    the next place and deals it, which is exactly dealing the next card of a uniformly shuffled
    shoe. A shuffle only puts every card back (``left = total``): the row always holds the whole
    shoe, in whatever order. Dealing costs O(1) per lane that takes a card, so lanes that sit out a
    draw (most of them, late in a round) cost nothing.
    """

    def __init__(self, rules: BlackjackRules, lanes: int, gen: np.random.Generator, continuous: bool) -> None:
        self.full = np.array([4 * rules.decks] * 9 + [16 * rules.decks], dtype=np.int64)
        self.total = 52 * rules.decks
        self.lanes = lanes
        self.gen = gen
        self.continuous = continuous
        cut = rules.cut_rule()
        self.cut_min, self.cut_max = cut.min_behind, cut.max_behind
        one_shoe = np.repeat(np.arange(1, 11, dtype=np.int8), self.full)  # values 1 (ace) .. 10
        self.cards = np.tile(one_shoe, (lanes, 1))
        self.left = np.full(lanes, self.total, dtype=np.int64)
        self.cut_at = np.zeros(lanes, dtype=np.int64)
        self.shuffle(np.ones(lanes, dtype=bool))

    def shuffle(self, mask: Bools) -> None:
        self.left[mask] = self.total
        behind = self.gen.integers(self.cut_min, self.cut_max + 1, size=self.lanes)
        self.cut_at[mask] = behind[mask]

    def start_round(self) -> None:
        if self.continuous:
            self.shuffle(np.ones(self.lanes, dtype=bool))
        else:  # the cut card came out during the last round: shuffle before this one
            self.shuffle(self.left <= self.cut_at)

    def deal(self, lanes: Ints) -> Ints:
        """One card value (1 = ace .. 10) for each lane in ``lanes`` (distinct lane numbers)."""
        left = self.left[lanes]
        if (left == 0).any():  # a shoe ran dry mid-round (tiny shoes only): refill it
            empty = np.zeros(self.lanes, dtype=bool)
            empty[lanes[left == 0]] = True
            self.shuffle(empty)
            left = self.left[lanes]
        place = self.total - left  # the next place to deal from
        pick = place + self.gen.integers(0, left)  # a uniform choice among the cards left
        dealt = self.cards[lanes, pick]
        self.cards[lanes, pick] = self.cards[lanes, place]
        self.cards[lanes, place] = dealt
        self.left[lanes] = left - 1
        values: Ints = dealt.astype(np.int64)
        return values

    def draw(self, mask: Bools) -> Ints:
        """One card value for each lane in ``mask`` (0 elsewhere)."""
        out = np.zeros(self.lanes, dtype=np.int64)
        lanes = np.flatnonzero(mask)
        if lanes.size:
            out[lanes] = self.deal(lanes)
        return out


def _value(hard: Ints, ace: Bools) -> tuple[Ints, Bools]:
    soft = ace & (hard + 10 <= 21)
    return np.where(soft, hard + 10, hard), soft


def simulate(rules: BlackjackRules, rounds: int, *, continuous: bool = False, seed: int | None = None,
             lanes: int | None = None, progress: Callable[[int], Any] | None = None) -> SimResult:
    """Play ``rounds`` rounds of basic strategy; return the mean result and its spread."""
    if rounds <= 0:
        raise ValueError(f"rounds must be positive, not {rounds}")
    gen = (Rng.from_seed(seed) if seed is not None else Rng.system()).numpy()
    lanes = lanes or min(rounds, 50_000)
    strategy = strategy_for(rules)
    hard_t, soft_t, pair_t, hs_t = _tables(strategy)
    shoes = _Shoes(rules, lanes, gen, continuous)
    bj = rules.blackjack_pays.win / rules.blackjack_pays.stake
    allowed_double = np.array([rules.double_on.allows(t) for t in range(23)], dtype=bool)
    if rules.double_on is DoubleOn.ANY_TWO:
        allowed_double[:] = True
    started = time.perf_counter()
    total = 0.0
    total_sq = 0.0
    done_rounds = 0
    while done_rounds < rounds:
        result = _play_batch(rules, shoes, bj, allowed_double, hard_t, soft_t, pair_t, hs_t)
        take = min(lanes, rounds - done_rounds)
        part = result[:take]
        total += float(part.sum())
        total_sq += float((part * part).sum())
        done_rounds += take
        if progress is not None:
            progress(done_rounds)
    seconds = time.perf_counter() - started
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    return SimResult(rules.spec(), continuous, rounds, mean, math.sqrt(var), seconds)


def _play_batch(rules: BlackjackRules, shoes: _Shoes, bj: float, allowed_double: Bools, hard_t: Ints,
                soft_t: Ints, pair_t: Ints, hs_t: Ints) -> Floats:
    n = shoes.lanes
    everyone = np.ones(n, dtype=bool)
    shoes.start_round()
    p1 = shoes.draw(everyone)
    up = shoes.draw(everyone)
    p2 = shoes.draw(everyone)
    hole = shoes.draw(everyone)
    ui = np.where(up == 1, 9, up - 2)
    player_bj = ((p1 == 1) & (p2 == 10)) | ((p1 == 10) & (p2 == 1))
    dealer_bj = ((up == 1) & (hole == 10)) | ((up == 10) & (hole == 1))
    result = np.zeros(n, dtype=np.float64)
    finished = np.zeros(n, dtype=bool)
    if rules.peek:
        finished |= dealer_bj
        result = np.where(dealer_bj, np.where(player_bj, 0.0, -1.0), result)
    nat = player_bj & ~dealer_bj
    result = np.where(nat & ~finished, bj, result)
    finished |= nat
    # no peek: a dealer natural against a player natural is a push, found at once too
    both = player_bj & dealer_bj & ~finished
    finished |= both

    hmax = rules.max_hands
    hard = np.zeros((n, hmax), dtype=np.int64)
    ace = np.zeros((n, hmax), dtype=bool)
    ncards = np.zeros((n, hmax), dtype=np.int64)
    first = np.zeros((n, hmax), dtype=np.int64)
    second = np.zeros((n, hmax), dtype=np.int64)
    stake = np.zeros((n, hmax), dtype=np.float64)
    split_aces = np.zeros((n, hmax), dtype=bool)
    outcome = np.full((n, hmax), np.nan)  # settled result of a hand (bust, surrender)
    hands = np.where(finished, 0, 1)
    hard[:, 0] = p1 + p2
    ace[:, 0] = (p1 == 1) | (p2 == 1)
    ncards[:, 0] = 2
    first[:, 0], second[:, 0] = p1, p2
    stake[:, 0] = 1.0
    for h in range(hmax):
        active = hands > h
        if not active.any():
            break
        # a split hand gets its second card now
        need = np.flatnonzero(active & (ncards[:, h] == 1))
        if need.size:
            c = shoes.deal(need)
            hard[need, h] += c
            ace[need, h] |= c == 1
            second[need, h] = c
            ncards[need, h] = 2
            total_n, _ = _value(hard[need, h], ace[need, h])
            active[need[split_aces[need, h] | (total_n == 21)]] = False
        # Decisions are taken on the lanes still playing this hand only (fewer at every step).
        idx = np.flatnonzero(active)
        for _ in range(24):
            total_i, soft_i = _value(hard[idx, h], ace[idx, h])
            live = total_i < 21
            idx, total_i, soft_i = idx[live], total_i[live], soft_i[live]
            if not idx.size:
                break
            u = ui[idx]
            ti = np.minimum(total_i, 22)
            two = ncards[idx, h] == 2
            from_split = hands[idx] > 1
            fst = first[idx, h]
            can_split = two & (fst == second[idx, h]) & (hands[idx] < hmax) & \
                (~split_aces[idx, h] | rules.resplit_aces)
            can_double = two & allowed_double[ti] & (~from_split | rules.double_after_split)
            can_surrender = two & ~from_split & rules.surrender
            fallback = hs_t[ti, soft_i.astype(np.int64), u]  # H or S
            code = np.where(two, np.where(soft_i, soft_t[ti, u], hard_t[ti, u]), fallback)
            code = np.where(can_split, pair_t[fst, u], code)
            act = np.where(code == P, np.where(can_split, P, fallback), code)
            act = np.where((act == D) | (act == DS), np.where(can_double, D, np.where(act == D, H, S)), act)
            act = np.where(act == RP, np.where(can_surrender, RH, np.where(can_split, P, fallback)), act)
            wants_surrender = (act == RH) | (act == RS)
            act = np.where(wants_surrender, np.where(can_surrender, RH, np.where(act == RH, H, S)), act)
            outcome[idx[act == RH], h] = -0.5  # surrender
            spl = act == P
            if spl.any():  # split: the second card moves to a new hand
                lanes = idx[spl]
                slot = hands[lanes]
                hard[lanes, slot] = second[lanes, h]
                ace[lanes, slot] = second[lanes, h] == 1
                first[lanes, slot] = second[lanes, h]
                ncards[lanes, slot] = 1
                stake[lanes, slot] = 1.0
                aces = first[lanes, h] == 1
                split_aces[lanes, slot] = aces
                split_aces[lanes, h] = aces
                hands[lanes] += 1
                hard[lanes, h] = first[lanes, h]
                ace[lanes, h] = first[lanes, h] == 1
                ncards[lanes, h] = 1
            dbl = act == D
            stake[idx[dbl], h] *= 2
            takes = (act == H) | dbl | spl
            drawn = idx[takes]
            c = shoes.deal(drawn)
            hard[drawn, h] += c
            ace[drawn, h] |= c == 1
            second[idx[spl], h] = c[spl[takes]]
            ncards[drawn, h] += 1
            total_d, _ = _value(hard[drawn, h], ace[drawn, h])
            bust = total_d > 21
            outcome[drawn[bust], h] = -stake[drawn[bust], h]
            # one card after a double or on a split ace; 21 stands; stood and surrendered hands are done
            goes_on = ~bust & ~dbl[takes] & ~(spl[takes] & split_aces[drawn, h]) & (total_d < 21)
            idx = drawn[goes_on]
    # the dealer plays when some hand is still standing
    totals, _ = _value(hard, ace)
    standing = (np.arange(hmax)[None, :] < hands[:, None]) & np.isnan(outcome)
    playing = standing.any(axis=1) & ~finished
    d_hard = up + hole
    d_ace = (up == 1) | (hole == 1)
    dealer_bj_late = dealer_bj & playing  # no-peek games only
    idx = np.flatnonzero(playing & ~dealer_bj_late)
    for _ in range(20):
        d_total, d_soft = _value(d_hard[idx], d_ace[idx])
        idx = idx[(d_total < 17) | (rules.hit_soft_17 & (d_total == 17) & d_soft)]
        if not idx.size:
            break
        c = shoes.deal(idx)
        d_hard[idx] += c
        d_ace[idx] |= c == 1
    d_total, _ = _value(d_hard, d_ace)
    dealer_total = d_total[:, None]
    win = (dealer_total > 21) | (totals > dealer_total)
    push = (totals == dealer_total) & (dealer_total <= 21)
    settled = np.where(win, stake, np.where(push, 0.0, -stake))
    if rules.original_bets_only:
        late = np.zeros_like(stake)
        late[:, 0] = -1.0
    else:
        late = -stake
    settled = np.where(dealer_bj_late[:, None], late, settled)
    per_hand = np.where(np.isnan(outcome), settled, outcome)
    exists = np.arange(hmax)[None, :] < hands[:, None]
    round_result = np.where(exists, per_hand, 0.0).sum(axis=1)
    return np.where(finished, result, round_result)
