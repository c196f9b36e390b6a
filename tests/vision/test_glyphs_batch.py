"""Batched glyph classification (vision/glyphs.py, vision/reader.py) gives exactly the readings of the
glyphs classified one by one: the perceptron ensemble runs its members in one batched product and
the CNN reader runs every glyph of a call in one cv2.dnn forward pass, for speed only."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import CardQuad
from vision.glyphs import Blend, MlpEnsemble, default_model
from vision.index import canvas_of, cut_patch, segment_index
from vision.reader import CnnReader
from vision.render import CardStyle, render_card

CODES = ("AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "8H", "10C")


def _glyphs(code: str, style: CardStyle, width: int) -> list[np.ndarray]:
    """Features of every glyph the segmenter finds in the top-left index of a rendered card."""
    card = render_card(code, width, style)
    h, w = card.image.shape[:2]
    frame = np.full((h + 40, w + 40, 3), 40, np.uint8)
    frame[20 : 20 + h, 20 : 20 + w] = card.image
    quad = CardQuad(np.array([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]], float))
    g = segment_index(cut_patch(frame, quad.frame(0))[0])
    assert g is not None and g.suit is not None, code
    return [g.rank.features, *(a.features for a in g.rank_alternatives), g.suit.features]


@pytest.fixture(scope="module")
def features() -> np.ndarray:
    styles = (
        CardStyle(),
        CardStyle(font=cv2.FONT_HERSHEY_COMPLEX, thickness=3),
        CardStyle(font=cv2.FONT_HERSHEY_SIMPLEX, italic=True, rank_height=0.11, suit_size=0.08),
    )
    out = [f for s in styles for c in CODES for w in (120, 230) for f in _glyphs(c, s, w)]
    return np.stack(out)


def test_the_ensemble_in_one_product_equals_its_members_one_by_one(features: np.ndarray) -> None:
    model = default_model("mlp")
    for head in (model.rank, model.suit):
        assert isinstance(head, MlpEnsemble) and len(head.members) > 1
        batched = head.probabilities(features)
        alone = np.mean([m.probabilities(features) for m in head.members], axis=0)
        assert np.array_equal(batched, alone)
        for i in range(0, len(features), 7):  # a glyph alone reads as within a batch (BLAS rounding aside)
            assert np.allclose(head.probabilities(features[i]), batched[i : i + 1], rtol=1e-4, atol=1e-7)


def test_an_ensemble_of_unlike_members_still_averages_them(features: np.ndarray) -> None:
    big = default_model("mlp").rank
    assert isinstance(big, MlpEnsemble)
    first = big.members[0]
    narrow = type(first)(
        first.mean, first.std, first.w1[:, :64], first.b1[:64], first.w2[:64], first.b2, first.classes
    )
    mixed = MlpEnsemble((first, narrow))
    want = (first.probabilities(features) + narrow.probabilities(features)) / 2
    assert np.allclose(mixed.probabilities(features), want, atol=1e-6)


def test_one_cnn_forward_for_many_glyphs_gives_each_its_own_reading(features: np.ndarray) -> None:
    reader = CnnReader.load()
    canvases = canvas_of(features)
    alone = np.concatenate([reader.joint(canvases[i : i + 1]) for i in range(len(canvases))])
    batched = reader.joint(canvases)
    assert batched.shape == alone.shape
    assert np.array_equal(batched.argmax(axis=1), alone.argmax(axis=1))
    assert np.allclose(batched, alone, atol=1e-6)
    # batches of changing size, as a frame's corners give them
    rng = np.random.default_rng(3)
    i = 0
    while i < len(canvases):
        n = int(rng.integers(1, 5))
        assert np.allclose(reader.joint(canvases[i : i + n]), alone[i : i + n], atol=1e-6)
        i += n


def test_the_default_reader_reads_a_batch_as_it_reads_each_glyph(features: np.ndarray) -> None:
    model = default_model("cnn+mlp")
    assert isinstance(model.rank, Blend)
    for head in (model.rank, model.suit):
        batched = head.probabilities(features)
        alone = np.concatenate([head.probabilities(features[i : i + 1]) for i in range(len(features))])
        assert np.array_equal(batched.argmax(axis=1), alone.argmax(axis=1))
        assert np.allclose(batched, alone, atol=1e-6)
    ranks = model.rank.probabilities(features)[:, :-1].argmax(axis=1)
    assert {model.rank.classes[r] for r in ranks} >= {"A", "10", "Q", "7", "K"}  # real readings, not junk
