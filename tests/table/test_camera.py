"""A real camera source (here a video file of cards passing a shoe window) feeding a live table."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

import vision
from dealer.config import load_settings
from dealer.table.host import TableHost

CARDS = ["AS", "10H", "QD", "7C"]


@pytest.fixture(scope="module")
def shoe_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[int, int, int, int]]:
    camera = vision.SimulatedCamera(size=(640, 360), background="felt", seed=3)
    frames = [f for code in CARDS for f in camera.shoe_pass(code, steps=10, empty=3)]
    path = tmp_path_factory.mktemp("video") / "shoe.avi"
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path, camera.shoe_window()


def test_each_card_through_the_window_is_dealt_once_in_order(
    tmp_path: Path, shoe_video: tuple[Path, tuple[int, int, int, int]]
) -> None:
    video, window = shoe_video
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "none", "mode": "live"},
                             devices={"shoe": "none", "shuffler": "none", "reels": "none",
                                      "camera": str(video), "camera_mode": "shoe", "camera_window": window})
    host = TableHost.open(settings)
    try:
        host.start()
        host.camera.wait(60)
        dealt = [c.code for c in host.table.state.require_shoe().dealt]
        assert dealt == CARDS  # one event per pass, no card twice, in the order they came out
        assert host.camera.frames == len(CARDS) * 16
    finally:
        host.stop()


def test_a_missing_camera_source_is_a_clear_error(tmp_path: Path) -> None:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "none"},
                             devices={"shoe": "none", "shuffler": "none", "reels": "none",
                                      "camera": str(tmp_path / "nope.avi")})
    host = TableHost.open(settings)
    try:
        with pytest.raises(vision.SourceError, match="not found"):
            host.start()
    finally:
        host.stop()
