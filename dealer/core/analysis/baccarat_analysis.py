"""Exact baccarat odds by full enumeration of the shoe composition.

Every ordered deal of six cards from the full shoe is counted once (the third cards that are not
drawn still count, so the total is ``n (n-1) ... (n-5)``). The outcome depends only on card values
(ten and faces = 0), so the enumeration runs over the 10^6 value sequences, each weighted by how
many ordered card sequences have those values, vectorised with numpy. Player's third card sits in
position 5 and Banker's in position 6 whichever of them draws: swapping two undrawn positions is a
bijection of deals, so the counts are exact.

>>> counts = baccarat_counts(8)
>>> counts.banker, counts.player, counts.tie
(2292252566437888, 2230518282592256, 475627426473216)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer.core.games.baccarat import banker_draws

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BaccaratCounts:
    decks: int
    banker: int
    player: int
    tie: int
    # breakdowns that the edges of side bets and the docs use
    banker_natural: int
    player_natural: int

    @property
    def total(self) -> int:
        return self.banker + self.player + self.tie

    def edge_banker(self, commission: Fraction = Fraction(5, 100)) -> Fraction:
        """House edge per unit bet on Banker (ties are a stand-off)."""
        return (self.player - self.banker * (1 - commission)) / self.total

    def edge_player(self) -> Fraction:
        return Fraction(self.banker - self.player, self.total)

    def edge_tie(self, pays: int = 8) -> Fraction:
        return Fraction((self.total - self.tie) - pays * self.tie, self.total)

    def to_json(self, commission: Fraction = Fraction(5, 100), tie_pays: int = 8) -> dict[str, Any]:
        t = self.total
        return {
            "decks": self.decks, "method": "exact enumeration of ordered 6-card deals",
            "banker": self.banker, "player": self.player, "tie": self.tie, "total": t,
            "probability": {"banker": self.banker / t, "player": self.player / t, "tie": self.tie / t},
            "house_edge": {"banker": float(self.edge_banker(commission)), "player": float(self.edge_player()),
                           "tie": float(self.edge_tie(tie_pays))},
            "house_edge_exact": {"banker": str(self.edge_banker(commission)),
                                 "player": str(self.edge_player()), "tie": str(self.edge_tie(tie_pays))},
            "commission": str(commission), "tie_pays": f"{tie_pays}:1",
            "naturals": {"banker": self.banker_natural, "player": self.player_natural},
        }


def _tableau() -> npt.NDArray[np.bool_]:
    """draw[banker total, player third card] for the standard banker tableau."""
    return np.array([[banker_draws(b, t) for t in range(10)] for b in range(10)], dtype=bool)


def baccarat_counts(decks: int = 8) -> BaccaratCounts:
    """Exact counts of ordered six-card deals by outcome for a shoe of ``decks`` packs."""
    if not 1 <= decks <= 64:
        raise ValueError(f"decks must be 1..64, not {decks}")
    per_value = np.array([16 * decks] + [4 * decks] * 9, dtype=np.int64)  # value 0 = ten and faces
    grid = np.indices((10,) * 6, dtype=np.int8).reshape(6, -1)
    p1, b1, p2, b2, p3, b3 = grid
    # weight: ordered card sequences with these values (falling factorial per value)
    weight = np.ones(grid.shape[1], dtype=np.int64)
    for i in range(6):
        seen = np.zeros(grid.shape[1], dtype=np.int64)
        for j in range(i):
            seen += grid[j] == grid[i]
        weight *= per_value[grid[i]] - seen
    pt = (p1 + p2) % 10
    bt = (b1 + b2) % 10
    natural = (pt >= 8) | (bt >= 8)
    p_draw = ~natural & (pt <= 5)
    p_final = np.where(p_draw, (pt + p3) % 10, pt)
    b_draw_after = _tableau()[bt, p3]
    b_draw = ~natural & np.where(p_draw, b_draw_after, bt <= 5)
    b_final = np.where(b_draw, (bt + b3) % 10, bt)
    weight = np.maximum(weight, 0)
    banker = int(weight[b_final > p_final].sum())
    player = int(weight[p_final > b_final].sum())
    tie = int(weight[p_final == b_final].sum())
    banker_nat = int(weight[natural & (bt > pt) & (bt >= 8)].sum())
    player_nat = int(weight[natural & (pt > bt) & (pt >= 8)].sum())
    return BaccaratCounts(decks, banker, player, tie, banker_nat, player_nat)
