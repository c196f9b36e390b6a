"""Canasta (RULES C2): going-out bonuses as house rules, going out concealed from the pile, one meld per rank,
the pile's top card in a first meld."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.scoring.base import ScoreError

FOUR = ("a", "b", "c", "d")
TEAMS = {"we": ["a", "c"], "they": ["b", "d"]}
CANASTA = "KH KD KS KC KH KD KS"  # natural, 70 in cards


def hand(book: Any, we: dict[str, Any], they: dict[str, Any] | None = None) -> dict[str, int]:
    return book.enter("hand", {"sides": {"we": we, "they": they or {}}}).scored.points()


# RULES C2: going out 100, going out concealed a further 100 (the seed's values are the defaults; a table's
# own values are house rules)
def test_going_out_bonuses(make_book: Any) -> None:
    book = make_book("canasta", FOUR, partnerships=TEAMS)
    assert hand(book, {"melds": [CANASTA], "went_out": True, "concealed": True}) \
        == {"we": 500 + 100 + 100 + 70}
    house = make_book("canasta", FOUR, partnerships=TEAMS,
                      rules={"going-out-bonus": 200, "concealed-bonus": 300})
    assert hand(house, {"melds": [CANASTA], "went_out": True}) == {"we": 500 + 200 + 70}
    assert hand(house, {"melds": [CANASTA], "went_out": True, "concealed": True}) \
        == {"we": 500 + 200 + 300 + 70}


# RULES C2: going out concealed after taking the discard pile, a side that has not melded must still meet the
# minimum count, without the canasta bonus; from the stock it need not
def test_concealed_from_the_pile_meets_the_minimum(make_book: Any) -> None:
    book = make_book("canasta", FOUR, partnerships=TEAMS)
    book.current.scorer.totals.update({"we": 1600})  # minimum 90
    with pytest.raises(ScoreError, match="minimum at 1600 is 90"):
        hand(book, {"melds": ["5H 5D 5S 5C 5H 5D 5S"], "went_out": True, "concealed": True,
                    "took_pile": True})
    # drawn from the stock: no minimum
    assert hand(book, {"melds": ["5H 5D 5S 5C 5H 5D 5S"], "went_out": True, "concealed": True}) \
        == {"we": 500 + 100 + 100 + 35}
    # the partner had melded before: the side had melded, no minimum either
    e = hand(book, {"melds": ["5H 5D 5S 5C 5H 5D 5S"], "went_out": True, "concealed": True, "took_pile": True,
                    "partner_melded": True})
    assert e == {"we": 735}
    with pytest.raises(ScoreError, match="describe going out concealed"):
        hand(book, {"melds": [CANASTA], "went_out": True, "took_pile": True})


# RULES C2: a side may not hold two separate melds of the same rank
def test_one_meld_per_rank(make_book: Any) -> None:
    book = make_book("canasta", FOUR, partnerships=TEAMS)
    with pytest.raises(ScoreError, match="two separate melds of K"):
        hand(book, {"melds": [CANASTA, "KH KD 2C"]})


# RULES C2: when the minimum is met by taking the discard pile, only its top card counts: it must be melded
def test_first_meld_with_the_pile_top(make_book: Any) -> None:
    book = make_book("canasta", ("a", "b"))
    book.enter("first-meld", {"side": "a", "melds": ["AH AD JK"], "pile_top": "AD"})  # 20+20+50 = 90
    with pytest.raises(ScoreError, match="top card 9C must be melded"):
        book.enter("first-meld", {"side": "a", "melds": ["AH AD JK"], "pile_top": "9C"})
