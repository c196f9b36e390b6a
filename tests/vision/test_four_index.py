"""A four-index deck prints its index a second time at the top-right corner, upright as at the top-left.

Read sideways (the corner's x along the card's long side), that index must read as printed: its glyphs
were once classified mirrored, and a mirrored 9 or Q does not read as itself.
"""

from __future__ import annotations

import pytest
from card_on_felt import card_on_felt

from vision import Recognizer
from vision.render import CardStyle

# the asymmetric ranks (a mirrored A or 8 still looks like itself) and a 10
CODES = ["2S", "3H", "4C", "5D", "6S", "7C", "9H", "10S", "JD", "QS", "KC"]


@pytest.mark.parametrize("code", CODES)
def test_the_top_right_index_of_a_four_index_deck_reads_as_printed(
    table_recognizer: Recognizer, code: str
) -> None:
    image, quad = card_on_felt(code, 200, CardStyle(four_index=True))
    top_right = table_recognizer.read_corner(image, quad.frame(1), sideways=True)
    assert top_right is not None and top_right.card == code
    assert top_right.confidence >= 0.9
