"""Canasta (RULES C2): card values, melds and canastas counted from cards, red threes, going out
(concealed), the minimum first meld by accumulated score (the seed's table is garbled; the standard
one is used), game to 5,000.

>>> check_meld(parse_cards("7H 7D 7S 7C 7H 2C JK")).to_json()["canasta"]
'mixed'
>>> [minimum_first_meld(s) for s in (-20, 0, 1495, 1500, 2995, 3000)]
[15, 50, 50, 90, 90, 120]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.cards import Card, Rank, parse_cards
from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreError, ScoreGame, rule

__all__ = ["Canasta", "MeldCount", "card_value", "check_meld", "minimum_first_meld"]


def is_wild(card: Card) -> bool:
    return card.is_joker or card.rank is Rank.TWO


def is_red_three(card: Card) -> bool:
    return card.rank is Rank.THREE and card.suit is not None and card.suit.is_red


def card_value(card: Card) -> int:
    """Joker 50, 2 and ace 20, K–8 10, 7–4 and black 3 5 (a red 3 is a bonus card, not counted here)."""
    if card.is_joker:
        return 50
    if card.rank in (Rank.TWO, Rank.ACE):
        return 20
    if card.rank is not None and card.rank >= Rank.EIGHT:
        return 10
    if card.rank is Rank.THREE and is_red_three(card):
        raise ScoreError(f"{card.code} is a red three: count it with 'red_threes', not in a meld or hand")
    return 5


def minimum_first_meld(score: int) -> int:
    """Minimum count for a side's first meld by its score at the start of the deal (standard table;
    the seed's is garbled): negative 15, 0–1,495 50, 1,500–2,995 90, 3,000 or more 120."""
    if score < 0:
        return 15
    if score < 1500:
        return 50
    if score < 3000:
        return 90
    return 120


@dataclass(frozen=True)
class MeldCount:
    cards: tuple[Card, ...]
    rank: Rank
    naturals: int
    wilds: int

    @property
    def canasta(self) -> str | None:
        if len(self.cards) < 7:
            return None
        return "natural" if self.wilds == 0 else "mixed"

    @property
    def points(self) -> int:
        return sum(card_value(c) for c in self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"cards": [c.code for c in self.cards], "rank": self.rank.code, "naturals": self.naturals,
                "wilds": self.wilds, "points": self.points, "canasta": self.canasta}


def check_meld(cards: Sequence[Card], *, going_out: bool = False) -> MeldCount:
    """A legal meld: 3+ cards of one rank, 2+ naturals, at most 3 wild cards (canasta: 4+ naturals);
    black threes only when going out, three or four of them with no wild cards (RULES C2)."""
    naturals = [c for c in cards if not is_wild(c)]
    wilds = len(cards) - len(naturals)
    text = " ".join(c.code for c in cards)
    if len(cards) < 3:
        raise ScoreError(f"meld {text}: a meld has at least 3 cards")
    ranks = {c.rank for c in naturals}
    if len(ranks) != 1:
        raise ScoreError(f"meld {text}: all natural cards must share one rank (sequences are not melds)")
    rank = naturals[0].rank
    assert rank is not None
    if any(is_red_three(c) for c in naturals):
        raise ScoreError(f"meld {text}: red threes are never melded (they are bonus cards)")
    if rank is Rank.THREE and (wilds or not going_out or len(cards) > 4):
        raise ScoreError(f"meld {text}: black threes meld only when going out, three or four, no wild cards")
    if len(naturals) < 2 or wilds > 3:
        raise ScoreError(f"meld {text}: needs at least two natural cards and at most three wild cards")
    if len(cards) >= 7 and len(naturals) < 4:
        raise ScoreError(f"meld {text}: a canasta needs at least 4 natural cards")
    return MeldCount(tuple(cards), rank, len(naturals), wilds)


@dataclass(frozen=True)
class CanastaRules:
    target: int = rule(5000, "first side to this wins; the last deal is always played out", section="C2")
    check_minimum: bool = rule(True, "a player going out concealed after taking the discard pile, when his "
                               "side had not melded, must reach the minimum count without the canasta bonus "
                               "(standard table)", section="C2")
    going_out_bonus: int = rule(100, "bonus for going out (seed 100)", section="C2")
    concealed_bonus: int = rule(100, "further bonus for going out concealed (seed: a further 100, so 200 in "
                                "all; some tables pay more)", section="C2")


class Canasta(ScoreGame):
    """Partnership canasta (two sides of two; two or three players alone also work)."""

    name: ClassVar[str] = "canasta"
    title: ClassVar[str] = "Canasta"
    section: ClassVar[str] = "C2"
    rules_class: ClassVar[type[Any]] = CanastaRules
    side_count: ClassVar[tuple[int, int]] = (2, 3)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 2)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{sides: {side: {melds: ['7H 7D 7S', ...] or meld_points + natural/mixed counts, "
                "red_threes: n, in_hand: cards or hand_points, went_out?, concealed?, took_pile?, "
                "partner_melded?}}}",
        "first-meld": "{side, melds: [...], pile_top?: card} — check a first meld against the minimum (when "
                      "the pile is taken, the melds hold its top card and hand cards only)",
    }

    def state_json(self) -> dict[str, Any]:
        return {"minimum_first_meld": {s: minimum_first_meld(v) for s, v in self.totals.items()}}

    def _side_score(self, side: str, raw: Any, where: str) -> tuple[list[Item], dict[str, Any]]:
        d = Data(raw, self, f"{where} [{side}]")
        went_out = d.flag("went_out")
        concealed = d.flag("concealed")
        if concealed and not went_out:
            raise d.error("going out concealed is going out")
        took_pile = d.flag("took_pile")
        partner_melded = d.flag("partner_melded")
        natural = mixed = meld_points = 0
        melded = False
        if d.has("melds"):
            melds = d._get("melds", None)
            if not isinstance(melds, list):
                raise d.error("'melds' is a list of melds, each like '7H 7D 7S 2C'")
            ranks: set[Rank] = set()
            for text in melds:
                try:
                    m = check_meld(parse_cards(text) if isinstance(text, str) else parse_cards(list(text)),
                                   going_out=went_out)
                except (ScoreError, ValueError) as exc:
                    raise d.error(str(exc)) from None
                if m.rank in ranks:
                    raise d.error(f"two separate melds of {m.rank.code}s: a side may not hold two melds of "
                                  "the same rank (RULES C2)")
                ranks.add(m.rank)
                meld_points += m.points
                natural += m.canasta == "natural"
                mixed += m.canasta == "mixed"
            melded = bool(melds)
        else:
            meld_points = d.num("meld_points", 0, lo=0)
            natural = d.num("natural_canastas", 0, lo=0)
            mixed = d.num("mixed_canastas", 0, lo=0)
            melded = d.flag("melded", meld_points > 0)
        if d.has("in_hand"):
            hand_points = sum(card_value(c) for c in d.cards("in_hand"))
        else:
            hand_points = d.num("hand_points", 0, lo=0)
        reds = d.num("red_threes", 0, lo=0, hi=4)
        d.done()
        if went_out and natural + mixed == 0:
            raise ScoreError(f"{where}: {side} cannot go out without a canasta (RULES C2)")
        if (took_pile or partner_melded) and not concealed:
            raise ScoreError(f"{where}: 'took_pile' and 'partner_melded' describe going out concealed")
        need = minimum_first_meld(self.totals[side])
        if concealed and took_pile and not partner_melded and self.rules.check_minimum and meld_points < need:
            raise ScoreError(f"{where}: {side} went out concealed after taking the pile with a first meld of "
                             f"{meld_points}; the minimum at {self.totals[side]} is {need}, canasta bonus "
                             "not counted (RULES C2)")
        items = []
        if natural:
            items.append(Item(side, f"{natural} natural canasta(s)", 500 * natural))
        if mixed:
            items.append(Item(side, f"{mixed} mixed canasta(s)", 300 * mixed))
        if reds:
            red_value = 800 if reds == 4 else 100 * reds
            items.append(Item(side, f"{reds} red three(s)" + ("" if melded else " against (no meld)"),
                              red_value if melded else -red_value))
        if went_out:
            items.append(Item(side, "going out", self.rules.going_out_bonus))
        if concealed:
            items.append(Item(side, "going out concealed", self.rules.concealed_bonus))
        if meld_points:
            items.append(Item(side, "melded cards", meld_points))
        if hand_points:
            items.append(Item(side, "cards left in hand", -hand_points))
        return items, {"went_out": went_out}

    def entry_hand(self, data: Data) -> Scored:
        raw = data._get("sides", None)
        if not isinstance(raw, dict):
            raise data.error("'sides' gives each side's melds, red threes and cards left")
        given = {self.side_of(k, data.where): v for k, v in raw.items()}
        if set(given) != set(self.names):
            raise data.error(f"give every side: {', '.join(self.names)}")
        items: list[Item] = []
        out = 0
        for side in self.names:
            side_items, facts = self._side_score(side, given[side], data.where)
            items += side_items
            out += facts["went_out"]
        if out > 1:
            raise data.error("only one side goes out")
        self.hands += 1
        return Scored(tuple(items), extra=(("minimum_next", {s: minimum_first_meld(self.totals[s] + sum(
            i.points for i in items if i.side == s)) for s in self.names}),))

    def entry_first_meld(self, data: Data) -> Scored:
        side = data.side("side")
        melds = data._get("melds", None)
        if not isinstance(melds, list) or not melds:
            raise data.error("'melds' is a list of melds, each like '7H 7D 7S'")
        counts = [check_meld(parse_cards(m)) for m in melds]
        count = sum(m.points for m in counts)
        if data.has("pile_top"):  # RULES C2: only the top card of a taken pile counts toward the minimum
            top = data.card("pile_top")
            if not any(top in m.cards for m in counts):
                raise data.error(f"the pile's top card {top.code} must be melded to take the pile")
        need = minimum_first_meld(self.totals[side])
        if count < need:
            raise data.error(f"{side}'s first meld counts {count}; with a score of {self.totals[side]} the "
                             f"minimum is {need} (RULES C2, standard table)")
        return Scored(notes=(f"first meld {count} meets the minimum {need}",))

    def check_end(self) -> GameResult | None:
        if any(v >= self.rules.target for v in self.totals.values()):
            return self.final_result()
        return None
