"""Measure the corner refiner on a ``scenes.py`` folder (e.g. the held-out benchmark /tmp/ho60).

    .venv/bin/python tools/vision/eval_corner_refiner.py /tmp/ho60 [--model PATH] [--passes 2]

For every index frame the recogniser's learned finder gives (first pass and big-card pass) that
lies within 0.3 card widths of a visible index corner of the truth (same handedness):

* corner error in card widths at the finder's frame and at the refined frame (median, share within
  0.03 and 0.06), by card width;
* cards whose code the reader reads at the finder's corner vs at the refined corner (the frame
  alone, upright then sideways as the recogniser tries it, no nearby corners searched), by width;
* end to end (``per_card.found``): the recogniser as shipped vs the same recogniser reading the
  refined frames (its corner search kept), by width and visible fraction;
* forward time on one thread: one frame, a batch of 12, and ``refine`` on 12 frames of a scene.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import per_card  # noqa: E402
from scenes import corner_affine  # noqa: E402
from train_corner_refiner import error_in_truth  # noqa: E402

from vision.corner_refiner import CornerRefiner, N, frame_axes  # noqa: E402
from vision.evaluate import detect_layout, evaluate  # noqa: E402
from vision.finder import IndexFrame, default_finder  # noqa: E402
from vision.index_frames import find_frames  # noqa: E402
from vision.recognizer import Recognizer, colour_is_informative  # noqa: E402

_KEEP = ("frames", "accuracy", "true_positives", "false_positives", "false_negatives", "f1", "ms_per_frame")
BANDS = ((25, 50), (50, 80), (80, 120), (120, 200), (200, 10_000))


def _truths(scene: dict) -> list[tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray], float]]:  # type: ignore[type-arg]
    """(card number, true frame, width) of every visible index corner."""
    out = []
    for n, card in enumerate(scene["cards"]):
        outline = np.array(card["outline"], np.float64)
        for k, shows in enumerate(card["index_visible"]):
            if shows:
                t = corner_affine(outline, k, float(card.get("bow", 0.0)))
                out.append((n, t, float(np.linalg.norm(t[1]))))
    return out


def _finder_frames(rec: Recognizer, image: np.ndarray) -> list[IndexFrame]:
    """Every index frame the recogniser's learned finder gives (both passes), none dropped."""
    return find_frames(rec, image, default_finder().run(image, rec.finder_size))


def _match(frame: IndexFrame, truths: list) -> tuple[int, float, tuple] | None:  # type: ignore[type-arg]
    """The visible index corner ``frame`` is nearest (card widths, same handedness), within 0.3."""
    best = None
    for n, t, _ in truths:
        e = error_in_truth(t, frame_axes(frame))
        if e is not None and (d := float(np.hypot(e[0], e[1]))) < 0.3 and (best is None or d < best[1]):
            best = (n, d, t)
    return best


def _reads(rec: Recognizer, image: np.ndarray, f: IndexFrame, code: str, colour: bool) -> bool:
    for side in (f.sideways, not f.sideways):
        r, _ = rec._read(image, f.frame, side, colour)
        if r is not None and r.confidence >= rec.min_confidence:
            return r.card == code
    return False


def _summary(v: list[float]) -> str:
    a = np.array(v)
    if not len(a):
        return "-"
    share = f"<=0.03 {np.mean(a <= 0.03):.2f}, <=0.06 {np.mean(a <= 0.06):.2f}"
    return f"median {np.median(a):.3f}, {share} (n={len(a)})"


def corners_and_reading(root: Path, refiner: CornerRefiner, passes: int) -> None:
    truth = json.loads((root / "truth.json").read_text())
    rec = Recognizer("table")
    errs: list[tuple[float, float, float]] = []  # width, before, after
    read: dict[tuple[str, int], list[bool]] = {}  # (scene, card) -> [at finder, at refined]
    widths: dict[tuple[str, int], float] = {}
    for name, scene in sorted(truth.items()):
        image = cv2.imread(str(root / "images" / name))
        colour = colour_is_informative(image)
        frames = _finder_frames(rec, image)
        refined = refiner.refine(image, frames, passes)
        truths = _truths(scene)
        for f, g in zip(frames, refined, strict=True):
            m = _match(f, truths)
            if m is None:
                continue
            n, before, t = m
            e = error_in_truth(t, frame_axes(g))
            after = float(np.hypot(e[0], e[1])) if e is not None else 1.0
            w = float(np.linalg.norm(t[1]))
            errs.append((w, before, after))
            card = scene["cards"][n]
            if card["code"] in ("BK", "JK"):
                continue
            key = (name, n)
            widths[key] = w
            got = read.setdefault(key, [False, False])
            got[0] = got[0] or _reads(rec, image, f, card["code"], colour)
            got[1] = got[1] or _reads(rec, image, g, card["code"], colour)
    print(f"corner error, card widths ({len(errs)} finder frames at a visible index):")
    for lo, hi in ((0, 10_000),) + BANDS:
        sel = [e for e in errs if lo <= e[0] < hi]
        print(f"  {lo}-{hi} px  finder: {_summary([e[1] for e in sel])}")
        print(f"  {lo}-{hi} px  refined: {_summary([e[2] for e in sel])}")
    print("cards read at the frame alone (finder corner -> refined corner):")
    for lo, hi in BANDS:
        sel = [v for k, v in read.items() if lo <= widths[k] < hi]
        print(f"  {lo}-{hi} px: {sum(v[0] for v in sel)} -> {sum(v[1] for v in sel)} / {len(sel)}")


def end_to_end(root: Path, refiner: CornerRefiner, passes: int, search: bool = True) -> None:
    """``per_card.found`` for the shipped recogniser and for one that reads refined frames."""
    shipped = Recognizer("table")
    rec = Recognizer("table")
    rec.frame_steps = (lambda _rec, view, frames: refiner.refine(view, frames, passes),)
    if not search:
        rec.corner_search = ()
    for label, r in (("shipped", shipped), ("refined frames", rec)):
        rows = per_card.found(root, r)
        parts = [f"all {sum(x[2] for x in rows)}/{len(rows)}"]
        for lo, hi in per_card.WIDTHS:
            sel = [x for x in rows if lo <= x[0] < hi]
            parts.append(f"{lo}-{hi}: {sum(x[2] for x in sel)}/{len(sel)}")
        sel = [x for x in rows if x[1] < 0.9]
        parts.append(f"covered: {sum(x[2] for x in sel)}/{len(sel)}")
        print(f"end to end, {label}: " + ", ".join(parts))


def folders(dirs: list[Path], refiner: CornerRefiner, passes: int, search: bool = True) -> None:
    """``dealer vision eval`` (``vision.evaluate``) on each folder, as shipped and with refined frames
    (the CLI's mode: shoe for single-card folders, whose default finder has no index frames)."""
    for d in dirs:
        mode = "shoe" if detect_layout(d) == "single" else "table"
        rec = Recognizer(mode)  # type: ignore[arg-type]
        refined = Recognizer(mode)  # type: ignore[arg-type]
        refined.frame_steps = (lambda _rec, view, frames: refiner.refine(view, frames, passes),)
        if not search:
            refined.corner_search = ()
        for label, r in (("shipped", rec), ("refined frames", refined)):
            out = evaluate(d, r).to_json()
            keep = {k: out[k] for k in _KEEP if k in out}
            print(f"{d.name} ({mode}), {label}: {json.dumps(keep)}", flush=True)


def timing(root: Path, refiner: CornerRefiner) -> None:
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    for k in (1, 12):
        x = rng.normal(0, 1, (k, 3, N, N)).astype(np.float32)
        refiner.corrections(x)
        t = time.perf_counter()
        for _ in range(20):
            refiner.corrections(x)
        print(f"forward, batch {k}: {(time.perf_counter() - t) / 20 * 1000:.2f} ms", flush=True)
    rec = Recognizer("table")
    for name in sorted((root / "images").glob("*.jpg")):
        image = cv2.imread(str(name))
        frames = _finder_frames(rec, image)
        if len(frames) >= 12:
            frames = frames[:12]
            refiner.refine(image, frames)
            t = time.perf_counter()
            for _ in range(10):
                refiner.refine(image, frames)
            print(
                f"refine 12 frames of {name.name} ({image.shape[1]}x{image.shape[0]}), two passes: "
                f"{(time.perf_counter() - t) / 10 * 1000:.2f} ms"
            )
            break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("--model", type=Path, default=None, help="ONNX file (default: the shipped one)")
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--skip", nargs="*", default=[], choices=["corners", "e2e", "timing"])
    ap.add_argument("--no-search", action="store_true", help="refined frames read without the corner search")
    ap.add_argument("--folders", type=Path, nargs="*", default=[], help="also dealer-vision-eval these")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    refiner = CornerRefiner.load(a.model)
    if "corners" not in a.skip:
        corners_and_reading(a.root, refiner, a.passes)
    if "e2e" not in a.skip:
        end_to_end(a.root, refiner, a.passes, not a.no_search)
    folders(a.folders, refiner, a.passes, not a.no_search)
    if "timing" not in a.skip:
        timing(a.root, refiner)


if __name__ == "__main__":
    main()
