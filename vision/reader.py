"""The CNN glyph reader: a small convolutional network run by ``cv2.dnn`` from ONNX.

One network scores a glyph's 32 × 32 canvas (``vision.index.canvas_of``) against 13 ranks, 4 suits
and a reject class in one softmax. A rank head reads the rank classes and counts everything else
(a suit shape in the rank's place, a pip, art, a sideways glyph) as its reject; a suit head likewise.
The heads have the interface of the perceptrons in ``vision.glyphs`` (``classes``,
``probabilities(features)``), so ``GlyphModel(rank=…, suit=…)`` carries either.

Weights: ``vision/models/reader.onnx``, trained by ``tools/vision/train_reader.py`` only on the project's
renders (model card: ``vision/models/READER.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from vision.errors import ModelError
from vision.index import CANVAS, canvas_of
from vision.onnx_nets import OnnxNet, model_bytes
from vision.sighting import RANKS, SUITS

JOINT_CLASSES: tuple[str, ...] = RANKS + SUITS + ("-",)
N_RANKS, N_SUITS = len(RANKS), len(SUITS)
Kind = Literal["rank", "suit"]


@dataclass(frozen=True, eq=False)
class CnnReader(OnnxNet):
    """The glyph network: a joint softmax over ``JOINT_CLASSES`` for glyph canvases."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> CnnReader:
        try:
            reader = cls(model_bytes(path, "reader.onnx"))
            out = reader.joint(np.zeros((1, 1, CANVAS, CANVAS), np.float32))
        except (OSError, cv2.error) as exc:
            where = path or "vision/models/reader.onnx"
            raise ModelError(f"cannot load the CNN reader ({where}): {exc}") from exc
        if out.shape != (1, len(JOINT_CLASSES)):
            raise ModelError(f"CNN reader gives {out.shape[1]} outputs, expected {len(JOINT_CLASSES)}")
        return reader

    def joint(self, canvases: np.ndarray) -> np.ndarray:
        """Softmax over ``JOINT_CLASSES`` for N × 1 × 32 × 32 canvases (ink 1, paper 0)."""
        x = np.ascontiguousarray(canvases, np.float32)
        if len(x) == 0:
            return np.zeros((0, len(JOINT_CLASSES)), np.float32)
        net = self._net()
        # all glyphs in one forward pass: measured with OpenCV 5.0, a batch gives each glyph exactly the
        # logits it gets alone, and changing the batch size between calls costs no re-planning
        net.setInput(x)
        lg = net.forward().reshape(len(x), -1).astype(np.float32)
        e: np.ndarray = np.exp(lg - lg.max(axis=1, keepdims=True))
        out: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return out

    @staticmethod
    def head_probabilities(joint: np.ndarray, kind: Kind) -> np.ndarray:
        """Rank (13 + reject) or suit (4 + reject) probabilities from the joint softmax."""
        own = joint[:, :N_RANKS] if kind == "rank" else joint[:, N_RANKS : N_RANKS + N_SUITS]
        return np.concatenate([own, 1.0 - own.sum(axis=1, keepdims=True)], axis=1).clip(0.0, 1.0)


@dataclass(frozen=True)
class CnnHead:
    """The rank or the suit view of the reader, with the glyph networks' interface."""

    reader: CnnReader
    kind: Kind

    @property
    def classes(self) -> tuple[str, ...]:
        return (RANKS if self.kind == "rank" else SUITS) + ("-",)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        return self.reader.head_probabilities(self.reader.joint(canvas_of(features)), self.kind)
