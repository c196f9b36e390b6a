"""Hole cards tucked under their up cards (a dealer's hand as casinos deal it): each face lies half
over a back, and the threshold finder's region of the pair is one blob."""

from __future__ import annotations

from collections import Counter

import numpy as np

from vision import Recognizer, SimulatedCamera
from vision.hand_backs import _seen_already
from vision.index_frames import indexed_pips
from vision.sighting import BACK, Sighting


def _hands(background: str, seed: int, codes: list[str]) -> tuple[SimulatedCamera, object]:
    cam = SimulatedCamera(size=(1920, 1080), background=background, seed=seed, card_width=170)
    return cam, cam.frame_for(codes, "hand")


def _from_a_corner(index: tuple[tuple[float, float], ...], corners: np.ndarray) -> float:
    """How far the middle of an index read lies from the nearest of a card's true corners (px)."""
    return float(np.hypot(*(corners - np.mean(np.array(index), axis=0)).T).min())


def test_a_face_whose_outline_misses_its_index_is_read_there_and_its_hole_card_found() -> None:
    # the threshold finder cut each pair's region short: every face's outline stopped ~20 px inside
    # the card, its corners off the index, so the faces were read from their pips alone, hid their
    # own indices from the index frames and left them bare: no back was found in any of the hands
    codes = ["BK", "7H", "BK", "2D", "BK", "10H", "BK", "8C"]
    _, shot = _hands("felt", 3003, codes)
    found = Recognizer("table").recognize(shot.image)
    assert Counter(s.card for s in found) == Counter(codes)
    for p in shot.placements:
        if p.code == BACK:
            continue
        (face,) = [s for s in found if s.card == p.code]
        assert face.index_corner is not None  # read at its index, not from its pips
        assert _from_a_corner(face.index_corner, p.corners()) < 0.35 * p.width, p.code


def test_indexed_pips_replaces_a_pips_only_reading_by_its_index_and_keeps_the_rest() -> None:
    codes = ["BK", "7H", "BK", "2D", "BK", "10H", "BK", "8C"]
    _, shot = _hands("felt", 3003, codes)
    rec = Recognizer("table")
    _, maps = rec._find(shot.image)
    assert maps is not None
    seven = shot.placements[1].corners()
    shifted = seven + 0.2 * (seven[1] - seven[0])  # the outline moved a fifth of a card off the index
    pips = Sighting("7H", 0.99, tuple(map(tuple, shifted)), None, evidence=("face alone",))
    wrong = Sighting("9S", 0.99, tuple(map(tuple, shifted)), None, evidence=("face alone",))
    back = Sighting(BACK, 0.8, tuple(map(tuple, shot.placements[0].corners())), None)
    out = indexed_pips(rec, shot.image, maps, [pips, back], True)
    assert out[1] is back
    assert out[0].card == "7H" and out[0].index_corner is not None
    assert _from_a_corner(out[0].index_corner, seven) < 0.35 * 170
    # an index that reads another code leaves the pips' reading as it was
    assert indexed_pips(rec, shot.image, maps, [wrong], True) == [wrong]


def test_a_hypothesis_half_on_a_hole_card_and_half_on_its_face_is_not_another_back() -> None:
    # a hand's region gives hypotheses from each of its corners; one lying on part of the hole card
    # found and part of the face over it looked like a back to the card-side network
    for background, seed, codes in (
        ("felt", 3000, ["BK", "KS", "BK", "5S", "BK", "10S", "BK", "3C"]),
        ("wood", 3001, ["BK", "5S", "BK", "4D", "BK", "5H", "BK", "3S"]),
        ("dark", 8, ["BK", "7H", "BK", "10D", "BK", "QC", "BK", "BK"]),
    ):
        _, shot = _hands(background, seed, codes)
        found = Recognizer("table").recognize(shot.image)
        assert Counter(s.card for s in found) == Counter(codes), (background, seed)


def _square(x: float, y: float, side: float = 100.0) -> np.ndarray:
    pts = [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
    return np.array(pts, np.float32).reshape(-1, 1, 2)


def test_seen_already_asks_for_a_back_under_part_of_it_and_little_of_its_own() -> None:
    quad = _square(0, 0).reshape(-1, 2)
    left_back, right_face = _square(-50, 0), _square(50, 0)  # half of it each
    assert _seen_already(quad, [right_face], [left_back])
    # a face's outline alone may lie under it (a back on top of a stack): not seen already
    assert not _seen_already(quad, [_square(0, 0)], [])
    # a fifth on a back only: the rest, the part a face covers, is not enough
    assert not _seen_already(quad, [_square(20, 0)], [_square(-80, 0)])
    # half of it its own
    assert not _seen_already(quad, [], [left_back])


def test_only_the_part_of_a_hypothesis_inside_its_hand_is_its_own() -> None:
    # a face-down hand of two: a hypothesis shifted up and right of the lower card lies on neither
    # card over 35 % of itself, but half of that part lies beyond the hand's region (the table)
    quad = _square(0, 0).reshape(-1, 2)
    lower, upper = _square(-70, 0), _square(0, 50)
    region = np.array([(-70, 0), (65, 0), (65, 50), (100, 50), (100, 150), (-70, 150)], np.float32)
    assert not _seen_already(quad, [], [lower, upper])
    assert _seen_already(quad, [], [lower, upper], region.reshape(-1, 1, 2))
