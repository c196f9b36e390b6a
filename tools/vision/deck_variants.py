"""Read renders of decks no training scene draws: jumbo indices and bridge-size cards.

    python tools/vision/deck_variants.py            # every variant, a line each
    python tools/vision/deck_variants.py --json

Each variant is drawn by ``vision.SimulatedCamera`` (1920 × 1080, cards 150 px wide) on felt, light
wood, dark and white tables at two seeds, the same 12 codes scattered and dealt in hands (and, for
bridge size, in a row and a fan), and read by the shipped recogniser. Jumbo indices: the rank 0.17,
0.20 or 0.24 of the card's width (``scenes.py`` draws 0.09–0.17). Bridge size (57 × 89 mm): the
renderer and the simulated camera draw cards 1.556 times as long as wide for the run (poker size,
which every training deck has, is 1.4); the recogniser keeps its own constants.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import vision.render as render  # noqa: E402
import vision.simcam as simcam  # noqa: E402
from vision import Recognizer, SimulatedCamera  # noqa: E402
from vision.render import CardStyle  # noqa: E402

CODES = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "5C", "8H"]
TABLES = ("felt", "light_wood", "dark", "white")
BRIDGE = 89 / 57


def read(style: CardStyle, layouts: tuple[str, ...], rec: Recognizer) -> dict[str, int]:
    right = false = cards = 0
    for layout in layouts:
        for table in TABLES:
            for seed in (1, 2):
                cam = SimulatedCamera(
                    size=(1920, 1080), background=table, seed=seed, card_width=150, style=style
                )
                got = Counter(s.card for s in rec.recognize(cam.frame_for(CODES, layout=layout).image))
                right += sum((got & Counter(CODES)).values())
                false += sum((got - Counter(CODES)).values())
                cards += len(CODES)
    return {"cards": cards, "right": right, "false": false}


def jumbo(rank_height: float) -> CardStyle:
    """A deck whose index is ``rank_height`` card widths tall, its suit and column in proportion."""
    return CardStyle(
        rank_height=rank_height,
        rank_width=0.6 * rank_height,
        suit_size=0.65 * rank_height,
        index_x=0.05 + 0.4 * rank_height,
        index_top=0.04,
        thickness=5,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rec = Recognizer("table")
    out = {"standard": read(CardStyle(), ("scatter", "hand"), rec)}
    for h in (0.17, 0.2, 0.24):
        out[f"jumbo index {h:g}"] = read(jumbo(h), ("scatter", "hand"), rec)
    poker = render.CARD_ASPECT
    render.CARD_ASPECT = simcam.CARD_ASPECT = BRIDGE  # drawn so for this run only
    try:
        out["bridge size"] = read(CardStyle(), ("scatter", "row", "hand", "fan"), rec)
    finally:
        render.CARD_ASPECT = simcam.CARD_ASPECT = poker
    if a.json:
        print(json.dumps(out, indent=2))
        return
    for name, r in out.items():
        print(f"{name}: {r['right']} / {r['cards']} read, {r['false']} made up")


if __name__ == "__main__":
    main()
