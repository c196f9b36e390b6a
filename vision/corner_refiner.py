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

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ModelError, VisionError
from vision.finder import IndexFrame, frame_from_vectors
from vision.onnx_nets import OnnxNet, model_bytes

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


def sample_patch(image: np.ndarray, corner: np.ndarray, s: np.ndarray, long: np.ndarray) -> np.ndarray:
    """The N × N canonical patch of a corner: cut from a region round it only, area-shrunk first
    where the card is much bigger than the patch (no aliasing), edges replicated outside the image."""
    m = patch_matrix(corner, s, long)
    ih, iw = image.shape[:2]
    pts = m @ np.array([[0, N, 0, N], [0, 0, N, N], [1, 1, 1, 1]], np.float64)
    x0 = int(np.clip(np.floor(pts[0].min()) - 2, 0, iw - 1))
    y0 = int(np.clip(np.floor(pts[1].min()) - 2, 0, ih - 1))
    x1 = int(np.clip(np.ceil(pts[0].max()) + 3, x0 + 1, iw))
    y1 = int(np.clip(np.ceil(pts[1].max()) + 3, y0 + 1, ih))
    roi = image[y0:y1, x0:x1]
    m[:, 2] -= (x0, y0)
    step = max(float(np.hypot(*m[:, 0])), float(np.hypot(*m[:, 1])))  # image pixels per patch pixel
    if step > 1.5:
        rw, rh = max(1, round((x1 - x0) / step)), max(1, round((y1 - y0) / step))
        fx, fy = rw / (x1 - x0), rh / (y1 - y0)
        roi = cv2.resize(roi, (rw, rh), interpolation=cv2.INTER_AREA)
        m = np.array([[fx, 0, 0.5 * fx - 0.5], [0, fy, 0.5 * fy - 0.5]]) @ np.vstack([m, [0, 0, 1]])
    return cv2.warpAffine(
        roi, m, (N, N), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


def prepare(patches: np.ndarray) -> np.ndarray:
    """K × N × N × 3 uint8 patches → the network's input: NCHW float32, each patch standardised
    (its own mean and contrast: light, exposure and table colour differ from frame to frame)."""
    x = patches.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    return np.ascontiguousarray(((x - mean) / (std + 4.0)).transpose(0, 3, 1, 2))


def apply_correction(
    corner: np.ndarray, s: np.ndarray, long: np.ndarray, out: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The corner and edge vectors the network's output ``out`` (in the patch's card coordinates)
    puts in place of ``corner``, ``s``, ``long``. The correction is bounded, and its determinant
    positive, so the frame keeps its handedness (upright stays upright, mirrored stays mirrored)."""
    du, dv = np.clip(out[:2], -_MAX_SHIFT, _MAX_SHIFT)
    b = np.array([[1.0 + out[2], out[4]], [out[3], 1.0 + out[5]]])
    b[[0, 1], [0, 1]] = np.clip(b[[0, 1], [0, 1]], 0.6, 1.6)
    b[[0, 1], [1, 0]] = np.clip(b[[0, 1], [1, 0]], -0.35, 0.35)
    a = np.stack([s, long], axis=1)
    new = a @ b
    return corner + a @ np.array([du, dv]), new[:, 0], new[:, 1]


@dataclass(frozen=True, eq=False)
class CornerRefiner(OnnxNet):
    """The refinement network: K prepared patches → K × ``OUT`` corrections, one forward pass."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> CornerRefiner:
        where = str(path or "vision/models/corner_refiner.onnx")
        try:
            net = cls(model_bytes(path, "corner_refiner.onnx"))
            out = net.corrections(np.zeros((1, 3, N, N), np.float32))
        except (OSError, cv2.error) as exc:
            raise ModelError(f"cannot load the corner refiner ({where}): {exc}") from exc
        if out.shape != (1, OUT):
            raise ModelError(f"corner refiner ({where}) gives {out.shape} outputs, expected (1, {OUT})")
        return net

    def corrections(self, x: np.ndarray) -> np.ndarray:
        net = self._net()
        net.setInput(np.ascontiguousarray(x, np.float32))
        return np.asarray(net.forward(), np.float64).reshape(len(x), -1)

    def refine(self, image: np.ndarray, frames: list[IndexFrame], passes: int = PASSES) -> list[IndexFrame]:
        """``frames`` with their corner, edge directions and card width refined on ``image``."""
        _check(image, frames)
        if not frames:
            return []
        axes = [frame_axes(f) for f in frames]
        for _ in range(passes):
            patches = np.stack([sample_patch(image, *a) for a in axes])
            out = self.corrections(prepare(patches))
            axes = [apply_correction(*a, o) for a, o in zip(axes, out, strict=True)]
        return [frame_from_vectors(c, s, lg, f.score) for (c, s, lg), f in zip(axes, frames, strict=True)]


def _check(image: np.ndarray, frames: list[IndexFrame]) -> None:
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        got = f"{image.dtype} array of shape {image.shape}" if isinstance(image, np.ndarray) else type(image)
        raise RefinerError(f"refine expects a BGR image (H×W×3 uint8 array), got {got}")
    if min(image.shape[:2]) < 2:
        raise RefinerError(
            f"refine expects an image at least 2×2 pixels, got {image.shape[1]}×{image.shape[0]}"
        )
    bad = [type(f).__name__ for f in frames if not isinstance(f, IndexFrame)]
    if bad:
        raise RefinerError(f"refine expects a list of IndexFrame, got {', '.join(sorted(set(bad)))}")


@lru_cache(maxsize=1)
def default_refiner() -> CornerRefiner:
    """The shipped corner refiner, loaded once per process."""
    return CornerRefiner.load()


def refine(image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
    """The learned finder's ``frames`` refined on the full-resolution BGR ``image`` (same order)."""
    return default_refiner().refine(image, frames)


def refine_step(_recognizer: object, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
    """:func:`refine` as a recogniser frame step (``vision.index_frames.FrameStep``):
    ``recognizer.frame_steps = (refine_step,)``."""
    return refine(image, frames)
