"""The hearts family (RULES C4)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.packs import standard_52
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.hearts import howell

FOUR = ("ann", "bob", "cy", "di")
ALL_ANN = {"ann": 13, "bob": 0, "cy": 0, "di": 0}


def test_hand_scores_hearts_and_the_queen(make_book: Any) -> None:
    # RULES C4: each heart 1, the Q♠ 13, 26 a deal
    book = make_book("hearts", FOUR)
    e = book.enter("hand", {"hearts": {"ann": 5, "bob": 4, "cy": 4, "di": 0}, "queen": "di"})
    assert e.scored.points() == {"ann": 5, "bob": 4, "cy": 4, "di": 13}


# RULES C4: shooting the moon — 0 for the shooter, +26 to each opponent
def test_shooting_the_moon(make_book: Any) -> None:
    book = make_book("hearts", FOUR)
    e = book.enter("hand", {"hearts": {"ann": 13, "bob": 0, "cy": 0, "di": 0}, "queen": "ann"})
    assert e.scored.points() == {"ann": 0, "bob": 26, "cy": 26, "di": 26}
    other = make_book("hearts", FOUR, rules={"moon": "subtract"})
    e = other.enter("hand", {"hearts": {"ann": 13, "bob": 0, "cy": 0, "di": 0}, "queen": "ann"})
    assert e.scored.points() == {"ann": -26, "bob": 0, "cy": 0, "di": 0}
    # all hearts but not the queen is no moon
    e = book.enter("hand", {"hearts": {"ann": 13, "bob": 0, "cy": 0, "di": 0}, "queen": "bob"})
    assert e.scored.points() == {"ann": 13, "bob": 13, "cy": 0, "di": 0}


def test_hand_counted_from_the_cards_taken(make_book: Any) -> None:
    book = make_book("hearts", FOUR)
    pack = [c.code for c in standard_52()]
    taken = {p: pack[i * 13:(i + 1) * 13] for i, p in enumerate(FOUR)}  # C, D, H, S by suit
    e = book.enter("hand", {"cards": taken})
    assert e.scored.points() == {"ann": 0, "bob": 0, "cy": 13, "di": 13}


@settings(max_examples=50, deadline=None)
@given(st.permutations([c.code for c in standard_52()]))
def test_every_deal_scores_a_multiple_of_26(order: list[str]) -> None:
    # RULES C4: the sum of a hand's scores is always a multiple of 26
    from dealer.core.scoring.book import Scorebook
    book = Scorebook("h", FOUR)
    book.start_game("hearts")
    e = book.enter("hand", {"cards": {p: order[i * 13:(i + 1) * 13] for i, p in enumerate(FOUR)}})
    assert sum(e.scored.points().values()) % 26 == 0


def test_bad_hand_is_refused(make_book: Any) -> None:
    book = make_book("hearts", FOUR)
    with pytest.raises(ScoreError, match="add up to 13"):
        book.enter("hand", {"hearts": {"ann": 5, "bob": 4, "cy": 4, "di": 1}, "queen": "di"})
    with pytest.raises(ScoreError, match="Q♠"):
        book.enter("hand", {"hearts": {"ann": 5, "bob": 4, "cy": 4, "di": 0}})


# RULES C4: game to 100, lowest wins; revoke charges 26
def test_game_to_100_lowest_wins(make_book: Any) -> None:
    book = make_book("hearts", FOUR)
    for _ in range(3):
        book.enter("hand", {"hearts": {"ann": 13, "bob": 0, "cy": 0, "di": 0}, "queen": "bob"})
    assert book.enter("revoke", {"player": "ann"}).scored.points() == {"ann": 26}  # ann 65, bob 39
    book.enter("hand", {"hearts": {"ann": 13, "bob": 0, "cy": 0, "di": 0}, "queen": "bob"})  # ann 78, bob 52
    book.enter("hand", {"hearts": {"ann": 13, "bob": 0, "cy": 0, "di": 0}, "queen": "cy"})  # ann 91
    assert book.current.result is None
    book.enter("hand", {"hearts": {"ann": 10, "bob": 3, "cy": 0, "di": 0}, "queen": "cy"})  # ann 101
    assert book.current.result.winners == ("di",)


# RULES C4 Omnibus: hearts −1, Q♠ −13, 10♦ +10; all 15 counting cards is a slam worth +26
def test_omnibus(make_book: Any) -> None:
    book = make_book("omnibus-hearts", FOUR)
    e = book.enter("hand", {"hearts": ALL_ANN, "queen": "ann", "bonus": "bob"})
    assert e.scored.points() == {"ann": -26, "bob": 10}
    e = book.enter("hand", {"hearts": ALL_ANN, "queen": "ann", "bonus": "ann"})
    assert e.scored.points() == {"ann": 26}


# RULES C4 Howell settlement: 4 players, 7 hearts pays 21 and takes back 6; zero-sum
def test_howell_settlement(make_book: Any) -> None:
    assert howell(7, 4) == -21 + 6
    book = make_book("hearts-without-lady", FOUR)
    e = book.enter("hand", {"hearts": {"ann": 7, "bob": 3, "cy": 3, "di": 0}})
    assert sum(e.scored.points().values()) == 0
    assert e.scored.points()["ann"] == -15 and e.scored.points()["di"] == 13


# RULES C4 Auction Hearts: bid into the pot, 1 chip per card of the suit; none taken wins; else carries
def test_auction_hearts_pot_carries_and_is_won(make_book: Any) -> None:
    book = make_book("auction-hearts", FOUR)
    e = book.enter("hand", {"bidder": "ann", "bid": 5, "suit": "S",
                            "taken": {"ann": 4, "bob": 3, "cy": 3, "di": 3}})
    assert book.current.scorer.pot == 5 + 13 and e.scored.notes  # everyone took one: carries
    with pytest.raises(ScoreError, match="no new bidding"):
        book.enter("hand", {"bidder": "bob", "bid": 9, "taken": {"ann": 4, "bob": 3, "cy": 3, "di": 3}})
    e = book.enter("hand", {"taken": {"ann": 6, "bob": 7, "cy": 0, "di": 0}})  # two clean: 31 split 15 + 15
    assert e.scored.points()["cy"] == 15 and book.current.scorer.pot == 1
    totals = book.current.scorer.totals
    assert sum(totals.values()) + book.current.scorer.pot == 0  # chips are conserved


def test_cancellation_and_domino(make_book: Any) -> None:
    seven = ("a", "b", "c", "d", "e", "f", "g")
    book = make_book("cancellation-hearts", seven)
    e = book.enter("hand", {"hearts": {"a": 20, "b": 6, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0},
                            "queens": {"c": 2}})
    assert e.scored.points()["c"] == 26 and sum(e.scored.points().values()) == 52
    dom = make_book("domino-hearts", ("a", "b"))
    e = dom.enter("hand", {"hearts": {"a": 9, "b": 4}})
    assert e.scored.points() == {"a": 9, "b": 4}  # RULES C4: domino hearts usually without the Q♠
    with pytest.raises(ScoreError, match="unexpected"):
        dom.enter("hand", {"hearts": {"a": 9, "b": 4}, "queen": "a"})
