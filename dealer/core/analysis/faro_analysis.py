"""Exact faro and stuss analysis: splits, flat bets held until settled, calling the turn.

Everything is computed with :class:`fractions.Fraction` over the deal structure of RULES A5/A6:

* **faro** — soda, then two-card turns, and when three cards remain a last turn of loser,
  winner and the **hock** (which settles nothing: a bet whose rank is only in the hock is returned);
* **stuss** — two-card turns from the first card, no soda, no hock.

A flat bet on a rank with ``k`` cards left, placed at a betting point with ``n`` cards in the box,
stays until its rank shows. Per turn (two cards from ``m`` with ``j`` of the rank) it is split with
probability ``j(j-1)/(m(m-1))``, decided one way or the other with ``2j(m-j)/(m(m-1))``, otherwise
carried on. The bank takes ``split_take`` of a split bet; wins pay ``flat_payout``.

>>> flat_bet(4, 52, hock=False).split  # stuss, a fresh deck: 33 in 833 bets end in a split
Fraction(33, 833)
>>> flat_bet(4, 51, hock=True).split
Fraction(101, 2499)
>>> calling_the_turn_edge(distinct=True)
Fraction(1, 6)
>>> calling_the_turn_edge(distinct=False)
Fraction(0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from dealer.core.money import Ratio

DECK = 52
PER_RANK = 4
EVEN = Ratio(1, 1)


@dataclass(frozen=True)
class FlatBet:
    """How a flat bet ends; a coppered bet swaps ``win`` and ``lose`` (they are equal)."""

    k: int
    cards_left: int
    win: Fraction
    lose: Fraction
    split: Fraction
    push: Fraction

    def ev(self, payout: Ratio = EVEN, split_take: Fraction = Fraction(1, 2)) -> Fraction:
        """Expected result per chip staked (negative: the player loses)."""
        return self.win * payout.fraction - self.lose - self.split * split_take

    def edge(self, payout: Ratio = EVEN, split_take: Fraction = Fraction(1, 2)) -> Fraction:
        """House edge per chip bet, the bet left until it is settled."""
        return -self.ev(payout, split_take)

    def edge_per_decision(self, payout: Ratio = EVEN, split_take: Fraction = Fraction(1, 2)) -> Fraction:
        """House edge per chip on bets that were decided (pushes left out)."""
        decided = 1 - self.push
        return self.edge(payout, split_take) / decided if decided else Fraction(0)


@cache
def _settle(m: int, j: int, hock: bool) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(win, lose, split, push) for ``j`` copies among ``m`` cards at the start of a two-card turn."""
    if j == 0:
        return (Fraction(0), Fraction(0), Fraction(0), Fraction(1))  # the rank is gone: returned
    if m == 1:  # only the hock is left (faro); it settles nothing
        return (Fraction(0), Fraction(0), Fraction(0), Fraction(1))
    pairs = m * (m - 1)
    both = Fraction(j * (j - 1), pairs)
    one_way = Fraction(j * (m - j), pairs)
    neither = Fraction((m - j) * (m - j - 1), pairs)
    win, lose, split, push = one_way, one_way, both, Fraction(0)
    if neither:
        later = _settle(m - 2, j, hock)
        win, lose = win + neither * later[0], lose + neither * later[1]
        split, push = split + neither * later[2], push + neither * later[3]
    return (win, lose, split, push)


def flat_bet(k: int, cards_left: int, *, hock: bool, soda_due: bool = False) -> FlatBet:
    """A flat bet on a rank with ``k`` of its cards among ``cards_left``, left until settled.

    ``soda_due``: the bet is placed before the soda (faro, full box), which may take a copy away.
    """
    if not 1 <= k <= PER_RANK or not k <= cards_left <= DECK:
        raise ValueError(f"need 1 <= k <= 4 and k <= cards_left <= 52, got k={k}, cards_left={cards_left}")
    if hock and (cards_left - soda_due) % 2 == 0:
        raise ValueError(f"a faro box holds an odd number of cards between turns (after the soda), "
                         f"not {cards_left - soda_due}")
    if not hock and cards_left % 2:
        raise ValueError(f"a stuss box holds an even number of cards between turns, not {cards_left}")
    if soda_due:
        away = Fraction(k, cards_left)
        a = _settle(cards_left - 1, k - 1, hock)
        b = _settle(cards_left - 1, k, hock)
        parts = [away * x + (1 - away) * y for x, y in zip(a, b, strict=True)]
        return FlatBet(k, cards_left, *parts)
    return FlatBet(k, cards_left, *_settle(cards_left, k, hock))


def turn_split_probability(cards_left: int = DECK - 1, counts: tuple[int, ...] | None = None) -> Fraction:
    """Chance both cards of the next turn share a rank. ``counts``: cards left per rank.

    With nothing known (the start of a deal) every turn has the same chance, 3/51 = 1/17.
    """
    if counts is None:
        return Fraction(PER_RANK - 1, DECK - 1)
    n = sum(counts)
    return Fraction(sum(c * (c - 1) for c in counts), n * (n - 1)) if n >= 2 else Fraction(0)


def calling_the_turn_edge(*, distinct: bool, call: Ratio = Ratio(4, 1),
                          cat_hop: Ratio = Ratio(2, 1)) -> Fraction:
    """House edge on calling the turn: 6 orders for three ranks (pays ``call``), 3 for a cat-hop."""
    if distinct:
        return 1 - Fraction(1, 6) * (1 + call.fraction)
    return 1 - Fraction(1, 3) * (1 + cat_hop.fraction)


def last_three_kinds() -> dict[str, Fraction]:
    """What the last three cards of a full deck are: three ranks, a cat-hop, or three of a kind."""
    total = DECK * (DECK - 1) * (DECK - 2)
    distinct = Fraction(DECK * (DECK - 4) * (DECK - 8), total)
    triple = Fraction(DECK * 3 * 2, total)
    return {"distinct": distinct, "cat_hop": 1 - distinct - triple, "triple": triple}


def _num(value: Fraction) -> dict[str, Any]:
    return {"exact": str(value), "value": float(value)}


def _betting_points(variant: str) -> list[int]:
    """Box sizes at which flat bets can be placed: faro 52 (before the soda), 51, 49, ... 3."""
    if variant == "faro":
        return [DECK, *range(DECK - 1, 2, -2)]
    return list(range(DECK, 1, -2))


def analyze(variant: str = "faro", *, flat_payout: Ratio = EVEN, split_take: Fraction | None = None,
            call: Ratio = Ratio(4, 1), cat_hop: Ratio = Ratio(2, 1),
            cards_left: int | None = None) -> dict[str, Any]:
    """Everything ``dealer analyze faro`` reports for one variant, exact."""
    if variant not in ("faro", "stuss"):
        raise ValueError(f"variant is faro or stuss, not {variant!r}")
    hock = variant == "faro"
    take = split_take if split_take is not None else (Fraction(1, 2) if hock else Fraction(1))
    turns = (DECK - 1) // 2 if hock else DECK // 2
    flat: list[dict[str, Any]] = []
    for k in (4, 3, 2):
        points = [n for n in _betting_points(variant) if n >= k and DECK - n >= PER_RANK - k]
        table = []
        for n in points:
            bet = flat_bet(k, n, hock=hock, soda_due=hock and n == DECK)
            table.append({"cards_left": n, "win": _num(bet.win), "lose": _num(bet.lose),
                          "split": _num(bet.split), "push": _num(bet.push),
                          "edge": _num(bet.edge(flat_payout, take)),
                          "edge_per_decision": _num(bet.edge_per_decision(flat_payout, take))})
        headline_n = cards_left if cards_left is not None else points[0]
        if headline_n not in points:
            raise ValueError(f"with {k} of a rank left a {variant} bet can be placed with "
                             f"{', '.join(map(str, points))} cards in the box, not {headline_n}")
        headline = next(row for row in table if row["cards_left"] == headline_n)
        flat.append({"cards_of_rank_left": k, "cards_left": headline_n, "edge": headline["edge"],
                     "split": headline["split"], "edge_per_decision": headline["edge_per_decision"],
                     "by_cards_left": table})
    kinds = last_three_kinds()
    distinct_edge = calling_the_turn_edge(distinct=True, call=call, cat_hop=cat_hop)
    cat_edge = calling_the_turn_edge(distinct=False, call=call, cat_hop=cat_hop)
    offered = kinds["distinct"] + kinds["cat_hop"]
    blended = (kinds["distinct"] * distinct_edge + kinds["cat_hop"] * cat_edge) / offered
    p_split = turn_split_probability()
    return {
        "game": variant,
        "rules": {"soda": hock, "hock": hock, "turns_per_deal": turns, "flat_payout": str(flat_payout),
                  "split_take": str(take), "call_payout": str(call), "cat_hop_payout": str(cat_hop),
                  "bet_held_until_settled": True, "hock_settles_nothing": hock},
        "split_probability_per_turn": _num(p_split),
        "expected_splits_per_deal": _num(p_split * turns),
        "flat_bet": flat,
        "calling_the_turn": {
            "offered": hock,
            "note": None if hock else ("stuss has no soda: 26 two-card turns never leave three cards "
                                       "between turns; the figures are the bet's own odds"),
            "edge": _num(distinct_edge), "cat_hop_edge": _num(cat_edge),
            "last_three": {name: _num(p) for name, p in kinds.items()},
            "edge_averaged_over_deals": _num(blended),
        },
    }
