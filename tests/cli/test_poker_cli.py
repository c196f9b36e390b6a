"""``dealer analyze poker`` / ``dealer bench evaluator`` as a user runs them: a real process."""

from __future__ import annotations

import json
import subprocess
import sys


def dealer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dealer", *args], capture_output=True, text=True,
                          timeout=120)


def test_analyze_poker_five_cards_json_reproduces_rules_b2() -> None:
    # RULES B2: the standard five-card frequency table
    result = dealer("analyze", "poker", "--cards", "5", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    ways = {name: row["ways"] for name, row in out["categories"].items()}
    assert out["hands"] == 2_598_960
    assert ways == {"royal flush": 4, "straight flush": 36, "four of a kind": 624, "full house": 3_744,
                    "flush": 5_108, "straight": 10_200, "three of a kind": 54_912, "two pairs": 123_552,
                    "one pair": 1_098_240, "no pair": 1_302_540}
    assert out["categories"]["full house"]["one_in"] == 694.17


def test_analyze_poker_rejects_other_sizes() -> None:
    result = dealer("analyze", "poker", "--cards", "6", "--json")
    assert result.returncode != 0 and "5 or 7" in result.stderr and result.stdout == ""


def test_bench_evaluator_json_reports_rates() -> None:
    result = dealer("bench", "evaluator", "--hands", "20000", "--others", "0", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out["batch_per_second"]) == {"5-card", "7-card"}
    assert all(rate > 0 for rate in out["batch_per_second"].values())
    assert out["hands"] == 20000 and "machine" in out and "date" in out


def test_paigow_set_json_gives_house_way_and_optimal() -> None:
    # RULES A8: the seed's bug example: back 7-7-5-5-4, front joker-6
    result = dealer("paigow", "set", "JK 4S 5D 5C 6H 7S 7D", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert sorted(out["house_way"]["front"]) == ["6H", "JK"]
    assert out["optimal"]["foul"] is False and -1 <= out["optimal"]["expected_value"] <= 1


def test_paigow_set_rejects_a_short_hand() -> None:
    result = dealer("paigow", "set", "JK 4S 5D", "--json")
    assert result.returncode != 0 and "seven cards" in result.stderr and result.stdout == ""


def test_analyze_pai_gow_json_is_sampled_with_interval() -> None:
    result = dealer("analyze", "pai-gow", "--hands", "20000", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["method"] == "sampled" and abs(out["win"] + out["push"] + out["lose"] - 1) < 1e-9
    low, high = out["house_edge_ci95"]
    assert low < out["house_edge"] < high
