"""Train the learned card finder on the project's own synthetic scenes and export it to ONNX.

    pip install -e '.[vision-train]'      # torch (CPU), onnx: training only, never at runtime
    python tools/vision/train_finder.py all --seed 0 --out vision/models/finder.onnx

``all`` = ``generate`` (48 shards of 200 scenes, 256×256, from the training families, seeds
``seed*1000 + shard``) then ``train`` (one thread) then ``export``; it reproduces the shipped weights
on this 2-core machine within 90 minutes. Nothing here reads a real photo.

The network is a small U-Net-like net (about 233 k weights): stride-2 stem, encoder to 1/32 (dilated
3×3 convolutions at 1/16 and 1/32, so a big card's far edges are in view), decoder back to 1/4 of
the input with skip connections. Ten maps at 1/4: card interior, card boundary and index-centre
logits, and at every index centre the reading frame of that card corner: the offset to the corner,
the short-edge vector and the long-edge vector, each divided by the card width, and the log card
width (``scenes.regression_targets``; the loss is L1 on these scale-free values, so small and big
cards count alike). It uses only Conv, BatchNorm (folded on export), ReLU, Resize (nearest) and
Concat: ops ``cv2.dnn`` runs.
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
from torch_tools import load_onnx_initializers, load_shards, sharded_cli  # noqa: E402

SIZE = 256  # training scene size; the net is fully convolutional and runs at any size at inference
STRIDE = 4  # output maps are at a quarter of the input resolution


def generate(
    out: Path,
    shards: int,
    per_shard: int,
    seed: int,
    first: int = 0,
    backs: int = 6,
    back_designs: float = 0.0,
    layout_p: tuple[float, ...] | None = None,
    curl: float = 0.0,
) -> None:
    """Write ``shards`` npz files of ``per_shard`` scenes each (images and uint8 targets). ``backs``,
    ``back_designs`` and ``layout_p`` go to ``scenes.make_scene`` (the backs stage; the first stage
    keeps their defaults); so does ``curl``, the share of cards drawn curled, from a generator of its
    own (without it the shards are as before, byte for byte)."""
    import cv2
    from backgrounds import TRAIN_FAMILIES
    from scenes import LAYOUT_P, Deck, make_scene, regression_targets, targets

    cv2.setNumThreads(1)
    out.mkdir(parents=True, exist_ok=True)
    for k in range(first, first + shards):
        path = out / f"shard_{k:03d}.npz"
        if path.exists():
            continue
        rng = np.random.default_rng(seed * 1000 + k)
        curled = (curl, np.random.default_rng([seed * 1000 + k, 2])) if curl else None
        decks = [Deck(rng) for _ in range(6)]
        imgs, tgts, regs = [], [], []
        for _ in range(per_shard):
            s = make_scene(
                rng,
                (SIZE, SIZE),
                TRAIN_FAMILIES,
                decks,
                backs=backs,
                back_designs=back_designs,
                layout_p=layout_p or LAYOUT_P,
                curl=curled,
            )
            imgs.append(s.image)
            tgts.append((targets(s, STRIDE) * 255).round().astype(np.uint8))
            regs.append(regression_targets(s, STRIDE).astype(np.float16))
        tmp = out / f"shard_{k:03d}.tmp.npz"
        np.savez(tmp, images=np.stack(imgs), targets=np.stack(tgts), regression=np.stack(regs))
        os.replace(tmp, path)
        print(f"shard {k} written", flush=True)


REG = 7  # corner offset, short- and long-edge vectors (all per card width), log card width


def build_net(reg_conv: bool = True, folded: bool = False):  # type: ignore[no-untyped-def]
    """The finder network; ``folded``: each batch norm already folded into its convolution (a
    convolution with a bias, as the exported ONNX holds it), the form :func:`load_onnx_weights` fills."""
    import torch
    from torch import nn

    def cbr(cin: int, cout: int, stride: int = 1, k: int = 3, dil: int = 1) -> nn.Sequential:
        pad = dil * (k // 2)
        if folded:
            return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad, dilation=dil), nn.ReLU(inplace=True))
        return nn.Sequential(
            nn.Conv2d(cin, cout, k, stride, pad, dilation=dil, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class Finder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.e1 = cbr(3, 16, 2)  # 1/2
            self.e2 = nn.Sequential(cbr(16, 24, 2), cbr(24, 24))  # 1/4
            self.e3 = nn.Sequential(cbr(24, 32, 2), cbr(32, 32))  # 1/8
            self.e4 = nn.Sequential(cbr(32, 48, 2), cbr(48, 48, dil=2), cbr(48, 48, dil=4))  # 1/16
            self.e5 = nn.Sequential(cbr(48, 64, 2), cbr(64, 64, dil=2), cbr(64, 64, dil=4))  # 1/32: big cards
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.d4 = nn.Sequential(cbr(112, 48, k=1), cbr(48, 48))
            self.d3 = nn.Sequential(cbr(80, 32, k=1), cbr(32, 32))
            self.d2 = nn.Sequential(cbr(56, 24, k=1), cbr(24, 24))
            self.reg = cbr(24, 24) if reg_conv else nn.Identity()
            self.head = nn.Conv2d(24, 3, 1)
            self.head_reg = nn.Conv2d(24, REG, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x * (1.0 / 255.0) - 0.5
            a = self.e1(x)
            b = self.e2(a)
            c = self.e3(b)
            d = self.e4(c)
            e = self.e5(d)
            d = self.d4(torch.cat([self.up(e), d], 1))
            c = self.d3(torch.cat([self.up(d), c], 1))
            b = self.d2(torch.cat([self.up(c), b], 1))
            # logits (interior, boundary, index) then the corner regression, all at 1/4
            return torch.cat([self.head(b), self.head_reg(self.reg(b))], 1)

    return Finder()


def load_onnx_weights(path: Path):  # type: ignore[no-untyped-def]
    """A folded :func:`build_net` holding the weights of the exported finder at ``path``: its Conv
    nodes' initializers, in the order the forward pass runs them (the index head before the
    regression's own layer)."""
    from torch import nn

    net = build_net(folded=True)
    run_order = ("e1", "e2", "e3", "e4", "e5", "d4", "d3", "d2", "head", "reg", "head_reg")
    convs = [m for part in run_order for m in getattr(net, part).modules() if isinstance(m, nn.Conv2d)]
    load_onnx_initializers(path, ("Conv",), [p for c in convs for p in (c.weight, c.bias)])
    return net


def _is_folded(state: dict) -> bool:  # type: ignore[type-arg]
    return not any(k.endswith("running_mean") for k in state)


def _load(data: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    images, targets, regression = load_shards(data, ("images", "targets", "regression"))
    return images, targets, regression


def normalise(reg: np.ndarray) -> np.ndarray:
    """Stored corner targets (pixels: dx, dy, sx, sy, lx, ly, weight) → what the net regresses:
    the six vectors divided by the card width |s|, then log width; and the weight. Scale-free, so a
    card 10 px wide counts as much as one 200 px wide."""
    width = np.maximum(np.hypot(reg[:, 2], reg[:, 3]), 1.0)
    vec = reg[:, :6] / width[:, None]
    return np.concatenate([vec, np.log(width)[:, None], reg[:, 6:7]], 1)


def _rot_vectors(y: np.ndarray, k: int, flip: bool) -> np.ndarray:
    """Turn the vector channels (pairs 0-1, 2-3, 4-5) with the image: np.rot90 by ``k``, then a
    left-right flip."""
    y = y.copy()
    for i in (0, 2, 4):
        vx, vy = y[:, i].copy(), y[:, i + 1].copy()
        for _ in range(k % 4):
            vx, vy = vy, -vx
        if flip:
            vx = -vx
        y[:, i], y[:, i + 1] = vx, vy
    return y


def train(
    data: list[Path],
    out: Path,
    steps: int,
    seed: int,
    batch: int = 8,
    threads: int = 1,
    crop: int = 128,
    lr: float = 3e-3,
    init: Path | None = None,
    inside_weight: float = 1.0,
    teacher: Path | None = None,
    init_onnx: Path | None = None,
) -> None:
    """``inside_weight`` weighs the pixels inside a card and off its edges (interior 1, boundary 0)
    in the interior and boundary losses: a card back's lattice and emblem, pips and court art must
    neither punch holes in the interior nor raise a boundary that cuts the card in pieces. With
    ``teacher`` (earlier weights) the index map and the corner regression are learnt from that net's
    outputs instead of the truth: a stage that mends the card maps keeps the index frames as they were.
    With ``init_onnx`` (an exported finder) training goes on from those weights, batch norms folded:
    a fine-tune of the shipped network on more scenes."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_net() if init_onnx is None else load_onnx_weights(init_onnx)
    if init_onnx is not None:
        print(f"fine-tuning {init_onnx} (batch norms folded)", flush=True)
    elif init is not None:  # earlier weights: every layer whose shape still matches is taken over
        old = torch.load(init)
        own = net.state_dict()
        same = {k: v for k, v in old.items() if k in own and own[k].shape == v.shape}
        net.load_state_dict(same, strict=False)
        print(f"{len(same)} of {len(own)} tensors from {init}", flush=True)
    else:
        with torch.no_grad():  # log card width starts near a typical card's (about 40 px)
            net.head_reg.bias[REG - 1] = 3.7
    tnet = None
    if teacher is not None:
        tnet = build_net()
        tnet.load_state_dict(torch.load(teacher))
        tnet.eval()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    images, tgts, regs = _load(data)
    print(f"{len(images)} scenes, {sum(p.numel() for p in net.parameters())} weights", flush=True)
    t0 = time.time()
    for step in range(steps):
        if step % 500 == 499:  # pick up shards written since (generation may still be running)
            images, tgts, regs = _load(data)
        idx = rng.integers(len(images), size=batch)
        ox, oy = (int(v) * STRIDE for v in rng.integers((SIZE - crop) // STRIDE + 1, size=2))
        x = images[idx, oy : oy + crop, ox : ox + crop].astype(np.float32)
        ty, tx, tc = oy // STRIDE, ox // STRIDE, crop // STRIDE
        y = tgts[idx, :, ty : ty + tc, tx : tx + tc].astype(np.float32) / 255
        r = normalise(regs[idx, :, ty : ty + tc, tx : tx + tc].astype(np.float32))
        k = int(rng.integers(4))  # the same rotation / flip for the batch: cheap, and keeps truth aligned
        flip = bool(rng.random() < 0.5)
        x = np.rot90(x, k, axes=(1, 2))
        y, r = np.rot90(y, k, axes=(2, 3)), np.rot90(r, k, axes=(2, 3))
        if flip:
            x, y, r = x[:, :, ::-1], y[:, :, :, ::-1], r[:, :, :, ::-1]
        r = _rot_vectors(r, k, flip)
        if rng.random() < 0.5:  # colour order swap: a blue cloth is as likely as a red one
            x = x[..., rng.permutation(3)]
        xt = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
        yt = torch.from_numpy(np.ascontiguousarray(y))
        rt = torch.from_numpy(np.ascontiguousarray(r))
        out_ = net(xt)
        inside = 1.0 + (inside_weight - 1.0) * (yt[:, 0] > 0.5).float() * (yt[:, 1] < 0.5).float()
        l_int = F.binary_cross_entropy_with_logits(out_[:, 0], yt[:, 0], weight=inside)
        l_bnd = F.binary_cross_entropy_with_logits(
            out_[:, 1], yt[:, 1], weight=inside, pos_weight=torch.tensor(4.0)
        )
        y_idx, r_tgt = yt[:, 2], rt[:, :REG]
        if tnet is not None:
            with torch.no_grad():
                t_out = tnet(xt)
            y_idx, r_tgt = torch.sigmoid(t_out[:, 2]), t_out[:, 3:]
        l_idx = F.binary_cross_entropy_with_logits(out_[:, 2], y_idx, pos_weight=torch.tensor(10.0))
        w = rt[:, REG]
        l_reg = ((out_[:, 3:] - r_tgt).abs().sum(1) * w).sum() / w.sum().clamp(min=1.0)
        loss = l_int + l_bnd + l_idx + l_reg
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0 or step == steps - 1:
            rec = {
                "step": step,
                "loss": round(loss.item(), 4),
                "int": round(float(l_int), 4),
                "bnd": round(float(l_bnd), 4),
                "idx": round(float(l_idx), 4),
                "reg": round(float(l_reg), 4),
                "s": round(time.time() - t0),
            }
            print(json.dumps(rec), flush=True)
        if step % 200 == 199 or step == steps - 1:  # an early stop still leaves usable weights
            torch.save(net.state_dict(), out)


def export(weights: Path, out: Path, opset: int = 11) -> None:
    import torch

    state = torch.load(weights)
    net = build_net(folded=_is_folded(state))
    net.load_state_dict(state)
    net.eval()
    x = torch.zeros(1, 3, 256, 320)
    torch.onnx.export(
        net,
        x,
        str(out),
        opset_version=opset,
        input_names=["image"],
        output_names=["maps"],
        dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}},
        dynamo=False,
    )
    print(f"exported {out} ({out.stat().st_size} bytes)")


def main() -> None:
    ap = sharded_cli(__doc__, "/tmp/finder_scenes", 200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--weights", type=Path, default=Path("/tmp/finder.pt"))
    ap.add_argument("--init", type=Path, default=None, help="start from these weights (second stage)")
    ap.add_argument("--crop", type=int, default=192)
    ap.add_argument("--batch", type=int, default=6)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--out", type=Path, default=Path("vision/models/finder.onnx"))
    ap.add_argument("--backs", type=int, default=6, help="generate: backs in the pool of 52 faces")
    ap.add_argument("--back-designs", type=float, default=0.0, help="generate: share of backs with own art")
    ap.add_argument("--inside-weight", type=float, default=1.0, help="train: weight of card insides")
    ap.add_argument("--teacher", type=Path, default=None, help="train: index and corner maps from this net")
    ap.add_argument("--layouts", default="", help="generate: single,scatter,row,hand,fan,stack weights")
    ap.add_argument("--init-onnx", type=Path, default=None, help="train: fine-tune this exported finder")
    ap.add_argument("--curl", type=float, default=0.0, help="generate: share of the cards drawn curled")
    a = ap.parse_args()
    layout_p = tuple(float(v) for v in a.layouts.split(",")) if a.layouts else None
    if a.what in ("generate", "all"):
        generate(a.data[0], a.shards, a.per_shard, a.seed, a.first, a.backs, a.back_designs, layout_p, a.curl)
    if a.what in ("train", "all"):
        train(
            a.data,
            a.weights,
            a.steps,
            a.seed,
            a.batch,
            a.threads,
            a.crop,
            a.lr,
            a.init,
            a.inside_weight,
            a.teacher,
            a.init_onnx,
        )
    if a.what in ("export", "all"):
        export(a.weights, a.out)


if __name__ == "__main__":
    main()
