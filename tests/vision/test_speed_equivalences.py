"""Faster ways of the recogniser's steps (vision/card_side.py, vision/colour_backs.py, vision/detect.py,
vision/index.py, vision/frame_copies.py, vision/mask_counts.py, vision/outline_sides.py), checked
against the plain computations they replace: they must give the very same numbers."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.card_side import prepare as card_side_prepare
from vision.colour_backs import _median
from vision.corner_refiner import prepare as refiner_prepare
from vision.detect import min_channel
from vision.frame_copies import bilinear, subsampled
from vision.index import darker_than, ink_components, level_counts, percentiles_of_counts
from vision.mask_counts import set_in_both, set_pixels
from vision.outline_sides import side_lengths


@settings(max_examples=200, deadline=None)
@given(
    arrays(np.uint8, st.tuples(st.integers(1, 40), st.integers(1, 30), st.just(3))),
    st.integers(0, 2**32 - 1),
    st.lists(st.floats(0.0, 100.0), min_size=1, max_size=3),
)
def test_percentiles_and_medians_under_a_mask_are_numpys(
    image: np.ndarray, seed: int, qs: list[float]
) -> None:
    mask = (np.random.default_rng(seed).random(image.shape[:2]) < 0.5).astype(np.uint8)
    mask.flat[0] = 1  # at least one pixel
    for c in range(3):
        values = image[..., c][mask > 0]
        counts = cv2.calcHist([image], [c], mask, [256], [0, 256])
        assert percentiles_of_counts(counts, tuple(qs)) == np.percentile(values, qs).tolist()
        assert _median(image, c, mask) == int(np.median(values).astype(np.uint8))


def test_subsampled_is_numpys_stride() -> None:
    rng = np.random.default_rng(3)
    for h, w in ((360, 640), (1080, 1920), (2, 2), (180, 4), (7, 9), (6, 9), (9, 6), (16, 24)):
        for shape in ((h, w, 3), (h, w)):
            image = rng.integers(0, 256, shape, dtype=np.uint8)
            for step in (2, 3, 8):
                sub = subsampled(image, step)
                assert sub.flags.c_contiguous and np.array_equal(sub, image[::step, ::step])


def test_bilinear_shrinking_by_an_odd_factor_is_cv2s() -> None:
    rng = np.random.default_rng(5)
    for (h, w), size in (
        ((1080, 1920), (640, 360)),
        ((1080, 1920), (384, 216)),
        ((45, 75), (25, 15)),
        ((720, 1280), (640, 360)),
        ((720, 1280), (426, 240)),
        ((33, 21), (7, 11)),
    ):
        image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        assert np.array_equal(bilinear(image, size), cv2.resize(image, size, interpolation=cv2.INTER_LINEAR))


@settings(max_examples=200, deadline=None)
@given(arrays(np.uint8, st.tuples(st.integers(1, 120), st.integers(1, 70))))
def test_level_counts_are_numpys_bincount(values: np.ndarray) -> None:
    assert np.array_equal(level_counts(values), np.bincount(values.ravel(), minlength=256))
    assert np.array_equal(level_counts(values[:, ::2]), np.bincount(values[:, ::2].ravel(), minlength=256))


@settings(max_examples=200, deadline=None)
@given(
    arrays(np.uint8, st.tuples(st.integers(1, 60), st.integers(1, 40))),
    st.one_of(st.integers(-5, 260).map(float), st.floats(-5.0, 260.0)),
)
def test_darker_than_is_a_comparison(lo: np.ndarray, level: float) -> None:
    assert np.array_equal(darker_than(lo, level), (lo < level).astype(np.uint8))


@settings(max_examples=200, deadline=None)
@given(arrays(np.bool_, st.tuples(st.integers(1, 99), st.integers(1, 57))))
def test_ink_components_are_cv2s_32_bit_labels(ink: np.ndarray) -> None:
    image = ink.astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(image, connectivity=8)
    n16, labels16, stats16 = ink_components(image)
    assert n16 == n and np.array_equal(labels16, labels) and np.array_equal(stats16, stats)


def test_min_channel_of_a_crop_is_numpys_minimum() -> None:
    image = np.random.default_rng(7).integers(0, 256, (90, 120, 3), dtype=np.uint8)
    for crop in (image, image[5:60, 7:100], image[::2, 1::3], image[:1, :1]):
        assert np.array_equal(min_channel(crop), crop.min(axis=2))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_mask_counts_are_numpys_sums(h: int, w: int, seed: int, share: float) -> None:
    rng = np.random.default_rng(seed)
    a = (rng.random((h, w)) < share).astype(np.uint8)
    b = (rng.random((h, w)) < 0.5).astype(np.uint8)
    assert set_pixels(a) == int(a.sum())
    assert set_in_both(a, b) == int((a & b).sum())
    assert set_in_both(a[1:, :-1], b[:-1, 1:]) == int((a[1:, :-1] & b[:-1, 1:]).sum())


def _standardised_plainly(patches: np.ndarray) -> np.ndarray:
    x = patches.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    return np.ascontiguousarray(((x - mean) / (std + 4.0)).transpose(0, 3, 1, 2))


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 60),
    st.sampled_from([(44, 32), (48, 48), (56, 40), (3, 5)]),
    st.integers(0, 2**32 - 1),
    st.integers(1, 255),
)
def test_patches_standardised_as_numpy_standardises_them(
    k: int, size: tuple[int, int], seed: int, spread: int
) -> None:
    rng = np.random.default_rng(seed)
    patches = rng.integers(0, spread + 1, (k, *size, 3), dtype=np.uint8)
    got = card_side_prepare(patches)
    assert got.flags.c_contiguous and got.dtype == np.float32
    assert np.array_equal(got, _standardised_plainly(patches))
    assert np.array_equal(refiner_prepare(patches), got)


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(3, 8), st.just(2)), elements=st.floats(-5000.0, 5000.0)))
def test_side_lengths_are_numpys_norms(outline: np.ndarray) -> None:
    expected = np.linalg.norm(outline - np.roll(outline, 1, axis=0), axis=1)
    assert side_lengths(outline).tolist() == expected.tolist()
