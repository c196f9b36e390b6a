from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.core.cards import BACK, JOKER, Card, CardKind, Rank, Suit, format_cards, parse_card, parse_cards
from dealer.core.errors import CardCodeError, DealerError

ALL_FACES = [Card.of(rank, suit) for suit in Suit for rank in Rank]


@pytest.mark.parametrize(
    ("code", "rank", "suit"),
    [("AS", Rank.ACE, Suit.SPADES), ("10H", Rank.TEN, Suit.HEARTS), ("TH", Rank.TEN, Suit.HEARTS),
     ("T♥", Rank.TEN, Suit.HEARTS), ("A♠", Rank.ACE, Suit.SPADES), ("qd", Rank.QUEEN, Suit.DIAMONDS),
     (" 2c ", Rank.TWO, Suit.CLUBS), ("k♣", Rank.KING, Suit.CLUBS), ("9♢", Rank.NINE, Suit.DIAMONDS)],
)
def test_parse_accepts_the_documented_spellings(code: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(code)
    assert (card.rank, card.suit, card.kind) == (rank, suit, CardKind.FACE)


def test_jokers_and_backs() -> None:
    assert parse_card("JK") == JOKER and parse_card("jk").is_joker
    one, two = parse_card("JK1"), parse_card("JK2")
    assert one != two and one.is_joker and two.code == "JK2"
    assert parse_card("BK") == BACK and BACK.is_back and BACK.rank is None


@pytest.mark.parametrize("code", ["", "1S", "11H", "AX", "ZZ", "10", "AS S", "JK3", "♠A", "0H"])
def test_bad_codes_raise_a_value_error_naming_the_code(code: str) -> None:
    with pytest.raises(CardCodeError) as info:
        parse_card(code)
    assert isinstance(info.value, ValueError) and isinstance(info.value, DealerError)
    assert repr(code) in str(info.value)
    assert "expected" in str(info.value)


def test_non_string_is_refused() -> None:
    with pytest.raises(CardCodeError, match="string"):
        parse_card(10)  # type: ignore[arg-type]


@given(st.sampled_from(ALL_FACES + [JOKER, BACK, Card(CardKind.JOKER, joker=1)]))
def test_code_round_trips(card: Card) -> None:
    assert parse_card(card.code) == card
    assert parse_card(card.code.lower()) == card
    assert parse_card(card.pretty) == card


def test_all_52_codes_are_distinct() -> None:
    assert len({c.code for c in ALL_FACES}) == 52


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    cards = parse_cards("AS, 10h  qd")
    assert format_cards(cards) == "AS 10H QD"
    assert parse_cards(["KS", "2D"]) == (Card.of(13, "S"), Card.of(2, "D"))


def test_cards_are_immutable_and_hashable() -> None:
    card = parse_card("AS")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert len({card, parse_card("A♠"), parse_card("as")}) == 1


def test_inconsistent_cards_cannot_be_built() -> None:
    with pytest.raises(CardCodeError):
        Card(CardKind.FACE, Rank.ACE)
    with pytest.raises(CardCodeError):
        Card(CardKind.JOKER, Rank.ACE, Suit.SPADES)


def test_rank_helpers() -> None:
    assert Rank.ACE.high == 14 and Rank.KING.high == 13 and Rank.TWO.high == 2
    assert Rank.JACK.is_face and not Rank.TEN.is_face
    assert Suit.HEARTS.is_red and not Suit.CLUBS.is_red
