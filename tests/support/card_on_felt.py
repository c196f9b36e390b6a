"""One rendered card lying square on plain felt, 100 px in from the top-left, and its quad: the
simplest frame in which to read a corner exactly where it is."""

from __future__ import annotations

import numpy as np

from vision.detect import CardQuad
from vision.render import CardStyle, render_card

FELT = (60, 110, 40)
AT = 100  # pixels of felt left of and above the card


def card_on_felt(code: str, width: int, style: CardStyle | None = None) -> tuple[np.ndarray, CardQuad]:
    """The BGR frame (the card with 100 px of felt above and left, 100 and 120 px below and right)
    and the card's quad, corners clockwise from the top-left."""
    card = render_card(code, width, style or CardStyle())
    h, w = card.image.shape[:2]
    image = np.full((h + 2 * AT, w + 2 * AT + 20, 3), FELT, np.uint8)
    spot = image[AT : AT + h, AT : AT + w]
    spot[:] = np.where((card.mask > 0)[..., None], card.image, spot)
    corners = np.array([[AT, AT], [AT + w, AT], [AT + w, AT + h], [AT, AT + h]], np.float64)
    return image, CardQuad(corners)
