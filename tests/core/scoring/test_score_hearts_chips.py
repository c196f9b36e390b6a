"""Hearts (RULES C4): pot and sweepstakes chip settlements, revokes and mixed tricks."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.scoring.base import ScoreError

FOUR = ("ann", "bob", "cy", "di")


def pts(book: Any, kind: str = "hand", **entry: Any) -> dict[str, int]:
    return book.enter(kind, entry).scored.points()


def conserved(book: Any) -> bool:
    scorer = book.current.scorer
    return sum(scorer.totals.values()) + scorer.pot == 0


# RULES C4 chip settlement 1: 1 chip per heart and 13 for the Q♠; the lowest score takes the whole pot
def test_pot_lowest_takes_it(make_book: Any) -> None:
    book = make_book("hearts", FOUR, rules={"settlement": "pot"})
    e = pts(book, hearts={"ann": 5, "bob": 3, "cy": 5, "di": 0}, queen="bob")
    assert e == {"ann": -5, "bob": -16, "cy": -5, "di": 26}
    assert book.current.scorer.pot == 0 and conserved(book)
    assert book.to_json()["games"][0]["units"] == "chips"


# RULES C4 chip settlement 1: tied lowest players split the pot, odd chips carry over
def test_pot_tie_split_odd_chips_carry(make_book: Any) -> None:
    book = make_book("hearts", FOUR, rules={"settlement": "pot"})
    e = book.enter("hand", {"hearts": {"ann": 3, "bob": 3, "cy": 3, "di": 4}, "queen": "di"})
    assert e.scored.points() == {"ann": 5, "bob": 5, "cy": 5, "di": -17}  # 26 three ways: 8 each, 2 carry
    assert book.current.scorer.pot == 2 and "carry" in e.scored.notes[-1]
    e = book.enter("hand", {"hearts": {"ann": 13, "bob": 0, "cy": 0, "di": 0}, "queen": "bob"})
    assert e.scored.points()["cy"] == 14  # the carried 2 with this deal's 13+13, cy and di split 28
    assert conserved(book)
    assert book.current.result is None  # chip settlement: no target, the host ends the game


# RULES C4 chip settlement 2, sweepstakes: a single zero scorer takes the pot; several split it; if nobody
# scores zero the pot carries over
def test_sweepstakes(make_book: Any) -> None:
    book = make_book("hearts", FOUR, rules={"settlement": "sweepstakes"})
    e = book.enter("hand", {"hearts": {"ann": 4, "bob": 3, "cy": 3, "di": 3}, "queen": "ann"})
    assert e.scored.points() == {"ann": -17, "bob": -3, "cy": -3, "di": -3}
    assert book.current.scorer.pot == 26 and "carries" in e.scored.notes[-1]
    e = book.enter("hand", {"hearts": {"ann": 0, "bob": 6, "cy": 7, "di": 0}, "queen": "bob"})
    assert e.scored.points() == {"ann": 26, "bob": -19, "cy": -7, "di": 26}  # 52 split two ways
    assert book.current.scorer.pot == 0 and conserved(book)


# RULES C4: shooting the moon under a chip settlement — 0 for the shooter, 26 from each opponent
def test_moon_in_the_pot(make_book: Any) -> None:
    book = make_book("hearts", FOUR, rules={"settlement": "pot"})
    e = pts(book, hearts={"ann": 13, "bob": 0, "cy": 0, "di": 0}, queen="ann")
    assert e == {"ann": 78, "bob": -26, "cy": -26, "di": -26}


# RULES C4 revoke: play stops and each revoker is charged 26; mixed quitted tricks are charged all 26
def test_revokes(make_book: Any) -> None:
    book = make_book("hearts", FOUR)
    assert pts(book, "revoke", players=["ann", "bob"]) == {"ann": 26, "bob": 26}
    assert pts(book, "revoke", player="cy", reason="mixed-tricks") == {"cy": 26}
    with pytest.raises(ScoreError, match="reason"):
        pts(book, "revoke", player="cy", reason="slow play")
    # in the pot the revoker pays 26 and the others, all at 0, split it (2 odd chips carry)
    pot = make_book("hearts", FOUR, rules={"settlement": "pot"})
    assert pts(pot, "revoke", player="bob") == {"bob": -26, "ann": 8, "cy": 8, "di": 8}
    assert conserved(pot) and pot.current.scorer.pot == 2


# RULES C4: omnibus hearts keeps a plus/minus sheet, so a revoke costs the revoker 26 there
def test_omnibus_revoke(make_book: Any) -> None:
    book = make_book("omnibus-hearts", FOUR)
    assert pts(book, "revoke", player="di") == {"di": -26}


# RULES C4: cancellation (two packs, 52 points) and domino hearts take the same chip settlements
def test_family_members_settle_in_chips(make_book: Any) -> None:
    seven = tuple(f"p{i}" for i in range(7))
    book = make_book("cancellation-hearts", seven, rules={"settlement": "sweepstakes"})
    e = pts(book, hearts={"p0": 10, "p1": 8, "p2": 8, "p3": 0, "p4": 0, "p5": 0, "p6": 0},
            queens={"p1": 1, "p2": 1})
    assert e == {"p0": -10, "p1": -21, "p2": -21, "p3": 13, "p4": 13, "p5": 13, "p6": 13}
    domino = make_book("domino-hearts", ("ann", "bob", "cy"), rules={"settlement": "pot"})
    assert pts(domino, hearts={"ann": 6, "bob": 7, "cy": 0}) == {"ann": -6, "bob": -7, "cy": 13}


# RULES C4 chip settlements are settled deal by deal: winning over 100 chips does not end the game
def test_chip_settlement_has_no_target(make_book: Any) -> None:
    book = make_book("hearts", FOUR, rules={"settlement": "pot"})
    for _ in range(2):
        pts(book, hearts={"ann": 13, "bob": 0, "cy": 0, "di": 0}, queen="ann")
    assert book.current.scorer.totals["ann"] == 156 and book.current.result is None
    assert book.end_game("evening over").winners == ("ann",)  # the most chips wins
