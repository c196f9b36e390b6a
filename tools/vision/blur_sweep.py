"""How much blur the recogniser takes, and how well ``vision.view_check.edge_blur`` measures it: the
line the camera check calls out of focus (``BLURRY``) comes from this table.

    python tools/vision/blur_sweep.py            # about 3 minutes on one core

Twelve face cards scattered on a 1600×900 frame (``vision.SimulatedCamera``, seed 5) at each card
width and table, blurred with a known Gaussian sigma: how many of the twelve the table recogniser
reads right and surely (confidence ≥ 0.8), and the median blur ``edge_blur`` measures on the cards
it saw. Renders only, never a photo.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision  # noqa: E402
from vision.view_check import card_width, edge_blur  # noqa: E402

CODES = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "5H", "8C"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backgrounds", nargs="+", default=["felt", "light_wood", "white", "dark"])
    ap.add_argument("--widths", nargs="+", type=int, default=[50, 70, 100, 150, 220])
    ap.add_argument("--sigmas", nargs="+", type=float, default=[0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6])
    a = ap.parse_args()
    cv2.setNumThreads(1)
    rec = vision.Recognizer("table")
    print("table width sigma sigma/width read_right measured_sigma measured/width")
    for bg in a.backgrounds:
        for width in a.widths:
            camera = vision.SimulatedCamera(size=(1600, 900), background=bg, seed=5, card_width=width)
            sharp = camera.frame_for(CODES, layout="scatter").image
            for sigma in a.sigmas:
                image = cv2.GaussianBlur(sharp, (0, 0), sigma) if sigma else sharp
                seen = rec.recognize(image)
                right = sum(1 for s in seen if s.card in CODES and s.confidence >= 0.8)
                blurs = [(b, card_width(s)) for s in seen if (b := edge_blur(image, s.outline)) is not None]
                measured = float(np.median([b for b, _ in blurs])) if blurs else float("nan")
                relative = float(np.median([b / w for b, w in blurs])) if blurs else float("nan")
                print(f"{bg} {width} {sigma:g} {sigma / width:.4f} {right}/{len(CODES)} {measured:.2f} "
                      f"{relative:.4f}", flush=True)


if __name__ == "__main__":
    main()
