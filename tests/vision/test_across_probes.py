"""The index of a card lying on another, looked for one card width across the short edge from its far
corner traced on a merged region (vision.across_probes): a blackjack hand with a card laid across it."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

import vision.quick_read as quick_read
from vision import Recognizer, SimulatedCamera
from vision.across_probes import across_frames
from vision.detect import Blob, CornerFrame
from vision.sighting import Sighting
from vision.simcam import Placement

CODES = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "5C", "8H"]
FIRST = Placement("6C", (400.0, 300.0), 10.0, 170.0)  # a two-card hand, the second lying over the first
SECOND = Placement("6D", (480.0, 330.0), 14.0, 170.0)


def face(p: Placement, width: float | None = None, confidence: float = 0.99) -> Sighting:
    """``p`` read through its top-left index (``confidence`` sure), with the outline a frame ``width``
    wide implies."""
    c = p.corners()
    if width is not None:
        x, y = (c[1] - c[0]) / p.width, (c[3] - c[0]) / (1.4 * p.width)
        c = np.array([c[0], c[0] + width * x, c[0] + width * (x + 1.4 * y), c[0] + 1.4 * width * y])
    index = (tuple(c[0]), tuple(c[0] + [10, 0]), tuple(c[0] + [10, 30]), tuple(c[0] + [0, 30]))
    return Sighting(p.code, confidence, tuple(map(tuple, c)), index)


def far_corner(p: Placement, width: float = 300.0) -> CornerFrame:
    """The threshold finder's right-handed frame at ``p``'s top-right corner: x down its long edge, y
    back along its top edge (its own width is a guess, as a traced corner's is)."""
    c = p.corners()
    down, back = (c[2] - c[1]) / np.linalg.norm(c[2] - c[1]), (c[0] - c[1]) / np.linalg.norm(c[0] - c[1])
    return CornerFrame(c[1], down, back, width)


def test_the_far_corner_of_a_card_lying_on_another_gives_a_frame_at_its_index_corner() -> None:
    probes = across_frames((Blob(np.zeros((0, 2)), (far_corner(SECOND),)),), [face(FIRST)])
    assert len(probes) == 1
    f = probes[0]
    c = SECOND.corners()
    # as wide as the face read, not as the traced corner guessed: so one width lands on the index corner
    assert f.frame.width == pytest.approx(170.0)
    assert np.allclose(f.frame.origin, c[0], atol=1e-6)
    assert np.allclose(f.frame.x, (c[1] - c[0]) / 170.0, atol=1e-9)  # upright: along the top edge
    assert np.allclose(f.frame.y, (c[3] - c[0]) / (170.0 * 1.4), atol=1e-9)  # and down the long one
    assert not f.sideways


def test_a_corner_a_card_read_explains_gives_none() -> None:
    # the first card's own top-right corner, and the second's when it is read
    blob = (Blob(np.zeros((0, 2)), (far_corner(FIRST), far_corner(SECOND))),)
    assert len(across_frames(blob, [face(FIRST)])) == 1
    assert across_frames(blob, [face(FIRST), face(SECOND)]) == []


def test_a_frame_landing_on_a_corner_of_a_card_read_is_not_made() -> None:
    # the first card read with an outline too narrow: its traced top-right corner lies off the outline's
    # (outside it), and one width of the faces read (two others) from it lands on its index corner
    blob = (Blob(np.zeros((0, 2)), (far_corner(FIRST),)),)
    others = [face(Placement(code, (x, 300.0), 0.0, 170.0)) for code, x in (("9S", 900.0), ("KH", 1300.0))]
    assert across_frames(blob, [face(FIRST, width=135.0), *others]) == []
    assert len(across_frames(blob, [face(FIRST, width=135.0)])) == 1  # 135 px along: on its face


def test_a_face_read_unsurely_through_a_hand_sized_outline_explains_no_corner() -> None:
    # the first card read at 0.79 through an outline spanning the hand (1.4 cards wide): its corner is
    # the second card's. Read surely, or unsurely through an outline a card wide, it explains it
    c1, c2 = FIRST.corners(), SECOND.corners()
    outline = (tuple(c1[0]), tuple(c2[1]), tuple(c2[2]), tuple(c1[3]))
    spanning = Sighting("6C", 0.79, outline, face(FIRST).index_corner)
    others = [face(Placement(code, (x, 300.0), 0.0, 170.0)) for code, x in (("9S", 900.0), ("KH", 1300.0))]
    blob = (Blob(np.zeros((0, 2)), (far_corner(SECOND),)),)
    assert len(across_frames(blob, [spanning, *others])) == 1
    assert across_frames(blob, [dataclasses.replace(spanning, confidence=0.95), *others]) == []
    card_sized = face(SECOND, confidence=0.79)  # the second card itself, read unsurely
    assert across_frames(blob, [face(FIRST), card_sized, *others]) == []


def test_a_frame_whose_index_lies_on_no_face_read_is_not_made() -> None:
    # the second card's far corner with no card read under it: its index would lie on nothing read
    elsewhere = face(Placement("9S", (900.0, 300.0), 0.0, 170.0))
    assert across_frames((Blob(np.zeros((0, 2)), (far_corner(SECOND),)),), [elsewhere]) == []


def test_a_corner_traced_inside_a_face_read_gives_none() -> None:
    # a corner on a face's own surface (a pale table's region traced through the hand) is no corner of
    # the stack's outside: here a tenth of a width inside the second card, both cards read
    f = far_corner(SECOND)
    inside = CornerFrame(f.origin + 17.0 * (2 * f.x + f.y), f.x, f.y, f.width)
    assert across_frames((Blob(np.zeros((0, 2)), (inside,)),), [face(FIRST), face(SECOND)]) == []
    outside = CornerFrame(f.origin + 17.0 * (2 * f.x - f.y), f.x, f.y, f.width)  # as far outside it
    assert len(across_frames((Blob(np.zeros((0, 2)), (outside,)),), [face(FIRST), face(SECOND)])) == 1


def test_with_no_face_read_there_is_no_width_to_go_by() -> None:
    assert across_frames((Blob(np.zeros((0, 2)), (far_corner(SECOND),)),), []) == []


def doubled(seed: int, background: str) -> np.ndarray:
    """Four blackjack hands doubled down: two cards each, the third laid sideways across them."""
    cam = SimulatedCamera(
        size=(1920, 1080), background=background, seed=seed, card_width=170, hand_cards=3, double_down=True
    )
    return cam.frame_for(CODES, "hand").image


@pytest.mark.parametrize(("seed", "background"), [(0, "felt"), (1, "felt"), (0, "dark"), (1, "dark")])
def test_doubled_hands_are_read_whole(seed: int, background: str) -> None:
    # the card laid across hides the lower half of both: the finder saw a hand's second index faintly
    # or not at all, and the full read missed one or two cards a frame (session 37)
    rec = Recognizer("table")
    rec.quick = False
    assert Counter(s.card for s in rec.recognize(doubled(seed, background))) == Counter(CODES)


@pytest.mark.parametrize(("seed", "background"), [(2, "dark"), (5, "wood")])
def test_the_quick_read_finds_a_doubled_hands_second_card_too(
    seed: int, background: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # everything the finder's first look showed was explained, and the quick read answered without a
    # hand's second card (session 37): it looks across from that card's far corner as the full read does
    whys: list[str] = []
    real = quick_read.attempt

    def attempt(*args: object) -> tuple[object, str]:
        found, why = real(*args)  # type: ignore[arg-type]
        whys.append(why)
        return found, why

    monkeypatch.setattr(quick_read, "attempt", attempt)
    found = Counter(s.card for s in Recognizer("table").recognize(doubled(seed, background)))
    assert whys == [""]  # answered quickly
    assert found == Counter(CODES)
