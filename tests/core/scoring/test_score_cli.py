"""``dealer score``: the CLI contract (games listing, counting helpers, scorebooks in an event log)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from dealer.commands import score

runner = CliRunner()
app = typer.Typer()
app.add_typer(score.app, name=score.NAME)  # the group alone: other groups' imports stay out


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout


def test_games_lists_games_and_house_rules() -> None:
    code, out = run("score", "games", "--json")
    assert code == 0
    games = {g["name"]: g for g in json.loads(out)}
    crib = {r["name"]: r for r in games["cribbage"]["house_rules"]}
    assert crib["target"]["default"] == 121 and crib["game-value"]["choices"] == ["lurch", "skunk", "none"]


# RULES C3: the 29 hand from the CLI contract
def test_cribbage_hand_json() -> None:
    code, out = run("score", "cribbage-hand", "5H 5D 5S JC", "--starter", "5C", "--json")
    assert code == 0
    value = json.loads(out)
    assert value["total"] == 29 and value["by_kind"] == {"fifteen": 16, "pair": 12, "nobs": 1}


# RULES C1: double pinochle 300, and a hand's melds by class
def test_pinochle_meld_json() -> None:
    code, out = run("score", "pinochle-meld", "QS QS JD JD", "--trump", "H", "--one", "--json")
    assert code == 0 and json.loads(out)["total"] == 300
    code, out = run("score", "pinochle-meld", "AH 10H KH QH JH 9H AS AD AC QS", "--trump", "9H", "--json")
    assert json.loads(out)["total"] == 150 + 10 + 100  # flush, dix, and A♥ serves in 100 aces too


def test_bad_cards_exit_non_zero_with_a_message() -> None:
    result = runner.invoke(app, ["score", "cribbage-hand", "5H 5D 5S ZZ", "--starter", "5C", "--json"])
    assert result.exit_code != 0 and result.stdout == ""
    assert "bad card code" in result.stderr


def test_scorebook_in_an_event_log(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    assert run("score", "open", "ann,bob", "--db", db)[0] == 0
    assert run("score", "start", "cribbage", "--rule", "target=61", "--db", db)[0] == 0
    assert run("score", "enter", "peg", '{"player": "ann", "points": 5}', "--db", db)[0] == 0
    assert run("score", "correct", "1", '{"player": "ann", "points": 4}', "--reason", "miscount",
               "--db", db)[0] == 0
    code, out = run("score", "show", "--db", db, "--json")
    shown = json.loads(out)
    assert shown["games"][0]["totals"] == {"ann": 4, "bob": 0}
    assert shown["audit"][-1]["action"] == "correct" and shown["audit"][-1]["reason"] == "miscount"
    code, _ = run("score", "enter", "peg", '{"player": "zed", "points": 5}', "--db", db)
    assert code != 0


# RULES C2: meld count and the (standard) minimum first meld by score
def test_canasta_meld_json() -> None:
    code, out = run("score", "canasta-meld", "KH KD KS", "AH AD 2C", "--score", "1600", "--json")
    value = json.loads(out)
    assert code == 0 and value["count"] == 90 and value["minimum_first_meld"] == 90 and value["meets_minimum"]


# RULES C6 option (ace 1, faces and tens 10, pips), C11 Game (ten 10, ace 4, king 3, queen 2, jack 1),
# C1 (A 11, 10 10, K 4, Q 3, J 2; 7 or more rounds up)
def test_card_points_helper() -> None:
    code, out = run("score", "card-points", "five-hundred", "AS KH 10D 9C JK", "--json")
    assert code == 0 and json.loads(out)["points"] == 1 + 10 + 10 + 9
    code, out = run("score", "card-points", "pitch", "10H AS KD QC JH 9S", "--json")
    assert code == 0 and json.loads(out)["points"] == 20
    code, out = run("score", "card-points", "pinochle", "AS AH 10D KC QS", "--last-trick", "--json")
    value = json.loads(out)
    assert code == 0 and value["points"] == 11 + 11 + 10 + 4 + 3 + 10 and value["counted"] == 50
    code, _ = run("score", "card-points", "bridge", "AS")
    assert code != 0
    code, _ = run("score", "card-points", "pitch", "AS", "--last-trick")
    assert code != 0
