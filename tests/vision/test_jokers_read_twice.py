"""A joker read surely at its index against the same joker's letters read unsurely (session 53).

"JOKER" letters at a corner, or spelt down a quad's, give a joker reading of 0.8-0.85; on a back's
lattice they are no joker at all, and are dropped with the back later. Such a reading used to claim
the joker read surely at its index as the same card, so a joker lying by a back was lost with the
back (three held-out-family jokers in 480 scenes)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import Recognizer, index_frames
from vision.detect import CornerFrame
from vision.finder import IndexFrame
from vision.index_frames import SURE
from vision.recognizer import _one_sighting_per_card
from vision.render import CARD_ASPECT, render_card
from vision.sighting import JOKER, Sighting

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "vision"))
from scenes import random_style  # noqa: E402

UNIT = np.array([[0, 0], [1, 0], [1, CARD_ASPECT], [0, CARD_ASPECT]], np.float32)


@pytest.fixture(scope="module")
def joker() -> tuple[np.ndarray, IndexFrame, tuple[tuple[float, float], ...]]:
    """A joker of a procedural deck whose index the patch reader reads surely, lying square on felt;
    the frame at its upper-left index corner, and its outline."""
    card = render_card(JOKER, 200, random_style(np.random.default_rng(2)), seed=2).image
    h, w = card.shape[:2]
    table = np.full((h + 200, w + 200, 3), (40, 110, 40), np.uint8)
    table[100 : 100 + h, 100 : 100 + w] = card
    corners = np.float32([[100, 100], [100 + w, 100], [100 + w, 100 + h], [100, 100 + h]])
    hom = cv2.getPerspectiveTransform(UNIT, corners)
    frame = CornerFrame(corners[0].astype(float), np.array([1.0, 0.0]), np.array([0.0, 1.0]), float(w), hom)
    return table, IndexFrame(frame, False, 1.0), tuple((float(x), float(y)) for x, y in corners)


def test_a_joker_read_surely_is_not_the_letters_read_unsurely_on_it(joker) -> None:  # type: ignore[no-untyped-def]
    image, frame, outline = joker
    rec = Recognizer("table")
    letters = Sighting(JOKER, 0.8, outline, None)  # its letters read at a corner
    read = index_frames.read_index_frames(rec, image, [frame], True, [letters])
    assert [s.card for s in read] == [JOKER] and read[0].confidence >= SURE
    # a joker known as surely is that joker: it is not read again
    known = Sighting(JOKER, 0.95, outline, None)
    assert index_frames.read_index_frames(rec, image, [frame], True, [known]) == []


def test_a_probe_that_reads_a_joker_surely_adds_it(joker) -> None:  # type: ignore[no-untyped-def]
    # the probes between and along indices, and the closer look, took no joker: their frames often lie
    # on a back's lattice or a court card's art. Read surely, it is the joker
    image, frame, _ = joker
    found = index_frames.sure_new_cards(Recognizer("table"), image, [frame], True, [])
    assert [s.card for s in found] == [JOKER]
    # a code already read is not added again
    assert index_frames.sure_new_cards(Recognizer("table"), image, [frame], True, found) == []


def _moved(points: tuple[tuple[float, float], ...], dx: float, dy: float) -> tuple[tuple[float, float], ...]:
    return tuple((x + dx, y + dy) for x, y in points)


def test_a_joker_read_twice_is_one_card_the_surer() -> None:
    quad = ((100.0, 100.0), (300.0, 100.0), (300.0, 380.0), (100.0, 380.0))
    spelt = Sighting(JOKER, 0.85, quad, None, evidence=("JOKER spelt down the index",))
    box = ((105.0, 105.0), (125.0, 105.0), (125.0, 170.0), (105.0, 170.0))
    at_index = Sighting(JOKER, 1.0, ((104.0, 102.0), (306.0, 98.0), (310.0, 378.0), (101.0, 383.0)), box)
    assert _one_sighting_per_card([spelt, at_index]) == [at_index]
    # read surely at its far index corner too (that frame faces the other way): one joker
    far_box = ((295.0, 375.0), (275.0, 375.0), (275.0, 310.0), (295.0, 310.0))
    far = Sighting(JOKER, 0.99, (quad[2], quad[3], quad[0], quad[1]), far_box)
    assert _one_sighting_per_card([at_index, far]) == [at_index]
    # two jokers read surely, one lying over the other, their indices facing the same way: a deck has two
    over = Sighting(JOKER, 0.96, _moved(quad, 80.0, 40.0), _moved(box, 80.0, 40.0))
    assert _one_sighting_per_card([over, at_index]) == [over, at_index]
    # two jokers lying apart are two cards
    apart = Sighting(JOKER, 0.85, _moved(quad, 400.0, 0.0), None)
    assert _one_sighting_per_card([apart, at_index]) == [apart, at_index]
    # and two copies of a face, one read surely, stay two (as before)
    five = Sighting("5H", 1.0, quad, box)
    copy = Sighting("5H", 0.85, _moved(quad, 20.0, 20.0), box)
    assert _one_sighting_per_card([five, copy]) == [five, copy]
