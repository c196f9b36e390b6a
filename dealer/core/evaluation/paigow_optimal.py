"""The player's best setting against a house-way banker, and house-way-vs-house-way simulation.

A player's setting (back value b, front value f) wins the bet when the banker's back and front are
both strictly lower (copies go to the banker, RULES A8), loses when both are at least as high, and
pushes otherwise; a foul loses. So its expected value needs only the banker's *joint* distribution
of (back, front) values. :func:`banker_distribution` estimates it once from a seeded sample of
house-way hands; the expected value of any setting is then three table reads:

    P(win)  = P(B < b and F < f)
    P(lose) = 1 - P(B < b) - P(F < f) + P(win)
    EV      = (1 - commission) * P(win) - P(lose)

This ignores card removal (the player's own seven cards slightly change the banker's odds), so
"optimal" here means optimal against the average house-way banker; the default sample of 400,000
banker hands puts each probability within about ±0.0015 (95 %).

>>> best = optimal_setting("JK 4S 5D 5C 6H 7S 7D")
>>> best.setting.codes()["front"]
['JK', '6H']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation.batch import card_id, evaluate_batch
from dealer.core.evaluation.paigow_way import (
    BACK_FIVES,
    DEFAULT_HOUSE_WAY,
    FRONT_PAIRS,
    HouseWay,
    Setting,
    house_way_batch,
    setting_values,
)
from dealer.core.evaluation.ranking import Ranking
from dealer.core.evaluation.scalar import to_cards

__all__ = ["BankerDistribution", "OptimalSetting", "banker_distribution", "deal_pai_gow", "optimal_setting",
           "optimal_batch", "simulate_house_way"]

SAMPLE_SEED = 20_240_805
SAMPLE_HANDS = 400_000
PG = Ranking.PAI_GOW


def deal_pai_gow(rng: np.random.Generator, rounds: int, hands: int = 1) -> npt.NDArray[np.uint8]:
    """``rounds`` deals of ``hands`` seven-card hands from a shuffled 53-card pack: (rounds, hands, 7)."""
    out = np.empty((rounds, hands * 7), dtype=np.uint8)
    step = 100_000
    for start in range(0, rounds, step):
        n = min(step, rounds - start)
        out[start:start + n] = np.argpartition(rng.random((n, 53)), hands * 7, axis=1)[:, :hands * 7]
    return out.reshape(rounds, hands, 7)


@dataclass(frozen=True)
class BankerDistribution:
    """Sampled joint distribution of the banker's (back, front) values under one house way."""

    backs: npt.NDArray[np.int32]  # sorted distinct back values seen
    fronts: npt.NDArray[np.int32]  # sorted distinct front values seen
    below: npt.NDArray[np.int64]  # below[i, j] = hands with back < backs[i] and front < fronts[j]
    samples: int

    def win_lose(self, back: npt.NDArray[np.integer], front: npt.NDArray[np.integer]
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """P(win) and P(lose) for settings with these back and front values (arrays of any shape)."""
        i = np.searchsorted(self.backs, back, side="left")
        j = np.searchsorted(self.fronts, front, side="left")
        n = self.samples
        win = self.below[i, j] / n
        lose = 1 - self.below[i, -1] / n - self.below[-1, j] / n + win
        return win, lose


@cache
def banker_distribution(way: HouseWay = DEFAULT_HOUSE_WAY, samples: int = SAMPLE_HANDS) -> BankerDistribution:
    rng = np.random.default_rng(SAMPLE_SEED)
    hands = deal_pai_gow(rng, samples)[:, 0, :]
    back, front = setting_values(hands, house_way_batch(hands, way).astype(np.intp))
    backs, bi = np.unique(back, return_inverse=True)
    fronts, fi = np.unique(front, return_inverse=True)
    joint = np.zeros((backs.size + 1, fronts.size + 1), dtype=np.int64)
    np.add.at(joint, (bi + 1, fi + 1), 1)
    below = joint.cumsum(axis=0).cumsum(axis=1)
    return BankerDistribution(backs.astype(np.int32), fronts.astype(np.int32), below, samples)


@dataclass(frozen=True)
class OptimalSetting:
    setting: Setting
    expected_value: float  # per unit bet, against the average house-way banker
    win: float
    lose: float

    def to_json(self) -> dict[str, object]:
        return self.setting.to_json() | {"expected_value": round(self.expected_value, 5),
                                         "win": round(self.win, 5), "lose": round(self.lose, 5),
                                         "push": round(1 - self.win - self.lose, 5)}


def _commission(commission: Fraction | float) -> float:
    return float(commission)


def _scores(hands: npt.NDArray[np.integer], way: HouseWay, commission: Fraction | float
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """EV, P(win), P(lose) of all 21 settings of each (N, 7) row: arrays of shape (N, 21)."""
    dist = banker_distribution(way)
    backs = hands[:, _BACKS].reshape(-1, 5)
    fronts = hands[:, _FRONTS].reshape(-1, 2)
    back_v = evaluate_batch(backs, PG, check=False).reshape(-1, 21)
    front_v = evaluate_batch(fronts, PG, check=False).reshape(-1, 21)
    win, lose = dist.win_lose(back_v, front_v)
    ev = np.where(back_v > front_v, (1 - _commission(commission)) * win - lose, -1.0)
    return ev, win, lose


_BACKS = np.array(BACK_FIVES)
_FRONTS = np.array(FRONT_PAIRS)


def optimal_batch(hands: npt.NDArray[np.integer], way: HouseWay = DEFAULT_HOUSE_WAY,
                  commission: Fraction | float = Fraction(5, 100)
                  ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Best setting index (into FRONT_PAIRS) and its EV for each (N, 7) row of card ids."""
    ev, _, _ = _scores(np.asarray(hands), way, commission)
    best = np.argmax(ev, axis=1)
    return best, ev[np.arange(ev.shape[0]), best]


def optimal_setting(cards: Iterable[Card | str] | str, way: HouseWay = DEFAULT_HOUSE_WAY,
                    commission: Fraction | float = Fraction(5, 100)) -> OptimalSetting:
    """The setting of seven cards with the highest expected value against a house-way banker."""
    hand = to_cards(cards)
    if len(hand) != 7:
        raise IllegalOperation(f"RULES A8: a pai gow hand has seven cards, got {len(hand)}")
    if len(set(hand)) != 7:
        raise IllegalOperation("a pai gow hand holds seven different cards")
    ids = np.array([[card_id(c) for c in hand]], dtype=np.uint8)
    ev, win, lose = _scores(ids, way, commission)
    best = int(np.argmax(ev[0]))
    front = FRONT_PAIRS[best]
    setting = Setting(tuple(hand[i] for i in BACK_FIVES[best]), (hand[front[0]], hand[front[1]]))
    return OptimalSetting(setting, float(ev[0, best]), float(win[0, best]), float(lose[0, best]))


@dataclass(frozen=True)
class SimulationResult:
    hands: int
    win: int
    push: int
    lose: int
    player_ev: float  # per unit bet, commission included
    ci95: float  # half-width of the 95 % interval on player_ev

    def to_json(self) -> dict[str, object]:
        n = self.hands
        return {"hands": n, "method": "sampled", "win": self.win / n, "push": self.push / n,
                "lose": self.lose / n, "player_ev": self.player_ev, "house_edge": -self.player_ev,
                "house_edge_ci95": [-self.player_ev - self.ci95, -self.player_ev + self.ci95]}


def simulate_house_way(rounds: int, rng: np.random.Generator, way: HouseWay = DEFAULT_HOUSE_WAY,
                       commission: Fraction | float = Fraction(5, 100), player: str = "house-way",
                       chunk: int = 200_000) -> SimulationResult:
    """One player against the banker, both dealt from one 53-card pack each round; the banker sets
    by the house way, the player by the house way or (``player="optimal"``) by :func:`optimal_batch`."""
    c = _commission(commission)
    win = push = lose = 0
    total = total_sq = 0.0
    for start in range(0, rounds, chunk):
        n = min(chunk, rounds - start)
        deal = deal_pai_gow(rng, n, 2)
        p_hands, b_hands = deal[:, 0, :], deal[:, 1, :]
        if player == "optimal":
            p_front = np.array(FRONT_PAIRS, dtype=np.intp)[optimal_batch(p_hands, way, commission)[0]]
        else:
            p_front = house_way_batch(p_hands, way).astype(np.intp)
        pb, pf = setting_values(p_hands, p_front)
        bb, bf = setting_values(b_hands, house_way_batch(b_hands, way).astype(np.intp))
        foul = pb <= pf
        wins = ~foul & (pb > bb) & (pf > bf)
        losses = foul | ((pb <= bb) & (pf <= bf))
        win += int(wins.sum())
        lose += int(losses.sum())
        push += n - int(wins.sum()) - int(losses.sum())
        result = np.where(wins, 1 - c, np.where(losses, -1.0, 0.0))
        total += float(result.sum())
        total_sq += float((result ** 2).sum())
    mean = total / rounds
    var = max(total_sq / rounds - mean ** 2, 0.0)
    return SimulationResult(rounds, win, push, lose, mean, 1.96 * (var / rounds) ** 0.5)
