"""Train the face reader (``vision/face_reader.py``) on the project's own synthetic scenes.

    python tools/vision/train_face_reader.py all --seed 0 --measure

``all`` = ``generate`` (training-split scenes from ``tools/vision/scenes.py``; the patch of every card
through its outline disturbed a little, as a snapped quad errs, and of quads that show no single
card) then ``train`` (one thread) then ``export`` to ``vision/models/face_reader.onnx``. Nothing here
reads a real photo or a held-out benchmark: training uses only ``backgrounds.TRAIN_FAMILIES`` and
scene seeds ``500_000 + 1000 * seed + shard``; ``measure`` draws scenes of the held-out families
(``stone_light``, ``felt_purple``) from seed ``950_000 + seed`` to report accuracy on, never to train.

Labels (``FACE_RANKS``, ``FACE_SUITS``): a pip card (ace to ten) whose face shows whole — at least
97 % of it visible, the quad at least 85 % on it — has its rank; a court card at least 70 % visible is
``court``; any other card, a back, a joker and every quad that is not mostly one card has rank
``-``. The suit is labelled where at least half the card shows and the quad is mostly on it.
Three decks in four get their pips laid out wider or narrower, higher or lower, bigger or smaller
than ``vision.render`` draws them (``spread_pips``): real decks differ there, and a network that saw
one layout only takes another deck's whole face for no face at all.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from torch_tools import light_blur_noise, patch_net_main  # noqa: E402
from train_card_side import NONE, make_decks, outline_samples, scene_samples, shares  # noqa: E402

from vision.card_side import prepare  # noqa: E402
from vision.face_reader import COURT, FACE_RANKS, FACE_SUITS, H, W, sample  # noqa: E402

REJECT_RANK, REJECT_SUIT = len(FACE_RANKS) - 1, len(FACE_SUITS) - 1
HELD_OUT_BENCH_SEEDS = (777, 7770, 4243, 5000)  # the benchmarks the recogniser is measured on


def _scene_seed(seed: int, shard: int) -> int:
    s = 500_000 + 1000 * seed + shard
    assert s not in HELD_OUT_BENCH_SEEDS
    return s


def face_jitter(rng: np.random.Generator, outline: np.ndarray) -> np.ndarray:
    """A card's outline moved the way a quad snapped to the card's edges errs: mostly within 1–3 % of
    the width, sometimes a little scaled or shifted, traced from any corner."""
    c = outline.astype(np.float64)
    w = float(np.linalg.norm(c[1] - c[0]))
    centre = c.mean(axis=0)
    if rng.random() < 0.4:
        q = c + rng.normal(0, 0.01 * w, (4, 2))
    else:
        sc = rng.uniform(0.93, 1.05)
        th = np.radians(rng.normal(0, 1.5))
        rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
        q = (c - centre) @ rot.T * sc + centre + np.clip(rng.normal(0, 0.02 * w, 2), -0.05 * w, 0.05 * w)
        q += np.clip(rng.laplace(0, 0.02 * w, (4, 2)), -0.06 * w, 0.06 * w)
    return np.roll(q, -int(rng.integers(4)), axis=0)


def spread_pips(rng: np.random.Generator, decks: list) -> list:  # type: ignore[type-arg]
    """``decks`` with the pips of three in four laid out as other decks do: columns and rows further
    apart or closer (standard decks differ; ``render``'s own layout is one of them) and pips bigger or
    smaller. Drawn from a generator of its own, so the scenes are otherwise the same."""
    for d in decks:
        if rng.random() < 0.75:
            sx, sy = rng.uniform(0.6, 1.1), rng.uniform(0.8, 1.04)
            d.style = replace(
                d.style,
                pip_left=0.5 - sx / 2,
                pip_span_x=sx,
                pip_top=0.5 - sy / 2,
                pip_span_y=sy,
                pip_scale=rng.uniform(0.85, 1.25),
            )
    return decks


def labels_for(code: str, visible: float, own: float) -> tuple[int, int]:
    """(rank class, suit class) of a quad ``own`` of whose area is a card ``code`` ``visible`` in view."""
    if code in ("BK", "JK") or own < 0.7:
        return REJECT_RANK, REJECT_SUIT
    rank, suit = code[:-1], code[-1]
    s = FACE_SUITS.index(suit) if visible >= 0.5 else REJECT_SUIT
    if rank in ("J", "Q", "K"):
        return (COURT if visible >= 0.7 else REJECT_RANK), s
    return (FACE_RANKS.index(rank) if visible >= 0.97 and own >= 0.85 else REJECT_RANK), s


def card_samples(rng: np.random.Generator, scene):  # type: ignore[no-untyped-def]
    """(quad, rank class, suit class, card width, kind 0) for each card at least 20 px wide in view:
    three quads of a card seen whole, two of any other."""
    out = []
    for c in scene.cards:
        cw = float(np.linalg.norm(c.outline[1] - c.outline[0]))
        if cw < 20 or c.visible < 0.3:
            continue
        for _ in range(3 if c.visible >= 0.97 else 2):
            q = face_jitter(rng, c.outline)
            sh, _ = shares(scene.labels, q)
            own = float(sh[c.ident]) if c.ident < len(sh) else 0.0
            r, s = labels_for(c.code, c.visible, own)
            out.append((q, r, s, cw, 0))
    return out


def generate(out: Path, shards: int, per_shard: int, seed: int, first: int = 0, families=None) -> None:  # type: ignore[no-untyped-def]
    out.mkdir(parents=True, exist_ok=True)
    for k in range(first, first + shards):
        if not (out / f"shard_{k:03d}.npz").exists():
            _shard(out, k, per_shard, _scene_seed(seed, k), families)


def _shard(out: Path, k: int, per_shard: int, scene_seed: int, families=None) -> None:  # type: ignore[no-untyped-def]
    """One shard: ``per_shard`` scenes (640×480, 1280×960 or 1920×1080, some portrait), the patch of
    every sample quad cut exactly as at run time (``face_reader.sample``)."""
    import cv2
    import scenes
    from backgrounds import TRAIN_FAMILIES

    cv2.setNumThreads(1)
    fams = families or TRAIN_FAMILIES
    rng = np.random.default_rng(scene_seed)
    decks = spread_pips(np.random.default_rng([scene_seed, 2]), make_decks(rng, 6))
    patches, ranks, suits, meta = [], [], [], []
    for _ in range(per_shard):
        size, min_card = [((640, 480), 22), ((1280, 960), 30), ((1280, 960), 45), ((1920, 1080), 45)][
            int(rng.integers(4))
        ]
        if rng.random() < 0.3:
            size = size[::-1]
        scene = scenes.make_scene(rng, size, fams, decks, max_cards=12, min_card=min_card)
        cards = [c for c in scene.cards if np.linalg.norm(c.outline[1] - c.outline[0]) >= 16]
        nothing = [
            (q, REJECT_RANK, REJECT_SUIT, cw, kind)
            for q, side, cw, kind in scene_samples(rng, scene, backs_extra=0)
            + outline_samples(rng, scene, cards)
            if side == NONE
        ]
        for q, r, s, cw, kind in card_samples(rng, scene) + nothing[:6]:
            patches.append(sample(scene.image, q))
            ranks.append(r)
            suits.append(s)
            meta.append((cw, kind))
    tmp = out / f"shard_{k:03d}.tmp.npz"
    np.savez(
        tmp,
        patches=np.array(patches, np.uint8).reshape(-1, H, W, 3),
        ranks=np.array(ranks, np.int64),
        suits=np.array(suits, np.int64),
        meta=np.array(meta, np.float32).reshape(-1, 2),
    )
    os.replace(tmp, out / f"shard_{k:03d}.npz")
    print(
        f"shard {k}: {len(ranks)} patches, per rank {np.bincount(ranks, minlength=12).tolist()}", flush=True
    )


def load(dirs: list[Path], shards: list[int] | None = None, exclude: list[int] | None = None):  # type: ignore[no-untyped-def]
    from torch_tools import load_shards

    def keep(k: int) -> bool:
        return (shards is None or k in shards) and not (exclude and k in exclude)

    return tuple(load_shards(dirs, ("patches", "ranks", "suits", "meta"), keep))


def augment(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    """Light, colour cast, blur and noise a little further than the scenes do; turned by 180 degrees
    or mirrored (pip layouts read the same both ways). Channels are never shuffled: red is a suit's."""

    out = np.empty_like(x)
    for i, p in enumerate(x):
        if rng.random() < 0.5:
            p = p[::-1, ::-1]
        if rng.random() < 0.3:
            p = p[:, ::-1]
        p = p.astype(np.float32)
        if rng.random() < 0.3:
            p = p * rng.uniform(0.85, 1.15, 3)
        out[i] = light_blur_noise(rng, p, 0.25, 1.1)
    return out


def build_net():  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    def cbr(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Face(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                cbr(3, 16),
                cbr(16, 16),
                nn.MaxPool2d(2),  # 28 × 20
                cbr(16, 32),
                nn.MaxPool2d(2),  # 14 × 10
                cbr(32, 48),
                nn.MaxPool2d(2),  # 7 × 5
                cbr(48, 64),
            )
            self.fc = nn.Sequential(
                nn.Dropout(0.2),
                nn.Linear(64 * (H // 8) * (W // 8), 96),
                nn.ReLU(),
                nn.Linear(96, len(FACE_RANKS) + len(FACE_SUITS)),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.fc(torch.flatten(self.body(x), 1))

    return Face()


def predict(net, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            out.append(net(torch.from_numpy(prepare(x[i : i + 512]))).numpy())
    net.train()
    lg = np.concatenate(out)
    from vision.face_reader import split_softmax

    return split_softmax(lg)


def report(
    pr: np.ndarray, ps: np.ndarray, yr: np.ndarray, ys: np.ndarray, meta: np.ndarray
) -> dict[str, object]:
    """Rank and suit accuracy; how often a sure (≥ 0.9) pip-card reading is wrong; by card width."""
    res: dict[str, object] = {"n": int(len(yr))}
    said_r, said_s = pr.argmax(1), ps.argmax(1)
    res["rank_accuracy"] = round(float((said_r == yr).mean()), 4)
    res["suit_accuracy"] = round(float((said_s == ys).mean()), 4)
    pip = yr < COURT
    res["pip_cards"] = int(pip.sum())
    res["pip_rank_accuracy"] = round(float((said_r[pip] == yr[pip]).mean()), 4) if pip.any() else None
    for th in (0.8, 0.9, 0.97):
        sure = (pr.max(1) >= th) & (ps.max(1) >= th) & (said_r < COURT) & (said_s < REJECT_SUIT)
        right = sure & (said_r == yr) & (said_s == ys)
        res[f"sure>={th}"] = {
            "said": int(sure.sum()),
            "wrong": int((sure & ~right).sum()),
            "pip_cards_read": round(float((right & pip).sum() / max(1, pip.sum())), 4),
        }
    for lo, hi in ((0, 50), (50, 80), (80, 120), (120, 1e9)):
        sel = pip & (meta[:, 0] >= lo) & (meta[:, 0] < hi)
        if sel.any():
            ok = (said_r[sel] == yr[sel]) & (said_s[sel] == ys[sel])
            res[f"pip_card_{lo}-{int(min(hi, 9999))}px"] = [int(ok.sum()), int(sel.sum())]
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
    x, yr, ys, meta = load(dirs, exclude=val_shards)
    vx, vyr, vys, vm = load(dirs, shards=val_shards)
    print(
        f"{len(yr)} training patches, ranks {np.bincount(yr, minlength=12).tolist()}, {len(vyr)} validation",
        flush=True,
    )
    net = build_net()
    print(f"{sum(p.numel() for p in net.parameters())} weights", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.05)
    counts = np.bincount(yr, minlength=len(FACE_RANKS)).astype(np.float64)
    pick = (1.0 / np.maximum(counts[yr], 1)) ** 0.5  # the many reject quads drawn less often
    pick /= pick.sum()
    loss_fn = torch.nn.CrossEntropyLoss()
    n = len(FACE_RANKS)
    t0 = time.time()
    for step in range(steps):
        idx = rng.choice(len(yr), bs, p=pick)
        out = net(torch.from_numpy(prepare(augment(rng, x[idx]))))
        loss = loss_fn(out[:, :n], torch.from_numpy(yr[idx])) + loss_fn(out[:, n:], torch.from_numpy(ys[idx]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            print(
                json.dumps({"step": step, "loss": round(loss.item(), 4), "s": round(time.time() - t0)}),
                flush=True,
            )
        last = step == steps - 1 or out_of_time(t0, minutes, step, steps, say=True)
        if step % 1000 == 999 or last:
            torch.save(net.state_dict(), weights)
            print("val:", json.dumps(report(*predict(net, vx), vyr, vys, vm)), flush=True)
        if last:
            break


def measure(
    dirs: list[Path],
    weights: Path,
    val_shards: list[int],
    seed: int,
    scenes: int,
    ho: Path = Path("/tmp/face_reader_heldout"),
) -> None:
    """The trained network on the validation shards and on scenes of the held-out families."""
    import torch
    from backgrounds import HELD_OUT_FAMILIES

    torch.set_num_threads(1)
    net = build_net()
    net.load_state_dict(torch.load(weights))
    vx, vyr, vys, vm = load(dirs, shards=val_shards)
    print(
        "validation (training families, own seeds):",
        json.dumps(report(*predict(net, vx), vyr, vys, vm)),
        flush=True,
    )
    if not (ho / "shard_000.npz").exists():
        ho.mkdir(parents=True, exist_ok=True)
        _shard(ho, 0, scenes, 950_000 + seed, HELD_OUT_FAMILIES)
    hx, hyr, hys, hm = load([ho])
    print(
        "held-out families (stone_light, felt_purple):",
        json.dumps(report(*predict(net, hx), hyr, hys, hm)),
        flush=True,
    )


def export(weights: Path, out: Path) -> None:
    from torch_tools import export_weights

    export_weights(build_net(), weights, (1, 3, H, W), out)


def main() -> None:
    patch_net_main(
        __doc__, "face_reader", 60, shards=48, steps=7000, val_shards=[0, 20], minutes=30.0,
        generate=generate, train=train, export=export, measure=measure,
    )


if __name__ == "__main__":
    main()
