"""The learned card finder and the synthetic scenes it is trained and measured on.

The scene generator lives in tools/vision (dev-only, OpenCV + numpy); its ground truth must agree
with the pixels it draws, or the finder learns the wrong thing.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import Recognizer, SimulatedCamera
from vision.errors import VisionError
from vision.finder import (
    MODEL_PATH,
    STRIDE,
    FinderMaps,
    FinderModel,
    default_finder,
    find_cards,
    index_frames,
    snap_to_edges,
)
from vision.render import CARD_ASPECT
from vision.sighting import is_card_code

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from backgrounds import HELD_OUT_FAMILIES, LIGHT, TRAIN_FAMILIES  # noqa: E402
from scenes import Deck, corner_affine, make_scene, regression_targets, targets  # noqa: E402
from train_finder import normalise  # noqa: E402


@pytest.fixture(scope="module")
def scenes() -> list:
    rng = np.random.default_rng(4242)
    decks = [Deck(rng) for _ in range(2)]
    return [make_scene(rng, (320, 240), TRAIN_FAMILIES, decks) for _ in range(6)]


def test_held_out_families_are_never_training_families() -> None:
    assert not set(HELD_OUT_FAMILIES) & set(TRAIN_FAMILIES)
    assert any(f in LIGHT for f in HELD_OUT_FAMILIES)  # the hard case is held out too
    assert sum(f in LIGHT for f in TRAIN_FAMILIES) >= len(TRAIN_FAMILIES) / 3


def test_scene_truth_agrees_with_its_label_map(scenes: list) -> None:
    seen = 0
    for s in scenes:
        assert s.image.shape[:2] == s.labels.shape
        idents = {c.ident for c in s.cards}
        assert set(np.unique(s.labels)) - {0} <= idents  # every labelled pixel belongs to a known card
        for c in s.cards:
            assert is_card_code(c.code)
            assert 0 < c.visible <= 1
            ys, xs = np.nonzero(s.labels == c.ident)
            poly = c.outline.astype(np.float32).reshape(-1, 1, 2)
            # every visible pixel of a card lies inside (or on) its outline
            pts = zip(xs[::7], ys[::7], strict=True)
            d = [cv2.pointPolygonTest(poly, (float(x), float(y)), True) for x, y in pts]
            assert min(d) > -1.5
            side = np.linalg.norm(c.outline[1] - c.outline[0])
            for q in c.index_quads:  # indices lie inside the card, near a corner
                for p in q:
                    assert cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), True) > -0.02 * side
            seen += 1
    assert seen >= 5


def test_targets_mark_interior_boundary_and_visible_indices(scenes: list) -> None:
    for s in scenes:
        t = targets(s, 2)
        h, w = s.labels.shape
        assert t.shape == (3, h // 2, w // 2)
        lab = cv2.resize(s.labels.astype(np.float32), (w // 2, h // 2), interpolation=cv2.INTER_NEAREST)
        assert np.array_equal(t[0] > 0, lab > 0)
        assert not np.any((t[1] > 0) & (cv2.dilate((lab > 0).astype(np.uint8), np.ones((3, 3))) == 0))
        shown = sum(sum(c.index_visible) for c in s.cards)
        assert (t[2].max() > 0.9) == (shown > 0) or shown == 0


def _visible_corners(scene) -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray, bool]]:
    """(code, corner, short-edge vector, long-edge vector, mirrored) of every index that shows."""
    out = []
    for c in scene.cards:
        for k, shows in enumerate(c.index_visible):
            if shows:
                corner, s, long = corner_affine(c.outline, k)
                out.append((c.code, corner, s, long, k >= 2))
    return out


def test_regression_targets_point_from_each_index_to_its_card_corner(scenes: list) -> None:
    checked = 0
    for s in scenes:
        reg = regression_targets(s, STRIDE)
        h, w = s.labels.shape
        assert reg.shape == (7, h // STRIDE, w // STRIDE)
        ys, xs = np.nonzero(reg[6])
        corners = [v[1] for v in _visible_corners(s)]
        assert (len(ys) > 0) == bool(corners)
        for y, x in zip(ys, xs, strict=True):  # every weighted pixel names one true corner exactly
            p = np.array([(x + 0.5) * STRIDE - 0.5, (y + 0.5) * STRIDE - 0.5]) + reg[:2, y, x]
            assert min(np.linalg.norm(p - c) for c in corners) < 1e-3
            checked += 1
    assert checked > 50


def _truth_maps(scene) -> FinderMaps:
    """What a perfect network would say about ``scene``."""
    h, w = scene.labels.shape
    reg = normalise(regression_targets(scene, STRIDE)[None])[0]
    return FinderMaps(targets(scene, STRIDE), reg[:7], 1.0, (w, h))


def test_decoding_perfect_maps_gives_every_true_corner_frame() -> None:
    # corner + short edge + long edge give the reading frame; a four-index deck's mirrored corners
    # (left-handed on screen) are read sideways
    rng = np.random.default_rng(31)
    decks = [Deck(rng) for _ in range(3)]
    seen = mirrored = 0
    for _ in range(10):
        s = make_scene(rng, (640, 480), TRAIN_FAMILIES, decks, min_card=50)
        frames = index_frames(_truth_maps(s))
        for _code, corner, short, long, mirror in _visible_corners(s):
            width = float(np.linalg.norm(short))
            near = [f for f in frames if np.linalg.norm(f.frame.origin - corner) < 0.02 * width]
            assert near, (corner, width)
            f = near[0]
            assert f.sideways == mirror
            assert abs(f.frame.width - width) < 0.02 * width
            m = f.frame.card_to_image()  # the card's edges, in the frame's own axes
            along_short, along_long = (m[:2, 1], m[:2, 0]) if mirror else (m[:2, 0], m[:2, 1])
            assert np.linalg.norm(along_short - short) < 0.02 * width
            assert np.linalg.norm(along_long - long) < 0.02 * width
            seen += 1
            mirrored += mirror
    assert seen >= 20 and mirrored >= 2


def test_the_shipped_finder_loads_with_cv2_dnn_and_is_small() -> None:
    assert MODEL_PATH.stat().st_size < 10 * 1024 * 1024
    model = FinderModel()
    prob, scale = model.maps(np.full((300, 400, 3), 128, np.uint8), 512)
    assert prob.shape == (3, 300, 400) and scale == 1.0
    assert prob.min() >= 0 and prob.max() <= 1
    m = model.run(np.full((1080, 1920, 3), 128, np.uint8), 512)
    assert m.prob.shape == (3, 72, 128) and m.reg.shape == (7, 72, 128) and m.scale == 1920 / 512


def test_a_missing_or_corrupt_model_is_a_clear_vision_error(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="not found"):
        FinderModel(tmp_path / "nothing.onnx")
    bad = tmp_path / "finder.onnx"
    bad.write_bytes(b"not an onnx file" * 64)
    with pytest.raises(VisionError, match="could not be loaded"):
        FinderModel(bad)


def _held_out_recall(n_scenes: int) -> tuple[int, int]:
    """Cards (at least 60 px wide, an index showing) on held-out scenes whose corner frame the
    shipped finder gives: an index frame at one of the card's visible index corners."""
    rng = np.random.default_rng(90210)  # a seed, and table families, training never used
    deck = Deck(rng)
    found = wanted = 0
    model = default_finder()
    for _ in range(n_scenes):
        s = make_scene(rng, (800, 600), HELD_OUT_FAMILIES, [deck], max_cards=8, min_card=60)
        frames = index_frames(model.run(s.image, 512))
        by_card: dict[int, bool] = {}
        for c in s.cards:
            width = float(np.linalg.norm(c.outline[1] - c.outline[0]))
            if width < 60 or not any(c.index_visible):
                continue
            hit = False
            for k, shows in enumerate(c.index_visible):
                corner, short, _ = corner_affine(c.outline, k)
                hit |= shows and any(
                    np.linalg.norm(f.frame.origin - corner) < 0.1 * width
                    and abs(f.frame.width - width) < 0.35 * width
                    for f in frames
                )
            by_card[c.ident] = hit
        wanted += len(by_card)
        found += sum(by_card.values())
    return found, wanted


def test_the_finder_gives_corner_frames_of_most_cards_on_held_out_scenes() -> None:
    # the segmentation finder this one replaced gave such a corner (of a whole-card quad or a traced
    # corner) for 24 of these 38 cards; `dealer vision eval` on the held-out benchmark measures the
    # rest end to end
    found, wanted = _held_out_recall(20)
    assert wanted >= 30
    assert found >= 0.72 * wanted, (found, wanted)  # this finder: 30 of 38


def test_edges_snap_back_onto_a_card_outline() -> None:
    img = np.full((400, 400, 3), 60, np.uint8)
    true = np.array([[120, 80], [260, 90], [250, 286], [110, 276]], float)
    cv2.fillConvexPoly(img, true.astype(np.int32), (235, 235, 235), cv2.LINE_AA)
    off = true + np.array([[4, -3], [3, 4], [-4, 3], [-3, -4]])
    snapped = snap_to_edges(img, off, 8)
    assert np.abs(snapped - true).max() < 1.5
    assert np.abs(off - true).max() > 3


def test_a_narrow_quad_beside_one_strong_edge_is_not_folded_into_a_line() -> None:
    # a 16-px-wide guess straddling a table edge, sides searched 16 px either way: both long sides find
    # that one edge. Folded into a line, the quad had no area and the card-side network refused it (a
    # held-out photo, seed 7900, failed to read at all)
    img = np.full((200, 200, 3), 40, np.uint8)
    img[:, 100:] = 230
    quad = np.array([[92, 60], [108, 60], [108, 100], [92, 100]], float)
    snapped = snap_to_edges(img, quad, 16)
    area = cv2.contourArea(snapped.astype(np.float32))
    assert area >= 0.5 * 16 * 40, snapped


@pytest.mark.parametrize("finder", ["learned", "both"])
def test_same_cards_from_a_frame_and_its_4x_upscale(finder: str) -> None:
    cam = SimulatedCamera(size=(640, 480), background="wood", seed=3, card_width=110)
    shot = cam.frame_for(["AS", "10H", "QD", "7C"], "scatter")
    rec = Recognizer("table", finder=finder)  # type: ignore[arg-type]
    small = Counter(s.card for s in rec.recognize(shot.image))
    big = cv2.resize(shot.image, (2560, 1920), interpolation=cv2.INTER_CUBIC)
    large = rec.recognize(big)
    assert Counter(s.card for s in large) == small == Counter(shot.codes)
    for s in large:  # outlines come back in the big frame's own pixels
        assert max(np.ptp(np.array(s.outline), axis=0)) > 4 * 110 * 0.8


def test_a_card_on_a_white_table_is_found() -> None:
    img = np.full((720, 960, 3), (226, 229, 231), np.uint8)
    from vision.render import render_card

    card = render_card("KH", 200)
    h = int(200 * CARD_ASPECT)
    src = np.array([[0, 0], [200, 0], [200, h], [0, h]], np.float32)
    dst = np.array([[380, 200], [570, 230], [540, 500], [350, 470]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(card.image, m, (960, 720))
    alpha = cv2.warpPerspective(card.mask, m, (960, 720)).astype(np.float32)[..., None] / 255
    shadow = np.roll(cv2.GaussianBlur(alpha, (0, 0), 3), (3, 3), axis=(0, 1))[..., None]  # a card is not flat
    img = (img * (1 - 0.25 * shadow) * (1 - alpha) + warped * alpha).astype(np.uint8)
    det = find_cards(img)
    assert len(det.quads) == 1
    assert np.linalg.norm(det.quads[0].corners.mean(axis=0) - dst.mean(axis=0)) < 0.1 * 200
    frames = index_frames(default_finder().run(img, 512))
    assert any(np.linalg.norm(dst - f.frame.origin, axis=1).min() < 0.06 * 200 for f in frames)
    assert [s.card for s in Recognizer("table", finder="learned").recognize(img)] == ["KH"]


def test_the_finder_gives_the_same_maps_from_several_threads() -> None:
    import threading

    cam = SimulatedCamera(size=(640, 480), background="felt", seed=9, card_width=120)
    image = cam.frame_for(["AS", "KD", "7C"], "scatter").image
    model = FinderModel()
    want = model.maps(image, 512)[0]
    got: list[np.ndarray] = []
    start = threading.Barrier(3)

    def run() -> None:
        start.wait()  # all three networks run at once
        for _ in range(3):
            got.append(model.maps(image, 512)[0])

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 9 and all(np.allclose(g, want, atol=1e-5) for g in got)
