"""A four-index deck prints its index a second time at the top-right corner, upright as at the top-left.

Read sideways (the corner's x along the card's long side), that index must read as printed: its glyphs
were once classified mirrored, and a mirrored 9 or Q does not read as itself.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import Recognizer
from vision.detect import CardQuad
from vision.render import CardStyle, render_card

FELT = (60, 110, 40)
# the asymmetric ranks (a mirrored A or 8 still looks like itself) and a 10
CODES = ["2S", "3H", "4C", "5D", "6S", "7C", "9H", "10S", "JD", "QS", "KC"]


def _four_index_card_on_felt(code: str) -> tuple[np.ndarray, CardQuad]:
    card = render_card(code, 200, CardStyle(four_index=True))
    h, w = card.image.shape[:2]
    image = np.full((h + 200, w + 220, 3), FELT, np.uint8)
    on_card = (card.mask > 0)[..., None]
    image[100 : 100 + h, 100 : 100 + w] = np.where(on_card, card.image, image[100 : 100 + h, 100 : 100 + w])
    quad = CardQuad(np.array([[100, 100], [100 + w, 100], [100 + w, 100 + h], [100, 100 + h]], np.float64))
    return image, quad


@pytest.mark.parametrize("code", CODES)
def test_the_top_right_index_of_a_four_index_deck_reads_as_printed(
    table_recognizer: Recognizer, code: str
) -> None:
    image, quad = _four_index_card_on_felt(code)
    top_right = table_recognizer.read_corner(image, quad.frame(1), sideways=True)
    assert top_right is not None and top_right.card == code
    assert top_right.confidence >= 0.9
