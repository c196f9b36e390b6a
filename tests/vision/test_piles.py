"""Piles: cards dropped on one another a little askew make one region, whose outline a finder
traces as one card. Its corner at the top card reads that card surely; the corner at the far end
shows the index of a card beneath. A whole card's two indices look alike; where they do not, the far
corner is read too, and a different card there means the outline spans more than one card."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from vision import Recognizer, index_frames
from vision.recognizer import _IndexCorners

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "vision"))
from backgrounds import TRAIN_FAMILIES  # noqa: E402
from scenes import READABLE, Deck, make_scene  # noqa: E402


def _scene(seed: int) -> tuple[np.ndarray, Counter[str]]:
    """A rendered training-family scene (the generator's own seed) and the codes a reader must find."""
    rng = np.random.default_rng(seed)
    scene = make_scene(rng, (1280, 960), TRAIN_FAMILIES, [Deck(rng)], max_cards=8, min_card=READABLE)
    wanted = Counter(
        c.code
        for c in scene.cards
        if np.linalg.norm(c.outline[1] - c.outline[0]) >= READABLE
        and (any(c.index_visible) or (c.code == "BK" and c.shown > 0.5))
    )
    return scene.image, wanted


# each a pile of two or three faces with one card's index showing beneath the top card's outline
@pytest.mark.parametrize("seed", [15, 208, 330])
def test_a_card_beneath_a_piles_top_card_is_read(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    image, wanted = _scene(seed)
    rec = Recognizer("table")
    assert Counter(s.card for s in rec.recognize(image)) == wanted
    # taking one sure corner for the whole outline, as before, loses the card beneath (which the probe
    # across a traced far corner, session 38, and the look over an outline a hand wide, session 39,
    # may find again: both off here). The full read's rule: the quick read (which reads the first
    # look's frames alone, and since session 44 answers some such piles) is off too
    monkeypatch.setattr(_IndexCorners, "alike", lambda self, a, b: True)
    rec.across_probe = False
    rec.quick = False
    monkeypatch.setattr(index_frames, "OVERSIZED", float("inf"))
    read = Counter(s.card for s in rec.recognize(image))
    assert sum((read & wanted).values()) < sum(wanted.values())
