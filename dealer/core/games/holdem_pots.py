"""Pots at a poker showdown: side pots from all-in amounts, winners per pot, odd chips (RULES B3, B1).

Each pot level is a distinct amount put in by a player still in the hand. A pot takes, from every
player (folded ones too), what he put in between the previous level and this one; only players still
in who put in at least the level may win it (RULES B3: an all-in player wins only the pots he fully
covered). Chips above every live player's total (an uncalled bet) go back to their owner.

>>> pots = side_pots({"a": 50, "b": 100, "c": 100, "d": 20}, folded={"d"})
>>> [(p.amount, p.eligible) for p in pots]
[(170, ('a', 'b', 'c')), (100, ('b', 'c'))]
>>> award(pots, {"a": 9, "b": 5, "c": 5}, order=("a", "b", "c")).won
{'a': 170, 'b': 50, 'c': 50}
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dealer.core.errors import IllegalOperation

__all__ = ["OddChip", "Pot", "PotAward", "award", "side_pots", "uncalled"]


class OddChip(enum.Enum):
    """Who gets a chip that does not split evenly (RULES B1/B7: a house setting)."""

    FIRST_LEFT_OF_BUTTON = "first-left-of-button"  # [STD] the first winner clockwise from the button
    BY_LOT = "by-lot"  # S1: drawn by lot (the caller supplies the draw as ``lot``)
    CARRY = "carry"  # S3: carried to the next deal


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[str, ...]


@dataclass
class PotAward:
    won: dict[str, int] = field(default_factory=dict)  # chips each player takes
    returned: dict[str, int] = field(default_factory=dict)  # uncalled chips given back
    carried: int = 0  # odd chips carried to the next deal
    pots: list[dict[str, object]] = field(default_factory=list)


def side_pots(contributions: Mapping[str, int], folded: set[str] | frozenset[str] = frozenset()) -> list[Pot]:
    """Main pot and side pots, lowest level first (uncalled chips left out: see :func:`uncalled`)."""
    for who, amount in contributions.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise IllegalOperation(f"{who} put in {amount!r}: contributions are whole chips >= 0")
    live = [p for p in contributions if p not in folded]
    if not live:
        raise IllegalOperation("RULES B3: at least one player must still be in the hand")
    levels = sorted({contributions[p] for p in live if contributions[p] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(max(0, min(c, level) - previous) for c in contributions.values())
        eligible = tuple(p for p in live if contributions[p] >= level)
        if len(eligible) == 1 and pots and sum(
                1 for c in contributions.values() if c > previous) == 1:
            break  # only the owner put chips at this level: an uncalled bet, returned
        pots.append(Pot(amount, eligible))
        previous = level
    return pots


def uncalled(contributions: Mapping[str, int], pots: Sequence[Pot]) -> dict[str, int]:
    """Chips no pot took, by owner (a bet nobody called, folded excess goes to the top pot)."""
    in_pots = sum(p.amount for p in pots)
    excess = sum(contributions.values()) - in_pots
    if excess == 0:
        return {}
    top = max(pots[-1].eligible, key=lambda p: contributions[p]) if pots else max(contributions,
                                                                                    key=contributions.__getitem__)
    return {top: excess}


def award(pots: Sequence[Pot], values: Mapping[str, int], order: Sequence[str],
          odd_chip: OddChip = OddChip.FIRST_LEFT_OF_BUTTON, lot: Sequence[str] | None = None,
          contributions: Mapping[str, int] | None = None) -> PotAward:
    """Award each pot to its best eligible hands (RULES B3); ties split, odd chips by ``odd_chip``.

    ``order`` lists the players clockwise starting left of the button; ``values`` are comparable hand
    values (bigger wins). ``lot`` is the order drawn by lot when ``odd_chip`` is BY_LOT.
    """
    result = PotAward()
    for i, pot in enumerate(pots):
        contenders = [p for p in pot.eligible if p in values]
        if not contenders:
            raise IllegalOperation(f"pot {i + 1} has no hand to award it to")
        best = max(values[p] for p in contenders)
        winners = [p for p in order if p in contenders and values[p] == best]
        share, odd = divmod(pot.amount, len(winners))
        for w in winners:
            result.won[w] = result.won.get(w, 0) + share
        if odd:
            if odd_chip is OddChip.CARRY:
                result.carried += odd
            else:
                ranking = list(lot) if odd_chip is OddChip.BY_LOT and lot else winners
                takers = [p for p in ranking if p in winners]
                for k in range(odd):
                    result.won[takers[k % len(takers)]] += 1
        result.pots.append({"amount": pot.amount, "eligible": list(pot.eligible), "winners": winners,
                            "share": share, "odd_chips": odd})
    if contributions is not None:
        result.returned = uncalled(contributions, pots)
    return result
