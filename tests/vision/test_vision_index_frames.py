"""Reading cards through the learned finder's index frames (vision.index_frames), and the place for a
step between finding those frames and reading them (``Recognizer.frame_steps``)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision import Recognizer, SimulatedCamera
from vision.finder import IndexFrame
from vision.index_frames import _moved

HAND = ["AS", "KH", "9C", "6D"]


@pytest.fixture(scope="module")
def hand() -> np.ndarray:
    cam = SimulatedCamera(size=(1280, 720), background="felt", seed=1, card_width=150)
    return cam.frame_for(HAND, "hand").image


def test_a_hand_is_read_through_the_index_frames_alone(hand: np.ndarray) -> None:
    found = Recognizer("table", finder="learned").recognize(hand)
    assert Counter(s.card for s in found) == Counter(HAND)
    assert all(s.evidence[0] == "index" for s in found)


def test_frame_steps_run_in_turn_between_finding_and_reading(hand: np.ndarray) -> None:
    rec = Recognizer("table", finder="learned")
    plain = rec.recognize(hand)
    calls: list[tuple[str, int]] = []

    def first(r: Recognizer, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
        assert r is rec and image.shape == hand.shape
        assert frames and all(isinstance(f, IndexFrame) for f in frames)
        calls.append(("first", len(frames)))
        return frames[:1]

    def second(r: Recognizer, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
        calls.append(("second", len(frames)))  # sees what the first step gave
        return frames

    rec.frame_steps = (first, second)
    one = rec.recognize(hand)
    assert calls[0][0] == "first" and calls[0][1] >= len(HAND) and calls[1] == ("second", 1)
    assert len(one) == 1 and one[0].card in HAND  # only the frame the steps kept was read

    rec.frame_steps = (lambda r, image, frames: frames,)
    assert rec.recognize(hand) == plain  # a step that changes nothing changes no sighting


def test_a_step_that_moves_every_frame_off_its_corner_loses_the_cards(hand: np.ndarray) -> None:
    rec = Recognizer("table", finder="learned")

    def off(r: Recognizer, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
        # half a card width inward along both edges: the patch holds pips or art, no index
        return [IndexFrame(_moved(f.frame, 0.5, 0.5), f.sideways, f.score) for f in frames]

    rec.frame_steps = (off,)
    assert len(rec.recognize(hand)) < len(HAND)
