"""Pusoy settings: split 13 cards into back (5) ≥ middle (5) ≥ front (3), and find the best one (RULES A9).

A hand has 72,072 arrangements (1,287 backs × 56 middles; the front is what is left). The search
evaluates the 1,287 five-card and 286 three-card subsets once with the batch evaluator, then scores
all arrangements at once on numpy arrays:

* an arrangement **fouls** unless back ≥ middle ≥ front (RULES A9, "totyo"); equal values are not
  a foul (a tie between one's own hands breaks no order);
* each position is won with the probability that the opponent's hand at that position is lower
  (ties go to the dealer, so a dealer wins with "lower or equal"), read from an opponent model: the
  distribution of the hands a player who sets this way puts at each position
  (:mod:`dealer.core.evaluation.pusoy_model`);
* positions are treated as independent, and the payment is +2 / +1 / −1 / −2 for winning 3 / 2 / 1
  / 0 positions (RULES A9, "pusoy" doubles). The best arrangement maximises that expectation.

Card removal (the opponent cannot hold my cards) is ignored, as in the pai gow optimiser.

>>> s = best_setting("AS AD KC KD 7H 7S 2C 3D 9H 10S JC QD 5H")
>>> s.setting.foul, len(s.setting.back), len(s.setting.middle), len(s.setting.front)
(False, 5, 5, 3)
>>> naive_setting("AS AD KC KD 7H 7S 2C 3D 9H 10S JC QD 5H").foul
False
>>> PusoySetting.of("7S 7C 2C 3D 9H", "AS AD KC KD 7H", "10S JC QD").foul  # middle above back
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation.batch import card_id, evaluate_batch
from dealer.core.evaluation.pusoy_model import OpponentModel, model
from dealer.core.evaluation.ranking import Ranking
from dealer.core.evaluation.scalar import evaluate, to_cards
from dealer.core.evaluation.values import HandValue

__all__ = ["Arrangements", "PusoySetting", "ScoredSetting", "arrangements", "best_setting", "naive_setting",
           "score_arrangements", "subset_values", "subsets_values_batch", "win_ev"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PusoySetting:
    """Three hands with their values (RULES A9)."""

    back: tuple[Card, ...]
    middle: tuple[Card, ...]
    front: tuple[Card, ...]
    back_value: HandValue
    middle_value: HandValue
    front_value: HandValue

    @classmethod
    def of(cls, back: Iterable[Card | str] | str, middle: Iterable[Card | str] | str,
           front: Iterable[Card | str] | str) -> PusoySetting:
        b, m, f = to_cards(back), to_cards(middle), to_cards(front)
        if (len(b), len(m), len(f)) != (5, 5, 3):
            raise IllegalOperation(f"RULES A9: a pusoy setting is 5 back, 5 middle and 3 front cards, got "
                                   f"{len(b)}, {len(m)} and {len(f)}")
        if len(set(b + m + f)) != 13:
            raise IllegalOperation("RULES A9: the three hands hold thirteen different cards")
        p = Ranking.PUSOY
        return cls(b, m, f, evaluate(b, p), evaluate(m, p), evaluate(f, p))

    @property
    def foul(self) -> bool:
        """RULES A9: the back must not be below the middle, nor the middle below the front."""
        return self.back_value < self.middle_value or self.middle_value < self.front_value

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.back + self.middle + self.front

    def to_json(self) -> dict[str, Any]:
        return {name: {"cards": [c.code for c in cards], "value": int(value), "description": str(value)}
                for name, cards, value in (("back", self.back, self.back_value),
                                           ("middle", self.middle, self.middle_value),
                                           ("front", self.front, self.front_value))} | {"foul": self.foul}


@dataclass(frozen=True)
class Arrangements:
    """Index arrays over 13 card positions: every (back, middle, front) split."""

    five: npt.NDArray[np.intp]  # (1287, 5) positions of each five-card subset
    three: npt.NDArray[np.intp]  # (286, 3) positions of each three-card subset
    back: npt.NDArray[np.intp]  # (72072,) row of ``five`` for the back
    middle: npt.NDArray[np.intp]  # (72072,) row of ``five`` for the middle
    front: npt.NDArray[np.intp]  # (72072,) row of ``three`` for the front


@cache
def arrangements() -> Arrangements:
    five = list(itertools.combinations(range(13), 5))
    three = list(itertools.combinations(range(13), 3))
    five_index = {c: i for i, c in enumerate(five)}
    three_index: dict[tuple[int, ...], int] = {c: i for i, c in enumerate(three)}
    back, middle, front = [], [], []
    for b in five:
        rest = [p for p in range(13) if p not in b]
        for m in itertools.combinations(rest, 5):
            back.append(five_index[b])
            middle.append(five_index[m])
            front.append(three_index[tuple(p for p in rest if p not in m)])
    return Arrangements(np.array(five, dtype=np.intp), np.array(three, dtype=np.intp),
                        np.array(back, dtype=np.intp), np.array(middle, dtype=np.intp),
                        np.array(front, dtype=np.intp))


def _ids(cards: Iterable[Card | str] | str) -> npt.NDArray[np.uint8]:
    hand = to_cards(cards)
    ids = [card_id(c) for c in hand]
    if len(ids) != 13 or len(set(ids)) != 13 or max(ids) > 51:
        raise IllegalOperation(f"RULES A9: a pusoy hand is 13 different cards of a 52-card pack (no joker), "
                               f"got {' '.join(c.code for c in hand)}")
    return np.array(ids, dtype=np.uint8)


def subset_values(ids: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Values of the 1,287 five-card and 286 three-card subsets of a 13-card hand."""
    a = arrangements()
    return (evaluate_batch(ids[a.five], Ranking.PUSOY, check=False),
            evaluate_batch(ids[a.three], Ranking.PUSOY, check=False))


def win_ev(p_back: F64, p_middle: F64, p_front: F64) -> F64:
    """Expected payment per bet for independent win probabilities (+2/+1/−1/−2 for 3/2/1/0 wins)."""
    # payment = wins − 2, plus 1 when at least two positions are won
    both = p_back * p_middle + (p_back + p_middle) * p_front - 2 * p_back * p_middle * p_front
    result: F64 = p_back + p_middle + p_front - 2 + both
    return result


@dataclass(frozen=True)
class ScoredSetting:
    """The best arrangement and its expected payment per bet under the opponent model."""

    setting: PusoySetting
    expected_value: float
    win_probabilities: tuple[float, float, float]

    def to_json(self) -> dict[str, Any]:
        return {"setting": self.setting.to_json(), "expected_value": round(self.expected_value, 6),
                "win_probabilities": {k: round(p, 6) for k, p in
                                      zip(("back", "middle", "front"), self.win_probabilities, strict=True)}}


def score_arrangements(ids: npt.NDArray[np.uint8], as_dealer: bool = False,
                       opponent: OpponentModel | None = None) -> tuple[I64, F64, F64, F64, F64]:
    """The legal arrangements (rows) with their EV and win probabilities (back, middle, front)."""
    a = arrangements()
    v5, v3 = subset_values(ids)
    w5b, w5m, w3 = (opponent or model()).win_tables(v5, v3, as_dealer)
    mid = v5[a.middle]
    rows = np.flatnonzero((v5[a.back] >= mid) & (mid >= v3[a.front]))
    pb, pm, pf = w5b[a.back[rows]], w5m[a.middle[rows]], w3[a.front[rows]]
    return rows, win_ev(pb, pm, pf), pb, pm, pf


def _setting(hand: tuple[Card, ...], row: int) -> PusoySetting:
    a = arrangements()
    b, m, f = a.five[a.back[row]], a.five[a.middle[row]], a.three[a.front[row]]
    return PusoySetting.of([hand[i] for i in b], [hand[i] for i in m], [hand[i] for i in f])


def best_setting(cards: Iterable[Card | str] | str, as_dealer: bool = False) -> ScoredSetting:
    """The arrangement with the highest expected payment (see the module docs)."""
    hand = to_cards(cards)
    ids = _ids(hand)
    rows, ev, pb, pm, pf = score_arrangements(ids, as_dealer)
    i = int(np.argmax(ev))
    chances = (float(pb[i]), float(pm[i]), float(pf[i]))
    return ScoredSetting(_setting(hand, int(rows[i])), float(ev[i]), chances)


def naive_setting(cards: Iterable[Card | str] | str) -> PusoySetting:
    """The simplest legal setting: the best five in back, the best five of the rest in the middle."""
    hand = to_cards(cards)
    ids = _ids(hand)
    a = arrangements()
    v5, v3 = subset_values(ids)
    back = int(np.argmax(v5))
    rows = np.flatnonzero(a.back == back)
    row = int(rows[np.argmax(v5[a.middle[rows]])])
    return _setting(hand, row)


def subsets_values_batch(ids: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Five- and three-card subset values for many hands: (N, 1287) and (N, 286)."""
    a = arrangements()
    n = ids.shape[0]
    v5 = evaluate_batch(ids[:, a.five].reshape(-1, 5), Ranking.PUSOY, check=False).reshape(n, -1)
    v3 = evaluate_batch(ids[:, a.three].reshape(-1, 3), Ranking.PUSOY, check=False).reshape(n, -1)
    return v5, v3
