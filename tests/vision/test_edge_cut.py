"""A card the frame's edge cuts, guessed whole from the piece of it in view (vision.edge_cut)."""

from __future__ import annotations

import doctest

import cv2
import numpy as np
import pytest

from vision import edge_cut
from vision.edge_cut import across_the_edge, one_side_in_view, three_corners
from vision.render import CARD_ASPECT


def test_docstring_examples_run() -> None:
    result = doctest.testmod(edge_cut)
    assert result.attempted > 0 and result.failed == 0


def test_a_box_the_frame_cut_is_grown_across_the_edge_to_a_cards_shape() -> None:
    # a card 200 wide lying upright with its left 60 px beyond the frame: 140 × 280 in view
    box = np.array([[0.0, 100.0], [140.0, 100.0], [140.0, 380.0], [0.0, 380.0]])
    (grown,) = across_the_edge(box, (720, 1280, 3))
    sides = sorted(np.linalg.norm(grown - np.roll(grown, 1, axis=0), axis=1))
    assert sides[0] == pytest.approx(280.0 / CARD_ASPECT) and sides[-1] == pytest.approx(280.0)
    assert grown[:, 0].min() == pytest.approx(140.0 - 280.0 / CARD_ASPECT)  # beyond the edge it lay on
    assert grown[:, 0].max() == pytest.approx(140.0)  # the side inside the frame stays
    card = np.array([[300.0, 100.0], [500.0, 100.0], [500.0, 380.0], [300.0, 380.0]])
    assert across_the_edge(card, (720, 1280, 3)) == []  # a card's shape already


def test_a_card_cut_across_a_corner_gets_its_fourth_corner_beyond_the_edge() -> None:
    # a card 200 px wide turned 20°, its fourth corner 56 px beyond the frame's left edge: in view a pentagon
    a = np.radians(20.0)
    across = 200.0 * np.array([np.cos(a), np.sin(a)])
    down = 200.0 * CARD_ASPECT * np.array([-np.sin(a), np.cos(a)])
    top = np.array([40.0, 100.0])
    card = np.array([top, top + across, top + across + down, top + down])
    assert card[3, 0] < -50.0
    mask = np.zeros((720, 1280), np.uint8)
    cv2.fillPoly(mask, [np.round(card).astype(np.int32).reshape(-1, 1, 2)], 1)
    (contour,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quad = three_corners(contour, 1.0, mask.shape)
    assert quad is not None
    for corner in card:  # every corner, the one beyond the edge too, within 3 % of the card's width
        assert np.linalg.norm(quad - corner, axis=1).min() < 0.03 * 200.0
    whole = np.zeros_like(mask)
    cv2.fillPoly(whole, [np.round(card + [200.0, 0.0]).astype(np.int32).reshape(-1, 1, 2)], 1)
    (contour,), _ = cv2.findContours(whole, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert three_corners(contour, 1.0, whole.shape) is None  # four corners in view: nothing to guess


def _piece(card: np.ndarray, shape: tuple[int, int] = (720, 1280)) -> np.ndarray:
    """The contour of the part of ``card`` (4 × 2 corners) inside a frame of ``shape``."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(card).astype(np.int32).reshape(-1, 1, 2)], 1)
    (contour,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return contour


@pytest.mark.parametrize("angle", [0.0, 8.0, -12.0])
@pytest.mark.parametrize("cut", ["width", "length"])
def test_a_card_with_one_whole_side_in_view_is_built_on_that_side(angle: float, cut: str) -> None:
    # a card 150 px wide, its bottom short side (or its right long side) whole in view and the rest
    # running off the frame's top (or left) edge: two corners in view, nothing for three_corners
    a = np.radians(angle)
    along = np.array([np.cos(a), np.sin(a)])
    up = np.array([np.sin(a), -np.cos(a)])
    if cut == "width":  # the bottom side whole, 0.6 of the card above it in view
        p0 = np.array([500.0, 0.6 * 150.0 * CARD_ASPECT])
        card = np.array([p0, p0 + 150.0 * along, p0 + 150.0 * along + 210.0 * up, p0 + 210.0 * up])
    else:  # the right side whole (turned a quarter), 0.6 of the card's width in view
        side = np.array([-up[0], -up[1]])
        p0 = np.array([0.6 * 150.0, 200.0])
        card = np.array([p0, p0 + 210.0 * side, p0 + 210.0 * side - 150.0 * along, p0 - 150.0 * along])
    contour = _piece(card)
    assert three_corners(contour, 1.0, (720, 1280)) is None
    quads = one_side_in_view(contour, 1.0, 150.0, (720, 1280))
    best = min(quads, key=lambda q: max(np.linalg.norm(q - c, axis=1).min() for c in card))
    for c in card:  # every corner, the two beyond the edge too, within 3 % of the card's width
        assert np.linalg.norm(best - c, axis=1).min() < 0.03 * 150.0
    assert one_side_in_view(contour, 1.0, 60.0, (720, 1280)) == []  # no side in view is a 60-px card's
