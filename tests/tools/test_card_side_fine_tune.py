"""Fine-tuning the shipped card-side network (``train_card_side.py train --init FILE.onnx``): the
training network rebuilt from the exported file must be the same function, or the fine-tune would
start from somewhere else than the network the recogniser runs. Needs the training extra (torch,
onnx); skipped without it, as in CI."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from train_card_side import exported_net  # noqa: E402

from vision.card_side import CardSideNet, H, W, prepare  # noqa: E402

SHIPPED = Path(__file__).resolve().parents[2] / "vision" / "models" / "card_side.onnx"


def test_the_network_rebuilt_from_the_shipped_file_gives_its_logits() -> None:
    patches = np.random.default_rng(5).integers(0, 256, (16, H, W, 3)).astype(np.float32)
    x = prepare(patches)
    net = exported_net(SHIPPED).eval()
    with torch.no_grad():
        rebuilt = net(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(rebuilt, CardSideNet.load(SHIPPED).logits(x), atol=1e-4)


def test_a_file_of_another_network_is_refused() -> None:
    other = SHIPPED.with_name("face_reader.onnx")
    with pytest.raises(SystemExit, match="is not this network"):
        exported_net(other)
