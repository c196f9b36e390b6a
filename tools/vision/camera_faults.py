"""Scene folders read again under the faults of a real camera, to measure how recognition holds up.

Measuring only: a folder of photos is recognised as it is and as a camera might have taken it
instead (turned, smaller, darker, over-exposed, with a colour cast, blurred, heavily compressed,
noisy, through an uncorrected wide-angle lens, with the cards bowed, in greyscale), and right /
false / missed are counted against its ``labels.json`` as ``dealer vision eval`` counts them (a card
of ``optional.json`` neither right nor false). Nothing is tuned on the result. ``--write OUT`` writes
one fault's copy of a folder (labels alongside) for ``dealer vision eval``; a scene folder's
``truth.json`` goes with it turned or scaled as its images are (``per_card.py`` reads it), and is left
out where the fault bends the frame (the wide lens, the bowed cards).

One more "fault" is none a camera makes: ``shifted`` moves the frame two pixels up and left (its
edge repeated). What that changes is the recogniser's own jitter: a difference between two trees
no bigger than it is noise, and a set that loses far more under it than a fresh set of the same
kind has been fitted by the choices made on it (BENCHMARKS.md, "Vision, session 51").

    python tools/vision/camera_faults.py ../shared/vision/dev/table_dark ../shared/vision/dev/table_wood
    python tools/vision/camera_faults.py /tmp/nval240 --write /tmp/ov_val240 --fault over_exposed
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np


def _scaled(image: np.ndarray, long_side: int) -> np.ndarray:
    s = long_side / max(image.shape[:2])
    return cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else image


def _levels(image: np.ndarray, gain: float | tuple[float, float, float], offset: float = 0.0) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.asarray(gain, np.float32) + offset, 0, 255).astype(np.uint8)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def _noisy(image: np.ndarray, sigma: float) -> np.ndarray:
    noise = np.random.default_rng(0).normal(0.0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _barrel(image: np.ndarray, k: float) -> np.ndarray:
    """The frame as an uncorrected wide-angle lens draws it: radial distortion ``k`` (positive: barrel,
    straight lines bowed outward), scaled so that the middles of the long sides stay put. Nothing of
    the scene leaves the frame; where the frame reaches past the scene (towards its short sides and
    corners) the scene's edge is drawn on, as table rather than black a finder could take for a card."""
    h, w = image.shape[:2]
    f = max(w, h) / 2
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = (xs - w / 2) / f, (ys - h / 2) / f
    gain = (1 + k * (xn * xn + yn * yn)) / (1 + k * (min(w, h) / (2 * f)) ** 2)
    mx, my = xn * gain * f + w / 2, yn * gain * f + h / 2
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _bowed(image: np.ndarray, amount: float) -> np.ndarray:
    """The frame drawn through a smooth rubber-sheet warp: each point moved by up to ``amount`` of the
    long side along waves about two thirds of the frame long, so that straight card edges bow and a
    card's corners are no longer a parallelogram's: cards that have curled or been bent in the hand,
    a wavy cloth under them, a lens no model describes. The waves die away towards the frame's edges
    (over a tenth of its size), so nothing is drawn from outside it. Fixed phases: the same warp every
    run."""
    h, w = image.shape[:2]
    long = max(h, w)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    k = np.float32(2 * np.pi / (0.65 * long))
    across = np.clip(np.minimum(xs, w - 1 - xs) / (0.1 * w), 0, 1)
    down = np.clip(np.minimum(ys, h - 1 - ys) / (0.1 * h), 0, 1)
    taper = np.minimum(across, down)
    a = np.float32(amount * long) * taper
    mx = xs + a * (np.sin(k * ys + 0.7) + 0.5 * np.sin(1.7 * k * (xs + ys) + 2.1))
    my = ys + a * (np.sin(k * xs + 1.9) + 0.5 * np.sin(1.3 * k * (xs - ys) + 0.4))
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


FAULTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "none": lambda im: im,
    "turned_90": lambda im: cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE),
    "turned_180": lambda im: cv2.rotate(im, cv2.ROTATE_180),
    "long_1280": lambda im: _scaled(im, 1280),
    "long_800": lambda im: _scaled(im, 800),
    "dark": lambda im: _levels(im, 0.45),
    "over_exposed": lambda im: _levels(im, 1.5, 20.0),
    "warm_cast": lambda im: _levels(im, (0.75, 0.95, 1.15)),
    "blurred": lambda im: cv2.GaussianBlur(im, (0, 0), 1.2 * max(im.shape[:2]) / 1280),
    "jpeg_30": lambda im: _jpeg(im, 30),
    "noise_8": lambda im: _noisy(im, 8.0),
    "wide_lens": lambda im: _barrel(im, 0.15),
    "bowed": lambda im: _bowed(im, 0.008),
    "greyscale": lambda im: cv2.cvtColor(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
    "shifted": lambda im: cv2.copyMakeBorder(im[2:, 2:], 0, 2, 0, 2, cv2.BORDER_REPLICATE),
}

Points = np.ndarray  # N × 2 image pixels


def _turned_90(p: Points, w: int, h: int) -> Points:
    return np.stack([h - 1 - p[:, 1], p[:, 0]], axis=1)


def _turned_180(p: Points, w: int, h: int) -> Points:
    return np.stack([w - 1 - p[:, 0], h - 1 - p[:, 1]], axis=1)


def _long(side: int) -> Callable[[Points, int, int], Points]:
    def scaled(p: Points, w: int, h: int) -> Points:
        s = side / max(w, h)
        return (p + 0.5) * s - 0.5 if s < 1 else p

    return scaled


def _shifted(p: Points, w: int, h: int) -> Points:
    return p - 2.0


# where each fault moves a point of a (w × h) frame; a fault that does not move pixels is absent, and
# one that bends the frame (the wide lens, the bowed cards) is None: its truth no longer holds
MOVES: dict[str, Callable[[Points, int, int], Points] | None] = {
    "turned_90": _turned_90,
    "turned_180": _turned_180,
    "long_1280": _long(1280),
    "long_800": _long(800),
    "shifted": _shifted,
    "wide_lens": None,
    "bowed": None,
}


def _read(job: tuple[str, str, str]) -> tuple[str, str, str, list[str]]:
    from vision import Recognizer, read_image

    cv2.setNumThreads(1)
    folder, name, fault = job
    image = FAULTS[fault](read_image(Path(folder) / "images" / name))
    return folder, name, fault, [s.card for s in Recognizer("table").recognize(image)]


def measure(folders: list[Path], faults: list[str], workers: int) -> dict[str, tuple[int, int, int]]:
    """(right, false, missed) per fault over every scene of ``folders``, counted as ``dealer vision
    eval`` counts them; each miss printed."""
    from vision.evaluate import score_codes

    labels = {str(f): json.loads((f / "labels.json").read_text()) for f in folders}
    optional = {
        str(f): json.loads((f / "optional.json").read_text()) if (f / "optional.json").is_file() else {}
        for f in folders
    }
    jobs = [
        (folder, name, fault) for folder, lab in labels.items() for name in sorted(lab) for fault in faults
    ]

    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(_read, jobs, chunksize=1)
    else:
        results = [_read(job) for job in jobs]
    totals = {fault: [0, 0, 0] for fault in faults}
    for folder, name, fault, read in results:
        may = optional[folder].get(name, [])
        score = score_codes(labels[folder][name], read, may)
        row = totals[fault]
        row[0] += score.right
        row[1] += score.false
        row[2] += score.missed
        if score.false or score.missed:
            print(
                f"{fault}: {Path(folder).name}/{name} missing {list(score.missing)} extra {list(score.extra)}"
            )
    return {fault: (r[0], r[1], r[2]) for fault, r in totals.items()}


def write_copy(folder: Path, out: Path, fault: str) -> None:
    """``folder`` (a scene folder) with ``fault`` applied to every image, labels copied alongside and
    its ``truth.json`` moved as the images are (``MOVES``; left out where the fault bends the frame)."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    for name in ("labels.json", "optional.json"):
        if (folder / name).is_file():
            shutil.copy(folder / name, out / name)
    sizes = {}
    for path in sorted((folder / "images").iterdir()):
        image = cv2.imread(str(path))
        if image is not None:
            sizes[path.name] = (image.shape[1], image.shape[0])
            cv2.imwrite(str(out / "images" / path.name), FAULTS[fault](image), [cv2.IMWRITE_JPEG_QUALITY, 92])
    move = MOVES.get(fault, _still)
    if not (folder / "truth.json").is_file() or move is None:
        return
    truth = json.loads((folder / "truth.json").read_text())
    for name, scene in truth.items():
        if name in sizes:
            _move_truth(scene, move, *sizes[name])
    (out / "truth.json").write_text(json.dumps(truth))


def _still(p: Points, w: int, h: int) -> Points:
    return p


def _move_truth(scene: dict, move: Callable[[Points, int, int], Points], w: int, h: int) -> None:
    """A ``truth.json`` scene's outlines and index quads (in place) moved by ``move`` in a w × h frame."""
    for card in scene["cards"]:
        card["outline"] = np.round(move(np.asarray(card["outline"], np.float64), w, h), 2).tolist()
        card["index_quads"] = [
            np.round(move(np.asarray(q, np.float64).reshape(-1, 2), w, h), 2).tolist()
            for q in card["index_quads"]
        ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", type=Path, nargs="+", help="scene folders (images/ + labels.json)")
    ap.add_argument("--fault", action="append", choices=sorted(FAULTS), help="default: every one")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--write", type=Path, help="write the one --fault's copy of the one folder here")
    args = ap.parse_args()
    faults = args.fault or list(FAULTS)
    if args.write is not None:
        if len(faults) != 1 or len(args.folders) != 1:
            ap.error("--write takes one folder and one --fault")
        write_copy(args.folders[0], args.write, faults[0])
        return
    for fault, (right, false, missed) in measure(args.folders, faults, args.workers).items():
        f1 = 2 * right / max(1, 2 * right + false + missed)
        print(f"{fault:13s} right {right:4d}  false {false:3d}  missed {missed:3d}  F1 {f1:.3f}")


if __name__ == "__main__":
    main()
