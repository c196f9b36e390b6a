"""The euchre family (RULES C5): four-hand (with railroad options and rubbers), three-hand, two-hand,
auction euchre with its bid tables, call-ace and cincinnati.

>>> four_hand_points(tricks=5, alone=False)  # a march
('makers', 2)
>>> four_hand_points(tricks=2, alone=True, defender_alone=True, railroad=True)  # lone defender euchres
('defenders', 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreError, ScoreGame, Side, rule

__all__ = ["AUCTION_BIDS", "AuctionEuchre", "CallAceEuchre", "CincinnatiEuchre", "Euchre", "ThreeHandEuchre",
           "TwoHandEuchre", "four_hand_points", "rubbers"]


def four_hand_points(tricks: int, alone: bool, defender_alone: bool = False,
                     railroad: bool = False) -> tuple[str, int]:
    """Who scores a four-hand deal and how much (RULES C5 table; railroad: a lone defender euchring
    a lone maker scores 4)."""
    if not 0 <= tricks <= 5:
        raise ScoreError(f"a euchre deal has 5 tricks; the makers took {tricks}")
    if tricks < 3:
        return "defenders", 4 if (railroad and alone and defender_alone) else 2
    if tricks == 5:
        return "makers", 4 if alone else 2
    return "makers", 1


@dataclass(frozen=True)
class EuchreRules:
    target: int = rule(5, "game: 5, 7 or 10 points as agreed", choices=(5, 7, 10), section="C5")
    railroad: bool = rule(False, "railroad options: defending alone (a lone defender euchring a lone maker "
                          "scores 4), laps and slams below", section="C5 railroad")
    laps: bool = rule(False, "railroad: points beyond game carry into the next game", section="C5 railroad")
    slam: bool = rule(False, "railroad: winning before the opponents score counts 2 games",
                      section="C5 railroad")
    rubber_points: bool = rule(True, "game value in rubber points: 3 if the losers had 0 or less, "
                               "2 if 1–2, 1 if 3 or more", section="C5 rubbers")


class Euchre(ScoreGame):
    """Four-hand partnership euchre."""

    name: ClassVar[str] = "euchre"
    title: ClassVar[str] = "Euchre (four-hand)"
    section: ClassVar[str] = "C5"
    rules_class: ClassVar[type[Any]] = EuchreRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    partnership_sizes: ClassVar[tuple[int, ...]] = (2,)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{makers: side or player, tricks: makers' tricks 0-5, alone?: bool, defender_alone?: bool}",
        "carry": "{side, points} — railroad laps: points carried in from the last game",
    }

    def entry_hand(self, data: Data) -> Scored:
        makers = data.side("makers")
        tricks = data.num("tricks", lo=0, hi=5)
        alone = data.flag("alone")
        defender_alone = data.flag("defender_alone")
        if defender_alone and not (self.rules.railroad and alone):
            raise data.error("defending alone is a railroad option, against a lone maker only")
        who, points = four_hand_points(tricks, alone, defender_alone, self.rules.railroad)
        self.hands += 1
        if who == "makers":
            label = "march" if tricks == 5 else "made"
            return Scored((Item(makers, ("lone " if alone else "") + label, points),))
        return Scored((Item(self.others(makers)[0], "euchred the makers", points),))

    def entry_carry(self, data: Data) -> Scored:
        if not self.rules.laps or self.hands:
            raise data.error("carrying points is the railroad 'laps' option, before the first deal")
        return Scored((Item(data.side("side"), "laps carried", data.num("points", lo=1)),))

    def state_json(self) -> dict[str, Any]:
        """RULES C5: in the 5-point game a side is "at the bridge" with 4 points against 2 or fewer."""
        if self.rules.target != 5:
            return {}
        a, b = self.names
        bridge = [s for s, o in ((a, b), (b, a)) if self.totals[s] == 4 and self.totals[o] <= 2]
        return {"at_the_bridge": bridge}

    def check_end(self) -> GameResult | None:
        for side, total in self.totals.items():
            if total >= self.rules.target:
                loser = self.others(side)[0]
                lost = self.totals[loser]
                value, label = 1, "game"
                if self.rules.rubber_points:
                    value = 3 if lost <= 0 else 2 if lost <= 2 else 1
                    label = f"game ({value} rubber point{'s' * (value > 1)})"
                if self.rules.railroad and self.rules.slam and lost <= 0:
                    value, label = 2 * value, "slam (2 games)"
                if self.rules.laps and total > self.rules.target:
                    label += f"; {total - self.rules.target} lap point(s) carry"
                return GameResult((side,), value, label, (loser,))
        return None


def rubbers(games: Sequence[tuple[int, Sequence[Side], GameResult]]) -> list[dict[str, Any]]:
    """RULES C5 rubbers over a session's finished euchre games (index, sides, result), in order: the first
    side to win 2 games between the same partnerships wins the rubber; the margin is a 2-point bonus plus
    the winners' rubber points (the game values) minus the losers'.

    >>> we, they = Side("we", ("ann", "cy")), Side("they", ("bob", "di"))
    >>> rubbers([(1, (we, they), GameResult(("we",), 3)), (2, (we, they), GameResult(("they",), 1)),
    ...          (3, (we, they), GameResult(("we",), 2))])[0]["margin"]
    6
    """
    done: list[dict[str, Any]] = []
    running: dict[tuple[str, ...], dict[str, Any]] = {}
    for index, sides, result in games:
        if not result.winners:
            continue
        names = {s.name: " & ".join(sorted(s.members)) for s in sides}
        key = tuple(sorted(names.values()))
        fresh = {"partnerships": list(key), "games": [], "winner": None, "margin": None,
                 "wins": dict.fromkeys(key, 0), "rubber_points": dict.fromkeys(key, 0)}
        rubber = running.setdefault(key, fresh)
        winner = names[result.winners[0]]
        rubber["games"].append(index)
        rubber["wins"][winner] += 1
        rubber["rubber_points"][winner] += result.value
        if rubber["wins"][winner] == 2:
            loser = next(k for k in key if k != winner)
            rubber["winner"] = winner
            rubber["margin"] = 2 + rubber["rubber_points"][winner] - rubber["rubber_points"][loser]
            done.append(running.pop(key))
    return done + list(running.values())


class ThreeHandEuchre(ScoreGame):
    """Cutthroat: the maker against the other two (RULES C5 three-hand)."""

    name: ClassVar[str] = "euchre-three-hand"
    title: ClassVar[str] = "Euchre (three-hand, cutthroat)"
    section: ClassVar[str] = "C5"
    rules_class: ClassVar[type[Any]] = EuchreRules
    side_count: ClassVar[tuple[int, int]] = (3, 3)
    entry_kinds: ClassVar[dict[str, str]] = {"hand": "{maker, tricks: the maker's tricks 0-5}"}

    def entry_hand(self, data: Data) -> Scored:
        maker = data.side("maker")
        tricks = data.num("tricks", lo=0, hi=5)
        self.hands += 1
        if tricks < 3:
            return Scored(tuple(Item(o, "euchred the maker", 2) for o in self.others(maker)))
        return Scored((Item(maker, "march" if tricks == 5 else "made", 3 if tricks == 5 else 1),))

    def check_end(self) -> GameResult | None:
        over = [s for s, v in self.totals.items() if v >= self.rules.target]
        return self.final_result() if over else None


class TwoHandEuchre(Euchre):
    """Two-hand euchre: 24 cards, no going alone, a march scores 2."""

    name: ClassVar[str] = "euchre-two-hand"
    title: ClassVar[str] = "Euchre (two-hand)"
    partnership_sizes: ClassVar[tuple[int, ...]] = (1,)
    entry_kinds: ClassVar[dict[str, str]] = {"hand": "{makers: player, tricks: 0-5}"}

    def entry_hand(self, data: Data) -> Scored:
        if data.has("alone") or data.has("defender_alone"):
            raise data.error("two-hand euchre has no going alone (RULES C5)")
        return super().entry_hand(data)


# RULES C5 bid tables: players → bid → (tricks needed, partners, alone with widow?, alone without widow?)
AUCTION_BIDS: dict[int, dict[int, tuple[int, int, str]]] = {
    5: {3: (3, 1, ""), 4: (4, 2, ""), 5: (5, 2, ""), 8: (5, 0, "alone with the widow"),
        15: (5, 0, "alone without the widow")},
    6: {3: (3, 2, "team"), 4: (4, 2, "team"), 5: (5, 2, "team"), 8: (5, 0, "alone with the widow"),
        15: (5, 0, "alone without the widow")},
    7: {4: (4, 1, ""), 5: (5, 1, ""), 6: (6, 2, ""), 7: (7, 2, ""), 10: (7, 0, "alone with the widow"),
        20: (7, 0, "alone without the widow")},
}


@dataclass(frozen=True)
class AuctionEuchreRules:
    target: int = rule(0, "game target; 0 = no target, the host ends the game (the seed gives none)",
                       section="C5 auction")


class AuctionEuchre(ScoreGame):
    """Auction euchre for 5, 6 (two teams of three) or 7 players: the bid tables of RULES C5. A made bid
    scores its value to the maker and each partner; a failed one scores it to each opponent."""

    name: ClassVar[str] = "euchre-auction"
    title: ClassVar[str] = "Auction Euchre"
    section: ClassVar[str] = "C5"
    rules_class: ClassVar[type[Any]] = AuctionEuchreRules
    side_count: ClassVar[tuple[int, int]] = (2, 7)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 3)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bidder, bid, partners?: [players], tricks: the making side's tricks}",
    }

    def setup(self) -> None:
        seated = sum(len(s.members) for s in self.sides)
        if seated not in AUCTION_BIDS:
            raise ScoreError(f"auction euchre is for 5, 6 or 7 players, got {seated}")
        if seated == 6 and len(self.sides) != 2:
            raise ScoreError("six-hand auction euchre is two teams of three (give partnerships)")
        if seated != 6 and len(self.sides) != seated:
            raise ScoreError(f"{seated}-hand auction euchre is every player for himself")
        self.table = AUCTION_BIDS[seated]
        self.seated = seated

    def entry_hand(self, data: Data) -> Scored:
        bidder = data.side("bidder")
        bid = data.num("bid")
        if bid not in self.table:
            raise data.error(f"{self.seated}-hand bids are {', '.join(map(str, self.table))} (RULES C5), "
                             f"got {bid}")
        need, partners, how = self.table[bid]
        tricks = data.num("tricks", lo=0, hi=7 if self.seated == 7 else 5)
        self.hands += 1
        if self.seated == 6:
            data._get("partners", None)
            making: tuple[str, ...] = (bidder,)
        else:
            chosen = data.sides("partners", []) if partners else ()
            if partners and len(chosen) != partners:
                raise data.error(f"a bid of {bid} gives {partners} partner(s), got {len(chosen)}")
            if not partners and data.has("partners"):
                raise data.error(f"a bid of {bid} is played {how}: no partners")
            if bidder in chosen:
                raise data.error("the bidder cannot be his own partner")
            making = (bidder, *chosen)
        if tricks >= need:
            return Scored(tuple(Item(s, f"made {bid}", bid) for s in making))
        return Scored(tuple(Item(s, f"euchred the {bid} bid", bid) for s in self.names if s not in making))

    def check_end(self) -> GameResult | None:
        if self.rules.target and any(v >= self.rules.target for v in self.totals.values()):
            return self.final_result()
        return None


@dataclass(frozen=True)
class CallAceRules:
    target: int = rule(10, "[STD] game target (the seed gives no call-ace scoring)", section="C5 call-ace")


class CallAceEuchre(ScoreGame):
    """Call-ace euchre, 4–6 players [STD scoring, the seed has none]: maker and secret partner score
    1 each for 3–4 tricks and 2 each for all 5; a lone maker taking all 5 scores 1 per player in the game;
    a euchre scores 2 to each opponent."""

    name: ClassVar[str] = "euchre-call-ace"
    title: ClassVar[str] = "Call-Ace Euchre"
    section: ClassVar[str] = "C5"
    rules_class: ClassVar[type[Any]] = CallAceRules
    side_count: ClassVar[tuple[int, int]] = (4, 6)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{maker, partner?: the holder of the called card (absent: alone), tricks: 0-5}",
    }

    def entry_hand(self, data: Data) -> Scored:
        maker = data.side("maker")
        partner = data.optional_side("partner")
        tricks = data.num("tricks", lo=0, hi=5)
        making = (maker,) if partner in (None, maker) else (maker, partner)
        self.hands += 1
        if tricks < 3:
            return Scored(tuple(Item(o, "euchred the makers", 2) for o in self.names if o not in making))
        if len(making) == 1:
            points = len(self.names) if tricks == 5 else 1
            return Scored((Item(maker, "lone march" if tricks == 5 else "made alone", points),))
        label, points = ("march", 2) if tricks == 5 else ("made", 1)
        return Scored(tuple(Item(s, label, points) for s in making))

    def check_end(self) -> GameResult | None:
        over = [s for s, v in self.totals.items() if v >= self.rules.target]
        return self.final_result() if over else None


@dataclass(frozen=True)
class CincinnatiRules:
    triple_moon: int = rule(32, "Triple Moon value: 32 as the seed has it (36 would fit the ×12 pattern)",
                            choices=(32, 36), section="C5 note")
    defenders_score: bool = rule(True, "the defenders score the tricks they take (the seed implies it)",
                                 section="C5 note")
    target: int = rule(32, "game", section="C5")


MOONS = {"moon": 12, "double-moon": 24, "triple-moon": 0, "quadruple-moon": 48}


class CincinnatiEuchre(ScoreGame):
    """Cincinnati euchre: fixed partnerships, bids 3–6 or moons; six tricks a deal; game 32."""

    name: ClassVar[str] = "euchre-cincinnati"
    title: ClassVar[str] = "Cincinnati Euchre"
    section: ClassVar[str] = "C5"
    rules_class: ClassVar[type[Any]] = CincinnatiRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    partnership_sizes: ClassVar[tuple[int, ...]] = (2,)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bidder: side or player, bid: 3-6 or moon/double-moon/triple-moon/quadruple-moon, "
                "tricks: the bidding side's tricks 0-6}",
    }

    def entry_hand(self, data: Data) -> Scored:
        bidder = data.side("bidder")
        raw = data._get("bid", None)
        tricks = data.num("tricks", lo=0, hi=6)
        defenders = self.others(bidder)[0]
        if isinstance(raw, str) and raw.lower() in MOONS:
            value = MOONS[raw.lower()] or self.rules.triple_moon
            need, label = 6, raw.lower()
        elif isinstance(raw, int) and not isinstance(raw, bool) and 3 <= raw <= 6:
            value, need, label = raw, raw, f"bid {raw}"
        else:
            raise data.error(f"'bid' is 3 to 6 or one of {', '.join(MOONS)}, got {raw!r}")
        self.hands += 1
        items = []
        if tricks >= need:
            items.append(Item(bidder, f"made {label}", value if need == 6 and label in MOONS else tricks))
        else:
            items.append(Item(bidder, f"set on {label}", -value))
        if self.rules.defenders_score and 6 - tricks:
            items.append(Item(defenders, "tricks", 6 - tricks))
        return Scored(tuple(items))

    def check_end(self) -> GameResult | None:
        over = [s for s, v in self.totals.items() if v >= self.rules.target]
        return self.final_result() if over else None
