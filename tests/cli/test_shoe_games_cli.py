"""`dealer analyze baccarat|blackjack|blackjack-strategy` and `dealer play blackjack|baccarat`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dealer.cli import app

runner = CliRunner()


def test_analyze_baccarat_json_exact_counts() -> None:
    result = runner.invoke(app, ["analyze", "baccarat", "--decks", "8", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["banker"], data["player"], data["tie"], data["total"]) == (
        2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216, 4_998_398_275_503_360)


def test_analyze_baccarat_bad_decks() -> None:
    result = runner.invoke(app, ["analyze", "baccarat", "--decks", "0", "--json"])
    assert result.exit_code != 0 and "--decks" in result.output


def test_analyze_blackjack_json() -> None:
    result = runner.invoke(app, ["analyze", "blackjack", "--decks", "6", "--rules", "s17,das,3:2,peek",
                                 "--rounds", "20000", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for method in ("cut", "csm"):
        low, high = data[method]["ci95"]
        assert low < data[method]["house_edge"] < high and data[method]["rounds_per_second"] > 0


def test_analyze_blackjack_bad_rule() -> None:
    result = runner.invoke(app, ["analyze", "blackjack", "--rules", "s17,bogus", "--json"])
    assert result.exit_code != 0 and "bogus" in result.output


def test_strategy_chart_json() -> None:
    result = runner.invoke(app, ["analyze", "blackjack-strategy", "--rules", "s17,das", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["rows"]["pair"]["A,A"] == ["P"] * 10


def test_play_is_replayable_by_seed() -> None:
    for game in ("blackjack", "baccarat"):
        first = runner.invoke(app, ["play", game, "--rounds", "5", "--seed", "9"])
        second = runner.invoke(app, ["play", game, "--rounds", "5", "--seed", "9"])
        assert first.exit_code == 0, first.output
        assert first.stdout == second.stdout and "Net:" in first.stdout
