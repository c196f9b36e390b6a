"""Cribbage scoring (RULES C3, 0.1 item 10): hand and crib counts, pegging, end of game, lurch/skunk."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card, parse_cards
from dealer.core.packs import standard_52
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.cribbage import count_hand, peg_sequence


def total(hand: str, starter: str, crib: bool = False) -> int:
    return count_hand(parse_cards(hand), Card.parse(starter), crib=crib).total


# RULES C3: maximum hand 29 — three fives and the jack of the starter's suit, a five turned
def test_the_29_hand() -> None:
    counted = count_hand(parse_cards("5H 5D 5S JC"), Card.parse("5C"))
    assert counted.total == 29
    assert counted.by_kind() == {"fifteen": 16, "pair": 12, "nobs": 1}


# RULES C3: four fives with a jack turned (28: double pair royal 12 + eight fifteens 16)
def test_four_fives_and_a_jack_starter_is_28() -> None:
    assert total("5H 5D 5S 5C", "JH") == 28


# RULES C3 worked example: 8-7-7-6-2 = four 15s (8) + pair (2) + two runs of three (6) = 16
def test_seed_worked_example_16() -> None:
    counted = count_hand(parse_cards("8C 7D 7S 6H"), Card.parse("2D"))
    assert counted.by_kind() == {"fifteen": 8, "pair": 2, "run": 6}
    assert counted.total == 16


# RULES C3 shortcuts: double run of 3 = 8, double run of 4 = 10, triple run = 15, double double run = 16
@pytest.mark.parametrize(("hand", "starter", "points"), [
    ("9H 9D 10S JC", "2D", 8),
    ("9H 9D 10S JC", "QD", 10),
    ("9H 9D 9S 10C", "JD", 15),
    ("9H 9D 10S 10C", "JD", 16),
    ("AH 2D 3S 4C", "5D", 7),  # run of 5 (5) + A+2+3+4+5 = 15 (2)
])
def test_run_shortcuts(hand: str, starter: str, points: int) -> None:
    assert total(hand, starter) == points


# RULES C3: the ace is low; Q-K-A is not a run
def test_queen_king_ace_is_not_a_run() -> None:
    assert count_hand(parse_cards("QH KD AS 7C"), Card.parse("2H")).by_kind().get("run") is None


# RULES C3: flush — 4 hand cards of a suit 4, 5 with the starter; crib only when all five match
def test_flush_hand_and_crib() -> None:
    assert count_hand(parse_cards("2H 4H 8H QH"), Card.parse("KS")).by_kind() == {"flush": 4}
    assert count_hand(parse_cards("2H 4H 8H QH"), Card.parse("KH")).by_kind() == {"flush": 5}
    assert count_hand(parse_cards("2H 4H 8H QH"), Card.parse("KS"), crib=True).total == 0
    assert count_hand(parse_cards("2H 4H 8H QH"), Card.parse("KH"), crib=True).by_kind() == {"flush": 5}


# RULES C3: his nobs — the jack of the starter's suit in hand scores 1 (the starter jack itself does not)
def test_his_nobs() -> None:
    assert count_hand(parse_cards("JS 2H 4D 8C"), Card.parse("KS")).by_kind() == {"nobs": 1}
    assert total("JH 2S 4D 8C", "KS") == 0


def test_bad_hands_are_refused_with_a_clear_message() -> None:
    with pytest.raises(ScoreError, match="4 cards"):
        count_hand(parse_cards("5H 5D 5S"), Card.parse("5C"))
    with pytest.raises(ScoreError, match="twice"):
        count_hand(parse_cards("5H 5H 5S JC"), Card.parse("5C"))
    with pytest.raises(ScoreError, match="joker"):
        count_hand(parse_cards("5H 5D 5S JK"), Card.parse("5C"))


_PACK = list(standard_52())


@settings(max_examples=300, deadline=None)
@given(st.permutations(_PACK).map(lambda p: p[:5]), st.randoms(use_true_random=False))
def test_counts_are_order_free_and_never_an_impossible_total(five: list[Card], rnd: Any) -> None:
    # RULES C3: 29 is the maximum; 19, 25, 26 and 27 cannot be made by any hand
    hand, starter = five[:4], five[4]
    score = count_hand(hand, starter).total
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert count_hand(shuffled, starter).total == score
    assert 0 <= score <= 29 and score not in (19, 25, 26, 27)
    assert count_hand(hand, starter, crib=True).total <= score


def pegs(*plays: str, final: bool = True) -> list[tuple[str, int, tuple[str, ...]]]:
    seq = [(p.split(":")[0], p.split(":")[1]) for p in plays]
    return [(p.player, p.points, p.reasons) for p in peg_sequence(seq, final=final) if p.points]


# RULES C3 seed example: played 8, 7, 7, 6 — dealer pegs 2 for 15, pone 2 for the pair, no run (extra 7)
def test_pegging_foreign_card_breaks_the_run() -> None:
    assert pegs("pone:8C", "dealer:7D", "pone:7S", "dealer:6H", final=False) == [
        ("dealer", 2, ("fifteen",)), ("pone", 2, ("pair",))]


# RULES C3 seed example: played 9, 6, 8, 7 — the 6 pegs 2 for fifteen, the 7 a run of four
def test_pegging_run_in_any_order() -> None:
    assert pegs("pone:9C", "dealer:6D", "pone:8S", "dealer:7H", final=False) == [
        ("dealer", 2, ("fifteen",)), ("dealer", 4, ("run of 4",))]


# RULES C3: pair royal 6, double pair royal 12; exactly 31 pegs 2 and no extra go point
def test_pegging_pairs_and_thirty_one() -> None:
    assert pegs("a:4C", "b:4D", "a:4S", "b:4H", final=False) == [
        ("b", 2, ("pair",)), ("a", 6, ("pair royal",)), ("b", 12, ("double pair royal",))]
    assert pegs("a:KC", "b:QD", "a:AS", "b:KH") == [("b", 2, ("thirty-one",))]


# RULES C3: Go — the last player to play before nobody can play pegs 1; the count restarts at 0
def test_pegging_go_and_last_card() -> None:
    result = pegs("a:KC", "b:QD", "a:9S", "b:KH", "a:5D")
    # 10+10+9 = 29: b's K would pass 31 -> a pegs 1 for go; K then 5 in the new series; last card b? no: a
    assert result == [("a", 1, ("go",)), ("a", 2, ("fifteen",)), ("a", 1, ("go",))]


# RULES C3: a player who can play without passing 31 must; a complete play that breaks this is refused
def test_go_rule_checked_when_every_card_is_known(make_book: Any) -> None:
    book = make_book("cribbage")
    book.enter("deal", {"dealer": "bob"})
    # at 29 bob still holds the ace (fits) but ann's 5 starts a new series: refused
    plays = ["ann:KC", "bob:QD", "ann:9S", "ann:5C", "bob:AH", "bob:3H", "ann:4D", "bob:6S"]
    with pytest.raises(ScoreError, match="had to play"):
        book.enter("pegging", {"plays": plays})
    # ann plays twice running while bob could play: refused
    plays = ["ann:KC", "ann:QD", "bob:9S", "ann:5C", "bob:AH", "bob:3H", "ann:4D", "bob:6S"]
    with pytest.raises(ScoreError, match="turn"):
        book.enter("pegging", {"plays": plays})
    legal = ["ann:KC", "bob:QD", "ann:9S", "bob:AH", "ann:5C", "bob:3H", "ann:4D", "bob:6S"]
    e = book.enter("pegging", {"plays": legal})
    # bob's ace makes 30: go to bob (1); 5-3-4 run of 3 for ann (3); 6 makes a run of 4 (4) + last card (1)
    assert e.scored.points() == {"bob": 6, "ann": 3}


def test_live_play_and_go_entries(make_book: Any) -> None:
    book = make_book("cribbage")
    book.enter("deal", {"dealer": "bob"})
    book.enter("play", {"player": "ann", "card": "KC"})
    book.enter("play", {"player": "bob", "card": "5D"})  # 15
    book.enter("play", {"player": "ann", "card": "KS"})
    book.enter("go", {"player": "bob"})
    book.enter("play", {"player": "ann", "card": "AC"})  # 26
    e = book.enter("go", {"player": "ann"})  # both go: ann pegs 1
    assert e.scored is not None and e.scored.points() == {"ann": 1}
    assert book.current.scorer.totals == {"ann": 1, "bob": 2}
    book.enter("play", {"player": "bob", "card": "5H"})  # the count restarted at 0
    book.enter("go", {"player": "ann"})
    with pytest.raises(ScoreError, match="said Go"):
        book.enter("play", {"player": "ann", "card": "QH"})
    assert book.current.scorer.totals == {"ann": 1, "bob": 2}


# RULES C3: a jack turned as starter pegs 2 for the dealer (his heels)
def test_his_heels(make_book: Any) -> None:
    book = make_book("cribbage")
    book.enter("deal", {"dealer": "bob"})
    e = book.enter("starter", {"card": "JD"})
    assert e.scored.points() == {"bob": 2}


# RULES C3 / 0.1 item 10: non-dealer counts first and wins the moment he reaches 121
def test_game_ends_the_moment_121_is_reached(make_book: Any) -> None:
    book = make_book("cribbage")
    book.enter("peg", {"player": "ann", "points": 29, "reason": "board"})
    for _ in range(3):
        book.enter("peg", {"player": "ann", "points": 29})
    book.enter("peg", {"player": "bob", "points": 29})
    book.enter("peg", {"player": "bob", "points": 29})
    book.enter("peg", {"player": "bob", "points": 29})
    book.enter("peg", {"player": "bob", "points": 29})  # bob 116, ann 116
    book.enter("deal", {"dealer": "bob"})
    e = book.enter("show", {"starter": "5C", "hands": {"ann": "2H 3D 10S KC", "bob": "5H 5D 5S JC"},
                            "crib": "AH AD AS AC"})
    # ann's hand has four fifteens (2-3-10, 2-3-K, 5-10, 5-K): 8 takes her out before bob counts
    result = book.current.result
    assert book.current.scorer.totals == {"ann": 124, "bob": 116}  # bob's 29 hand was never counted
    assert result is not None and result.winners == ("ann",)
    assert any("not scored" in n for n in e.scored.notes)
    with pytest.raises(ScoreError, match="over"):
        book.enter("peg", {"player": "bob", "points": 2})


# RULES C3: lurch — loser short of 61 in a 121 game: 2 games; skunk variant 91/61: double/quadruple
@pytest.mark.parametrize(("rules", "loser", "value", "label"), [
    ({}, 60, 2, "lurch"), ({}, 61, 1, "game"),
    ({"game_value": "skunk"}, 90, 2, "skunk"), ({"game_value": "skunk"}, 91, 1, "game"),
    ({"game_value": "skunk"}, 60, 4, "double skunk"), ({"game_value": "none"}, 10, 1, "game"),
    ({"target": 61}, 30, 2, "lurch"), ({"target": 61}, 31, 1, "game"),
])
def test_lurch_and_skunk(make_book: Any, rules: dict[str, Any], loser: int, value: int, label: str) -> None:
    book = make_book("cribbage", rules=rules)
    book.enter("peg", {"player": "bob", "points": loser % 29 or 29})
    while book.current.scorer.totals["bob"] < loser:
        book.enter("peg", {"player": "bob", "points": min(29, loser - book.current.scorer.totals["bob"])})
    target = rules.get("target", 121)
    while book.current.result is None:
        book.enter("peg", {"player": "ann", "points": min(29, target - book.current.scorer.totals["ann"])})
    result = book.current.result
    assert (result.winners, result.value, result.label) == (("ann",), value, label)


def test_skunk_needs_a_121_game() -> None:
    from dealer.core.scoring.book import Scorebook
    with pytest.raises(ScoreError, match="121"):
        Scorebook("x", ("a", "b")).start_game("cribbage", {"target": 61, "game_value": "skunk"})


# RULES C3 / 0.1 item 10: hands are counted non-dealer, dealer, crib — another order is refused
def test_counting_order_enforced(make_book: Any) -> None:
    book = make_book("cribbage")
    book.enter("deal", {"dealer": "bob"})
    book.enter("starter", {"card": "5C"})
    with pytest.raises(ScoreError, match="non-dealer, then dealer, then crib"):
        book.enter("hand", {"player": "bob", "cards": "5H 5D 5S JC"})
    book.enter("hand", {"player": "ann", "cards": "2H 3D 9S KC"})
    book.enter("hand", {"player": "bob", "cards": "5H 5D 5S JC"})
    e = book.enter("crib", {"cards": "AH AD 7S 8C"})
    assert e.scored.points() == {"bob": 6}  # 7+8 and A+A+5+8 are fifteens (4), pair of aces (2)
    assert book.current.scorer.totals == {"ann": 4, "bob": 35}


# RULES C3 muggins (optional): the opponent takes points the counter missed
def test_muggins(make_book: Any) -> None:
    book = make_book("cribbage", rules={"muggins": True})
    book.enter("deal", {"dealer": "bob"})
    e = book.enter("hand", {"player": "ann", "cards": "5H 5D 5S JC", "starter": "5C", "claimed": 20})
    assert e.scored.points() == {"ann": 20, "bob": 9}
