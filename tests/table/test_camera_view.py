"""The camera's latest frame kept for the camera page: a real camera's watcher and the simulated
table's camera record what they recognised; the recorder reports timing and set-up advice."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from table_video import table_video as write_table_video

import vision
from dealer.table.camera import CameraWatcher
from dealer.table.camera_view import KEEP, ViewRecorder
from dealer.table.hardware import SimulatedCamera

CARDS = ["AS", "10H", "QD", "7C"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def card(code: str = "AS") -> vision.Sighting:
    return vision.Sighting(code, 0.97, ((10, 10), (110, 10), (110, 150), (10, 150)))


def test_nothing_to_show_before_the_first_frame() -> None:
    recorder = ViewRecorder("0", "table")
    assert recorder.latest() is None and recorder.jpeg() is None
    report = recorder.report()
    assert report["frames"] == 0 and report["frame"] is None and report["check"] is None
    assert report["ms_per_frame"] is None and report["frames_per_second"] is None


def test_the_status_gives_frame_rate_and_median_time_over_the_recent_frames() -> None:
    clock = Clock()
    recorder = ViewRecorder("0", "table", clock=clock)
    image = np.full((200, 300, 3), 90, np.uint8)
    for k in range(KEEP + 10):  # four frames a second, each read in 100 ms but the slow first ten
        recorder.record(image, [card()], 900.0 if k < 10 else 100.0)
        clock.now += 0.25
    status = recorder.status()
    assert status["frames"] == KEEP + 10
    assert status["frames_per_second"] == pytest.approx(4.0)
    assert status["ms_per_frame"] == 100.0  # the slow frames have left the window
    latest = recorder.latest()
    assert latest is not None and latest.frame == KEEP + 10 and latest.sightings == (card(),)


def test_a_still_tables_frames_answered_unread_count_as_frames_but_not_in_the_reading_time() -> None:
    clock = Clock()
    recorder = ViewRecorder("0", "table", clock=clock)
    image = np.full((200, 300, 3), 90, np.uint8)
    for k in range(20):  # ten frames a second: two read in 150 ms, the rest answered in 2 ms
        recorder.record(image, [card()], 150.0 if k in (0, 10) else 2.0, read=k in (0, 10))
        clock.now += 0.1
    status = recorder.status()
    assert status["frames"] == 20 and status["frames_read"] == 2
    assert status["ms_per_frame"] == 150.0  # how long a read takes, not the unread frames' 2 ms
    assert status["frames_per_second"] == pytest.approx(10.0)
    latest = recorder.latest()
    assert latest is not None and latest.frame == 20 and latest.ms == 2.0


def test_a_skipped_frame_is_counted_with_its_reason() -> None:
    recorder = ViewRecorder("0", "shoe")
    # said once per reason: again only when the problem changes
    assert recorder.skipped("the window lies outside the 320×240 frame") is True
    assert recorder.skipped("the window lies outside the 320×240 frame") is False
    status = recorder.status()
    assert status["bad_frames"] == 2 and "outside" in status["last_bad_frame"]
    assert recorder.skipped("recognize expects a BGR image, got float32") is True
    assert recorder.bad_frames == 3


def test_a_shoe_camera_shows_the_last_card_through_its_window_not_the_empty_window() -> None:
    empty = np.full((240, 320, 3), 30, np.uint8)
    for mode, shown in (("shoe", 2), ("table", 3)):
        recorder = ViewRecorder("0", mode)
        recorder.record(empty, [], 5.0)
        recorder.record(empty, [card("7D")], 5.0)
        recorder.record(empty, [], 5.0)  # the card has gone by
        latest = recorder.latest()
        assert latest is not None and latest.frame == shown
        assert recorder.status()["frames"] == 3


def test_the_report_ages_the_frame_and_checks_it() -> None:
    clock = Clock()
    recorder = ViewRecorder("sim", "table", clock=clock)
    recorder.record(np.full((240, 320, 3), 200, np.uint8), [card("10H")], 42.0)
    clock.now += 3.0
    report = recorder.report()
    assert report["frame"] == {"number": 1, "age_s": 3.0, "ms": 42.0}
    assert report["seen"] == [{"card": "10H", "confidence": 0.97, "unsure": False}]
    assert report["check"]["cards"] == 1 and report["check"]["frame"] == [320, 240]


def test_the_report_marks_the_readings_the_picture_draws_amber() -> None:
    recorder = ViewRecorder("0", "table")
    outline = ((10, 10), (110, 10), (110, 150), (10, 150))
    recorder.record(np.full((240, 320, 3), 200, np.uint8),
                    [vision.Sighting("9C", 0.55, outline), vision.Sighting("BK", 0.5, outline)], 5.0)
    # an unsure face, as vision.annotate draws it; a back is never called unsure
    assert [s["unsure"] for s in recorder.report()["seen"]] == [True, False]


def test_a_frame_is_checked_once_however_often_the_page_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    checks = []
    real = vision.check_view
    monkeypatch.setattr(vision, "check_view", lambda image, seen: checks.append(1) or real(image, seen))
    recorder = ViewRecorder("0", "shoe")
    image = np.full((240, 320, 3), 200, np.uint8)
    recorder.record(image, [card("7D")], 5.0)
    first = recorder.report()["check"]
    assert recorder.report()["check"] == first and len(checks) == 1
    recorder.record(image, [], 5.0)  # an empty window: the shoe camera still shows the 7D
    assert recorder.report()["check"] == first and len(checks) == 1
    recorder.record(image, [card("QS")], 5.0)
    assert recorder.report()["check"]["cards"] == 1 and len(checks) == 2


@pytest.fixture(scope="module")
def table_video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_table_video(tmp_path_factory.mktemp("video") / "table.avi", CARDS, 4)


def test_a_real_camera_watcher_keeps_its_latest_frame_and_readings(table_video: Path) -> None:
    seen: list[str] = []
    watcher = CameraWatcher(str(table_video), seen.append, lambda was, really: None, mode="table")
    watcher.start()
    watcher.wait(60)
    assert watcher.view is not None
    latest = watcher.view.latest()
    assert latest is not None and latest.frame == watcher.frames == 4
    assert sorted(s.card for s in latest.sightings) == sorted(CARDS)
    assert latest.image.shape == (540, 960, 3) and latest.ms > 0
    report = watcher.view.report()
    assert report["source"] == str(table_video) and report["mode"] == "table"
    # a still table: its first frame and the two after it are read, the fourth is answered unread
    assert report["frames"] == 4 and report["frames_read"] == 3
    assert report["check"]["ok"] is True
    picture = watcher.view.jpeg()
    assert picture is not None and picture[0] == latest.frame
    drawn = cv2.imdecode(np.frombuffer(picture[1], np.uint8), cv2.IMREAD_COLOR)
    assert drawn.shape == (540, 960, 3)


def test_the_simulated_table_camera_keeps_the_frame_it_read() -> None:
    camera = SimulatedCamera()
    assert camera.look_at("QH") == "QH"
    latest = camera.view.latest()
    assert latest is not None and [s.card for s in latest.sightings] == ["QH"]
    assert camera.view.status()["frames"] == camera.view.status()["frames_read"] == 1
