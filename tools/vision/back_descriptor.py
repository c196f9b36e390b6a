"""Whether a deck's back shown once could be told from everything else by a plain descriptor (a lead).

    python tools/vision/back_descriptor.py /tmp/hba1 /tmp/hba2 /tmp/hba3 /tmp/hba4

Over ``scenes.py`` folders (``truth.json``), in each scene with two or more backs at least 60 % in view
and 50 px wide, the first back through its true outline stands for the deck's back shown once. It is
compared with the other backs of the scene (their outlines disturbed as a finder errs), the faces, quads
of bare table at least a card width from every card, quads slid half to nine tenths of a card off a back,
and the first back of the scene before (another deck's design). The descriptor: the patch inside the
quad (inset ``INSET``) as a CIE Lab histogram and a histogram of gradient orientations (a back seen
turned half round gives the same); the score: histogram intersection × the orientations' cosine × the
ratio of the two gradient energies. Measurement only: nothing in ``vision/`` uses it (docs/vision.md,
session 60).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

PATCH = (40, 56)  # px: a card's shape, short side first
INSET = 0.12  # of the quad, towards its middle: a finder's outline errs by about this much
LAB_BINS = 6
ORIENTATIONS = 12
LEVELS = (0.3, 0.4, 0.5, 0.6)


def patch(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The inside of ``quad`` warped upright to ``PATCH`` (its short side first)."""
    q = np.asarray(quad, np.float32)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)
    middle = q.mean(axis=0)
    inner = middle + (q - middle) * (1 - INSET)
    w, h = PATCH
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(inner, dst)
    return cv2.warpPerspective(image, m, PATCH, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def describe(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """A patch's colour histogram, gradient-orientation histogram and mean gradient magnitude."""
    lab = cv2.cvtColor(p, cv2.COLOR_BGR2LAB)
    bins = [LAB_BINS] * 3
    colour = cv2.calcHist([lab], [0, 1, 2], None, bins, [0, 256] * 3).ravel()
    colour /= colour.sum()
    grey = cv2.cvtColor(p, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mag, ang = cv2.cartToPolar(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    turns = np.histogram(ang % np.pi, ORIENTATIONS, (0, np.pi), weights=mag)[0]
    return colour, turns / (np.linalg.norm(turns) + 1e-9), float(mag.mean())


def score(a: tuple[np.ndarray, np.ndarray, float], b: tuple[np.ndarray, np.ndarray, float]) -> float:
    energy = min(a[2], b[2]) / max(a[2], b[2], 1e-6)
    return float(np.minimum(a[0], b[0]).sum()) * float(a[1] @ b[1]) * energy


def _short(q: np.ndarray) -> float:
    return float(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])))


def main(folders: list[Path]) -> None:
    rng = np.random.default_rng(0)
    kinds: dict[str, list[float]] = {"back": [], "face": [], "table": [], "slid off": [], "other design": []}
    before = None
    for folder in folders:
        truth = json.loads((folder / "truth.json").read_text())
        for name, scene in truth.items():
            cards = scene["cards"]
            backs = [np.array(c["outline"]) for c in cards if c["code"] == "BK" and c["visible"] >= 0.6]
            backs = [q for q in backs if _short(q) >= 50]
            if len(backs) < 2:
                continue
            image = cv2.imread(str(folder / "images" / name))
            h, w = image.shape[:2]
            shown = describe(patch(image, backs[0]))
            if before is not None:
                kinds["other design"].append(score(before, shown))
            before = shown
            for q in backs[1:]:
                s = _short(q)
                disturbed = q + rng.normal(0, 0.04 * s, q.shape)
                kinds["back"].append(score(shown, describe(patch(image, disturbed))))
                for _ in range(2):
                    a, d = rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 0.9) * s
                    slid = q + d * np.array([np.cos(a), np.sin(a)])
                    kinds["slid off"].append(score(shown, describe(patch(image, slid))))
            for c in cards:
                if c["code"] != "BK" and c["visible"] >= 0.6:
                    kinds["face"].append(score(shown, describe(patch(image, np.array(c["outline"])))))
            s = _short(backs[0])
            for _ in range(6):
                if w <= 2 * s or h <= 2 * s:
                    break
                at = rng.uniform([s, s], [w - s, h - s])
                outlines = [np.float32(c["outline"]).reshape(-1, 1, 2) for c in cards]
                point = (float(at[0]), float(at[1]))
                if any(cv2.pointPolygonTest(o, point, True) >= -1.2 * s for o in outlines):
                    continue  # within a card width and a fifth of a card
                bare = backs[0] - backs[0].mean(axis=0) + at
                kinds["table"].append(score(shown, describe(patch(image, bare))))
    for kind, values in kinds.items():
        v = np.array(values)
        pct = np.percentile(v, [10, 50, 90]).round(3).tolist() if len(v) else []
        print(f"{kind}: {len(v)} quads, score at the 10th/50th/90th percentile {pct}")
    for level in LEVELS:
        taken = ", ".join(f"{k} {sum(x >= level for x in v)}/{len(v)}" for k, v in kinds.items())
        print(f"taken at {level}: {taken}")


if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]])
