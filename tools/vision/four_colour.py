"""A four-colour deck (diamonds blue, clubs green) against the same cards in red and black (dev-only).

    python tools/vision/four_colour.py --frames 40 --widths 55 95
    python tools/vision/four_colour.py --redness

The first reads the project's renders (``SimulatedCamera``, five tables, scattered cards and two-card
hands, 8 cards a frame) in both inks and prints right / false / missed cards and the suit confusions.
The second prints, per suit and ink, the spread of the index ink's redness the recogniser measures
(``Glyph.redness``, rank and suit averaged, at corners read with the right rank): the numbers
``vision.recognizer.OTHER_INK`` was chosen on. Renders only, never a photo.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision import Recognizer, SimulatedCamera  # noqa: E402
from vision.evaluate import score_codes  # noqa: E402
from vision.recognizer import Recognizer as _Recognizer  # noqa: E402
from vision.render import CardStyle  # noqa: E402
from vision.sighting import FACES, SUITS  # noqa: E402

TABLES = ["felt", "dark", "wood", "light_wood", "white"]


def read_both(frames: int, widths: tuple[int, int], seed: int) -> None:
    for four in (False, True):
        rng = np.random.default_rng(seed)
        rec = Recognizer("table")
        tp = fp = fn = 0
        suits: Counter[tuple[str, str]] = Counter()
        for i in range(frames):
            cam = SimulatedCamera(size=(1280, 960), background=TABLES[i % len(TABLES)], seed=100 + i,
                                  card_width=int(rng.integers(*widths)), style=CardStyle(four_colour=four))
            codes = [str(c) for c in rng.choice(FACES, 8, replace=False)]
            frame = cam.frame_for(codes, layout=["scatter", "hand"][i % 2]).image
            score = score_codes(codes, [s.card for s in rec.recognize(frame)])
            tp, fp, fn = tp + score.right, fp + score.false, fn + score.missed
            suits.update(score.misread_suits())
        name = "four-colour" if four else "red and black"
        print(f"{name}: right {tp}, false {fp}, missed {fn}, F1 {2 * tp / max(1, 2 * tp + fp + fn):.4f}; "
              f"suits read wrong {dict(suits)}")


def redness(cards: int, seed: int) -> None:
    values: dict[tuple[bool, str], list[float]] = defaultdict(list)
    current: dict[str, str] = {}
    read_cut = _Recognizer._read_cut

    def spy(self, frame, patch, m, glyphs, sideways, colour):  # type: ignore[no-untyped-def]
        r, inked = read_cut(self, frame, patch, m, glyphs, sideways, colour)
        code = current["code"]
        if glyphs is not None and glyphs.suit is not None and r is not None and r.card[:-1] == code[:-1]:
            ink = 0.5 * (glyphs.suit.redness + glyphs.rank.redness)
            values[(current["four"] == "yes", code[-1])].append(ink)
        return r, inked

    _Recognizer._read_cut = spy  # type: ignore[method-assign]
    rng = np.random.default_rng(seed)
    rec = Recognizer("table")
    for i in range(cards):
        code = ["A", "5", "9", "Q"][i % 4] + SUITS[(i // 4) % 4]
        width = int(rng.integers(45, 220))
        for four in (False, True):
            current.update(code=code, four="yes" if four else "no")
            cam = SimulatedCamera(size=(960, 720), background=TABLES[i % len(TABLES)], seed=300 + i,
                                  card_width=width, style=CardStyle(four_colour=four))
            rec.recognize(cam.frame_for([code], layout="scatter").image)
    _Recognizer._read_cut = read_cut  # type: ignore[method-assign]
    for (four, suit), v in sorted(values.items()):
        q = np.percentile(v, [0, 2, 50, 98, 100]).round(3).tolist()
        print(f"{'four-colour' if four else 'red and black'} {suit}: {len(v)} corners, "
              f"min / 2 % / median / 98 % / max {q}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--widths", type=int, nargs=2, default=(55, 95), help="card widths, px (low, high)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--redness", action="store_true", help="the index ink's redness per suit instead")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    if a.redness:
        redness(160, 7)
    else:
        read_both(a.frames, tuple(a.widths), a.seed)


if __name__ == "__main__":
    main()
