"""Backs the learned finder's boundary map rings (vision.ringed_backs): a back between faces whose
edges the map draws is found where it lies, from the width of the faces read, and a back seen already,
or a frame with no card read, gives nothing."""

from __future__ import annotations

import doctest

import cv2
import numpy as np
import pytest

from vision import SimulatedCamera, ringed_backs
from vision.closer_look import on_map
from vision.finder import STRIDE, default_finder
from vision.render import CARD_ASPECT
from vision.ringed_backs import RINGED, ringed
from vision.sighting import BACK, Sighting
from vision.simcam import Placement

WIDTH = 130.0


def _row(background: str) -> tuple[np.ndarray, list[Placement]]:
    """A face, a back and a face in a row, a fifth of a card apart."""
    cam = SimulatedCamera(size=(1280, 720), background=background, seed=1, card_width=WIDTH)
    row = (("5H", -150.0), (BACK, 0.0), ("9C", 150.0))
    cards = [Placement(c, (640.0 + dx, 360.0), 0.0, WIDTH) for c, dx in row]
    return cam.render(cards).image, cards


def _seen(p: Placement) -> Sighting:
    return Sighting(p.code, 0.99, tuple((float(x), float(y)) for x, y in p.corners()), None)


def test_the_ring_counts_the_directions_a_card_edge_lies_in() -> None:
    assert doctest.testmod(ringed_backs).failed == 0
    ring = np.zeros((12, 20), bool)
    ring[2, 3:10] = ring[2:10, 3] = ring[2:10, 9] = True  # a card's edges, its lower one too faint
    ring[2:10, 14] = True  # the next card's left edge
    count = ringed(ring, 10)
    assert (count[3:10, 4:9] >= RINGED).all()  # inside the ring, open below
    assert count[11, 0] < RINGED and count[0, 11] < RINGED  # the table beside the row


@pytest.mark.parametrize("background", ["white", "light_wood", "felt"])
def test_a_back_between_two_faces_is_found_where_it_lies(background: str) -> None:
    image, cards = _row(background)
    maps = default_finder().run(image, 512)
    faces = [_seen(p) for p in cards if p.code != BACK]
    found = ringed_backs.ringed_backs(image, maps, faces)
    assert [s.card for s in found] == [BACK]
    truth = cards[1].corners()
    got = np.array(found[0].outline)
    assert np.linalg.norm(got.mean(axis=0) - truth.mean(axis=0)) < 0.1 * WIDTH
    assert max(np.linalg.norm(got - t, axis=1).min() for t in truth) < 0.25 * WIDTH  # every corner


def test_a_back_seen_already_or_no_card_read_gives_nothing() -> None:
    image, cards = _row("white")
    maps = default_finder().run(image, 512)
    assert ringed_backs.ringed_backs(image, maps, [_seen(p) for p in cards]) == []
    assert ringed_backs.ringed_backs(image, maps, []) == []  # no card width to look for


@pytest.mark.parametrize("layout", ["hand", "scatter"])
def test_the_table_between_cards_on_three_sides_is_no_ring(layout: str) -> None:
    # the bench's frames: the gaps between hands, and between cards lying apart, see card edges in
    # three directions; their border lies on the ridge far less than a ring's and holds no card surface
    codes = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", BACK, "8H"]
    shot = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170).frame_for(
        codes, layout
    )
    maps = default_finder().run(shot.image, 512)
    cards = [_seen(p) for p in shot.placements]
    cell = maps.scale * STRIDE
    ridge = maps.prob[1] >= ringed_backs.HOLE_EDGE
    three_ways = ringed(ridge, ringed_backs.REACH * CARD_ASPECT * 170 / cell) >= RINGED
    on_cards = np.zeros(ridge.shape, np.uint8)
    cv2.fillPoly(on_cards, [on_map(p.corners(), cell) for p in shot.placements], 1)
    assert (three_ways & ~ridge & (on_cards == 0)).sum() > 20  # such gaps, off every card
    assert ringed_backs._hole_cards(shot.image, maps, cards, 170.0, cell) == []
