"""A merged region the cards read surely cover holds nothing more to look for."""

from __future__ import annotations

import numpy as np

from vision.detect import Blob
from vision.region_cover import unexplained
from vision.sighting import BACK, Sighting

W = 100.0  # card width, px
H = 140.0


def _card(x: float, y: float, code: str = "7H", confidence: float = 1.0) -> Sighting:
    outline = ((x, y), (x + W, y), (x + W, y + H), (x, y + H))
    return Sighting(code, confidence, outline, ((x, y), (x + 10, y), (x + 10, y + 25), (x, y + 25)))


def _region(*cards: Sighting) -> Blob:
    """The cards' bounding box as one region (as the threshold finder outlines a hand, roughly)."""
    pts = np.concatenate([np.array(c.outline) for c in cards])
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    return Blob(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64), ())


def test_a_region_that_is_the_cards_read_is_left_out() -> None:
    # two cards side by side, read surely: their region is the two of them and nothing else
    a, b = _card(100, 100), _card(100 + W, 100)
    assert unexplained((_region(a, b),), [a, b]) == ()


def test_a_region_with_a_card_corner_outside_the_cards_read_is_kept() -> None:
    # a hand: the lower card's corner shows beside the card read; only the upper one was read
    lower, upper = _card(100, 100, "KD"), _card(130, 140)
    region = _region(lower, upper)
    assert unexplained((region,), [upper]) == (region,)
    assert unexplained((region,), [lower, upper]) != ()  # the bounding box's empty corners are left


def test_slivers_along_the_outlines_do_not_keep_a_region() -> None:
    # an outline read a few pixels off (from an index frame's regressed width) leaves thin strips
    a = _card(100, 100)
    x0, y0, x1, y1 = 97, 97, 100 + W + 3, 100 + H + 3
    region = Blob(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float), ())
    assert unexplained((region,), [a]) == ()


def test_unsure_readings_and_backs_explain_nothing() -> None:
    a, b = _card(100, 100), _card(100 + W, 100)
    region = _region(a, b)
    unsure = _card(100 + W, 100, confidence=0.5)
    back = Sighting(BACK, 0.8, b.outline, None)
    assert unexplained((region,), [a, unsure]) == (region,)
    assert unexplained((region,), [a, back]) == (region,)
    assert unexplained((region,), []) == (region,)


def test_a_region_with_no_area_to_tell_is_searched_as_before() -> None:
    a = _card(100, 100)
    line = Blob(np.array([[100.0, 100.0], [300.0, 100.0]]), ())
    assert unexplained((line,), [a]) == (line,)
