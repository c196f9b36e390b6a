"""The frame's downscaled copies are made once per recognition and never outlive it."""

from __future__ import annotations

import doctest
from collections import Counter

import cv2
import numpy as np
import pytest

import vision.frame_copies as frame_copies
from vision import Recognizer, SimulatedCamera
from vision.frame_copies import resized, sharing


def test_docstring_examples_run() -> None:
    result = doctest.testmod(frame_copies)
    assert result.attempted > 0 and result.failed == 0


def test_a_copy_is_shared_only_within_its_frames_scope() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (90, 160, 3), np.uint8)
    other = frame.copy()
    with sharing(frame):
        first = resized(frame, (80, 45))
        assert resized(frame, (80, 45)) is first
        assert np.array_equal(first, cv2.resize(frame, (80, 45), interpolation=cv2.INTER_LINEAR))
        assert resized(frame, (40, 22)).shape == (22, 40, 3)
        assert resized(other, (80, 45)) is not first  # an equal array is not the frame
    frame[:] = 255  # a camera reusing its buffer for the next frame
    assert (resized(frame, (80, 45)) == 255).all()


def test_scopes_nest_and_restore() -> None:
    outer, inner = np.zeros((20, 20, 3), np.uint8), np.ones((20, 20, 3), np.uint8)
    with sharing(outer):
        a = resized(outer, (10, 10))
        with sharing(inner):
            assert resized(outer, (10, 10)) is not a
            assert resized(inner, (10, 10)) is resized(inner, (10, 10))
        assert resized(outer, (10, 10)) is a


@pytest.fixture(scope="module")
def two_frames() -> tuple[np.ndarray, np.ndarray]:
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=5, card_width=170)
    first = cam.frame_for(["AS", "7D", "QC"], layout="scatter").image
    second = cam.frame_for(["9H", "2S", "KD", "4C"], layout="scatter").image
    return first, second


def test_each_copy_of_a_1080p_frame_is_made_once(
    monkeypatch: pytest.MonkeyPatch, two_frames: tuple[np.ndarray, np.ndarray]
) -> None:
    made: Counter[tuple[int, int]] = Counter()
    real = cv2.resize

    def counting(image: np.ndarray, size: tuple[int, int], *args: object, **kwargs: object) -> np.ndarray:
        if image.shape[:2] == (1080, 1920):
            made[size] += 1
        return real(image, size, *args, **kwargs)

    monkeypatch.setattr(cv2, "resize", counting)
    Recognizer("table").recognize(two_frames[0])
    # the threshold finder and the colour search share the 640-px copy, the learned finder and the
    # corner refiner the halving
    assert made[(640, 360)] == 1
    assert made[(960, 540)] == 1


def test_a_reused_buffer_is_read_afresh(two_frames: tuple[np.ndarray, np.ndarray]) -> None:
    first, second = two_frames
    rec = Recognizer("table")
    buffer = first.copy()
    assert sorted(s.card for s in rec.recognize(buffer)) == ["7D", "AS", "QC"]
    buffer[:] = second
    assert sorted(s.card for s in rec.recognize(buffer)) == ["2S", "4C", "9H", "KD"]


def test_work_on_a_frame_is_remembered_only_within_its_scope() -> None:
    frame, other = np.zeros((20, 20, 3), np.uint8), np.zeros((20, 20, 3), np.uint8)
    made: list[str] = []

    def make(name: str) -> str:
        made.append(name)
        return name.upper()

    with sharing(frame):
        assert frame_copies.remembered(frame, "a", lambda: make("a")) == "A"
        assert frame_copies.remembered(frame, "a", lambda: make("a")) == "A"
        assert frame_copies.remembered(other, "a", lambda: make("a")) == "A"  # not the scope's frame
        keys = ["a", "b", "c"]
        many = frame_copies.remembered_each(frame, keys, lambda todo: [make(keys[i]) for i in todo])
        assert many == ["A", "B", "C"]
        again = frame_copies.remembered_each(frame, ["c", "b"], lambda todo: [make("x") for _ in todo])
        assert again == ["C", "B"]
    assert frame_copies.remembered(frame, "a", lambda: make("a")) == "A"  # the scope is over
    assert made == ["a", "a", "b", "c", "a"]
