"""What the vision training scripts share: the time budget and the ONNX export (dev-only, needs torch)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path


def out_of_time(t0: float, minutes: float, step: int, total: int, *, say: bool = False) -> bool:
    """Whether ``minutes`` have passed since ``t0``; with ``say``, tell at which step training stops."""
    over = time.time() - t0 > minutes * 60
    if over and say:
        print(f"time budget of {minutes} min reached after {step}/{total} steps", flush=True)
    return over


def export_onnx(  # type: ignore[no-untyped-def]
    net, shape: tuple[int, ...], path: str, input_name: str, *, batch_axis: bool = False, opset: int = 12
) -> None:
    """``net`` in eval mode to ONNX (the legacy exporter: the ops ``cv2.dnn`` runs), ``logits`` out."""
    import torch

    net.eval()
    axes = {input_name: {0: "n"}, "logits": {0: "n"}} if batch_axis else None
    torch.onnx.export(
        net,
        (torch.zeros(*shape),),
        path,
        input_names=[input_name],
        output_names=["logits"],
        dynamic_axes=axes,
        opset_version=opset,
        dynamo=False,
    )


def export_weights(net, weights: Path, shape: tuple[int, ...], out: Path) -> None:  # type: ignore[no-untyped-def]
    """``net`` with the state saved at ``weights``, as ONNX at ``out`` ("patch" in, any batch, opset 11)."""
    import torch

    net.load_state_dict(torch.load(weights))
    export_onnx(net, shape, str(out), "patch", batch_axis=True, opset=11)
    print(f"exported {out} ({out.stat().st_size} bytes)", flush=True)


def load_onnx_initializers(path: str | Path, ops: tuple[str, ...], params: list) -> None:  # type: ignore[type-arg]
    """Copy into ``params`` (torch tensors, in order) the initializers of the exported network at
    ``path``: every input after the first of each node whose type is in ``ops``, in graph order. A
    file whose tensors differ in number or shape is not this network: ``SystemExit`` naming them."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    arrays = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    tensors = [arrays[name] for node in model.graph.node if node.op_type in ops for name in node.input[1:]]
    if [t.shape for t in tensors] != [tuple(p.shape) for p in params]:
        raise SystemExit(f"{path} is not this network: {[t.shape for t in tensors]}")
    with torch.no_grad():
        for p, t in zip(params, tensors, strict=True):
            p.copy_(torch.from_numpy(t.copy()))


def load_shards(  # type: ignore[no-untyped-def]
    dirs: list[Path], keys: tuple[str, ...], keep: Callable[[int], bool] = lambda k: True
):
    """Each of ``keys``, concatenated over every finished ``shard_NNN.npz`` in ``dirs`` (in path
    order) whose number ``keep`` accepts."""
    import numpy as np

    parts: dict[str, list] = {k: [] for k in keys}  # type: ignore[type-arg]
    for p in sorted(f for d in dirs for f in d.glob("shard_*.npz") if ".tmp" not in f.name):
        if keep(int(p.stem.split("_")[1])):
            z = np.load(p)
            for k in keys:
                parts[k].append(z[k])
    return [np.concatenate(parts[k]) for k in keys]


def seeded(seed: int):  # type: ignore[no-untyped-def]
    """Start a training run on one thread: torch's generator seeded with ``seed``, and a numpy
    generator of the same seed returned (the order every patch network's training has used)."""
    import numpy as np
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    return np.random.default_rng(seed)


# over-exposure, as the patch networks' augmentations draw it: the camera's gain and offset, the card
# stock and pale ink clipped to white (a phone metering a dark table; ``camera_faults.py``'s
# ``over_exposed`` is 1.5 and 20)
EXPOSURE_GAIN = (1.15, 1.8)
EXPOSURE_OFFSET = (0.0, 35.0)


def light_blur_noise(rng, p, blur_p: float, blur_max: float):  # type: ignore[no-untyped-def]
    """A float patch ``p`` (H × W × 3, 0–255) with, each by chance, its brightness and contrast
    changed (1 in 2), a Gaussian blur of σ 0.4–``blur_max`` (``blur_p``) and noise (3 in 10), back
    to uint8: the photometric part the patch networks' augmentations share."""
    import cv2
    import numpy as np

    if rng.random() < 0.5:
        p = p * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    if rng.random() < blur_p:
        p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.4, blur_max))
    if rng.random() < 0.3:
        p = p + rng.normal(0, rng.uniform(2, 10), p.shape)
    return np.clip(p, 0, 255).astype(np.uint8)


def sharded_cli(doc: str | None, data: str, per_shard: int) -> argparse.ArgumentParser:
    """The arguments every sharded training script takes: what to do, where the generated shards go,
    how many, and how many training steps (scripts add their own)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["generate", "train", "export", "all"])
    ap.add_argument("--data", type=Path, nargs="+", default=[Path(data)])
    ap.add_argument("--shards", type=int, default=48)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--per-shard", type=int, default=per_shard)
    ap.add_argument("--steps", type=int, default=16000)
    return ap


def patch_net_main(  # type: ignore[no-untyped-def]
    doc: str | None,
    name: str,
    per_shard: int,
    *,
    shards: int,
    steps: int,
    val_shards: list[int],
    minutes: float,
    generate,
    train,
    export,
    measure,
) -> None:
    """The command line of a small patch network's training script (``name``: the card-side check,
    the face reader): ``generate`` / ``train`` / ``export`` / ``all`` and ``--measure``, with the
    script's own defaults and its four steps."""
    ap = sharded_cli(doc, f"/tmp/{name}_data", per_shard)
    ap.set_defaults(shards=shards, steps=steps)
    ap.add_argument("--val-shards", type=int, nargs="+", default=val_shards, help="kept for validation")
    ap.add_argument("--minutes", type=float, default=minutes)
    ap.add_argument("--batch", type=int, default=96)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--measure-scenes", type=int, default=80, help="held-out-family scenes for `measure`")
    ap.add_argument("--weights", type=Path, default=Path(f"/tmp/{name}.pt"))
    ap.add_argument("--out", type=Path, default=Path(f"vision/models/{name}.onnx"))
    ap.add_argument("--measure", action="store_true", help="after training, also run `measure`")
    ap.add_argument("--measure-data", type=Path, default=Path(f"/tmp/{name}_heldout"),
                    help="where `measure` keeps its held-out-family shard")
    a = ap.parse_args()
    if a.what in ("generate", "all"):
        generate(a.data[0], a.shards, a.per_shard, a.seed, a.first)
    if a.what in ("train", "all"):
        train(a.data, a.weights, a.steps, a.seed, a.minutes, a.batch, a.lr, a.val_shards)
    if a.what in ("export", "all"):
        export(a.weights, a.out)
    if a.measure:
        measure(a.data, a.weights, a.val_shards, a.seed, a.measure_scenes, a.measure_data)
