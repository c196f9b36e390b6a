from __future__ import annotations

from collections import Counter

import pytest

from dealer.core.cards import JOKER, Card, Rank, Suit
from dealer.core.errors import DealerError
from dealer.core.packs import (
    canasta_108,
    euchre_24,
    five_hundred_33,
    pack_by_name,
    pinochle,
    piquet_32,
    shoe_pack,
    standard_52,
    with_jokers,
)


def ranks_of(cards: object) -> set[Rank]:
    return {c.rank for c in cards if c.rank is not None}  # type: ignore[attr-defined]


def test_standard_pack_has_each_card_once() -> None:
    pack = standard_52()
    assert len(pack) == 52 and set(pack.counts().values()) == {1}
    assert Card.parse("AS") in pack and JOKER not in pack


def test_jokers_are_told_apart() -> None:
    assert [c.code for c in with_jokers(2) if c.is_joker] == ["JK1", "JK2"]
    assert [c.code for c in with_jokers(1) if c.is_joker] == ["JK"]
    with pytest.raises(DealerError):
        with_jokers(3)


def test_pinochle_48_two_of_each_nine_to_ace() -> None:
    # RULES C1: 48 cards, A 10 K Q J 9 in each suit, two of each card; 64 adds 8s and 7s
    pack = pinochle(48)
    assert len(pack) == 48 and set(pack.counts().values()) == {2}
    assert ranks_of(pack) == {Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE}
    big = pinochle(64)
    assert len(big) == 64 and ranks_of(big) - ranks_of(pack) == {Rank.EIGHT, Rank.SEVEN}


def test_stripped_packs() -> None:
    assert ranks_of(piquet_32()) == {Rank.ACE, *(Rank(r) for r in range(7, 14))}
    assert ranks_of(euchre_24()) == {Rank.ACE, *(Rank(r) for r in range(9, 14))}
    assert len(piquet_32()) == 32 and len(euchre_24()) == 24
    assert five_hundred_33().count(JOKER) == 1 and len(five_hundred_33()) == 33


def test_canasta_is_two_packs_and_four_jokers() -> None:
    # RULES C2: [STD] 108 cards, two 52-card packs plus 4 jokers
    pack = canasta_108()
    counts = pack.counts()
    assert len(pack) == 108 and counts[JOKER] == 4 and counts[Card.parse("7H")] == 2


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_shoe_holds_decks_copies_of_every_card(decks: int) -> None:
    pack = shoe_pack(decks)
    assert len(pack) == 52 * decks
    assert Counter(pack.counts().values()) == Counter({decks: 52})
    assert {c.suit for c in pack} == set(Suit)


def test_unknown_pack_name_lists_the_choices() -> None:
    with pytest.raises(DealerError, match="expected one of .*standard-52"):
        pack_by_name("tarot")
    assert len(pack_by_name("pinochle-48", decks=2)) == 96
