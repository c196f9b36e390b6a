"""Resolving overlapping whole-card quads (vision/detect.py): duplicates, inner frames, unions."""

from __future__ import annotations

import numpy as np

from vision.detect import CardQuad, _resolve_quads, detect_cards
from vision.simcam import SimulatedCamera


def _quad(x: float, y: float, w: float, h: float) -> CardQuad:
    return CardQuad(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float))


def _boxes(quads: list[CardQuad]) -> set[tuple[int, ...]]:
    return {tuple(int(v) for v in q.corners[0]) + (int(q.width), int(q.height)) for q in quads}


def test_separate_cards_all_stay() -> None:
    cards = [_quad(0, 0, 100, 140), _quad(300, 0, 100, 140), _quad(0, 300, 100, 140)]
    assert _boxes(_resolve_quads(cards)) == _boxes(cards)


def test_a_court_cards_inner_frame_gives_way_to_the_card() -> None:
    card, frame = _quad(100, 100, 100, 140), _quad(120, 125, 60, 90)
    assert _boxes(_resolve_quads([frame, card])) == _boxes([card])


def test_two_touching_cards_are_not_also_one_card_their_size() -> None:
    left, right = _quad(0, 0, 100, 140), _quad(100, 0, 100, 140)
    # their joint outline is card-shaped (2w × 1.4w), read from its short side like any card quad
    union = CardQuad(np.array([[200, 0], [200, 140], [0, 140], [0, 0]], float))
    assert union.width < union.height
    assert _boxes(_resolve_quads([union, left, right])) == _boxes([left, right])


def test_a_rendered_row_of_cards_is_found_card_by_card() -> None:
    codes = ["AS", "10H", "QD", "7C", "6S", "9D"]
    shot = SimulatedCamera(size=(1280, 720), background="felt", seed=5, card_width=150).frame_for(
        codes, "row"
    )
    det = detect_cards(shot.image, work_width=640)
    assert len(det.quads) == len(codes)
    assert all(130 < q.width < 170 and 1.3 < q.height / q.width < 1.5 for q in det.quads)
