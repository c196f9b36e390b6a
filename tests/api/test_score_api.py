"""The scorekeeping API: books kept in their own hash-chained log, audited like ``dealer score``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from dealer.api import create_app
from dealer.cli import app as cli
from dealer.config import load_settings
from dealer.table.host import TableHost

HEARTS = {"hearts": {"ann": 5, "bob": 8, "cy": 0}, "queen": "cy"}


def open_client(tmp_path: Path) -> TestClient:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "none", "pace_ms": 0})
    return TestClient(create_app(lambda: TableHost.open(settings)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with open_client(tmp_path) as c:
        yield c


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 201) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_hearts_hand_undo_and_standings(client: TestClient) -> None:
    post(client, "/api/score/books", {"book": "kitchen", "players": ["ann", "bob", "cy"]})
    post(client, "/api/score/books/kitchen/games", {"game": "hearts", "rules": {"target": 50}})
    book = post(client, "/api/score/books/kitchen/entries", {"kind": "hand", "data": HEARTS})["book"]
    # RULES C4 (hearts): a point a heart, 13 for the queen of spades
    assert book["games"][0]["totals"] == {"ann": 5, "bob": 8, "cy": 13}
    book = post(client, "/api/score/books/kitchen/entries", {"kind": "hand", "data": {
        "hearts": {"ann": 0, "bob": 0, "cy": 13}, "queen": "ann"}})["book"]
    assert book["games"][0]["totals"] == {"ann": 18, "bob": 8, "cy": 26}
    book = post(client, "/api/score/books/kitchen/undo", {"reason": "wrong queen"})["book"]
    assert book["games"][0]["totals"] == {"ann": 5, "bob": 8, "cy": 13}
    assert [e["undone"] for e in book["games"][0]["entries"]] == [False, True]
    assert book["audit"][-1]["action"] == "undo" and book["audit"][-1]["reason"] == "wrong queen"
    book = post(client, "/api/score/books/kitchen/restore", {"entry": 2})["book"]
    assert book["games"][0]["totals"] == {"ann": 18, "bob": 8, "cy": 26}
    assert book["session"]["players"]["ann"]["points"] == 18
    listing = client.get("/api/score/books").json()
    assert listing == [{"book": "kitchen", "title": "kitchen", "players": ["ann", "bob", "cy"], "games": 1,
                        "current": {"index": 1, "game": "hearts", "title": book["games"][0]["title"],
                                    "totals": {"ann": 18, "bob": 8, "cy": 26}, "over": False}}]


def test_refused_entry_changes_nothing_and_names_the_problem(client: TestClient) -> None:
    post(client, "/api/score/books", {"book": "k", "players": ["ann", "bob"]})
    post(client, "/api/score/books/k/games", {"game": "cribbage"})
    before = client.get("/api/score/books/k").json()
    response = client.post("/api/score/books/k/entries", json={"data": {"player": "ann"}})
    assert response.status_code == 422 and "kind" in response.text  # the missing field is named
    response = client.post("/api/score/books/k/entries", json={"kind": "hand", "data": {
        "player": "zed", "cards": "5H 5D 5S JC", "starter": "5C"}})
    assert response.status_code == 409
    assert "zed" in response.json()["detail"]
    assert client.get("/api/score/books/k").json() == before
    response = client.post("/api/score/books/k/games", json={"game": "hearts"})
    assert response.status_code == 409 and "still in play" in response.json()["detail"]
    post(client, "/api/score/books/k/end", {})
    response = client.post("/api/score/books/k/games", json={"game": "snap"})
    assert response.status_code == 409 and "cribbage" in response.json()["detail"]  # lists the games
    assert client.get("/api/score/books/nope").status_code == 409
    response = client.post("/api/score/books", json={"book": "k2", "players": ["ann", "ann"]})
    assert response.status_code == 409


def test_cribbage_cards_counted_and_correction(client: TestClient) -> None:
    post(client, "/api/score/books", {"book": "crib", "players": ["ann", "bob"]})
    post(client, "/api/score/books/crib/games", {"game": "cribbage"})
    book = post(client, "/api/score/books/crib/entries", {"kind": "hand", "data": {
        "player": "bob", "cards": "5H 5D 5S JC", "starter": "5C"}})["book"]
    assert book["games"][0]["totals"]["bob"] == 29  # RULES C3: the 29 hand
    entry = book["games"][0]["entries"][0]["id"]
    book = post(client, f"/api/score/books/crib/entries/{entry}/correct", {
        "data": {"player": "bob", "cards": "5H 5D 5S 10C", "starter": "5C"},
        "reason": "it was a ten"})["book"]
    assert book["games"][0]["totals"]["bob"] == 28  # RULES C3: pairs 12, ten+five 8, three fives 8
    book = post(client, "/api/score/books/crib/end", {"reason": "bedtime"})["book"]
    assert book["games"][0]["result"]["winners"] == ["bob"]


def test_books_survive_a_restart_and_the_cli_reads_the_same_log(tmp_path: Path) -> None:
    with open_client(tmp_path) as client:
        post(client, "/api/score/books", {"book": "kitchen", "players": ["ann", "bob", "cy"]})
        post(client, "/api/score/books/kitchen/games", {"game": "hearts"})
        post(client, "/api/score/books/kitchen/entries", {"kind": "hand", "data": HEARTS})
        shown = client.get("/api/score/books/kitchen").json()
    with open_client(tmp_path) as client:  # a new server rebuilds the books from the log
        assert client.get("/api/score/books/kitchen").json() == shown
    result = CliRunner().invoke(cli, ["score", "show", "--db", str(tmp_path / "scorebooks.db"),
                                      "--book", "kitchen", "--json"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().startswith("{")
    assert json.loads(result.output)["games"][0]["totals"] == {"ann": 5, "bob": 8, "cy": 13}
    verify = CliRunner().invoke(cli, ["audit", "verify", "--db", str(tmp_path / "scorebooks.db")])
    assert verify.exit_code == 0, verify.output


def test_games_list_every_scorebook_game(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/score/games").json()}
    assert {"hearts", "cribbage", "euchre", "pinochle", "canasta", "five-hundred"} <= set(games)
    assert "hand" in games["hearts"]["entries"]


def test_stopping_the_server_closes_the_scorebooks_log(tmp_path: Path) -> None:
    from dealer.store.errors import StoreClosed

    with open_client(tmp_path) as client:
        post(client, "/api/score/books", {"book": "kitchen", "players": ["ann", "bob"]})
        books = client.app.state.scorebooks  # type: ignore[attr-defined]
    with pytest.raises(StoreClosed):
        list(books.store.records())
