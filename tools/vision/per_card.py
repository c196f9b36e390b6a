"""Per-card diagnosis of a ``scenes.py`` benchmark: which cards are read, by size and visibility.

    python tools/vision/per_card.py /tmp/ho60            # the recogniser as shipped
    python tools/vision/per_card.py /tmp/ho60 --oracle   # every visible index read at its TRUE corner

A labelled card counts as read when a sighting of its code has its index corner (or outline centre)
inside the card's true outline. ``--oracle`` separates reading from finding: it reads each visible
index through the card's true homography, so what fails there is the reader's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.detect import CornerFrame  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.render import CARD_ASPECT  # noqa: E402

WIDTHS = ((50, 80), (80, 120), (120, 200), (200, 10_000))
UNIT = np.array([[0, 0], [1, 0], [1, CARD_ASPECT], [0, CARD_ASPECT]], np.float32)


def _width(outline: np.ndarray) -> float:
    return float(np.linalg.norm(outline[1] - outline[0]))


def found(root: Path, rec: Recognizer) -> list[tuple[float, float, bool]]:
    """(card width, visible fraction, read right) for every labelled card."""
    truth = json.loads((root / "truth.json").read_text())
    labels = json.loads((root / "labels.json").read_text())
    rows = []
    for name, scene in sorted(truth.items()):
        sightings = rec.recognize(cv2.imread(str(root / "images" / name)))
        for card in scene["cards"]:
            outline = np.array(card["outline"], np.float32)
            if card["code"] not in labels[name] or _width(outline) < 50:
                continue
            shown = card["visible"] * card.get("in_frame", 1.0)
            if not (any(card["index_visible"]) or (card["code"] == "BK" and shown > 0.5)):
                continue
            poly = outline.reshape(-1, 1, 2)
            hit = any(
                s.card == card["code"]
                and cv2.pointPolygonTest(
                    poly, tuple(map(float, np.mean(s.index_corner or s.outline, axis=0))), False
                )
                >= 0
                for s in sightings
            )
            rows.append((_width(outline), shown, hit))
    return rows


def oracle(root: Path, rec: Recognizer) -> list[tuple[float, float, bool]]:
    """(card width, visible fraction, read right) for every visible upright index at its true corner."""
    truth = json.loads((root / "truth.json").read_text())
    rows = []
    for name, scene in sorted(truth.items()):
        image = cv2.imread(str(root / "images" / name))
        for card in scene["cards"]:
            outline = np.array(card["outline"], np.float32)
            if card["code"] == "BK" or _width(outline) < 50:
                continue
            for k, shows in enumerate(card["index_visible"][:2]):  # the two upright indices
                if not shows:
                    continue
                dst = outline if k == 0 else outline[[2, 3, 0, 1]]
                hom = cv2.getPerspectiveTransform(UNIT, dst)
                frame = CornerFrame(
                    dst[0].astype(float), np.array([1.0, 0]), np.array([0.0, 1]), _width(dst), hom
                )
                r = rec.read_corner(image, frame)
                right = r is not None and r.card == card["code"] and r.confidence >= rec.min_confidence
                rows.append((_width(outline), float(card["visible"]), right))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("--oracle", action="store_true")
    a = ap.parse_args()
    rec = Recognizer("table")
    rows = (oracle if a.oracle else found)(a.root, rec)
    print(f"all: {sum(r[2] for r in rows)} / {len(rows)}")
    for lo, hi in WIDTHS:
        sel = [r for r in rows if lo <= r[0] < hi]
        print(f"width {lo}-{hi} px: {sum(r[2] for r in sel)} / {len(sel)}")
    for lo, hi in ((0, 0.5), (0.5, 0.9), (0.9, 1.01)):
        sel = [r for r in rows if lo <= r[1] < hi]
        print(f"visible {lo}-{min(hi, 1.0)}: {sum(r[2] for r in sel)} / {len(sel)}")


if __name__ == "__main__":
    main()
