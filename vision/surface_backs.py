"""Backs on card surface that nothing read explains: the learned finder's interior map, minus the cards.

The finders outline a back as a whole quad, and the back finders of ``hand_backs`` and
``colour_backs`` grow or trace one from what they see. A back that none of them outlines still shows
in the learned finder's interior map (``FinderMaps.prob[0]``) where the card surface is not a quad:
a back cut by the frame's edge (five sides), one partly covered by a chip or a hand, or a dark back
on a dark table whose surface the map holds only in part. :func:`surface_backs` takes the interior
map's card surface that no sighting's outline covers; each piece of at least ``MIN_AREA`` card
areas is boxed by its smallest rectangle, and a box not of a card's shape (``CARD_ASPECT``) is also
tried grown to one, across whichever of its sides lies nearer the frame's edge (where the frame cut
the card). The card-side network (``vision.card_side``) judges each: a box it takes surely for a
back (``BACK_SURE``) is one.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_side import default_card_side
from vision.closer_look import on_map, unexplained_surface
from vision.edge_cut import across_the_edge, three_corners
from vision.finder import STRIDE, FinderMaps
from vision.hand_backs import BACK_SURE, in_a_back
from vision.mask_counts import set_in_both, set_pixels
from vision.outline_sides import short_sides
from vision.render import CARD_ASPECT
from vision.sighting import BACK, Sighting

MIN_AREA = 0.25  # card areas (of the cards read, or the smallest card looked for) a piece must cover
SIZE = (0.5, 1.6)  # a box's short side, and its long side over CARD_ASPECT, in widths of the cards read
MIN_SIDE = 8.0  # pixels: a box narrower than this shows the card-side network nothing (a tiny frame)
ON_CARDS = 0.3  # of a box's surface the cards seen may cover (a back lies beside them, or half under one)
# a box that, grown by a fifth, overlaps a back seen by more than a sliver is a piece of that back (one
# found in parts) or lies beside it: the finders outline a hand dealt face down, nothing here does
NEXT_TO, TOUCH = 1.2, 0.03
EVIDENCE = "a back on card surface no other card explains"


def surface_backs(
    image: np.ndarray, maps: FinderMaps, known: list[Sighting], min_width: float
) -> list[Sighting]:
    """Backs in ``image`` on the card surface of the learned finder's ``maps`` that the ``known``
    sightings' outlines leave unexplained. ``min_width``: the narrowest card looked for (pixels),
    the size a piece is measured against where no card was read."""
    cell = maps.scale * STRIDE  # full-image pixels per map pixel
    left, taken = unexplained_surface(maps, known)
    widths = short_sides([s.outline for s in known if len(s.outline) == 4])
    width = float(np.median(widths)) if widths else min_width
    contours, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hyps: list[np.ndarray] = []
    for c in contours:
        if cv2.contourArea(c) * cell * cell < MIN_AREA * CARD_ASPECT * width * width:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(c.astype(np.float32))
        box = cv2.boxPoints(((cx + 0.5, cy + 0.5), (w, h), angle)).astype(np.float64) * cell - 0.5
        short, long = sorted((w * cell, h * cell))
        if short < max(SIZE[0] * width, MIN_SIDE) or (widths and long > SIZE[1] * CARD_ASPECT * width):
            continue
        tries = [box, *across_the_edge(box, image.shape)]
        if (q := three_corners(c, cell, image.shape)) is not None:
            tries.append(q)
        hyps += [q for q in tries if _share(q, taken, cell) <= ON_CARDS]
    backs = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known if s.card == BACK]
    out: list[Sighting] = []
    for quad, side in zip(hyps, default_card_side().hypotheses(image, hyps) if hyps else [], strict=True):
        middle = quad.mean(axis=0)
        if side.back < BACK_SURE or in_a_back(middle + (quad - middle) * NEXT_TO, backs, TOUCH):
            continue
        backs.append(quad.astype(np.float32).reshape(-1, 1, 2))
        outline = tuple((float(x), float(y)) for x, y in quad)
        out.append(Sighting(BACK, 0.8, outline, None, evidence=(EVIDENCE,)))
    return out


def _share(quad: np.ndarray, taken: np.ndarray, cell: float) -> float:
    """The share of ``quad``'s map pixels (inside the frame) that the cards seen cover."""
    mask = np.zeros_like(taken)
    cv2.fillPoly(mask, [on_map(quad, cell)], 1)
    area = set_pixels(mask)
    return float(set_in_both(mask, taken)) / area if area else 1.0
