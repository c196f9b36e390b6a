"""The glyph classifier: a small two-layer perceptron per glyph kind, evaluated with numpy.

Weights live in ``vision/models/glyphs.npz``; they are trained by ``tools/vision/train_glyphs.py``
only on the project's own renders (fonts and suit shapes listed with their licences in
``docs/vision.md``). Each network scores a glyph against its classes plus a reject class ``-`` for
anything that is not an upright index glyph (pips, art, a sideways index, the card edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from vision.errors import ModelError

REJECT = "-"
RANK_CLASSES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", REJECT)
SUIT_CLASSES: tuple[str, ...] = ("S", "H", "D", "C", REJECT)


@dataclass(frozen=True)
class Mlp:
    """x → standardise → relu(W1 x + b1) → softmax(W2 h + b2)."""

    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    classes: tuple[str, ...]

    def logits(self, x: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(x).astype(np.float32) - self.mean) / self.std
        h = np.maximum(z @ self.w1 + self.b1, 0.0)
        return h @ self.w2 + self.b2

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        lg = self.logits(x)
        lg = lg - lg.max(axis=1, keepdims=True)
        e = np.exp(lg)
        return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class GlyphModel:
    rank: Mlp
    suit: Mlp

    @classmethod
    def load(cls, path: str | Path | None = None) -> GlyphModel:
        """Load weights from ``path``, or the model shipped in the package."""
        try:
            if path is None:
                ref = resources.files("vision") / "models" / "glyphs.npz"
                with resources.as_file(ref) as p:
                    data = dict(np.load(p))
            else:
                data = dict(np.load(path))
        except (OSError, ValueError) as exc:
            raise ModelError(
                f"cannot load the glyph model ({path or 'vision/models/glyphs.npz'}): {exc}"
            ) from exc

        def mlp(prefix: str, classes: tuple[str, ...]) -> Mlp:
            try:
                m = Mlp(
                    *(
                        data[f"{prefix}_{k}"].astype(np.float32)
                        for k in ("mean", "std", "w1", "b1", "w2", "b2")
                    ),
                    classes=classes,
                )
            except KeyError as exc:
                raise ModelError(f"glyph model lacks array {exc}") from exc
            if m.w2.shape[1] != len(classes):
                raise ModelError(f"{prefix} network has {m.w2.shape[1]} outputs, expected {len(classes)}")
            return m

        return cls(mlp("rank", RANK_CLASSES), mlp("suit", SUIT_CLASSES))

    def save(self, path: str | Path) -> None:
        arrays = {}
        for prefix, m in (("rank", self.rank), ("suit", self.suit)):
            for k in ("mean", "std", "w1", "b1", "w2", "b2"):
                arrays[f"{prefix}_{k}"] = getattr(m, k).astype(np.float32)
        np.savez_compressed(path, **arrays)


_DEFAULT: GlyphModel | None = None


def default_model() -> GlyphModel:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = GlyphModel.load()
    return _DEFAULT
