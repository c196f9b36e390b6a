"""Which merged regions still hold something unread once the cards in them are read.

The threshold finder gives a hand, a fan or touching cards as one bright region (``Blob``) with
corner candidates; the recogniser looks at each candidate for an index and for a back. Where the
cards read surely already cover the whole region, no other card shows there and those looks can
only find the same cards again: in a frame of six two-card hands they were most of the reading.
A region keeps its looks while a part of it the size of a card's corner (``LEFT`` of a card)
lies outside every card read surely (``SURE``: its outline explains the part it covers).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import Blob
from vision.hand_backs import UNDER
from vision.index_frames import SURE  # a reading this confident is taken as right
from vision.render import CARD_ASPECT
from vision.sighting import BACK, Sighting

LEFT = 0.1  # of a card's area: a part of a region outside the cards read this big may be another card
SLIVER = 0.08  # of a card width: strips this thin along the cards' edges are their outlines' error
WORK = 96.0  # pixels across a card at the size the cover is worked out at (never above full size)


def unexplained(
    blobs: tuple[Blob, ...], read: list[Sighting], *, backs: bool = False, left: float = LEFT
) -> tuple[Blob, ...]:
    """The regions among ``blobs`` with a part at least ``left`` of a card outside the outlines of
    the cards ``read`` surely (a back's outline is no reading: it never explains a region, unless
    ``backs``: the backs found among the cards, once every look for them is done)."""
    outlines = [
        np.asarray(s.outline, np.float64)
        for s in read
        if ((s.card != BACK and s.confidence >= SURE) or (backs and s.card == BACK)) and len(s.outline) >= 3
    ]
    if not outlines or not blobs:
        return blobs
    areas = [abs(float(cv2.contourArea(o.astype(np.float32)))) for o in outlines]
    card_area = float(np.median(areas))
    if card_area <= 0:
        return blobs
    width = float(np.sqrt(card_area / CARD_ASPECT))
    scale = min(1.0, WORK / max(width, 1.0))  # a frame of tiny cards is not worked on at many times its size
    return tuple(b for b in blobs if _left_over(b, outlines, scale, width) >= left * card_area)


def _left_over(blob: Blob, outlines: list[np.ndarray], scale: float, width: float) -> float:
    """The area (image pixels²) of ``blob`` outside every outline, slivers along them left out."""
    region = np.asarray(blob.outline, np.float64).reshape(-1, 2)
    if len(region) < 3:
        return float("inf")  # no area to tell: searched as before
    lo = region.min(axis=0) - 2
    size = np.ceil((region.max(axis=0) - lo + 4) * scale).astype(int) + 1
    mask = np.zeros((int(size[1]), int(size[0])), np.uint8)
    cv2.fillPoly(mask, [np.round((region - lo) * scale).astype(np.int32)], 1)
    for o in outlines:
        cv2.fillPoly(mask, [np.round((o - lo) * scale).astype(np.int32)], 0)
    k = max(1, round(SLIVER * width * scale))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return float(cv2.countNonZero(mask)) / (scale * scale)


def covers_an_index(back: Sighting, sightings: list[Sighting]) -> bool:
    """Whether the outline of ``back`` holds the index one of ``sightings`` was read from."""
    poly = np.array(back.outline, np.float32).reshape(-1, 1, 2)
    for f in sightings:
        if f.index_corner:
            c = np.mean(np.array(f.index_corner), axis=0)
            if cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) > 0:
                return True
    return False


def backs_not_over_a_face(backs: list[Sighting], sightings: list[Sighting]) -> list[Sighting]:
    """The ``backs`` that hold no index read among ``sightings`` (a back never lies over a face's
    index), and those found under a face (``hand_backs.UNDER``: the face lies over them)."""
    return [b for b in backs if b.evidence == (UNDER,) or not covers_an_index(b, sightings)]
