"""A four-colour deck (many poker rooms' cards) prints diamonds blue and clubs green.

Red ink says hearts or diamonds and black ink spades or clubs; blue or green ink says neither. Read
with that red-or-black prior, a small blue diamond was taken for a club (2D as 2C, QD as QC) and a
green club for a spade: the shape of the suit has to decide there.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision import Recognizer, SimulatedCamera
from vision.evaluate import score_codes
from vision.render import FOUR_COLOUR, CardStyle, render_card
from vision.sighting import FACES

TABLES = ["felt", "dark", "wood", "light_wood", "white"]


def test_a_four_colour_deck_prints_diamonds_blue_and_clubs_green() -> None:
    for code, ink in (("5D", FOUR_COLOUR["D"]), ("5C", FOUR_COLOUR["C"]), ("5H", FOUR_COLOUR["H"])):
        face = render_card(code, 250, CardStyle(four_colour=True)).image
        corner = face[5:70, 5:45].reshape(-1, 3).astype(int)
        inked = corner[corner.sum(axis=1) < 600]  # the index's ink, not the paper
        assert len(inked) > 50
        assert int(np.argmax(np.median(inked, axis=0))) == int(np.argmax(ink)), code
    # the usual deck stays red and black
    two = render_card("5D", 250).image[5:70, 5:45].reshape(-1, 3).astype(int)
    assert int(np.argmax(np.median(two[two.sum(axis=1) < 600], axis=0))) == 2  # red (BGR)


def _read(style: CardStyle, frames: int) -> tuple[Counter[tuple[str, str]], int, int]:
    """Suit confusions (truth, read) among the cards read with the right rank, cards right, cards dealt."""
    rng = np.random.default_rng(3)
    rec = Recognizer("table")
    confusions: Counter[tuple[str, str]] = Counter()
    right = dealt = 0
    for i in range(frames):
        width = int(rng.integers(55, 95))  # small cards: a camera over a whole table
        cam = SimulatedCamera(size=(1280, 960), background=TABLES[i % len(TABLES)], seed=100 + i,
                              card_width=width, style=style)
        codes = [str(c) for c in rng.choice(FACES, 8, replace=False)]
        frame = cam.frame_for(codes, layout=["scatter", "hand"][i % 2]).image
        score = score_codes(codes, [s.card for s in rec.recognize(frame)])
        right += score.right
        dealt += len(codes)
        confusions.update((missed[-1], read[-1]) for missed, read in score.misread_suits())
    return confusions, right, dealt


@pytest.mark.slow
def test_a_four_colour_deck_reads_its_blue_diamonds_and_green_clubs() -> None:
    confusions, right, dealt = _read(CardStyle(four_colour=True), 20)
    # blue is no black: a diamond is not read as a spade or a club; green is no black either
    assert confusions[("D", "C")] + confusions[("D", "S")] == 0, confusions
    assert confusions[("C", "S")] <= 1, confusions
    assert right >= 0.97 * dealt, (right, dealt, confusions)
