"""Hand ranking rules (RULES B1, B2, A8, A9) and agreement of the fast evaluator with a plain one."""

from __future__ import annotations

import itertools
import random

import numpy as np
import poker_reference as reference_poker
import pytest

from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import (
    DEUCES_WILD,
    JOKER_WILD,
    ONE_EYED_JACKS_WILD,
    Category,
    Ranking,
    best_hand,
    categories,
    evaluate,
    evaluate_batch,
    omaha_best,
)
from dealer.core.evaluation.scalar import _value_of_ids

RANK_CODES = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"} | {r: str(r) for r in range(2, 10)}
SUITS = "CDHS"


def ids_to_reference(ids: list[int]) -> list[tuple[int, str]]:
    return [(i // 4 + 2, SUITS[i % 4]) for i in ids]


def as_tuple(value: int) -> tuple[int, tuple[int, ...]]:
    v = int(value)
    ranks = tuple((v >> (16 - 4 * i)) & 15 for i in range(5))
    ranks = tuple(r for r in ranks if r) if v >> 20 != 4 and v >> 20 != 8 else ranks
    return v >> 20, ranks


# --- RULES B2: the five-card frequency table, by full enumeration --------------------------------------


def test_rules_b2_five_card_frequency_table_full_enumeration() -> None:
    # RULES B2: 2,598,960 hands; royal 4, other straight flush 36, ... no pair 1,302,540
    combos = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
                         dtype=np.uint8).reshape(-1, 5)
    assert combos.shape[0] == 2_598_960
    values = evaluate_batch(combos)
    counts = np.bincount(categories(values), minlength=10)
    royal = int(np.count_nonzero((values >> 16) == (8 << 4 | 14)))
    assert royal == 4
    assert counts[Category.STRAIGHT_FLUSH] - royal == 36
    expected = {Category.FOUR_OF_A_KIND: 624, Category.FULL_HOUSE: 3_744, Category.FLUSH: 5_108,
                Category.STRAIGHT: 10_200, Category.THREE_OF_A_KIND: 54_912, Category.TWO_PAIR: 123_552,
                Category.PAIR: 1_098_240, Category.HIGH_CARD: 1_302_540}
    for category, ways in expected.items():
        assert counts[category] == ways, category
    assert counts[Category.FIVE_OF_A_KIND] == 0
    # 7,462 distinct hand values: the standard number of equivalence classes.
    assert np.unique(values).size == 7_462


# --- RULES B1: ranks and tie-breaks ------------------------------------------------------------------


@pytest.mark.parametrize(("better", "worse"), [
    ("QS QD QH 9C 9D", "10S 10D 10H KC KD"),  # RULES B1: full house, the trips decide
    ("AS AD 6H 6C 5D", "AC AH 5S 5C 9D"),  # RULES B1: two pair, higher second pair
    ("AS AD 6H 6C 7D", "AC AH 6S 6D 5D"),  # RULES B1: two pair, odd card
    ("JS JD AH 3C 2D", "JC JH KS QC 10D"),  # RULES B1: one pair, kickers
    ("KS KD 5H 3C 2D", "JC JH AS KC QD"),  # RULES B1: pair rank before kickers
    ("AS 7S 5H 3C 2D", "KC QH JS 7C 4D"),  # RULES B1: high card, card by card
    ("6D 5C 4H 3S 2S", "5D 4C 3H 2S AS"),  # RULES B1: 5-4-3-2-A is the lowest straight
    ("AS KS QS JS 10S", "KH QH JH 10H 9H"),  # RULES B1: royal flush tops straight flushes
    ("2S 3S 4S 5S 6S", "AH AD AC AS KD"),  # RULES B1: straight flush beats four of a kind
    ("2S 3S 4S 5S 7S", "AH KD QC JS 10D"),  # RULES B1: flush beats straight
])
def test_rules_b1_ordering(better: str, worse: str) -> None:
    assert evaluate(better) > evaluate(worse)


def test_rules_b1_suits_have_no_rank() -> None:
    # RULES B1: hands identical apart from suits tie
    assert evaluate("AS KD 9H 7C 3D") == evaluate("AH KC 9S 7D 3C")
    assert evaluate("2H 3H 4H 5H 6H") == evaluate("2C 3C 4C 5C 6C")


def test_rules_b1_best_five_of_seven_and_playing_the_board() -> None:
    # RULES B4: best five of seven; the board may play
    board = "AS KS QS JS 10S"
    assert evaluate(f"2D 3C {board}") == evaluate(f"9H 8H {board}")
    best = best_hand("7D 7C 7H 2S 2D KC 9S")
    assert best.value.category is Category.FULL_HOUSE and best.value.ranks == (7, 2)
    assert len(best.cards) == 5


def test_rules_b5_omaha_uses_exactly_two_hole_cards() -> None:
    # RULES B5: four spades on the board and one in hand is no flush in omaha
    hole, board = "AS KD 7C 2H", "QS JS 9S 3S 8D"
    assert evaluate(f"{hole} {board}".split()[:1] + board.split()).category is Category.FLUSH
    assert omaha_best(hole, board).value.category is not Category.FLUSH
    # ... but two spades in hand make it
    assert omaha_best("AS KS 7C 2H", board).value.category is Category.FLUSH
    # a board straight cannot be played with no hole cards
    assert omaha_best("2C 2D 3H 3C", "9S 10D JH QC KD").value.category is not Category.STRAIGHT


# --- RULES B1: wild cards and the bug ------------------------------------------------------------------


def test_rules_b1_five_of_a_kind_beats_straight_flush() -> None:
    # RULES B1: five of a kind (needs wild cards) beats any straight flush
    five_tens = evaluate("10C 10D 10H 10S JK", wild=JOKER_WILD)
    assert five_tens.category is Category.FIVE_OF_A_KIND
    assert five_tens > evaluate("AS KS QS JS 10S")


def test_rules_b1_deuces_wild_more_wild_cards_never_lower() -> None:
    # RULES B1: 10-10-2-2-2 (five 10s) beats 8-8-8-8-2 (five 8s)
    assert evaluate("10C 10D 2S 2H 2D", wild=DEUCES_WILD) > evaluate("8C 8D 8H 8S 2D", wild=DEUCES_WILD)
    # RULES B1 (S2's example): 9-9-9-9-2 with deuces wild is five nines
    assert str(evaluate("9C 9D 9H 9S 2D", wild=DEUCES_WILD)) == "five nines"


def test_rules_b1_wild_card_completes_straight_flush_and_quads() -> None:
    # RULES B1: a wild card stands for whatever card the holder needs
    assert str(evaluate("JK 10H JH QH KH", wild=JOKER_WILD)) == "royal flush"
    assert str(evaluate("JK 9H 10H JH QH", wild=JOKER_WILD)) == "straight flush, K-Q-J-10-9"
    assert evaluate("2C 7S 7D 7H KD", wild=DEUCES_WILD).category is Category.FOUR_OF_A_KIND
    assert evaluate("JS 3D 4C 5H 6D", wild=ONE_EYED_JACKS_WILD).ranks[0] == 7
    # seven cards with two wild: a natural pair and two wild make four of a kind, king kicker
    assert evaluate("2C 2D 9H 9S 4C 5D KH", wild=DEUCES_WILD) == evaluate("9C 9D 9H 9S KH")


def test_rules_b1_bug_counts_as_ace_not_as_pairing_card() -> None:
    # RULES B1 / A8: the bug is an ace, or completes a straight/flush/straight flush only
    kings = evaluate("JK KS KD 7C 3D")
    assert kings.category is Category.PAIR and kings.ranks[:2] == (13, 14)
    assert evaluate("JK AS AD 7C 3D").category is Category.THREE_OF_A_KIND
    assert evaluate("JK 9S 10D JC QH").category is Category.STRAIGHT
    assert str(evaluate("JK 9S 10D JC QH")) == "straight, K-Q-J-10-9"
    assert evaluate("JK 2H 7H 9H QH").category is Category.FLUSH
    assert evaluate("JK 2H 7H 9H QH").ranks[0] == 14  # the bug is the missing ace of the flush
    assert evaluate("JK 8H 9H 10H QH").category is Category.STRAIGHT_FLUSH
    assert str(evaluate("JK AS AD AH AC")) == "five aces"


def test_rules_b1_five_aces_highest_hand_with_bug() -> None:
    # RULES A8: ranks run from five aces (four aces plus the bug) down
    assert evaluate("JK AS AD AH AC", Ranking.PAI_GOW) > evaluate("AS KS QS JS 10S", Ranking.PAI_GOW)


def test_bug_in_seven_cards_matches_its_best_use() -> None:
    # RULES B1: the bug picks its best meaning among all five-card choices
    assert evaluate("JK 4S 5D 5C 6H 7S 7D", Ranking.PAI_GOW).category is Category.STRAIGHT
    assert evaluate("JK 2S 3D 4C 5H 9S 9D", Ranking.PAI_GOW).ranks[:2] == (14, 5)


# --- RULES A8 / A9: straights with the ace low, front hands ------------------------------------------


def test_rules_a8_wheel_is_second_highest_straight_in_pai_gow() -> None:
    # RULES A8: A-K-Q-J-10 highest, A-2-3-4-5 second, above K-Q-J-10-9
    pg = Ranking.PAI_GOW
    broadway, wheel, king = (evaluate(h, pg) for h in ("AS KD QC JH 10S", "AS 2D 3C 4H 5S",
                                                       "KD QC JH 10S 9S"))
    assert broadway > wheel > king
    assert evaluate("AS 2S 3S 4S 5S", pg) > evaluate("KS QS JS 10S 9S", pg)
    # A-2-3-4-5-6 plays as the wheel in pai gow, as 6-high elsewhere
    assert evaluate("AS 2D 3C 4H 5S 6D", pg) == wheel
    assert evaluate("AS 2D 3C 4H 5S 6D").ranks[0] == 6


def test_rules_a9_wheel_is_lowest_straight_in_pusoy() -> None:
    # RULES A9: A-2-3-4-5 is the lowest straight in pusoy
    assert evaluate("AS 2D 3C 4H 5S", Ranking.PUSOY) < evaluate("2S 3D 4C 5H 6S", Ranking.PUSOY)


def test_rules_a8_two_card_front_hand() -> None:
    # RULES A8: no straights or flushes in two cards; best A-A, worst 3-2; 2-2 beats A-K
    pg = Ranking.PAI_GOW
    assert evaluate("2C 2D", pg) > evaluate("AS KS", pg)
    assert evaluate("AC AD", pg) == max(evaluate([a, b], pg) for a, b in itertools.combinations(
        ["AC", "AD", "KS", "KH", "2C", "3D", "QS"], 2))
    assert evaluate("3D 2C", pg).category is Category.HIGH_CARD
    assert evaluate("3D 2D", pg) == evaluate("3C 2D", pg)  # suited counts for nothing
    # RULES A8: the bug in front plays as an ace: joker + 6 is ace-high; joker + ace is a pair of aces
    assert evaluate("JK 6H", pg) == evaluate("AS 6H", pg)
    assert evaluate("JK AH", pg) == evaluate("AS AH", pg)


def test_rules_a9_three_card_front_hand() -> None:
    # RULES A9: front of three: no straights or flushes; best trip aces, worst 4-3-2
    pu = Ranking.PUSOY
    assert evaluate("4H 3H 2H", pu).category is Category.HIGH_CARD
    assert evaluate("QS KS AS", pu).category is Category.HIGH_CARD
    assert evaluate("AS AD AH", pu).category is Category.THREE_OF_A_KIND
    assert evaluate("2S 2D 3H", pu) > evaluate("AS KD QH", pu)
    assert evaluate("4H 3D 2C", pu) < evaluate("5H 3D 2C", pu)
    with pytest.raises(IllegalOperation, match="RULES A9"):
        evaluate("JK 2S 3D", pu)


def test_bad_hands_are_refused_with_a_reason() -> None:
    with pytest.raises(IllegalOperation, match="each card once"):
        evaluate("AS AS KD QC JH")
    with pytest.raises(IllegalOperation, match="1 to 7 cards"):
        evaluate("AS KS QS JS 10S 9S 8S 7S")
    with pytest.raises(ValueError, match="card ids"):
        evaluate_batch(np.array([[0, 1, 2, 3, 60]]))


# --- agreement: fast evaluator vs the plain reference, and batch vs scalar ------------------------------


@pytest.mark.parametrize("size", [5, 6, 7])
@pytest.mark.parametrize("ranking", [Ranking.STANDARD, Ranking.PAI_GOW])
def test_fast_evaluator_matches_plain_reference(size: int, ranking: Ranking) -> None:
    rnd = random.Random(size * 10 + ranking.wheel_high)
    hands = [rnd.sample(range(52), size) for _ in range(4000)]
    values = evaluate_batch(np.array(hands, dtype=np.uint8), ranking)
    for hand, value in zip(hands, values, strict=True):
        expected = reference_poker.best(ids_to_reference(hand), ranking.wheel_high)
        assert as_tuple(value) == expected, hand


def test_batch_and_scalar_agree_on_a_million_random_seven_card_hands() -> None:
    rng = np.random.default_rng(2024)
    hands = np.argsort(rng.random((1_000_000, 52)), axis=1)[:, :7].astype(np.uint8)
    batch = evaluate_batch(hands)
    scalar = np.array([_value_of_ids(h, False) for h in hands.tolist()], dtype=np.int32)
    assert np.array_equal(batch, scalar)


def test_batch_and_scalar_agree_with_the_bug_in_pai_gow_hands() -> None:
    rng = np.random.default_rng(7)
    hands = np.argsort(rng.random((100_000, 53)), axis=1)[:, :7].astype(np.uint8)
    assert (hands == 52).any(axis=1).sum() > 10_000
    batch = evaluate_batch(hands, Ranking.PAI_GOW)
    scalar = [int(evaluate([_code(i) for i in h], Ranking.PAI_GOW)) for h in hands[:20_000].tolist()]
    assert batch[:20_000].tolist() == scalar
    fives = evaluate_batch(np.ascontiguousarray(hands[:, :5]), Ranking.PAI_GOW)
    assert fives.tolist()[:20_000] == [int(evaluate([_code(i) for i in h], Ranking.PAI_GOW))
                                       for h in hands[:20_000, :5].tolist()]


def _code(card_id: int) -> str:
    return "JK" if card_id == 52 else RANK_CODES[card_id // 4 + 2] + SUITS[card_id % 4]


def test_bug_hands_match_best_substitution() -> None:
    # RULES B1: the bug's value is the best of "an ace" and "any card completing a straight/flush"
    rnd = random.Random(5)
    for _ in range(1500):
        naturals = rnd.sample(range(52), 4)
        hand = [_code(i) for i in naturals] + ["JK"]
        ref = reference_poker.five(ids_to_reference(naturals) + [(14, "X")])  # as an off-suit ace
        pair_free = ref
        for sub in range(52):
            if sub in naturals:
                continue
            cand = reference_poker.five(ids_to_reference(naturals + [sub]))
            if cand[0] in (4, 5, 8):
                pair_free = max(pair_free, cand)
        assert as_tuple(evaluate(hand)) == pair_free, hand
