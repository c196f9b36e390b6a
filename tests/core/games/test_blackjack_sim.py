"""The vectorised blackjack simulation (analyzer): its card sampler and its estimates."""

from __future__ import annotations

import numpy as np

from dealer.core.analysis.blackjack_sim import _Shoes, simulate
from dealer.core.analysis.blackjack_strategy import strategy_for
from dealer.core.games.blackjack import BlackjackRules


def test_sampler_deals_each_card_of_the_shoe_exactly_once() -> None:
    # RULES A1: a six-deck shoe holds 312 cards; no card is dealt twice.
    rules = BlackjackRules.parse("decks=6")
    shoes = _Shoes(rules, lanes=4, gen=np.random.default_rng(1), continuous=False)
    everyone = np.ones(4, dtype=bool)
    seen = np.zeros((4, 11), dtype=np.int64)
    for _ in range(312):
        values = shoes.draw(everyone)
        seen[np.arange(4), values] += 1
    assert (seen[:, 1:10] == 24).all() and (seen[:, 10] == 96).all()
    assert (shoes.left == 0).all()


def test_cut_card_reshuffles_only_after_it_comes_out() -> None:
    rules = BlackjackRules.parse("decks=6")
    shoes = _Shoes(rules, lanes=3, gen=np.random.default_rng(2), continuous=False)
    assert (shoes.cut_at >= 60).all() and (shoes.cut_at <= 75).all()  # RULES A1: 60-75 cards behind
    shoes.left[:] = [200, 60, 10]
    shoes.cut_at[:] = [65, 65, 65]
    shoes.start_round()
    assert list(shoes.left) == [200, 312, 312]


def test_estimate_agrees_with_the_strategy_model() -> None:
    # Continuous shuffle is closest to the infinite-deck model the strategy table is computed from.
    rules = BlackjackRules.parse("s17,das,da,3:2,peek")
    result = simulate(rules, 300_000, continuous=True, seed=11)
    low, high = result.ci95
    model_edge = -strategy_for(rules).edge
    assert low - 0.002 < model_edge < high + 0.002
    assert result.rounds == 300_000 and 1.0 < result.stdev < 1.3


def test_six_to_five_costs_the_player() -> None:
    # 6:5 instead of 3:2 costs about 1.4 % (a natural comes ~4.75 % of rounds, 0.3 less each).
    base = simulate(BlackjackRules.parse("s17,das"), 200_000, continuous=True, seed=5)
    worse = simulate(BlackjackRules.parse("s17,das,6:5"), 200_000, continuous=True, seed=5)
    assert 0.010 < worse.house_edge - base.house_edge < 0.019


def test_sampler_deals_a_reshuffled_shoe_uniformly_without_replacement() -> None:
    # RULES A1: the shoe is shuffled before it is dealt again; the lazy shuffle must make every order
    # equally likely even though the lane's row still holds the last shoe's dealing order.
    lanes = 100_000
    rules = BlackjackRules.parse("decks=1")
    shoes = _Shoes(rules, lanes=lanes, gen=np.random.default_rng(3), continuous=False)
    everyone = np.ones(lanes, dtype=bool)
    for _ in range(30):
        shoes.draw(everyone)
    shoes.shuffle(everyone)
    first, second = shoes.draw(everyone), shoes.draw(everyone)
    checks = (((first == 10).mean(), 16 / 52), (((first == 10) & (second == 10)).mean(), 16 * 15 / 2652),
              (((first == 1) & (second == 1)).mean(), 4 * 3 / 2652), ((first == 7).mean(), 4 / 52))
    for observed, p in checks:
        assert abs(observed - p) < 5 * np.sqrt(p * (1 - p) / lanes)
