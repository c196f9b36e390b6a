"""The back designs the card-side network learns from (``train_card_side.py``): v4's free art
(``art_back``), never plain, and given to a share of the decks without changing anything else."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from train_card_side import art_back, make_decks  # noqa: E402

from vision.render import CARD_ASPECT, CardStyle  # noqa: E402


def test_art_backs_are_card_sized_varied_and_never_plain() -> None:
    rng = np.random.default_rng(5)
    designs = [art_back(rng, CardStyle(), 120) for _ in range(60)]
    for img in designs:
        assert img.shape == (int(round(120 * CARD_ASPECT)), 120, 3)
        middle = img[img.shape[0] // 8 : -img.shape[0] // 8, 15:-15]
        # a plain patch in a thin frame is a felt's printed card box, not a back
        assert middle.reshape(-1, 3).std(axis=0).max() > 20
    assert np.std([d.mean() for d in designs]) > 20


def test_art_backs_go_to_a_share_of_the_decks_and_change_nothing_else() -> None:
    plain = make_decks(np.random.default_rng(9), 40)
    art = make_decks(np.random.default_rng(9), 40, (0.5, np.random.default_rng(1)))
    given = [d.back_art is not None for d in art]
    assert 10 <= sum(given) <= 30
    assert all(d.back_art is None for d in plain)
    for a, b in zip(plain, art, strict=True):
        assert a.style == b.style and a.seed == b.seed
        assert np.array_equal(a.face("7C"), b.face("7C"))
        if b.back_art is not None:
            assert b.face("BK") is b.back_art
        else:
            assert np.array_equal(a.face("BK"), b.face("BK"))


def test_quads_inside_a_faces_middle_are_taught_as_that_face() -> None:
    import scenes
    from backgrounds import TRAIN_FAMILIES
    from train_card_side import FACE, inset_faces, shares

    rng = np.random.default_rng(4)
    decks = make_decks(rng, 2)
    found = 0
    for _ in range(6):
        scene = scenes.make_scene(rng, (640, 480), TRAIN_FAMILIES, decks, max_cards=6, min_card=60)
        cards = [c for c in scene.cards if np.linalg.norm(c.outline[1] - c.outline[0]) >= 16]
        for quad, label, width, kind in inset_faces(rng, scene, cards):
            assert label == FACE and kind == 9
            owner = max(cards, key=lambda c: shares(scene.labels, quad)[0][c.ident])
            assert owner.code not in ("BK", "JK")
            # mostly on that face, and well inside it: at most about two thirds of its area
            assert shares(scene.labels, quad)[0][owner.ident] >= 0.7
            area = cv2.contourArea(quad.astype(np.float32))
            assert area < 0.75 * cv2.contourArea(owner.outline.astype(np.float32))
            assert width == pytest.approx(np.linalg.norm(owner.outline[1] - owner.outline[0]))
            found += 1
    assert found > 0
