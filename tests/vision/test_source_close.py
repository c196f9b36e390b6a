"""Closing a video source from another thread while its own thread is inside ``VideoCapture.read``.

Releasing a ``cv2.VideoCapture`` under a running ``read`` is undefined behaviour in OpenCV (a crash at
best). The interleaving is forced: the real capture of a real video file is wrapped so that its first
``read`` stops at a barrier while the test closes the source.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision import open_source
from vision.sources import CaptureSource

WAIT = 10.0


class GatedCapture:
    def __init__(self, real: Any, log: list[str]) -> None:
        self.real, self.log = real, log
        self.in_read, self.go = threading.Event(), threading.Event()

    def read(self) -> Any:
        if not self.in_read.is_set():
            self.log.append("read-enter")
            self.in_read.set()
            assert self.go.wait(WAIT)
        result = self.real.read()
        self.log.append("read-exit")
        return result

    def get(self, prop: int) -> float:
        return float(self.real.get(prop))

    def release(self) -> None:
        self.log.append("release")
        self.real.release()


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    return path


def test_close_while_a_read_is_under_way_releases_after_the_read(video: Path) -> None:
    source = open_source(str(video))
    assert isinstance(source, CaptureSource)
    log: list[str] = []
    gate = GatedCapture(source.capture, log)
    source.capture = gate
    frames: list[Any] = []
    reader = threading.Thread(target=lambda: frames.extend(source), daemon=True)
    reader.start()
    assert gate.in_read.wait(WAIT)
    source.close()  # from this thread, while the reader is inside read()
    assert log == ["read-enter"]  # not released under the read
    gate.go.set()
    reader.join(WAIT)
    assert not reader.is_alive()
    assert log == ["read-enter", "read-exit", "release"]  # released once, by the reader on its way out
    assert frames == []  # closed: the iteration ends instead of handing out more frames
    source.close()
    assert log.count("release") == 1


def test_close_with_nobody_reading_releases_at_once_and_ends_iteration(video: Path) -> None:
    source = open_source(str(video))
    assert isinstance(source, CaptureSource)
    log: list[str] = []
    source.capture = GatedCapture(source.capture, log)
    source.capture.in_read.set()  # no barrier
    first = next(iter(source))
    assert first.index == 0
    source.close()
    assert log[-1] == "release" and log.count("release") == 1
    assert list(source) == []
