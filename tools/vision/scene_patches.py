"""Corner patches the recogniser cuts while it reads ``scenes.py`` folders, labelled from the scenes' truth.

    python tools/vision/scene_patches.py /tmp/tr_6101 --out /tmp/scene_6101.npz [--keep-reject 0.25]

The patch reader's own chunks (``train_patch_reader.py``) cut each card's corners through frames
jittered by a model of the finder's error. This tool keeps the frames the finder, the corner refiner
and the recogniser's closer looks really give: it reads every scene of a **training-family** folder
with ``Recognizer("table")``, keeps every patch cut on the way (once per frame), and labels it from
``truth.json`` by geometry, as the chunks are labelled:

* a card's index box shows in a patch when at least 85 % of it lies inside the patch, upright (its
  downward edge pointing down the patch), uncovered by the cards laid after it and inside the image; it
  does not when at most 35 % does; in between the patch is left out of the loss;
* an index the scene calls hidden (covered by something ``truth.json`` does not outline) but that the
  outlines leave uncovered is left out, as is one whose ink is too faint to read (darkest-channel spread
  under 16 grey levels: under 10 it is taught as reject);
* a patch where exactly one card's index shows is labelled with that card (a joker's column as the
  joker head), where none shows and none half shows as reject, and otherwise left out.

The output has the chunks' keys and form (``x``: the patches shrunk to the network's input size with
``INTER_AREA``, uint8 BGR; ``rank``, ``suit``, ``joker``), so ``train_patch_reader.py --scene-patches``
can add it to a fine-tune. Train only on training-family folders: the cuts of a held-out folder
(``--split held-out``) measure a reader (``--keep-reject 1``), and the photos in ``shared/vision`` are
never cut for training.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from patch_labels import GRID, IGNORE, label_of  # noqa: E402

import vision.recognizer as recognizer  # noqa: E402
from vision.index import PH, PW  # noqa: E402
from vision.patch_reader import INPUT_H, INPUT_W, N_RANK, N_SUIT, RANKS, SUITS  # noqa: E402
from vision.sources import read_image  # noqa: E402

R_REJ, S_REJ = N_RANK - 1, N_SUIT - 1
FAINT = (10.0, 16.0)  # ink spread: under the first taught as reject, under the second left out


def _in_polygon(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Which of ``points`` (N × 2) lie inside the convex-or-not ``polygon`` (M × 2)."""
    poly = polygon.astype(np.float32).reshape(-1, 1, 2)
    return np.array([cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in points])


def _grid_points(quad: np.ndarray) -> np.ndarray:
    """25 points spread over a quad (corners in the index's own order: top-left, top-right, bottom-right,
    bottom-left as its glyphs stand)."""
    u, v = GRID[:, :1], GRID[:, 1:]
    top = quad[0] + u * (quad[1] - quad[0])
    bottom = quad[3] + u * (quad[2] - quad[3])
    return top + v * (bottom - top)


def _to_patch(points: np.ndarray, image_to_patch: np.ndarray) -> np.ndarray:
    pts = points.reshape(-1, 1, 2).astype(np.float64)
    return cv2.perspectiveTransform(pts, image_to_patch).reshape(-1, 2)


def index_shows(
    quad: np.ndarray, image_to_patch: np.ndarray, covers: list[np.ndarray], image_shape: tuple[int, ...]
) -> float:
    """The share of an index box (image coordinates) that lies upright inside the patch, uncovered by
    ``covers`` (the outlines of the cards laid after it) and inside the image."""
    top, bottom = _to_patch(np.array([(quad[0] + quad[1]) / 2, (quad[3] + quad[2]) / 2]), image_to_patch)
    down = bottom - top
    if down[1] <= 0 or abs(down[0]) > 0.6 * down[1]:
        return 0.0
    pts = _grid_points(quad)
    pp = _to_patch(pts, image_to_patch)
    h, w = image_shape[:2]
    ok = (pp[:, 0] >= 0) & (pp[:, 0] < PW) & (pp[:, 1] >= 0) & (pp[:, 1] < PH)
    ok &= (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    for outline in covers:
        ok &= ~_in_polygon(pts, outline)
    return float(ok.mean())


def ink_spread(patch: np.ndarray, quad_in_patch: np.ndarray) -> float:
    """Darkest-channel spread (3rd to 97th percentile) over the index box's bounding rectangle in the
    patch, widened by a third: how much ink there is to read."""
    x0, y0 = quad_in_patch.min(axis=0)
    x1, y1 = quad_in_patch.max(axis=0)
    mx, my = (x1 - x0) / 3, (y1 - y0) / 3
    xa, xb = int(max(0, x0 - mx)), int(min(PW, x1 + mx + 1))
    ya, yb = int(max(0, y0 - my)), int(min(PH, y1 + my + 1))
    if xb - xa < 2 or yb - ya < 2:
        return 0.0
    dark = patch[ya:yb, xa:xb].min(axis=2)
    lo, hi = np.percentile(dark, (3, 97))
    return float(hi - lo)


def patch_labels(
    patch: np.ndarray, patch_to_image: np.ndarray, cards: list[dict[str, Any]], image_shape: tuple[int, ...]
) -> tuple[int, int, int]:
    """(rank, suit, joker) classes of one patch from the scene's cards (in the order they were laid)."""
    to_patch = np.linalg.inv(patch_to_image)
    showing: list[str] = []
    unsure = False
    for i, card in enumerate(cards):
        covers = [np.array(c["outline"], np.float64) for c in cards[i + 1 :]]
        state = 0
        for quad, visible in zip(card["index_quads"], card["index_visible"], strict=True):
            q = np.array(quad, np.float64)
            shows = label_of(index_shows(q, to_patch, covers, image_shape))
            if shows == 0:
                continue
            if shows < 0 or not visible:
                state = state or -1
                continue
            ink = ink_spread(patch, _to_patch(q, to_patch))
            if ink < FAINT[0]:
                continue
            if ink < FAINT[1]:
                state = state or -1
                continue
            state = 1
        if state == 1:
            showing.append(card["code"])
        elif state == -1:
            unsure = True
    if len(showing) > 1 or (showing and unsure) or (not showing and unsure):
        return IGNORE, IGNORE, IGNORE
    if not showing:
        return R_REJ, S_REJ, 0
    code = showing[0]
    if code == "JK":
        return R_REJ, S_REJ, 1
    return RANKS.index(code[:-1]), SUITS.index(code[-1]), 0


def cuts_while_reading(image: np.ndarray, rec: recognizer.Recognizer) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every (patch, patch→image matrix) the recogniser cuts while it reads ``image``, once per frame."""
    seen: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}
    real = recognizer.cut_patch

    def recording(img: np.ndarray, frame, sideways: bool = False):  # type: ignore[no-untyped-def]
        patch, m = real(img, frame, sideways)
        if img is image:
            seen.setdefault(np.round(m, 3).tobytes(), (patch, m))
        return patch, m

    recognizer.cut_patch = recording  # type: ignore[assignment]
    try:
        rec.recognize(image)
    finally:
        recognizer.cut_patch = real  # type: ignore[assignment]
    return list(seen.values())


def mine(root: Path, keep_reject: float = 1.0, limit: int | None = None) -> dict[str, np.ndarray]:
    """Labelled patches from every scene of ``root`` (the first ``limit`` scenes when given), keeping a
    share ``keep_reject`` of the patches labelled reject (drawn with a fixed seed: most cuts show no index,
    and the readings that matter are the ones that do)."""
    truth = json.loads((root / "truth.json").read_text())
    rec = recognizer.Recognizer("table")
    xs: list[np.ndarray] = []
    ys: list[tuple[int, int, int]] = []
    t0 = time.time()
    rng = np.random.default_rng(0)
    names = sorted(truth)[:limit]
    for n, name in enumerate(names):
        image = read_image(root / "images" / name)
        for patch, m in cuts_while_reading(image, rec):
            label = patch_labels(patch, m, truth[name]["cards"], image.shape)
            if label == (R_REJ, S_REJ, 0) and rng.random() >= keep_reject:
                continue
            xs.append(cv2.resize(patch, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA))
            ys.append(label)
        if n % 50 == 0:
            print(
                f"{root.name}: {n}/{len(names)} scenes, {len(xs)} patches, {time.time() - t0:.0f} s",
                flush=True,
            )
    y = np.array(ys, np.int16).reshape(-1, 3)
    return {
        "x": np.stack(xs) if xs else np.zeros((0, INPUT_H, INPUT_W, 3), np.uint8),
        "rank": y[:, 0],
        "suit": y[:, 1],
        "joker": y[:, 2],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path, help="a scenes.py folder drawn with --split train")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--keep-reject", type=float, default=0.25, help="share of reject patches kept")
    ap.add_argument("--limit", type=int, help="only the first N scenes")
    a = ap.parse_args()
    if not (a.root / "truth.json").is_file():
        raise SystemExit(f"{a.root}: no truth.json (expected a folder written by tools/vision/scenes.py)")
    cv2.setNumThreads(1)
    d = mine(a.root, a.keep_reject, a.limit)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(a.out, **d)
    r, s = d["rank"], d["suit"]
    print(
        f"{a.out}: {len(r)} patches, cards {int(((r >= 0) & (r < R_REJ)).sum())}, jokers "
        f"{int((d['joker'] == 1).sum())}, reject {int(((r == R_REJ) & (s == S_REJ)).sum())}, "
        f"left out {int((r == IGNORE).sum())}"
    )


if __name__ == "__main__":
    main()
