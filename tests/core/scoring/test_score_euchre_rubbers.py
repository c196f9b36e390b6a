"""Euchre (RULES C5): rubbers over a session, and "at the bridge" in the 5-point game."""

from __future__ import annotations

from typing import Any

from dealer.core.scoring.book import Scorebook

FOUR = ("ann", "bob", "cy", "di")
TEAMS = {"we": ["ann", "cy"], "they": ["bob", "di"]}


def play_game(book: Scorebook, winner: str, loser_points: int) -> None:
    """A 5-point game: the loser scores ``loser_points`` first, then the winner two marches and a point."""
    book.start_game("euchre", {}, TEAMS)
    loser = "they" if winner == "we" else "we"
    for _ in range(loser_points):
        book.enter("hand", {"makers": loser, "tricks": 3})
    for tricks in (5, 5, 3):
        book.enter("hand", {"makers": winner, "tricks": tricks})


# RULES C5 rubbers: the first side to win 2 games wins the rubber; games are worth 3 (losers 0 or less),
# 2 (1-2) or 1 (3+) rubber points; the margin is a 2-point bonus plus the winners' points minus the losers'
def test_rubber_margin() -> None:
    book = Scorebook("night", FOUR)
    play_game(book, "we", 0)  # 3 rubber points to we
    play_game(book, "they", 3)  # 1 to they
    assert book.session()["rubbers"][0]["winner"] is None  # one game each: the rubber goes on
    play_game(book, "we", 2)  # 2 to we: we win the rubber 2 games to 1
    rubber = book.session()["rubbers"][0]
    assert rubber["winner"] == "ann & cy" and rubber["games"] == [1, 2, 3]
    assert rubber["margin"] == 2 + (3 + 2) - 1
    play_game(book, "they", 0)  # a new rubber starts
    rubbers = book.session()["rubbers"]
    assert len(rubbers) == 2 and rubbers[1]["games"] == [4] and rubbers[1]["winner"] is None


# RULES C5 rubbers: the rubber is between the same partnerships; a change of partners starts another
def test_rubbers_follow_the_partnerships() -> None:
    book = Scorebook("night", FOUR)
    play_game(book, "we", 0)
    book.start_game("euchre", {}, {"we": ["ann", "bob"], "they": ["cy", "di"]})
    for _ in range(3):
        book.enter("hand", {"makers": "we", "tricks": 5})
    rubbers = book.session()["rubbers"]
    assert [r["partnerships"] for r in rubbers] == [["ann & cy", "bob & di"], ["ann & bob", "cy & di"]]


# RULES C5: in the 5-point game a side with 4 points against 2 or fewer is "at the bridge"
def test_at_the_bridge(make_book: Any) -> None:
    book = make_book("euchre", FOUR, partnerships=TEAMS)
    book.enter("hand", {"makers": "we", "tricks": 5})
    book.enter("hand", {"makers": "we", "tricks": 5})
    book.enter("hand", {"makers": "they", "tricks": 4})
    assert book.to_json()["games"][0]["at_the_bridge"] == ["we"]
    book.enter("hand", {"makers": "we", "tricks": 1})  # euchred: they 3
    assert book.to_json()["games"][0]["at_the_bridge"] == []
