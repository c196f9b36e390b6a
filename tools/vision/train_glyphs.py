"""Train the two glyph networks shipped in vision/models/glyphs.npz from make_glyphs.py output.

python tools/vision/train_glyphs.py /tmp/g1.npz /tmp/g2.npz --out /tmp/net_a.npz
python tools/vision/train_glyphs.py --ensemble /tmp/net_a.npz /tmp/net_b.npz --out vision/models/glyphs.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.glyphs import RANK_CLASSES, SUIT_CLASSES, GlyphModel, Mlp  # noqa: E402


def train(
    x: np.ndarray,
    y: np.ndarray,
    classes: tuple[str, ...],
    *,
    hidden: int = 128,
    epochs: int = 40,
    seed: int = 0,
) -> Mlp:
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-3
    z = ((x - mean) / std).astype(np.float32)
    n, d = z.shape
    k = len(classes)
    params = {
        "w1": (rng.normal(0, np.sqrt(2 / d), (d, hidden))).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.normal(0, np.sqrt(1 / hidden), (hidden, k))).astype(np.float32),
        "b2": np.zeros(k, np.float32),
    }
    m = {p: np.zeros_like(v) for p, v in params.items()}
    v2 = {p: np.zeros_like(v) for p, v in params.items()}
    # class weights: balance the reject class against the rest
    counts = np.bincount(y, minlength=k).astype(np.float32)
    cw = (counts.sum() / (k * np.maximum(counts, 1))) ** 0.5
    lr, b1, b2, step = 2e-3, 0.9, 0.999, 0
    batch = 256
    for ep in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, batch):
            idx = order[s : s + batch]
            xb = z[idx] + rng.normal(0, 0.05, (len(idx), d)).astype(np.float32)
            keep = (rng.random((len(idx), hidden)) > 0.2).astype(np.float32) / 0.8
            h_pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0) * keep
            lg = h @ params["w2"] + params["b2"]
            lg -= lg.max(axis=1, keepdims=True)
            p = np.exp(lg)
            p /= p.sum(axis=1, keepdims=True)
            yb = y[idx]
            wts = cw[yb]
            total += float(-(np.log(p[np.arange(len(idx)), yb] + 1e-9) * wts).sum())
            g = p.copy()
            g[np.arange(len(idx)), yb] -= 1
            g *= wts[:, None] / len(idx)
            grads = {"w2": h.T @ g, "b2": g.sum(0)}
            gh = (g @ params["w2"].T) * keep * (h_pre > 0)
            grads["w1"] = xb.T @ gh + 1e-4 * params["w1"]
            grads["b1"] = gh.sum(0)
            step += 1
            for name in params:
                m[name] = b1 * m[name] + (1 - b1) * grads[name]
                v2[name] = b2 * v2[name] + (1 - b2) * grads[name] ** 2
                mh = m[name] / (1 - b1**step)
                vh = v2[name] / (1 - b2**step)
                params[name] -= lr * mh / (np.sqrt(vh) + 1e-8)
        if ep == int(epochs * 0.7):
            lr *= 0.3
        print(f"epoch {ep} loss {total / n:.4f}", flush=True)
    return Mlp(
        mean.astype(np.float32),
        std.astype(np.float32),
        params["w1"],
        params["b1"],
        params["w2"],
        params["b2"],
        classes,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="+", help="make_glyphs.py outputs (or, with --ensemble, trained models)")
    ap.add_argument("--out", default="vision/models/glyphs.npz")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0, help="initialisation and batch order")
    ap.add_argument("--ensemble", action="store_true", help="join trained models into one averaging them")
    a = ap.parse_args()
    if a.ensemble:
        GlyphModel.ensemble([GlyphModel.load(p) for p in a.data]).save(a.out)
        print(f"saved {a.out}")
        return
    parts = [np.load(p) for p in a.data]
    xr = np.concatenate([p["xr"] for p in parts])
    yr = np.concatenate([p["yr"] for p in parts]).astype(np.int64)
    xs = np.concatenate([p["xs"] for p in parts])
    ys = np.concatenate([p["ys"] for p in parts]).astype(np.int64)
    rng = np.random.default_rng(0)
    results = {}
    for name, x, y, classes in (("rank", xr, yr, RANK_CLASSES), ("suit", xs, ys, SUIT_CLASSES)):
        order = rng.permutation(len(y))
        cut = int(0.9 * len(y))
        tr, te = order[:cut], order[cut:]
        net = train(x[tr], y[tr], classes, epochs=a.epochs, seed=a.seed)
        acc = float((net.probabilities(x[te]).argmax(1) == y[te]).mean())
        print(f"{name}: held-out render accuracy {acc:.4f} on {len(te)} glyphs")
        results[name] = net
    GlyphModel(results["rank"], results["suit"]).save(a.out)
    print(f"saved {a.out}")


if __name__ == "__main__":
    main()
