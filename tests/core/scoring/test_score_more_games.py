"""Loo, Preference, Napoleon, Spoil Five / Forty-Five, the All Fours family, Trex, Solo Whist, Durak,
President and Tripoli (RULES C7-C18, B8)."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.cards import parse_cards
from dealer.core.scoring.base import ScoreError

FOUR = ("ann", "bob", "cy", "di")


def pts(book: Any, kind: str = "hand", **entry: Any) -> dict[str, int]:
    return book.enter(kind, entry).scored.points()


def conserved(book: Any, held: int = 0) -> bool:
    return sum(book.current.scorer.totals.values()) + held == 0


# RULES C7: each trick takes a third of the pot; a player in who takes none is looed (pays 3)
def test_loo(make_book: Any) -> None:
    book = make_book("loo", FOUR)
    assert pts(book, dealer="ann", tricks={"bob": 2, "cy": 1}) == {"ann": -6, "bob": 2, "cy": 1, "di": -3}
    assert book.current.scorer.pot == 6  # ann and di looed: a double pot
    # double pot: only cy and di stand; dealer bob antes 3 (pot 9); cy takes 3 tricks, di looed
    assert pts(book, dealer="bob", tricks={"cy": 3}, **{"in": ["cy", "di"]}) == {"bob": -3, "cy": 9, "di": -3}
    # RULES C7: a flush takes the whole pot; every other hand still in is looed
    e = pts(book, dealer="cy", flush="ann", **{"in": ["ann", "bob"]})
    assert e == {"cy": -3, "ann": 6, "bob": -3}
    assert conserved(book, book.current.scorer.pot)


def test_preference(make_book: Any) -> None:
    book = make_book("preference", ("ann", "bob", "cy"), rules={"ante": 2, "payment": 5, "penalty": 4})
    assert pts(book, bidder="ann", tricks=7) == {"ann": 3, "bob": -2, "cy": -2}  # antes 6, ann collects 5
    assert pts(book, bidder="bob", tricks=5) == {"ann": -2, "bob": -6, "cy": -2}
    assert conserved(book, book.current.scorer.pot)


# RULES 0.1 item 6 / C9: standard payouts — 1 per trick bid; Nap 10/5; Wellington 10/10; Blücher 10/20
@pytest.mark.parametrize(("bid", "tricks", "ann"), [(3, 3, 9), (3, 2, -9), ("nap", 5, 30), ("nap", 4, -15),
                                                   ("wellington", 4, -30), ("blucher", 4, -60)])
def test_napoleon_standard_payouts(make_book: Any, bid: Any, tricks: int, ann: int) -> None:
    book = make_book("napoleon", FOUR)
    e = pts(book, bidder="ann", bid=bid, tricks=tricks)
    assert e["ann"] == ann and sum(e.values()) == 0


def test_napoleon_seed_as_printed_and_sir_garnet(make_book: Any) -> None:
    assert pts(make_book("napoleon", FOUR, rules={"payouts": "as-printed"}), bidder="ann", bid="nap",
               tricks=3)["ann"] == -45
    assert pts(make_book("napoleon", FOUR), bidder="ann", bid="nap", tricks=3, sir_garnet=True)["ann"] == -30


def test_pool_nap(make_book: Any) -> None:
    book = make_book("napoleon", ("a", "b", "c"), rules={"pool": True})
    pts(book, bidder="a", bid="nap", tricks=4, dealer="a")  # stakes 3 + dealer 1 = 4; failed nap doubles it
    assert book.current.scorer.pool == 8
    e = pts(book, bidder="b", bid="nap", tricks=5, dealer="b")  # dealer b adds 1: the pool of 9 to b
    assert e["b"] == 20 + 9 - 1 and book.current.scorer.pool == 0
    assert conserved(book)


# RULES C10: first to three tricks takes the pot; a jinx must take all five; spoiled carries
def test_spoil_five(make_book: Any) -> None:
    book = make_book("spoil-five", ("a", "b", "c"))
    assert pts(book) == {"a": -1, "b": -1, "c": -1}  # spoiled
    assert pts(book, winner="b") == {"a": -1, "b": 5, "c": -1}
    e = pts(book, winner="c", jinx=True, jinx_made=True)
    assert e == {"a": -2, "b": -2, "c": 4}  # ante 1, pot 3, one chip from each opponent
    pts(book, winner="a", jinx=True)  # jinx failed: carries
    assert book.current.scorer.pot == 3 and conserved(book, 3)


# RULES C10 Forty-Five: 5 for 3-4 tricks, 10 for five; per-trick: 3 → 5, 4 → 15, 5 → 25; game 45
def test_forty_five(make_book: Any) -> None:
    assert pts(make_book("forty-five"), tricks={"ann": 5, "bob": 0}) == {"ann": 10}
    per = make_book("forty-five", rules={"scoring": "per-trick"})
    assert [pts(per, tricks={"ann": n, "bob": 5 - n})["ann"] for n in (3, 4, 5)] == [5, 15, 25]
    assert per.current.scorer.totals["ann"] == 45 and per.current.result.winners == ("ann",)


# RULES C10 Auction 45s: 5 a trick + 5 for the highest trump; 30 made scores 60; set loses the bid
def test_auction_forty_fives(make_book: Any) -> None:
    teams = {"we": ["ann", "cy"], "they": ["bob", "di"]}
    book = make_book("auction-forty-fives", FOUR, partnerships=teams)
    made = pts(book, bidder="ann", bid=20, tricks={"we": 3, "they": 2}, best="we")
    assert made == {"we": 20, "they": 10}
    setback = pts(book, bidder="bob", bid=25, tricks={"we": 2, "they": 3}, best="they")
    assert setback == {"they": -25, "we": 10}
    assert pts(book, bidder="we", bid=30, tricks={"we": 5, "they": 0}, best="we") == {"we": 60}
    book.current.scorer.totals["we"] = 100
    with pytest.raises(ScoreError, match="below 20"):
        pts(book, bidder="we", bid=15, tricks={"we": 5, "they": 0}, best="we")


# RULES C11: the pitcher scores only if he makes his bid, else set back; his points count first
def test_auction_pitch(make_book: Any) -> None:
    book = make_book("auction-pitch", ("a", "b", "c"))
    assert pts(book, pitcher="a", bid=2, high="a", low="b", jack="a", game="c") == {"a": 2, "b": 1, "c": 1}
    assert pts(book, pitcher="b", bid=3, high="b", low="b", jack="a", game="c") == {"b": -3, "a": 1, "c": 1}
    book.current.scorer.totals.update({"a": 6, "c": 6})
    e = book.enter("hand", {"pitcher": "c", "bid": 2, "high": "a", "low": "c", "game": "c"})
    assert book.current.result.winners == ("c",)  # pitcher's points first: c reaches 7 before a's High
    assert any("not scored" in n for n in e.scored.notes)


def test_pitch_game_from_cards_and_smudge(make_book: Any) -> None:
    book = make_book("auction-pitch", ("a", "b"))
    e = pts(book, pitcher="a", bid=2, high="a", low="a", game_cards={"a": "10H 2C", "b": "AS KD QC"})
    assert e == {"a": 3}  # game: a 10 v b 9
    book.enter("hand", {"pitcher": "b", "bid": 4, "high": "b", "low": "b", "jack": "b", "game": "b"})
    assert book.current.result.label == "smudge"


# RULES C12 Cinch: made → the side with more scores the difference; failed → 14 + shortfall (8 bid, 7 → 15)
def test_cinch(make_book: Any) -> None:
    teams = {"we": ["ann", "cy"], "they": ["bob", "di"]}
    book = make_book("cinch", FOUR, partnerships=teams)
    assert pts(book, bidder="we", bid=6, points={"we": 6, "they": 8}) == {"they": 2}  # seed example
    assert pts(book, bidder="we", bid=8, points={"we": 7, "they": 7}) == {"they": 15}  # seed example
    assert pts(book, bidder="they", bid=7, high="they", low="we", jack="they", game="they",
               right_pedro="they", left_pedro="we") == {"they": 2}


# RULES C13 Seven-Up: turned jack and gift, then High, Low, Jack, Game; 2-hand Game tie to the non-dealer
def test_seven_up(make_book: Any) -> None:
    book = make_book("seven-up")
    e = pts(book, dealer="ann", turned_jacks=1, gift="bob", high="ann", low="bob", jack="bob",
            game_cards={"ann": "10H", "bob": "10S"})
    assert e == {"ann": 2, "bob": 4}


def test_california_jack(make_book: Any) -> None:
    book = make_book("california-jack")
    for _ in range(2):
        pts(book, high="ann", low="ann", jack="ann", game="ann")
    book.enter("hand", {"high": "ann", "low": "ann", "jack": "bob", "game": "bob"})
    assert book.current.result.winners == ("ann",) and book.current.scorer.totals["ann"] == 10


# RULES C15 / 0.1 item 5: standard Diamonds −10 makes a kingdom zero-sum; +10 as the seed prints it
def test_trex_kingdom_is_zero_sum(make_book: Any) -> None:
    book = make_book("trex", FOUR)
    pts(book, owner="ann", contract="diamonds", taken={"ann": 4, "bob": 4, "cy": 4, "di": 1})
    pts(book, owner="ann", contract="eltoosh", tricks={"ann": 4, "bob": 4, "cy": 4, "di": 1})
    e = pts(book, owner="ann", contract="girls", queens={"QS": "bob", "QH": "bob", "QD": "cy", "QC": "cy"},
            doubled={"QH": "ann"})
    assert e == {"bob": -75, "ann": 25, "cy": -50}
    with pytest.raises(ScoreError, match="already chosen"):
        pts(book, owner="ann", contract="girls", queens={"QS": "bob", "QH": "bob", "QD": "cy", "QC": "cy"})
    # the holder took his own doubled K♥: −150 to him and +75 to the leader of that trick
    assert pts(book, owner="ann", contract="king", taker="di", doubled_by="di", leader="cy") == {"di": -150,
                                                                                                  "cy": 75}
    pts(book, owner="ann", contract="trex", order=["di", "cy", "bob", "ann"])
    assert sum(book.current.scorer.totals.values()) == 0  # doubling moves points but keeps the sum
    with pytest.raises(ScoreError, match="passes to the right"):
        pts(book, owner="bob", contract="trex", order=["di", "cy", "bob", "ann"])
    pts(book, owner="di", contract="trex", order=["di", "cy", "bob", "ann"])  # di is to ann's right
    seed = make_book("trex", FOUR, rules={"diamonds": 10})
    assert pts(seed, owner="ann", contract="diamonds", taken={"ann": 13, "bob": 0, "cy": 0, "di": 0}) == {
        "ann": 130}


# RULES C16 Solo Whist: each defender pays each declarer the value; failed: the declarer pays each defender
def test_solo_whist(make_book: Any) -> None:
    book = make_book("solo-whist", FOUR)
    assert pts(book, bid="abundance", declarer="ann", tricks=9) == {"ann": 9, "bob": -3, "cy": -3, "di": -3}
    assert pts(book, bid="misere", declarer="bob", tricks=1) == {"bob": -6, "ann": 2, "cy": 2, "di": 2}
    assert pts(book, bid="prop", declarer="ann", partner="cy", tricks=8) == {"ann": 2, "cy": 2, "bob": -2,
                                                                            "di": -2}
    assert pts(book, bid="slam", declarer="di", tricks=13) == {"di": 18, "ann": -6, "bob": -6, "cy": -6}
    assert conserved(book)


def test_durak_and_president(make_book: Any) -> None:
    durak = make_book("durak", ("a", "b", "c"))
    pts(durak, durak="a")
    assert durak.enter("hand", {"draw": True}).scored.notes == ("draw: a keeps the title",)
    pts(durak, durak="b")
    pts(durak, durak="a")
    assert durak.end_game().winners == ("c",)  # fewest times the fool
    pres = make_book("president", FOUR)
    assert pts(pres, order=["cy", "ann", "di", "bob"]) == {"cy": 3, "ann": 2, "di": 1}
    state = pres.current.scorer.state_json()
    assert state["titles"]["bob"] == "Asshole" and state["next_hand"]["gives_highest_card_to"] == "cy"


# RULES B8: stakes on nine spaces; pay cards from the hands; poker pot; Michigan kitty + 1 chip a card
def test_tripoli(make_book: Any) -> None:
    book = make_book("tripoli", ("a", "b", "c"))
    assert pts(book, "deal") == {"a": -9, "b": -9, "c": -9}
    e = pts(book, "pay-cards", hands={"a": "AH KH QH 2C 8D", "b": "8S 9S 10S JH", "c": "10H 3D"})
    assert e == {"a": 3 + 3 + 3 + 3, "b": 3 + 3, "c": 3}
    pts(book, "bet", player="a", amount=5)
    pts(book, "bet", player="b", amount=5)
    assert pts(book, "poker", winners=["a", "b"]) == {"a": 6, "b": 6}  # pot 3 + 10 split, 1 stays
    assert pts(book, "michigan", winner="c", cards_left={"a": 4, "b": 2}) == {"c": 3 + 6, "a": -4, "b": -2}
    layout = book.current.scorer.layout
    assert layout["pot"] == 1 and conserved(book, sum(layout.values()))
    claims = {"a": parse_cards("6C 7C 8C")}
    from dealer.core.scoring.tripoli import pay_card_claims
    assert pay_card_claims(claims, (6, 7, 8)) == {"run": ["a"]}
