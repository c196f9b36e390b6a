"""Drawing what the recogniser saw (``vision.annotate``, ``dealer vision recognize --annotate``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer.cli import app
from vision import SimulatedCamera, SourceError, annotate, read_image, write_image
from vision.sighting import Sighting

GREY = 90


def _blank() -> np.ndarray:
    return np.full((300, 400, 3), GREY, np.uint8)


def _card(code: str, confidence: float, x: int) -> Sighting:
    return Sighting(code, confidence, ((x, 100), (x + 60, 100), (x + 60, 190), (x, 190)))


def test_each_card_is_outlined_and_the_rest_of_the_frame_is_untouched() -> None:
    frame = _blank()
    drawn = annotate(frame, [_card("QH", 0.97, 50), _card("7C", 0.5, 200)])
    assert (frame == GREY).all()  # the caller's frame is not drawn on
    sure, unsure = drawn[145, 50], drawn[145, 200]  # the middle of each card's left side
    assert (sure != GREY).any() and (unsure != GREY).any()
    assert tuple(sure) != tuple(unsure)  # an unsure reading looks different from a sure one
    assert (drawn[250:, :] == GREY).all() and (drawn[:, 300:] == GREY).all()  # away from the cards


def test_a_card_at_the_top_edge_keeps_its_label_inside_the_frame() -> None:
    s = Sighting("AS", 0.9, ((150, 0), (210, 0), (210, 90), (150, 90)))
    drawn = annotate(_blank(), [s])
    label = (drawn[:, :, 0] == 30) & (drawn[:, :, 1] == 30) & (drawn[:, :, 2] == 30)  # the dark label box
    ys, xs = np.nonzero(label)
    assert len(ys) > 50 and ys.min() >= 0 and xs.max() < drawn.shape[1]


def test_a_frame_that_is_not_a_bgr_image_is_refused() -> None:
    with pytest.raises(ValueError, match="BGR image"):
        annotate(np.zeros((10, 10), np.uint8), [])


def test_writing_names_what_was_wrong(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        write_image(tmp_path / "missing" / "out.png", _blank())
    with pytest.raises(SourceError, match=r"expected a \.png"):
        write_image(tmp_path / "out.xyz", _blank())
    write_image(tmp_path / "out.png", _blank())
    assert (read_image(tmp_path / "out.png") == GREY).all()


runner = CliRunner()


def test_recognize_annotate_writes_the_frame_with_the_cards_found(tmp_path: Path) -> None:
    shot = SimulatedCamera(seed=2).frame_for(["JH", "4C"], "row")
    src, out = tmp_path / "t.png", tmp_path / "seen.png"
    cv2.imwrite(str(src), shot.image)
    res = runner.invoke(app, ["vision", "recognize", str(src), "--annotate", str(out)])
    assert res.exit_code == 0, res.output
    drawn = read_image(out)
    assert drawn.shape == shot.image.shape
    changed = (drawn != shot.image).any(axis=2)
    for p in shot.placements:  # every card's edge was drawn over, all round
        corners = p.corners()
        along = [
            a + t * (b - a)
            for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True)
            for t in np.linspace(0.1, 0.9, 9)
        ]
        drawn_over = [
            changed[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4].any()
            for x, y in np.round(along).astype(int)
        ]
        assert sum(drawn_over) >= 0.9 * len(along), p.code
    far = changed[shot.image.shape[0] - 40 :, :]  # the empty cloth below the row is as it was
    assert not far.any()


def test_recognize_annotate_into_a_missing_folder_fails_with_a_message(tmp_path: Path) -> None:
    shot = SimulatedCamera(seed=2).frame_for(["JH"], "row")
    src = tmp_path / "t.png"
    cv2.imwrite(str(src), shot.image)
    res = runner.invoke(app, ["vision", "recognize", str(src), "--annotate", str(tmp_path / "no" / "x.png")])
    assert res.exit_code != 0 and "does not exist" in res.stderr
