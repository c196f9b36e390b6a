"""Five Hundred (RULES C6): the Avondale schedule [STD] (the seed's table is missing), nullo, overtricks,
slams, set-backs, 10 per trick to opponents, game at +500 / −500; the five-hand game's chosen partners,
an opponent's claim, and the optional card-point game to 1,000 or 1,500.

>>> avondale(8, "H"), avondale(10, "NT"), avondale(6, "S")
(300, 520, 40)
>>> from dealer.core.cards import parse_cards
>>> card_points(parse_cards("AS KS 10H 9D 7C JK"))  # RULES C6: ace 1, faces and tens 10, pips, joker 0
37
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.cards import Card, Rank
from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreGame, rule

__all__ = ["FiveHundred", "avondale", "card_points", "parse_bid"]

DENOMINATIONS = ("S", "C", "D", "H", "NT")  # low to high


def avondale(tricks: int, denomination: str) -> int:
    """Avondale value: 6♠ = 40, each denomination up +20, each trick up +100 [STD]."""
    return 40 + 100 * (tricks - 6) + 20 * DENOMINATIONS.index(denomination)


def card_points(cards: Sequence[Card]) -> int:
    """Card points for the 1,000/1,500 game (RULES C6 option): each ace 1, each face card or ten 10,
    lower cards their pip value, the joker 0 (the seed gives the ace 1; some play it 11)."""
    total = 0
    for card in cards:
        if card.rank is None:
            continue
        total += 10 if card.rank >= Rank.TEN else int(card.rank)
    return total


def parse_bid(text: str) -> tuple[int, str] | None:
    """``'8H'`` → (8, 'H'), ``'10NT'`` → (10, 'NT'), ``'nullo'`` → None; anything else raises ValueError."""
    bid = text.strip().upper()
    if bid == "NULLO":
        return None
    cut = 2 if bid.endswith("NT") else 1
    number, denom = bid[:-cut], bid[-cut:]
    if not number.isdigit() or not 6 <= int(number) <= 10 or denom not in DENOMINATIONS:
        raise ValueError(f"'bid' is 6-10 tricks and S C D H or NT (e.g. '8H', '10NT'), or 'nullo'; "
                         f"got {text!r}")
    return int(number), denom


@dataclass(frozen=True)
class FiveHundredRules:
    target: int = rule(500, "first to this wins", section="C6")
    minus_out: int = rule(500, "reaching minus this loses (two sides), or cannot win (three or more)",
                          section="C6")
    nullo: int = rule(250, "nullo value (lose every trick at no trump)", section="C6")
    slam_minimum: int = rule(250, "all ten tricks score at least this", section="C6")
    all_pass: str = rule("redeal", "when all pass: 'redeal' with no score, or 'play' at no trump, "
                         "10 per trick each, no set-back", choices=("redeal", "play"), section="C6")
    card_points: bool = rule(False, "the card-point game: each side also scores the card points it takes "
                             "(ace 1, face cards and tens 10, pips, joker 0); they do not decide the bid",
                             section="C6 option")
    card_target: int = rule(1000, "the card-point game is to this (1,000 or 1,500)", choices=(1000, 1500),
                            section="C6 option")


class FiveHundred(ScoreGame):
    """Five Hundred for 2–6 (three-hand individual, four-hand and six-hand partnerships, five-hand with
    partners chosen each deal)."""

    name: ClassVar[str] = "five-hundred"
    title: ClassVar[str] = "Five Hundred"
    section: ClassVar[str] = "C6"
    rules_class: ClassVar[type[Any]] = FiveHundredRules
    side_count: ClassVar[tuple[int, int]] = (2, 5)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 2, 3)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{contractor: player or side, bid: '8H' / '10NT' / 'nullo', tricks: {side: tricks won}, "
                "partners?: [players] (five-hand: 1, or 2 for a bid of 8 or more), first_to_target?: the "
                "opponent who reached the target first (trick order), card_points?: {side: n} or "
                "cards?: {side: cards taken} (card-point game)}",
        "all-pass": "{tricks?: {side: tricks}, card_points? / cards?} — thrown in, or played at no trump "
                    "by house rule",
        "claim": "{player, contractor, bid, tricks: the claimant's tricks so far, card_points?: his card "
                 "points so far} — an opponent claims the game during play (three-hand)",
    }

    def setup(self) -> None:
        self.last_contractor: tuple[str, ...] = ()
        self.first_named: str | None = None
        self.minus_out: set[str] = set()
        self.claimed: GameResult | None = None

    @property
    def target(self) -> int:
        return int(self.rules.card_target if self.rules.card_points else self.rules.target)

    def _tricks(self, data: Data) -> dict[str, int]:
        tricks = data.per_side("tricks", lo=0, hi=10)
        if sum(tricks.values()) != 10:
            raise data.error(f"the tricks must add up to 10, got {sum(tricks.values())}")
        return tricks

    def _card_points(self, data: Data) -> list[Item]:
        """RULES C6 option: card points taken, counted from cards or given per side."""
        if not self.rules.card_points:
            if data.has("card_points") or data.has("cards"):
                raise data.error("card points count only in the card-point game (house rule card-points)")
            return []
        if data.has("cards"):
            raw = data._get("cards", None)
            if not isinstance(raw, dict):
                raise data.error("'cards' maps each side to the cards it took in tricks")
            counted: dict[str, int] = {}
            seen: set[Card] = set()
            for who, text in raw.items():
                side = self.side_of(who, data.where)
                cards = Data({"c": text}, self, data.where).cards("c")
                twice = [c.code for c in cards if c in seen or cards.count(c) > 1]
                if twice:
                    raise data.error(f"{', '.join(sorted(set(twice)))} taken twice; the pack has one of each")
                seen.update(cards)
                counted[side] = counted.get(side, 0) + card_points(cards)
        else:
            counted = data.per_side("card_points", lo=0, complete=False)
        return [Item(s, "card points", n) for s, n in counted.items() if n]

    def _making_side(self, data: Data, contractor: str, tricks_bid: int | None) -> tuple[str, ...]:
        """The contractor and, in the five-hand game, the partner(s) he chose for this deal."""
        individual = all(len(s.members) == 1 for s in self.sides)
        if not data.has("partners"):
            data._get("partners", None)
            if individual and len(self.sides) == 5 and tricks_bid is not None:
                raise data.error("five-hand: name the contractor's partner(s) in 'partners' (RULES C6)")
            return (contractor,)
        if not individual or len(self.sides) != 5:
            raise data.error("chosen partners are the five-hand game's rule (RULES C6)")
        if tricks_bid is None:
            raise data.error("the nullo bidder plays alone (RULES C6)")
        partners = data.sides("partners")
        need = 2 if tricks_bid >= 8 else 1
        if len(partners) != need or contractor in partners:
            raise data.error(f"a bid of {tricks_bid} takes {need} partner(s) other than the contractor "
                             f"(RULES C6), got {list(partners)}")
        return (contractor, *partners)

    def entry_hand(self, data: Data) -> Scored:
        contractor = data.side("contractor")
        try:
            bid = parse_bid(data.text("bid"))
        except ValueError as exc:
            raise data.error(str(exc)) from None
        tricks = self._tricks(data)
        making = self._making_side(data, contractor, None if bid is None else bid[0])
        made = sum(tricks[s] for s in making)
        items: list[Item] = []
        self.hands += 1
        self.last_contractor = making
        self.first_named = data.optional_side("first_to_target")
        if self.first_named in making:
            raise data.error("'first_to_target' names an opponent of the contractor")
        opponents = [o for o in self.names if o not in making]
        if bid is None:
            if made == 0:
                items.append(Item(contractor, "nullo made", self.rules.nullo))
            else:
                items.append(Item(contractor, "nullo set", -self.rules.nullo))
                items += [Item(o, "tricks against nullo", 10 * made) for o in opponents]
            return Scored(tuple(items + self._card_points(data)))
        number, denom = bid
        label = f"{number}{denom}"
        value = avondale(number, denom)
        if made >= number:
            if made == 10:
                value = max(value, self.rules.slam_minimum)
            items += [Item(s, f"made {label}" + (" (slam)" if made == 10 else ""), value) for s in making]
        else:
            items += [Item(s, f"set on {label}", -value) for s in making]
        items += [Item(o, "tricks", 10 * tricks[o]) for o in opponents if tricks[o]]
        return Scored(tuple(items + self._card_points(data)))

    def entry_all_pass(self, data: Data) -> Scored:
        self.hands += 1
        self.last_contractor = ()
        if self.rules.all_pass == "redeal":
            data._get("tricks", None)
            data._get("card_points", None)
            data._get("cards", None)
            return Scored(notes=("all passed: thrown in",))
        tricks = self._tricks(data)
        items = [Item(s, "tricks at no trump", 10 * n) for s, n in tricks.items() if n]
        return Scored(tuple(items + self._card_points(data)))

    def entry_claim(self, data: Data) -> Scored:
        """RULES C6 three-hand: an opponent may claim once his tricks bring him to the target, if the
        contractor could not reach it even by making his bid; a wrong claim scores nothing."""
        claimant = data.side("player")
        contractor = data.side("contractor")
        if claimant == contractor:
            raise data.error("only an opponent of the contractor claims")
        try:
            bid = parse_bid(data.text("bid"))
        except ValueError as exc:
            raise data.error(str(exc)) from None
        best = self.rules.nullo if bid is None else max(avondale(*bid), self.rules.slam_minimum)
        if self.totals[contractor] + best >= self.target:
            raise data.error(f"{contractor} could still reach {self.target} by making the bid ({best}); "
                             "an opponent may claim only when he could not (RULES C6)")
        if claimant in self.minus_out:
            raise data.error(f"{claimant} went to minus {self.rules.minus_out} and cannot win")
        tricks = data.num("tricks", lo=0, hi=10)
        card = data.num("card_points", 0, lo=0) if self.rules.card_points else 0
        total = self.totals[claimant] + 10 * tricks + card
        if total < self.target:
            return Scored(notes=(f"{claimant}'s claim is wrong ({total} of {self.target}): play goes on "
                                 "with his hand exposed",))
        self.claimed = GameResult((claimant,), 1, f"claimed {self.target}", self.others(claimant))
        items = [Item(claimant, "tricks at the claim", 10 * tricks)]
        if card:
            items.append(Item(claimant, "card points at the claim", card))
        return Scored(tuple(items))

    def check_end(self) -> GameResult | None:
        if self.claimed is not None:
            return self.claimed
        target, floor = self.target, self.rules.minus_out
        for s in self.names:
            if self.totals[s] <= -floor:
                if len(self.sides) == 2:  # two-hand or partnerships: minus 500 loses
                    return GameResult(self.others(s), 1, f"{s} went to minus {floor}", (s,))
                self.minus_out.add(s)  # three or more: cannot win, plays on
        above = [s for s in self.names if self.totals[s] >= target]
        if not above:
            return None
        eligible = [s for s in above if s not in self.minus_out]
        if not eligible:  # RULES C6: a player who went to minus 500 reached 500 first: nobody wins
            return GameResult((), 1, f"{', '.join(above)} reached {target} after going to minus {floor}: "
                              "nobody wins", tuple(self.names))
        makers = [s for s in self.last_contractor if s in eligible]
        if makers:
            winner = makers[0]  # RULES C6: the contractor wins a tie for reaching 500
            label = f"reached {target} (contractor)"
        elif self.first_named in eligible:
            winner, label = self.first_named, f"first opponent to {target}"
        else:  # the trick order was not entered: the highest total
            winner = max(eligible, key=lambda s: self.totals[s])
            label = f"reached {target}"
        return GameResult((winner,), 1, label, self.others(winner))

    def state_json(self) -> dict[str, Any]:
        return {"target": self.target, "in_the_hole": [s for s, v in self.totals.items() if v < 0],
                "cannot_win": sorted(self.minus_out)}
