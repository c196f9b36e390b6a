"""Five Hundred (RULES C6): the card-point game to 1,000/1,500, five-hand partners, claims, minus 500."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.cards import parse_cards
from dealer.core.packs import five_hundred_33
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.five_hundred import card_points

THREE = ("ann", "bob", "cy")
FIVE = ("ann", "bob", "cy", "di", "ed")


def pts(book: Any, kind: str = "hand", **entry: Any) -> dict[str, int]:
    return book.enter(kind, entry).scored.points()


# RULES C6 option: ace 1, each face card or ten 10, lower cards their pips, joker 0.
# The 33-card pack: per suit 1 + 4*10 + 9 + 8 + 7 = 65, four suits 260, the joker nothing.
def test_card_point_values() -> None:
    assert card_points(parse_cards("AS")) == 1
    assert card_points(parse_cards("KH QD JC 10S")) == 40
    assert card_points(parse_cards("9H 8H 7H 5D 4H JK")) == 9 + 8 + 7 + 5 + 4
    assert card_points(list(five_hundred_33())) == 260


# RULES C6 option: card points are scored on top of the schedule and do not decide whether the bid is made;
# game to 1,000 (or 1,500)
def test_card_point_game(make_book: Any) -> None:
    book = make_book("five-hundred", THREE, rules={"card-points": True})
    e = pts(book, contractor="ann", bid="8H", tricks={"ann": 8, "bob": 1, "cy": 1},
            card_points={"ann": 100, "bob": 90, "cy": 70})
    assert e == {"ann": 300 + 100, "bob": 10 + 90, "cy": 10 + 70}
    # the contractor took more card points than anyone, but only 7 of the 8 tricks he bid: still set
    e = pts(book, contractor="ann", bid="8H", tricks={"ann": 7, "bob": 2, "cy": 1},
            cards={"ann": "AS KS QS JS 10S KH QH JH 10H KD QD JD", "bob": "9S 8S", "cy": "7S"})
    assert e == {"ann": -300 + 1 + 110, "bob": 20 + 17, "cy": 10 + 7}
    assert book.current.scorer.target == 1000
    book.current.scorer.totals.update({"bob": 950})
    pts(book, contractor="bob", bid="6S", tricks={"ann": 2, "bob": 6, "cy": 2},
        card_points={"ann": 40, "bob": 10, "cy": 60})
    assert book.current.result.winners == ("bob",)


def test_card_points_only_in_the_card_point_game(make_book: Any) -> None:
    book = make_book("five-hundred", THREE)
    with pytest.raises(ScoreError, match="card-point game"):
        pts(book, contractor="ann", bid="8H", tricks={"ann": 8, "bob": 1, "cy": 1}, card_points={"ann": 5})
    card_book = make_book("five-hundred", THREE, rules={"card-points": True, "card-target": 1500})
    assert card_book.current.scorer.target == 1500
    with pytest.raises(ScoreError, match="taken twice"):
        pts(card_book, contractor="ann", bid="8H", tricks={"ann": 8, "bob": 1, "cy": 1},
            cards={"ann": "AS KS", "bob": "AS"})


# RULES C6 five-hand: the high bidder chooses one partner, or two if he bid 8 or more
def test_five_hand_partners(make_book: Any) -> None:
    book = make_book("five-hundred", FIVE)
    e = pts(book, contractor="ann", bid="7S", partners=["cy"],
            tricks={"ann": 4, "bob": 1, "cy": 3, "di": 1, "ed": 1})
    assert e == {"ann": 140, "cy": 140, "bob": 10, "di": 10, "ed": 10}
    e = pts(book, contractor="bob", bid="8NT", partners=["di", "ed"],
            tricks={"ann": 3, "bob": 3, "cy": 0, "di": 2, "ed": 2})
    assert e == {"bob": -320, "di": -320, "ed": -320, "ann": 30}
    with pytest.raises(ScoreError, match="takes 2 partner"):
        pts(book, contractor="ann", bid="9H", partners=["cy"], tricks={"ann": 9, "bob": 1, "cy": 0, "di": 0,
                                                                        "ed": 0})
    with pytest.raises(ScoreError, match="name the contractor's partner"):
        pts(book, contractor="ann", bid="7H", tricks={"ann": 9, "bob": 1, "cy": 0, "di": 0, "ed": 0})
    # RULES C6: the nullo bidder plays alone
    with pytest.raises(ScoreError, match="alone"):
        pts(book, contractor="ann", bid="nullo", partners=["cy"],
            tricks={"ann": 0, "bob": 4, "cy": 3, "di": 2, "ed": 1})


# RULES C6 three-hand: both opponents reach 500 but not the contractor: the first to get there wins
def test_first_opponent_to_500(make_book: Any) -> None:
    book = make_book("five-hundred", THREE)
    book.current.scorer.totals.update({"bob": 460, "cy": 470})
    book.enter("hand", {"contractor": "ann", "bid": "7S", "tricks": {"ann": 2, "bob": 5, "cy": 3},
                        "first_to_target": "bob"})
    assert book.current.result.winners == ("bob",)  # cy has more (500 v 510), but bob got there first
    with pytest.raises(ScoreError, match="opponent"):
        other = make_book("five-hundred", THREE)
        other.enter("hand", {"contractor": "ann", "bid": "7S", "tricks": {"ann": 7, "bob": 2, "cy": 1},
                             "first_to_target": "ann"})


# RULES C6 three-hand: a player at -500 cannot win but plays on; if he then reaches +500 first, nobody wins
def test_minus_500_then_plus_500_nobody_wins(make_book: Any) -> None:
    book = make_book("five-hundred", THREE)
    book.current.scorer.totals.update({"ann": -450})
    pts(book, contractor="ann", bid="6S", tricks={"ann": 4, "bob": 3, "cy": 3})  # -490
    pts(book, contractor="ann", bid="6S", tricks={"ann": 4, "bob": 3, "cy": 3})  # -530: cannot win
    assert book.current.result is None and book.current.scorer.minus_out == {"ann"}
    book.current.scorer.totals.update({"ann": 460})
    pts(book, contractor="bob", bid="6S", tricks={"ann": 4, "bob": 6, "cy": 0})  # ann 500 first
    result = book.current.result
    assert result is not None and result.winners == () and "nobody wins" in result.label


# RULES C6 three-hand claim: allowed only when the contractor cannot reach 500 even by making his bid
def test_claim(make_book: Any) -> None:
    book = make_book("five-hundred", THREE)
    book.current.scorer.totals.update({"ann": 100, "bob": 470})
    with pytest.raises(ScoreError, match="could still reach"):
        book.current.scorer.totals.update({"ann": 300})
        pts(book, "claim", player="bob", contractor="ann", bid="8H", tricks=3)
    book.current.scorer.totals.update({"ann": 100})
    # a wrong claim: play goes on, nothing scored
    e = book.enter("claim", {"player": "bob", "contractor": "ann", "bid": "8H", "tricks": 2})
    assert e.scored.points() == {} and "wrong" in e.scored.notes[0] and book.current.result is None
    e = book.enter("claim", {"player": "bob", "contractor": "ann", "bid": "8H", "tricks": 3})
    assert e.scored.points() == {"bob": 30} and book.current.result.winners == ("bob",)
