"""Forty-Five and Auction Forty-Fives (RULES C10): trick scoring in fives.

>>> forty_five_points({"we": 4, "they": 1}, "per-trick")
('we', 15)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.scoring.base import Data, Item, Scored, ScoreGame, rule

__all__ = ["AuctionFortyFives", "FortyFive", "forty_five_points"]


def forty_five_points(tricks: dict[str, int], scoring: str) -> tuple[str, int]:
    """The side with more tricks and what it scores: 'simple' 5 for 3-4 tricks, 10 for all five;
    'per-trick' 5 a trick less the other side's (3 → 5, 4 → 15, 5 → 25)."""
    winner = max(tricks, key=lambda s: tricks[s])
    won = tricks[winner]
    if scoring == "simple":
        return winner, 10 if won == 5 else 5
    return winner, 5 * (won - (5 - won))


@dataclass(frozen=True)
class FortyFiveRules:
    scoring: str = rule("simple", "'simple': 5 for 3-4 tricks, 10 for five; 'per-trick': 5 a trick less "
                        "the other side's", choices=("simple", "per-trick"), section="C10")
    target: int = rule(45, "game", section="C10")


class FortyFive(ScoreGame):
    """Forty-Five: 2 players, or 2 or 3 a side."""

    name: ClassVar[str] = "forty-five"
    title: ClassVar[str] = "Forty-Five"
    section: ClassVar[str] = "C10"
    rules_class: ClassVar[type[Any]] = FortyFiveRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 2, 3)
    entry_kinds: ClassVar[dict[str, str]] = {"hand": "{tricks: {side: tricks}} — five in all"}

    def entry_hand(self, data: Data) -> Scored:
        tricks = data.per_side("tricks", lo=0, hi=5)
        if sum(tricks.values()) != 5:
            raise data.error(f"five tricks a deal, got {sum(tricks.values())}")
        self.hands += 1
        winner, points = forty_five_points(tricks, self.rules.scoring)
        return Scored((Item(winner, f"{tricks[winner]} tricks", points),))

    def check_end(self) -> Any:
        return self.final_result() if any(v >= self.rules.target for v in self.totals.values()) else None


@dataclass(frozen=True)
class AuctionFortyFivesRules:
    target: int = rule(120, "game", section="C10")


class AuctionFortyFives(ScoreGame):
    """Auction Forty-Fives: 5 a trick plus 5 for the trick with the highest trump; a made bid scores
    what the side took (30 made: 60), a failed one loses the bid; opponents always score their take."""

    name: ClassVar[str] = "auction-forty-fives"
    title: ClassVar[str] = "Auction Forty-Fives"
    section: ClassVar[str] = "C10"
    rules_class: ClassVar[type[Any]] = AuctionFortyFivesRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    partnership_sizes: ClassVar[tuple[int, ...]] = (2, 3)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bidder: side or player, bid: 5-30 in fives, tricks: {side: tricks}, best: side that "
                "won the highest trump}",
    }

    def entry_hand(self, data: Data) -> Scored:
        bidder = data.side("bidder")
        bid = data.num("bid", lo=5, hi=30)
        if bid % 5:
            raise data.error(f"bids go in fives up to 30, got {bid}")
        if self.totals[bidder] >= 100 and bid < 20:
            raise data.error(f"a side with 100 or more may not bid below 20 (RULES C10), got {bid}")
        tricks = data.per_side("tricks", lo=0, hi=5)
        if sum(tricks.values()) != 5:
            raise data.error(f"five tricks a deal, got {sum(tricks.values())}")
        best = data.side("best")
        if tricks[best] == 0:
            raise data.error(f"{best} took no trick, so cannot hold the highest trump's trick")
        take = {s: 5 * n + (5 if s == best else 0) for s, n in tricks.items()}
        self.hands += 1
        items = []
        if take[bidder] >= bid:
            items.append(Item(bidder, f"made {bid}", 60 if bid == 30 else take[bidder]))
        else:
            items.append(Item(bidder, f"set on {bid}", -bid))
        other = self.others(bidder)[0]
        if take[other]:
            items.append(Item(other, "tricks", take[other]))
        return Scored(tuple(items))

    def check_end(self) -> Any:
        return self.final_result() if any(v >= self.rules.target for v in self.totals.values()) else None
