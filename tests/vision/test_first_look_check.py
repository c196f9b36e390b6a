"""A card read through a sheared frame is read again through the finder's refined first look.

Real parts: a rendered card on felt, the shipped finder, corner refiner and readers. The misreading
itself is given (a J♠ read as 3♠ through a frame turned 20°, as on a training-family scene of
session 47), since which of the full read's passes gives such a frame depends on the whole scene.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.finder import default_finder
from vision.first_look_check import OVERRULED, overruled_by_first_look
from vision.recognizer import Recognizer, _same_index
from vision.render import render_card
from vision.sighting import Sighting

X0, Y0, WIDTH = 300, 200, 220


@pytest.fixture(scope="module")
def table() -> tuple[np.ndarray, Sighting]:
    """Felt with a J♠ lying upright on it, and the recogniser's own sighting of it."""
    image = np.full((800, 1000, 3), (40, 110, 40), np.uint8)
    card = render_card("JS", WIDTH).image
    image[Y0 : Y0 + card.shape[0], X0 : X0 + card.shape[1]] = card
    (jack,) = Recognizer("table").recognize(image)
    assert jack.card == "JS" and jack.index_corner is not None
    return image, jack


def _turned(outline: tuple[tuple[float, float], ...], degrees: float) -> tuple[tuple[float, float], ...]:
    """``outline`` turned about its first corner (the index corner)."""
    pts = np.asarray(outline, np.float64)
    t = np.radians(degrees)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    out = (pts - pts[0]) @ rot.T + pts[0]
    return tuple((float(x), float(y)) for x, y in out)


def _true_outline() -> tuple[tuple[float, float], ...]:
    h = round(WIDTH * 1.4)
    return ((X0, Y0), (X0 + WIDTH, Y0), (X0 + WIDTH, Y0 + h), (X0, Y0 + h))


def _check(image: np.ndarray, sightings: list[Sighting]) -> list[Sighting]:
    rec = Recognizer("table")
    maps = default_finder().run(image, rec.finder_size)
    return overruled_by_first_look(rec, image, maps, sightings, True, _same_index)


def test_a_card_misread_through_a_turned_frame_is_read_through_the_first_look(table) -> None:
    image, jack = table
    sheared = _turned(_true_outline(), 20.0)
    misread = Sighting("3S", 1.0, sheared, jack.index_corner, evidence=("index", "3S:1.00"))
    (out,) = _check(image, [misread])
    assert out.card == "JS" and out.confidence >= 0.9
    assert OVERRULED in out.evidence
    # the outline is the first look's: square to the card, not the sheared frame's
    corner, short_end = np.asarray(out.outline[0]), np.asarray(out.outline[1])
    assert np.hypot(*(corner - (X0, Y0))) < 0.05 * WIDTH
    edge = short_end - corner
    assert abs(np.degrees(np.arctan2(edge[1], edge[0]))) < 3.0


def test_a_misreading_through_a_frame_the_first_look_agrees_with_stands(table) -> None:
    # the two frames agree in geometry: the first look has no better view of the index to offer
    image, jack = table
    misread = Sighting("3S", 1.0, _true_outline(), jack.index_corner, evidence=("index", "3S:1.00"))
    assert _check(image, [misread]) == [misread]


def test_a_sure_reading_through_a_whole_cards_outline_is_not_checked(table) -> None:
    # a whole card's outline read surely never misread so on the training-family sets: left alone
    image, jack = table
    misread = Sighting("3S", 1.0, _turned(_true_outline(), 20.0), jack.index_corner, evidence=("3S:1.00",))
    assert _check(image, [misread]) == [misread]


def test_an_unsure_reading_through_a_whole_cards_outline_is_checked(table) -> None:
    image, jack = table
    misread = Sighting("3S", 0.7, _turned(_true_outline(), 20.0), jack.index_corner, evidence=("3S:0.70",))
    assert [s.card for s in _check(image, [misread])] == ["JS"]


def test_a_misreading_of_an_index_read_rightly_already_goes(table) -> None:
    # the jack read right through its own outline, and its index read again through a sheared frame
    # as 3S: the first look reads the jack there, read already at that very index
    image, jack = table
    misread = Sighting(
        "3S", 1.0, _turned(_true_outline(), 20.0), jack.index_corner, evidence=("index", "3S:1.00")
    )
    assert _check(image, [jack, misread]) == [jack]


def test_a_misreading_of_a_cards_far_index_goes_where_its_near_one_is_read(table) -> None:
    # the jack read right at its top-left index, and its far index (bottom right, turned half round)
    # read through a sheared frame as 3S: the first look reads the jack there, read already
    image, jack = table
    true = np.asarray(_true_outline(), np.float64)
    centre = true.mean(axis=0)
    far_outline = tuple((float(x), float(y)) for x, y in 2 * centre - true)  # the card turned half round
    far_index = tuple((float(x), float(y)) for x, y in 2 * centre - np.asarray(jack.index_corner))
    misread = Sighting("3S", 0.85, _turned(far_outline, 20.0), far_index, evidence=("index", "3S:0.85"))
    assert _check(image, [jack, misread]) == [jack]


def test_backs_and_cards_with_no_index_read_are_left_alone(table) -> None:
    image, jack = table
    back = Sighting("BK", 0.8, _turned(_true_outline(), 20.0), None, evidence=("a back",))
    pips = Sighting("7S", 0.95, _turned(_true_outline(), 20.0), None, evidence=("face alone",))
    assert _check(image, [back, pips]) == [back, pips]


def test_a_frame_turned_a_little_is_no_disagreement(table) -> None:
    image, jack = table
    slight = Sighting(
        "3S", 1.0, _turned(_true_outline(), 4.0), jack.index_corner, evidence=("index", "3S:1.00")
    )
    assert _check(image, [slight]) == [slight]
