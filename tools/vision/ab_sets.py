"""Two recognisers on the same scene folders, scene by scene, and whether the difference is more than noise.

    python tools/vision/ab_sets.py read /tmp/ho240 --out /tmp/new_ho.json                 # this checkout
    python tools/vision/ab_sets.py read /tmp/ho240 --out /tmp/old_ho.json --tree /tmp/old  # another one
    python tools/vision/ab_sets.py compare /tmp/ho240 /tmp/old_ho.json /tmp/new_ho.json --list

``read`` runs ``Recognizer("table")`` over a ``scenes.py`` folder (``images/``, ``labels.json``,
``optional.json``) and writes the codes it reads in each scene. ``--tree`` reads with the ``vision``
package of another checkout (``git worktree add /tmp/old HEAD~3``), so the two sides differ only in the
code. Environment settings the recogniser reads (``DEALER_VISION_PATCH_MARGIN`` …) apply as usual.

``read --fault NAME`` reads every scene as ``camera_faults.py``'s fault ``NAME`` changes it (in
memory: ``shifted`` moves the frame two pixels, ``turned_180`` turns it), so that a reading can be
compared with the same tree's reading of the scenes as drawn. A difference between two trees no
bigger than what ``shifted`` alone changes is the recogniser's jitter; a set that loses far more under
it than a fresh seed's set of the same kind has been fitted by the choices made on it: choose on one
set, confirm on a seed never read before (BENCHMARKS.md, "Vision, session 51").

``read --looks N`` reads each scene as ``Recognizer(looks=N)`` does (a still photo read up to N ways,
``vision.looks``). ``read --live FRAMES`` reads each scene as a live camera over it lying still: a
fresh ``LiveRecognizer`` fed FRAMES frames of it, each with its own sensor noise (``LIVE_NOISE`` levels,
drawn from the scene's place in the folder, so every tree sees the same frames), and keeps what it
says at the last; 6 frames cover a round of reads after a change and its fourth.

``compare`` counts both as ``dealer vision eval`` does (right, false, missed; optional cards neither),
says how many scenes read better, worse or the same (right minus false), lists the scenes that changed
(``--list``), and gives a paired bootstrap interval of the change in F1 and in right minus false:
the scenes are drawn again with replacement ``--resamples`` times and both readings scored on each
draw. A change whose 95 % interval holds 0 is within what another 240 scenes could have shown.
Retraining the corner refiner with another seed moved each 240-scene set by 2–7 cards (session 46).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # camera_faults.py, beside this file


@dataclass(frozen=True)
class SceneCounts:
    """Right, false and missed per scene (arrays in the folder's scene order) for one reading."""

    right: np.ndarray
    false: np.ndarray
    missed: np.ndarray

    def totals(self, pick: np.ndarray | None = None) -> tuple[int, int, int]:
        idx = slice(None) if pick is None else pick
        return int(self.right[idx].sum()), int(self.false[idx].sum()), int(self.missed[idx].sum())


def f1(right: int, false: int, missed: int) -> float:
    """F1 of the summed counts (0 where nothing was right)."""
    return 2 * right / (2 * right + false + missed) if right else 0.0


def scene_labels(root: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The codes each scene must show and those it may (``labels.json``, ``optional.json``)."""
    labels = _json_file(root / "labels.json", "the codes each scene shows")
    optional_file = root / "optional.json"
    optional = _json_file(optional_file, "optional cards") if optional_file.is_file() else {}
    return labels, optional


def _json_file(path: Path, what: str) -> dict[str, list[str]]:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise SystemExit(
            f"{path}: no such file (expected {what}, as tools/vision/scenes.py writes)"
        ) from None
    except json.JSONDecodeError as e:
        raise SystemExit(f"{path}: not JSON ({e}); expected {what}") from None
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: expected an object of scene name to codes ({what})")
    return data


def counts(
    root: Path,
    read: dict[str, list[str]],
    labelled: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None,
) -> SceneCounts:
    """Per-scene counts of ``read`` (scene name → codes) against the folder's labels (``labelled``:
    ``scene_labels(root)``, where the caller has them already)."""
    from vision.evaluate import score_codes

    labels, optional = labelled or scene_labels(root)
    unknown = sorted(set(read) - set(labels))
    if unknown:
        raise SystemExit(f"scenes read that {root / 'labels.json'} does not hold: {', '.join(unknown[:5])}")
    missing = sorted(set(labels) - set(read))
    if missing:
        raise SystemExit(f"scenes of {root} not in the readings: {', '.join(missing[:5])}")
    rows = [score_codes(labels[n], read[n], optional.get(n, [])) for n in sorted(labels)]
    return SceneCounts(
        *(np.array([getattr(s, k) for s in rows], np.int64) for k in ("right", "false", "missed"))
    )


def bootstrap(
    base: SceneCounts, new: SceneCounts, resamples: int, seed: int
) -> dict[str, tuple[float, float]]:
    """95 % intervals (2.5th and 97.5th percentiles) of the change in F1 and in right minus false over
    scenes drawn again with replacement, both readings scored on the same draw."""
    n = len(base.right)
    rng = np.random.default_rng(seed)
    d_f1, d_net = [], []
    for _ in range(resamples):
        pick = rng.integers(0, n, n)
        b, w = base.totals(pick), new.totals(pick)
        d_f1.append(f1(*w) - f1(*b))
        d_net.append((w[0] - w[1]) - (b[0] - b[1]))

    def interval(v: list[float]) -> tuple[float, float]:
        lo, hi = np.percentile(v, [2.5, 97.5])
        return float(lo), float(hi)

    return {"f1": interval(d_f1), "right_minus_false": interval(d_net)}


def _summary(c: SceneCounts) -> dict[str, int | float]:
    right, false, missed = c.totals()
    return {"right": right, "false": false, "missed": missed, "f1": round(f1(right, false, missed), 4)}


def compare(
    root: Path, base: dict[str, list[str]], new: dict[str, list[str]], resamples: int = 2000, seed: int = 0
) -> dict[str, object]:
    """Both readings' totals, the scenes better / worse / the same, the changed scenes, the intervals."""
    labelled = scene_labels(root)
    b, w = counts(root, base, labelled), counts(root, new, labelled)
    net = (w.right - w.false) - (b.right - b.false)
    names = sorted(labelled[0])
    changed = [
        {"scene": n, "base": sorted(base[n]), "new": sorted(new[n])}
        for n in names
        if sorted(base[n]) != sorted(new[n])
    ]
    return {
        "base": _summary(b),
        "new": _summary(w),
        "scenes": {
            "better": int((net > 0).sum()),
            "worse": int((net < 0).sum()),
            "same": int((net == 0).sum()),
        },
        "interval_95": bootstrap(b, w, resamples, seed),
        "changed": changed,
    }


LIVE_NOISE = 2.0  # levels of sensor noise (standard deviation) each live frame of a still scene gets


def read(root: Path, fault: str = "none", looks: int = 1, live: int = 0) -> dict[str, list[str]]:
    """The codes ``Recognizer("table", looks=looks)`` reads in each scene of ``root``, each first
    changed by ``camera_faults.FAULTS[fault]``; with ``live`` frames, what a ``LiveRecognizer`` says
    after that many frames of the scene lying still, each with its own sensor noise."""
    import cv2
    from camera_faults import FAULTS

    from vision.recognizer import Recognizer
    from vision.sources import read_image

    cv2.setNumThreads(1)
    labels, _ = scene_labels(root)
    rec = Recognizer("table", looks=looks)
    change = FAULTS[fault]
    out = {}
    for i, name in enumerate(sorted(labels)):
        image = change(read_image(root / "images" / name))
        out[name] = sorted(s.card for s in (_live(rec, image, live, i) if live else rec.recognize(image)))
    return out


def _live(rec: object, image: np.ndarray, frames: int, seed: int) -> list[object]:
    """What a fresh ``LiveRecognizer`` over ``rec`` says at the last of ``frames`` frames of ``image``,
    each with its own noise (``LIVE_NOISE`` levels; the same noise for every tree)."""
    from vision.live import LiveRecognizer

    live = LiveRecognizer(rec)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    seen: list[object] = []
    for _ in range(frames):
        noise = rng.normal(0.0, LIVE_NOISE, image.shape)
        seen = list(live.recognize(np.clip(image + noise, 0, 255).astype(np.uint8)))
    return seen


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("read", help="read a scene folder, write the codes of each scene")
    r.add_argument("root", type=Path)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--tree", type=Path, default=HERE, help="the checkout whose vision package reads")
    r.add_argument("--fault", default="none", help="read each scene as camera_faults.py's fault changes it")
    r.add_argument(
        "--looks", type=int, default=1, choices=(1, 3, 4), help="reads of each scene, at most (vision.looks)"
    )
    r.add_argument(
        "--live", type=int, default=0, metavar="FRAMES", help="read as a live camera sees a still table"
    )
    c = sub.add_parser("compare", help="two readings of one folder, scene by scene")
    c.add_argument("root", type=Path)
    c.add_argument("base", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--resamples", type=int, default=2000)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--list", action="store_true", help="also print every scene that changed")
    c.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.what == "read":
        if not (a.tree / "vision" / "__init__.py").is_file():
            raise SystemExit(f"{a.tree}: no vision package there (expected a checkout of this project)")
        sys.path.insert(0, str(a.tree.resolve()))
        from camera_faults import FAULTS

        if a.fault not in FAULTS:
            raise SystemExit(
                f"--fault {a.fault}: not a fault camera_faults.py knows ({', '.join(sorted(FAULTS))})"
            )
        if a.live < 0:
            raise SystemExit(f"--live {a.live}: expected a number of frames, 1 or more")
        if a.live and a.looks != 1:
            raise SystemExit(
                f"--live with --looks {a.looks}: a live camera reads one look a frame; leave --looks out"
            )
        a.out.write_text(json.dumps(read(a.root, a.fault, a.looks, a.live), indent=1))
        return
    sys.path.insert(0, str(HERE))
    out = compare(a.root, _json_file(a.base, "readings"), _json_file(a.new, "readings"), a.resamples, a.seed)
    if a.json:
        print(json.dumps(out, indent=1))
        return
    for side in ("base", "new"):
        s = out[side]
        print(f"{side:4}: right {s['right']}, false {s['false']}, missed {s['missed']}, F1 {s['f1']}")  # type: ignore[index]
    sc = out["scenes"]
    print(f"scenes better {sc['better']}, worse {sc['worse']}, the same {sc['same']}")  # type: ignore[index]
    iv = out["interval_95"]
    print(
        "95 % interval of the change: F1 {:+.4f} to {:+.4f}; right minus false {:+.0f} to {:+.0f}".format(
            *iv["f1"],
            *iv["right_minus_false"],  # type: ignore[index]
        )
    )
    if a.list:
        for ch in out["changed"]:  # type: ignore[attr-defined]
            print(f"{ch['scene']}: {' '.join(ch['base']) or '-'} -> {' '.join(ch['new']) or '-'}")


if __name__ == "__main__":
    main()
