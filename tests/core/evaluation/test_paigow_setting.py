"""Pai gow hand setting: house way (scalar and batch), fouls, optimal setting (RULES A8)."""

from __future__ import annotations

import numpy as np
import pytest

from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import Category
from dealer.core.evaluation.paigow_optimal import (
    banker_distribution,
    deal_pai_gow,
    optimal_batch,
    optimal_setting,
    simulate_house_way,
)
from dealer.core.evaluation.paigow_way import (
    DEFAULT_HOUSE_WAY,
    FRONT_PAIRS,
    SIMPLE_HOUSE_WAY,
    Setting,
    house_way,
    house_way_batch,
    setting_values,
)

CODES = ["JK" if i == 52 else ("23456789" + "X" + "JQKA")[i // 4].replace("X", "10") + "CDHS"[i % 4]
         for i in range(53)]


def front_codes(setting: Setting) -> set[str]:
    return {c.code for c in setting.front}


def test_rules_a8_seed_bug_example() -> None:
    # RULES A8: joker 4 5 5 6 7 7 -> back 7-7-5-5-4, front joker-6 (ace high), not a straight with 7-5 front
    s = house_way("JK 4S 5D 5C 6H 7S 7D")
    assert front_codes(s) == {"JK", "6H"}
    assert s.back_value.category is Category.TWO_PAIR and str(s.front_value) == "ace high"


def test_rules_a8_three_pairs_highest_pair_in_front() -> None:
    # RULES A8: K-K, J-J, 7-7, 5 -> back J-J-7-7-5, front K-K
    s = house_way("KS KD JH JC 7S 7D 5C")
    assert front_codes(s) == {"KS", "KD"}
    assert s.back_value.ranks[:2] == (11, 7)


def test_rules_a8_two_pairs_are_split_by_the_house_way() -> None:
    # RULES A8: the dealer often has to split two pairs, lower pair in front
    s = house_way("QS QD 9H 9C 5S 3D 2C")
    assert {c.rank.high for c in s.front if c.rank} == {9}
    # configurable: keep small two pair with an ace single (default way), split always (simple way)
    keep = house_way("6S 6D 4H 4C AS 9D 2C")
    assert keep.back_value.category is Category.TWO_PAIR and "AS" in front_codes(keep)
    split = house_way("6S 6D 4H 4C AS 9D 2C", SIMPLE_HOUSE_WAY)
    assert split.front_value.category is Category.PAIR


def test_rules_a8_full_house_trips_back_pair_front() -> None:
    # RULES A8: with a full house, trips in back and the pair in front
    s = house_way("8S 8D 8H 3C 3D KS 2C")
    assert front_codes(s) == {"3C", "3D"} and s.back_value.category is Category.THREE_OF_A_KIND


def test_house_way_plays_straight_with_best_front() -> None:
    s = house_way("4S 5D 6C 7H 8S KD AC")
    assert s.back_value.category is Category.STRAIGHT and front_codes(s) == {"KD", "AC"}


def test_rules_a8_foul_when_front_outranks_back() -> None:
    # RULES A8: the back must outrank the front, or the hand is fouled
    assert Setting.from_front("AS AD 2C 5D 7H 9S JC", "AS AD").foul
    assert not Setting.from_front("AS AD 2C 5D 7H 9S JC", "9S JC").foul
    with pytest.raises(IllegalOperation, match="RULES A8"):
        Setting.from_front("AS AD 2C 5D 7H 9S JC", "AS")
    with pytest.raises(IllegalOperation, match="not in the hand"):
        Setting.from_front("AS AD 2C 5D 7H 9S JC", "KS QS")


def test_house_way_never_fouls_and_batch_matches_scalar() -> None:
    rng = np.random.default_rng(11)
    hands = deal_pai_gow(rng, 4000)[:, 0, :]
    fronts = house_way_batch(hands).astype(np.intp)
    back, front = setting_values(hands, fronts)
    assert (back > front).all()
    for row, b, f in zip(hands.tolist(), back.tolist(), front.tolist(), strict=True):
        s = house_way([CODES[i] for i in row])
        assert (int(s.back_value), int(s.front_value)) == (b, f), [CODES[i] for i in row]


def test_optimal_setting_is_never_worse_than_house_way_and_never_fouls() -> None:
    rng = np.random.default_rng(12)
    hands = deal_pai_gow(rng, 3000)[:, 0, :]
    best, ev = optimal_batch(hands)
    dist = banker_distribution()
    hw_back, hw_front = setting_values(hands, house_way_batch(hands).astype(np.intp))
    win, lose = dist.win_lose(hw_back, hw_front)
    hw_ev = 0.95 * win - lose
    assert (ev >= hw_ev - 1e-12).all()
    opt_back, opt_front = setting_values(hands, np.array(FRONT_PAIRS, dtype=np.intp)[best])
    assert (opt_back > opt_front).all()


def test_optimal_setting_cli_example() -> None:
    best = optimal_setting("JK 4S 5D 5C 6H 7S 7D")
    assert not best.setting.foul and -1 <= best.expected_value <= 1
    assert best.win + best.lose <= 1


def test_house_way_vs_house_way_edge_is_in_the_known_range() -> None:
    # 5 % commission: the banker's edge against a house-way player is a few per cent
    result = simulate_house_way(100_000, np.random.default_rng(3), DEFAULT_HOUSE_WAY)
    assert 0.01 < -result.player_ev < 0.045
    assert result.win + result.push + result.lose == 100_000
