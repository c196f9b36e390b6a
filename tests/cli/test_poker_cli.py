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
