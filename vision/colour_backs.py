"""Face-down cards that stand apart from their table by colour, where no finder outlined them.

Both finders look for card stock: the threshold finder for regions brighter than the table, the
learned finder for card surface, and its interior map is weak on many back designs (a lattice has
holes; ``vision/models/FINDER.md``). But a back is printed: on a pale table it is darker than the
table, on felt another colour. So the frame is compared with the colour of the table round each
place (CIE Lab, the table's colour taken as a coarse median, cards being a small share of it), the
difference is cut at several levels (no one level suits every table), and each region that is a
clean card-shaped quadrilateral is a candidate: its sides snapped onto the frame's edges at full
resolution, it is kept where the card-side network (``vision.card_side``) takes it surely for a
back. Regions on a card already seen are not looked at again.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_side import default_card_side
from vision.finder import snap_to_edges
from vision.hand_backs import in_a_back
from vision.sighting import BACK, Sighting

WORK = 640  # px on the long side: the size the regions are looked for at
LEVELS = (10.0, 16.0, 25.0, 40.0)  # colour differences (CIE Lab ΔE) from the table cut at
FILL = 0.85  # of the quadrilateral a region must fill to be card-shaped
# the card-side network must be surer of a region found by colour alone than of a finder's quad:
# on training-family scenes every such region it took for a back at 0.95-0.998 was the table's print
# or a shadow's edge, every back at 0.9999 or more
APART_SURE = 0.999
# a corner seen at most this far from square (degrees): a card tilted 60° from the camera at a
# yaw of 45° shows corners of 53° and 127°
SQUARE = 40.0
ASPECT = (
    1.15,
    2.6,
)  # long over short sides (each the mean of two opposite ones): a card's, overhead or at a slant
MIN_SIDE = 0.02  # of the frame's long side: a narrower region is no card (the finders' own floor)
ON_KNOWN = 0.3  # of a candidate's area on a card already seen: that card, or part of it
SAME_MIDDLE = 0.25  # of a candidate's short side: two candidates this close are one
EVIDENCE = "a card-shaped region of another colour than the table"


def colour_backs(image: np.ndarray, known: list[Sighting]) -> list[Sighting]:
    """Backs in the BGR ``image`` that stand apart from the table by colour, other than on the
    ``known`` sightings' outlines."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK / max(h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_LINEAR)
    diff = _table_difference(small)
    taken = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) * scale for s in known]
    found: list[np.ndarray] = []
    for level in LEVELS:
        mask = cv2.morphologyEx(
            (diff > level * level).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
        )
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            q = _card_shape(c, MIN_SIDE * max(small.shape[:2]))
            if q is None:
                continue
            mid = q.mean(axis=0)
            if any(_overlap(q, t) > ON_KNOWN for t in taken):
                continue
            side = _short_side(q)
            if any(np.linalg.norm(f.mean(axis=0) - mid) < SAME_MIDDLE * side for f in found):
                continue
            found.append(q)
    if not found:
        return []
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    quads = []
    for q in found:
        full = (q + 0.5) / scale - 0.5
        reach = max(2.0, 0.07 * _short_side(full))
        for _ in range(2):
            full = snap_to_edges(grey, full, reach)
        if _card_aspect(full, MIN_SIDE * max(h, w)):
            quads.append(full)
    if not quads:
        return []
    sides = default_card_side().sides(image, quads)
    backs = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known if s.card == BACK]
    out: list[Sighting] = []
    for side, q in sorted(zip(sides, quads, strict=True), key=lambda t: -t[0].back):
        if side.back < APART_SURE or in_a_back(q, backs):
            continue
        backs.append(q.astype(np.float32).reshape(-1, 1, 2))
        out.append(Sighting(BACK, 0.8, tuple((float(x), float(y)) for x, y in q), None, evidence=(EVIDENCE,)))
    return out


def _table_difference(small: np.ndarray) -> np.ndarray:
    """Each pixel's squared colour difference (ΔE² in CIE Lab) from the table's colour round it: the
    median of a coarse grid of the frame (32 cells across), smoothed back up to the frame's size."""
    sh, sw = small.shape[:2]
    grid = cv2.resize(small, (32, max(1, round(32 * sh / sw))), interpolation=cv2.INTER_AREA)
    table = cv2.resize(cv2.cvtColor(cv2.medianBlur(grid, 5), cv2.COLOR_BGR2LAB), (sw, sh))
    # a little blur first: a back's lattice is one colour at the scale of the card
    lab = cv2.cvtColor(cv2.blur(small, (3, 3)), cv2.COLOR_BGR2LAB)
    d = cv2.subtract(lab, table, dtype=cv2.CV_16S).astype(np.float32)
    # 8-bit Lab holds L * 255 / 100: weigh it back to ΔE units
    return cv2.transform(d * d, np.array([[(100.0 / 255.0) ** 2, 1.0, 1.0]], np.float32))


def _card_shape(contour: np.ndarray, min_side: float) -> np.ndarray | None:
    """The four corners of a region that is a clean card-shaped quadrilateral, else None."""
    area = cv2.contourArea(contour)
    if area < min_side * min_side:
        return None
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(approx) != 4:
        return None
    if area < FILL * abs(cv2.contourArea(approx.astype(np.float32))):
        return None
    return approx if _card_aspect(approx, min_side) else None


def _card_aspect(q: np.ndarray, min_side: float) -> bool:
    """Whether quad ``q`` has a card's proportions (``ASPECT``), corners near square (``SQUARE``)
    and short sides at least ``min_side``."""
    edges = np.roll(q, -1, axis=0) - q  # side k runs from corner k to corner k + 1
    sides = np.hypot(edges[:, 0], edges[:, 1])
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if min(a, b) < min_side or not ASPECT[0] <= max(a, b) / min(a, b) <= ASPECT[1]:
        return False
    prev = np.roll(edges, 1, axis=0)  # the side arriving at each corner
    cos = -(edges * prev).sum(axis=1) / np.maximum(sides * np.roll(sides, 1), 1e-9)
    return bool(np.abs(cos).max() <= np.sin(np.radians(SQUARE)))


def _overlap(q: np.ndarray, outline: np.ndarray) -> float:
    """The share of quad ``q``'s area that lies on ``outline`` (N × 1 × 2)."""
    area = abs(float(cv2.contourArea(q.astype(np.float32))))
    try:
        hull = cv2.convexHull(outline.reshape(-1, 2).astype(np.float32)).reshape(-1, 2)
        inter = float(cv2.intersectConvexConvex(q.astype(np.float32), hull)[0])
    except cv2.error:  # a degenerate outline
        return 0.0
    return inter / area if area > 0 else 1.0


def _short_side(q: np.ndarray) -> float:
    return float(min(np.linalg.norm(q[i] - q[i - 1]) for i in range(4)))
