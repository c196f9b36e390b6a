from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from dealer.api import create_app
from dealer.config import load_settings
from dealer.table.setup import open_table


def test_health_and_state_on_a_fresh_table_and_after_restart(tmp_path: Path) -> None:
    settings = load_settings(None, table={"db": tmp_path / "t.db"})
    with TestClient(create_app(lambda: open_table(settings))) as client:
        health = client.get("/health").json()
        assert health["status"] == "ok" and health["events"] >= 2
        state = client.get("/state").json()
        shoe = state["shoe"]
        assert shoe["total"] == 312 and shoe["burned"] == 1 and 60 <= 312 - shoe["cut_index"] <= 75
        assert "order" not in str(state)
    with TestClient(create_app(lambda: open_table(settings))) as client:
        again = client.get("/state").json()
        assert again["shoe"]["cut_index"] == shoe["cut_index"]  # resumed, not reshuffled
        assert again["seq"] == state["seq"]
