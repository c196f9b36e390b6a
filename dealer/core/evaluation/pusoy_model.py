"""The opponent model behind the pusoy setting search: what hands a good player sets at each position.

The model is a sample of (back, middle, front) values from random 13-card hands, stored as class
histograms in :mod:`dealer.core.evaluation.pusoy_model_data`, which this module generates::

    python -m dealer.core.evaluation.pusoy_model 20000 7 > dealer/core/evaluation/pusoy_model_data.py

Generation starts from the naive setting (best five in back, best five of the rest in the middle),
then sets a fresh sample with the optimiser against that model, and repeats once more, so the
model describes players who set by the optimiser itself. A win probability is the share of the
sample strictly below (player) or at most equal to (dealer: ties go to him) the hand in question.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from dealer.core.evaluation.batch import evaluate_batch
from dealer.core.evaluation.ranking import Ranking

__all__ = ["OpponentModel", "build_model", "model"]

F64 = npt.NDArray[np.float64]
I32 = npt.NDArray[np.int32]


@cache
def classes(cards: int) -> I32:
    """Every distinct pusoy value of ``cards`` (5 or 3) cards, ascending."""
    import itertools
    combos = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), cards)),
                         dtype=np.uint8).reshape(-1, cards)
    return np.unique(evaluate_batch(combos, Ranking.PUSOY, check=False))


@dataclass(frozen=True)
class OpponentModel:
    """Sorted sample values of the opponent's back, middle and front."""

    back: I32
    middle: I32
    front: I32

    def win_tables(self, v5: I32, v3: I32, as_dealer: bool = False) -> tuple[F64, F64, F64]:
        """Win probability of each five-card value in back and in the middle, and of each front."""
        side: Literal["left", "right"] = "right" if as_dealer else "left"
        return (np.searchsorted(self.back, v5, side) / len(self.back),
                np.searchsorted(self.middle, v5, side) / len(self.middle),
                np.searchsorted(self.front, v3, side) / len(self.front))

    def histograms(self) -> dict[str, list[tuple[int, int]]]:
        out = {}
        positions = (("back", self.back, 5), ("middle", self.middle, 5), ("front", self.front, 3))
        for name, values, size in positions:
            idx, counts = np.unique(np.searchsorted(classes(size), values), return_counts=True)
            out[name] = [(int(i), int(c)) for i, c in zip(idx, counts, strict=True)]
        return out

    @classmethod
    def from_histograms(cls, data: dict[str, list[tuple[int, int]]]) -> OpponentModel:
        def expand(name: str, size: int) -> I32:
            pairs = np.array(data[name], dtype=np.int64)
            return np.repeat(classes(size)[pairs[:, 0]], pairs[:, 1]).astype(np.int32)
        return cls(expand("back", 5), expand("middle", 5), expand("front", 3))


@cache
def model() -> OpponentModel:
    from dealer.core.evaluation.pusoy_model_data import HISTOGRAMS
    return OpponentModel.from_histograms(HISTOGRAMS)


def _naive_values(ids: npt.NDArray[np.uint8]) -> tuple[I32, I32, I32]:
    from dealer.core.evaluation.pusoy_setting import arrangements, subsets_values_batch
    a = arrangements()
    v5, v3 = subsets_values_batch(ids)
    back = np.argmax(v5, axis=1)
    rows = back[:, None] * 56 + np.arange(56)  # arrangements are grouped by back, 56 middles each
    middle_row = rows[np.arange(len(ids)), np.argmax(np.take_along_axis(v5, a.middle[rows], 1), axis=1)]
    n = np.arange(len(ids))
    return (v5[n, back].astype(np.int32), v5[n, a.middle[middle_row]].astype(np.int32),
            v3[n, a.front[middle_row]].astype(np.int32))


def build_model(hands: int, seed: int, rounds: int = 2) -> OpponentModel:
    """Sample a model (see the module docs); about 3 ms per hand per round."""
    from dealer.core.evaluation import pusoy_setting
    rng = np.random.default_rng(seed)

    def deal() -> npt.NDArray[np.uint8]:
        return np.argsort(rng.random((hands, 52)), axis=1)[:, :13].astype(np.uint8)

    current = OpponentModel(*(np.sort(v) for v in _naive_values(deal())))
    for _ in range(rounds):
        model.cache_clear()
        sample = deal()
        backs, middles, fronts = [], [], []
        for row in sample:
            rows, ev, _, _, _ = pusoy_setting.score_arrangements(row, opponent=current)
            best = int(rows[np.argmax(ev)])
            a = pusoy_setting.arrangements()
            v5, v3 = pusoy_setting.subset_values(row)
            backs.append(v5[a.back[best]])
            middles.append(v5[a.middle[best]])
            fronts.append(v3[a.front[best]])
        current = OpponentModel(*(np.sort(np.array(v, dtype=np.int32)) for v in (backs, middles, fronts)))
    return current


def render(m: OpponentModel, hands: int, seed: int, rounds: int) -> str:
    lines = ['"""Generated by ``python -m dealer.core.evaluation.pusoy_model '
             f'{hands} {seed}`` ({rounds} refinement rounds): do not edit.',
             "",
             "Histograms of class indices (ascending pusoy values of 5 or 3 cards) of the sample's back,",
             'middle and front hands."""', "", "HISTOGRAMS: dict[str, list[tuple[int, int]]] = {"]
    for name, pairs in m.histograms().items():
        lines.append(f'    "{name}": [')
        row = "       "
        for i, c in pairs:
            item = f" ({i}, {c}),"
            if len(row) + len(item) > 108:
                lines.append(row)
                row = "       "
            row += item
        lines.append(row)
        lines.append("    ],")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - the generator script
    n, s = int(sys.argv[1]), int(sys.argv[2])
    sys.stdout.write(render(build_model(n, s), n, s, 2))
