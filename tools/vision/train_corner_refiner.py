"""Train the corner refiner (``vision/corner_refiner.py``) on the project's own synthetic scenes.

    /work/venv-train/bin/python tools/vision/train_corner_refiner.py all --seed 0

``all`` = ``generate`` (training-split scenes from ``tools/vision/scenes.py``: every visible index
corner's true frame, a crop of the scene round it, and the frame the shipped finder regressed there
when it found that index) then ``train`` (one thread) then ``export`` to
``vision/models/corner_refiner.onnx``. Nothing here reads a real photo or a held-out scene: only
``backgrounds.TRAIN_FAMILIES``, scene seeds ``100_000 + 1000 * seed + shard``.

Training pairs: a true corner frame, disturbed (the finder's own error on that very corner, an error
the finder made on another corner, or a random one of the same size), the canonical patch cut through
the disturbed frame exactly as the runtime cuts it (``corner_refiner.sample_patch``), and as target
the true frame in the disturbed frame's patch coordinates: the corner offset (du, dv) in card widths
and the 2×2 matrix taking the disturbed edge vectors to the true ones, minus the identity.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from torch_tools import sharded_cli  # noqa: E402

from vision.corner_refiner import OUT, N, prepare, sample_patch  # noqa: E402

STORE_PX = 88  # crops are kept at most this many pixels per card width (the patch has 80)
REACH = 1.25  # crops reach this many (longer) edge vectors round the true corner
HELD_OUT_SEED = 777


def _scene_seed(seed: int, shard: int) -> int:
    s = 100_000 + 1000 * seed + shard
    assert s != HELD_OUT_SEED
    return s


def truth_frames(cards) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:  # type: ignore[no-untyped-def]
    """(corner, s, long, visible fraction, width) of every visible index corner of a scene."""
    from scenes import corner_affine

    out = []
    for c in cards:
        for k, shows in enumerate(c.index_visible):
            if shows:
                corner, s, long = corner_affine(c.outline, k, c.bow)
                out.append((corner, s, long, float(c.visible), float(np.linalg.norm(s))))
    return out


def error_in_truth(truth: tuple, frame: tuple) -> np.ndarray | None:  # type: ignore[type-arg]
    """A frame's error in its true frame's card coordinates: (d, B − I) with frame corner =
    corner + A·d and frame edges = A·B (A = the true edge vectors as columns); None if left-handed."""
    a = np.stack([truth[1], truth[2]], 1)
    inv = np.linalg.inv(a)
    d = inv @ (frame[0] - truth[0])
    b = inv @ np.stack([frame[1], frame[2]], 1)
    if np.linalg.det(b) <= 0.05:
        return None
    return np.array([d[0], d[1], b[0, 0] - 1, b[1, 0], b[0, 1], b[1, 1] - 1])


def generate(
    out: Path, shards: int, per_shard: int, seed: int, first: int = 0, workers: int = 1, curl: float = 0.0
) -> None:
    """Shards ``first`` … ``first + shards - 1`` (each deterministic from its number), in
    ``workers`` processes; ``curl``: the share of cards drawn curled (``scenes.make_scene``)."""
    out.mkdir(parents=True, exist_ok=True)
    todo = [k for k in range(first, first + shards) if not (out / f"shard_{k:03d}.npz").exists()]
    if workers <= 1:
        for k in todo:
            _shard(out, k, per_shard, seed, curl)
        return
    from multiprocessing import Pool

    with Pool(workers) as pool:
        pool.starmap(_shard, [(out, k, per_shard, seed, curl) for k in todo], chunksize=1)


def _shard(out: Path, k: int, per_shard: int, seed: int, curl: float = 0.0) -> None:
    """One shard of crops round every visible index corner of training-split scenes (640×480, some
    1280×960), each with its true frame in crop pixels and the shipped finder's error there; that
    share ``curl`` of the cards curled, from a generator of its own (none: the shard as before)."""
    import cv2
    from backgrounds import TRAIN_FAMILIES
    from scenes import Deck, make_scene

    from vision.corner_refiner import frame_axes
    from vision.finder import default_finder, index_frames

    cv2.setNumThreads(1)
    path = out / f"shard_{k:03d}.npz"
    rng = np.random.default_rng(_scene_seed(seed, k))
    curled = (curl, np.random.default_rng([_scene_seed(seed, k), 2])) if curl else None
    decks = [Deck(rng) for _ in range(6)]
    crops: list[np.ndarray] = []
    frames, errs, meta = [], [], []
    for _ in range(per_shard):
        big = rng.random() < 0.2
        size = (1280, 960) if big else (640, 480)
        if rng.random() < 0.3:
            size = size[::-1]
        scene = make_scene(
            rng, size, TRAIN_FAMILIES, decks, max_cards=12, min_card=22 if not big else 40, curl=curled
        )
        truths = [t for t in truth_frames(scene.cards) if t[4] >= 18]
        if not truths:
            continue
        found = [frame_axes(f) for f in index_frames(default_finder().run(scene.image, 512), 0.3)]
        for t in truths:
            err = np.full(OUT, np.nan)
            best = 0.3
            for f in found:
                e = error_in_truth(t, f)
                if e is not None and np.hypot(e[0], e[1]) < best:
                    best, err = float(np.hypot(e[0], e[1])), e
            corner, s, long = t[0], t[1], t[2]
            reach = REACH * max(np.linalg.norm(s), np.linalg.norm(long)) + 4
            x0, y0 = np.floor(corner - reach).astype(int)
            x1, y1 = np.ceil(corner + reach).astype(int)
            h, w = scene.image.shape[:2]
            pad = [max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w)]
            crop = scene.image[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
            if crop.size == 0:
                continue
            crop = cv2.copyMakeBorder(crop, *pad, cv2.BORDER_REPLICATE)
            g = max(1.0, t[4] / STORE_PX)
            c_crop = corner - [x0, y0]
            if g > 1.0:
                cw, ch = max(1, round(crop.shape[1] / g)), max(1, round(crop.shape[0] / g))
                fx, fy = cw / crop.shape[1], ch / crop.shape[0]
                crop = cv2.resize(crop, (cw, ch), interpolation=cv2.INTER_AREA)
                c_crop = (c_crop + 0.5) * [fx, fy] - 0.5
                s, long = s * [fx, fy], long * [fx, fy]
            crops.append(crop)
            frames.append(np.concatenate([c_crop, s, long]))
            errs.append(err)
            meta.append((t[4], t[3], float(big)))
    flat = np.concatenate([c.reshape(-1) for c in crops]) if crops else np.zeros(0, np.uint8)
    shapes = np.array([c.shape[:2] for c in crops], np.int32).reshape(-1, 2)
    tmp = out / f"shard_{k:03d}.tmp.npz"
    np.savez(
        tmp,
        flat=flat,
        shapes=shapes,
        frames=np.array(frames).reshape(-1, 6),
        errors=np.array(errs).reshape(-1, OUT),
        meta=np.array(meta).reshape(-1, 3),
    )
    os.replace(tmp, path)
    found_share = np.mean([not np.isnan(e[0]) for e in errs]) if errs else 0.0
    print(f"shard {k}: {len(crops)} corners, finder matched {found_share:.2f}", flush=True)


class Data:
    """Every crop of the shards in memory, with its true frame (crop pixels) and finder error."""

    def __init__(self, dirs: list[Path], shards: list[int] | None = None) -> None:
        crops, frames, errs, meta = [], [], [], []
        for p in sorted(f for d in dirs for f in d.glob("shard_*.npz") if ".tmp" not in f.name):
            if shards is not None and int(p.stem.split("_")[1]) not in shards:
                continue
            z = np.load(p)
            flat, shapes = z["flat"], z["shapes"]
            at = 0
            for h, w in shapes:
                crops.append(flat[at : at + h * w * 3].reshape(h, w, 3))
                at += h * w * 3
            frames.append(z["frames"])
            errs.append(z["errors"])
            meta.append(z["meta"])
        self.crops = crops
        self.frames = np.concatenate(frames) if frames else np.zeros((0, 6))
        self.errors = np.concatenate(errs) if errs else np.zeros((0, OUT))
        self.meta = np.concatenate(meta) if meta else np.zeros((0, 3))
        found = ~np.isnan(self.errors[:, 0])
        self.pool = self.errors[found]


def finder_error_summary(errors: np.ndarray, widths: np.ndarray) -> dict[str, float]:
    """How far the shipped finder's frames are from the truth (card widths, degrees, log ratio)."""
    e = errors[~np.isnan(errors[:, 0])]
    w = widths[~np.isnan(errors[:, 0])]
    d = np.hypot(e[:, 0], e[:, 1])
    rot = np.degrees(np.arctan2(e[:, 3], 1 + e[:, 2]))
    logw = np.log(np.hypot(1 + e[:, 2], e[:, 3]))
    out = {
        "matched": len(e),
        "of": len(errors),
        "corner_median": float(np.median(d)),
        "within_0.03": float(np.mean(d <= 0.03)),
        "within_0.06": float(np.mean(d <= 0.06)),
        "p90": float(np.percentile(d, 90)),
        "rot_deg_mad": float(np.median(np.abs(rot))),
        "logw_mad": float(np.median(np.abs(logw))),
    }
    for lo, hi in ((18, 50), (50, 80), (80, 200), (200, 1e9)):
        sel = (w >= lo) & (w < hi)
        if sel.any():
            out[f"median_{lo}-{int(min(hi, 9999))}px"] = float(np.median(d[sel]))
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in out.items()}


def random_error(rng: np.random.Generator, pool: np.ndarray) -> np.ndarray:
    """A disturbance (d, B − I) in the true frame's coordinates: the finder's own kind of error."""
    r = rng.random()
    if r < 0.4 and len(pool):
        e = pool[int(rng.integers(len(pool)))] * rng.uniform(0.6, 1.5)
    elif r < 0.8:  # a random one of the finder's size (heavier tails than a Gaussian)
        d = rng.laplace(0, 0.035, 2)
        th = np.radians(rng.normal(0, 3.5))
        sc = np.exp(rng.normal(0, 0.1))
        asp = np.exp(rng.normal(0, 0.06))
        shear = rng.normal(0, 0.04)
        b = (
            sc
            * np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
            @ np.array([[asp, shear], [0, 1 / asp]])
        )
        e = np.array([d[0], d[1], b[0, 0] - 1, b[1, 0], b[0, 1], b[1, 1] - 1])
    elif r < 0.93:  # small: what is left after a first pass
        e = np.concatenate([rng.normal(0, 0.012, 2), rng.normal(0, 0.02, 4)])
    else:  # far off: the finder's worst tenth, which a first pass only brings closer
        a, rad = rng.uniform(0, 2 * np.pi), rng.uniform(0.12, 0.3)
        e = np.concatenate([rad * np.array([np.cos(a), np.sin(a)]), rng.normal(0, 0.06, 4)])
    e[:2] = np.clip(e[:2], -0.3, 0.3)
    return e


def make_pair(data: Data, i: int, e: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The patch cut through crop ``i``'s true frame disturbed by ``e``, and the target."""
    f = data.frames[i]
    corner, a = f[:2], np.stack([f[2:4], f[4:6]], 1)
    b = np.array([[1 + e[2], e[4]], [e[3], 1 + e[5]]])
    if np.linalg.det(b) < 0.3:
        return None
    c_f = corner + a @ e[:2]
    a_f = a @ b
    patch = sample_patch(data.crops[i], c_f, a_f[:, 0], a_f[:, 1])
    binv = np.linalg.inv(b)
    d = -binv @ e[:2]
    return patch, np.array([d[0], d[1], binv[0, 0] - 1, binv[1, 0], binv[0, 1], binv[1, 1] - 1])


def batch(data: Data, rng: np.random.Generator, n: int, own: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    import cv2

    xs, ys = [], []
    while len(xs) < n:
        i = int(rng.integers(len(data.crops)))
        e = data.errors[i]
        if np.isnan(e[0]) or rng.random() > own:
            e = random_error(rng, data.pool)
        pair = make_pair(data, i, e)
        if pair is None:
            continue
        patch, y = pair
        if rng.random() < 0.2:  # a little extra blur or noise: softer and grainier cameras
            patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.4, 1.2))
        if rng.random() < 0.2:
            patch = np.clip(patch + rng.normal(0, rng.uniform(2, 8), patch.shape), 0, 255).astype(np.uint8)
        if rng.random() < 0.5:
            patch = patch[..., rng.permutation(3)]
        xs.append(patch)
        ys.append(y)
    return prepare(np.stack(xs)), np.stack(ys).astype(np.float32)


def build_net():  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    def cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Refiner(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                cbr(3, 12, 2),  # N / 2
                cbr(12, 24, 2),  # N / 4
                cbr(24, 24),
                cbr(24, 32, 2),  # N / 8
                cbr(32, 32),
                cbr(32, 48, 2),  # N / 16
            )
            self.fc = nn.Sequential(nn.Linear(48 * (N // 16) ** 2, 64), nn.ReLU(), nn.Linear(64, OUT))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.fc(torch.flatten(self.body(x), 1))

    return Refiner()


WEIGHT = (3.0, 3.0, 1.0, 1.0, 1.0, 1.0)  # the corner matters most to the reader


def evaluate(net, val: Data, rng: np.random.Generator) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Corner error (card widths) before and after one and two passes on the finder's own errors."""
    import torch

    from vision.corner_refiner import apply_correction

    idx = np.nonzero(~np.isnan(val.errors[:, 0]))[0]
    idx = idx[rng.permutation(len(idx))[:600]]
    before, after1, after2 = [], [], []
    net.eval()
    with torch.no_grad():
        for i in idx:
            f = val.frames[i]
            corner, a = f[:2], np.stack([f[2:4], f[4:6]], 1)
            e = val.errors[i]
            b = np.array([[1 + e[2], e[4]], [e[3], 1 + e[5]]])
            c, s, lg = corner + a @ e[:2], (a @ b)[:, 0], (a @ b)[:, 1]
            inv = np.linalg.inv(a)
            before.append(np.linalg.norm(inv @ (c - corner)))
            for k in range(2):
                x = prepare(sample_patch(val.crops[i], c, s, lg)[None])
                out = net(torch.from_numpy(x)).numpy()[0].astype(np.float64)
                c, s, lg = apply_correction(c, s, lg, out)
                (after1 if k == 0 else after2).append(np.linalg.norm(inv @ (c - corner)))
    net.train()
    res = {}
    for name, v in (("before", before), ("pass1", after1), ("pass2", after2)):
        v = np.array(v)
        res[name] = [
            round(float(np.median(v)), 4),
            round(float(np.mean(v <= 0.03)), 3),
            round(float(np.mean(v <= 0.06)), 3),
        ]
    return res


def train(
    dirs: list[Path],
    weights: Path,
    steps: int,
    seed: int,
    minutes: float,
    bs: int,
    lr: float,
    val_shards: list[int],
) -> None:
    import torch
    from torch_tools import out_of_time, seeded

    rng = seeded(seed)
    train_ids = [k for k in range(10_000) if k not in val_shards]
    data = Data(dirs, train_ids)
    val = Data(dirs, val_shards)
    print(
        f"{len(data.crops)} training corners ({len(data.pool)} with a finder frame),",
        f"{len(val.crops)} validation",
        flush=True,
    )
    print(
        "finder error (training corners):",
        json.dumps(finder_error_summary(data.errors, data.meta[:, 0])),
        flush=True,
    )
    net = build_net()
    print(f"{sum(p.numel() for p in net.parameters())} weights", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.05)
    wt = torch.tensor(WEIGHT)
    t0 = time.time()
    for step in range(steps):
        x, y = batch(data, rng, bs)
        out = net(torch.from_numpy(x))
        loss = ((out - torch.from_numpy(y)).abs() * wt).sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            print(
                json.dumps({"step": step, "loss": round(loss.item(), 4), "s": round(time.time() - t0)}),
                flush=True,
            )
        last = step == steps - 1 or out_of_time(t0, minutes, step, steps, say=True)
        if step % 1000 == 999 or last:
            torch.save(net.state_dict(), weights)
            print("val:", json.dumps(evaluate(net, val, np.random.default_rng(1))), flush=True)
        if last:
            break


def export(weights: Path, out: Path) -> None:
    from torch_tools import export_weights

    export_weights(build_net(), weights, (1, 3, N, N), out)


def main() -> None:
    ap = sharded_cli(__doc__, "/tmp/refiner_data", 60)
    ap.add_argument("--workers", type=int, default=2, help="generation processes")
    ap.add_argument("--val-shards", type=int, nargs="+", default=[0, 24], help="kept for validation")
    ap.add_argument("--minutes", type=float, default=45.0)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--weights", type=Path, default=Path("/tmp/corner_refiner.pt"))
    ap.add_argument("--out", type=Path, default=Path("vision/models/corner_refiner.onnx"))
    ap.add_argument("--curl", type=float, default=0.0, help="generate: share of the cards drawn curled")
    a = ap.parse_args()
    if a.what in ("generate", "all"):
        generate(a.data[0], a.shards, a.per_shard, a.seed, a.first, a.workers, a.curl)
    if a.what in ("train", "all"):
        train(a.data, a.weights, a.steps, a.seed, a.minutes, a.batch, a.lr, a.val_shards)
    if a.what in ("export", "all"):
        export(a.weights, a.out)


if __name__ == "__main__":
    main()
