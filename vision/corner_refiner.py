"""Refine the learned finder's corner frames at full resolution with a small CNN run by ``cv2.dnn``.

The finder regresses each corner from maps at a quarter of a ~512 px working size: often a few
hundredths of a card width off, which the index reader does not forgive. :func:`refine` cuts a
canonical patch through each frame's own affine from the full-resolution frame (card coordinates
u, v in [``LO``, ``LO + SPAN``] card widths round the corner, so the corner, both edges near it and
the index are inside) and the network (``vision/models/corner_refiner.onnx``, trained only on the
project's synthetic scenes, see ``CORNER_REFINER.md``) says where, in that patch's coordinates, the
true corner and edge vectors are. Applied ``PASSES`` times, each from the last pass's frame.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.card_side import prepare as standardised
from vision.detect import frame_key
from vision.errors import VisionError
from vision.finder import IndexFrame, frame_from_vectors
from vision.frame_copies import remembered_each, resized
from vision.onnx_nets import OnnxNet, check_bgr, load_checked

N = 48  # patch side, pixels (60 per card width: a 50 px card's corner is not shrunk at all)
LO, SPAN = -0.3, 0.8  # card widths covered by the patch along both edges, from the corner
OUT = 6  # corner offset (du, dv), then the edge-vector correction matrix minus the identity
PASSES = 2
_MAX_SHIFT = 0.3  # card widths: a frame further off than this is not the network's to fix


class RefinerError(VisionError, ValueError):
    """``refine`` was given something that is not a BGR image or not index frames."""


def frame_axes(f: IndexFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The corner of ``f`` and its short- and long-edge vectors (pixels per card width): the local
    affine of the frame's homography at the corner."""
    h = f.frame.card_to_image()
    o = h[:2, 2] / h[2, 2]
    jac = (h[:2, :2] - np.outer(o, h[2, :2])) / h[2, 2]
    x, y = jac[:, 0], jac[:, 1]
    return (o, y, x) if f.sideways else (o, x, y)


def patch_matrix(corner: np.ndarray, s: np.ndarray, long: np.ndarray) -> np.ndarray:
    """2×3 matrix taking patch pixels (column, row) to image pixels: column j is card u, row i is v."""
    d = SPAN / N
    off = LO + 0.5 * d  # card coordinate of the first pixel's centre
    return np.array(
        [
            [s[0] * d, long[0] * d, corner[0] + off * (s[0] + long[0])],
            [s[1] * d, long[1] * d, corner[1] + off * (s[1] + long[1])],
        ]
    )


class Pyramid:
    """An image and its halvings (each a 2×2 average), made as they are first needed."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]

    def level(self, k: int) -> tuple[np.ndarray, float, float]:
        """Level ``k`` (or the smallest there is) and its scale along x and y from level 0."""
        while len(self.levels) <= k and min(self.levels[-1].shape[:2]) >= 4:
            h, w = self.levels[-1].shape[:2]
            self.levels.append(resized(self.levels[-1], (w // 2, h // 2)))
        im = self.levels[min(k, len(self.levels) - 1)]
        return im, im.shape[1] / self.levels[0].shape[1], im.shape[0] / self.levels[0].shape[0]


def sample_patch(
    image: np.ndarray | Pyramid, corner: np.ndarray, s: np.ndarray, long: np.ndarray
) -> np.ndarray:
    """The N × N canonical patch of a corner. Where the card is much bigger than the patch it is
    cut from a halving of the image (no aliasing: at most 1.5 image pixels per patch pixel), from a
    region round the corner only; edges are replicated outside the image."""
    pyr = image if isinstance(image, Pyramid) else Pyramid(image)
    m = patch_matrix(corner, s, long)
    step = max(float(np.hypot(m[0, 0], m[1, 0])), float(np.hypot(m[0, 1], m[1, 1])))  # image px per patch px
    k = int(np.ceil(np.log2(step / 1.5))) if step > 1.5 else 0
    im, fx, fy = pyr.level(k)
    if k:
        m = np.array([[fx, 0, 0.5 * fx - 0.5], [0, fy, 0.5 * fy - 0.5]]) @ np.vstack([m, [0, 0, 1]])
    ih, iw = im.shape[:2]
    xs = m[0, 2] + N * np.array([0.0, m[0, 0], m[0, 1], m[0, 0] + m[0, 1]])
    ys = m[1, 2] + N * np.array([0.0, m[1, 0], m[1, 1], m[1, 0] + m[1, 1]])
    x0 = min(max(int(xs.min()) - 2, 0), iw - 1)
    y0 = min(max(int(ys.min()) - 2, 0), ih - 1)
    x1 = min(max(int(xs.max()) + 3, x0 + 1), iw)
    y1 = min(max(int(ys.max()) + 3, y0 + 1), ih)
    m[:, 2] -= (x0, y0)
    return cv2.warpAffine(
        im[y0:y1, x0:x1],
        m,
        (N, N),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def prepare(patches: np.ndarray) -> np.ndarray:
    """K × N × N × 3 uint8 patches → the network's input: NCHW float32, each patch standardised
    (its own mean and contrast: light, exposure and table colour differ from frame to frame), as
    the card-side network's are."""
    return standardised(patches)


def apply_correction(
    corner: np.ndarray, s: np.ndarray, long: np.ndarray, out: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The corner and edge vectors the network's output ``out`` (in the patch's card coordinates)
    puts in place of ``corner``, ``s``, ``long`` (one frame, or K of them as K × 2 / K × 6 arrays).
    The correction is bounded, and its determinant positive, so a frame keeps its handedness
    (upright stays upright, mirrored stays mirrored)."""
    d = np.clip(out[..., 0:2], -_MAX_SHIFT, _MAX_SHIFT)
    b00, b11 = (np.clip(1.0 + out[..., k : k + 1], 0.6, 1.6) for k in (2, 5))
    b10, b01 = (np.clip(out[..., k : k + 1], -0.35, 0.35) for k in (3, 4))
    new_corner = corner + d[..., 0:1] * s + d[..., 1:2] * long
    return new_corner, b00 * s + b10 * long, b01 * s + b11 * long


@dataclass(frozen=True, eq=False)
class CornerRefiner(OnnxNet):
    """The refinement network: K prepared patches → K × ``OUT`` corrections, one forward pass."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> CornerRefiner:
        return load_checked(
            cls, path, "corner_refiner.onnx", "corner refiner", cls.corrections, (1, 3, N, N), OUT
        )

    def corrections(self, x: np.ndarray) -> np.ndarray:
        net = self._net()
        net.setInput(np.ascontiguousarray(x, np.float32))
        return np.asarray(net.forward(), np.float64).reshape(len(x), -1)

    def refine(self, image: np.ndarray, frames: list[IndexFrame], passes: int = PASSES) -> list[IndexFrame]:
        """``frames`` with their corner, edge directions and card width refined on ``image``."""
        _check(image, frames)
        if not frames:
            return []
        c, s, lg = (np.array(v) for v in zip(*(frame_axes(f) for f in frames), strict=True))
        pyr = Pyramid(image)
        for _ in range(passes):
            patches = np.stack([sample_patch(pyr, c[i], s[i], lg[i]) for i in range(len(frames))])
            c, s, lg = apply_correction(c, s, lg, self.corrections(prepare(patches)))
        return [frame_from_vectors(c[i], s[i], lg[i], f.score) for i, f in enumerate(frames)]


def _check(image: np.ndarray, frames: list[IndexFrame]) -> None:
    check_bgr(image, "refine", RefinerError)
    bad = [type(f).__name__ for f in frames if not isinstance(f, IndexFrame)]
    if bad:
        raise RefinerError(f"refine expects a list of IndexFrame, got {', '.join(sorted(set(bad)))}")


@lru_cache(maxsize=1)
def default_refiner() -> CornerRefiner:
    """The shipped corner refiner, loaded once per process."""
    return CornerRefiner.load()


def refine(image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
    """The learned finder's ``frames`` refined on the full-resolution BGR ``image`` (same order); within
    one frame's recognition each frame is refined once, however many steps ask."""
    _check(image, frames)
    keys: list[Hashable] = [("refine", frame_key(f.frame), f.sideways, f.score) for f in frames]
    return remembered_each(
        image, keys, lambda todo: default_refiner().refine(image, [frames[i] for i in todo])
    )


def refine_step(_recognizer: object, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
    """:func:`refine` as a recogniser frame step (``vision.index_frames.FrameStep``), the default
    ``Recognizer.frame_steps``."""
    return refine(image, frames)
