"""Stopping the camera watcher while its thread is delivering a card to the table.

The host stops the camera and then closes the table's event log; a card delivered after (or during)
that close would hit a closed log. The interleaving is forced: the first card's delivery stops at a
barrier while another thread calls ``stop``.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import cv2
import pytest

import vision
from dealer.table.camera import CameraWatcher

CARDS = ["AS", "10H", "QD", "7C"]
WAIT = 30.0


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


def test_stop_waits_for_a_card_being_delivered_and_none_is_delivered_after(
        shoe_video: tuple[Path, tuple[int, int, int, int]]) -> None:
    video, window = shoe_video
    log: list[str] = []
    delivering, go = threading.Event(), threading.Event()

    def on_card(code: str) -> None:
        log.append(f"deliver {code}")
        if not delivering.is_set():
            delivering.set()
            assert go.wait(WAIT)  # the table is busy logging this card
        log.append(f"delivered {code}")

    watcher = CameraWatcher(str(video), on_card, lambda was, really: None, mode="shoe", window=window)
    watcher.start()
    assert delivering.wait(WAIT)

    def stop() -> None:
        watcher.stop()
        log.append("stopped")

    stopper = threading.Thread(target=stop)
    stopper.start()
    stopper.join(0.5)  # a bounded look: stop must still be waiting for the delivery under way
    assert stopper.is_alive() and "stopped" not in log
    go.set()
    stopper.join(WAIT)
    assert log == ["deliver AS", "delivered AS", "stopped"]  # nothing after the stop, nothing cut short
    watcher.wait(WAIT)
    assert log[-1] == "stopped"


def test_frames_recognition_cannot_read_are_skipped_and_said_once_not_the_end_of_the_camera(
        shoe_video: tuple[Path, tuple[int, int, int, int]], caplog: pytest.LogCaptureFixture) -> None:
    # a shoe window set for a bigger camera than the one plugged in: every frame is refused, and the
    # camera goes on (it would read again once frames fit) with one warning that says why
    video, _ = shoe_video
    cards: list[str] = []
    watcher = CameraWatcher(str(video), cards.append, lambda was, really: None, mode="shoe",
                            window=(1000, 600, 200, 300))
    with caplog.at_level(logging.WARNING, logger="dealer.table.camera"):
        watcher.start()
        watcher.wait(WAIT)
    assert watcher.frames == len(CARDS) * (10 + 2 * 3) and watcher.bad_frames == watcher.frames
    assert cards == []
    said = [r for r in caplog.records if r.name == "dealer.table.camera"]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert "window (1000, 600, 200, 300)" in said[0].getMessage() and "640×360 frame" in said[0].getMessage()
