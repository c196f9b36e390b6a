"""``dealer slots``: list, rtp, spin and par through the command group's typer app."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dealer.commands.slots import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout


def test_list_json_names_every_title() -> None:
    code, out = run("list", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 17
    myow = next(r for r in rows if r["slug"] == "operation-myow")
    assert len(myow["paytables"]) == 5
    assert next(r for r in rows if r["slug"] == "light-speed")["features"] == ["light_speed", "progressive"]


def test_rtp_json_for_the_toy_title_is_exactly_one() -> None:
    code, out = run("rtp", "toy", "--coins", "1", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["rtp"] == 1.0 and body["rtp_exact"] == "1" and body["method"] == "exact"
    assert set(body) >= {"rtp", "hit_frequency", "sd", "method", "interval"}


def test_rtp_simulated_reports_its_interval() -> None:
    code, out = run("rtp", "bonkers", "--simulate", "--games", "5000", "--seed", "3", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["method"] == "simulated" and body["interval"][0] < body["rtp"] < body["interval"][1]


def test_rtp_accepts_a_path_and_a_paytable() -> None:
    path = Path(__file__).resolve().parents[2] / "config" / "slots" / "operation-myow.toml"
    code, out = run("rtp", str(path), "--paytable", "The King", "--json")
    assert code == 0 and json.loads(out)["paytable"] == "The King"


def test_spin_with_a_seed_replays_and_shows_the_stops() -> None:
    code, out = run("spin", "light-speed", "--seed", "5", "--spins", "3", "--json")
    assert code == 0
    body = json.loads(out)
    again = json.loads(run("spin", "light-speed", "--seed", "5", "--spins", "3", "--json")[1])
    assert body == again
    assert all(len(s["stops"]) == 3 for s in body["spins"])
    assert body["meters"]["games_played"] == 3


def test_par_writes_html(tmp_path: Path) -> None:
    target = tmp_path / "par.html"
    code, out = run("par", "el-toro", "--html", str(target), "--json")
    assert code == 0
    assert json.loads(out)["title"] == "El Toro"
    assert "<h1>PAR sheet: El Toro</h1>" in target.read_text(encoding="utf-8")


def test_bad_input_is_a_clear_error_with_nonzero_exit() -> None:
    result = runner.invoke(app, ["rtp", "no-such-title"])
    assert result.exit_code != 0 and "no slot title" in result.stderr
    result = runner.invoke(app, ["rtp", "bonkers", "--coins", "7"])
    assert result.exit_code != 0 and "1 to 3 coins" in result.stderr
    result = runner.invoke(app, ["spin", "crazy-dragon", "--denomination", "25"])
    assert result.exit_code != 0 and "not 25" in result.stderr
