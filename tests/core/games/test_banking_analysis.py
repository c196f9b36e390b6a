"""Exact analyzers for faro/stuss, trente et quarante and red dog, checked by independent brute force."""

from __future__ import annotations

import ast
import itertools
import json
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from dealer.commands import analyze_banking
from dealer.core.analysis import faro_analysis, red_dog_analysis, trente_et_quarante_analysis
from dealer.core.analysis.trente_et_quarante_analysis import (
    refait_probability,
    row_distribution,
    shoe_counts,
)
from dealer.core.packs import standard_52

# ---- faro / stuss (RULES A5, A6) -----------------------------------------------------------------


def brute_flat_bet(k: int, n: int, *, soda: bool, hock: bool) -> Counter[str]:
    """Every placement of the k cards of a rank among n positions, read off the deal structure."""
    start = 1 if soda else 0
    last_turn_end = n - 1 if hock else n
    outcomes: Counter[str] = Counter()
    for spots in itertools.combinations(range(n), k):
        taken = set(spots)
        outcome = "push"
        for first in range(start, last_turn_end, 2):
            a, b = first in taken, first + 1 in taken
            if a or b:
                outcome = "split" if a and b else "lose" if a else "win"
                break
        outcomes[outcome] += 1
    return outcomes


@pytest.mark.parametrize(("k", "n", "variant"), [(4, 52, "faro"), (3, 51, "faro"), (2, 49, "faro"),
                                                 (4, 52, "stuss"), (2, 50, "stuss"), (1, 51, "faro")])
def test_flat_bet_matches_brute_force_over_every_placement(k: int, n: int, variant: str) -> None:
    # RULES A5/A6: bets settle at the next showing of the rank; split; soda and hock settle nothing
    faro = variant == "faro"
    bet = faro_analysis.flat_bet(k, n, hock=faro, soda_due=faro and n == 52)
    counts = brute_flat_bet(k, n, soda=faro and n == 52, hock=faro)
    total = sum(counts.values())
    assert bet.split == Fraction(counts["split"], total)
    assert bet.win == Fraction(counts["win"], total) == bet.lose
    assert bet.push == Fraction(counts["push"], total)


def test_split_chance_of_a_turn_is_one_in_seventeen() -> None:
    # RULES A5: a split is two cards of one rank in a turn
    deck = list(standard_52())
    pairs = list(itertools.permutations(deck, 2))
    same = sum(1 for a, b in pairs if a.rank == b.rank)
    assert faro_analysis.turn_split_probability() == Fraction(same, len(pairs))


def test_calling_the_turn_and_cat_hop_edges_by_enumerating_orders() -> None:
    # RULES A5: 4:1 on one of 6 orders; 2:1 on a cat-hop (3 distinct orders of a pair and a card)
    for cards, ratio in ((("7", "Q", "3"), Fraction(4)), (("7", "7", "3"), Fraction(2))):
        orders = list(itertools.permutations(cards))
        call = orders[0]
        ev = sum((ratio if o == call else -1) for o in orders) / Fraction(len(orders))
        assert faro_analysis.calling_the_turn_edge(distinct=len(set(cards)) == 3) == -ev


def test_last_three_cards_kinds_by_enumeration() -> None:
    deck = [c.rank for c in standard_52()]
    kinds: Counter[int] = Counter(len(set(three)) for three in itertools.combinations(deck, 3))
    total = sum(kinds.values())
    got = faro_analysis.last_three_kinds()
    assert got["distinct"] == Fraction(kinds[3], total) and got["triple"] == Fraction(kinds[1], total)


def test_faro_report_uses_each_variants_split_rule() -> None:
    # RULES A5: the dealer takes half on a split; RULES A6: all of it in stuss
    faro, stuss = faro_analysis.analyze("faro"), faro_analysis.analyze("stuss")
    for report, take in ((faro, Fraction(1, 2)), (stuss, Fraction(1))):
        for row in report["flat_bet"]:
            assert Fraction(row["edge"]["exact"]) == take * Fraction(row["split"]["exact"])
    assert faro["calling_the_turn"]["offered"] and not stuss["calling_the_turn"]["offered"]
    with pytest.raises(ValueError, match="with 4 of a rank left"):
        faro_analysis.analyze("faro", cards_left=50)


# ---- trente et quarante (RULES A7) ---------------------------------------------------------------


def dp_row(shoe: tuple[int, ...], target: int) -> dict[tuple[tuple[int, ...], int], Fraction]:
    """Independent: deal one row card by card, exact; returns (shoe left, total) -> chance."""
    out: dict[tuple[tuple[int, ...], int], Fraction] = Counter()

    @cache
    def walk(left: tuple[int, ...], total: int) -> tuple[tuple[tuple[tuple[int, ...], int], Fraction], ...]:
        if total >= target:
            return (((left, total), Fraction(1)),)
        n = sum(left)
        acc: Counter[tuple[tuple[int, ...], int]] = Counter()
        for v, c in enumerate(left, start=1):
            if c:
                nxt = list(left)
                nxt[v - 1] -= 1
                for key, p in walk(tuple(nxt), total + v):
                    acc[key] += Fraction(c, n) * p
        return tuple(acc.items())

    for key, p in walk(shoe, 0):
        out[key] += p
    return out


def test_row_distribution_and_refait_match_a_card_by_card_dp() -> None:
    # RULES A7: rows to the target or more; both rows from one shoe (a small target keeps the DP short)
    shoe, target = (2, 2, 2, 2, 2, 2, 2, 2, 2, 6), 11
    first = dp_row(shoe, target)
    marginal: Counter[int] = Counter()
    refait = Fraction(0)
    for (left, t1), p in first.items():
        marginal[t1] += p
        if t1 == target:
            for (_, t2), q in dp_row(left, target).items():
                if t2 == target:
                    refait += p * q
    assert row_distribution(shoe, target) == {t: marginal[t] for t in range(target, target + 10)}
    assert refait_probability(shoe, target, target) == pytest.approx(float(refait), rel=1e-12)


@pytest.mark.slow
def test_six_deck_report() -> None:
    # RULES A7: "a refait of 31 occurs about once in 40 coups"; the house edge is a little over 1 %
    report = trente_et_quarante_analysis.analyze(6)
    assert sum(Fraction(v["exact"]) for v in report["row_total"].values()) == 1
    assert 35 < report["coups_per_refait_31"] < 50
    assert 0.010 < report["house_edge"]["rouge"] == report["house_edge"]["couleur"] < 0.012
    assert shoe_counts(6) == (24,) * 9 + (96,)


# ---- red dog ([STD] casino form) -----------------------------------------------------------------


def test_red_dog_edge_matches_brute_force_over_every_three_card_deal() -> None:
    # [STD] casino red dog: consecutive push, pair → third card (11:1 trips), spreads 5/4/2/1:1, raise
    deck = [c.rank.high for c in standard_52()]  # type: ignore[union-attr]
    pay = {1: 5, 2: 4, 3: 2}
    total = Fraction(0)
    firsts = list(itertools.permutations(range(52), 2))
    for i, j in firsts:
        a, b = deck[i], deck[j]
        rest = [deck[x] for x in range(52) if x not in (i, j)]
        lo, hi = min(a, b), max(a, b)
        if a == b:
            ev = Fraction(sum(11 if r == a else 0 for r in rest), len(rest))
        elif hi - lo == 1:
            ev = Fraction(0)
        else:
            ratio = pay.get(hi - lo - 1, 1)
            unit = Fraction(sum(ratio if lo < r < hi else -1 for r in rest), len(rest))
            ev = max(unit, 2 * unit)  # raise exactly when it gains
        total += ev
    assert red_dog_analysis.analyze(1)["house_edge"] == -total / len(firsts)


# ---- the CLI -------------------------------------------------------------------------------------


def cli(*args: str) -> tuple[int, str, str]:
    """Run the commands as registered on a root app (only this module's, so others' work in
    progress cannot break these tests)."""
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """Root."""

    analyze_banking.register(app)
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_commands_are_registered_with_the_dealer_cli() -> None:
    tree = ast.parse((Path(analyze_banking.__file__).parents[1] / "cli.py").read_text())
    names = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert "analyze_banking" in names


def test_analyze_faro_json_is_machine_output_only() -> None:
    code, out, _ = cli("analyze", "faro", "--json")
    assert code == 0
    report = json.loads(out)
    assert set(report) == {"faro", "stuss"}
    assert [r["cards_of_rank_left"] for r in report["faro"]["flat_bet"]] == [4, 3, 2]
    assert report["faro"]["calling_the_turn"]["edge"]["exact"] == "1/6"
    assert report["stuss"]["rules"]["split_take"] == "1"


def test_analyze_red_dog_and_bad_input() -> None:
    code, out, _ = cli("analyze", "red-dog", "--decks", "8", "--json")
    assert code == 0 and json.loads(out)["raise_from_spread"] == 7
    code, out, err = cli("analyze", "red-dog", "--decks", "0")
    assert code != 0 and "--decks must be 1 to 16" in err and out == ""
    code, _, err = cli("analyze", "faro", "--variant", "pharaoh")
    assert code != 0 and "faro, stuss or both" in err


@pytest.mark.slow
def test_analyze_trente_et_quarante_json() -> None:
    code, out, _ = cli("analyze", "trente-et-quarante", "--decks", "6", "--json")
    assert code == 0
    report = json.loads(out)
    assert {"row_exactly_31", "refait_31_probability", "house_edge"} <= set(report)
