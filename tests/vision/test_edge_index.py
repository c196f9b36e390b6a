"""An index cut by the frame's edge is never read surely: the corner patch repeats the edge's pixels
beyond it, and that can smear a cut glyph into another one (a 6 into a 5). Once unsure, the misread
joins the sure reading of the card's other corner as one card; read alone it still counts."""

from __future__ import annotations

import numpy as np
import pytest
from card_on_felt import AT, card_on_felt

from vision import Recognizer, index_frames
from vision.detect import CornerFrame
from vision.finder import frame_from_vectors
from vision.index import Reading
from vision.recognizer import EDGE_CAP, at_the_edge


def _card_cut_at_left(code: str, cut: int) -> tuple[np.ndarray, CornerFrame]:
    """A 200-px card on felt whose left ``cut`` pixels lie beyond the frame's left edge, and the
    frame of its top-left index corner."""
    image, quad = card_on_felt(code, 200)
    f = quad.frame(0)
    shown = np.ascontiguousarray(image[:, AT + cut :])
    return shown, CornerFrame(f.origin - [AT + cut, 0], f.x, f.y, f.width, None)


@pytest.mark.parametrize("code", ["6S", "9H", "QD"])
def test_an_index_cut_by_the_frame_edge_reads_but_never_surely(
    table_recognizer: Recognizer, code: str
) -> None:
    whole, at = _card_cut_at_left(code, 4)  # the card's border cut, its index whole
    r = table_recognizer.read_corner(whole, at)
    assert r is not None and r.card == code and r.confidence >= 0.9
    cut, at = _card_cut_at_left(code, 12)  # the frame's edge runs through the index
    r = table_recognizer.read_corner(cut, at)
    assert r is not None and r.card == code  # still read
    assert r.confidence == pytest.approx(EDGE_CAP)
    assert at_the_edge(r.index_corner, cut.shape)


def test_at_the_edge_means_within_a_pixel_of_any_side() -> None:
    shape = (100, 200, 3)
    inside = ((10.0, 10.0), (30.0, 10.0), (30.0, 40.0), (10.0, 40.0))
    assert not at_the_edge(inside, shape)
    for dx, dy in ((-9.5, 0.0), (168.5, 0.0), (0.0, -9.5), (0.0, 58.5)):
        moved = tuple((x + dx, y + dy) for x, y in inside)
        assert at_the_edge(moved, shape)


def test_a_misread_at_the_edge_is_one_card_with_the_sure_reading_of_its_other_corner() -> None:
    # a card's two index corners: the top-left read surely, the bottom-right cut by the frame's edge
    top_left = frame_from_vectors(np.array([100.0, 100.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    bottom_right = frame_from_vectors(
        np.array([180.0, 212.0]), np.array([-80.0, 0.0]), np.array([0.0, -80.0])
    )
    box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))

    def cards(edge_confidence: float) -> int:
        found = [
            (Reading("6C", 1.0, 0.0, box), top_left),
            (Reading("5C", edge_confidence, 0.0, box), bottom_right),
        ]
        return len(index_frames.group_readings(found))

    assert cards(0.98) == 2  # read surely, the smeared 5 would stand as a card of its own
    assert cards(EDGE_CAP) == 1
