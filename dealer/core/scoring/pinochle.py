"""Two-hand pinochle (RULES C1, 0.1 item 8): melds by class with re-use rules, dix, trick points with
the seed's rounding, last trick, game to 1,000 rising by 250 when both pass, declaring out.

>>> classify_meld(parse_cards("QS QS JD JD"), Suit.HEARTS).value  # double pinochle (seed: 300)
300
>>> [round_trick_points(p) for p in (87, 126, 124, 125)]  # 7 or more rounds up; 126/124 and 125/125
[90, 120, 120, 120]
>>> best = find_melds(parse_cards("AH 10H KH QH JH 9H AS AD AC QS JD"), Suit.HEARTS)
>>> sum(m.value for m in best), [m.name for m in best]
(300, ['flush', 'dix', '100 aces', 'pinochle'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer.core.cards import Card, Rank, Suit, parse_cards
from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreError, ScoreGame, rule

__all__ = ["Meld", "Pinochle", "PinochleRules", "classify_meld", "find_melds", "round_trick_points",
           "trick_points"]

CARD_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}
LAST_TRICK = 10
TRICK_TOTAL = 240  # card points in the pack (8s and 7s of the 64-card pack count nothing)
AROUND = {Rank.ACE: ("100 aces", 100), Rank.KING: ("80 kings", 80), Rank.QUEEN: ("60 queens", 60),
          Rank.JACK: ("40 jacks", 40)}
FLUSH_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
QS, JD = Card.of(Rank.QUEEN, Suit.SPADES), Card.of(Rank.JACK, Suit.DIAMONDS)


def trick_points(cards: Sequence[Card]) -> int:
    """Card points taken in tricks: A 11, 10 10, K 4, Q 3, J 2, lower cards 0 (RULES C1)."""
    return sum(CARD_POINTS.get(c.rank, 0) for c in cards if c.rank is not None)


def round_trick_points(points: int) -> int:
    """Round to tens; a units digit of 7 or more goes up, anything less is lost (RULES C1, 0.1 item 8)."""
    return points // 10 * 10 + (10 if points % 10 >= 7 else 0)


@dataclass(frozen=True)
class Meld:
    cls: str  # "A" sequence/marriage/dix, "B" arounds, "C" pinochle
    name: str
    value: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"class": self.cls, "name": self.name, "value": self.value,
                "cards": [c.code for c in self.cards]}


def _dix_rank(pack: int) -> Rank:
    return Rank.NINE if pack == 48 else Rank.SEVEN


def classify_meld(cards: Sequence[Card], trump: Suit, pack: int = 48, double_pinochle: int = 300) -> Meld:
    """The one meld these cards form (RULES C1 table), or :class:`ScoreError` naming what they lack."""
    cards = tuple(cards)
    ranks = sorted((c.rank for c in cards if c.rank is not None), reverse=True)
    suits = {c.suit for c in cards}
    if any(c.rank is None for c in cards):
        raise ScoreError("pinochle melds use no jokers")
    if sorted(c.code for c in cards) == sorted(("QS", "JD")):
        return Meld("C", "pinochle", 40, cards)
    if sorted(c.code for c in cards) == sorted(("QS", "QS", "JD", "JD")):
        return Meld("C", "double pinochle", double_pinochle, cards)
    if len(cards) == 5 and suits == {trump} and set(ranks) == set(FLUSH_RANKS):
        return Meld("A", "flush", 150, cards)
    if len(cards) == 2 and len(suits) == 1 and set(ranks) == {Rank.KING, Rank.QUEEN}:
        return Meld("A", "royal marriage", 40, cards) if trump in suits else Meld("A", "marriage", 20, cards)
    if len(cards) == 1 and cards[0].suit is trump and cards[0].rank is _dix_rank(pack):
        return Meld("A", "dix", 10, cards)
    if len(cards) == 4 and len(set(ranks)) == 1 and len(suits) == 4 and ranks[0] in AROUND:
        name, value = AROUND[ranks[0]]
        return Meld("B", name, value, cards)
    raise ScoreError(f"{' '.join(c.code for c in cards)} is not a pinochle meld with {trump.name.lower()} "
                     "trumps (flush A-10-K-Q-J of trumps, K-Q marriage, dix, four aces/kings/queens/jacks "
                     "of different suits, Q♠+J♦ pinochle, or double pinochle)")


def find_melds(hand: Sequence[Card], trump: Suit, pack: int = 48, double_pinochle: int = 300) -> list[Meld]:
    """Every meld in a hand counted the usual way: a card may serve once in each class (a king in a
    marriage and in 80 kings), a flush already holds its royal marriage, and each copy counts once."""
    counts = Counter(hand)
    melds: list[Meld] = []

    def of(rank: Rank, suit: Suit) -> Card:
        return Card.of(rank, suit)

    flushes = min(counts[of(r, trump)] for r in FLUSH_RANKS)
    melds += [Meld("A", "flush", 150, tuple(of(r, trump) for r in FLUSH_RANKS))] * flushes
    for suit in Suit:
        pairs = min(counts[of(Rank.KING, suit)], counts[of(Rank.QUEEN, suit)])
        if suit is trump:
            pairs -= flushes
            melds += [Meld("A", "royal marriage", 40, (of(Rank.KING, suit), of(Rank.QUEEN, suit)))] * pairs
        else:
            melds += [Meld("A", "marriage", 20, (of(Rank.KING, suit), of(Rank.QUEEN, suit)))] * pairs
    dix = of(_dix_rank(pack), trump)
    melds += [Meld("A", "dix", 10, (dix,))] * counts[dix]
    for rank, (name, value) in AROUND.items():
        arounds = min(counts[of(rank, s)] for s in Suit)
        melds += [Meld("B", name, value, tuple(of(rank, s) for s in Suit))] * arounds
    pinochles = min(counts[QS], counts[JD])
    if pinochles >= 2:
        melds.append(Meld("C", "double pinochle", double_pinochle, (QS, QS, JD, JD)))
    elif pinochles == 1:
        melds.append(Meld("C", "pinochle", 40, (QS, JD)))
    return melds


@dataclass
class TableCard:
    """A melded card face up on the table: the best meld value it has served in, per class."""

    card: Card
    used: dict[str, int] = field(default_factory=dict)
    played: bool = False


@dataclass(frozen=True)
class PinochleRules:
    pack: int = rule(48, "48-card pack (dix is the 9) or 64-card pack with 8s and 7s (dix is the 7)",
                     choices=(48, 64), section="C1")
    target: int = rule(1000, "match target; 0 makes each deal a game (higher score wins)", section="C1")
    raise_by: int = rule(250, "when both players reach the target at the end of a hand it rises by this "
                         "(1,000 → 1,250 → 1,500 …)", section="C1")
    double_pinochle: int = rule(300, "double pinochle value (seed 300; some rule sets 80)", choices=(300, 80),
                                section="C1 note")
    check_reuse: bool = rule(True, "enforce the seed's re-use rules (a melded card again only in another "
                             "class or a higher meld of its class; one new card per meld)", section="C1")
    check_trick_total: bool = rule(True, "trick points entered for both players must add up to 240",
                                   section="C1")


class Pinochle(ScoreGame):
    """Two-hand pinochle: melds when made, tricks after the hand, match to 1,000 (rising)."""

    name: ClassVar[str] = "pinochle"
    title: ClassVar[str] = "Pinochle (two-hand)"
    section: ClassVar[str] = "C1"
    rules_class: ClassVar[type[Any]] = PinochleRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    entry_kinds: ClassVar[dict[str, str]] = {
        "deal": "{dealer, trump} — the turned trump card; a dix turned scores 10 for the dealer",
        "meld": "{player, cards, from_hand?} — one meld after winning a trick (re-use rules checked)",
        "dix": "{player} — a dix shown after winning a trick: 10",
        "played": "{player, cards} — melded cards played from the table (no longer usable in melds)",
        "trick": "{winner} — optional, turn by turn: a trick won; then only its winner may meld, one meld "
                 "(and a dix) before drawing (RULES C1)",
        "draw": "{} — optional: both players drew from the stock, closing the trick winner's meld turn",
        "tricks": "{points: {player: card points}, last: player} or {cards: {player: cards won}, last}",
        "declare-out": "{player, points} — play stops; his counted trick points decide win or loss",
    }

    def setup(self) -> None:
        self.target = self.rules.target
        self.trump: Suit | None = None
        self.dealer: str | None = None
        self.table: dict[str, list[TableCard]] = {s: [] for s in self.names}
        self.dix_shown = 0
        self.declared: GameResult | None = None
        self._new_turns()

    def _new_turns(self) -> None:
        self.trick_winners: list[str] = []  # tricks entered turn by turn this hand
        self.turn_open = False
        self.turn_melds = 0
        self.turn_dix = 0

    @property
    def stock_tricks(self) -> int:
        """Tricks played while the stock lasts: 12 with 48 cards, 20 with 64 (12 each dealt, 1 turned)."""
        return (int(self.rules.pack) - 24) // 2

    def _check_turn(self, data: Data, player: str, dix: bool) -> None:
        """RULES C1: only the winner of a trick melds, only before drawing, only one meld per turn (a dix
        may be shown as well). Checked once the host enters tricks turn by turn."""
        if not self.trick_winners:
            return
        number = len(self.trick_winners)
        winner = self.trick_winners[-1]
        if number > self.stock_tricks:
            raise data.error(f"trick {number} is in the playoff (the stock ran out after trick "
                             f"{self.stock_tricks}): no more melds (RULES C1)")
        if player != winner:
            raise data.error(f"only the winner of a trick may meld: {winner} won trick {number} (RULES C1)")
        if not self.turn_open:
            raise data.error(f"{winner} has drawn after trick {number}: melds come before drawing (RULES C1)")
        if dix:
            if self.turn_dix:
                raise data.error("one dix is shown per turn (RULES C1)")
            self.turn_dix += 1
        else:
            if self.turn_melds:
                raise data.error(f"{winner} already melded after trick {number}: only one meld per turn "
                                 "(RULES C1)")
            self.turn_melds += 1

    def entry_trick(self, data: Data) -> Scored:
        winner = data.side("winner")
        self._trump(data)
        if len(self.trick_winners) >= int(self.rules.pack) // 2:
            raise data.error(f"a {self.rules.pack}-card hand has {int(self.rules.pack) // 2} tricks")
        self.trick_winners.append(winner)
        self.turn_open, self.turn_melds, self.turn_dix = True, 0, 0
        number = len(self.trick_winners)
        note = f"trick {number} to {winner}"
        if number == self.stock_tricks:
            note += "; he may meld, then takes the last stock card (the playoff follows)"
        return Scored(notes=(note,))

    def entry_draw(self, data: Data) -> Scored:
        self._trump(data)
        if not self.turn_open:
            raise data.error("no meld turn is open: enter the trick first")
        self.turn_open = False
        return Scored()

    def state_json(self) -> dict[str, Any]:
        return {"target": self.target, "trump": None if self.trump is None else self.trump.value,
                "dealer": self.dealer,
                "melded": {s: [t.card.code for t in cards if not t.played]
                           for s, cards in self.table.items()}}

    def _trump(self, data: Data) -> Suit:
        if self.trump is None:
            raise data.error("enter the deal first ({'dealer': name, 'trump': card turned})")
        return self.trump

    def _check_pack(self, data: Data, cards: Sequence[Card]) -> None:
        low = _dix_rank(self.rules.pack)
        for c in cards:
            if c.rank is None or (c.rank != Rank.ACE and c.rank < low):
                raise data.error(f"{c.code} is not in the {self.rules.pack}-card pinochle pack")

    def entry_deal(self, data: Data) -> Scored:
        self.dealer = data.side("dealer")
        card = data.card("trump")
        self._check_pack(data, [card])
        self.trump = card.suit
        self.table = {s: [] for s in self.names}
        self.dix_shown = 0
        self._new_turns()
        if card.rank is _dix_rank(self.rules.pack):
            self.dix_shown = 1
            return Scored((Item(self.dealer, "dix turned", 10),))  # RULES C1: dealer scores 10 at once
        return Scored()

    def entry_dix(self, data: Data) -> Scored:
        player = data.side("player")
        self._trump(data)
        if self.dix_shown >= 2:
            raise data.error("both dixes have already been scored this hand (two of each card)")
        self._check_turn(data, player, dix=True)
        self.dix_shown += 1
        return Scored((Item(player, "dix", 10),))

    def entry_meld(self, data: Data) -> Scored:
        player = data.side("player")
        trump = self._trump(data)
        cards = data.cards("cards")
        self._check_pack(data, cards)
        meld = classify_meld(cards, trump, self.rules.pack, self.rules.double_pinochle)
        if meld.name == "dix":
            raise data.error("show a dix with the 'dix' entry (it may go with another meld in the same turn)")
        self._check_turn(data, player, dix=False)
        from_hand = list(data.cards("from_hand", "")) if data.has("from_hand") else None
        if not data.has("from_hand"):
            data.cards("from_hand", "")
        table = self.table[player]
        chosen: list[TableCard] = []
        new: list[Card] = []
        for card in cards:
            if from_hand is not None and card in from_hand:
                from_hand.remove(card)
                new.append(card)
                continue
            reusable = [t for t in table if t.card == card and not t.played and t not in chosen
                        and (meld.cls not in t.used or t.used[meld.cls] < meld.value)]
            if reusable:
                chosen.append(reusable[0])
            elif from_hand is not None and self.rules.check_reuse:
                on_table = [t for t in table if t.card == card and not t.played and t not in chosen]
                if on_table:
                    raise data.error(f"{card.code} already served in a class {meld.cls} meld worth "
                                     f"{on_table[0].used.get(meld.cls)}; it may be melded again only in "
                                     f"another class or a higher {meld.cls} meld (RULES C1)")
                new.append(card)
            else:
                new.append(card)
        for card in set(new):
            copies = sum(1 for t in table if t.card == card) + new.count(card)
            if copies > 2:
                raise data.error(f"{player} would have {copies} {card.code} melded; the pack has two of "
                                 "each card")
        if from_hand:
            raise data.error(f"'from_hand' names {', '.join(c.code for c in from_hand)}, not in the meld")
        if self.rules.check_reuse and not new:
            raise data.error("every meld must put at least one new card from the hand on the table "
                             "(RULES C1); if a card comes from the hand, say so in 'from_hand'")
        for t in chosen:
            t.used[meld.cls] = max(t.used.get(meld.cls, 0), meld.value)
        for card in new:
            table.append(TableCard(card, {meld.cls: meld.value}))
        return Scored((Item(player, meld.name, meld.value),), extra=(("meld", meld.to_json()),))

    def entry_played(self, data: Data) -> Scored:
        player = data.side("player")
        for card in data.cards("cards"):
            match = [t for t in self.table[player] if t.card == card and not t.played]
            if not match:
                raise data.error(f"{card.code} is not among {player}'s melded cards on the table")
            match[0].played = True
        return Scored()

    def _raw_points(self, data: Data) -> dict[str, int]:
        if data.has("cards"):
            raw = data._get("cards", None)
            if not isinstance(raw, dict):
                raise data.error("'cards' maps each player to the cards he took in tricks")
            counted: dict[str, int] = {}
            for who, cards in raw.items():
                side = self.side_of(who, data.where)
                parsed = Data({"c": cards}, self, data.where).cards("c")
                self._check_pack(data, parsed)
                counted[side] = trick_points(parsed)
            return counted
        return data.per_side("points", lo=0, hi=TRICK_TOTAL, complete=False)

    def entry_tricks(self, data: Data) -> Scored:
        self._trump(data)
        raw = self._raw_points(data)
        last = data.side("last")
        if set(raw) != set(self.names):
            raise data.error("give both players' trick points (or cards)")
        if self.rules.check_trick_total and sum(raw.values()) != TRICK_TOTAL:
            raise data.error(f"trick points must add up to {TRICK_TOTAL} (plus 10 for the last trick), got "
                             f"{sum(raw.values())}")
        items = []
        notes = []
        for side in self.names:
            with_last = raw[side] + (LAST_TRICK if side == last else 0)
            rounded = round_trick_points(with_last)
            items.append(Item(side, "tricks" + (" incl. last trick" if side == last else ""), rounded))
            if rounded != with_last:
                notes.append(f"{side}: {with_last} counts {rounded}")
        self.hands += 1
        self.trump = None
        return Scored(tuple(items), tuple(notes), (("raw", {s: raw[s] + (LAST_TRICK if s == last else 0)
                                                            for s in self.names}),))

    def entry_declare_out(self, data: Data) -> Scored:
        player = data.side("player")
        points = round_trick_points(data.num("points", lo=0, hi=TRICK_TOTAL + LAST_TRICK))
        if not self.target:
            raise data.error("declaring out needs a match target (house rule target)")
        total = self.totals[player] + points
        other = self.others(player)[0]
        if total >= self.target:
            self.declared = GameResult((player,), 1, "declared out", (other,))
        else:
            self.declared = GameResult((other,), 1, f"{player} declared out short of {self.target}",
                                       (player,))
        return Scored((Item(player, "tricks when declaring out", points),))

    def check_end(self) -> GameResult | None:
        if self.declared is not None:
            return self.declared
        if self.trump is not None or self.hands == 0:
            return None  # only the end of a hand decides
        if not self.target:
            a, b = self.names
            if self.totals[a] == self.totals[b]:
                return GameResult((a, b), 1, "tie")
            winner = a if self.totals[a] > self.totals[b] else b
            return GameResult((winner,), 1, "deal won", (self.others(winner)[0],))
        above = [s for s in self.names if self.totals[s] >= self.target]
        if len(above) == 1:
            return GameResult((above[0],), 1, f"reached {self.target}", (self.others(above[0])[0],))
        while len(above) == 2 and all(self.totals[s] >= self.target for s in self.names):
            self.target += self.rules.raise_by  # RULES C1: both passed it, the game goes on to the next step
        return None


def parse_trump(text: str) -> Suit:
    """A trump given as a suit letter or a card code."""
    text = text.strip().upper()
    for suit in Suit:
        if text in (suit.value, suit.name, suit.symbol):
            return suit
    card = parse_cards(text)[0]
    if card.suit is None:
        raise ScoreError(f"trump must be a suit (S H D C) or a card, got {text!r}")
    return card.suit
