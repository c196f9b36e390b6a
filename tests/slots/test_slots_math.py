"""Slot math: the toy title's known answer, an independent brute-force oracle, engine vs enumeration,
and exact / Markov returns against simulation for every title."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.rng import Rng
from dealer.core.slots.analysis import analyse, best_cash_in, par_sheet, simulate
from dealer.core.slots.evaluate import Evaluator
from dealer.core.slots.features import PickBonus
from dealer.core.slots.title import ANY, BLANK, CountRule, Title
from dealer.slots_config import available_titles, load_title

SLUGS = sorted(available_titles())


def bets(title: Title) -> list[int]:
    return sorted({1, title.max_bet})


def test_toy_title_returns_exactly_100_percent() -> None:
    # issue 6: 3 reels x 10 stops, one A each; AAA pays 1000 on one coin
    toy = load_title("toy")
    assert [r.size for r in toy.reels] == [10, 10, 10]
    assert all(r.stops.count("A") == 1 for r in toy.reels)
    report = analyse(toy, 1)
    assert report.method == "exact"
    assert report.rtp_exact == Fraction(1)
    assert report.hit_frequency == pytest.approx(1 / 1000)
    assert report.sd == pytest.approx(math.sqrt(1000**2 / 1000 - 1))


# --- an independent oracle: plain loops over the physical stops ----------------------------------


def brute_force_line_pay(title: Title, table: str | None, symbols: tuple[str, ...], coins: int) -> int:
    best = 0
    for rule in title.paytable(table).rules:
        pay = rule.pays[coins - 1]
        if isinstance(rule, CountRule):
            if sum(s == rule.symbol for s in symbols) >= rule.n:
                best = max(best, pay)
            continue
        multiplier, natural, ok = 1, False, True
        for matcher, symbol in zip(rule.pattern, symbols, strict=True):
            members = title.groups.get(matcher, {matcher})
            if matcher == ANY:
                continue
            if symbol in members or (matcher == BLANK and symbol == BLANK):
                natural = True
                continue
            wild = title.wild(symbol)
            if matcher != BLANK and wild is not None and any(wild.substitutes(m) for m in members):
                multiplier *= wild.multiplier
                continue
            ok = False
            break
        if ok and natural:
            best = max(best, pay * multiplier)
    return best


def brute_force_rtp(title: Title, coins: int, table: str | None = None) -> Fraction:
    per_line, lines = title.bet_shape(coins)
    pick = next((f for f in title.features if isinstance(f, PickBonus)), None)
    total = Fraction(0)
    weight_sum = 0
    for stops in itertools.product(*(range(r.size) for r in title.reels)):
        weight = math.prod(r.weight(s) for r, s in zip(title.reels, stops, strict=True))
        weight_sum += weight
        pay = Fraction(0)
        for line in range(lines):
            offsets = title.paylines[line]
            symbols = tuple(r.symbol_at(s, o) for r, s, o in zip(title.reels, stops, offsets, strict=True))
            pay += brute_force_line_pay(title, table, symbols, per_line)
        centre = tuple(r.symbol_at(s) for r, s in zip(title.reels, stops, strict=True))
        if pick is not None and coins >= pick.min_coins and all(p in centre for p in pick.pair):
            pay += Fraction(pick.win + pick.lose, 2)
        total += weight * pay
    return total / weight_sum / coins


MEMORYLESS = [s for s in SLUGS if all(isinstance(f, PickBonus) for f in load_title(s).features)]


@pytest.mark.parametrize("slug", MEMORYLESS)
def test_exact_return_matches_a_brute_force_oracle(slug: str) -> None:
    title = load_title(slug)
    for table in title.paytables[:2]:
        for coins in bets(title):
            exact = analyse(title, coins, paytable=table.name).rtp_exact
            assert exact == brute_force_rtp(title, coins, table.name)


@settings(max_examples=60, deadline=None)
@given(slug=st.sampled_from(SLUGS), data=st.data())
def test_engine_pays_what_the_enumeration_says(slug: str, data: st.DataObject) -> None:
    title = load_title(slug)
    coins = data.draw(st.sampled_from([c for c in range(1, title.max_bet + 1) if _legal(title, c)]))
    stops = tuple(data.draw(st.integers(0, r.size - 1)) for r in title.reels)
    per_line, lines = title.bet_shape(coins)
    ev = Evaluator(title)
    table = ev.enumerate(per_line, lines)
    engine = sum(w.pay for w in ev.window_pays(stops, per_line, lines))
    assert engine == int(table.pay[stops])
    symbols = tuple(r.symbol_at(s) for r, s in zip(title.reels, stops, strict=True))
    assert ev.window_pays(stops, per_line, 1)[0].pay == brute_force_line_pay(title, None, symbols, per_line)


def _legal(title: Title, coins: int) -> bool:
    try:
        title.bet_shape(coins)
    except ValueError:
        return False
    return True


# --- exact / Markov against simulation --------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_exact_and_simulated_returns_agree_within_the_interval(slug: str) -> None:
    title = load_title(slug)
    for table in title.paytables:
        for coins in bets(title):
            denom = title.denominations[-1]
            exact = analyse(title, coins, denomination=denom, paytable=table.name)
            sim = simulate(title, coins, 40_000, Rng.from_seed(2024), denomination=denom, paytable=table.name)
            assert sim.interval is not None
            assert sim.interval[0] <= exact.rtp <= sim.interval[1], (table.name, coins, sim.interval)
            assert exact.method in ("exact", "markov")
            assert sim.hit_frequency == pytest.approx(exact.hit_frequency, abs=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_exact_and_long_simulation_agree(slug: str) -> None:
    title = load_title(slug)
    coins = title.max_bet
    exact = analyse(title, coins, denomination=title.denominations[-1])
    sim = simulate(title, coins, 600_000, Rng.from_seed(77), denomination=title.denominations[-1])
    assert sim.interval is not None and sim.interval[0] <= exact.rtp <= sim.interval[1]
    assert sim.hit_frequency == pytest.approx(exact.hit_frequency, abs=0.003)


def test_every_title_is_designed_into_the_target_band() -> None:
    for slug in SLUGS:
        title = load_title(slug)
        if slug == "toy":
            continue
        report = analyse(title, title.max_bet, denomination=title.denominations[-1])
        assert 0.92 <= report.rtp <= 0.96, (slug, report.rtp)
        text = available_titles()[slug].read_text(encoding="utf-8")
        assert "project's own design" in text and title.target_rtp


def test_markov_methods_are_labelled() -> None:
    expected = {"bank-on-it": "markov", "the-big-heist": "markov", "bonkers": "markov",
                "crazy-dragon": "markov", "frozen-assets": "markov", "its-good-to-be-bad": "markov",
                "light-speed": "markov",
                "el-toro": "exact", "diamond-mine-deluxe": "exact", "high-rollers": "exact"}
    for slug, method in expected.items():
        title = load_title(slug)
        assert analyse(title, title.max_bet).method == method
    # below the max bet the meter features are off: the base game is exact
    assert analyse(load_title("light-speed"), 1).method == "exact"


def test_piggy_bank_chain_matches_the_renewal_argument() -> None:
    # RULES A14: Piggy Bank — every coin put in the bank is paid out at the next three Piggies, and
    # each win is topped up by the 150-credit start: long-run bank pay = P(blanks) x coins + P(pigs) x 150
    title = load_title("bank-on-it")
    for coins in (1, 3):
        ev = Evaluator(title)
        en = ev.enumerate(coins)
        p = en.weight / en.total_weight
        centre = ev.payline_symbols()
        blank = np.broadcast_to((centre[0] == 0) & (centre[1] == 0) & (centre[2] == 0), en.pay.shape)
        ok = [ev.index["PIG"], ev.index["WILD"]]
        pig = np.broadcast_to(np.isin(centre[0], ok) & np.isin(centre[1], ok) & np.isin(centre[2], ok),
                              en.pay.shape)
        pb, pp = float(p[blank].sum()), float(p[pig].sum())
        base = float((en.pay * p).sum()) / coins
        assert analyse(title, coins).rtp == pytest.approx(base + (pb * coins + pp * 150) / coins, rel=1e-9)


def test_best_cash_in_point_returns_at_least_never_cashing_in() -> None:
    # RULES A14: It's Good to be Bad — banked free winning spins can be cashed in at any time
    title = load_title("its-good-to-be-bad")
    best = best_cash_in(title, 3, 100)
    assert best is not None and 4 <= best <= 28
    chosen = analyse(title, 3, denomination=100)
    for level in (4, 12, 28):
        assert analyse(title, 3, denomination=100, cash_in_at=level).rtp <= chosen.rtp + 1e-12


def test_progressive_titles_return_more_at_a_smaller_denomination() -> None:
    # a $100,000 reset is more credits at $0.25 than at $1
    title = load_title("its-good-to-be-bad")
    assert analyse(title, 3, denomination=25).rtp > analyse(title, 3, denomination=100).rtp


def test_par_sheet_line_returns_add_up_to_the_line_pays() -> None:
    for slug in ("diamond-mine-deluxe", "high-rollers", "operation-myow"):
        title = load_title(slug)
        sheet = par_sheet(title)
        assert [r["strip"] for r in sheet["reels"]] == [list(r.stops) for r in title.reels]
        for table in sheet["paytables"]:
            for report in table["by_bet"]:
                coins = str(report["coins"])
                total = sum(line["return_by_bet"][coins] for line in table["lines"])
                assert total == pytest.approx(report["parts"]["line pays"], rel=1e-9)
