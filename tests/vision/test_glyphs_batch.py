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


def test_both_networks_read_a_batch_as_they_read_each_glyph(features: np.ndarray) -> None:
    model = default_model("cnn+mlp")
    assert isinstance(model.rank, Blend) and isinstance(model.suit, Blend)
    for head in (model.rank, model.suit):
        both = Blend(head.cnn, head.mlp)
        batched = both.probabilities(features)
        alone = np.concatenate([both.probabilities(features[i : i + 1]) for i in range(len(features))])
        assert np.array_equal(batched.argmax(axis=1), alone.argmax(axis=1))
        assert np.allclose(batched, alone, atol=1e-6)
        # the default (the CNN asked only where the perceptrons are unsure) reads the same either way
        assert np.array_equal(head.probabilities(features).argmax(axis=1), alone.argmax(axis=1))
    ranks = model.rank.probabilities(features)[:, :-1].argmax(axis=1)
    assert {model.rank.classes[r] for r in ranks} >= {"A", "10", "Q", "7", "K"}  # real readings, not junk


class _CountingHead:
    """A reader head that records how many glyphs it was asked about."""

    def __init__(self, head: object) -> None:
        self.head = head
        self.glyphs = 0

    @property
    def classes(self) -> tuple[str, ...]:
        return self.head.classes  # type: ignore[attr-defined, no-any-return]

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        self.glyphs += len(np.atleast_2d(x))
        return self.head.probabilities(x)  # type: ignore[attr-defined, no-any-return]


def test_the_default_reader_asks_the_cnn_only_where_the_perceptrons_are_unsure(features: np.ndarray) -> None:
    default = default_model("cnn+mlp")
    for head in (default.rank, default.suit):
        assert isinstance(head, Blend) and head.mlp_sure is not None
        counting = _CountingHead(head.cnn)
        cascade = Blend(counting, head.mlp, mlp_sure=head.mlp_sure)  # type: ignore[arg-type]
        both = Blend(head.cnn, head.mlp)  # both networks on every glyph
        pm = head.mlp.probabilities(features)
        sure = pm.max(axis=1) >= head.mlp_sure
        assert 0.3 < sure.mean() < 1.0  # rendered corners: most glyphs are sure, not all
        got = np.concatenate([cascade.probabilities(features[i : i + 1]) for i in range(len(features))])
        full = both.probabilities(features)
        assert counting.glyphs == int((~sure).sum())  # the CNN saw exactly the unsure glyphs
        assert np.array_equal(got.argmax(axis=1), full.argmax(axis=1))  # and every reading is the same
        assert np.allclose(got[~sure], full[~sure], atol=1e-6)
        assert np.allclose(got[sure], pm[sure], rtol=1e-4, atol=1e-7)  # the perceptrons' own reading
        # a call with one unsure glyph among sure ones asks the CNN about all of them, for comparable rows
        i, j = int(np.flatnonzero(sure)[0]), int(np.flatnonzero(~sure)[0])
        assert np.allclose(cascade.probabilities(features[[i, j]]), full[[i, j]], atol=1e-6)
