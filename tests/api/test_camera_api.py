"""The camera check over the API: the latest frame with its readings, the set-up advice and the timing,
for the host only (a shoe camera sees a card before it is turned up)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from table_video import table_video as write_table_video

from dealer.api import create_app
from dealer.config import load_settings
from dealer.store import Role
from dealer.table.host import TableHost

CARDS = ["AS", "10H", "QD", "7C"]
FRAMES = 3


@pytest.fixture(scope="module")
def table_video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_table_video(tmp_path_factory.mktemp("video") / "table.avi", CARDS, FRAMES)


def client_for(tmp_path: Path, camera: str) -> Iterator[tuple[TestClient, dict[str, str]]]:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "none", "pace_ms": 0},
                             server={"require_tokens": True},
                             devices={"shoe": "none", "shuffler": "none", "reels": "none",
                                      "camera": camera, "camera_mode": "table"})
    with TestClient(create_app(lambda: TableHost.open(settings))) as client:
        host: TableHost = client.app.state.host  # type: ignore[attr-defined]
        tokens = {role.name.lower(): host.tokens.create(role)[0] for role in Role}
        yield client, tokens


@pytest.fixture
def watching(tmp_path: Path, table_video: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    yield from client_for(tmp_path, str(table_video))


@pytest.fixture
def blind(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    yield from client_for(tmp_path, "none")


def auth(tokens: dict[str, str], role: str) -> dict[str, str]:
    return {"authorization": f"Bearer {tokens[role]}"}


def wait_for_frames(client: TestClient, headers: dict[str, str]) -> dict[str, object]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        report = client.get("/api/camera", headers=headers).json()
        if report["frames"] == FRAMES:
            return report  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise TimeoutError("the camera did not read the video")


def test_the_host_sees_what_the_camera_read_with_advice_and_timing(
        watching: tuple[TestClient, dict[str, str]], table_video: Path) -> None:
    client, tokens = watching
    report = wait_for_frames(client, auth(tokens, "admin"))
    assert report["source"] == str(table_video) and report["mode"] == "table"
    assert sorted(s["card"] for s in report["seen"]) == sorted(CARDS)  # type: ignore[union-attr]
    check = report["check"]
    assert check["ok"] is True and check["advice"] == [] and check["frame"] == [960, 540]  # type: ignore[index]
    assert report["frame"]["number"] == FRAMES and report["ms_per_frame"] > 0  # type: ignore[index, operator]
    # the same frame as a picture, shrunk to at most 960 px and drawn with the readings
    picture = client.get("/api/camera.jpg", headers=auth(tokens, "admin"))
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/jpeg"
    assert picture.headers["cache-control"] == "no-store"
    assert picture.headers["x-frame-number"] == str(report["frame"]["number"])  # type: ignore[index]
    image = cv2.imdecode(np.frombuffer(picture.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (540, 960, 3)
    # the per-table route of a night serves the same camera
    tables = client.get("/api/tables", headers=auth(tokens, "admin")).json()
    first = next(iter(tables)) if isinstance(tables, dict) else tables[0]["id"]
    again = client.get(f"/api/tables/{first}/camera", headers=auth(tokens, "admin")).json()
    assert again["seen"] == report["seen"]


@pytest.mark.parametrize("role", ["viewer", "dealer"])
def test_only_the_host_may_look_through_the_camera(
        watching: tuple[TestClient, dict[str, str]], role: str) -> None:
    client, tokens = watching
    for path in ("/api/camera", "/api/camera.jpg"):
        refused = client.get(path, headers=auth(tokens, role))
        assert refused.status_code == 403 and "admin" in refused.json()["detail"]
    assert client.get("/api/camera").status_code == 401


def test_a_table_without_a_camera_says_how_to_give_it_one(blind: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = blind
    for path in ("/api/camera", "/api/camera.jpg"):
        answer = client.get(path, headers=auth(tokens, "admin"))
        assert answer.status_code == 404
        assert answer.json()["error"] == "NoCamera" and "devices.camera" in answer.json()["detail"]
