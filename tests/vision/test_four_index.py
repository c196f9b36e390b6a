"""A four-index deck prints its index a second time at the top-right corner, upright as at the top-left.

Read sideways (the corner's x along the card's long side), that index must read as printed: its glyphs
were once classified mirrored, and a mirrored 9 or Q does not read as itself.
"""

from __future__ import annotations

from typing import Any

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


def test_a_card_read_only_at_its_mirrored_corners_says_so_in_its_evidence(
    table_recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # its upright corners read nothing (hidden, say): the card is read at the top-right index, and its
    # evidence names that reading (it once came out empty)
    image, quad = card_on_felt("QS", 200, CardStyle(four_index=True))
    rec = Recognizer("table")
    read_cut = rec._read_cut

    def upright_unread(*args: Any) -> Any:
        sideways = args[4]
        return read_cut(*args) if sideways else (None, False)

    monkeypatch.setattr(rec, "_read_cut", upright_unread)
    s = rec._read_quad(image, quad, True)
    assert s is not None and s.card == "QS"
    assert any(e.startswith("QS:") for e in s.evidence)
