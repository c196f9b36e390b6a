"""Backs the learned finder rings with card edges, where neither its interior map nor colour holds them.

A back's lattice is no card stock to the threshold finder, the interior map is weak on many back
designs (``vision/models/FINDER.md``), and on a pale table a pale back's print differs from the
table about as much as a shadow does (``colour_backs`` cuts it into pieces or merges it with its
neighbours). The boundary map still draws the back's edges: round the back lies a ring of card edge
and inside it a hole, neither edge nor (much) surface. :func:`ringed_backs` takes those holes:
pixels off the ridge (boundary ``HOLE_EDGE`` or more) with a ridge within a card's length in at
least ``RINGED`` of the four directions along the map's rows and columns. One side of a ring is
often faint (the light on it, a shadow), and then the hole opens onto the table there; three sides
still ring it, while the table beside a row of cards sees the ridge in two directions at most. The
table between cards lying on three sides of it sees it in three too, but its border lies on the ridge
far less than a ring's (``ENCLOSED``), and the interior map finds no card surface at all in it
(``SURFACE``), where a back's lattice keeps it low but not at nothing. A hole
of card size that no card read lies on, away from the frame's edge, gets a card of the cards' width
(``SCALES`` of it: the widths read vary) about its middle, turned as the hole's long side (both ways
where it is about square), its sides snapped onto the frame's edges; the card-side network
(``vision.card_side``) must take one surely for a back, as surely as a region found by colour alone
(``colour_backs.APART_SURE``). Of one hole's cards the surest stands.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_side import default_card_side
from vision.colour_backs import APART_SURE
from vision.finder import STRIDE, FinderMaps, snap_to_edges
from vision.hand_backs import in_a_back
from vision.outline_sides import short_sides
from vision.render import CARD_ASPECT
from vision.sighting import BACK, Sighting
from vision.surface_backs import NEXT_TO, TOUCH

HOLE_EDGE = 0.5  # boundary probability from which a map pixel is card edge (the ring's ridge)
RINGED = 3  # of the four directions along rows and columns in which a hole's pixel sees the ridge
REACH = 0.9  # card lengths: how far along a row or column the ridge is looked for
HOLE_AREA = 0.15  # card areas: a hole smaller than this is a gap, a pip or noise
# of the pixels bordering a hole, the share on the ridge: a card-shaped ring with one long side missing
# has 1 - 1.4 / 4.8 = 0.71 of its border there, a gap between cards far less (0.44-0.48 in the bench's
# six hands, where cards lie on three sides of it)
ENCLOSED = 0.7
# the interior map's mean over a hole, at least: a back's lattice keeps the map low there, but not at
# nothing (0.12-0.74 over the holes of the eleven backs this found on five of the sets measured in
# session 56), while the table between cards is bare (0.006-0.018 in the bench's frames of hands and of
# cards lying apart)
SURFACE = 0.05
LONGEST = 1.1  # card lengths: a hole longer than this is no card's
SQUARE = 1.15  # long over short side: a hole this square may lie either way
SCALES = (0.9, 1.0, 1.15)  # of the cards' median width: the backs tried about a hole
SNAP = 0.07  # of a card's width: how far each side may move onto an edge
EVIDENCE = "a back the finder's boundary map rings"


def ringed_backs(image: np.ndarray, maps: FinderMaps, known: list[Sighting]) -> list[Sighting]:
    """Backs in ``image`` whose edges ring a hole in the boundary map of ``maps`` that no sighting
    ``known`` explains. The card width is the median of the four-corner outlines known: without a
    card read, nothing is looked for."""
    widths = short_sides([s.outline for s in known if len(s.outline) == 4])
    if not widths:
        return []
    width = float(np.median(widths))
    cell = maps.scale * STRIDE  # full-image pixels per map pixel
    groups = _hole_cards(image, maps, known, width, cell)
    quads = [q for g in groups for q in g]
    if not quads:
        return []
    sides = iter(default_card_side().hypotheses(image, quads))
    judged = [sorted(((next(sides).back, q) for q in g), key=lambda t: -t[0]) for g in groups]
    backs = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known if s.card == BACK]
    out: list[Sighting] = []
    for back, quad in sorted((g[0] for g in judged), key=lambda t: -t[0]):
        middle = quad.mean(axis=0)
        # grown a little, one lying over a back seen is that back or lies beside it (as in ``surface_backs``)
        if back < APART_SURE or in_a_back(middle + (quad - middle) * NEXT_TO, backs, TOUCH):
            continue
        backs.append(quad.astype(np.float32).reshape(-1, 1, 2))
        outline = tuple((float(x), float(y)) for x, y in quad)
        out.append(Sighting(BACK, 0.8, outline, None, evidence=(EVIDENCE,)))
    return out


def ringed(ridge: np.ndarray, reach: float) -> np.ndarray:
    """For each pixel of the boolean map ``ridge``: in how many of the four directions along its row
    and column (left, right, up, down) a ridge pixel lies within ``reach`` pixels (0-4).

    >>> ring = np.zeros((7, 7), bool); ring[1, 1:6] = ring[1:6, 1] = ring[1:6, 5] = True
    >>> int(ringed(ring, 6)[3, 3]), int(ringed(ring, 6)[3, 0])   # open below; beside the ring
    (3, 1)
    """
    h, w = ridge.shape
    count = np.zeros((h, w), np.int32)
    for axis, n in ((1, w), (0, h)):
        idx = np.broadcast_to(np.arange(n).reshape((1, n) if axis == 1 else (n, 1)), (h, w))
        far = n + int(reach) + 1  # beyond reach of every pixel: no ridge that way
        before = np.maximum.accumulate(np.where(ridge, idx, -far), axis=axis)
        ahead = np.flip(np.where(ridge, idx, n + far), axis=axis)
        after = np.flip(np.minimum.accumulate(ahead, axis=axis), axis=axis)
        count += (idx - before <= reach).astype(np.int32) + (after - idx <= reach).astype(np.int32)
    return count


def _on_the_ridge(labels: np.ndarray, k: int, ridge: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """The share of the pixels bordering component ``k`` of ``labels`` (within its bounding ``box``,
    grown by one pixel) that lie on the ``ridge``."""
    x, y, w, h = box
    x0, y0 = max(x - 1, 0), max(y - 1, 0)
    part = (labels[y0 : y + h + 1, x0 : x + w + 1] == k).astype(np.uint8)
    border = cv2.dilate(part, np.ones((3, 3), np.uint8)) & (1 - part)
    return float(ridge[y0 : y + h + 1, x0 : x + w + 1][border > 0].mean()) if border.any() else 0.0


def _hole_cards(
    image: np.ndarray, maps: FinderMaps, known: list[Sighting], width: float, cell: float
) -> list[list[np.ndarray]]:
    """For each hole of card size that no sighting lies on: the cards tried about it (full-image
    pixels, snapped onto the frame's edges)."""
    ridge = maps.prob[1] >= HOLE_EDGE
    length = CARD_ASPECT * width / cell  # map pixels
    holes = (~ridge & (ringed(ridge, REACH * length) >= RINGED)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    mh, mw = holes.shape
    polys = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known]
    out = []
    for k in range(1, n):
        x, y, w, h, area = stats[k].tolist()
        if x == 0 or y == 0 or x + w >= mw or y + h >= mh:
            continue  # the table, or a card the frame's edge cuts (``surface_backs`` looks for those)
        if area < HOLE_AREA * length * length / CARD_ASPECT:
            continue
        inside = labels[y : y + h, x : x + w] == k
        if float(maps.prob[0, y : y + h, x : x + w][inside].mean()) < SURFACE:
            continue  # bare table
        if _on_the_ridge(labels, k, ridge, (x, y, w, h)) < ENCLOSED:
            continue  # a gap between cards with cards on three sides, not a ring
        ys, xs = np.nonzero(inside)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        (cx, cy), (bw, bh), angle = cv2.minAreaRect(pts)
        if max(bw, bh) > LONGEST * length:
            continue
        middle = ((cx + 0.5) * cell - 0.5, (cy + 0.5) * cell - 0.5)
        if any(cv2.pointPolygonTest(p, middle, False) >= 0 for p in polys):
            continue  # a card read there (a face's own middle)
        turns = [angle if bw >= bh else angle + 90.0]
        if max(bw, bh) < SQUARE * min(bw, bh):
            turns.append(turns[0] + 90.0)
        cards = []
        for turn in turns:
            for f in SCALES:
                q = cv2.boxPoints((middle, (CARD_ASPECT * width * f, width * f), turn)).astype(np.float64)
                for _ in range(2):
                    q = snap_to_edges(image, q, SNAP * width * f)
                cards.append(q)
        out.append(cards)
    return out
