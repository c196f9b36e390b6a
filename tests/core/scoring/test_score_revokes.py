"""Revoke penalties where RULES Part C states one: Napoleon (C9, and Pool Nap), Cinch (C12), Seven-Up (C13).
Hearts (C4) and Auction Pitch (C11) revokes are tested with their games. Each is an audited entry."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.scoring.base import ScoreError

FOUR = ("ann", "bob", "cy", "di")
TEAMS = {"we": ["ann", "cy"], "they": ["bob", "di"]}


def pts(book: Any, kind: str = "hand", **entry: Any) -> dict[str, int]:
    return book.enter(kind, entry).scored.points()


# RULES C9 revoke: a revoking bidder pays everyone as if he had lost
def test_napoleon_bidder_revokes(make_book: Any) -> None:
    book = make_book("napoleon", FOUR)
    assert pts(book, "revoke", bidder="ann", bid="nap", revoker="ann") == {"ann": -15, "bob": 5, "cy": 5,
                                                                             "di": 5}


# RULES C9 revoke: a revoking opponent pays the bidder the full amount all players would have paid;
# the others pay nothing
def test_napoleon_opponent_revokes(make_book: Any) -> None:
    book = make_book("napoleon", FOUR)
    assert pts(book, "revoke", bidder="ann", bid=3, revoker="bob") == {"ann": 9, "bob": -9}
    assert pts(book, "revoke", bidder="cy", bid="wellington", revoker="di") == {"cy": 30, "di": -30}
    # the revoke is an audited entry: undo it and the sheet goes back
    book.undo(2, reason="claimed after settlement")
    assert book.current.scorer.totals == {"ann": 9, "bob": -9, "cy": 0, "di": 0}
    assert book.audit[-1].action == "undo"


# RULES C9 Pool Nap: a revoke adds 5 chips to the pool (on top of the settlement)
def test_pool_nap_revoke(make_book: Any) -> None:
    book = make_book("napoleon", ("a", "b", "c"), rules={"pool": True})
    e = pts(book, "revoke", bidder="a", bid=2, revoker="b", dealer="a")
    assert e == {"a": -1 - 1 + 4, "b": -1 - 5 - 4, "c": -1}
    assert book.current.scorer.pool == 3 + 1 + 5
    assert sum(book.current.scorer.totals.values()) + book.current.scorer.pool == 0


# RULES C9 out-of-turn play: an opponent pays the bidder 3 chips, and collects nothing if the bidder loses;
# no penalty on the bidder; Pool Nap: a lead out of turn adds 3 to the pool
def test_napoleon_out_of_turn(make_book: Any) -> None:
    book = make_book("napoleon", FOUR)
    assert pts(book, bidder="ann", bid=3, tricks=3, out_of_turn="bob") == {"ann": 12, "bob": -6, "cy": -3,
                                                                            "di": -3}
    assert pts(book, bidder="ann", bid=3, tricks=1, out_of_turn="bob") == {"ann": 3 - 6, "bob": -3, "cy": 3,
                                                                            "di": 3}
    assert pts(book, bidder="ann", bid=2, tricks=2, out_of_turn="ann") == {"ann": 6, "bob": -2, "cy": -2,
                                                                            "di": -2}
    pool = make_book("napoleon", ("a", "b", "c"), rules={"pool": True})
    pts(pool, bidder="a", bid=2, tricks=2, dealer="a", out_of_turn="c")
    assert pool.current.scorer.pool == 3 + 1 + 3


# RULES C9 wrong number of cards: bidder right, an opponent wrong — the bidder pays nothing if he loses but
# is paid if he wins; the bidder wrong — he is not paid if he wins but pays if he loses
def test_napoleon_wrong_hand(make_book: Any) -> None:
    book = make_book("napoleon", FOUR)
    assert pts(book, bidder="ann", bid=4, tricks=2, wrong_hand="cy") == {}
    assert pts(book, bidder="ann", bid=4, tricks=4, wrong_hand="cy") == {"ann": 12, "bob": -4, "cy": -4,
                                                                         "di": -4}
    assert pts(book, bidder="ann", bid=4, tricks=4, wrong_hand="ann") == {}
    assert pts(book, bidder="ann", bid=4, tricks=3, wrong_hand="ann") == {"ann": -12, "bob": 4, "cy": 4,
                                                                          "di": 4}


# RULES C12 revoke: the offending side scores nothing that hand
def test_cinch_bidders_revoke(make_book: Any) -> None:
    book = make_book("cinch", FOUR, partnerships=TEAMS)
    assert pts(book, bidder="ann", bid=6, points={"we": 10, "they": 4}) == {"we": 6}  # without a revoke
    assert pts(book, "revoke", revoker="cy", bidder="ann", bid=6, points={"we": 10, "they": 4}) == {}
    # a failed bid still gives the opponents 14 plus the shortfall
    assert pts(book, "revoke", revoker="we", bidder="ann", bid=8, points={"we": 7, "they": 7}) \
        == {"they": 15}


# RULES C12 revoke: if the offender is an opponent of the bidder, the bidder cannot be set
def test_cinch_opponents_revoke(make_book: Any) -> None:
    book = make_book("cinch", FOUR, partnerships=TEAMS)
    assert pts(book, bidder="ann", bid=10, points={"we": 9, "they": 5}) == {"they": 15}  # set, normally
    assert pts(book, "revoke", revoker="bob", bidder="ann", bid=10, points={"we": 9, "they": 5}) == {"we": 4}
    # the opponents' own difference is lost to them (bid 6 made: they would score 2)
    assert pts(book, "revoke", revoker="di", bidder="ann", bid=6, points={"we": 6, "they": 8}) == {}


# RULES C13 revoke: the offender cannot score Jack or Game; each opponent scores 1 (2 if the jack was in play)
def test_seven_up_revoke(make_book: Any) -> None:
    book = make_book("seven-up", ("a", "b"))
    e = pts(book, "revoke", revoker="b", dealer="a", high="a", low="b", jack="b", game="b")
    assert e == {"a": 1 + 2, "b": 1}
    e = pts(book, "revoke", revoker="b", dealer="a", high="a", low="b", game="a")  # no jack in play
    assert e == {"a": 1 + 1 + 1, "b": 1}
    three = make_book("seven-up", ("a", "b", "c"))
    assert pts(three, "revoke", revoker="c", dealer="a", high="c", low="c", jack="a", game="c") \
        == {"c": 2, "a": 1 + 2, "b": 2}


# RULES C9 Peep Nap: for 1 chip paid into the pool, any player may look at the widow before bidding
def test_peep_nap(make_book: Any) -> None:
    book = make_book("napoleon", ("a", "b", "c"), rules={"pool": True})
    e = pts(book, bidder="a", bid=2, tricks=2, dealer="a", peeked=["b", "c"])
    assert e == {"a": -1 - 1 + 4, "b": -1 - 1 - 2, "c": -1 - 1 - 2}
    assert book.current.scorer.pool == 3 + 1 + 2
    plain = make_book("napoleon", FOUR)
    with pytest.raises(ScoreError, match="Peep Nap"):
        pts(plain, bidder="ann", bid=2, tricks=2, peeked=["bob"])


# RULES C13 with chips: everyone starts with 7 chips and puts one in the pot per point scored
def test_seven_up_chips_left(make_book: Any) -> None:
    book = make_book("seven-up", ("a", "b"))
    pts(book, dealer="a", turned_jacks=1, high="a", low="b", jack="a", game="b")
    assert book.to_json()["games"][0]["chips_left"] == {"a": 4, "b": 5}
