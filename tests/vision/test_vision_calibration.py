from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import NEW_DECK_ORDER, Calibration, CalibrationError, Recognizer
from vision.glyphs import RANK_CLASSES


def test_new_deck_order_is_a_full_deck_in_box_order() -> None:
    assert len(set(NEW_DECK_ORDER)) == 52
    assert NEW_DECK_ORDER[:2] == ("AS", "2S") and NEW_DECK_ORDER[26:28] == ("KC", "QC")
    assert NEW_DECK_ORDER[-1] == "AH"


def test_calibration_round_trips_and_steers_ambiguous_glyphs(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    cal = Calibration(deck="test")
    proto = {c: rng.normal(0, 1, 10).astype(np.float32) for c in ("6S", "9S")}
    for code, f in proto.items():
        cal.add(code, f, f)
    path = tmp_path / "deck.npz"
    cal.save(path)
    back = Calibration.load(path)
    assert back.size == 2 and back.deck == "test"
    flat = np.full(len(RANK_CLASSES), 1.0 / len(RANK_CLASSES))
    pr, _ = back.adjust(proto["9S"], proto["9S"], flat, np.full(5, 0.2))
    assert RANK_CLASSES[int(pr[:-1].argmax())] == "9"


def test_bad_calibration_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="not found"):
        Calibration.load(tmp_path / "none.npz")
    (tmp_path / "x.npz").write_bytes(b"junk")
    with pytest.raises(CalibrationError, match="cannot read"):
        Calibration.load(tmp_path / "x.npz")
    with pytest.raises(CalibrationError, match="rank\\+suit"):
        Calibration().add("BK", np.zeros(3), np.zeros(3))


def test_recognizer_accepts_a_calibration() -> None:
    from vision import SimulatedCamera

    shot = SimulatedCamera(seed=1).frame_for(["8D"], "row")
    assert [s.card for s in Recognizer("table", calibration=Calibration()).recognize(shot.image)] == ["8D"]
