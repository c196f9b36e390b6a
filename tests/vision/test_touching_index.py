"""A rank touching its suit (a heavy stroke, blur, a low-resolution index) is one ink component; the
segmenter cuts it at the thin neck where the two glyphs meet, so the glyph readers see each alone.

Until session 35 the patch reader was not asked about cards over 500 px wide, and before the cut such
an index did not read at all (a held-out 482-px 7♠ whose 7 touched its spade was missed; on another,
a 4♠ read as A♠). Where the two meet over a neck too wide to be sure of (a 9's tail on its
suit's top, a 6's bowl on a club's lobe), the segmenter offers the cuts at the narrowest rows of the
glyph's middle and the glyph readers read the one they read best."""

from __future__ import annotations

import numpy as np
import pytest
from card_on_felt import card_on_felt
from hypothesis import given
from hypothesis import strategies as st

from vision import Recognizer
from vision.index import MAX_CUTS, _cuts, _neck, cut_patch, segment_index
from vision.render import CardStyle

# ranks whose lowest stroke meets the suit at a neck (the 2's and the K's broad feet do not make one)
CODES = ["3C", "4S", "6C", "7S", "9C", "JD"]
TOUCHING = CardStyle(suit_gap=0.0)  # the index suit drawn touching the rank


@pytest.mark.parametrize("code", CODES)
def test_a_rank_touching_its_suit_is_cut_into_rank_over_suit(code: str) -> None:
    image, quad = card_on_felt(code, 560, TOUCHING)
    glyphs = segment_index(cut_patch(image, quad.frame(0))[0])
    assert glyphs is not None and glyphs.suit is not None
    rank_box, suit_box = glyphs.rank.box, glyphs.suit.box
    assert rank_box[1] + rank_box[3] <= suit_box[1]  # the rank above, the suit below
    assert suit_box[3] >= 0.3 * rank_box[3]  # a suit-sized glyph, not a sliver


@pytest.mark.parametrize("code", CODES)
def test_a_big_card_whose_rank_touches_its_suit_reads(table_recognizer: Recognizer, code: str) -> None:
    image, quad = card_on_felt(code, 560, TOUCHING)
    reading = table_recognizer.read_corner(image, quad.frame(0))
    assert reading is not None and reading.card == code and reading.confidence >= 0.9


def test_a_tall_rank_alone_is_not_cut() -> None:
    # the usual index, with a gap: nothing to cut (a J or a 7 alone is not split in two)
    for code in ("JD", "7S", "QS"):
        image, quad = card_on_felt(code, 300)
        glyphs = segment_index(cut_patch(image, quad.frame(0))[0])
        assert glyphs is not None and glyphs.suit is not None
        assert glyphs.rank.box[3] > 1.2 * glyphs.suit.box[3]  # the whole rank, not its top part


# a 9 drawn as wide as the default deck's is tall, its tail on the suit: the join is too wide a neck
WIDE_NECK = CardStyle(suit_gap=0.0, rank_width=0.09, suit_size=0.11)


def _stacked(top_w: int, neck_w: int, bottom_w: int) -> np.ndarray:
    """A glyph's ink: a 14-row part over a 16-row part, joined by a 3-row neck, all centred."""
    rows = [top_w] * 14 + [neck_w] * 3 + [bottom_w] * 16
    mask = np.zeros((len(rows), max(rows) + 2), bool)
    for y, w in enumerate(rows):
        x0 = (mask.shape[1] - w) // 2
        mask[y, x0 : x0 + w] = True
    return mask


def test_a_wide_neck_is_not_cut_for_sure_but_offered_as_the_first_cut() -> None:
    mask = _stacked(7, 4, 13)  # the neck 4/7 of the narrower part: not thin enough to be sure of
    assert _neck(mask) is None
    cuts = _cuts(mask)
    assert cuts, "a tall glyph with a waist is offered cuts"
    (tx, ty, tw, th), (bx, by, bw, bh) = cuts[0]  # the narrowest row first: in the neck
    assert 14 <= ty + th <= 17 and by == ty + th + 1
    assert (tw, bw) == (7, 13)


def test_a_thin_neck_is_cut_for_sure() -> None:
    mask = _stacked(7, 2, 13)
    assert _neck(mask) is not None


@given(st.lists(st.integers(1, 14), min_size=12, max_size=40))
def test_every_cut_is_a_middle_row_with_ink_above_and_below_and_none_twice(widths: list[int]) -> None:
    # one glyph's ink as the segmenter sees it: rows of ink about one centre line, so all connected
    mask = np.zeros((len(widths), 16), bool)
    for y, w in enumerate(widths):
        mask[y, 8 - w // 2 : 8 + (w + 1) // 2] = True
    h = mask.shape[0]
    lo, hi = int(0.35 * h), int(0.75 * h)
    cuts = _cuts(mask)
    assert len(cuts) <= MAX_CUTS
    assert len(set(cuts)) == len(cuts)  # no cut offered twice
    for (_, ty, _, th), (_, by, _, bh) in cuts:
        assert by == ty + th + 1  # the one row left out between the rank and the suit
        assert lo <= ty + th < hi  # … lies in the middle of the glyph
        assert ty == 0 and by + bh == h  # nothing of the glyph lost above or below


def test_a_glyph_no_taller_than_a_rank_is_offered_no_cut() -> None:
    assert _cuts(np.ones((14, 10), bool)) == []  # a lone rank: not 1.6 times as tall as wide


@pytest.mark.parametrize("code", ["9C", "9H"])
def test_where_the_patch_reader_reads_nothing_the_glyph_readers_read_the_best_cut(
    table_recognizer: Recognizer, code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the patch reader switched off stands for a corner it cannot read (on the project's held-out
    # scenes: a blurred or crowded index, a deck's small rank over a big suit)
    monkeypatch.setenv("DEALER_VISION_PATCH", "off")
    image, quad = card_on_felt(code, 560, WIDE_NECK)
    glyphs = segment_index(cut_patch(image, quad.frame(0))[0])
    assert glyphs is not None and glyphs.suit is None and glyphs.splits  # no sure neck: cuts offered
    reading = table_recognizer.read_corner(image, quad.frame(0))
    assert reading is not None and reading.card == code and reading.confidence >= 0.8
