"""Per-card diagnosis of a ``scenes.py`` benchmark: which cards are read, by size and visibility.

    python tools/vision/per_card.py /tmp/ho60            # the recogniser as shipped
    python tools/vision/per_card.py /tmp/ho60 --oracle   # every visible index read at its TRUE corner
    python tools/vision/per_card.py /tmp/ho60 --montage /tmp/missed.png   # the missed cards' indices
    python tools/vision/per_card.py /tmp/ho60 --why      # each missed card read at its TRUE corners
    python tools/vision/per_card.py /tmp/ho60 --stages   # where those that read there are lost

A labelled card counts as read when a sighting of its code has its index corner (or outline centre)
inside the card's true outline. ``--oracle`` separates reading from finding: it reads each visible
index through the card's true homography, so what fails there is the reader's. ``--montage`` draws
every missed card's visible indices, cut upright from the scene through their true corners and
labelled with the code and the card's width in pixels: whether a person could read them. ``--why``
sorts the missed cards by what reading their visible indices at the true corners gives: a back; the
card (finding lost it: no frame at its index, or its reading dropped later); another card (the
reader's); nothing sure enough. ``--stages`` follows the cards of the second kind through the full
read (the quick read off, so a card the quick read lost can be found there) and says at which step
each was lost: no first-look frame at its index; the first look's frame there dropped before reading;
the frames there read another card or nothing; read there but dropped (read only by a look that needs
a sure reading, too unsure as a group, or grouped with another reading); read through the index frames
but lost after; or found in the full read after all, or its code read with its index off the card
(which ``dealer vision eval``, counting codes, takes as right).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import vision.index_frames as index_frames  # noqa: E402
import vision.recognizer as recognizer  # noqa: E402
from vision.detect import CornerFrame  # noqa: E402
from vision.finder import index_frames as first_look  # noqa: E402
from vision.recognizer import Recognizer, colour_is_informative  # noqa: E402
from vision.render import CARD_ASPECT  # noqa: E402

WIDTHS = ((50, 80), (80, 120), (120, 200), (200, 10_000))
UNIT = np.array([[0, 0], [1, 0], [1, CARD_ASPECT], [0, CARD_ASPECT]], np.float32)


def _width(outline: np.ndarray) -> float:
    return float(np.linalg.norm(outline[1] - outline[0]))


def found(root: Path, rec: Recognizer) -> list[tuple[float, float, bool, str, dict]]:  # type: ignore[type-arg]
    """(card width, visible fraction, read right, scene, the card's truth) for every labelled card."""
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
            rows.append((_width(outline), shown, hit, name, card))
    return rows


TILE = (64, 96)  # an index cut upright: width, height


def montage(root: Path, missed: list[tuple[str, dict]], per_row: int = 10) -> np.ndarray:  # type: ignore[type-arg]
    """The visible indices (at most two) of each missed ``(scene, card)``, side by side, a card a tile."""
    tw, th = TILE
    dst = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    tiles = []
    for name, card in missed:
        image = cv2.imread(str(root / "images" / name))
        quads = [q for q, shows in zip(card["index_quads"], card["index_visible"], strict=True) if shows][:2]
        cuts = [
            cv2.warpPerspective(image, cv2.getPerspectiveTransform(np.array(q, np.float32), dst), TILE)
            for q in quads
        ]
        tile = np.concatenate(cuts + [np.zeros((th, tw, 3), np.uint8)] * (2 - len(cuts)), axis=1)
        label = f"{card['code']} {_width(np.array(card['outline'])):.0f}"
        cv2.putText(tile, label, (2, th - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 255, 0), 1, cv2.LINE_AA)
        tiles.append(tile)
    blank = np.zeros((th, 2 * tw, 3), np.uint8)
    rows = [tiles[i : i + per_row] for i in range(0, len(tiles), per_row)] or [[]]
    return np.concatenate([np.concatenate(r + [blank] * (per_row - len(r)), axis=1) for r in rows])


def at_truth(rec: Recognizer, image: np.ndarray, card: dict) -> list[str | None]:  # type: ignore[type-arg]
    """What each visible upright index of ``card`` (its truth) reads through the card's true
    homography: a code read at least ``min_confidence``, or None. Read as the recogniser reads that
    frame: without the red-ink prior where the frame shows no red (a black-and-white photo)."""
    outline = np.array(card["outline"], np.float32)
    colour = colour_is_informative(image)
    codes: list[str | None] = []
    for k, shows in enumerate(card["index_visible"][:2]):  # the two upright indices
        if not shows:
            continue
        dst = outline if k == 0 else outline[[2, 3, 0, 1]]
        hom = cv2.getPerspectiveTransform(UNIT, dst)
        frame = CornerFrame(dst[0].astype(float), np.array([1.0, 0]), np.array([0.0, 1]), _width(dst), hom)
        r = rec.read_corner(image, frame, colour=colour)
        codes.append(r.card if r is not None and r.confidence >= rec.min_confidence else None)
    return codes


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
            for code in at_truth(rec, image, card):
                rows.append((_width(outline), float(card["visible"]), code == card["code"]))
    return rows


WHY = ("a back", "reads at its true corner", "misread at its true corner", "unread at its true corner")


def why_missed(root: Path, rec: Recognizer) -> list[tuple[str, str, dict]]:  # type: ignore[type-arg]
    """(reason from ``WHY``, scene, the card's truth) for every labelled card the recogniser missed."""
    out = []
    for _, _, hit, name, card in found(root, rec):
        if hit:
            continue
        if card["code"] == "BK":
            out.append((WHY[0], name, card))
            continue
        codes = at_truth(rec, cv2.imread(str(root / "images" / name)), card)
        if card["code"] in codes:
            out.append((WHY[1], name, card))
        else:
            out.append((WHY[2] if any(codes) else WHY[3], name, card))
    return out


STAGES = (
    "no first-look frame at its index",
    "the first look's frame there dropped before reading",
    "the frames there read another card or nothing",
    "read there, then dropped",
    "read through the index frames, lost after",
    "found in the full read, or its code read with its index off the card",
)


@contextmanager
def _traced(log: dict[str, list[Any]]) -> Iterator[None]:
    """The recogniser's index-frame steps, each call's output added to ``log``, for the block."""
    find, read_all = recognizer.find_frames, recognizer.read_index_frames
    read_each = index_frames._read_frames

    def find_traced(*a: Any, **k: Any) -> Any:
        out = find(*a, **k)
        log["frames"] += out
        return out

    def read_each_traced(*a: Any, **k: Any) -> Any:
        out = read_each(*a, **k)
        log["read"] += out[0]
        return out

    def read_all_traced(*a: Any, **k: Any) -> Any:
        out = list(read_all(*a, **k))
        log["sighted"] += out
        return out

    recognizer.find_frames, index_frames._read_frames = find_traced, read_each_traced  # type: ignore[assignment]
    recognizer.read_index_frames = read_all_traced  # type: ignore[assignment]
    try:
        yield
    finally:
        recognizer.find_frames, recognizer.read_index_frames = find, read_all
        index_frames._read_frames = read_each


def lost_where(root: Path, rec: Recognizer) -> list[tuple[str, str, dict]]:  # type: ignore[type-arg]
    """(stage from ``STAGES``, scene, the card's truth) for every missed card that reads right at its
    true corners (``why_missed``): where in the full read it was lost."""
    cases = [(name, card) for reason, name, card in why_missed(root, rec) if reason == WHY[1]]
    quick, rec.quick = rec.quick, False  # the steps traced are the full read's
    out = []
    for name, card in cases:
        image = cv2.imread(str(root / "images" / name))
        outline = np.array(card["outline"], np.float32)
        width = _width(outline)
        quads = zip(card["index_quads"], card["index_visible"], strict=True)
        shown = [np.mean(q, axis=0) for q, v in quads if v]

        def at_index(p: tuple[float, float], shown: list[np.ndarray] = shown, width: float = width) -> bool:
            return any(float(np.linalg.norm(np.asarray(p) - c)) < 0.3 * width for c in shown)

        def on_card(s: Any, poly: np.ndarray = outline.reshape(-1, 1, 2)) -> bool:
            p = np.mean(s.index_corner or s.outline, axis=0)
            return bool(cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0)

        _, maps = rec._find(image)
        first = maps is not None and any(
            at_index(index_frames.index_point(f)) for f in first_look(maps, rec.min_index_heat)
        )
        log: dict[str, list[Any]] = {"frames": [], "read": [], "sighted": []}
        with _traced(log):
            final = rec.recognize(image)
        code = card["code"]
        if any(s.card == code and on_card(s) for s in final):
            stage = STAGES[5]
        elif any(s.card == code and on_card(s) for s in log["sighted"]):
            stage = STAGES[4]
        elif any(r.card == code and at_index(index_frames.index_point(f)) for r, f in log["read"]):
            stage = STAGES[3]
        elif any(at_index(index_frames.index_point(f)) for f in log["frames"]):
            stage = STAGES[2]
        else:
            stage = STAGES[1] if first else STAGES[0]
        out.append((stage, name, card))
    rec.quick = quick
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("--oracle", action="store_true")
    ap.add_argument("--montage", type=Path, help="write the missed cards' indices to this PNG")
    ap.add_argument("--why", action="store_true", help="each missed card read at its true corners")
    ap.add_argument("--stages", action="store_true", help="where the missed cards that read there are lost")
    a = ap.parse_args()
    if a.oracle and (a.montage or a.why or a.stages):
        ap.error("--montage, --why and --stages look at the cards the recogniser missed: not with --oracle")
    rec = Recognizer("table")
    if a.stages:
        stages = lost_where(a.root, rec)
        for stage, name, card in sorted(stages, key=lambda t: (STAGES.index(t[0]), t[1])):
            width = _width(np.array(card["outline"]))
            print(f"{stage}: {name} {card['code']} {width:.0f} px, {card['visible']:.2f} visible")
        for stage, n in sorted(Counter(t[0] for t in stages).items(), key=lambda kv: STAGES.index(kv[0])):
            print(f"{stage}: {n}")
        return
    if a.why:
        reasons = why_missed(a.root, rec)
        for reason, name, card in sorted(reasons, key=lambda t: (WHY.index(t[0]), t[1])):
            width = _width(np.array(card["outline"]))
            print(f"{reason}: {name} {card['code']} {width:.0f} px, {card['visible']:.2f} visible")
        for reason in WHY:
            print(f"{reason}: {sum(r == reason for r, _, _ in reasons)}")
        return
    rows = (oracle if a.oracle else found)(a.root, rec)
    if a.montage:
        cv2.imwrite(str(a.montage), montage(a.root, [(r[3], r[4]) for r in rows if not r[2]]))
        print(f"wrote {a.montage}: {sum(not r[2] for r in rows)} missed cards")
    print(f"all: {sum(r[2] for r in rows)} / {len(rows)}")
    for lo, hi in WIDTHS:
        sel = [r for r in rows if lo <= r[0] < hi]
        print(f"width {lo}-{hi} px: {sum(r[2] for r in sel)} / {len(sel)}")
    for lo, hi in ((0, 0.5), (0.5, 0.9), (0.9, 1.01)):
        sel = [r for r in rows if lo <= r[1] < hi]
        print(f"visible {lo}-{min(hi, 1.0)}: {sum(r[2] for r in sel)} / {len(sel)}")


if __name__ == "__main__":
    main()
