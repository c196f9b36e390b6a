"""Per-deck calibration: glyph prototypes learned from the user's own deck.

A calibration holds, for the rank and the suit glyph of every card seen during calibration, the
glyph's hand-made descriptor (HOG, thumbnail, proportions: the first ``DESCRIPTOR_LEN`` values of its
features) and its label. Recognition blends the reader's probabilities (CNN or perceptrons alike)
with a nearest-prototype vote, which pins down a deck whose fonts the reader finds unusual.

New-deck order (US decks, as they come out of the box): A–K of spades, A–K of diamonds, K–A of clubs,
K–A of hearts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.errors import CalibrationError
from vision.glyphs import RANK_CLASSES, SUIT_CLASSES
from vision.index import DESCRIPTOR_LEN
from vision.sighting import RANKS

NEW_DECK_ORDER: tuple[str, ...] = (
    tuple(r + "S" for r in RANKS)
    + tuple(r + "D" for r in RANKS)
    + tuple(r + "C" for r in reversed(RANKS))
    + tuple(r + "H" for r in reversed(RANKS))
)
FORMAT = "dealer-vision-calibration/1"


@dataclass
class Calibration:
    """Glyph prototypes of one deck. ``weight`` is the share given to the prototypes (0..1)."""

    rank_features: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    rank_labels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int16))
    suit_features: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    suit_labels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int16))
    weight: float = 0.7
    deck: str = ""

    def add(self, code: str, rank_features: np.ndarray, suit_features: np.ndarray) -> None:
        rank, suit = code[:-1], code[-1]
        if rank not in RANK_CLASSES[:-1] or suit not in SUIT_CLASSES[:-1]:
            raise CalibrationError(
                f"cannot calibrate on {code!r}: expected a rank+suit code such as AS or 10H"
            )
        rf = _descriptor(rank_features)[None]
        sf = _descriptor(suit_features)[None]
        self.rank_features = rf if self.rank_features.size == 0 else np.vstack([self.rank_features, rf])
        self.suit_features = sf if self.suit_features.size == 0 else np.vstack([self.suit_features, sf])
        self.rank_labels = np.append(self.rank_labels, RANK_CLASSES.index(rank)).astype(np.int16)
        self.suit_labels = np.append(self.suit_labels, SUIT_CLASSES.index(suit)).astype(np.int16)

    @property
    def size(self) -> int:
        return int(self.rank_labels.size)

    def _vote(self, feats: np.ndarray, protos: np.ndarray, labels: np.ndarray, n: int) -> np.ndarray | None:
        if protos.size == 0:
            return None
        feats = _descriptor(feats)
        if feats.shape[0] != protos.shape[1]:
            raise CalibrationError(
                f"calibration prototypes have {protos.shape[1]} values, the glyph {feats.shape[0]}: "
                "calibrate the deck again with this version"
            )
        d = np.linalg.norm(protos - feats[None], axis=1)
        scale = float(np.median(d)) + 1e-6
        w = np.exp(-((d / (0.35 * scale)) ** 2))
        votes = np.bincount(labels, weights=w, minlength=n)
        if votes.sum() < 1e-6:
            return None
        return votes / votes.sum()

    def adjust(
        self, rank_feats: np.ndarray, suit_feats: np.ndarray, pr: np.ndarray, ps: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Blend the network's probabilities with the prototypes' vote (the reject class is kept)."""
        out = []
        for feats, protos, labels, p in (
            (rank_feats, self.rank_features, self.rank_labels, pr),
            (suit_feats, self.suit_features, self.suit_labels, ps),
        ):
            v = self._vote(feats, protos, labels, len(p))
            if v is None:
                out.append(p)
                continue
            q = p.copy()
            q[:-1] = (1 - self.weight) * p[:-1] + self.weight * v[:-1] * (1 - p[-1])
            out.append(q / q.sum())
        return out[0], out[1]

    def save(self, path: str | Path) -> None:
        p = Path(path)
        np.savez_compressed(
            p,
            rank_features=self.rank_features,
            rank_labels=self.rank_labels,
            suit_features=self.suit_features,
            suit_labels=self.suit_labels,
            meta=np.array(json.dumps({"format": FORMAT, "weight": self.weight, "deck": self.deck})),
        )

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        p = Path(path)
        if not p.is_file():
            raise CalibrationError(f"calibration file not found: {p}")
        try:
            data = np.load(p, allow_pickle=False)
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise CalibrationError(
                    f"{p} is not a vision calibration (format {meta.get('format')!r}, expected {FORMAT!r})"
                )
            return cls(
                data["rank_features"],
                data["rank_labels"],
                data["suit_features"],
                data["suit_labels"],
                float(meta.get("weight", 0.7)),
                str(meta.get("deck", "")),
            )
        except (OSError, ValueError, KeyError) as exc:
            raise CalibrationError(f"cannot read calibration {p}: {exc}") from exc


def _descriptor(features: np.ndarray) -> np.ndarray:
    """The part of a glyph's features the prototypes compare (not the CNN reader's canvas)."""
    return np.asarray(features, np.float32).ravel()[:DESCRIPTOR_LEN]
