"""Tripoli / Michigan Rummy (RULES B8): the nine-space layout, pay cards, the poker stage and the Michigan
stage, in chips. Chips are conserved: players' net totals plus the chips on the layout are zero.

>>> pay_card_claims({"ann": parse_cards("AH KH QH 2C"), "bob": parse_cards("8S 9S 10S JH")})
{'AH': ['ann'], 'KH': ['ann'], 'QH': ['ann'], 'JH': ['bob'], 'KQ': ['ann'], 'run': ['bob']}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.cards import Card, Rank, Suit, parse_cards  # noqa: F401  (parse_cards: the doctest)
from dealer.core.scoring.base import Data, Item, Scored, ScoreError, ScoreGame, rule

__all__ = ["SPACES", "Tripoli", "pay_card_claims"]

PAY_CARDS = ("AH", "KH", "QH", "JH", "10H")
SPACES = (*PAY_CARDS, "KQ", "run", "kitty", "pot")


def pay_card_claims(hands: Mapping[str, Sequence[Card]], run: tuple[int, int, int] = (8, 9, 10),
                    suit: Suit = Suit.HEARTS) -> dict[str, list[str]]:
    """Which players claim which layout spaces from the cards they hold (RULES B8 stage 1)."""
    claims: dict[str, list[str]] = {}
    codes = {p: {c.code for c in cards} for p, cards in hands.items()}
    for space in PAY_CARDS:
        code = space[:-1] + suit.value
        for p, held in codes.items():
            if code in held:
                claims.setdefault(space, []).append(p)
    for p, held in codes.items():
        if {"K" + suit.value, "Q" + suit.value} <= held:
            claims.setdefault("KQ", []).append(p)
    for p, cards in hands.items():
        for s in Suit:
            if all(Card.of(Rank(r), s) in cards for r in run):
                claims.setdefault("run", []).append(p)
                break
    return claims


@dataclass(frozen=True)
class TripoliRules:
    stake: int = rule(1, "chips each player puts on each of the nine spaces before every deal", section="B8")
    run: str = rule("8-9-10", "the run space (a variation uses another run such as 6-7-8)", section="B8")


class Tripoli(ScoreGame):
    """Tripoli / Michigan rummy for 2–9 players: stakes, pay cards, poker pot, Michigan kitty."""

    name: ClassVar[str] = "tripoli"
    title: ClassVar[str] = "Tripoli / Michigan Rummy"
    section: ClassVar[str] = "B8"
    units: ClassVar[str] = "chips"
    rules_class: ClassVar[type[Any]] = TripoliRules
    side_count: ClassVar[tuple[int, int]] = (2, 9)
    entry_kinds: ClassVar[dict[str, str]] = {
        "deal": "{} — everyone stakes each of the nine spaces",
        "pay-cards": "{hands: {player: cards}} or {claims: {AH: player, ..., KQ: player, run: [players]}}",
        "bet": "{player, amount} — poker stage: chips into the Pot space",
        "poker": "{winners: [players]} — the pot is shared; a remainder stays for the next deal",
        "michigan": "{winner, cards_left: {player: n}} — the kitty plus 1 chip a card from each other",
        "blocked": "{cards_left: {player: n}} — nobody could lead: 1 chip a card into the kitty",
        "leftover": "{winners: [players]} — end of session: the whole layout to the final poker winner(s)",
    }

    def setup(self) -> None:
        self.layout = {space: 0 for space in SPACES}
        parts = self.rules.run.split("-")
        if len(parts) != 3 or not all(p.isdigit() and 2 <= int(p) <= 13 for p in parts):
            raise ScoreError(f"tripoli: house rule run is three ranks like 8-9-10, got {self.rules.run!r}")
        self.run = (int(parts[0]), int(parts[1]), int(parts[2]))

    def state_json(self) -> dict[str, Any]:
        return {"layout": dict(self.layout)}

    def _take(self, space: str, winners: Sequence[str], label: str) -> list[Item]:
        if not winners:
            return []
        share = self.layout[space] // len(winners)
        self.layout[space] -= share * len(winners)
        return [Item(w, label, share) for w in winners if share]

    def entry_deal(self, data: Data) -> Scored:
        items = []
        for p in self.names:
            for space in SPACES:
                self.layout[space] += self.rules.stake
            items.append(Item(p, "stakes", -self.rules.stake * len(SPACES)))
        self.hands += 1
        return Scored(tuple(items), extra=(("layout", dict(self.layout)),))

    def entry_pay_cards(self, data: Data) -> Scored:
        if data.has("hands"):
            raw = data._get("hands", None)
            if not isinstance(raw, dict):
                raise data.error("'hands' maps players to their cards")
            hands = {self.side_of(k, data.where): Data({"c": v}, self, data.where).cards("c")
                     for k, v in raw.items()}
            claims = pay_card_claims(hands, (self.run[0], self.run[1], self.run[2]))
            data._get("claims", None)
        else:
            raw = data._get("claims", None)
            if not isinstance(raw, dict):
                raise data.error("give 'hands' (cards) or 'claims' (space → player)")
            claims = {}
            for space, who in raw.items():
                if space not in (*PAY_CARDS, "KQ", "run"):
                    raise data.error(f"{space!r} is not a pay space ({', '.join((*PAY_CARDS, 'KQ', 'run'))})")
                names = who if isinstance(who, list) else [who]
                claims[space] = [self.side_of(n, data.where) for n in names]
        items = []
        for space, winners in claims.items():
            if space != "run" and len(winners) > 1:
                raise data.error(f"only one player can hold {space} (one pack)")
            items += self._take(space, winners, f"pay space {space}")
        return Scored(tuple(items), extra=(("layout", dict(self.layout)),))

    def entry_bet(self, data: Data) -> Scored:
        player = data.side("player")
        amount = data.num("amount", lo=1)
        self.layout["pot"] += amount
        return Scored((Item(player, "poker bet", -amount),))

    def entry_poker(self, data: Data) -> Scored:
        return Scored(tuple(self._take("pot", data.sides("winners"), "poker pot")),
                      extra=(("layout", dict(self.layout)),))

    def entry_michigan(self, data: Data) -> Scored:
        winner = data.side("winner")
        left = data.per_side("cards_left", lo=0, complete=False)
        if left.get(winner):
            raise data.error(f"{winner} went out: he holds no cards")
        items = self._take("kitty", [winner], "the kitty")
        for p, n in left.items():
            if n and p != winner:
                items += [Item(p, f"{n} card(s) left", -n), Item(winner, f"from {p}", n)]
        return Scored(tuple(items), extra=(("layout", dict(self.layout)),))

    def entry_blocked(self, data: Data) -> Scored:
        left = data.per_side("cards_left", lo=0, complete=False)
        items = []
        for p, n in left.items():
            if n:
                self.layout["kitty"] += n
                items.append(Item(p, f"{n} card(s) into the kitty", -n))
        return Scored(tuple(items), extra=(("layout", dict(self.layout)),))

    def entry_leftover(self, data: Data) -> Scored:
        winners = data.sides("winners")
        total = sum(self.layout.values())
        share = total // len(winners)
        items = [Item(w, "leftover layout", share) for w in winners]
        rest = total - share * len(winners)
        self.layout = {space: 0 for space in SPACES}
        self.layout["pot"] = rest
        return Scored(tuple(items), extra=(("layout", dict(self.layout)),))

