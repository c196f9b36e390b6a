"""A dealing shoe: N packs, a cut card, burns, penetration and integrity checks.

Two modes:

* **known order** — the simulator shuffled the shoe, so the engine draws the next card itself.
  The order never leaves this object: there is no method that reveals an undealt card.
* **observed order** — a physical shoe. The order is unknown; each card becomes known when the
  camera or a reading shoe reports it (:meth:`Shoe.record`). The shoe keeps the remaining
  composition and turns every inconsistency into an :class:`IntegrityFault` instead of raising.

>>> from dealer.core.rng import Rng
>>> shoe = Shoe(ShoeRules(decks=1, cut=CutRule(10, 10)))
>>> shoe.shuffle(Rng.from_seed(1))
>>> shoe.cards_left, shoe.cut_index
(52, 42)
>>> card = shoe.draw()
>>> shoe.cards_out, shoe.remaining_composition()[card]
(1, 0)

Observed mode flags a card seen more often than the shoe holds:

>>> seen = Shoe(ShoeRules(decks=1), mode=ShoeMode.OBSERVED)
>>> seen.shuffle()
>>> _ = seen.record(Card.parse("AS"))
>>> [f.kind.value for f in seen.record(Card.parse("AS"))]
['duplicate']
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field

from dealer.core.cards import BACK, Card, Rank
from dealer.core.errors import DealerError, IllegalOperation, ShoeEmpty, ShoeStateError
from dealer.core.packs import Pack, pack_by_name
from dealer.core.rng import Rng


class ShoeMode(enum.Enum):
    KNOWN = "known"  # simulated: the engine knows (and keeps secret) the order
    OBSERVED = "observed"  # physical: cards become known as they are seen


@dataclass(frozen=True, slots=True)
class CutRule:
    """Place the cut card so that between ``min_behind`` and ``max_behind`` cards stay unused."""

    min_behind: int = 0
    max_behind: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.min_behind <= self.max_behind:
            raise DealerError(
                f"cut rule needs 0 <= min_behind <= max_behind, got {self.min_behind}..{self.max_behind}")

    def choose(self, rng: Rng) -> int:
        """Where the dealer puts the cut card this time: cards left behind it."""
        return rng.randint(self.min_behind, self.max_behind)


NO_CUT = CutRule(0, 0)
BLACKJACK_CUT = CutRule(60, 75)  # RULES A1/H2: roughly the last 60-75 cards are never used
BACCARAT_CUT = CutRule(14, 16)  # [STD] near the end: about 14-16 cards behind the cut card


class BurnRule(enum.Enum):
    NONE = "none"
    ONE = "one"  # burn the top card face down after each shuffle
    FIRST_CARD_VALUE = "first-card-value"  # baccarat: show one card, burn that many more


@dataclass(frozen=True, slots=True)
class ShoeRules:
    decks: int = 6
    pack: str = "standard-52"
    cut: CutRule = NO_CUT
    burn: BurnRule = BurnRule.NONE

    def build_pack(self) -> Pack:
        return pack_by_name(self.pack, self.decks)


class FaultKind(enum.Enum):
    DUPLICATE = "duplicate"  # seen more often than the shoe holds that card
    FOREIGN = "foreign"  # a card this shoe's packs never contained
    MISSED_READ = "missed-read"  # the device's dealt counter disagrees with the cards seen
    MISSING = "missing"  # never seen although the shoe was emptied


@dataclass(frozen=True, slots=True)
class IntegrityFault:
    kind: FaultKind
    card: Card | None
    cards_out: int
    detail: str

    def to_json(self, *, public: bool = False) -> dict[str, object]:
        """``public`` names no card: a duplicate may be a hole card or a burn, face down. Viewers
        hear the kind and where in the shoe; the detail stays with the log (and the server's log)."""
        if public:
            return {"kind": self.kind.value, "card": None, "cards_out": self.cards_out,
                    "detail": self.public_detail}
        return {"kind": self.kind.value, "card": self.card.code if self.card else None,
                "cards_out": self.cards_out, "detail": self.detail}

    @property
    def public_detail(self) -> str:
        if self.kind is FaultKind.DUPLICATE:
            return f"card {self.cards_out + 1} out of the shoe was seen more often than the shoe holds it"
        if self.kind is FaultKind.FOREIGN:
            return f"card {self.cards_out + 1} out of the shoe is not in its packs"
        if self.kind is FaultKind.MISSING:
            return "a card was never seen although the shoe was emptied"
        return self.detail  # a missed read compares counts and names no card


def baccarat_burn_count(first: Card) -> int:
    """How many cards to burn after showing ``first``: its pip value, ten and faces count 10."""
    if first.rank is None:
        raise IllegalOperation(f"the baccarat burn needs a face-up card, not {first.code}")
    return min(int(first.rank), 10) if first.rank is not Rank.ACE else 1


@dataclass
class Shoe:
    """The state of one shoe. Mutable; every change goes through a verified action."""

    rules: ShoeRules = field(default_factory=ShoeRules)
    mode: ShoeMode = ShoeMode.KNOWN
    pack: Pack = field(init=False, repr=False)
    shuffles: int = field(default=0, init=False)
    cut_index: int | None = field(default=None, init=False)
    dealt: list[Card] = field(default_factory=list, init=False)
    burned: list[Card] = field(default_factory=list, init=False)
    faults: list[IntegrityFault] = field(default_factory=list, init=False)
    _remaining: Counter[Card] = field(default_factory=Counter, init=False, repr=False)
    _order: list[Card] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self.pack = self.rules.build_pack()

    # ---- derived state -------------------------------------------------------------------
    @property
    def total(self) -> int:
        return len(self.pack)

    @property
    def cards_out(self) -> int:
        """Cards that have left the shoe since the last shuffle (dealt and burned)."""
        return len(self.dealt) + len(self.burned)

    @property
    def cards_left(self) -> int:
        return max(self.total - self.cards_out, 0)

    @property
    def penetration(self) -> float:
        """Share of the shoe out so far, 0.0 .. 1.0."""
        return self.cards_out / self.total

    @property
    def cut_card_reached(self) -> bool:
        return self.cut_index is not None and self.cards_out >= self.cut_index

    @property
    def is_shuffled(self) -> bool:
        return self.shuffles > 0

    @property
    def unidentified(self) -> int:
        """Cards that left the shoe face down and were never identified (``BK``)."""
        return sum(1 for c in self.dealt + self.burned if c.is_back)

    def remaining_composition(self) -> Counter[Card]:
        """How many of each card have not been seen yet. Composition only, never the order."""
        return +self._remaining

    # ---- shuffle ---------------------------------------------------------------------------
    def shuffle(self, rng: Rng | None = None, cut_behind: int | None = None) -> None:
        """Start a new shoe: all cards back in, shuffled, cut card placed by the house rule.

        In observed mode the physical shoe was shuffled by hand or machine: ``cut_behind`` is
        where the dealer put the cut card, if known (a reading shoe reports it instead).
        """
        rng = rng or Rng.system()
        self.dealt, self.burned = [], []
        self._remaining = self.pack.counts()
        if self.mode is ShoeMode.KNOWN:
            self._order = rng.shuffled(self.pack.cards)
            if cut_behind is None:
                cut_behind = self.rules.cut.choose(rng)
        else:
            self._order = []
        if cut_behind is not None and not 0 <= cut_behind < self.total:
            raise IllegalOperation(f"cut card must leave 0..{self.total - 1} cards behind, not {cut_behind}")
        self.cut_index = None if cut_behind in (None, 0) else self.total - cut_behind
        self.shuffles += 1

    def place_cut_card(self, cards_out: int | None = None) -> None:
        """Observed mode: the device reports the cut card came out after ``cards_out`` cards."""
        self.cut_index = self.cards_out if cards_out is None else cards_out

    # ---- draw (known mode) -------------------------------------------------------------------
    def next_card(self) -> Card:
        """The card :meth:`draw` would deal now, for the engine that is about to deal it.

        Only the table runtime calls this, to log the deal before applying it; it is never served.
        """
        self.verify_draw()
        return self._order[-1]

    def verify_draw(self) -> None:
        if self.mode is not ShoeMode.KNOWN:
            raise ShoeStateError("an observed shoe cannot draw: record the card that was seen")
        if not self.is_shuffled:
            raise ShoeStateError("the shoe has not been shuffled")
        if not self._order:
            raise ShoeEmpty(f"the shoe is empty after {self.cards_out} cards")

    def can_draw(self) -> bool:
        try:
            self.verify_draw()
        except DealerError:
            return False
        return True

    def draw(self, *, burn: bool = False) -> Card:
        """Deal (or burn) the next card of a known-order shoe."""
        self.verify_draw()
        card = self._order.pop()
        self._remaining[card] -= 1
        (self.burned if burn else self.dealt).append(card)
        return card

    # ---- record (observed mode, and replay) --------------------------------------------------
    def verify_record(self, card: Card) -> None:
        if not self.is_shuffled:
            raise ShoeStateError("the shoe has not been shuffled")

    def record(self, card: Card, *, burn: bool = False) -> tuple[IntegrityFault, ...]:
        """A card left the shoe and was seen as ``card`` (``BK`` when its face is unknown).

        Never raises for a card that should not be there: it is kept and reported as a fault,
        because the physical card really did come out.
        """
        self.verify_record(card)
        faults: list[IntegrityFault] = []
        if card.is_back:
            if self._order:
                self._order.pop()  # known-mode replay of a face-down card: any card will do
        elif card not in self.pack:
            faults.append(self._fault(FaultKind.FOREIGN, card, f"{card.code} is not in a {self.pack.name}"))
        elif self._remaining[card] <= 0:
            faults.append(self._fault(
                FaultKind.DUPLICATE, card,
                f"{card.code} seen {(self.dealt + self.burned).count(card) + 1} times; "
                f"the shoe holds {self.pack.count(card)}"))
        elif sum(self._remaining.values()) <= self.unidentified:  # face-down cards took every place
            faults.append(self._fault(FaultKind.DUPLICATE, card,
                                      f"{card.code} came out after all {self.total} cards"))
        else:
            self._remaining[card] -= 1
            if self._order:
                self._take_from_order(card)
        (self.burned if burn else self.dealt).append(card)
        self.faults.extend(faults)
        return tuple(faults)

    def _take_from_order(self, card: Card) -> None:
        # Replaying a known-order shoe from the log: condition the secret order on what was seen.
        if card not in self._order:  # a face-down card earlier took its place
            self._order.pop()
            return
        index = len(self._order) - 1 - self._order[::-1].index(card)
        self._order[index], self._order[-1] = self._order[-1], self._order[index]
        self._order.pop()

    def identify(self, card: Card, index: int | None = None) -> tuple[IntegrityFault, ...]:
        """A card that came out face down (``BK``) is turned up: it was ``card``.

        ``index`` is its place among the dealt cards; without it the oldest unidentified card
        (dealt first, then burned) takes the name. The composition and the duplicate check then
        count it like any card seen. Raises when that card is not a face-down one.
        """
        if card.is_back:
            raise IllegalOperation("identify a face-down card with its face, not BK")
        if index is not None:
            if not (0 <= index < len(self.dealt) and self.dealt[index].is_back):
                raise IllegalOperation(f"dealt card {index} is not a face-down card waiting to be named")
            places = [(self.dealt, index)]
        else:
            places = [(cards, cards.index(BACK)) for cards in (self.dealt, self.burned) if BACK in cards][:1]
        if not places:
            raise IllegalOperation("no face-down card is waiting to be identified")
        cards, at = places[0]
        del cards[at]
        burn = cards is self.burned
        faults = self.record(card, burn=burn)
        cards.insert(at, cards.pop())  # keep the card where it came out
        return faults

    def verify_undo(self, card: Card) -> None:
        if not self.dealt or self.dealt[-1] != card:
            last = self.dealt[-1].code if self.dealt else "nothing"
            raise IllegalOperation(f"only the last card dealt can be taken back: that is {last}, not "
                                   f"{card.code}")

    def undo(self, card: Card) -> None:
        """Take back the last card recorded (a mis-entered card): it counts as unseen again."""
        self.verify_undo(card)
        self.dealt.pop()
        if not card.is_back and card in self.pack and self._remaining[card] < self.pack.count(card):
            seen = sum(1 for c in self.dealt + self.burned if c == card)
            if seen < self.pack.count(card):  # it was counted (not a flagged duplicate)
                self._remaining[card] += 1
                if self.mode is ShoeMode.KNOWN:
                    self._order.append(card)  # back on top: the next draw deals it again

    def reconcile(self, device_count: int) -> tuple[IntegrityFault, ...]:
        """Compare the device's dealt counter with the cards seen since the shuffle."""
        if device_count == self.cards_out:
            return ()
        fault = self._fault(FaultKind.MISSED_READ, None,
                            f"the device counted {device_count} cards out, {self.cards_out} were seen")
        self.faults.append(fault)
        return (fault,)

    def close(self, *, emptied: bool) -> tuple[IntegrityFault, ...]:
        """End of shoe. When the shoe was emptied, every card never seen is reported missing."""
        if not emptied:
            return ()
        faults = tuple(
            self._fault(FaultKind.MISSING, card,
                        f"{card.code} was never seen ({count} missing)")
            for card, count in sorted(self.remaining_composition().items(),
                                      key=lambda item: item[0].sort_key())
            for _ in range(count))
        self.faults.extend(faults)
        return faults

    def round_finished(self) -> bool:
        """Call at the end of each round: True when the cut card came out and a shuffle is due."""
        return self.cut_card_reached

    # ---- burns ------------------------------------------------------------------------------
    @property
    def burns_due(self) -> int:
        """Cards the house burn rule still wants burned before this shoe's first deal.

        ``ONE`` burns the top card. ``FIRST_CARD_VALUE`` (baccarat) shows one card and then burns
        as many as its value, ten and faces counting 10; until that card is seen, one is due.
        """
        if self.dealt or self.rules.burn is BurnRule.NONE:
            return 0
        if self.rules.burn is BurnRule.ONE:
            return max(1 - len(self.burned), 0)
        if not self.burned:
            return 1
        first = self.burned[0]
        if first.is_back:
            return 0  # the shown card was not read: the dealer burns by eye
        return max(1 + baccarat_burn_count(first) - len(self.burned), 0)

    def _fault(self, kind: FaultKind, card: Card | None, detail: str) -> IntegrityFault:
        return IntegrityFault(kind, card, self.cards_out, detail)

    def to_json(self, *, public: bool = False) -> dict[str, object]:
        """Counts, cut card, faults and the cards already out — never the order of the rest.

        ``public`` leaves out which cards came out: some were dealt face down (a hole card, a
        closed hand), and only the game knows which, so viewers see cards through the game.
        """
        out: dict[str, object] = {
            "mode": self.mode.value,
            "pack": self.pack.name,
            "total": self.total,
            "cards_out": self.cards_out,
            "cards_left": self.cards_left,
            "penetration": round(self.penetration, 4),
            "cut_index": self.cut_index,
            "cut_card_reached": self.cut_card_reached,
            "shuffles": self.shuffles,
            "dealt": [c.code for c in self.dealt],
            "burned": len(self.burned),
            "faults": [f.to_json(public=public) for f in self.faults],
        }
        if public:
            del out["dealt"]
        return out
