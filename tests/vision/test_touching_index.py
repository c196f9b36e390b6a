"""A rank touching its suit (a heavy stroke, blur, a low-resolution index) is one ink component; the
segmenter cuts it at the thin neck where the two glyphs meet, so the glyph readers see each alone.

On a card wider than ``patch_reader.MAX_WIDTH`` the patch reader is not asked, and before the cut
such an index did not read at all (a held-out 482-px 7♠ whose 7 touched its spade was missed; on
another, a 4♠ read as A♠)."""

from __future__ import annotations

import pytest
from card_on_felt import card_on_felt

from vision import Recognizer
from vision.index import cut_patch, segment_index
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
