"""The shipped ONNX networks' bytes, and a ``cv2.dnn`` net of them per thread (a Net is not safe to share)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from vision.errors import ModelError, VisionError


def check_bgr(image: object, user: str, error: type[VisionError]) -> None:
    """Raise ``error`` (naming ``user``) unless ``image`` is a BGR frame of at least 2×2 pixels."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        got = f"{image.dtype} array of shape {image.shape}" if isinstance(image, np.ndarray) else type(image)
        raise error(f"{user} expects a BGR image (H×W×3 uint8 array), got {got}")
    if min(image.shape[:2]) < 2:
        raise error(f"{user} expects an image at least 2×2 pixels, got {image.shape[1]}×{image.shape[0]}")


def model_bytes(path: str | Path | None, name: str) -> bytes:
    """The file at ``path``, or the packaged ``vision/models/<name>`` when ``path`` is None."""
    if path is None:
        return (resources.files("vision") / "models" / name).read_bytes()
    return Path(path).read_bytes()


def _read_net(buffer: np.ndarray) -> cv2.dnn.Net:
    """A net of the ONNX bytes in ``buffer``. OpenCV 5 runs these small nets about a tenth faster on
    its classic engine than on the new one it picks itself (the finder at 512 px: 12.5 against
    13.9 ms, outputs equal to 1e-4); OpenCV 4 has only the classic engine and no choice to make."""
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is None:
        return cv2.dnn.readNetFromONNX(buffer)
    return cv2.dnn.readNetFromONNX(buffer, engine=engine)


def thread_net(local: threading.local, onnx: bytes) -> cv2.dnn.Net:
    """This thread's net of ``onnx``, read on its first use in the thread and kept in ``local``."""
    net = getattr(local, "net", None)
    if net is None:
        net = _read_net(np.frombuffer(onnx, np.uint8))
        local.net = net
    return net


@dataclass(frozen=True, eq=False)
class OnnxNet:
    """A network kept as its ONNX bytes, run by a ``cv2.dnn`` net of this thread's own."""

    onnx: bytes
    _local: threading.local = field(default_factory=threading.local, repr=False)

    def _net(self) -> cv2.dnn.Net:
        return thread_net(self._local, self.onnx)


Net = TypeVar("Net", bound=OnnxNet)


def load_checked(
    cls: type[Net],
    path: str | Path | None,
    name: str,
    what: str,
    run: Callable[[Net, np.ndarray], np.ndarray],
    probe: tuple[int, ...],
    outputs: int,
) -> Net:
    """``cls`` of the file at ``path`` (or the packaged ``name``), run once on zeros of shape
    ``probe`` to check it gives ``outputs`` values: a missing or wrong file is a ``ModelError``."""
    where = str(path or f"vision/models/{name}")
    try:
        net = cls(model_bytes(path, name))
        out = run(net, np.zeros(probe, np.float32))
    except (OSError, cv2.error) as exc:
        raise ModelError(f"cannot load the {what} ({where}): {exc}") from exc
    if out.shape != (1, outputs):
        raise ModelError(f"{what} ({where}) gives {out.shape} outputs, expected (1, {outputs})")
    return net
