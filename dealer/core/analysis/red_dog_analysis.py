"""Exact casino red dog analysis: the house edge with the optimal raise, for any number of decks.

Rules assumed ([STD] casino form, see ``docs/games/red-dog.md``): aces high; two cards are turned;
**consecutive** ranks push; a **pair** turns a third card and pays 11:1 on three of a kind, else
pushes; otherwise the **spread** (ranks strictly between) is announced, the player may **raise** up
to the original bet, and a third card strictly between wins at the spread's payout (default
1 → 5:1, 2 → 4:1, 3 → 2:1, 4+ → 1:1); anything else loses ante and raise.

The optimal raise rule is to raise exactly when the raise itself has a positive expectation, i.e.
when ``p_win × (payout + 1) > 1`` for the cards left in the shoe after the two outer cards.

>>> spread_payout(1), spread_payout(7)
(Ratio(win=5, stake=1), Ratio(win=1, stake=1))
>>> result = analyze(1)
>>> result["raise_from_spread"], round(float(result["house_edge"]), 5)
(7, 0.03155)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dealer.core.money import Ratio

DEFAULT_SPREAD_PAYOUTS: Mapping[int, Ratio] = {1: Ratio(5, 1), 2: Ratio(4, 1), 3: Ratio(2, 1)}
WIDE = Ratio(1, 1)  # spreads of 4 to 11
THREE_OF_A_KIND = Ratio(11, 1)
RANKS = 13


def spread_payout(spread: int, payouts: Mapping[int, Ratio] = DEFAULT_SPREAD_PAYOUTS,
                  wide: Ratio = WIDE) -> Ratio:
    if not 1 <= spread <= 11:
        raise ValueError(f"a red dog spread is 1 to 11 ranks, not {spread}")
    return payouts.get(spread, wide)


def raise_ev(p_win: Fraction, payout: Ratio) -> Fraction:
    """Expected result per chip of the raise (equal to that of the original bet)."""
    return p_win * (payout.fraction + 1) - 1


def should_raise(p_win: Fraction, payout: Ratio) -> bool:
    """Optimal: raise the full original bet exactly when the raise gains."""
    return raise_ev(p_win, payout) > 0


def analyze(decks: int, payouts: Mapping[int, Ratio] = DEFAULT_SPREAD_PAYOUTS, wide: Ratio = WIDE,
            triple: Ratio = THREE_OF_A_KIND) -> dict[str, Any]:
    """Exact outcome of one hand per unit initial bet, enumerating every pair of outer ranks."""
    if not 1 <= decks <= 16:
        raise ValueError(f"red dog is dealt from 1 to 16 decks, not {decks}")
    per_rank = 4 * decks
    total = RANKS * per_rank
    ev = Fraction(0)
    wagered = Fraction(0)
    by_spread: dict[str, dict[str, Any]] = {}
    p_pair = Fraction(RANKS * per_rank * (per_rank - 1), total * (total - 1))
    p_triple_given_pair = Fraction(per_rank - 2, total - 2)
    ev += p_pair * p_triple_given_pair * triple.fraction
    wagered += p_pair
    by_spread["pair"] = {"probability": p_pair, "ev": p_triple_given_pair * triple.fraction, "raise": False}
    p_consecutive = Fraction(2 * (RANKS - 1) * per_rank * per_rank, total * (total - 1))
    wagered += p_consecutive
    by_spread["0"] = {"probability": p_consecutive, "ev": Fraction(0), "raise": False}
    raise_from: int | None = None
    for spread in range(1, 12):
        # ordered outer pairs with this spread: (13 - spread - 1) low ranks, two orders
        p = Fraction(2 * (RANKS - spread - 1) * per_rank * per_rank, total * (total - 1))
        p_win = Fraction(spread * per_rank, total - 2)
        payout = spread_payout(spread, payouts, wide)
        unit = raise_ev(p_win, payout)
        raising = should_raise(p_win, payout)
        if raising and raise_from is None:
            raise_from = spread
        ev += p * unit * (2 if raising else 1)
        wagered += p * (2 if raising else 1)
        by_spread[str(spread)] = {"probability": p, "p_win": p_win, "payout": str(payout),
                                  "ev": unit * (2 if raising else 1), "raise": raising}
    return {"decks": decks, "house_edge": -ev, "element_of_risk": -ev / wagered,
            "average_wager": wagered, "raise_from_spread": raise_from, "by_spread": by_spread}
