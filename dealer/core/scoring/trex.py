"""Trex (RULES C15, 0.1 item 5): four kingdoms of five contracts, doubled queens and king of hearts,
the Trex layout payouts. The Diamonds sign is a house rule: standard −10 (a kingdom then sums to zero:
+500 against −130 −195 −100 −75); the seed prints +10.

>>> KINGDOM_TOTAL_STANDARD
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreGame, rule

__all__ = ["CONTRACTS", "Trex"]

CONTRACTS = ("diamonds", "eltoosh", "girls", "king", "trex")
TREX_PAYOUTS = (200, 150, 100, 50)
QUEENS = ("QS", "QH", "QD", "QC")
KINGDOM_TOTAL_STANDARD = sum(TREX_PAYOUTS) - 13 * 10 - 13 * 15 - 4 * 25 - 75


@dataclass(frozen=True)
class TrexRules:
    diamonds: int = rule(-10, "points per diamond taken: standard -10 (zero-sum kingdom); the seed "
                         "prints +10 (RULES 0.1 item 5 — ask the client)", choices=(-10, 10),
                         section="C15 / 0.1 item 5")
    check_kingdoms: bool = rule(True, "each owner uses each contract once; the kingdom passes to the right "
                                "(the player before him in seating order)", section="C15")


class Trex(ScoreGame):
    """Trex for four players; seating order is the players' order, clockwise."""

    name: ClassVar[str] = "trex"
    title: ClassVar[str] = "Trex (Trix)"
    section: ClassVar[str] = "C15"
    rules_class: ClassVar[type[Any]] = TrexRules
    side_count: ClassVar[tuple[int, int]] = (4, 4)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{owner, contract: diamonds {taken: {p: n}} | eltoosh {tricks: {p: n}} | girls {queens: "
                "{QS: taker, ...}, doubled?: {QH: holder}, leaders?: {QH: leader}} | king {taker, "
                "doubled_by?, leader?} | trex {order: [first out, ...]}}",
        "abandon": "{owner} — Trex abandoned (four 2s, or three 2s and the 3 of the fourth suit): redeal",
    }

    def setup(self) -> None:
        self.kingdoms: list[tuple[str, list[str]]] = []  # (owner, contracts played)

    def state_json(self) -> dict[str, Any]:
        return {"kingdoms": [{"owner": o, "contracts": list(c)} for o, c in self.kingdoms],
                "hands_left": 20 - self.hands}

    def _check_owner(self, data: Data, owner: str, contract: str) -> None:
        if not self.rules.check_kingdoms:
            return
        if self.kingdoms and len(self.kingdoms[-1][1]) < 5:
            current, played = self.kingdoms[-1]
            if owner != current:
                raise data.error(f"{current} owns the kingdom until all five contracts are played")
            if contract in played:
                raise data.error(f"{owner} has already chosen {contract} in this kingdom (each once)")
            return
        if self.kingdoms:
            last = self.kingdoms[-1][0]
            expected = self.names[self.names.index(last) - 1]  # RULES C15: the kingdom passes right
            if owner != expected:
                raise data.error(f"the kingdom passes to the right of {last}: {expected}, not {owner}")

    def entry_hand(self, data: Data) -> Scored:
        owner = data.side("owner")
        contract = data.choice("contract", CONTRACTS)
        self._check_owner(data, owner, contract)
        items = getattr(self, f"_{contract}")(data)
        if not self.kingdoms or len(self.kingdoms[-1][1]) == 5:
            self.kingdoms.append((owner, []))
        self.kingdoms[-1][1].append(contract)
        self.hands += 1
        return Scored(tuple(items), extra=(("contract", contract),))

    def entry_abandon(self, data: Data) -> Scored:
        data.side("owner")
        return Scored(notes=("Trex abandoned: redeal; the owner may choose another contract",))

    def _diamonds(self, data: Data) -> list[Item]:
        taken = data.per_side("taken", hi=13)
        if sum(taken.values()) != 13:
            raise data.error("the 13 diamonds must all be taken")
        return [Item(p, f"{n} diamond(s)", n * self.rules.diamonds) for p, n in taken.items() if n]

    def _eltoosh(self, data: Data) -> list[Item]:
        tricks = data.per_side("tricks", hi=13)
        if sum(tricks.values()) != 13:
            raise data.error("13 tricks must be taken")
        return [Item(p, f"{n} trick(s)", -15 * n) for p, n in tricks.items() if n]

    def _doubled(self, data: Data, card: str, taker: str, holder: str | None, leader: str | None,
                 value: int) -> list[Item]:
        """Penalty ``value`` to the taker; doubled: twice that, and half of it to the holder, or to the
        leader of the trick when the holder took his own card (RULES C15)."""
        if holder is None:
            return [Item(taker, card, -value)]
        items = [Item(taker, f"{card} doubled", -2 * value)]
        if taker == holder:
            if leader is None:
                raise data.error(f"{holder} took his own doubled {card}: say who led that trick")
            items.append(Item(leader, f"led the trick of the doubled {card}", value))
        else:
            items.append(Item(holder, f"doubled {card}", value))
        return items

    def _map(self, data: Data, key: str) -> dict[str, str]:
        raw = data._get(key, {})
        if not isinstance(raw, dict):
            raise data.error(f"'{key}' maps queens (QS QH QD QC) to players")
        out = {}
        for card, who in raw.items():
            if card.upper() not in QUEENS:
                raise data.error(f"'{key}': {card!r} is not a queen (QS QH QD QC)")
            out[card.upper()] = self.side_of(who, data.where)
        return out

    def _girls(self, data: Data) -> list[Item]:
        takers = self._map(data, "queens")
        if sorted(takers) != sorted(QUEENS):
            raise data.error("say who took each of the four queens (QS QH QD QC)")
        doubled, leaders = self._map(data, "doubled"), self._map(data, "leaders")
        items: list[Item] = []
        for card in QUEENS:
            items += self._doubled(data, card, takers[card], doubled.get(card), leaders.get(card), 25)
        return items

    def _king(self, data: Data) -> list[Item]:
        return self._doubled(data, "K♥", data.side("taker"), data.optional_side("doubled_by"),
                             data.optional_side("leader"), 75)

    def _trex(self, data: Data) -> list[Item]:
        order = data.sides("order")
        if sorted(order) != sorted(self.names):
            raise data.error("'order' lists all four players, first out first")
        return [Item(p, f"Trex {i + 1}", TREX_PAYOUTS[i]) for i, p in enumerate(order)]

    def check_end(self) -> GameResult | None:
        if self.hands >= 20:  # RULES C15: four kingdoms of five hands
            return self.final_result()
        return None
