"""The hearts family (RULES C4): hearts, omnibus, cancellation, domino, without the black lady (Howell
settlement) and auction hearts (a chip pot).

Hearts counts penalty points (each heart 1, the Q♠ 13, 26 a deal) and the lowest total wins when
someone reaches the target. Taking every heart and the Q♠ shoots the moon: 0 for the shooter and
26 to each opponent.

>>> hand_points({"ann": 13, "bob": 0, "cy": 0, "di": 0}, "ann")  # shooting the moon
({'ann': 0, 'bob': 26, 'cy': 26, 'di': 26}, True)
>>> howell(7, 4)  # RULES C4 example: 7 hearts with four players pays 21, takes back 6
-15
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.cards import Card, Rank, Suit
from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreGame, rule

__all__ = ["AuctionHearts", "CancellationHearts", "DominoHearts", "Hearts", "HeartsWithoutLady",
           "OmnibusHearts", "hand_points", "howell"]

QUEEN_OF_SPADES = Card.of(Rank.QUEEN, Suit.SPADES)


def hand_points(hearts: Mapping[str, int], queen: str | None, *, moon: str = "add",
                queen_value: int = 13) -> tuple[dict[str, int], bool]:
    """Penalty points for one deal and whether the moon was shot (RULES C4)."""
    points = {p: n + (queen_value if p == queen else 0) for p, n in hearts.items()}
    full = sum(hearts.values()) + (queen_value if queen else 0)
    for player, n in points.items():
        if moon != "off" and n == full and queen == player and full > 0:
            if moon == "add":
                return {p: (0 if p == player else full) for p in points}, True
            return {p: (-full if p == player else 0) for p in points}, True
    return points, False


def howell(hearts_taken: int, players: int, hearts_in_pack: int = 13) -> int:
    """Howell settlement for one player (RULES C4): pay (players − 1) per heart taken, take back
    one chip per heart not taken. Zero-sum over the table."""
    return -(players - 1) * hearts_taken + (hearts_in_pack - hearts_taken)


def _count_taken(data: Data, suit: Suit, extra: Sequence[Card]) -> tuple[dict[str, int], dict[Card, str]]:
    """From ``{'cards': {player: cards taken}}``: cards of ``suit`` per player, who took each extra."""
    raw = data._get("cards", None)
    if not isinstance(raw, dict):
        raise data.error("'cards' maps each player to the cards he took in tricks")
    counts: dict[str, int] = {s: 0 for s in data.game.names}
    holders: dict[Card, str] = {}
    for who, cards in raw.items():
        side = data.game.side_of(who, data.where)
        for card in Data({"c": cards}, data.game, data.where).cards("c"):
            if card.suit is suit:
                counts[side] += 1
            if card in extra:
                holders[card] = side
    return counts, holders


@dataclass(frozen=True)
class HeartsRules:
    target: int = rule(100, "the game ends when someone reaches this (seed: usually 100, sometimes 50)",
                       section="C4")
    moon: str = rule("add", "shooting the moon: 'add' 26 to each opponent (seed), 'subtract' 26 from the "
                     "shooter, or 'off'", choices=("add", "subtract", "off"), section="C4")
    tie: str = rule("share", "lowest scores tied when the game ends: 'share' the win or 'play-on' "
                    "another deal (the seed does not say)", choices=("share", "play-on"), section="C4 note")
    settlement: str = rule("points", "'points': a game to the target, lowest wins; 'pot': each deal everyone "
                           "pays his points in chips and the lowest takes the pot (ties split, odd chips "
                           "carry); 'sweepstakes': the same payments, a lone zero scorer takes the pot, "
                           "several split it, none: it carries", choices=("points", "pot", "sweepstakes"),
                           section="C4 chip settlements")


class Hearts(ScoreGame):
    """Hearts (Black Lady), 3–7 players each for himself."""

    name: ClassVar[str] = "hearts"
    title: ClassVar[str] = "Hearts (Black Lady)"
    section: ClassVar[str] = "C4"
    rules_class: ClassVar[type[Any]] = HeartsRules
    side_count: ClassVar[tuple[int, int]] = (3, 7)
    lowest_wins: ClassVar[bool] = True
    hearts_in_deal: ClassVar[int] = 13
    queen_value: ClassVar[int] = 13
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{hearts: {player: n}, queen: player} or {cards: {player: cards taken}} — one deal",
        "revoke": "{player or players: [...], reason?: revoke / mixed-tricks} — an established revoke: play "
                  "stops and each revoker is charged 26; mixing quitted tricks is charged the same",
    }

    def setup(self) -> None:
        self.pot = 0
        if self.rules.settlement != "points":
            self.units = "chips"  # type: ignore[misc]
            self.lowest_wins = False  # type: ignore[misc]

    def state_json(self) -> dict[str, Any]:
        return {"pot": self.pot} if self.rules.settlement != "points" else {}

    def settle(self, points: Mapping[str, int], label: str, notes: tuple[str, ...] = ()) -> Scored:
        """One deal's penalty points as items: points, or chips paid into the pot and taken from it
        (RULES C4 chip settlements)."""
        if self.rules.settlement == "points":
            return Scored(tuple(Item(p, label, v) for p, v in points.items()), notes)
        items: list[Item] = []
        for p, v in points.items():
            if v > 0:  # a moon shooter's negative score pays nothing
                items.append(Item(p, f"pays {v} for {label}", -v))
                self.pot += v
        low = min(points.values())
        if self.rules.settlement == "pot":
            takers = [p for p, v in points.items() if v == low]
        else:
            takers = [p for p, v in points.items() if v <= 0]
        if not takers:
            return Scored(tuple(items), notes + (f"nobody scored zero: the pot of {self.pot} carries",),
                          (("pot", self.pot),))
        share = self.pot // len(takers)
        word = "takes the pot" if len(takers) == 1 else f"shares the pot ({len(takers)} ways)"
        items += [Item(p, word, share) for p in takers if share]
        self.pot -= share * len(takers)
        if self.pot:
            notes += (f"{self.pot} odd chip(s) carry to the next pot",)
        return Scored(tuple(items), notes, (("pot", self.pot),))

    def _taken(self, data: Data) -> tuple[dict[str, int], str | None]:
        if data.has("cards"):
            hearts, holders = _count_taken(data, Suit.HEARTS, [QUEEN_OF_SPADES])
            return hearts, holders.get(QUEEN_OF_SPADES)
        hearts = data.per_side("hearts", lo=0, hi=self.hearts_in_deal)
        return hearts, data.optional_side("queen") if self.queen_value else None

    def entry_hand(self, data: Data) -> Scored:
        hearts, queen = self._taken(data)
        if sum(hearts.values()) != self.hearts_in_deal:
            raise data.error(f"the hearts taken must add up to {self.hearts_in_deal}, "
                             f"got {sum(hearts.values())}")
        if self.queen_value and queen is None:
            raise data.error("say who took the Q♠ ('queen')")
        points, shot = hand_points(hearts, queen, moon=self.rules.moon, queen_value=self.queen_value)
        self.hands += 1
        if shot and self.rules.settlement == "points":
            items = tuple(Item(p, "shot the moon" if hearts[p] else "hearts & Q♠", v)
                          for p, v in points.items())
            return Scored(items, ("moon shot",))
        return self.settle(points, "hearts & Q♠", ("moon shot",) if shot else ())

    def entry_revoke(self, data: Data) -> Scored:
        """RULES C4: play stops and each revoker is charged 26; a player who mixed his quitted tricks so a
        revoke claim cannot be proved is charged all 26 as well."""
        if data.has("players"):
            revokers = data.sides("players")
            data._get("player", None)
        else:
            revokers = (data.side("player"),)
        reason = data.choice("reason", ("revoke", "mixed-tricks"), "revoke")
        self.hands += 1
        label = "mixed tricks" if reason == "mixed-tricks" else "revoke"
        if self.rules.settlement == "points":
            return Scored(tuple(Item(p, label, 26) for p in revokers))
        return self.settle({p: (26 if p in revokers else 0) for p in self.names}, label)

    def check_end(self) -> GameResult | None:
        if self.rules.settlement != "points":
            return None  # settled deal by deal in chips: the host ends the game
        if not any(v >= self.rules.target for v in self.totals.values()):
            return None
        low = min(self.totals.values())
        winners = tuple(s for s, v in self.totals.items() if v == low)
        if len(winners) > 1 and self.rules.tie == "play-on":
            return None
        return GameResult(winners, 1, f"lowest when {self.rules.target} was reached",
                          tuple(s for s in self.names if s not in winners))


class CancellationHearts(Hearts):
    """Two packs, 7–10 players; a deal holds 26 hearts and two Q♠ (52 points, a house reading)."""

    name: ClassVar[str] = "cancellation-hearts"
    title: ClassVar[str] = "Cancellation Hearts"
    side_count: ClassVar[tuple[int, int]] = (7, 10)
    hearts_in_deal: ClassVar[int] = 26
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{hearts: {player: n}, queens: {player: n}} or {cards: {player: cards taken}} — one deal",
        "revoke": "{player} — an established revoke: the revoker is charged 26",
    }

    def entry_hand(self, data: Data) -> Scored:
        if data.has("cards"):
            hearts, _ = _count_taken(data, Suit.HEARTS, [])
            queens = {s: 0 for s in self.names}
            raw = data.raw["cards"]
            for who, cards in raw.items():
                side = self.side_of(who, data.where)
                queens[side] += sum(1 for c in Data({"c": cards}, self, data.where).cards("c")
                                    if c == QUEEN_OF_SPADES)
        else:
            hearts = data.per_side("hearts", lo=0, hi=26)
            queens = data.per_side("queens", lo=0, hi=2, complete=False)
            queens = {s: queens.get(s, 0) for s in self.names}
        if sum(hearts.values()) != 26 or sum(queens.values()) != 2:
            raise data.error("two packs: the hearts taken add up to 26 and the Q♠ taken to 2")
        self.hands += 1
        return self.settle({p: hearts[p] + 13 * queens[p] for p in self.names}, "hearts & Q♠")


@dataclass(frozen=True)
class DominoRules(HeartsRules):
    queen_counts: bool = rule(False, "the Q♠ counts 13 (the seed: usually without the Q♠)", section="C4")


class DominoHearts(Hearts):
    """Domino Hearts, 2–7 players: hearts only by default."""

    name: ClassVar[str] = "domino-hearts"
    title: ClassVar[str] = "Domino Hearts"
    rules_class: ClassVar[type[Any]] = DominoRules
    side_count: ClassVar[tuple[int, int]] = (2, 7)

    def setup(self) -> None:
        super().setup()
        self.queen_value = 13 if self.rules.queen_counts else 0  # type: ignore[misc]


@dataclass(frozen=True)
class OmnibusRules:
    target: int = rule(100, "the game ends when someone's total falls to minus this; the highest wins",
                       section="C4")
    bonus_card: str = rule("10D", "the +10 card: 10D, or JD where played that way", choices=("10D", "JD"),
                           section="C4")


class OmnibusHearts(ScoreGame):
    """Omnibus Hearts, 4–6 players, scored plus and minus as the seed does: hearts −1 each, Q♠ −13,
    the 10♦ +10; taking all 15 counting cards is a slam worth +26."""

    name: ClassVar[str] = "omnibus-hearts"
    title: ClassVar[str] = "Omnibus Hearts"
    section: ClassVar[str] = "C4"
    rules_class: ClassVar[type[Any]] = OmnibusRules
    side_count: ClassVar[tuple[int, int]] = (4, 6)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{hearts: {player: n}, queen: player, bonus: player} or {cards: {player: cards taken}}",
        "revoke": "{player or players: [...]} — an established revoke: each revoker is charged 26 "
                  "(−26 on the plus/minus sheet)",
    }

    def entry_revoke(self, data: Data) -> Scored:
        """RULES C4 irregularities, on omnibus's plus/minus sheet: each revoker is charged 26."""
        if data.has("players"):
            revokers = data.sides("players")
            data._get("player", None)
        else:
            revokers = (data.side("player"),)
        self.hands += 1
        return Scored(tuple(Item(p, "revoke", -26) for p in revokers))

    def entry_hand(self, data: Data) -> Scored:
        bonus_card = Card.parse(self.rules.bonus_card)
        if data.has("cards"):
            hearts, holders = _count_taken(data, Suit.HEARTS, [QUEEN_OF_SPADES, bonus_card])
            queen, bonus = holders.get(QUEEN_OF_SPADES), holders.get(bonus_card)
        else:
            hearts = data.per_side("hearts", lo=0, hi=13)
            queen, bonus = data.optional_side("queen"), data.optional_side("bonus")
        if sum(hearts.values()) != 13 or queen is None or bonus is None:
            raise data.error("all 13 hearts, the Q♠ and the +10 card must be taken by someone")
        self.hands += 1
        for p in self.names:
            if hearts[p] == 13 and queen == p and bonus == p:
                return Scored((Item(p, "slam (all 15 counting cards)", 26),))
        items = [Item(p, "hearts", -hearts[p]) for p in self.names if hearts[p]]
        items += [Item(queen, "Q♠", -13), Item(bonus, bonus_card.code, 10)]
        return Scored(tuple(items))

    def check_end(self) -> GameResult | None:
        if not any(v <= -self.rules.target for v in self.totals.values()):
            return None
        return self.final_result()


@dataclass(frozen=True)
class WithoutLadyRules:
    settlement: str = rule("howell", "'howell': chips by the Howell settlement (seed); 'points': hearts "
                           "count 1, lowest wins at the target", choices=("howell", "points"), section="C4")
    target: int = rule(100, "points settlement: the game ends when someone reaches this", section="C4")


class HeartsWithoutLady(ScoreGame):
    """Hearts without the Black Lady: only hearts count; settled in chips by Howell's method."""

    name: ClassVar[str] = "hearts-without-lady"
    title: ClassVar[str] = "Hearts without the Black Lady"
    section: ClassVar[str] = "C4"
    rules_class: ClassVar[type[Any]] = WithoutLadyRules
    side_count: ClassVar[tuple[int, int]] = (3, 7)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{hearts: {player: n}} or {cards: {player: cards taken}} — one deal",
    }

    def setup(self) -> None:
        self.units = "chips" if self.rules.settlement == "howell" else "points"  # type: ignore[misc]
        self.lowest_wins = self.rules.settlement == "points"  # type: ignore[misc]

    def entry_hand(self, data: Data) -> Scored:
        if data.has("cards"):
            hearts = _count_taken(data, Suit.HEARTS, [])[0]
        else:
            hearts = data.per_side("hearts", hi=13)
        if sum(hearts.values()) != 13:
            raise data.error(f"the hearts taken must add up to 13, got {sum(hearts.values())}")
        self.hands += 1
        if self.rules.settlement == "points":
            return Scored(tuple(Item(p, "hearts", n) for p, n in hearts.items()))
        n = len(self.names)
        return Scored(tuple(Item(p, f"Howell: {h} heart(s)", howell(h, n)) for p, h in hearts.items()))

    def check_end(self) -> GameResult | None:
        if self.rules.settlement == "points" and any(v >= self.rules.target for v in self.totals.values()):
            return self.final_result()
        return None


@dataclass(frozen=True)
class AuctionHeartsRules:
    odd_chip: str = rule("stays", "when two players split the pot, an odd chip stays in it",
                         choices=("stays",), section="C4")


class AuctionHearts(ScoreGame):
    """Auction Hearts: the high bidder pays his bid into the pot and names the suit to avoid; each card of
    it taken costs 1 chip; a lone player with none (or two, sharing) takes the pot, otherwise it carries
    and the same bidder names the suit again. Totals are net chips; the pot is shown separately."""

    name: ClassVar[str] = "auction-hearts"
    title: ClassVar[str] = "Auction Hearts"
    section: ClassVar[str] = "C4"
    units: ClassVar[str] = "chips"
    rules_class: ClassVar[type[Any]] = AuctionHeartsRules
    side_count: ClassVar[tuple[int, int]] = (3, 7)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bidder, bid, suit, taken: {player: cards of that suit}} (bidder/bid only after a won pot) "
                "or {..., cards: {player: cards taken}}",
    }

    def setup(self) -> None:
        self.pot = 0
        self.bidder: str | None = None  # set while a pot carries: same bidder, no new bidding
        self.suit: Suit | None = None

    def state_json(self) -> dict[str, Any]:
        return {"pot": self.pot, "carried_bidder": self.bidder,
                "carried_suit": None if self.suit is None else self.suit.value}

    def entry_hand(self, data: Data) -> Scored:
        items: list[Item] = []
        if self.bidder is None:
            bidder = data.side("bidder")
            bid = data.num("bid", lo=1)
            suit_code = data.choice("suit", ("s", "h", "d", "c")).upper()
            suit = Suit(suit_code)
            items.append(Item(bidder, f"bid {bid}", -bid))
            self.pot += bid
        else:
            if data.has("bidder") and data.side("bidder") != self.bidder or data.has("bid"):
                raise data.error(f"the pot carries: {self.bidder} names the suit again with no new bidding")
            data._get("bidder", None)
            data._get("bid", None)
            bidder, suit = self.bidder, self.suit or Suit.HEARTS
            if data.has("suit"):
                suit = Suit(data.choice("suit", ("s", "h", "d", "c")).upper())
        taken = _count_taken(data, suit, [])[0] if data.has("cards") else data.per_side("taken", hi=13)
        if sum(taken.values()) != 13:
            raise data.error(f"the {suit.name.lower()} taken must add up to 13, got {sum(taken.values())}")
        for p, n in taken.items():
            if n:
                items.append(Item(p, f"{n} {suit.name.lower()}", -n))
                self.pot += n
        clean = [p for p, n in taken.items() if n == 0]
        self.hands += 1
        notes: list[str] = []
        if len(clean) in (1, 2):
            share = self.pot // len(clean)
            for p in clean:
                items.append(Item(p, "wins the pot" if len(clean) == 1 else "shares the pot", share))
            self.pot -= share * len(clean)
            self.bidder, self.suit = None, None
        else:
            self.bidder, self.suit = bidder, suit
            notes.append(f"no winner: the pot of {self.pot} carries; {bidder} names the suit again")
        return Scored(tuple(items), tuple(notes), (("pot", self.pot),))
