"""Train the CNN glyph reader shipped as vision/models/reader.onnx (dev-only: needs PyTorch and onnx).

The data are make_glyphs.py renders only (glyph canvases ``cr``/``cs`` of rank and suit glyphs cut by
the recogniser's own segmenter); no photo is ever used. One network scores a 32 × 32 glyph canvas
against 13 ranks, 4 suits and a reject class; the runtime (vision/reader.py) reads its rank and its
suit probabilities from that one softmax.

    python tools/vision/train_reader.py /tmp/rd/train_21.npz /tmp/rd/train_22.npz /tmp/rd/train_23.npz \\
        --seed 0 --minutes 25 --out vision/models/reader.onnx
    python tools/vision/train_reader.py --bench /tmp/rd/held_90.npz --model vision/models/reader.onnx
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from torch_tools import export_onnx, out_of_time  # noqa: E402

from vision.reader import JOINT_CLASSES, N_RANKS, N_SUITS  # noqa: E402

REJECT_ID = len(JOINT_CLASSES) - 1
CONFUSABLE = (("6", "9"), ("Q", "9"), ("4", "A"), ("7", "A"), ("H", "D"), ("S", "C"))


def joint_labels(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Rank glyphs and suit glyphs as one set of canvases with joint labels (13 ranks, 4 suits, reject)."""
    yr = data["yr"].astype(np.int64)
    ys = data["ys"].astype(np.int64)
    lr = np.where(yr >= N_RANKS, REJECT_ID, yr)
    ls = np.where(ys >= N_SUITS, REJECT_ID, N_RANKS + ys)
    return np.concatenate([data["cr"], data["cs"]]), np.concatenate([lr, ls])


def load(paths: list[str]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for p in paths:
        x, y = joint_labels(dict(np.load(p)))
        xs.append(x)
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def build_net():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(
        *block(1, 12), nn.MaxPool2d(2),  # 16 × 16
        *block(12, 24), nn.MaxPool2d(2),  # 8 × 8
        *block(24, 40), nn.MaxPool2d(2),  # 4 × 4
        *block(40, 48),
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(48 * 16, 64),
        nn.ReLU(),
        nn.Linear(64, len(JOINT_CLASSES)),
    )


def augment(x, gen):  # type: ignore[no-untyped-def]
    """Small affine jitter, stroke weight, contrast, blur and noise on a batch of canvases (N×1×32×32)."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    ang = (torch.rand(n, generator=gen) - 0.5) * 2 * np.deg2rad(5)
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.2
    asp = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.2
    shear = (torch.rand(n, generator=gen) - 0.5) * 0.3
    tx, ty = ((torch.rand(2, n, generator=gen) - 0.5) * 0.15).unbind(0)
    c, s = torch.cos(ang), torch.sin(ang)
    theta = torch.stack(
        [
            torch.stack([c * sc * asp, -s * sc + shear, tx], 1),
            torch.stack([s * sc, c * sc / asp, ty], 1),
        ],
        1,
    )
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    u = torch.rand(n, 1, 1, 1, generator=gen)
    thick = F.max_pool2d(x, 3, 1, 1)
    thin = -F.max_pool2d(-x, 3, 1, 1)
    x = torch.where(u < 0.15, thick, torch.where(u > 0.85, thin, x))
    soft = torch.rand(n, 1, 1, 1, generator=gen) < 0.3
    k = torch.tensor([1.0, 2.0, 1.0])
    k = (k[:, None] * k[None, :] / 16).view(1, 1, 3, 3)
    x = torch.where(soft, F.conv2d(x, k, padding=1), x)
    gain = 0.6 + 0.5 * torch.rand(n, 1, 1, 1, generator=gen)
    gamma = torch.exp((torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.8)
    x = x.clamp(0, 1) ** gamma * gain
    x = x + torch.randn(x.shape, generator=gen) * 0.05 * torch.rand(n, 1, 1, 1, generator=gen)
    return x.clamp(0, 1)


def train(x: np.ndarray, y: np.ndarray, *, seed: int, minutes: float, epochs: int):  # type: ignore[no-untyped-def]
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    n_val = min(3000, len(y) // 20)
    val, tr = order[:n_val], order[n_val:]
    xt = torch.from_numpy(x).float().div(255.0).unsqueeze(1)
    yt = torch.from_numpy(y)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    bs = 128
    steps_per_epoch = len(tr) // bs
    total = steps_per_epoch * epochs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=total, pct_start=0.15)
    counts = np.bincount(y[tr], minlength=len(JOINT_CLASSES)).astype(np.float64)
    weight = torch.tensor((counts.sum() / (len(counts) * np.maximum(counts, 1))) ** 0.5, dtype=torch.float32)
    t0 = time.time()
    step = 0
    for ep in range(epochs):
        net.train()
        perm = rng.permutation(tr)
        loss_sum = 0.0
        for i in range(steps_per_epoch):
            idx = torch.from_numpy(perm[i * bs : (i + 1) * bs])
            xb = augment(xt[idx], gen)
            loss = F.cross_entropy(net(xb), yt[idx], weight=weight, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            loss_sum += loss.item()
            if out_of_time(t0, minutes, step, total):
                break
        net.eval()
        with torch.no_grad():
            pv = net(xt[torch.from_numpy(val)]).argmax(1).numpy()
        acc = float((pv == y[val]).mean())
        print(
            f"epoch {ep + 1}/{epochs} loss {loss_sum / max(i + 1, 1):.4f} val acc {acc:.4f} "
            f"{(time.time() - t0) / 60:.1f} min",
            flush=True,
        )
        if out_of_time(t0, minutes, step, total, say=True):
            break
    return net


def export(net, path: str) -> None:  # type: ignore[no-untyped-def]
    export_onnx(net, (1, 1, 32, 32), path, "glyph", batch_axis=True)


def check_export(net, path: str, x: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    """Largest difference between torch's and cv2.dnn's logits on real inputs."""
    import cv2
    import torch

    dnn = cv2.dnn.readNetFromONNX(path)
    batch = x[:64].astype(np.float32)[:, None] / 255.0
    dnn.setInput(batch)
    out = dnn.forward()
    with torch.no_grad():
        ref = net(torch.from_numpy(batch)).numpy()
    return float(np.abs(out - ref).max())


def bench(model: str, paths: list[str]) -> dict[str, float]:
    """Rank and suit accuracy of the shipped reader on render sets (held-out fonts and seed)."""
    from vision.reader import CnnReader

    reader = CnnReader.load(model)
    data = [dict(np.load(p)) for p in paths]
    out: dict[str, float] = {}
    for kind, cx, cy, n in (("rank", "cr", "yr", N_RANKS), ("suit", "cs", "ys", N_SUITS)):
        x = np.concatenate([d[cx] for d in data]).astype(np.float32)[:, None] / 255.0
        y = np.concatenate([d[cy] for d in data]).astype(np.int64)
        p = reader.joint(x)
        head = reader.head_probabilities(p, kind)
        pred = head.argmax(1)
        pos = y < n
        out[f"{kind}_accuracy"] = float((pred[pos] == y[pos]).mean())
        out[f"{kind}_reject_recall"] = float((pred[~pos] == n).mean()) if (~pos).any() else float("nan")
        out[f"{kind}_n"] = float(pos.sum())
        classes = JOINT_CLASSES[:N_RANKS] if kind == "rank" else JOINT_CLASSES[N_RANKS:-1]
        for a, b in CONFUSABLE:
            if a in classes and b in classes:
                ia, ib = classes.index(a), classes.index(b)
                sel = (y == ia) | (y == ib)
                if sel.any():
                    out[f"{a}/{b}"] = float((pred[sel] == y[sel]).mean())
    return out


def speed(model: str, repeats: int = 300) -> dict[str, float]:
    """CPU milliseconds per call on one thread (process time, so a busy machine does not inflate it):
    the CNN on one glyph and on two, and a whole corner read (patch cut, segmentation, reading)."""
    import cv2

    from vision.detect import CardQuad
    from vision.glyphs import GlyphModel, default_model
    from vision.recognizer import Recognizer
    from vision.render import render_card

    cv2.setNumThreads(1)
    cnn = GlyphModel.cnn(model)
    mlp = GlyphModel.load()
    card = render_card("10H", 300)
    h, w = card.image.shape[:2]
    frame = np.full((h + 40, w + 40, 3), 60, np.uint8)
    frame[20 : 20 + h, 20 : 20 + w] = card.image
    quad = CardQuad(np.array([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]], float))
    feats = np.random.default_rng(0).random((2, 471 + 1024)).astype(np.float32)

    def ms(fn) -> float:  # type: ignore[no-untyped-def]
        for _ in range(10):
            fn()
        t = time.process_time()
        for _ in range(repeats):
            fn()
        return (time.process_time() - t) / repeats * 1000

    out = {
        "cnn_one_glyph_ms": ms(lambda: cnn.rank.probabilities(feats[:1])),
        "cnn_two_glyphs_ms": ms(lambda: cnn.rank.probabilities(feats)),
        "mlp_one_glyph_ms": ms(lambda: mlp.rank.probabilities(feats[:1])),
    }
    blend = default_model("cnn+mlp")
    for name, m in (("cnn", cnn), ("mlp", mlp), ("cnn+mlp", blend)):
        rec = Recognizer("shoe", model=m)
        out[f"{name}_corner_read_ms"] = ms(lambda rec=rec: rec.read_corner(frame, quad.frame(0)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="*")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--minutes", type=float, default=25.0)
    ap.add_argument("--out", default="/tmp/reader.onnx")
    ap.add_argument("--bench", nargs="*", help="render sets to score --model on")
    ap.add_argument("--model", default="vision/models/reader.onnx")
    ap.add_argument("--speed", action="store_true", help="time --model per glyph and per corner")
    a = ap.parse_args()
    if a.speed:
        for k, v in speed(a.model).items():
            print(f"{k:>22}: {v:.3f}")
        return
    if a.bench:
        for k, v in bench(a.model, a.bench).items():
            print(f"{k:>22}: {v:.4f}")
        return
    x, y = load(a.data)
    print(f"{len(y)} glyphs; per class {np.bincount(y, minlength=len(JOINT_CLASSES)).tolist()}", flush=True)
    net = train(x, y, seed=a.seed, minutes=a.minutes, epochs=a.epochs)
    export(net, a.out)
    print(f"exported {a.out}; cv2.dnn vs torch max |diff| {check_export(net, a.out, x):.2e}", flush=True)


if __name__ == "__main__":
    main()
