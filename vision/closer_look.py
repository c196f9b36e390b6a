"""The learned finder's second look, at twice its working resolution, where the first left doubt.

The finder sees a frame at ``Recognizer.finder_size`` on the long side (512 px): a 1920-px frame at
under a third of its size. There the index of a 70-px card is a few map pixels across, the corners
regressed round the indices of a tight fan mix neighbours, and a back's lattice can break its card
region into ragged pieces. Looking again at a window of the frame, at twice the resolution, sees
them as the finder learned to. Only where the first look left something unexplained:

- :func:`windows` round the indices whose ink was seen but did not read
  (``vision.index_frames`` reads the frames found there), and
- :func:`unexplained_regions`: card surface the first look's interior map holds that no card read
  so far covers (:func:`closer_quads` reads the whole cards found there).

A frame in which every card was read costs nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.detect import CardQuad
from vision.finder import MULTIPLE, STRIDE, FinderMaps, default_finder, find_cards
from vision.sighting import Sighting

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in full-image pixels
Region = tuple[float, float, float, float]  # the same, before windows are made of it
# cards under one camera are about one size: a second look's quad narrower than this share of the
# cards read is a court card's picture frame or a sliver at a card's edge (phantom backs, measured)
SIZE_RATIO = 0.6
SAME_MIDDLE = 0.2  # card widths between the middles of two outlines of one card (at most)
MIN_SIDE = 128  # network pixels: a window narrower than this gives the finder too little context


def closer_scale(image: np.ndarray, finder_size: int) -> float | None:
    """Full-image pixels per network pixel at the second look, or None where the first look
    already saw the frame at (nearly) full resolution."""
    scale = max(image.shape[:2]) / finder_size / 2
    return scale if scale >= 1.0 else None


def windows(boxes: Iterable[Region], scale: float, w: int, h: int) -> list[Box]:
    """The boxes (x0, y0, x1, y1), each grown to at least ``MIN_SIDE`` network pixels about its
    middle, overlapping ones merged, clipped to the ``w`` × ``h`` frame."""
    grown = []
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        hx = max((x1 - x0) / 2, MIN_SIDE * scale / 2)
        hy = max((y1 - y0) / 2, MIN_SIDE * scale / 2)
        grown.append([cx - hx, cy - hy, cx + hx, cy + hy])
    out = []
    for x0, y0, x1, y1 in _merged(grown):
        box = (max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1))))
        if box[2] - box[0] >= 32 and box[3] - box[1] >= 32:
            out.append(box)
    return out


def tiles(boxes: Iterable[Region], scale: float, w: int, h: int) -> list[Box]:
    """The :func:`windows` round ``boxes`` (full-image pixels) in the pixels of the frame as the finder
    sees it, ``scale`` full pixels each and ``w`` × ``h`` of them, their sides on whole steps of the
    network's downsampling (so that inside one the maps are those of the whole frame, but within its
    reach of the tile's edge), overlapping ones merged."""
    unit = scale * MULTIPLE  # full-image pixels per step
    snapped = [
        [MULTIPLE * np.floor(x0 / unit), MULTIPLE * np.floor(y0 / unit)]
        + [MULTIPLE * np.ceil(x1 / unit), MULTIPLE * np.ceil(y1 / unit)]
        for x0, y0, x1, y1 in windows(boxes, scale, int(np.ceil(w * scale)), int(np.ceil(h * scale)))
    ]
    return [(int(x0), int(y0), min(w, int(x1)), min(h, int(y1))) for x0, y0, x1, y1 in _merged(snapped)]


def _merged(boxes: list[list[float]]) -> list[list[float]]:
    """``boxes`` (x0, y0, x1, y1), each set of overlapping ones replaced by their bounding box."""
    grown = [list(b) for b in boxes]
    merged = True
    while merged:
        merged = False
        for i in range(len(grown)):
            for k in range(i + 1, len(grown)):
                a, b = grown[i], grown[k]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    grown[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del grown[k]
                    merged = True
                    break
            if merged:
                break
    return grown


def look(window: np.ndarray, scale: float) -> FinderMaps:
    """The finder's maps of ``window`` (a part of the frame) at ``scale`` full pixels per network pixel."""
    return default_finder().run(window, int(round(max(window.shape[:2]) / scale)))


def on_map(outline: np.ndarray, cell: float) -> np.ndarray:
    """An outline (N × 2, full-image pixels) in the pixels of a map of ``cell`` full pixels each."""
    return np.round((np.asarray(outline, np.float64) + 0.5) / cell - 0.5).astype(np.int32)


def unexplained_surface(
    maps: FinderMaps, known: list[Sighting], surface: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """At the pixels of ``maps``: the card surface of its interior map (``surface`` or more) that no
    sighting's outline covers (slivers along the outlines opened away), and what those outlines
    cover (both 0 / 1)."""
    cell = maps.scale * STRIDE  # full-image pixels per map pixel
    taken = np.zeros(maps.prob.shape[1:], np.uint8)
    for s in known:
        cv2.fillPoly(taken, [on_map(np.array(s.outline), cell)], 1)
    left = ((maps.prob[0] > surface) & (taken == 0)).astype(np.uint8)
    return cv2.morphologyEx(left, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), taken


def unexplained_regions(maps: FinderMaps, known: list[Sighting], min_side: float) -> list[Region]:
    """Bounding boxes (full-image pixels) of the card surface in the first look's interior map that
    no sighting's outline covers, each at least ``min_side`` × ``min_side`` pixels in area."""
    cell = maps.scale * STRIDE  # full-image pixels per map pixel
    n, _, stats, _ = cv2.connectedComponentsWithStats(unexplained_surface(maps, known)[0], connectivity=8)
    out = []
    for x, y, w, h, area in stats[1:n].tolist():
        if area * cell * cell < min_side * min_side:
            continue
        grow = 0.25 * max(w, h)
        out.append(((x - grow) * cell, (y - grow) * cell, (x + w + grow) * cell, (y + h + grow) * cell))
    return out


def closer_quads(
    image: np.ndarray, maps: FinderMaps, known: list[Sighting], finder_size: int, min_card_fraction: float
) -> list[CardQuad]:
    """Whole-card quads (full-image pixels) the second look finds in the regions of card surface
    nothing read so far explains, other than the cards already read."""
    scale = closer_scale(image, finder_size)
    if scale is None:
        return []
    h, w = image.shape[:2]
    long_side = max(h, w)
    regions = unexplained_regions(maps, known, 1.5 * min_card_fraction * long_side)
    middles = [np.mean(np.array(s.outline), axis=0) for s in known]
    widths = [float(np.linalg.norm(np.subtract(s.outline[1], s.outline[0]))) for s in known]
    narrowest = SIZE_RATIO * float(np.median(widths)) if widths else 0.0
    out: list[CardQuad] = []
    for box in windows(regions, scale, w, h):
        x0, y0, x1, y1 = box
        crop = image[y0:y1, x0:x1]
        fraction = min_card_fraction * long_side / max(x1 - x0, y1 - y0)
        for q in find_cards(crop, maps=look(crop, scale), min_card_fraction=fraction).quads:
            if q.width < narrowest:
                continue
            corners = q.corners + np.array([x0, y0], np.float32)
            c = corners.mean(axis=0)
            # the same middle is a card already read; a middle inside another card's outline is
            # not (a card lying on top of it)
            if any(np.linalg.norm(c - m) < SAME_MIDDLE * q.width for m in middles):
                continue
            out.append(CardQuad(corners))
    return out
