"""Five Hundred (RULES C6): the Avondale schedule [STD] (the seed's table is missing), nullo, overtricks,
slams, set-backs, 10 per trick to opponents, game at +500 / −500.

>>> avondale(8, "H"), avondale(10, "NT"), avondale(6, "S")
(300, 520, 40)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreGame, rule

__all__ = ["FiveHundred", "avondale"]

DENOMINATIONS = ("S", "C", "D", "H", "NT")  # low to high


def avondale(tricks: int, denomination: str) -> int:
    """Avondale value: 6♠ = 40, each denomination up +20, each trick up +100 [STD]."""
    return 40 + 100 * (tricks - 6) + 20 * DENOMINATIONS.index(denomination)


@dataclass(frozen=True)
class FiveHundredRules:
    target: int = rule(500, "first to this wins", section="C6")
    nullo: int = rule(250, "nullo value (lose every trick at no trump)", section="C6")
    slam_minimum: int = rule(250, "all ten tricks score at least this", section="C6")
    all_pass: str = rule("redeal", "when all pass: 'redeal' with no score, or 'play' at no trump, "
                         "10 per trick each, no set-back", choices=("redeal", "play"), section="C6")


class FiveHundred(ScoreGame):
    """Five Hundred for 2–6 (three-hand individual, four-hand and six-hand partnerships)."""

    name: ClassVar[str] = "five-hundred"
    title: ClassVar[str] = "Five Hundred"
    section: ClassVar[str] = "C6"
    rules_class: ClassVar[type[Any]] = FiveHundredRules
    side_count: ClassVar[tuple[int, int]] = (2, 5)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 2, 3)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{contractor: player or side, bid: '8H' / '10NT' / 'nullo', tricks: {side: tricks won}}",
        "all-pass": "{tricks?: {side: tricks}} — thrown in, or played at no trump by house rule",
    }

    def setup(self) -> None:
        self.last_contractor: str | None = None
        self.minus_out: set[str] = set()

    def _tricks(self, data: Data) -> dict[str, int]:
        tricks = data.per_side("tricks", lo=0, hi=10)
        if sum(tricks.values()) != 10:
            raise data.error(f"the tricks must add up to 10, got {sum(tricks.values())}")
        return tricks

    def entry_hand(self, data: Data) -> Scored:
        contractor = data.side("contractor")
        bid = data.text("bid").strip().upper()
        tricks = self._tricks(data)
        made = tricks[contractor]
        items: list[Item] = []
        self.hands += 1
        self.last_contractor = contractor
        if bid == "NULLO":
            if made == 0:
                items.append(Item(contractor, "nullo made", self.rules.nullo))
            else:
                items.append(Item(contractor, "nullo set", -self.rules.nullo))
                items += [Item(o, "tricks against nullo", 10 * made) for o in self.others(contractor)]
            return Scored(tuple(items))
        cut = 2 if bid.endswith("NT") else 1
        number, denom = bid[:-cut], bid[-cut:]
        if not number.isdigit() or not 6 <= int(number) <= 10 or denom not in DENOMINATIONS:
            raise data.error(f"'bid' is 6-10 tricks and S C D H or NT (e.g. '8H', '10NT'), or 'nullo'; "
                             f"got {bid!r}")
        value = avondale(int(number), denom)
        if made >= int(number):
            if made == 10:
                value = max(value, self.rules.slam_minimum)
            items.append(Item(contractor, f"made {bid}" + (" (slam)" if made == 10 else ""), value))
        else:
            items.append(Item(contractor, f"set on {bid}", -value))
        items += [Item(o, "tricks", 10 * tricks[o]) for o in self.others(contractor) if tricks[o]]
        return Scored(tuple(items))

    def entry_all_pass(self, data: Data) -> Scored:
        self.hands += 1
        if self.rules.all_pass == "redeal":
            data._get("tricks", None)
            return Scored(notes=("all passed: thrown in",))
        tricks = self._tricks(data)
        self.last_contractor = None
        return Scored(tuple(Item(s, "tricks at no trump", 10 * n) for s, n in tricks.items() if n))

    def check_end(self) -> GameResult | None:
        target = self.rules.target
        above = [s for s in self.names if self.totals[s] >= target]
        for s in self.names:
            if self.totals[s] <= -target:
                if len(self.sides) == 2:  # two-hand or partnerships: minus 500 loses
                    return GameResult(self.others(s), 1, f"{s} went to minus {target}", (s,))
                self.minus_out.add(s)  # three-hand: cannot win, plays on
        above = [s for s in above if s not in self.minus_out]
        if not above:
            return None
        if self.last_contractor in above:
            winner = self.last_contractor  # RULES C6: the contractor wins a tie for reaching 500
        else:
            winner = max(above, key=lambda s: self.totals[s])
        return GameResult((winner,), 1, f"reached {target}", self.others(winner))

    def state_json(self) -> dict[str, Any]:
        return {"in_the_hole": [s for s, v in self.totals.items() if v < 0],
                "cannot_win": sorted(self.minus_out)}
