from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import ImageSource, RecordedSource, SourceError, open_source, read_image


def _write(path: Path, colour: int) -> np.ndarray:
    img = np.full((40, 60, 3), colour, np.uint8)
    assert cv2.imwrite(str(path), img)
    return img


def test_image_file_and_folder_sources_yield_frames_in_name_order(tmp_path: Path) -> None:
    _write(tmp_path / "b.png", 20)
    _write(tmp_path / "a.png", 200)
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(ImageSource(tmp_path))
    assert [f.name for f in frames] == ["a.png", "b.png"]
    assert frames[0].image[0, 0, 0] == 200 and frames[1].index == 1
    with open_source(str(tmp_path / "a.png")) as src:
        assert len(list(src)) == 1


def test_missing_and_undecodable_images_give_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not found"):
        read_image(tmp_path / "nope.png")
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"hello")
    with pytest.raises(SourceError, match="cannot decode"):
        read_image(bad)
    with pytest.raises(SourceError, match="no images"):
        ImageSource(tmp_path / "empty") if (tmp_path / "empty").mkdir() is None else None
    with pytest.raises(SourceError, match="not found"):
        open_source(str(tmp_path / "missing.mp4"))


def test_an_iphone_heic_photo_is_met_with_advice_not_a_puzzle(tmp_path: Path) -> None:
    # OpenCV cannot decode HEIC: the host is told what to do, whether a photo, a folder or a source
    photo = tmp_path / "IMG_0001.HEIC"
    photo.write_bytes(b"\x00\x00\x00\x18ftypheic")
    attempts = (lambda: read_image(photo), lambda: open_source(str(photo)), lambda: ImageSource(tmp_path))
    for attempt in attempts:
        with pytest.raises(SourceError, match="export them as JPEG"):
            attempt()
    with pytest.raises(SourceError, match="not found"):  # a HEIC that is not there is not there
        open_source(str(tmp_path / "IMG_0002.HEIC"))
    (tmp_path / "table.jpg").write_bytes(b"not a jpeg")  # a folder with a JPEG too reads the JPEG
    assert [q.name for q in ImageSource(tmp_path).paths] == ["table.jpg"]


def test_video_file_source_reads_every_frame(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    with open_source(str(path)) as src:
        frames = list(src)
    assert len(frames) == 5
    assert abs(int(frames[4].image.mean()) - 160) < 10


def test_recorded_source_replays_frames_at_its_rate() -> None:
    imgs = [np.zeros((8, 8, 3), np.uint8) for _ in range(3)]
    frames = list(RecordedSource(imgs, fps=4))
    assert [f.timestamp for f in frames] == [0.0, 0.25, 0.5]
    with pytest.raises(SourceError, match="BGR"):
        RecordedSource([np.zeros((8, 8), np.uint8)])
