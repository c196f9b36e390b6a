"""Kill a whole night's server (SIGKILL, device simulators included) mid-play and start it again:
every table resumes the same state from its log, every player's chips are where they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serving import Server, wait_for, write_night_file

GUESTS = ["Ann", "Bob", "Cy", "Dee"]
TABLES = [
    # the blackjack table deals from the simulated shoe device on a pseudo-terminal
    {"id": "bj", "game": "blackjack", "pace_ms": 50, "devices": {"shoe": "sim", "shuffler": "none",
                                                                  "reels": "none", "camera": "none"}},
    {"id": "bac", "game": "baccarat", "pace_ms": 50, "devices": "none"},
    {"id": "slots", "game": "slots", "pace_ms": 50, "devices": "none"},
]


def snapshot(server: Server) -> dict[str, Any]:
    tables = {t["id"]: server.get(f"/api/tables/{t['id']}/state") for t in TABLES}
    return {"tables": tables, "players": server.get("/api/players"), "report": server.get("/api/report")}


def test_a_killed_night_resumes_every_table_and_every_players_chips(tmp_path: Path) -> None:
    config = write_night_file(tmp_path, TABLES, GUESTS)
    # nothing outlives the SIGKILL to remove the shoe simulator's temporary folder: keep it in tmp_path
    server = Server(config=config, env={"TMPDIR": str(tmp_path)})
    try:
        ids = {p["name"]: p["id"] for p in server.get("/api/players")}
        for name in GUESTS:
            server.post(f"/api/players/{ids[name]}/buy-in", {"amount": 800})
        for table, seat, name in [("bj", 1, "Ann"), ("bj", 2, "Bob"), ("bac", 1, "Cy"), ("slots", 2, "Dee")]:
            server.post(f"/api/tables/{table}/seats", {"player_id": ids[name], "seat": seat, "chips": 500})

        def under_way() -> bool:
            bj = server.get("/api/tables/bj/state")["games"]["blackjack"]
            return bj["round"] >= 2 and bj["phase"] != "betting" and \
                len(server.get("/api/tables/bac/history")) >= 2
        wait_for("rounds under way at blackjack and baccarat", under_way, every=0.02)
        for table in TABLES:  # freeze play so the state read is the last one
            server.post(f"/api/tables/{table['id']}/autoplay", {"on": False})
        # a step already under way may still commit: read until two reads agree
        frozen = wait_for("play to stop", lambda: (first := snapshot(server)) == snapshot(server) and first)
    finally:
        server.kill()

    # the same night, restarted with play off so that what we read is what the logs rebuilt
    calm = write_night_file(tmp_path, [{**t, "autoplay": False} for t in TABLES], GUESTS)
    again = Server(config=calm)
    try:
        resumed = snapshot(again)
    finally:
        again.stop()
    for table in ("bac", "slots"):
        before, after = frozen["tables"][table], resumed["tables"][table]
        assert after["seq"] == before["seq"] and after["games"] == before["games"]
        assert after["balances"] == before["balances"] and after["players"] == before["players"]
    before, after = frozen["tables"]["bj"], resumed["tables"]["bj"]
    # a new simulator process is a new physical shoe: the host reloads it, so only the shoe moves on
    assert after["seq"] >= before["seq"]
    game_before, game_after = before["games"]["blackjack"], after["games"]["blackjack"]
    for key in ("round", "phase", "seats", "dealer"):
        assert game_after[key] == game_before[key], key
    assert after["balances"] == before["balances"] and after["players"] == before["players"]
    assert resumed["players"] == frozen["players"]

    def money(report: dict[str, Any]) -> dict[str, Any]:  # the report without the log lengths
        tables = [{k: v for k, v in t.items() if k != "records"} for t in report["tables"]]
        return {**report, "tables": tables}
    assert money(resumed["report"]) == money(frozen["report"]) and resumed["report"]["totals"]["balanced"]
    assert {p["name"] for p in after["players"]} == {"Ann", "Bob"}
