"""Shuffle uniformity at 99 % confidence, with bounded samples (deterministic run time).

The seeded runs test the shuffle algorithm with a fixed outcome. The CSPRNG runs can fail by
chance 1 % of the time, so each is tried twice and fails only if both independent runs fail.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable

import pytest

from dealer.core.rng import Rng


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (regularised gamma)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    log_prefactor = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:  # lower series, then complement
        term = total = 1.0 / a
        n = 0
        while abs(term) > 1e-15 * abs(total):
            n += 1
            term *= z / (a + n)
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    # upper tail by continued fraction (modified Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefactor) * h


def test_chi2_sf_matches_published_critical_values() -> None:
    # 99 % critical values: df=1 -> 6.635, df=10 -> 23.209, df=119 -> 157.800, df=2601 -> 2771.723
    assert chi2_sf(6.635, 1) == pytest.approx(0.01, abs=2e-4)
    assert chi2_sf(23.209, 10) == pytest.approx(0.01, abs=2e-4)
    assert chi2_sf(157.800, 119) == pytest.approx(0.01, abs=2e-4)
    assert chi2_sf(2771.723, 2601) == pytest.approx(0.01, abs=2e-4)


def five_card_orders_p(rng: Rng, samples: int = 12_000) -> float:
    orders = {p: 0 for p in itertools.permutations(range(5))}
    for _ in range(samples):
        orders[tuple(rng.shuffled(range(5)))] += 1
    expected = samples / 120
    stat = sum((n - expected) ** 2 / expected for n in orders.values())
    return chi2_sf(stat, 119)


def positions_p(rng: Rng, samples: int = 5_200) -> float:
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(samples):
        for position, card in enumerate(rng.shuffled(range(52))):
            counts[(card, position)] += 1
    expected = samples / 52
    stat = sum((counts[(c, p)] - expected) ** 2 / expected for c in range(52) for p in range(52))
    return chi2_sf(stat, 51 * 51)


@pytest.mark.parametrize("p_value", [five_card_orders_p, positions_p], ids=["120-orders", "52-positions"])
def test_seeded_shuffle_is_uniform(p_value: Callable[[Rng], float]) -> None:
    assert p_value(Rng.from_seed(20261121)) > 0.01


@pytest.mark.parametrize("p_value", [five_card_orders_p, positions_p], ids=["120-orders", "52-positions"])
def test_csprng_shuffle_is_uniform(p_value: Callable[[Rng], float]) -> None:
    assert p_value(Rng.system()) > 0.01 or p_value(Rng.system()) > 0.01


def test_a_biased_shuffle_is_caught() -> None:
    """The test can fail: the classic naive swap-with-any-position shuffle is rejected."""

    class Naive(Rng):
        def shuffled(self, items):  # type: ignore[no-untyped-def, override]
            out = list(items)
            for i in range(len(out)):
                j = self.randbelow(len(out))
                out[i], out[j] = out[j], out[i]
            return out

    assert five_card_orders_p(Naive(seed=1)) < 0.01


def test_seeds_replay_and_system_streams_differ() -> None:
    assert Rng.from_seed(5).shuffled(range(52)) == Rng.from_seed(5).shuffled(range(52))
    assert Rng.system().shuffled(range(52)) != Rng.system().shuffled(range(52))
    with pytest.raises(ValueError):
        Rng.from_seed(-1)
