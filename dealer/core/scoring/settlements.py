"""Games settled player to player in chips (RULES C9 Napoleon, C16 Solo Whist): a made contract collects
from every opponent, a failed one pays every opponent; chips always sum to zero.

>>> NAP_STANDARD["nap"], NAP_STANDARD["wellington"], NAP_STANDARD["blucher"]
((10, 5), (10, 10), (10, 20))
>>> SOLO_BIDS["misere-ouverte"]
(4, 0, 'lose')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.scoring.base import Data, Item, Scored, ScoreGame, pay_each, rule

__all__ = ["NAP_STANDARD", "SOLO_BIDS", "Napoleon", "SoloWhist"]

# bid → (received from each opponent when made, paid to each opponent when failed) [STD, RULES 0.1 item 6]
NAP_STANDARD = {"nap": (10, 5), "wellington": (10, 10), "blucher": (10, 20)}
NAP_AS_PRINTED = {"nap": (10, 15), "wellington": (10, 10), "blucher": (10, 20)}


@dataclass(frozen=True)
class NapoleonRules:
    payouts: str = rule("standard", "'standard': 1 per trick bid under five, Nap 10/5 (RULES 0.1 item 6); "
                        "'as-printed': the seed's garbled Nap 10/15 and 11 per trick", choices=("standard",
                        "as-printed"), section="C9 / 0.1 item 6")
    pool: bool = rule(False, "Pool Nap: a pool goes to the first player to make a Nap; a failed Nap "
                      "doubles it",
                      section="C9")
    pool_stake: int = rule(1, "Pool Nap: everyone's first stake, and each dealer's addition every hand",
                           section="C9")


class Napoleon(ScoreGame):
    """Napoleon (Nap), 2–6 players, with Wellington, Blücher, Pool Nap and Sir Garnet."""

    name: ClassVar[str] = "napoleon"
    title: ClassVar[str] = "Napoleon (Nap)"
    section: ClassVar[str] = "C9"
    units: ClassVar[str] = "chips"
    rules_class: ClassVar[type[Any]] = NapoleonRules
    side_count: ClassVar[tuple[int, int]] = (2, 6)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bidder, bid: 1-4 / nap / wellington / blucher, tricks: the bidder's tricks, "
                "sir_garnet?: took the extra hand (double penalty), dealer?: for Pool Nap}",
    }

    def setup(self) -> None:
        self.pool = 0

    def state_json(self) -> dict[str, Any]:
        return {"pool": self.pool} if self.rules.pool else {}

    def entry_hand(self, data: Data) -> Scored:
        bidder = data.side("bidder")
        raw = data._get("bid", None)
        tricks = data.num("tricks", lo=0, hi=5)
        garnet = data.flag("sir_garnet")
        table = NAP_STANDARD if self.rules.payouts == "standard" else NAP_AS_PRINTED
        per_trick = 1 if self.rules.payouts == "standard" else 11
        if isinstance(raw, str) and raw.lower().replace("ü", "u") in table:
            name = raw.lower().replace("ü", "u")
            need, (win, lose) = 5, table[name]
        elif isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 4:
            name, need, win, lose = f"{raw}", raw, per_trick * raw, per_trick * raw
        else:
            raise data.error(f"'bid' is 1 to 4 or nap / wellington / blucher, got {raw!r}")
        if garnet and need != 5:
            raise data.error("Sir Garnet obliges the taker to bid Nap")
        items: list[Item] = []
        if self.rules.pool:
            dealer = data.side("dealer")
            if not self.hands:
                items += [Item(p, "pool stake", -self.rules.pool_stake) for p in self.names]
                self.pool += self.rules.pool_stake * len(self.names)
            items.append(Item(dealer, "dealer adds to the pool", -self.rules.pool_stake))
            self.pool += self.rules.pool_stake
        else:
            data._get("dealer", None)
        self.hands += 1
        if tricks >= need:
            items += pay_each(bidder, self.others(bidder), win, f"made {name}")
            if self.rules.pool and need == 5 and self.pool:
                items.append(Item(bidder, "takes the pool", self.pool))
                self.pool = 0
        else:
            penalty = lose * (2 if garnet else 1)
            items += pay_each(bidder, self.others(bidder), -penalty, f"failed {name}")
            if self.rules.pool and need == 5:
                items.append(Item(bidder, "failed Nap doubles the pool", -self.pool))
                self.pool *= 2
        return Scored(tuple(items), extra=(("pool", self.pool),) if self.rules.pool else ())


# bid → (value, tricks, "win" at least / "lose" every trick / "win-with-partner")
SOLO_BIDS = {
    "prop": (1, 8, "win-with-partner"), "solo": (1, 5, "win"), "misere": (2, 0, "lose"),
    "abundance": (3, 9, "win"), "abundance-in-trump": (3, 9, "win"), "misere-ouverte": (4, 0, "lose"),
    "slam": (6, 13, "win"),
}


@dataclass(frozen=True)
class SoloWhistRules:
    stake: int = rule(1, "chips per credit", section="C16")


class SoloWhist(ScoreGame):
    """Solo Whist: each defender pays each declarer the contract value when it is made, and is paid it
    when it fails (Prop and Cop: 1 between each ally and each defender)."""

    name: ClassVar[str] = "solo-whist"
    title: ClassVar[str] = "Solo Whist"
    section: ClassVar[str] = "C16"
    units: ClassVar[str] = "chips"
    rules_class: ClassVar[type[Any]] = SoloWhistRules
    side_count: ClassVar[tuple[int, int]] = (4, 4)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bid: prop/solo/misere/abundance/abundance-in-trump/misere-ouverte/slam, declarer, "
                "partner?: the Cop for a Prop, tricks: the declarer's (or the allies') tricks}",
        "thrown-in": "{} — all passed, or a Prop found no Cop",
    }

    def entry_hand(self, data: Data) -> Scored:
        bid = data.choice("bid", tuple(SOLO_BIDS))
        value, need, how = SOLO_BIDS[bid]
        value *= self.rules.stake
        declarer = data.side("declarer")
        declarers = (declarer, data.side("partner")) if how == "win-with-partner" else (declarer,)
        if how != "win-with-partner" and data.has("partner"):
            raise data.error(f"{bid} is played alone")
        if len(set(declarers)) != len(declarers):
            raise data.error("the Cop is another player")
        tricks = data.num("tricks", lo=0, hi=13)
        made = tricks == 0 if how == "lose" else tricks >= need
        defenders = [p for p in self.names if p not in declarers]
        self.hands += 1
        items: list[Item] = []
        for d in declarers:
            label = f"{bid} {'made' if made else 'failed'}"
            items += pay_each(d, defenders, value if made else -value, label)
        return Scored(tuple(items))

    def entry_thrown_in(self, data: Data) -> Scored:
        return Scored(notes=("thrown in: the same dealer deals again",))
