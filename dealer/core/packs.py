"""Pack builders for every pack the seeds use.

>>> len(standard_52()), len(with_jokers(2)), len(pinochle()), len(pinochle(64))
(52, 54, 48, 64)
>>> len(piquet_32()), len(euchre_24()), len(five_hundred_33()), len(canasta_108())
(32, 24, 33, 108)
>>> shoe_pack(6).name, len(shoe_pack(6))
('6-deck shoe', 312)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from dealer.core.cards import JOKER, Card, CardKind, Rank, Suit
from dealer.core.errors import DealerError

ALL_RANKS = tuple(Rank)


@dataclass(frozen=True)
class Pack:
    """A named multiset of cards (order irrelevant): what a shoe or a deal starts from."""

    name: str
    cards: tuple[Card, ...]
    _counts: Counter[Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_counts", Counter(self.cards))

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self._counts

    def count(self, card: Card) -> int:
        return self._counts[card]

    def counts(self) -> Counter[Card]:
        return Counter(self._counts)

    def __add__(self, other: Pack) -> Pack:
        return Pack(f"{self.name} + {other.name}", self.cards + other.cards)


def _faces(ranks: Iterable[Rank], copies: int = 1) -> tuple[Card, ...]:
    ranks = tuple(ranks)
    return tuple(Card(CardKind.FACE, r, s) for _ in range(copies) for s in Suit for r in ranks)


def standard_52() -> Pack:
    return Pack("standard 52", _faces(ALL_RANKS))


def with_jokers(jokers: int = 1) -> Pack:
    """52 cards plus one joker (``JK``) or two numbered jokers (``JK1``, ``JK2``)."""
    if jokers not in (1, 2):
        raise DealerError(f"a standard pack has 1 or 2 jokers, not {jokers}")
    extra = (JOKER,) if jokers == 1 else (Card(CardKind.JOKER, joker=1), Card(CardKind.JOKER, joker=2))
    return Pack(f"52 + {jokers} joker{'s' * (jokers > 1)}", _faces(ALL_RANKS) + extra)


def pinochle(size: int = 48) -> Pack:
    """Two of each A, 10, K, Q, J, 9 (48 cards); the 64-card pack adds 8s and 7s."""
    low = {48: Rank.NINE, 64: Rank.SEVEN}.get(size)
    if low is None:
        raise DealerError(f"a pinochle pack has 48 or 64 cards, not {size}")
    return Pack(f"pinochle {size}", _faces(_ace_down_to(low), copies=2))


def _ace_down_to(low: Rank) -> tuple[Rank, ...]:
    return (Rank.ACE, *(r for r in ALL_RANKS if r >= low))


def piquet_32() -> Pack:
    """Sevens up to aces in each suit (piquet, five hundred without the joker)."""
    return Pack("piquet 32", _faces(_ace_down_to(Rank.SEVEN)))


def euchre_24() -> Pack:
    """Nines up to aces in each suit."""
    return Pack("euchre 24", _faces(_ace_down_to(Rank.NINE)))


def five_hundred_33() -> Pack:
    """The 32-card piquet pack plus one joker (the top trump)."""
    return Pack("five hundred 33", piquet_32().cards + (JOKER,))


def canasta_108() -> Pack:
    """Two 52-card packs plus four jokers."""
    return Pack("canasta 108", _faces(ALL_RANKS, copies=2) + (JOKER,) * 4)


def shoe_pack(decks: int, jokers_per_deck: int = 0) -> Pack:
    """``decks`` standard packs shuffled together (blackjack 6, baccarat 8, ...)."""
    if decks < 1:
        raise DealerError(f"a shoe holds at least one deck, not {decks}")
    one = standard_52() if jokers_per_deck == 0 else with_jokers(jokers_per_deck)
    return Pack(f"{decks}-deck shoe", one.cards * decks)


PACK_BUILDERS = {
    "standard-52": standard_52,
    "52+1": lambda: with_jokers(1),
    "52+2": lambda: with_jokers(2),
    "pinochle-48": lambda: pinochle(48),
    "pinochle-64": lambda: pinochle(64),
    "piquet-32": piquet_32,
    "euchre-24": euchre_24,
    "five-hundred-33": five_hundred_33,
    "canasta-108": canasta_108,
}


def pack_by_name(name: str, decks: int = 1) -> Pack:
    """A pack by its config name, repeated ``decks`` times."""
    try:
        one = PACK_BUILDERS[name]()
    except KeyError:
        raise DealerError(
            f"unknown pack {name!r}: expected one of {', '.join(sorted(PACK_BUILDERS))}") from None
    return one if decks == 1 else Pack(f"{decks} x {one.name}", one.cards * decks)
