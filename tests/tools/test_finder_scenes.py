"""The finder's backs-stage scene options (tools/vision/scenes.py): backs with art of their own, a
bigger share of backs, layout weights."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from backgrounds import TRAIN_FAMILIES  # noqa: E402
from scenes import FACE_PX, Deck, make_scene, targets, varied_back  # noqa: E402

from vision.render import CARD_ASPECT  # noqa: E402


def test_varied_backs_are_card_sized_and_patterned() -> None:
    rng = np.random.default_rng(11)
    designs = [varied_back(rng, (240, 240, 235)) for _ in range(30)]
    for img in designs:
        assert img.shape == (int(round(FACE_PX * CARD_ASPECT)), FACE_PX, 3)
        middle = img[img.shape[0] // 4 : -img.shape[0] // 4, FACE_PX // 4 : -FACE_PX // 4]
        assert middle.reshape(-1, 3).std(axis=0).max() > 3  # a texture, never a flat colour
    # many designs, not one: their mean colours spread
    assert np.std([d.mean() for d in designs]) > 15


def test_back_heavy_scene_has_backs_with_their_own_art_and_targets() -> None:
    rng = np.random.default_rng(3)
    decks = [Deck(rng) for _ in range(2)]
    backs = 0
    for _ in range(6):
        s = make_scene(rng, (256, 256), TRAIN_FAMILIES, decks, backs=5000, back_designs=1.0)
        backs += sum(c.code == "BK" for c in s.cards)
        t = targets(s, 4)
        for c in s.cards:  # every card that shows is in the interior target
            assert (s.labels == c.ident).any()
        assert t[0].sum() > 0 or not s.cards
    assert backs >= 6


def test_layout_weights_choose_the_layout() -> None:
    rng = np.random.default_rng(4)
    decks = [Deck(rng)]
    visible = []
    for _ in range(8):  # stacks only: cards pile on each other, most are partly covered
        s = make_scene(rng, (256, 256), TRAIN_FAMILIES, decks, max_cards=8, layout_p=(0, 0, 0, 0, 0, 1))
        visible += [c.visible for c in s.cards]
    assert np.mean(np.array(visible) < 0.95) > 0.6  # the default mix: about half
