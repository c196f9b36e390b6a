"""Auction Pitch (RULES C11): countdown scoring, the sellout variant, set-back chips and revokes."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.scoring.base import ScoreError

THREE = ("a", "b", "c")


def pts(book: Any, kind: str = "hand", **entry: Any) -> dict[str, int]:
    return book.enter(kind, entry).scored.points()


# RULES C11 Pitch: countdown — everyone starts at 7, subtracts points won, adds his bid when set back;
# the first to 0 wins
def test_countdown(make_book: Any) -> None:
    book = make_book("auction-pitch", THREE, rules={"scoring": "countdown"})
    assert book.current.scorer.totals == {"a": 7, "b": 7, "c": 7}
    pts(book, pitcher="a", bid=2, high="a", low="b", jack="a", game="c")
    assert book.current.scorer.totals == {"a": 5, "b": 6, "c": 6}
    pts(book, pitcher="b", bid=3, high="b", low="b", jack="a", game="c")  # b made 2 of 3: set back
    assert book.current.scorer.totals == {"a": 4, "b": 9, "c": 5}
    assert book.to_json()["games"][0]["in_the_hole"] == ["b"]  # above the 7 he started with
    assert book.current.result is None
    book.undo(2, reason="wrong pitcher")  # re-scored from a fresh sheet that starts at 7
    assert book.current.scorer.totals == {"a": 5, "b": 6, "c": 6}


# RULES C11: the pitcher's points count first, so he goes out before another player's Jack
def test_countdown_pitcher_first_to_zero(make_book: Any) -> None:
    book = make_book("auction-pitch", THREE, rules={"scoring": "countdown"})
    book.current.scorer.totals.update({"a": 1, "c": 2})
    e = book.enter("hand", {"pitcher": "c", "bid": 2, "high": "c", "low": "c", "jack": "a", "game": "b"})
    assert book.current.result.winners == ("c",) and book.current.scorer.totals["c"] == 0
    assert "not scored" in e.scored.notes[-1]  # a's Jack and b's Game come after the end


# RULES C11 settlement: 1 chip from each player with points, 2 from each at 0 or below; variation: 1 more
# for each time the payer was set back
def test_settlement_with_set_back_chips(make_book: Any) -> None:
    book = make_book("auction-pitch", THREE, rules={"setback_chips": True})
    pts(book, pitcher="b", bid=3, high="b", low="a", jack="c", game="c")  # b set back: -3
    book.current.scorer.totals.update({"a": 6})
    pts(book, pitcher="a", bid=2, high="a", low="a", game="c")
    settlement = book.to_json()["games"][0]["settlement"]
    assert settlement == {"winner": "a", "chips_from_each": {"b": 2 + 1, "c": 1}}


# RULES C11 sellout: sold — the seller scores the bid at once and the buyer pitches; refused — the seller
# pitches and the high bidder scores the bid at once
def test_sellout(make_book: Any) -> None:
    book = make_book("auction-pitch", THREE, rules={"variant": "sellout"})
    e = book.enter("hand", {"pitcher": "b", "bid": 3, "high": "b", "low": "b", "jack": "c", "game": "b",
                            "sellout": {"seller": "a", "sold": True}})
    assert e.scored.points() == {"a": 3, "b": 3, "c": 1}
    assert e.scored.items[0].label == "sold the contract for 3"  # counted before the play
    e = book.enter("hand", {"pitcher": "a", "bid": 2, "high": "a", "low": "c", "game": "a",
                            "sellout": {"seller": "a", "sold": False, "high_bidder": "c"}})
    assert e.scored.points() == {"c": 2 + 1, "a": 2}
    # taken at 4 with no bids heard
    pts(book, pitcher="b", bid=4, high="b", low="b", sellout={"seller": "b", "sold": False})
    with pytest.raises(ScoreError, match="took the contract at 4"):
        pts(book, pitcher="b", bid=3, high="b", low="b", sellout={"seller": "b", "sold": False})


# RULES C11 sellout: nobody may bid enough to put the seller out if he sells; he must sell if refusing
# would put the high bidder out
def test_sellout_limits(make_book: Any) -> None:
    book = make_book("auction-pitch", THREE, rules={"variant": "sellout"})
    book.current.scorer.totals.update({"a": 5, "c": 5})
    with pytest.raises(ScoreError, match="put the seller out"):
        pts(book, pitcher="b", bid=2, high="b", low="b", sellout={"seller": "a", "sold": True})
    with pytest.raises(ScoreError, match="must sell"):
        pts(book, pitcher="b", bid=2, high="b", low="b", sellout={"seller": "b", "sold": False,
                                                                   "high_bidder": "c"})
    plain = make_book("auction-pitch", THREE)
    with pytest.raises(ScoreError, match="sellout variant"):
        pts(plain, pitcher="b", bid=2, high="b", low="b", sellout={"seller": "b", "sold": False})


# RULES C11 revoke: another player's revoke — he scores nothing and loses the bid amount; the pitcher
# scores what he made even if short
def test_revoke_by_another_player(make_book: Any) -> None:
    book = make_book("auction-pitch", THREE)
    e = book.enter("revoke", {"revoker": "b", "pitcher": "a", "bid": 3, "high": "a", "low": "a", "jack": "b",
                              "game": "c"})
    assert e.scored.points() == {"a": 2, "b": -3, "c": 1}
    assert book.current.scorer.setbacks["b"] == 1


# RULES C11 revoke: a revoking pitcher scores nothing and is set back his bid; everyone else scores normally
def test_revoke_by_the_pitcher(make_book: Any) -> None:
    book = make_book("auction-pitch", THREE, rules={"scoring": "countdown"})
    e = book.enter("revoke", {"revoker": "a", "pitcher": "a", "bid": 2, "high": "a", "low": "a", "jack": "b",
                              "game": "c"})
    assert e.scored.points() == {"a": 2, "b": -1, "c": -1}  # countdown: set back adds, points subtract
    assert book.current.scorer.totals == {"a": 9, "b": 6, "c": 6}
