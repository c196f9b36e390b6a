"""A card the frame's edge cuts, from the piece of it in view: where the rest of it lies.

The back searches find a piece of card surface (a region of the learned finder's interior map, or of
a colour other than the table's) that is no card-shaped quad because the frame's edge cut it. Each
function here guesses the whole card from that piece, in full-image pixels, for the card-side network
to judge: :func:`across_the_edge` grows the piece's box to a card's shape across the side nearer the
edge, :func:`three_corners` completes a parallelogram from three corners in view, and
:func:`one_side_in_view` builds a card on one whole side in view of the width (or length) of the cards
read. A piece's outline is simplified (``SIMPLIFY``) and its corners within ``EDGE_CELLS`` of the
frame's edge are where the edge cut it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.render import CARD_ASPECT

SIMPLIFY = 0.03  # of a piece's perimeter: how far its simplified outline may stray from it
EDGE_CELLS = 1.5  # pixels of the piece's mask: a corner this near the frame's edge is where the edge cut it
SIDE_SLACK = 0.2  # of a card's width or length: how far a side in view may differ from it


def across_the_edge(box: np.ndarray, shape: tuple[int, ...]) -> list[np.ndarray]:
    """The card ``box`` would be where the frame cut it: a box not of a card's shape, grown along
    the axis that falls short of ``CARD_ASPECT`` until it has that shape, across the side of the
    two it moves between that lies nearer the frame's edge (or beyond it)."""
    h, w = shape[:2]
    sides = [np.linalg.norm(box[(k + 1) % 4] - box[k]) for k in range(2)]
    long_k = int(np.argmax(sides))
    short, long = min(sides), max(sides)
    if short <= 0:
        return []
    if long > 1.05 * CARD_ASPECT * short:  # the short sides were cut: grow the box across the long ones
        k, want, have = long_k, long / CARD_ASPECT, short
    elif long < CARD_ASPECT * short / 1.05:  # the long sides were cut: grow it across the short ones
        k, want, have = 1 - long_k, CARD_ASPECT * short, long
    else:
        return []

    def inside(p: np.ndarray) -> float:  # pixels from the frame's edge (negative: beyond it)
        return float(min(p[0], p[1], w - 1 - p[0], h - 1 - p[1]))

    # sides k (corners k, k+1) and k+2 (corners k+2, k+3) are the two the box grows between
    a, b, c, d = (box[(k + i) % 4] for i in range(4))
    if inside((a + b) / 2) <= inside((c + d) / 2):
        step = (a - d) / have * (want - have)  # side k moves away from side k+2
        return [np.array([a + step, b + step, c, d])]
    step = (d - a) / have * (want - have)
    return [np.array([a, b, c + step, d + step])]


def three_corners(contour: np.ndarray, cell: float, shape: tuple[int, ...]) -> np.ndarray | None:
    """A card the frame's edge cuts, from the piece of it in view (a contour in a mask of ``cell``
    full-image pixels a pixel): where the piece's outline, simplified, has exactly three corners off
    the frame's edge and next to one another, the card's fourth corner lies where a parallelogram puts
    it, beyond the edge (full-image pixels)."""
    pts, on_edge = _corners_in_view(contour, cell, shape)
    if len(pts) < 4 or int((~on_edge).sum()) != 3:
        return None
    n = len(pts)
    for k in range(n):  # the three in view in order round the outline: a, b, c
        run = [(k + i) % n for i in range(3)]
        if not on_edge[run].any():
            a, b, c = pts[run]
            return np.array([a, b, c, a + c - b])
    return None


def one_side_in_view(
    contour: np.ndarray, cell: float, width: float, shape: tuple[int, ...]
) -> list[np.ndarray]:
    """Cards the frame's edge cuts, each built on one side of the piece in view (``contour``, as for
    :func:`three_corners`) that runs between two corners off the edge and is as long as a card ``width``
    wide is wide or long (``SIDE_SLACK``): the card stands on that side, at right angles to it, on the
    piece's side of it, as long (or as wide) as such a card. Where only two corners show, it is all
    there is to go on.

    >>> piece = np.array([[0, 10], [40, 10], [40, 88], [0, 88]]).reshape(-1, 1, 2)  # cut at x = 0
    >>> [q.round().tolist() for q in one_side_in_view(piece, 1.0, 56.0, (100, 100))]
    [[[40.0, 10.0], [40.0, 88.0], [-16.0, 88.0], [-16.0, 10.0]]]
    """
    pts, on_edge = _corners_in_view(contour, cell, shape)
    n = len(pts)
    middle = pts.mean(axis=0)
    out = []
    for k in range(n):
        a, b = pts[k], pts[(k + 1) % n]
        if on_edge[k] or on_edge[(k + 1) % n]:
            continue
        side = float(np.linalg.norm(b - a))
        if abs(side - width) <= SIDE_SLACK * width:
            other = CARD_ASPECT * width
        elif abs(side - CARD_ASPECT * width) <= SIDE_SLACK * CARD_ASPECT * width:
            other = width
        else:
            continue
        along = (b - a) / side
        across = np.array([-along[1], along[0]])
        if float(np.dot(middle - a, across)) < 0:
            across = -across
        out.append(np.array([a, b, b + across * other, a + across * other]))
    return out


def _corners_in_view(
    contour: np.ndarray, cell: float, shape: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the piece's simplified convex outline (full-image pixels), and which of them lie
    on the frame's edge."""
    h, w = shape[:2]
    hull = cv2.convexHull(contour)
    poly = cv2.approxPolyDP(hull, SIMPLIFY * cv2.arcLength(hull, True), True).reshape(-1, 2)
    pts = (poly.astype(np.float64) + 0.5) * cell - 0.5
    near = EDGE_CELLS * cell
    on_edge = (
        (pts[:, 0] < near) | (pts[:, 1] < near) | (pts[:, 0] > w - 1 - near) | (pts[:, 1] > h - 1 - near)
    )
    return pts, on_edge
