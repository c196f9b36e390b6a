"""Glyph description and the darkest channel (vision/index.py, vision/detect.py), rewritten for speed:
checked against plain reference computations written out here."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.detect import CardQuad, min_channel
from vision.index import (
    BINS,
    CELL,
    GLYPH,
    IndexGlyphs,
    _describe,
    _mean_of,
    cut_patch,
    hog,
    hog_many,
    interpolated_percentiles,
    segment_index,
)
from vision.render import CardStyle, render_card


def _hog_reference(canvas: np.ndarray) -> np.ndarray:
    """HOG as specified: central-difference gradients, 9 unsigned orientation bins weighted by magnitude
    in 6×6-pixel cells, then every 2×2 block of cells L2-normalised (ε = 1e-3), blocks row by row."""
    img = canvas.astype(np.float64)
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    # ksize=1 Sobel: I(x+1) - I(x-1), the border reflected (OpenCV's BORDER_REFLECT_101)
    pad = np.pad(img, 1, mode="reflect")
    gx = pad[1:-1, 2:] - pad[1:-1, :-2]
    gy = pad[2:, 1:-1] - pad[:-2, 1:-1]
    mag = np.hypot(gx, gy)
    ang = np.degrees(np.arctan2(gy, gx)) % 360.0
    n = GLYPH // CELL
    hist = np.zeros((n, n, BINS))
    for y in range(GLYPH):
        for x in range(GLYPH):
            b = int((ang[y, x] % 180.0) / (180.0 / BINS)) % BINS
            hist[y // CELL, x // CELL, b] += mag[y, x]
    out = []
    for i in range(n - 1):
        for j in range(n - 1):
            v = hist[i : i + 2, j : j + 2].ravel()
            out.append(v / (np.linalg.norm(v) + 1e-3))
    return np.concatenate(out)


def test_hog_matches_the_block_by_block_definition() -> None:
    rng = np.random.default_rng(5)
    canvases = [rng.integers(0, 256, (GLYPH, GLYPH), dtype=np.uint8) for _ in range(5)]
    ring = np.zeros((GLYPH, GLYPH), np.uint8)
    yy, xx = np.mgrid[:GLYPH, :GLYPH]
    ring[(np.hypot(yy - 11.5, xx - 11.5) - 7).__abs__() < 2] = 255  # a smooth "O": every orientation
    canvases += [ring, np.zeros((GLYPH, GLYPH), np.uint8)]
    for c in canvases:
        got = hog(c)
        assert got.dtype == np.float32 and got.shape == ((GLYPH // CELL - 1) ** 2 * 4 * BINS,)
        # cv2's cartToPolar angle is accurate to ~0.3°: a bin may differ for a pixel on a bin edge
        want = _hog_reference(c)
        assert np.mean(np.abs(got - want) < 1e-3) > 0.97
        assert np.allclose(
            np.linalg.norm(got.reshape(9, -1), axis=1), np.linalg.norm(want.reshape(9, -1), axis=1), atol=1e-3
        )


def test_a_glyph_is_described_from_its_own_box_only() -> None:
    rng = np.random.default_rng(2)
    ink = np.zeros((99, 57), np.uint8)
    ink[10:40, 5:25] = rng.integers(0, 256, (30, 20), dtype=np.uint8)
    noisy = ink.copy()
    noisy[50:, :] = 255  # ink elsewhere in the patch (the suit, a pip) must not change the description
    box = (5, 10, 20, 30)
    assert np.array_equal(_describe(ink, box), _describe(noisy, box))


@pytest.mark.parametrize("shape", [(1, 1, 3), (1, 4, 3), (7, 5, 3), (480, 640, 3)])
def test_min_channel_is_the_darkest_channel(shape: tuple[int, int, int]) -> None:
    img = np.random.default_rng(1).integers(0, 256, shape, dtype=np.uint8)
    assert np.array_equal(min_channel(img), img.min(axis=2))
    view = img[::2, 1::3]  # a strided view, as a window or a crop of a frame
    assert np.array_equal(min_channel(view), view.min(axis=2))
    f = img.astype(np.float32) / 3.0  # other dtypes keep working
    assert np.array_equal(min_channel(f), f.min(axis=2))


def test_segmenting_an_empty_patch_finds_no_index() -> None:
    assert segment_index(np.full((99, 57, 3), 240, np.uint8)) is None


def test_mean_of_selected_integers_is_the_float32_mean() -> None:
    rng = np.random.default_rng(4)
    for shape in ((99, 57), (12, 9), (1, 1)):
        values = rng.integers(-255, 256, shape).astype(np.int16)
        where = rng.random(shape) < 0.6
        want = float(np.mean(values[where].astype(np.float32))) if where.any() else 0.0
        assert _mean_of(values, where) == want
    assert _mean_of(np.ones((3, 3), np.int16), np.zeros((3, 3), bool)) == 0.0


@settings(max_examples=300, deadline=None)
@given(
    arrays(np.uint8, st.tuples(st.integers(1, 50), st.integers(1, 30))),
    st.lists(st.floats(0.0, 100.0), min_size=1, max_size=4),
)
def test_interpolated_percentiles_are_numpys_to_the_bit(values: np.ndarray, qs: list[float]) -> None:
    # has_ink asks this of every corner patch: the fast way must decide exactly as np.percentile did
    assert interpolated_percentiles(values, tuple(qs)) == np.percentile(values, qs).tolist()


def test_interpolated_percentiles_of_a_patch_with_few_levels() -> None:
    # ties between neighbouring order statistics (a patch of paper and one ink level) are the usual case
    patch = np.full((50, 29), 235, np.uint8)
    patch[10:30, 3:9] = 40
    assert interpolated_percentiles(patch, (3, 90)) == np.percentile(patch, (3, 90)).tolist()
    with pytest.raises(ValueError, match="no values"):
        interpolated_percentiles(np.zeros((0, 3), np.uint8), (50,))


def _index_of(code: str, cast: tuple[int, int, int] = (0, 0, 0)) -> IndexGlyphs:
    card = render_card(code, 200, CardStyle())
    h, w = card.image.shape[:2]
    frame = np.full((h + 40, w + 40, 3), 40, np.uint8)
    frame[20 : 20 + h, 20 : 20 + w] = card.image
    tinted = np.clip(frame.astype(np.int16) + np.array(cast, np.int16), 0, 255).astype(np.uint8)
    quad = CardQuad(np.array([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]], float))
    g = segment_index(cut_patch(tinted, quad.frame(0))[0])
    assert g is not None and g.suit is not None
    return g


@pytest.mark.parametrize("cast", [(0, 0, 0), (-25, -10, 20)])  # BGR: a warm (reddish) light
def test_red_ink_is_told_from_black_under_a_colour_cast(cast: tuple[int, int, int]) -> None:
    for red, black in (("QH", "QS"), ("7D", "7C")):
        r, b = _index_of(red, cast), _index_of(black, cast)
        assert r.suit is not None and b.suit is not None
        assert r.suit.redness > 0.3 and r.rank.redness > 0.3, red
        assert abs(b.suit.redness) < 0.1 and abs(b.rank.redness) < 0.1, black


def test_hog_of_many_canvases_is_each_canvas_hog() -> None:
    rng = np.random.default_rng(8)
    canvases = rng.integers(0, 256, (5, GLYPH, GLYPH), dtype=np.uint8)
    together = hog_many(canvases)
    assert together.shape == (5, (GLYPH // CELL - 1) ** 2 * 4 * BINS)
    for c, row in zip(canvases, together, strict=True):
        assert np.array_equal(hog(c), row)
