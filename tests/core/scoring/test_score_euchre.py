"""The euchre family (RULES C5)."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.scoring.base import ScoreError

FOUR = ("ann", "bob", "cy", "di")
TEAMS = {"we": ["ann", "cy"], "they": ["bob", "di"]}


def four(make_book: Any, **rules: Any) -> Any:
    return make_book("euchre", FOUR, rules=rules, partnerships=TEAMS)


# RULES C5 table: 3-4 tricks 1, a march 2, a lone march 4, euchred 2 to the opponents
@pytest.mark.parametrize(("entry", "expected"), [
    ({"makers": "ann", "tricks": 3}, {"we": 1}),
    ({"makers": "we", "tricks": 5}, {"we": 2}),  # a march
    ({"makers": "bob", "tricks": 5, "alone": True}, {"they": 4}),
    ({"makers": "bob", "tricks": 4, "alone": True}, {"they": 1}),
    ({"makers": "bob", "tricks": 2}, {"we": 2}),  # euchred
])
def test_four_hand_scoring(make_book: Any, entry: dict[str, Any], expected: dict[str, int]) -> None:
    assert four(make_book).enter("hand", entry).scored.points() == expected


# RULES C5 railroad: a lone defender who euchres a lone maker scores 4
def test_railroad_defending_alone(make_book: Any) -> None:
    entry = {"makers": "ann", "tricks": 1, "alone": True, "defender_alone": True}
    with pytest.raises(ScoreError, match="railroad"):
        four(make_book).enter("hand", entry)
    assert four(make_book, railroad=True).enter("hand", entry).scored.points() == {"they": 4}


# RULES C5 rubbers: 3 rubber points if the losers had 0, 2 for 1-2, 1 for 3 or more
@pytest.mark.parametrize(("they", "value"), [(0, 3), (2, 2), (4, 1)])
def test_game_to_5_with_rubber_points(make_book: Any, they: int, value: int) -> None:
    book = four(make_book)
    for _ in range(they):
        book.enter("hand", {"makers": "they", "tricks": 3})
    book.enter("hand", {"makers": "we", "tricks": 5})
    book.enter("hand", {"makers": "we", "tricks": 5})
    assert book.current.result is None
    book.enter("hand", {"makers": "we", "tricks": 3})
    assert book.current.result.winners == ("we",) and book.current.result.value == value
    session = book.session()
    assert session["partnerships"]["ann & cy"]["games_won"] == 1
    assert session["players"]["cy"]["points"] == 5


# RULES C5 three-hand: maker 1 for 3-4, 3 for all five; euchred: each opponent 2
def test_three_hand(make_book: Any) -> None:
    book = make_book("euchre-three-hand", ("ann", "bob", "cy"))
    assert book.enter("hand", {"maker": "ann", "tricks": 5}).scored.points() == {"ann": 3}
    assert book.enter("hand", {"maker": "ann", "tricks": 2}).scored.points() == {"bob": 2, "cy": 2}


def test_two_hand_has_no_lone_hands(make_book: Any) -> None:
    book = make_book("euchre-two-hand")
    assert book.enter("hand", {"makers": "ann", "tricks": 5}).scored.points() == {"ann": 2}
    with pytest.raises(ScoreError, match="no going alone"):
        book.enter("hand", {"makers": "ann", "tricks": 5, "alone": True})


# RULES C5 auction euchre bid tables
def test_auction_five_hand(make_book: Any) -> None:
    five = ("a", "b", "c", "d", "e")
    book = make_book("euchre-auction", five)
    assert pts(book, bidder="a", bid=3, partners=["c"], tricks=3) == {"a": 3, "c": 3}
    # euchred: each opponent scores the bid
    assert pts(book, bidder="b", bid=4, partners=["a", "e"], tricks=3) == {"c": 4, "d": 4}
    assert book.enter("hand", {"bidder": "d", "bid": 15, "tricks": 5}).scored.points() == {"d": 15}
    with pytest.raises(ScoreError, match="bids are 3, 4, 5, 8, 15"):
        book.enter("hand", {"bidder": "d", "bid": 6, "tricks": 5})
    with pytest.raises(ScoreError, match="gives 2 partner"):
        book.enter("hand", {"bidder": "d", "bid": 5, "partners": ["a"], "tricks": 5})


def test_auction_six_and_seven_hand(make_book: Any) -> None:
    six = ("a", "b", "c", "d", "e", "f")
    book = make_book("euchre-auction", six, partnerships={"odd": ["a", "c", "e"], "even": ["b", "d", "f"]})
    assert book.enter("hand", {"bidder": "c", "bid": 5, "tricks": 4}).scored.points() == {"even": 5}
    seven = ("a", "b", "c", "d", "e", "f", "g")
    book = make_book("euchre-auction", seven)
    assert book.enter("hand", {"bidder": "a", "bid": 20, "tricks": 7}).scored.points() == {"a": 20}


def pts(book: Any, **entry: Any) -> dict[str, int]:
    return book.enter("hand", entry).scored.points()


# RULES C5 Cincinnati: tricks scored; a set subtracts the bid; Triple Moon 32 from the seed
def test_cincinnati(make_book: Any) -> None:
    book = make_book("euchre-cincinnati", FOUR, partnerships=TEAMS)
    assert pts(book, bidder="ann", bid=4, tricks=5) == {"we": 5, "they": 1}
    assert pts(book, bidder="bob", bid=5, tricks=4) == {"they": -5, "we": 2}
    assert pts(book, bidder="we", bid="triple-moon", tricks=6) == {"we": 32}
    alt = make_book("euchre-cincinnati", FOUR, rules={"triple_moon": 36}, partnerships=TEAMS)
    assert pts(alt, bidder="we", bid="moon", tricks=5) == {"we": -12, "they": 1}  # a failed moon loses 12
    assert pts(alt, bidder="we", bid="triple-moon", tricks=6) == {"we": 36}


def test_call_ace_standard_scoring(make_book: Any) -> None:
    book = make_book("euchre-call-ace", ("a", "b", "c", "d", "e"))
    assert pts(book, maker="a", partner="d", tricks=5) == {"a": 2, "d": 2}
    assert pts(book, maker="a", tricks=5) == {"a": 5}
    assert pts(book, maker="a", partner="b", tricks=1) == {"c": 2, "d": 2, "e": 2}
