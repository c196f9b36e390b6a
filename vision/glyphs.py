"""The glyph classifiers: a rank head and a suit head, each scoring a glyph against its classes plus a
reject class ``-`` for anything that is not an upright index glyph (pips, art, a sideways index, the
card edge).

Two readers ship, both trained only on the project's own renders (fonts and suit shapes listed with
their licences in ``docs/vision.md`` and ``vision/models/READER.md``):

* ``cnn``: one small CNN over the glyph's 32 × 32 canvas, run
  by ``cv2.dnn`` from ``vision/models/reader.onnx`` (``vision/reader.py``, trained by
  ``tools/vision/train_reader.py``);
* ``mlp``: two-layer perceptrons over HOG features in ``vision/models/glyphs.npz``, evaluated with
  numpy (trained by ``tools/vision/train_glyphs.py``);
* ``cnn+mlp`` (the default, chosen by measurement): both, probabilities averaged; the CNN is not
  asked where the perceptrons are already sure (``MLP_SURE``), which changes no reading measured.

``default_model()`` gives the one named by the environment variable ``DEALER_VISION_READER``,
else ``DEFAULT_READER``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Literal

import numpy as np

from vision.errors import ModelError
from vision.reader import CnnHead, CnnReader

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
        x = np.atleast_2d(x)[:, : self.mean.size]  # the hand-made descriptor, not the CNN's canvas
        z = (x.astype(np.float32) - self.mean) / self.std
        h = np.maximum(z @ self.w1 + self.b1, 0.0)
        return h @ self.w2 + self.b2

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        lg = self.logits(x)
        lg = lg - lg.max(axis=1, keepdims=True)
        e = np.exp(lg)
        return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class MlpEnsemble:
    """Several networks trained on different renders; their probabilities are averaged."""

    members: tuple[Mlp, ...]
    # the members' arrays stacked (member × …), so that all members run in one batched product
    _stacked: tuple[np.ndarray, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys = ("mean", "std", "w1", "b1", "w2", "b2")
        if len({tuple(getattr(m, k).shape for k in keys) for m in self.members}) == 1:
            stacked = tuple(np.stack([getattr(m, k) for m in self.members]) for k in keys)
            object.__setattr__(self, "_stacked", stacked)

    @property
    def classes(self) -> tuple[str, ...]:
        return self.members[0].classes

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        if self._stacked is None:
            return np.mean([m.probabilities(x) for m in self.members], axis=0)
        # the same arithmetic as each member's own ``probabilities``, all members at once
        mean, std, w1, b1, w2, b2 = self._stacked
        x = np.atleast_2d(x)[:, : mean.shape[1]].astype(np.float32)
        z = (x[None] - mean[:, None, :]) / std[:, None, :]
        h = np.maximum(np.matmul(z, w1) + b1[:, None, :], 0.0)
        lg = np.matmul(h, w2) + b2[:, None, :]
        lg = lg - lg.max(axis=2, keepdims=True)
        e = np.exp(lg)
        return np.mean(e / e.sum(axis=2, keepdims=True), axis=0)


@dataclass(frozen=True)
class Blend:
    """The CNN reader and the perceptrons together: their probabilities averaged with ``cnn_weight``.

    With ``mlp_sure`` set, a call whose glyphs the perceptrons all read with at least that probability
    returns the perceptrons' reading alone (the CNN, several times their cost, is not run).
    """

    cnn: CnnHead
    mlp: Mlp | MlpEnsemble
    cnn_weight: float = 0.5
    # when every glyph's perceptron reading is at least this sure, the CNN is not asked (None: always)
    mlp_sure: float | None = None

    @property
    def classes(self) -> tuple[str, ...]:
        return self.mlp.classes

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        w = self.cnn_weight
        pm = self.mlp.probabilities(x)
        if self.mlp_sure is not None and bool((pm.max(axis=1) >= self.mlp_sure).all()):
            return pm
        return w * self.cnn.probabilities(x) + (1.0 - w) * pm


Head = Mlp | MlpEnsemble | CnnHead | Blend


def _members(net: Head) -> tuple[Mlp, ...]:
    if not isinstance(net, Mlp | MlpEnsemble):
        raise ModelError("only the perceptron reader has perceptron members")
    return net.members if isinstance(net, MlpEnsemble) else (net,)


@dataclass(frozen=True)
class GlyphModel:
    """The rank and suit classifiers, each one network or an ensemble.

    In the weights file the first network of a head has keys ``rank_w1`` …, further ensemble members
    ``rank1_w1``, ``rank2_w1`` ….
    """

    rank: Head
    suit: Head

    @classmethod
    def cnn(cls, path: str | Path | None = None) -> GlyphModel:
        """The CNN reader from ONNX ``path``, or the one shipped in the package."""
        reader = CnnReader.load(path)
        return cls(CnnHead(reader, "rank"), CnnHead(reader, "suit"))

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

        def head(prefix: str, classes: tuple[str, ...]) -> Mlp | MlpEnsemble:
            nets = [mlp(prefix, classes)]
            while f"{prefix}{len(nets)}_w1" in data:
                nets.append(mlp(f"{prefix}{len(nets)}", classes))
            return nets[0] if len(nets) == 1 else MlpEnsemble(tuple(nets))

        def mlp(prefix: str, classes: tuple[str, ...]) -> Mlp:
            try:
                mean, std, w1, b1, w2, b2 = (
                    data[f"{prefix}_{k}"].astype(np.float32) for k in ("mean", "std", "w1", "b1", "w2", "b2")
                )
                m = Mlp(mean, std, w1, b1, w2, b2, classes)
            except KeyError as exc:
                raise ModelError(f"glyph model lacks array {exc}") from exc
            if m.w2.shape[1] != len(classes):
                raise ModelError(f"{prefix} network has {m.w2.shape[1]} outputs, expected {len(classes)}")
            return m

        return cls(head("rank", RANK_CLASSES), head("suit", SUIT_CLASSES))

    def save(self, path: str | Path) -> None:
        arrays = {}
        for prefix, net in (("rank", self.rank), ("suit", self.suit)):
            if not isinstance(net, Mlp | MlpEnsemble):
                raise ModelError("the CNN reader is saved as ONNX by tools/vision/train_reader.py, not here")
            for i, m in enumerate(_members(net)):
                name = prefix if i == 0 else f"{prefix}{i}"
                for k in ("mean", "std", "w1", "b1", "w2", "b2"):
                    arrays[f"{name}_{k}"] = getattr(m, k).astype(np.float32)
        np.savez_compressed(path, **arrays)

    @classmethod
    def ensemble(cls, models: list[GlyphModel]) -> GlyphModel:
        """One model averaging the networks of ``models``."""
        rank = tuple(m for g in models for m in _members(g.rank))
        suit = tuple(m for g in models for m in _members(g.suit))
        return cls(MlpEnsemble(rank), MlpEnsemble(suit))


# The default reader asks the CNN only about glyphs the perceptrons are less sure of than this (about
# 40 % of them): measured, every dev folder, the 60 held-out scenes and the held-out fonts read exactly
# as with both networks on every glyph (BENCHMARKS.md); the CNN costs ~0.2 ms per glyph.
MLP_SURE = 0.9999
ReaderName = Literal["cnn", "mlp", "cnn+mlp"]
DEFAULT_READER: ReaderName = "cnn+mlp"  # measured best on the dev folders and held-out fonts (BENCHMARKS.md)
_DEFAULTS: dict[str, GlyphModel] = {}


def default_model(name: str | None = None) -> GlyphModel:
    """The shipped reader ``name`` (``cnn``, ``mlp`` or ``cnn+mlp``); by default ``$DEALER_VISION_READER`` or
    ``DEFAULT_READER``. Loaded once per process."""
    name = name or os.environ.get("DEALER_VISION_READER") or DEFAULT_READER
    if name not in ("cnn", "mlp", "cnn+mlp"):
        raise ModelError(f"unknown glyph reader {name!r}: expected 'cnn', 'mlp' or 'cnn+mlp'")
    if name not in _DEFAULTS:
        if name == "cnn":
            _DEFAULTS[name] = GlyphModel.cnn()
        elif name == "mlp":
            _DEFAULTS[name] = GlyphModel.load()
        else:
            cnn, mlp = default_model("cnn"), default_model("mlp")
            assert isinstance(cnn.rank, CnnHead) and isinstance(cnn.suit, CnnHead)
            assert isinstance(mlp.rank, Mlp | MlpEnsemble) and isinstance(mlp.suit, Mlp | MlpEnsemble)
            _DEFAULTS[name] = GlyphModel(
                Blend(cnn.rank, mlp.rank, mlp_sure=MLP_SURE), Blend(cnn.suit, mlp.suit, mlp_sure=MLP_SURE)
            )
    return _DEFAULTS[name]
