"""A scripted casino night against a real ``dealer serve --config`` process.

Three tables, six guests: everyone buys in, five sit down at two tables and the engine plays for
them, one player moves from blackjack to baccarat, everyone stands and cashes out. The report the
server gives is then checked against the logs themselves: the cage's log and each table's log are
read straight from their SQLite files and the sums are made here, not by the report code.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from serving import Server, wait_for, write_night_file

GUESTS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
TABLES = [
    {"id": "bj", "name": "Blackjack", "game": "blackjack", "pace_ms": 40, "devices": "none"},
    {"id": "bac", "name": "Baccarat", "game": "baccarat", "pace_ms": 40, "devices": "none"},
    {"id": "slots", "name": "Slots", "game": "slots", "pace_ms": 40, "devices": "none"},
]


def records(db: Path) -> list[tuple[int, str, dict[str, Any]]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, kind, payload FROM events ORDER BY seq").fetchall()
    return [(seq, kind, json.loads(payload)) for seq, kind, payload in rows]


def rounds_at(server: Server, table: str) -> int:
    return len(server.get(f"/api/tables/{table}/history"))


def stand_and_wait(server: Server, table: str, seat: int, player: str) -> dict[str, Any]:
    """Stand (at once, or once the round in play is over) and return the player afterwards."""
    answer = server.delete(f"/api/tables/{table}/seats/{seat}")
    assert answer["status"] in ("stood", "leaving")
    return wait_for(f"{player} to leave {table}",
                    lambda: (p := server.get(f"/api/players/{player}"))["at_table"] is None and p)


def test_a_scripted_night_and_its_report_checked_against_the_logs(tmp_path: Path) -> None:
    config = write_night_file(tmp_path, TABLES, GUESTS, name="Scripted night")
    logs = tmp_path / "logs"
    server = Server(config=config)
    try:
        players = {p["name"]: p["id"] for p in server.get("/api/players")}
        assert sorted(players) == sorted(GUESTS)
        assert [t["id"] for t in server.get("/api/tables")] == ["bj", "bac", "slots"]
        for name in GUESTS:
            server.post(f"/api/players/{players[name]}/buy-in", {"amount": 1000})
        server.post(f"/api/players/{players['Cy']}/rebuy", {"amount": 500})
        seating = [("bj", 1, "Ann", 600), ("bj", 2, "Bob", 1000), ("bj", 3, "Cy", 1500),
                   ("bac", 1, "Dee", 800), ("bac", 2, "Eve", 1000)]
        for table, seat, name, chips in seating:
            sit = {"player_id": players[name], "seat": seat, "chips": chips}
            server.post(f"/api/tables/{table}/seats", sit)
        names = {p["name"] for p in server.get("/api/tables/bj/state")["players"]}
        assert names == {"Ann", "Bob", "Cy"}

        wait_for("three rounds at each table",
                 lambda: rounds_at(server, "bj") >= 3 and rounds_at(server, "bac") >= 3)

        ann = stand_and_wait(server, "bj", 1, players["Ann"])  # Ann moves to baccarat with all her chips
        move = {"player_id": players["Ann"], "seat": 3, "chips": ann["cage_chips"]}
        server.post("/api/tables/bac/seats", move)
        wait_for("Ann to bet at baccarat", lambda: any(
            e["kind"] == "baccarat.bet" and e["payload"]["seat"] == 3
            for e in server.get("/api/tables/bac/events?last=100")))

        for table, seat, name in [("bj", 2, "Bob"), ("bj", 3, "Cy"), ("bac", 1, "Dee"), ("bac", 2, "Eve"),
                                  ("bac", 3, "Ann")]:
            stand_and_wait(server, table, seat, players[name])
        paid = {name: server.post(f"/api/players/{players[name]}/cash-out")["paid"] for name in GUESTS}
        report = server.get("/api/report")
        csv_text = urllib_text(server, "/api/report.csv")
    finally:
        server.stop()

    # ---- the logs, read independently --------------------------------------------------------------
    for db in (logs / "cage.db", logs / "bj.db", logs / "bac.db", logs / "slots.db"):
        verified = subprocess.run([sys.executable, "-m", "dealer", "audit", "verify", "--db", str(db)],
                                  capture_output=True, text=True, timeout=60)
        assert verified.returncode == 0, verified.stdout + verified.stderr  # every hash chain intact

    cage = records(logs / "cage.db")
    ids = {d["player_id"]: d["name"] for _, kind, d in cage if kind == "night.player"}
    bought: dict[str, int] = defaultdict(int)
    cashed: dict[str, int] = defaultdict(int)
    moves: dict[int, tuple[str, str, int, int]] = {}  # cage seq -> (kind, table, seat, chips)
    for seq, kind, d in cage:
        if kind in ("night.buy-in", "night.rebuy"):
            bought[ids[d["player_id"]]] += d["amount"]
        elif kind == "night.cash-out":
            cashed[ids[d["player_id"]]] += d["chips"]
        elif kind in ("night.sit", "night.stand"):
            moves[seq] = (kind, d["table"], d["seat"], d["chips"])
    assert bought["Cy"] == 1500 and sum(bought.values()) == 6500
    assert dict(cashed) == paid  # what the cage paid out is what its log says

    house: dict[str, int] = {}
    for table in ("bj", "bac", "slots"):
        balance = 0  # the table's own count of chips players brought minus chips they took away
        for _, kind, d in records(logs / f"{table}.db"):
            if kind != "chips.transfer":
                continue
            assert "night #" in d["reason"], d  # no chip reached a night's table except with a player
            seq = int(d["reason"].split("night #")[1].split(":")[0])
            move_kind, move_table, seat, chips = moves.pop(seq)
            assert move_table == table and chips == d["amount"]
            if move_kind == "night.sit":
                assert (d["source"], d["target"]) == ("cage", f"seat-{seat}")
                balance += d["amount"]
            else:
                assert (d["source"], d["target"]) == (f"seat-{seat}", "cage")
                balance -= d["amount"]
        house[table] = balance
    assert all(chips == 0 for _, _, _, chips in moves.values())  # every move with chips is in a table log
    assert house["slots"] == 0 and len([s for s in cage if s[1] == "night.sit"]) == 6

    # ---- the report agrees with the logs ------------------------------------------------------------
    by_name = {p["name"]: p for p in report["players"]}
    for name in GUESTS:
        row = by_name[name]
        assert (row["bought"], row["cashed_out"], row["chips"]) == (bought[name], cashed[name], 0)
        assert row["result"] == cashed[name] - bought[name]
    assert by_name["Ann"]["tables"] == ["bj", "bac"] and by_name["Fay"]["tables"] == []
    assert {t["id"]: t["result"] for t in report["tables"]} == house
    assert sum(house.values()) == sum(bought.values()) - sum(cashed.values())  # chips conserved
    assert report["totals"]["balanced"] and report["totals"]["house_result"] == sum(house.values())
    assert f"player,{ann['id']},Ann,1000,{cashed['Ann']},0,{cashed['Ann'] - 1000}" in csv_text


def urllib_text(server: Server, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return str(response.read().decode())
