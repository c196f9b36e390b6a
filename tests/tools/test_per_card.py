"""tools/vision/per_card.py --why: each card the recogniser missed, read at its true corners."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from per_card import WHY, why_missed  # noqa: E402
from scenes import write_benchmark  # noqa: E402

from vision import Recognizer  # noqa: E402


class _Blind(Recognizer):
    """A recogniser that sees no card in any frame (its corners read as the shipped one's)."""

    def recognize(self, image: np.ndarray) -> list:  # type: ignore[type-arg]
        return []


def test_every_missed_card_is_sorted_by_its_reading_at_the_true_corner(tmp_path: Path) -> None:
    write_benchmark(tmp_path, "train", count=6, seed=31, size=(640, 480))
    labels = json.loads((tmp_path / "labels.json").read_text())
    truth = json.loads((tmp_path / "truth.json").read_text())
    reasons = why_missed(tmp_path, _Blind("table"))
    # nothing read: every labelled card at least 50 px wide is missed, and each gets one reason
    wide = [
        (name, c)
        for name, scene in truth.items()
        for c in scene["cards"]
        if c["code"] in labels[name]
        and np.linalg.norm(np.subtract(c["outline"][1], c["outline"][0])) >= 50
        and (any(c["index_visible"]) or c["code"] == "BK")
    ]
    shown = [c for _, c in wide if c["code"] != "BK" or c["visible"] * c.get("in_frame", 1) > 0.5]
    assert len(reasons) == len(shown)
    assert {r for r, _, _ in reasons} <= set(WHY)
    for reason, _, card in reasons:
        assert (reason == WHY[0]) == (card["code"] == "BK")
    # the shipped reader reads a face it sees whole and big at its true corners: each such card
    # missed is put down to finding
    big = [
        (name, c["code"])
        for name, c in wide
        if c["code"] != "BK"
        and c["visible"] >= 0.9
        and np.linalg.norm(np.subtract(c["outline"][1], c["outline"][0])) >= 100
    ]
    assert big
    assert all((WHY[1], name, code) in {(r, n, c["code"]) for r, n, c in reasons} for name, code in big)


def test_a_missed_card_is_traced_to_the_step_that_lost_it(tmp_path: Path) -> None:
    # a recogniser whose frame step drops every index frame the finder gives: the cards it misses that
    # read at their true corners are lost where the first look's frames are dropped, never at frames
    # read, since none reaches reading
    from per_card import STAGES, lost_where

    write_benchmark(tmp_path, "train", count=6, seed=31, size=(640, 480))
    rec = Recognizer("table")
    rec.frame_steps = (lambda r, im, frames: [],)
    stages = lost_where(tmp_path, rec)
    assert stages
    assert {s for s, _, _ in stages} <= set(STAGES)
    assert any(s == STAGES[1] for s, _, _ in stages)
    assert not any(s == STAGES[2] for s, _, _ in stages)
    assert rec.quick  # as it was given
