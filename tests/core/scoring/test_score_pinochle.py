"""Two-hand pinochle (RULES C1, 0.1 item 8): melds, re-use rules, dix, trick rounding, game to 1,000."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.cards import Suit, parse_cards
from dealer.core.packs import pinochle as pinochle_pack
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.pinochle import classify_meld, find_melds, round_trick_points, trick_points


# RULES C1: card points A 11, 10 10, K 4, Q 3, J 2, 9s (8s, 7s) nothing; 240 in the cards
@pytest.mark.parametrize("size", [48, 64])
def test_card_points_in_the_pack(size: int) -> None:
    assert trick_points(list(pinochle_pack(size))) == 240


# RULES C1 / 0.1 item 8: 7 or more rounds up (87 -> 90); 126/124 and 125/125 all count 120
@pytest.mark.parametrize(("raw", "counted"), [(87, 90), (126, 120), (124, 120), (125, 120), (83, 80),
                                               (250, 250), (0, 0), (7, 10)])
def test_trick_rounding(raw: int, counted: int) -> None:
    assert round_trick_points(raw) == counted


# RULES C1 meld table
@pytest.mark.parametrize(("cards", "name", "value", "cls"), [
    ("AH 10H KH QH JH", "flush", 150, "A"),
    ("KH QH", "royal marriage", 40, "A"),
    ("KS QS", "marriage", 20, "A"),
    ("9H", "dix", 10, "A"),
    ("AS AH AD AC", "100 aces", 100, "B"),
    ("KS KH KD KC", "80 kings", 80, "B"),
    ("QS QH QD QC", "60 queens", 60, "B"),
    ("JS JH JD JC", "40 jacks", 40, "B"),
    ("QS JD", "pinochle", 40, "C"),
    ("QS QS JD JD", "double pinochle", 300, "C"),
])
def test_meld_values(cards: str, name: str, value: int, cls: str) -> None:
    meld = classify_meld(parse_cards(cards), Suit.HEARTS)
    assert (meld.name, meld.value, meld.cls) == (name, value, cls)


def test_not_a_meld_names_the_melds() -> None:
    with pytest.raises(ScoreError, match="not a pinochle meld"):
        classify_meld(parse_cards("KS QS JD"), Suit.HEARTS)  # RULES C1: one meld per turn
    with pytest.raises(ScoreError, match="not a pinochle meld"):
        classify_meld(parse_cards("AS AS AD AC"), Suit.HEARTS)  # 100 aces needs one of each suit
    assert classify_meld(parse_cards("7H"), Suit.HEARTS, pack=64).name == "dix"  # 64-card pack: the 7


# RULES C1 note: double pinochle 300 per the seed; 80 as a house rule
def test_double_pinochle_house_rule(make_book: Any) -> None:
    book = make_book("pinochle", rules={"double_pinochle": 80})
    book.enter("deal", {"dealer": "bob", "trump": "AH"})
    assert book.enter("meld", {"player": "ann", "cards": "QS QS JD JD"}).scored.points() == {"ann": 80}


def test_find_melds_counts_a_hand() -> None:
    melds = find_melds(parse_cards("AS AH AD AC KS KH KD KC QS QH JD 9D"), Suit.HEARTS)
    names = sorted(m.name for m in melds)
    # kings serve in 80 kings and in marriages (different classes); QS also in the pinochle
    assert names == sorted(["100 aces", "80 kings", "royal marriage", "marriage", "pinochle"])
    assert sum(m.value for m in melds) == 100 + 80 + 40 + 20 + 40
    extra = find_melds(parse_cards("AH 10H KH QH JH KH QH QS QS JD JD"), Suit.HEARTS)
    assert sum(m.value for m in extra) == 150 + 40 + 300  # a flush plus a second royal marriage


def dealt(make_book: Any, trump: str = "AH", **rules: Any) -> Any:
    book = make_book("pinochle", rules=rules)
    book.enter("deal", {"dealer": "bob", "trump": trump})
    return book


# RULES C1: re-use — the seed example: Q♠+J♦ (pinochle, 40), then the K♠ for a marriage later
def test_seed_reuse_example(make_book: Any) -> None:
    book = dealt(make_book)
    assert book.enter("meld", {"player": "ann", "cards": "QS JD"}).scored.points() == {"ann": 40}
    assert book.enter("meld", {"player": "ann", "cards": "KS QS"}).scored.points() == {"ann": 20}
    assert book.current.scorer.totals["ann"] == 60


# RULES C1: a melded card again in the same class only in a higher meld; one new card per meld
def test_reuse_rules(make_book: Any) -> None:
    book = dealt(make_book)
    book.enter("meld", {"player": "ann", "cards": "KH QH"})  # royal marriage 40
    book.enter("meld", {"player": "ann", "cards": "AH 10H KH QH JH"})  # flush 150 (higher, class A)
    with pytest.raises(ScoreError, match="higher"):
        book.enter("meld", {"player": "ann", "cards": "KH QH", "from_hand": "KH"})
    book.enter("meld", {"player": "ann", "cards": "KH QH"})  # the second K♥ Q♥ from the hand: fine
    with pytest.raises(ScoreError, match="two of each card"):
        book.enter("meld", {"player": "ann", "cards": "KH QH"})  # a third pair cannot exist
    book.enter("meld", {"player": "ann", "cards": "KS KH KD KC"})  # K♥ again in class B: fine
    assert book.current.scorer.totals["ann"] == 40 + 150 + 40 + 80
    book.enter("meld", {"player": "ann", "cards": "QS JD"})  # pinochle (C)
    with pytest.raises(ScoreError, match="at least one new card"):
        book.enter("meld", {"player": "ann", "cards": "KS QS"})  # K♠ (B) and Q♠ (C) both already melded
    book.enter("played", {"player": "ann", "cards": "QH QH"})
    with pytest.raises(ScoreError, match="not among"):
        book.enter("played", {"player": "ann", "cards": "QH"})


# RULES C1: a dix turned as trump scores 10 for the dealer at once; a dix is shown for 10 (two in all)
def test_dix(make_book: Any) -> None:
    book = make_book("pinochle")
    assert book.enter("deal", {"dealer": "bob", "trump": "9S"}).scored.points() == {"bob": 10}
    book.enter("dix", {"player": "ann"})
    with pytest.raises(ScoreError, match="both dixes"):
        book.enter("dix", {"player": "bob"})
    with pytest.raises(ScoreError, match="not in the 48-card"):
        book.enter("deal", {"dealer": "bob", "trump": "7S"})


# RULES C1: the seed's examples — 126/124 and 125/125 both count 120 each
@pytest.mark.parametrize(("ann", "bob", "last", "expected"), [
    (116, 124, "ann", {"ann": 120, "bob": 120}),  # 126 / 124
    (115, 125, "ann", {"ann": 120, "bob": 120}),  # 125 / 125
    (77, 163, "bob", {"ann": 80, "bob": 170}),
])
def test_trick_entry_rounds(make_book: Any, ann: int, bob: int, last: str, expected: dict[str, int]) -> None:
    book = dealt(make_book)
    entry = book.enter("tricks", {"points": {"ann": ann, "bob": bob}, "last": last})
    assert entry.scored.points() == expected


def test_tricks_from_cards_and_total_checked(make_book: Any) -> None:
    book = dealt(make_book)
    pack = list(pinochle_pack(48))
    won = {"ann": [c.code for c in pack[:24]], "bob": [c.code for c in pack[24:]]}
    e = book.enter("tricks", {"cards": won, "last": "bob"})
    assert sum(e.scored.points().values()) in range(240, 251)
    book.enter("deal", {"dealer": "ann", "trump": "AS"})
    with pytest.raises(ScoreError, match="add up to 240"):
        book.enter("tricks", {"points": {"ann": 100, "bob": 100}, "last": "bob"})


# RULES C1: to 1,000; when both reach it at the end of a hand the game goes on to 1,250 (even 1,130 v 1,000)
def test_target_rises_when_both_pass(make_book: Any) -> None:
    book = dealt(make_book)
    book.enter("meld", {"player": "ann", "cards": "QS QS JD JD"})  # 300
    book.enter("meld", {"player": "bob", "cards": "QS QS JD JD"})  # 300
    book.correct(2, {"player": "ann", "cards": "QS QS JD JD"})
    scorer = book.current.scorer
    scorer.totals.update({"ann": 900, "bob": 880})  # mid-match, as if after earlier deals
    book.enter("tricks", {"points": {"ann": 110, "bob": 130}, "last": "ann"})  # ann 1,020, bob 1,010
    assert book.current.result is None and book.current.scorer.target == 1250
    book.enter("deal", {"dealer": "ann", "trump": "AS"})
    book.enter("tricks", {"points": {"ann": 230, "bob": 10}, "last": "ann"})
    assert book.current.result.winners == ("ann",)


def test_one_player_reaching_the_target_wins(make_book: Any) -> None:
    book = dealt(make_book)
    book.current.scorer.totals.update({"ann": 950, "bob": 990})
    book.enter("tricks", {"points": {"ann": 40, "bob": 200}, "last": "bob"})
    assert book.current.result.winners == ("bob",) and book.current.scorer.target == 1000


# RULES C1: declaring out — he wins if his counted tricks take him to the target, even if the other has more
def test_declaring_out(make_book: Any) -> None:
    book = dealt(make_book)
    book.current.scorer.totals.update({"ann": 960, "bob": 1100})
    book.enter("declare-out", {"player": "ann", "points": 37})  # 37 counts 40: 1,000
    assert book.current.result.winners == ("ann",) and book.current.result.label == "declared out"
    book2 = dealt(make_book)
    book2.current.scorer.totals.update({"ann": 960})
    book2.enter("declare-out", {"player": "ann", "points": 33})  # 30: 990, short
    assert book2.current.result.winners == ("bob",)


def test_one_deal_game(make_book: Any) -> None:
    book = dealt(make_book, target=0)
    book.enter("meld", {"player": "bob", "cards": "KS QS"})
    book.enter("tricks", {"points": {"ann": 120, "bob": 120}, "last": "ann"})
    assert book.current.scorer.totals == {"ann": 130, "bob": 140}  # the marriage decides it
    assert book.current.result.winners == ("bob",)


# RULES C1 melding, entered turn by turn: only the trick winner melds, one meld per turn, before drawing;
# a dix may be shown in the same turn as a meld
def test_one_meld_per_turn_by_the_trick_winner(make_book: Any) -> None:
    book = dealt(make_book)
    book.enter("trick", {"winner": "ann"})
    with pytest.raises(ScoreError, match="only the winner of a trick"):
        book.enter("meld", {"player": "bob", "cards": "KS QS"})
    book.enter("meld", {"player": "ann", "cards": "QS JD"})
    book.enter("dix", {"player": "ann"})  # with a meld in the same turn: allowed
    with pytest.raises(ScoreError, match="only one meld per turn"):
        book.enter("meld", {"player": "ann", "cards": "KS QS"})
    book.enter("draw", {})
    book.enter("trick", {"winner": "ann"})
    book.enter("draw", {})
    with pytest.raises(ScoreError, match="before drawing"):
        book.enter("meld", {"player": "ann", "cards": "KS QS"})
    book.enter("trick", {"winner": "ann"})
    book.enter("meld", {"player": "ann", "cards": "KS QS"})  # the seed's example, a later turn
    assert book.current.scorer.totals == {"ann": 40 + 10 + 20, "bob": 0}
    # undo re-scores (and re-checks) every later turn from the first entry
    book.undo(4, reason="the dix was shown on another turn")
    assert book.current.scorer.totals["ann"] == 60
    with pytest.raises(ScoreError, match="would no longer be valid"):
        book.undo(2, reason="no such trick")  # the draw after it would have no open turn: refused
    assert book.current.scorer.totals["ann"] == 60


# RULES C1 endgame: the winner of the 12th trick may meld; the playoff that follows has no melds
def test_no_melds_in_the_playoff(make_book: Any) -> None:
    book = dealt(make_book)
    for _ in range(12):
        book.enter("trick", {"winner": "bob"})
    book.enter("meld", {"player": "bob", "cards": "AS AH AD AC"})  # after the 12th trick: still allowed
    book.enter("trick", {"winner": "bob"})
    with pytest.raises(ScoreError, match="playoff"):
        book.enter("meld", {"player": "bob", "cards": "KS KH KD KC"})
    # the 64-card pack's stock lasts 20 tricks
    big = dealt(make_book, trump="AH", pack=64)
    for _ in range(20):
        big.enter("trick", {"winner": "ann"})
    big.enter("dix", {"player": "ann"})
    big.enter("trick", {"winner": "ann"})
    with pytest.raises(ScoreError, match="playoff"):
        big.enter("dix", {"player": "ann"})


# without trick entries the scorebook cannot see turns and accepts melds as entered (as before)
def test_turn_checks_only_when_tricks_are_entered(make_book: Any) -> None:
    book = dealt(make_book)
    book.enter("meld", {"player": "ann", "cards": "QS JD"})
    book.enter("meld", {"player": "ann", "cards": "KS QS"})
    book.enter("meld", {"player": "bob", "cards": "KH QH"})
    assert book.current.scorer.totals == {"ann": 60, "bob": 40}
