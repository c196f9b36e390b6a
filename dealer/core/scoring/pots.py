"""Chip games settled from a pot (RULES C7 Loo, C8 Preference, C10 Spoil Five): the pot is part of the
game's state and chips are conserved — players' net totals plus the pot are always zero.

>>> loo_shares(9, {"ann": 2, "bob": 1})
{'ann': 6, 'bob': 3}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.scoring.base import Data, Item, Scored, ScoreGame, rule

__all__ = ["Loo", "Preference", "SpoilFive", "loo_shares"]


def loo_shares(pot: int, tricks: dict[str, int]) -> dict[str, int]:
    """Each trick won collects a third of the pot (RULES C7: the pot is always a multiple of 3)."""
    third = pot // 3
    return {p: n * third for p, n in tricks.items() if n}


class PotGame(ScoreGame):
    units: ClassVar[str] = "chips"

    def setup(self) -> None:
        self.pot = 0

    def state_json(self) -> dict[str, Any]:
        return {"pot": self.pot}

    def into_pot(self, side: str, amount: int, label: str) -> Item:
        self.pot += amount
        return Item(side, label, -amount)

    def from_pot(self, side: str, amount: int, label: str) -> Item:
        self.pot -= amount
        return Item(side, label, amount)


@dataclass(frozen=True)
class LooRules:
    ante: int = rule(3, "the dealer's ante, and what a looed player pays into the next pot (limited loo)",
                     section="C7")


class Loo(PotGame):
    """Three-card limited Loo: each trick takes a third of the pot; a player in who takes none is looed
    and pays 3 into the next pot (making it a double); a flush (three trumps) takes the whole pot."""

    name: ClassVar[str] = "loo"
    title: ClassVar[str] = "Loo (three-card, limited)"
    section: ClassVar[str] = "C7"
    rules_class: ClassVar[type[Any]] = LooRules
    side_count: ClassVar[tuple[int, int]] = (3, 9)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{dealer, tricks: {player: tricks} (3 in all) or flush: player, in?: players who stayed in "
                "(default all), defending_dealer?: bool}",
    }

    def entry_hand(self, data: Data) -> Scored:
        dealer = data.side("dealer")
        items = [self.into_pot(dealer, self.rules.ante, "dealer's ante")]
        playing = data.sides("in", list(self.names))
        defending = data.flag("defending_dealer")
        self.hands += 1
        if data.has("flush"):
            holder = data.side("flush")
            items.append(self.from_pot(holder, self.pot, "flush takes the pot"))
            looed = [p for p in playing if p != holder]
            data._get("tricks", None)
        else:
            tricks = data.per_side("tricks", lo=0, hi=3, complete=False)
            if sum(tricks.values()) != 3 or any(p not in playing for p in tricks if tricks[p]):
                raise data.error("three tricks, all won by players who stayed in")
            if defending:
                tricks.pop(dealer, None)  # RULES C7: a defending dealer neither wins nor pays
            pot = self.pot
            for p, amount in loo_shares(pot, tricks).items():
                items.append(self.from_pot(p, amount, f"{tricks[p]} trick(s)"))
            looed = [p for p in playing if not tricks.get(p) and not (defending and p == dealer)]
        for p in looed:
            items.append(self.into_pot(p, self.rules.ante, "looed"))
        kind = "double" if self.pot > 3 else "single"
        return Scored(tuple(items), extra=(("pot", self.pot), ("next_pot", kind)))


@dataclass(frozen=True)
class PreferenceRules:
    ante: int = rule(1, "each player's ante into the pot every deal (agreed in advance)", section="C8")
    payment: int = rule(6, "what a bidder who makes 6 tricks collects from the pot (agreed)", section="C8")
    penalty: int = rule(6, "what a bidder who fails pays into the pot (agreed)", section="C8")


class Preference(PotGame):
    """Three-player Preference: only the bidder settles, with the pot."""

    name: ClassVar[str] = "preference"
    title: ClassVar[str] = "Preference"
    section: ClassVar[str] = "C8"
    rules_class: ClassVar[type[Any]] = PreferenceRules
    side_count: ClassVar[tuple[int, int]] = (3, 3)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bidder, tricks: the bidder's tricks 0-10, widow_bid?: chips paid for the widow}",
        "passed-out": "{} — both rounds passed: antes stay, redeal",
    }

    def _antes(self) -> list[Item]:
        return [self.into_pot(p, self.rules.ante, "ante") for p in self.names]

    def entry_hand(self, data: Data) -> Scored:
        items = self._antes()
        bidder = data.side("bidder")
        tricks = data.num("tricks", lo=0, hi=10)
        extra = data.num("widow_bid", 0, lo=0)
        if extra:
            items.append(self.into_pot(bidder, extra, "second-round bid for the widow"))
        self.hands += 1
        notes = []
        if tricks >= 6:
            paid = min(self.rules.payment, self.pot)
            if paid < self.rules.payment:
                notes.append(f"the pot held only {paid}")
            items.append(self.from_pot(bidder, paid, f"made ({tricks} tricks)"))
        else:
            items.append(self.into_pot(bidder, self.rules.penalty, f"failed ({tricks} tricks)"))
        return Scored(tuple(items), tuple(notes), (("pot", self.pot),))

    def entry_passed_out(self, data: Data) -> Scored:
        self.hands += 1
        return Scored(tuple(self._antes()), ("passed out: redeal",), (("pot", self.pot),))


@dataclass(frozen=True)
class SpoilFiveRules:
    ante: int = rule(1, "every player's chip into the pot before each hand", section="C10")


class SpoilFive(PotGame):
    """Spoil Five: the first to 3 tricks takes the pot; a jinx (playing on) must take all 5 for the pot
    plus 1 from each opponent, else the pot carries; a spoiled hand carries the pot."""

    name: ClassVar[str] = "spoil-five"
    title: ClassVar[str] = "Spoil Five"
    section: ClassVar[str] = "C10"
    rules_class: ClassVar[type[Any]] = SpoilFiveRules
    side_count: ClassVar[tuple[int, int]] = (2, 10)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{winner?: first to 3 tricks (absent: spoiled), jinx?: played on for five, "
                "jinx_made?: took all five}",
    }

    def entry_hand(self, data: Data) -> Scored:
        items = [self.into_pot(p, self.rules.ante, "ante") for p in self.names]
        winner = data.optional_side("winner")
        jinx = data.flag("jinx")
        made = data.flag("jinx_made")
        self.hands += 1
        if winner is None:
            if jinx or made:
                raise data.error("a jinx needs the winner of three tricks")
            return Scored(tuple(items), ("spoiled: the pot carries",), (("pot", self.pot),))
        if jinx and not made:
            return Scored(tuple(items), (f"{winner}'s jinx failed: the pot carries",), (("pot", self.pot),))
        items.append(self.from_pot(winner, self.pot, "jinx: the pot" if jinx else "three tricks: the pot"))
        if jinx:
            for p in self.others(winner):
                items += [Item(p, "jinx", -1), Item(winner, f"jinx from {p}", 1)]
        return Scored(tuple(items), extra=(("pot", self.pot),))
