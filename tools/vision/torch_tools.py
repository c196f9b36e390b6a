"""What the vision training scripts share: the time budget and the ONNX export (dev-only, needs torch)."""

from __future__ import annotations

import time


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
