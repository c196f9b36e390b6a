"""The simulated camera's hands (vision.simcam): each card dealt down and across from the one before and
lying over it, two to a hand unless ``hand_cards`` says more (a blackjack hand after hits); with
``double_down`` the last card lies sideways across the others."""

from __future__ import annotations

import numpy as np
import pytest

from vision import SimulatedCamera
from vision.render import CARD_ASPECT
from vision.simcam import Placement

CODES = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "5C", "8H"]


def offsets(cam: SimulatedCamera, n: int) -> list[np.ndarray]:
    """Each card's centre from its hand's first card's (``offsets_of``)."""
    spots = cam.layout(CODES, "hand")
    return [offsets_of(spots[i - i % n], p) for i, p in enumerate(spots)]


def offsets_of(first: Placement, other: Placement) -> np.ndarray:
    """``other``'s centre from ``first``'s, in ``first``'s own axes, in card widths."""
    t = np.radians(first.angle)
    # the renderer turns a card counter-clockwise on screen (y down): its x axis is (cos, -sin)
    x, y = np.array([np.cos(t), -np.sin(t)]), np.array([np.sin(t), np.cos(t)])
    d = np.subtract(other.centre, first.centre) / other.width
    return np.array([d @ x, d @ y])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_card_of_a_hand_lies_down_and_across_from_the_one_before(n: int) -> None:
    cam = SimulatedCamera(size=(1920, 1080), seed=11, card_width=120, hand_cards=n)
    for k, d in enumerate(offsets(cam, n)):
        assert np.allclose(d, [0.42 * (k % n), 0.3 * (k % n)], atol=1e-9)


def test_hands_of_three_do_not_overlap_each_other() -> None:
    cam = SimulatedCamera(size=(1920, 1080), seed=11, card_width=170, hand_cards=3)
    spots = cam.layout(CODES, "hand")
    hands = [spots[i : i + 3] for i in range(0, len(spots), 3)]
    boxes = []
    for hand in hands:
        pts = np.concatenate([p.corners() for p in hand])
        boxes.append((pts.min(axis=0), pts.max(axis=0)))
    for i, (lo, hi) in enumerate(boxes):
        for lo2, hi2 in boxes[i + 1 :]:
            assert (hi < lo2).any() or (hi2 < lo).any()  # apart on at least one axis
    assert all((lo >= 0).all() and (hi <= (1920, 1080)).all() for lo, hi in boxes)


def test_a_hand_of_no_cards_is_refused_with_what_was_expected() -> None:
    with pytest.raises(ValueError, match="hand_cards must be 1 or more"):
        SimulatedCamera(hand_cards=0)


def test_a_double_down_lies_sideways_across_the_two_cards_before_it() -> None:
    # a blackjack double down: the hand's third card laid across the two, below their middle
    cam = SimulatedCamera(size=(1920, 1080), seed=11, card_width=170, hand_cards=3, double_down=True)
    spots = cam.layout(CODES, "hand")
    for i in range(0, len(spots), 3):
        first, second, double = spots[i : i + 3]
        t = np.radians(first.angle)
        y = np.array([np.sin(t), np.cos(t)])  # the first card's long axis on screen, downwards
        middle = (np.array(first.centre) + np.array(second.centre)) / 2
        assert np.allclose(double.centre, middle + y * 0.55 * 170 * CARD_ASPECT, atol=1e-6)
        assert abs(double.angle - first.angle - 90.0) <= 6.0
        d = offsets_of(first, second)
        assert np.allclose(d, [0.42, 0.3], atol=1e-9)  # the two before it lie as any two-card hand


def test_a_double_down_needs_a_hand_to_lie_across() -> None:
    with pytest.raises(ValueError, match="hand_cards must be 2 or more, got 1"):
        SimulatedCamera(hand_cards=1, double_down=True)
