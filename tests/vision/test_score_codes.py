"""Scoring a frame's readings against the cards it shows (``vision.evaluate.score_codes``): the count
behind every F1 in docs/vision.md and BENCHMARKS.md."""

from __future__ import annotations

import doctest
from random import Random

from hypothesis import given
from hypothesis import strategies as st

from vision import evaluate
from vision.evaluate import score_codes
from vision.sighting import CODES, FACES

codes = st.lists(st.sampled_from(CODES), max_size=12)


def test_docstring_examples_run() -> None:
    result = doctest.testmod(evaluate)
    assert result.attempted > 0 and result.failed == 0


def test_the_52_faces_are_the_deck_suit_by_suit() -> None:
    assert len(set(FACES)) == 52
    assert FACES[:13] == ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS")
    assert FACES[-1] == "KC"


def test_two_copies_of_a_card_need_two_readings() -> None:
    # a two-deck shoe: two aces of spades on the table, one read
    s = score_codes(["AS", "AS", "9D"], ["AS", "9D"])
    assert (s.right, s.false, s.missed, s.missing, s.extra) == (2, 0, 1, ("AS",), ())


def test_a_card_read_twice_is_one_right_and_one_false() -> None:
    s = score_codes(["QH"], ["QH", "QH"])
    assert (s.right, s.false, s.missed, s.extra) == (1, 1, 0, ("QH",))


def test_a_card_read_with_the_wrong_suit_is_missed_and_false_and_named_as_such() -> None:
    s = score_codes(["7H", "KS", "KS"], ["7D", "KC", "KS", "2C"])
    assert (s.right, s.false, s.missed) == (1, 3, 2)
    assert sorted(s.misread_suits()) == [("7H", "7D"), ("KS", "KC")]


def test_an_optional_card_read_counts_neither_way_but_one_the_frame_must_show_counts() -> None:
    # a 30-px card in view need not be read; read, it is not false
    assert score_codes(["AS"], ["AS", "3C"], optional=["3C"]).false == 0
    s = score_codes(["AS", "3C"], ["AS", "3C"], optional=["3C"])
    assert (s.right, s.ignored) == (2, 0)


@given(codes, codes, codes)
def test_every_card_shown_is_right_or_missed_and_every_reading_right_false_or_ignored(
    truth: list[str], read: list[str], optional: list[str]
) -> None:
    s = score_codes(truth, read, optional)
    assert s.right + s.missed == len(truth)
    assert s.right + s.false + s.ignored == len(read)
    assert len(s.missing) == s.missed and len(s.extra) == s.false
    assert s.ignored <= len(optional)


@given(codes, st.randoms())
def test_reading_exactly_what_is_shown_in_any_order_is_all_right(truth: list[str], rnd: Random) -> None:
    read = list(truth)
    rnd.shuffle(read)
    s = score_codes(truth, read)
    assert (s.right, s.false, s.missed) == (len(truth), 0, 0)
