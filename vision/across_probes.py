"""The index of a card lying on another, looked for across the short edge from its far corner.

A hand's upper card lies with its index corner on the card below it. Where the learned finder's index
map misses that index (a card laid sideways across the hand, as a blackjack double down is, hides the
lower half of both, and the network then sees the upper card's index faintly or not at all), the full
read's probes have nothing to start from: they all start from indices read. But the upper card's far
top corner still lies on the merged region's outline, where the threshold finder traced it
(``Blob.corners``): a right-handed corner frame there runs its x axis down the card's long edge and
its y axis back along the short one, and one card width along y lies the card's index corner.

:func:`across_frames` puts an upright frame there, as wide as the faces read, for every traced corner
that no card read explains (a corner of a back, of a face read surely or of one whose outline is as wide
as the faces read, or a corner lying inside a face read) where the frame lands on a face read (the card
below) and on none of those corners. A face read unsurely through a wider outline explains no corner:
that outline may span its hand, the card over it too. A traced corner of another kind (a bottom corner,
or a pale table's region running into the table) puts its frame on a card's long edge, on a pip or on
the table, where nothing reads surely. :func:`read_across` reads them, refined as the finder's frames
are, and keeps only sure readings of codes not read; a frame on a card read is read too, since that is
where the upper card's index lies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.detect import Blob, CornerFrame
from vision.finder import IndexFrame
from vision.index_frames import SURE, index_point, sure_new_cards
from vision.outline_sides import short_side
from vision.sighting import BACK, Sighting

if TYPE_CHECKING:
    from vision.recognizer import Recognizer

EXPLAINED = 0.15  # card widths between a point and a corner of a card read: that card's corner
# card widths inside a face read: a traced corner there lies on that face, not on the stack's outside
# (a pale table's region runs into the table and traces corners anywhere)
INSIDE = 0.05
CARD_SIZED = 0.2  # of the faces' width: an outline this near it is one card's, read surely or not


def across_frames(blobs: tuple[Blob, ...], read: list[Sighting]) -> list[IndexFrame]:
    """The upright frames one face's width across the short edge from the corners traced on the merged
    regions ``blobs`` that no card of ``read`` explains, where they land on a face read (none where no
    face was read)."""
    faces = [s for s in read if s.card != BACK and s.index_corner and len(s.outline) == 4]
    if not faces:
        return []
    width = float(np.median([short_side(s.outline) for s in faces]))
    sure = [
        s
        for s in read
        if s.card == BACK or s.confidence >= SURE or abs(short_side(s.outline) - width) <= CARD_SIZED * width
    ]
    corners = np.array([c for s in sure for c in s.outline], np.float64).reshape(-1, 2)
    polys = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in faces]

    def at_a_corner(p: np.ndarray) -> bool:
        return bool((np.hypot(*(corners - p).T) < EXPLAINED * width).any())

    def depth(p: np.ndarray | tuple[float, float]) -> float:
        """How far ``p`` lies inside the face read deepest round it (negative: outside every face)."""
        return max(cv2.pointPolygonTest(q, (float(p[0]), float(p[1])), True) for q in polys)

    out = []
    for blob in blobs:
        for f in blob.corners:
            x, y = np.asarray(f.x, np.float64), np.asarray(f.y, np.float64)
            at = f.origin + width * y
            if at_a_corner(f.origin) or at_a_corner(at) or depth(f.origin) > INSIDE * width:
                continue
            fr = IndexFrame(CornerFrame(at, -y, x, width), False, 0.0)
            if depth(index_point(fr)) > 0:
                out.append(fr)
    return out


def read_across(
    rec: Recognizer, image: np.ndarray, blobs: tuple[Blob, ...], read: list[Sighting], colour: bool
) -> list[Sighting]:
    """The cards read surely through :func:`across_frames` (refined by ``rec.frame_steps``) whose codes
    none of ``read`` has."""
    probes = across_frames(blobs, read)
    for step in rec.frame_steps if probes else ():
        probes = step(rec, image, probes)
    return sure_new_cards(rec, image, probes, colour, read)
