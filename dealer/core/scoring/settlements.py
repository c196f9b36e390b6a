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
                "sir_garnet?: took the extra hand (double penalty), dealer?: for Pool Nap, out_of_turn?: an "
                "opponent who played out of turn, wrong_hand?: a player with the wrong number of cards, "
                "peeked?: [players who paid 1 to see the Peep Nap widow]}",
        "revoke": "{bidder, bid, revoker, sir_garnet?, dealer?} — a revoke claimed before settlement: play "
                  "stops and it is settled at once (RULES C9)",
    }

    def setup(self) -> None:
        self.pool = 0

    def state_json(self) -> dict[str, Any]:
        return {"pool": self.pool} if self.rules.pool else {}

    def _bid(self, data: Data) -> tuple[str, int, int, int]:
        """The bid's name, tricks needed, what each opponent pays when it is made and is paid when not."""
        raw = data._get("bid", None)
        table = NAP_STANDARD if self.rules.payouts == "standard" else NAP_AS_PRINTED
        per_trick = 1 if self.rules.payouts == "standard" else 11
        if isinstance(raw, str) and raw.lower().replace("ü", "u") in table:
            name = raw.lower().replace("ü", "u")
            win, lose = table[name]
            return name, 5, win, lose
        if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 4:
            return f"{raw}", raw, per_trick * raw, per_trick * raw
        raise data.error(f"'bid' is 1 to 4 or nap / wellington / blucher, got {raw!r}")

    def _pool_stakes(self, data: Data) -> list[Item]:
        """Pool Nap: everyone's first stake, then the dealer's addition every hand."""
        if not self.rules.pool:
            data._get("dealer", None)
            return []
        dealer = data.side("dealer")
        items: list[Item] = []
        if not self.hands:
            items += [Item(p, "pool stake", -self.rules.pool_stake) for p in self.names]
            self.pool += self.rules.pool_stake * len(self.names)
        items.append(Item(dealer, "dealer adds to the pool", -self.rules.pool_stake))
        self.pool += self.rules.pool_stake
        return items

    def _into_pool(self, side: str, amount: int, label: str) -> Item:
        self.pool += amount
        return Item(side, label, -amount)

    def entry_hand(self, data: Data) -> Scored:
        bidder = data.side("bidder")
        name, need, win, lose = self._bid(data)
        tricks = data.num("tricks", lo=0, hi=5)
        garnet = data.flag("sir_garnet")
        if garnet and need != 5:
            raise data.error("Sir Garnet obliges the taker to bid Nap")
        late = data.optional_side("out_of_turn")
        wrong = data.optional_side("wrong_hand")
        if late == bidder:
            late = None  # RULES C9: no penalty on the bidder for playing out of turn
        items = self._pool_stakes(data)
        peeked = data.sides("peeked", [])
        if peeked and not self.rules.pool:
            raise data.error("peeking at the widow for a chip is Peep Nap, a Pool Nap game (house rule pool)")
        items += [self._into_pool(p, 1, "peeked at the widow") for p in peeked]  # RULES C9 Peep Nap
        self.hands += 1
        notes: list[str] = []
        if late is not None:
            if self.rules.pool:  # RULES C9 Pool Nap: a lead out of turn adds 3 chips to the pool
                items.append(self._into_pool(late, 3, "out of turn: 3 to the pool"))
            else:  # RULES C9: an opponent playing out of turn pays the bidder 3
                items += [Item(late, "out of turn", -3), Item(bidder, f"out of turn by {late}", 3)]
        opponents = self.others(bidder)
        if tricks >= need:
            if wrong == bidder:  # RULES C9: a bidder with the wrong number of cards is not paid if he wins
                notes.append(f"{bidder} held the wrong number of cards: not paid")
            else:
                items += pay_each(bidder, opponents, win, f"made {name}")
            if self.rules.pool and need == 5 and self.pool:
                items.append(Item(bidder, "takes the pool", self.pool))
                self.pool = 0
        else:
            penalty = lose * (2 if garnet else 1)
            if wrong is not None and wrong != bidder:  # RULES C9: opponent with a wrong hand: bidder pays 0
                notes.append(f"{wrong} held the wrong number of cards: {bidder} pays nothing")
            else:
                paid = [o for o in opponents if o != late]  # RULES C9: the out-of-turn player collects none
                items += pay_each(bidder, paid, -penalty, f"failed {name}")
            if self.rules.pool and need == 5:
                items.append(Item(bidder, "failed Nap doubles the pool", -self.pool))
                self.pool *= 2
        return Scored(tuple(items), tuple(notes), (("pool", self.pool),) if self.rules.pool else ())

    def entry_revoke(self, data: Data) -> Scored:
        """RULES C9: play stops and settlement is made at once. A revoking bidder pays everyone as if he had
        lost; a revoking opponent alone pays the bidder what all the players would have paid him. In Pool
        Nap a revoke also adds 5 chips to the pool."""
        bidder = data.side("bidder")
        revoker = data.side("revoker")
        name, _, win, lose = self._bid(data)
        garnet = data.flag("sir_garnet")
        items = self._pool_stakes(data)
        self.hands += 1
        if self.rules.pool:
            items.append(self._into_pool(revoker, 5, "revoke: 5 to the pool"))
        opponents = self.others(bidder)
        if revoker == bidder:
            items += pay_each(bidder, opponents, -lose * (2 if garnet else 1), f"revoked on {name}")
        else:
            full = win * len(opponents)
            items += [Item(revoker, f"revoke: pays the bidder's {name} for all", -full),
                      Item(bidder, f"{name}: paid in full by {revoker}", full)]
        return Scored(tuple(items), (f"{revoker} revoked: play stopped",),
                      (("pool", self.pool),) if self.rules.pool else ())


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
