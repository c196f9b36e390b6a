"""The casino night through the API: tables, per-table routes and streams, players, seats, the report."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dealer.api import create_app
from dealer.config import NightSettings
from dealer.core.table_state import PauseTable
from dealer.table.host import chips_in_play
from dealer.table.night import Night


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """Two tables (autoplay off: the test steps play itself), three guests, no devices."""
    tables = [{"id": "bj", "name": "Blackjack", "game": "blackjack", "autoplay": False},
              {"id": "bac", "name": "Baccarat", "game": "baccarat", "autoplay": False}]
    settings = NightSettings(night={"dir": tmp_path, "guests": ("Ann", "Bob", "Cy")}, tables=tables)
    with TestClient(create_app(lambda: Night.open(settings))) as test_client:
        yield test_client


def night_of(client: TestClient) -> Night:
    night: Night = client.app.state.night  # type: ignore[attr-defined]
    return night


def play_a_round(client: TestClient, table: str) -> None:
    """Simulated play until a round has been bet, dealt and settled."""
    host = night_of(client).host(table)
    betted = False
    for _ in range(400):
        host.step()
        betted = betted or chips_in_play(host.table.state) > 0
        if betted and not chips_in_play(host.table.state):
            return
    raise AssertionError(f"{table}: no round was played")


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def test_every_single_table_route_exists_for_each_table(client: TestClient) -> None:
    paths = set(ok(client.get("/openapi.json"))["paths"])
    night_wide = ("/api/tables", "/api/players", "/api/report", "/api/score", "/api/cage", "/api/night",
                  "/api/tokens")
    single = {p for p in paths if p.startswith("/api/") and not p.startswith(night_wide)}
    assert len(single) >= 14
    for path in single | {"/state"}:
        per_table = "/api/tables/{table_id}" + path.removeprefix("/api")
        assert per_table in paths, per_table


def test_a_night_through_the_api(client: TestClient) -> None:
    about = ok(client.get("/api/night"))
    assert about["tables"] == ["bj", "bac"] and about["buy_in"] == 500 and 25 in about["denominations"]
    tables = ok(client.get("/api/tables"))
    assert [(t["id"], t["name"], t["game"], t["players"]) for t in tables] == [
        ("bj", "Blackjack", "blackjack", []), ("bac", "Baccarat", "baccarat", [])]
    dee = ok(client.post("/api/players", json={"name": "Dee"}), 201)
    assert dee["name"] == "Dee" and dee["cage_chips"] == 0 and dee["at_table"] is None
    ok(client.post(f"/api/players/{dee['id']}/buy-in", json={"amount": 1000}), 201)
    assert ok(client.post(f"/api/players/{dee['id']}/rebuy", json={"amount": 200}), 201)["cage_chips"] == 1200
    ok(client.post("/api/tables/bj/seats", json={"player_id": dee["id"], "seat": 4, "chips": 700}), 201)
    seated = [{"seat": 4, "player_id": dee["id"], "name": "Dee", "chips": 700, "leaving": False}]
    assert ok(client.get("/api/tables/bj/state"))["players"] == seated
    assert ok(client.get("/state"))["players"] == seated  # the first table is the default table
    assert ok(client.get("/api/tables/bac/state"))["players"] == []

    play_a_round(client, "bj")
    chips = ok(client.get("/api/tables/bj/state"))["players"][0]["chips"]
    assert ok(client.get("/api/tables/bj/history"))  # the round is in the table's recall
    stood = ok(client.delete("/api/tables/bj/seats/4"))
    assert stood["status"] == "stood" and stood["player"]["cage_chips"] == 500 + chips

    move = {"player_id": dee["id"], "seat": 2, "chips": 500 + chips}
    ok(client.post("/api/tables/bac/seats", json=move), 201)
    play_a_round(client, "bac")
    ok(client.delete("/api/tables/bac/seats/2"))
    paid = ok(client.post(f"/api/players/{dee['id']}/cash-out"), 201)["paid"]
    assert ok(client.get(f"/api/players/{dee['id']}"))["cage_chips"] == 0

    log = ok(client.get("/api/cage/log", params={"player": dee["id"]}))
    assert [r["kind"].removeprefix("night.") for r in log] == [
        "player", "buy-in", "rebuy", "sit", "stand", "sit", "stand", "cash-out"]
    assert {r["name"] for r in log} == {"Dee"} and log[-1]["payload"]["chips"] == paid
    report = ok(client.get("/api/report"))
    row = next(p for p in report["players"] if p["name"] == "Dee")
    assert (row["bought"], row["cashed_out"], row["result"]) == (1200, paid, paid - 1200)
    assert row["tables"] == ["bj", "bac"]
    assert report["totals"]["balanced"] and sum(t["result"] for t in report["tables"]) == 1200 - paid
    rows = list(csv.DictReader(io.StringIO(client.get("/api/report.csv").text)))
    dee_row = next(r for r in rows if r["name"] == "Dee")
    assert dee_row["section"] == "player" and int(dee_row["result"]) == paid - 1200
    assert rows[-1]["section"] == "totals" and rows[-1]["tables"] == "balanced"


def test_each_table_streams_its_own_events_with_player_names(client: TestClient) -> None:
    ok(client.post("/api/players/p1/buy-in", json={"amount": 300}), 201)
    with client.websocket_connect("/api/tables/bac/ws") as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["data"]["state"]["table_id"] == "bac"
        ok(client.post("/api/tables/bac/seats", json={"player_id": "p1", "seat": 1, "chips": 300}), 201)
        event = ws.receive_json()
        assert event["type"] == "state" and event["data"]["state"]["players"][0]["name"] == "Ann"
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/api/tables/nope/ws") as ws:
        ws.receive_json()


def test_the_night_stream_tells_the_lobby_of_every_move(client: TestClient) -> None:
    with client.websocket_connect("/api/night/ws") as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello"
        assert [p["name"] for p in hello["data"]["players"]] == ["Ann", "Bob", "Cy"]
        ok(client.post("/api/players/p3/buy-in", json={"amount": 250}), 201)
        bought = ws.receive_json()
        assert bought["type"] == "cage"
        assert bought["data"]["kind"] == "night.buy-in" and bought["data"]["players"][2]["cage_chips"] == 250
        ok(client.post("/api/tables/bac/seats", json={"player_id": "p3", "seat": 5, "chips": 200}), 201)
        sat = ws.receive_json()["data"]
        assert sat["kind"] == "night.sit" and sat["tables"][1]["players"][0]["chips"] == 200


def test_a_player_moves_to_another_table_with_all_their_chips_in_one_call(client: TestClient) -> None:
    ok(client.post("/api/players/p2/buy-in", json={"amount": 400}), 201)
    ok(client.post("/api/tables/bj/seats", json={"player_id": "p2", "seat": 6, "chips": 300}), 201)
    moved = ok(client.post("/api/players/p2/move", json={"table": "bac", "seat": 4}), 201)
    assert moved["table"] == "bac" and moved["player"]["at_table"]["chips"] == 400
    assert moved["player"]["tables"] == ["bj", "bac"] and moved["player"]["cage_chips"] == 0
    assert ok(client.get("/api/tables/bj/state"))["players"] == []
    assert ok(client.get("/api/tables/bac/state"))["players"][0]["name"] == "Bob"


def test_each_table_pauses_and_resumes_on_its_own(client: TestClient) -> None:
    ok(client.post("/api/players/p1/buy-in", json={"amount": 100}), 201)
    ok(client.post("/api/tables/bac/seats", json={"player_id": "p1", "seat": 1, "chips": 100}), 201)
    pause = {"kind": "table.pause", "payload": {"source": "dealer", "reason": "drinks break"}}
    ok(client.post("/api/tables/bac/operations", json=pause), 201)
    tables = {t["id"]: t["paused"] for t in ok(client.get("/api/tables"))}
    assert tables == {"bj": False, "bac": True}
    assert ok(client.get("/api/tables/bac/state"))["paused"] == {"dealer": "drinks break"}
    assert not night_of(client).host("bac").step()  # a paused table does not play
    ok(client.post("/api/tables/bac/resume", json={"source": "dealer"}), 201)
    assert not any(t["paused"] for t in ok(client.get("/api/tables")))
    assert night_of(client).host("bac").step()  # Ann's table plays again


def test_errors_say_what_is_wrong(client: TestClient) -> None:
    assert client.get("/api/tables/nope/state").status_code == 404
    assert "no table 'nope'" in client.get("/api/tables/nope/history").json()["detail"]
    assert client.post("/api/players/p9/buy-in", json={"amount": 5}).status_code == 404
    assert client.post("/api/players/p1/buy-in", json={"amount": 0}).status_code == 422
    refused = client.post("/api/tables/bj/seats", json={"player_id": "p1", "seat": 1, "chips": 50})
    assert refused.status_code == 409 and "has 0 chips" in refused.json()["detail"]
    unknown = client.post("/api/tables/bj/game", json={"game": "roulette"})
    assert unknown.status_code == 400 and "unknown game 'roulette'" in unknown.json()["detail"]


def test_the_game_changes_from_the_api_and_is_logged(client: TestClient) -> None:
    ok(client.post("/api/players/p2/buy-in", json={"amount": 500}), 201)
    ok(client.post("/api/tables/bj/seats", json={"player_id": "p2", "seat": 1, "chips": 500}), 201)
    play_a_round(client, "bj")
    mid_shoe = client.post("/api/tables/bj/game", json={"game": "baccarat"})
    assert mid_shoe.status_code == 409 and "under way" in mid_shoe.json()["detail"]
    changed = ok(client.post("/api/tables/bj/game", json={"game": "baccarat", "end_shoe": True}), 201)
    assert changed["game"] == "baccarat"
    assert ok(client.get("/api/tables"))[0]["game"] == "baccarat"
    events = ok(client.get("/api/tables/bj/events", params={"last": 20}))
    assert any(e["kind"] == "table.pause" and "blackjack -> baccarat" in e["payload"]["reason"]
               for e in events)
    assert ok(client.get("/api/tables/bj/state"))["players"][0]["name"] == "Bob"  # still seated


def test_health_and_metrics_cover_every_table_of_the_night(client: TestClient) -> None:
    night = night_of(client)
    night.host("bac").table.submit(PauseTable("shoe", "jam"))  # the second table, not the first
    health = ok(client.get("/health"))
    assert health["status"] == "ok" and set(health["tables"]) == {"bj", "bac"}
    for table_id, table in health["tables"].items():
        assert table["events"] == night.host(table_id).table.store.last_seq
    assert health["tables"]["bac"]["paused"] is True and health["tables"]["bj"]["paused"] is False
    text = client.get("/metrics").text
    for table_id, paused in (("bj", 0.0), ("bac", 1.0)):
        events = night.host(table_id).table.store.last_seq
        assert f'dealer_event_log_records{{table="{table_id}"}} {float(events)}' in text
        assert f'dealer_table_paused{{table="{table_id}"}} {paused}' in text
