"""Measure recall / precision on the project's own rendered layouts (scatter, two-card hands, fans,
spreads, hole cards).

    python tools/vision/sim_layouts.py --frames 12 --json
    python tools/vision/sim_layouts.py --layouts hole --frames 12 --json
    python tools/vision/sim_layouts.py --layouts fan --fan-cards 18 --fan-spread 5 --frames 6 --json
    python tools/vision/sim_layouts.py --layouts spread --spread-step 0.18 --frames 6 --json
    python tools/vision/sim_layouts.py --layouts fan,spread --mirror --four-index --frames 12 --json
    python tools/vision/sim_layouts.py --layouts hits --against-full --json   # the quick read's share

Frames are 1920×1080, cards 170 px wide, on felt, wood and dark tables (``--backgrounds``); codes
are drawn at random from the 52 faces (plus jokers and backs where ``--extras`` is set). ``hole``
lays four two-card hands whose top card lies face down (a dealer's up card and hole card), ``hits`` four
hands of three (a blackjack hand after a hit: each card down and across from the one before),
``doubled`` four hands of two whose third card lies sideways across them (a double down), ``tucked``
four whose face lies half over the back (the hole card under its up card); ``down``
two face-up hands and two hands dealt face down; ``spread`` 13 cards in a straight overlapping line.
``--mirror`` deals hands, fans and spreads the other way round (each card under the one before it:
a fan held in the other hand, a spread laid leftward), so that what shows of a card below is its
right-hand corners; ``--four-index`` draws a deck that prints its index in all four corners.
Scores are over the multiset of codes. ``--against-full`` reads each frame again with the full read
alone (``quick = False``, untimed) and counts the frames the quick read answered and those whose
cards differ from the full read's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import vision.quick_read as quick_read  # noqa: E402
from vision import Recognizer, SimulatedCamera  # noqa: E402
from vision.evaluate import score_codes  # noqa: E402
from vision.render import CardStyle  # noqa: E402
from vision.sighting import FACES  # noqa: E402

LAYOUT_CARDS = {
    "scatter": 8,
    "hand": 8,
    "hits": 12,
    "doubled": 12,
    "fan": 5,
    "spread": 13,
    "hole": 4,
    "tucked": 4,
    "down": 4,
}
MIRRORED = ("hand", "hits", "fan", "spread")  # the layouts whose cards overlap one way
WHYS: list[str] = []  # why the quick read left each frame to the full read ("" where it answered)


def _spy_on_the_quick_read() -> None:
    real = quick_read.attempt

    def attempt(*args: object) -> tuple[object, str]:
        out = real(*args)  # type: ignore[arg-type]
        WHYS.append(out[1])
        return out

    quick_read.attempt = attempt  # type: ignore[assignment]


def measure(
    layout: str,
    frames: int,
    seed: int,
    extras: bool,
    fan_spread: float = 9.0,
    backgrounds: tuple[str, ...] = ("felt", "wood", "dark"),
    fan_cards: int = LAYOUT_CARDS["fan"],
    spread_step: float = 0.2,
    mirror: bool = False,
    four_index: bool = False,
    against_full: bool = False,
) -> dict[str, object]:
    if mirror and layout not in MIRRORED:
        raise ValueError(f"only {', '.join(MIRRORED)} can be dealt the other way round, not {layout}")
    rng = np.random.default_rng(seed)
    rec = Recognizer("table")
    full = Recognizer("table")
    full.quick = False  # the full read alone, for --against-full
    answered = differ = 0
    tp = fp = fn = 0
    ms: list[float] = []
    confusions: Counter[tuple[str, str]] = Counter()
    pool = [*FACES, *(["JK", "BK"] if extras else [])]
    for i in range(frames):
        bg = backgrounds[i % len(backgrounds)]
        cam = SimulatedCamera(
            size=(1920, 1080),
            background=bg,
            seed=seed * 1000 + i,
            card_width=170,
            fan_spread=fan_spread,
            spread_step=spread_step,
            style=CardStyle(four_index=four_index),
            hand_cards=3 if layout in ("hits", "doubled") else 2,
            double_down=layout == "doubled",
        )
        count = fan_cards if layout == "fan" else LAYOUT_CARDS[layout]
        codes = [pool[int(k)] for k in rng.choice(len(pool), count, replace=False)]
        if layout == "hole":  # each face with a back lying on it
            codes = [c for face in codes for c in (face, "BK")]
        elif layout == "tucked":  # each face lying half over a back (a hole card under its up card)
            codes = [c for face in codes for c in ("BK", face)]
        elif layout == "down":  # two hands dealt face down between two face-up hands
            codes = codes[:2] + ["BK", "BK"] + codes[2:] + ["BK", "BK"]
        hands = ("hits", "doubled", "hole", "tucked", "down")
        placements = cam.layout(codes, "hand" if layout in hands else layout)
        shot = cam.render(placements[::-1] if mirror else placements)
        WHYS.clear()
        t0 = time.perf_counter()
        read = [s.card for s in rec.recognize(shot.image)]
        ms.append((time.perf_counter() - t0) * 1000)
        if against_full:
            answered += WHYS[:1] == [""]
            differ += sorted(read) != sorted(s.card for s in full.recognize(shot.image))
        score = score_codes(codes, read)
        tp, fp, fn = tp + score.right, fp + score.false, fn + score.missed
        for a, b in zip(score.missing, score.extra, strict=False):
            confusions[(a, b)] += 1
    return {
        "layout": {"fan": f"fan ({fan_spread:g} deg)", "spread": f"spread ({spread_step:g} cards)"}.get(
            layout, layout
        ),
        "frames": frames,
        "recall": round(tp / max(1, tp + fn), 3),
        "precision": round(tp / max(1, tp + fp), 3),
        "true_positives": tp,
        "false_positives": fp,
        "false_negatives": fn,
        "ms_per_frame": round(float(np.mean(ms)), 1),
        "confusions": [f"{a}->{b}" for (a, b), _ in confusions.most_common(8)],
        **({"quick_answered": answered, "differ_from_full": differ} if against_full else {}),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=12)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--layouts", default="scatter,hand,fan")
    ap.add_argument("--extras", action="store_true", help="include jokers and backs in the draw")
    ap.add_argument("--fan-spread", type=float, default=9.0, help="degrees between the cards of a fan")
    ap.add_argument("--fan-cards", type=int, default=LAYOUT_CARDS["fan"], help="cards in a fan")
    ap.add_argument("--spread-step", type=float, default=0.2, help="card widths between a spread's cards")
    ap.add_argument("--backgrounds", default="felt,wood,dark", help="tables drawn in turn (vision.simcam)")
    ap.add_argument("--mirror", action="store_true", help="hands, fans and spreads dealt the other way round")
    ap.add_argument("--four-index", action="store_true", help="a deck with its index in all four corners")
    ap.add_argument("--against-full", action="store_true", help="count the frames the quick read answers")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.against_full:
        _spy_on_the_quick_read()
    layouts = a.layouts.split(",")
    if a.mirror and (other := [lay for lay in layouts if lay not in MIRRORED]):
        ap.error(f"--mirror deals {', '.join(MIRRORED)} the other way round, not {', '.join(other)}")
    bgs = tuple(a.backgrounds.split(","))
    deal = (a.mirror, a.four_index)
    out = [
        measure(
            lay,
            a.frames,
            a.seed,
            a.extras,
            a.fan_spread,
            bgs,
            a.fan_cards,
            a.spread_step,
            *deal,
            a.against_full,
        )
        for lay in layouts
    ]
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        for o in out:
            print(o)


if __name__ == "__main__":
    main()
