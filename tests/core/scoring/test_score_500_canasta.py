"""Five Hundred (RULES C6) and Canasta (RULES C2)."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.cards import parse_cards
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.canasta import card_value, check_meld, minimum_first_meld
from dealer.core.scoring.five_hundred import avondale

THREE = ("ann", "bob", "cy")


def pts(book: Any, kind: str = "hand", **entry: Any) -> dict[str, int]:
    return book.enter(kind, entry).scored.points()


# RULES C6 [STD] Avondale schedule
@pytest.mark.parametrize(("bid", "value"), [((6, "S"), 40), ((6, "NT"), 120), ((7, "C"), 160),
                                            ((8, "D"), 280), ((9, "H"), 400), ((10, "NT"), 520),
                                            ((10, "S"), 440)])
def test_avondale(bid: tuple[int, str], value: int) -> None:
    assert avondale(*bid) == value


# RULES C6: made bid scores its value (no overtricks), opponents 10 per trick, a set subtracts the bid
def test_five_hundred_hands(make_book: Any) -> None:
    book = make_book("five-hundred", THREE)
    made = pts(book, contractor="ann", bid="8H", tricks={"ann": 9, "bob": 1, "cy": 0})
    assert made == {"ann": 300, "bob": 10}
    setback = pts(book, contractor="bob", bid="7NT", tricks={"ann": 4, "bob": 6, "cy": 0})
    assert setback == {"bob": -220, "ann": 40}
    # RULES C6: all ten tricks scores at least 250
    assert pts(book, contractor="cy", bid="6S", tricks={"ann": 0, "bob": 0, "cy": 10}) == {"cy": 250}


# RULES C6 nullo: 250; a trick taken sets him back 250 and each opponent scores 10 per trick he took
def test_nullo(make_book: Any) -> None:
    book = make_book("five-hundred", THREE)
    assert pts(book, contractor="ann", bid="nullo", tricks={"ann": 0, "bob": 5, "cy": 5}) == {"ann": 250}
    assert pts(book, contractor="ann", bid="nullo", tricks={"ann": 2, "bob": 4, "cy": 4}) \
        == {"ann": -250, "bob": 20, "cy": 20}
    with pytest.raises(ScoreError, match="add up to 10"):
        pts(book, contractor="ann", bid="8H", tricks={"ann": 2, "bob": 4, "cy": 5})
    with pytest.raises(ScoreError, match="'bid'"):
        pts(book, contractor="ann", bid="5H", tricks={"ann": 2, "bob": 4, "cy": 4})


# RULES C6: the contractor wins when he and an opponent reach 500 on the same deal; −500 loses 2-sided
def test_five_hundred_game_end(make_book: Any) -> None:
    book = make_book("five-hundred", THREE)
    book.enter("hand", {"contractor": "bob", "bid": "10H", "tricks": {"ann": 0, "bob": 10, "cy": 0}})  # 500
    assert book.current.result.winners == ("bob",)
    book2 = make_book("five-hundred", THREE)
    book2.current.scorer.totals.update({"ann": 480, "bob": 400})
    book2.enter("hand", {"contractor": "bob", "bid": "7H", "tricks": {"ann": 3, "bob": 7, "cy": 0}})
    assert book2.current.result.winners == ("bob",)  # both reached 500: the contractor wins
    pair = make_book("five-hundred", ("a", "b", "c", "d"), partnerships={"ns": ["a", "c"], "ew": ["b", "d"]})
    pair.current.scorer.totals.update({"ns": -400})
    pair.enter("hand", {"contractor": "a", "bid": "7S", "tricks": {"ns": 5, "ew": 5}})
    assert pair.current.result.winners == ("ew",)  # ns at -540


# RULES C2 card values
@pytest.mark.parametrize(("code", "value"), [("JK", 50), ("2C", 20), ("AS", 20), ("KH", 10), ("8D", 10),
                                             ("7C", 5), ("4H", 5), ("3S", 5)])
def test_canasta_card_values(code: str, value: int) -> None:
    assert card_value(parse_cards(code)[0]) == value


def test_canasta_melds() -> None:
    assert check_meld(parse_cards("7H 7D 7S 7C 7H 7D 7S")).canasta == "natural"
    assert check_meld(parse_cards("7H 7D 7S 7C 7H 2C JK")).canasta == "mixed"
    for bad in ("7H 2C JK", "7H 7D 2C 2D JK JK", "7H 8D 9S", "3H 3D 3H", "3S 3C 3S"):
        with pytest.raises(ScoreError):
            check_meld(parse_cards(bad))
    assert check_meld(parse_cards("3S 3C 3S"), going_out=True).points == 15


# RULES C2 note: minimum first meld — the seed's table is garbled; the standard table
def test_minimum_first_meld_table() -> None:
    scores = (-5, 0, 1495, 1500, 2995, 3000, 7000)
    assert [minimum_first_meld(s) for s in scores] == [15, 50, 50, 90, 90, 120, 120]


# RULES C2 scoring: canastas 500/300, red threes 100 (800 for all four), going out 100 (+100 concealed),
# melded cards minus cards in hand; red threes count against a side that has not melded
def test_canasta_hand_from_cards(make_book: Any) -> None:
    book = make_book("canasta", ("a", "b", "c", "d"), partnerships={"we": ["a", "c"], "they": ["b", "d"]})
    e = book.enter("hand", {"sides": {
        "we": {"melds": ["KH KD KS KC KH KD KS", "5H 5D 2C"], "red_threes": 1, "went_out": True},
        "they": {"melds": [], "red_threes": 2, "in_hand": "AS JK 4C"},
    }})
    assert e.scored.points() == {"we": 500 + 100 + 100 + 70 + 30, "they": -200 - 75}
    e = book.enter("hand", {"sides": {
        "we": {"melds": ["QH QD QS QC QH QD QS"], "red_threes": 4, "went_out": True, "concealed": True},
        "they": {"meld_points": 200, "mixed_canastas": 1, "hand_points": 45},
    }})
    assert e.scored.points() == {"we": 500 + 800 + 100 + 100 + 70, "they": 300 + 200 - 45}
    with pytest.raises(ScoreError, match="without a canasta"):
        book.enter("hand", {"sides": {"we": {"melds": ["QH QD QS"], "went_out": True}, "they": {}}})


def test_canasta_first_meld_check_and_game(make_book: Any) -> None:
    book = make_book("canasta", ("a", "b"))
    book.enter("first-meld", {"side": "a", "melds": ["KH KD KS", "AH AD 2C"]})  # 30 + 60 >= 50
    with pytest.raises(ScoreError, match="minimum is 50"):
        book.enter("first-meld", {"side": "a", "melds": ["5H 5D 5S"]})
    book.current.scorer.totals.update({"a": 4900, "b": 4000})
    book.enter("hand", {"sides": {"a": {"meld_points": 150}, "b": {"meld_points": 50}}})
    assert book.current.result.winners == ("a",)
