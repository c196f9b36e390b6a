"""The corner refiner: a displaced corner frame is pulled back onto the card's true corner.

Scenes are the project's own renders (held-out table families and a seed no training uses: these
tests measure, they do not train).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.corner_refiner import CornerRefiner, RefinerError, frame_axes, refine
from vision.errors import ModelError
from vision.finder import IndexFrame, frame_from_vectors
from vision.render import CardStyle, render_card

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from backgrounds import HELD_OUT_FAMILIES  # noqa: E402
from scenes import Deck, corner_affine, make_scene  # noqa: E402


def _rot(deg: float) -> np.ndarray:
    a = np.radians(deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def _displaced(corner: np.ndarray, s: np.ndarray, long: np.ndarray, du: float, dv: float) -> IndexFrame:
    """The frame of a corner moved (du, dv) card widths along its edges, turned 3° and 10 % too wide."""
    r = _rot(3.0) * 1.1
    return frame_from_vectors(corner + du * s + dv * long, r @ s, r @ long)


def _error(f: IndexFrame, corner: np.ndarray, s: np.ndarray, long: np.ndarray) -> float:
    """How far the frame's corner is from ``corner``, in card widths along the true edges."""
    return float(np.linalg.norm(np.linalg.solve(np.stack([s, long], 1), frame_axes(f)[0] - corner)))


@pytest.fixture(scope="module")
def one_card() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A 7 of hearts 110 px wide, turned 25°, on a green cloth: (image, corner, s, long)."""
    rng = np.random.default_rng(5)
    image = np.clip(rng.normal((40, 110, 40), 8, (480, 640, 3)), 0, 255).astype(np.uint8)
    card = render_card("7H", 220, CardStyle(), seed=1)
    corner = np.array([260.0, 120.0])
    s, long = _rot(25.0) @ np.array([110.0, 0.0]), _rot(25.0) @ np.array([0.0, 110.0])
    m = np.column_stack([s / 220, long / 220, corner])
    face = cv2.warpAffine(card.image, m, (640, 480), flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(card.mask.astype(np.float32), m, (640, 480))[..., None]
    alpha /= max(1.0, float(alpha.max()))
    image = (image * (1 - alpha) + face * alpha).astype(np.uint8)
    return image, corner, s, long


@pytest.mark.parametrize(("du", "dv"), [(0.07, 0.05), (-0.06, 0.04), (0.03, -0.07)])
def test_a_displaced_corner_is_pulled_back_to_the_card_corner(one_card: tuple, du: float, dv: float) -> None:
    image, corner, s, long = one_card
    start = _displaced(corner, s, long, du, dv)
    assert _error(start, corner, s, long) > 0.05
    (out,) = refine(image, [start])
    assert _error(out, corner, s, long) < 0.025
    assert out.frame.width == pytest.approx(110.0, rel=0.08)
    x = out.frame.x  # the short edge, upright: along the card's own short edge within a few degrees
    assert abs(float(np.degrees(np.arctan2(x[1], x[0]))) - 25.0) < 2.5


def test_a_mirrored_corner_stays_mirrored(one_card: tuple) -> None:
    """A four-index deck's top-right corner: its frame is left-handed on screen (read sideways)."""
    image, corner, s, long = one_card
    c = corner + s  # the top-right corner; the short edge runs back to the left
    start = _displaced(c, -s, long, 0.05, 0.05)
    assert start.sideways
    (out,) = refine(image, [start])
    assert out.sideways
    assert _error(out, c, -s, long) < 0.03


def test_refined_frames_keep_order_and_handedness_and_empty_is_empty(one_card: tuple) -> None:
    image, corner, s, long = one_card
    frames = [_displaced(corner, s, long, 0.05, 0.0), _displaced(corner + s, -s, long, 0.0, 0.05)]
    out = refine(image, frames)
    assert [f.sideways for f in out] == [False, True]
    assert _error(out[0], corner, s, long) < 0.03
    assert _error(out[1], corner + s, -s, long) < 0.03
    assert refine(image, []) == []


def test_scene_corners_come_closer_to_the_truth() -> None:
    """Every visible index corner of a few held-out-family scenes, each frame displaced about as far
    as the finder's typical error (0.06 card widths): most come back within 0.03."""
    rng = np.random.default_rng(9090)
    decks = [Deck(rng) for _ in range(2)]
    before, after = [], []
    for _ in range(3):
        scene = make_scene(rng, (640, 480), HELD_OUT_FAMILIES, decks, max_cards=6, min_card=45)
        truths, frames = [], []
        for c in scene.cards:
            for k, shows in enumerate(c.index_visible):
                corner, s, long = corner_affine(c.outline, k)
                if shows and np.linalg.norm(s) >= 45:
                    a = rng.uniform(0, 2 * np.pi)
                    truths.append((corner, s, long))
                    frames.append(_displaced(corner, s, long, 0.06 * np.cos(a), 0.06 * np.sin(a)))
        for f, g, t in zip(frames, refine(scene.image, frames), truths, strict=True):
            before.append(_error(f, *t))
            after.append(_error(g, *t))
    assert len(after) >= 6
    assert np.median(after) < 0.5 * np.median(before)
    assert np.mean(np.array(after) <= 0.03) >= 0.6


def test_bad_input_gets_a_clear_error(one_card: tuple, tmp_path: Path) -> None:
    image, corner, s, long = one_card
    frame = _displaced(corner, s, long, 0.0, 0.0)
    with pytest.raises(RefinerError, match="BGR image"):
        refine(image[..., 0], [frame])
    with pytest.raises(RefinerError, match="BGR image"):
        refine(image.astype(np.float32), [frame])
    with pytest.raises(RefinerError, match="IndexFrame"):
        refine(image, [frame.frame])  # type: ignore[list-item]
    with pytest.raises(ValueError):  # a RefinerError is a ValueError too
        refine("frame.jpg", [frame])  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="corner refiner"):
        CornerRefiner.load(tmp_path / "missing.onnx")
