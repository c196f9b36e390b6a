"""The poker-table commands: analyze caribbean-stud / let-it-ride, pusoy set, bench pusoy-setting."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from dealer.commands import poker_tables

runner = CliRunner()


def app() -> typer.Typer:
    root = typer.Typer()
    poker_tables.register(root)
    return root


def test_analyze_let_it_ride_json_is_exact() -> None:
    result = runner.invoke(app(), ["analyze", "let-it-ride", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"].startswith("exact")
    assert data["house_edge"] == pytest.approx(0.0351, abs=0.00005)


def test_pusoy_set_json_and_bad_input() -> None:
    result = runner.invoke(app(), ["pusoy", "set", "AS AD KC KD 7H 7S 2C 3D 9H 10S JC QD 5H", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["best"]["setting"]["foul"] is False
    cards = [c for part in ("back", "middle", "front") for c in data["best"]["setting"][part]["cards"]]
    assert sorted(cards) == sorted(data["cards"])
    bad = runner.invoke(app(), ["pusoy", "set", "AS AD JK", "--json"])
    assert bad.exit_code != 0
    assert "13 different cards" in bad.output


def test_analyze_caribbean_stud_rejects_a_bad_paytable() -> None:
    bad = runner.invoke(app(), ["analyze", "caribbean-stud", "--paytable", "royal=9:1", "--json"])
    assert bad.exit_code != 0
    assert "bad paytable entry" in bad.output


def test_bench_pusoy_setting_json() -> None:
    result = runner.invoke(app(), ["bench", "pusoy-setting", "--hands", "10", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ms_per_hand"] > 0


@pytest.mark.parametrize("module", [
    "dealer.core.games.caribbean_stud", "dealer.core.games.let_it_ride", "dealer.core.games.pusoy",
    "dealer.core.analysis.caribbean_paytable", "dealer.core.analysis.caribbean_analysis",
    "dealer.core.analysis.let_it_ride_analysis", "dealer.core.evaluation.pusoy_setting",
])
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
