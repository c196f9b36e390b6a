"""Face-down cards inside a merged region: a hole card lying on (or beside) its hand's up card.

Two touching cards make one bright region, so no finder gives the face-down one a quad of its own,
and a back has no index for the corner readers to find. But the region's outline still shows the
back's own corners: each corner the threshold finder traced (``Blob.corners``, a corner, its two
edges and the card width) implies a whole card lying from it, upright or sideways. In a region of
a few cards that holds a face read from its index (a hand), or whose corners say cards as wide as
the faces read elsewhere in the frame (a hand dealt face down), a hypothesis that lies on the region,
is not on a back already seen, and that the card-side network (``vision.card_side``) takes surely
for a back (``BACK_SURE``) is that back; its sides are then snapped onto the frame's edges at full
resolution. Of the hypotheses for one card (the back's other corners imply it too) the surest
stands. A hypothesis that holds a face's index read is a back only more surely still
(``UNDER_SURE``): the face lies over part of it, a hole card under its up card. Such a hypothesis is
judged by the network trained also on cards other cards lie over (``card_side.hole_card_side``):
the main one, seeing the face's index on it, takes a back whose corner or lower part a face covers
for a face. Its outline is not snapped (its hidden sides lie by the face's edges), and it is a back
seen already when it overlaps one by half (``UNDER_SAME``).

On a pale table the threshold finder's region runs into the table, but a finder may still have
outlined part of the back (its lattice inside the white border, or the part beside the up card) —
a quad too small for a card, which the recogniser would drop as a court card's picture frame.
``completed_backs`` grows such a part into the whole card: card-sized hypotheses (the width of the
face it lies on) from each of its corners and about its middle, kept where they hold the part, lie
on card surface in the learned finder's interior map and look surely like a back.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_side import default_card_side, hole_card_side
from vision.detect import Blob
from vision.finder import STRIDE, FinderMaps, IndexFrame, snap_to_edges
from vision.mask_counts import set_in_both, set_pixels
from vision.render import CARD_ASPECT
from vision.sighting import BACK, Sighting

BACK_SURE = 0.95  # a guessed quad must look surely like a back (a quad found whole needs BACK_THRESHOLD)
SAME_SIZE = 0.2  # a face-down hand's cards are as wide as the faces read elsewhere, within this fraction
MERGED = 1.4  # card areas: a back's outline bigger than this is more than one card
# card areas: a back's outline bigger than this may be two (rendered face-down hands outlined as one
# measured 1.16-1.37 of the faces' cards, the backs outlined alone 0.76-0.97)
MAYBE_TWO = 1.1
SAME_BACK = 0.6  # of the smaller of two back outlines that overlap: the same back
# a hole card lies under its own up card, never half on another back: a hypothesis of one that
# overlaps a back seen by half of the smaller is that back, shifted (the hole-card network takes
# such a quad, on part of the back and part of the face, for a back too)
UNDER_SAME = 0.5
COVERS = 0.05  # card widths inside a hypothesis: an index read there is clearly covered by it
# a hypothesis covering an index read is a back only this surely: the face lies half over it (a hole
# card tucked under its up card; the network takes such a back for one at 0.9999 and more). Chosen on
# the project's renders of tucked hole cards (``sim_layouts.py --layouts tucked``)
UNDER_SURE = 0.999
FACE_SURE = 0.99  # a face read this surely: a region corner at one of its corners is that face's
SAME_CORNER = 0.1  # card widths: a region corner this near a face's corner is that corner
ON_REGION = 0.9  # of a hypothesis' area inside the region's outline: a card does not overhang the table
HAND_CARDS = 4  # a region bigger than this many cards is not one hand (a pale table merged with its cards)
# of a hypothesis' area outside the cards seen, at least: one lying half on a back and half on the
# face over it is those two cards (a hole card shows about half of itself beside its up card)
OWN_PART = 0.3
ON_A_BACK = 0.25  # and of its area on a back seen, at least (a face's outline alone may lie under it)
HOLDS_PART = 0.8  # of a part's area inside a hypothesis grown from it
ON_CARDS = 0.6  # mean interior probability over a grown hypothesis: it lies on card surface
EVIDENCE = "a back among the corners of a merged region"
GROWN = "a back grown from the part of it a finder outlined"
UNDER = "a back under a face, among the corners of a merged region"


def backs_in_regions(
    image: np.ndarray,
    blobs: tuple[Blob, ...],
    known: list[Sighting],
    *,
    typical: float | None = None,
    sure: float = BACK_SURE,
    maybe_two: float | None = None,
) -> list[Sighting]:
    """Backs lying in the merged regions ``blobs`` of the BGR ``image``, other than the backs among
    the ``known`` sightings: hypotheses the card-side network takes for a back at ``sure`` or more.
    (A face's outline may be a guess spanning its whole hand, so faces are left to the card-side
    network, which takes a face's quad for a face, and to the recogniser's rule that a back never
    covers a face's index.) ``typical``: the width of the frame's cards, where known otherwise than
    from the faces read. ``maybe_two``: card areas (of cards ``typical`` wide) above which a known
    back may be two backs of a hand outlined as one (by the region's outer corners): it is searched
    too, and stands unless two backs are found in it (``split_hands`` then drops it); one found in
    it is that back again."""
    faces = [s for s in known if s.index_corner and s.card != BACK]
    # the width of the cards read in the frame: a region with no face read in it (a hand dealt face
    # down) is a hand only when its corners say a card of that width
    if typical is None:
        typical = (
            float(np.median([_short_side(np.asarray(s.outline, np.float64)) for s in faces]))
            if faces
            else 0.0
        )
    # a back outline far bigger than such a card is a face-down hand taken for one card: the backs
    # found in it are not that "back" again (``split_hands`` then drops it)
    known_backs = [s for s in known if s.card == BACK and s.outline and not _a_hand(s, typical)]
    pairs = [s for s in known_backs if maybe_two is not None and _a_hand(s, typical, maybe_two)]
    backs = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known_backs if s not in pairs]
    # most of a hand's hypotheses are its faces again, not worth the card-side network's look: any
    # from a corner of a face read surely (two cards do not share a corner). One that clearly covers
    # an index read is a hole card under its up card only if the network is surer (``UNDER_SURE``)
    indices = [np.mean(np.asarray(s.index_corner, np.float64), axis=0) for s in faces]
    corners = [c for s in faces if s.confidence >= FACE_SURE for c in s.outline]
    face_corners = np.array(corners, np.float64).reshape(-1, 2)
    hyps: list[tuple[np.ndarray, float, bool, np.ndarray]] = []
    for blob in blobs:
        region = np.asarray(blob.outline, np.float32).reshape(-1, 1, 2)
        if len(region) < 3:
            continue
        # a hand: a region of a few cards that holds a face read from its index, or of cards as
        # wide as those read elsewhere
        area = float(cv2.contourArea(region))
        holds_a_face = any(_holds(region, s.index_corner) for s in faces)
        if not holds_a_face and not typical:
            continue
        for f in blob.corners:
            if not holds_a_face and abs(f.width - typical) > SAME_SIZE * typical:
                continue
            if len(face_corners) and np.hypot(*(face_corners - f.origin).T).min() < SAME_CORNER * f.width:
                continue
            if area > HAND_CARDS * CARD_ASPECT * f.width**2:
                continue
            for sideways in (False, True):
                quad = IndexFrame(f, sideways, 0.0).outline()
                if not _lies_on(quad, region) or in_a_back(quad, backs):
                    continue
                hyps.append((quad, f.width, _holds_an_index(quad, indices, COVERS * f.width), region))
    if not hyps:
        return []
    # a hole card's outline, a face lying over part of it, is judged by the network trained on such
    others = iter(default_card_side().hypotheses(image, [q for q, _, u, _ in hyps if not u]))
    holes = iter(hole_card_side().hypotheses(image, [q for q, _, u, _ in hyps if u]))
    sides = [next(holes if u else others) for _, _, u, _ in hyps]
    ranked = sorted(
        (
            (s.back, q, w, u, r)
            for s, (q, w, u, r) in zip(sides, hyps, strict=True)
            if s.back >= (UNDER_SURE if u else sure)
        ),
        key=lambda t: -t[0],
    )
    out: list[Sighting] = []
    cards = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in faces if s.outline]
    for _, quad, width, under, region in ranked:
        if in_a_back(quad, backs, UNDER_SAME if under else SAME_BACK):
            continue  # a surer hypothesis of this back stands
        if not under and _seen_already(quad, cards, backs, region):
            continue  # part of a back seen and part of the face over it
        backs.append(quad.astype(np.float32).reshape(-1, 1, 2))
        # a hole card's sides in view are the region's own edges at the corner it was traced from; the
        # others lie under the face, where the nearest edges are the face's and its print's
        snapped = quad if under else snap_to_edges(image, quad, 0.08 * width)
        outline = tuple((float(x), float(y)) for x, y in snapped)
        out.append(Sighting(BACK, 0.8, outline, None, evidence=(UNDER if under else EVIDENCE,)))
    for pair in pairs:
        inside = [b for b in out if _holds(np.asarray(pair.outline, np.float32).reshape(-1, 1, 2), b.outline)]
        if len(inside) == 1:
            out.remove(inside[0])
    return out


def _seen_already(
    quad: np.ndarray, faces: list[np.ndarray], backs: list[np.ndarray], region: np.ndarray | None = None
) -> bool:
    """Whether the outlines of the ``faces`` and ``backs`` seen cover all but ``OWN_PART`` of
    ``quad``, the backs ``ON_A_BACK`` of it or more (asked first: most hypotheses lie on no back).
    Only the part inside the hand's ``region`` outline (N × 1 × 2) is the card's own: what lies
    beyond it is the table."""
    if _own_share(quad, backs) > 1 - ON_A_BACK:
        return False
    return _own_share(quad, faces + backs, region) < OWN_PART


def _own_share(quad: np.ndarray, others: list[np.ndarray], within: np.ndarray | None = None) -> float:
    """The share of ``quad`` that none of the outlines ``others`` (N × 1 × 2) covers, counting only
    what lies inside the outline ``within`` where one is given."""
    q = quad.astype(np.float32).reshape(-1, 2)
    x0, y0 = np.floor(q.min(axis=0)).astype(int)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int)
    f = min(1.0, 128.0 / max(x1 - x0, y1 - y0, 1))  # the share needs no finer raster than this
    shape = (int((y1 - y0) * f) + 2, int((x1 - x0) * f) + 2)
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round((q - (x0, y0)) * f).astype(np.int32)], 1)
    area = set_pixels(mask)
    if area == 0:
        return 0.0
    if within is not None:
        inside = np.zeros(shape, np.uint8)
        cv2.fillPoly(inside, [np.round((within.reshape(-1, 2) - (x0, y0)) * f).astype(np.int32)], 1)
        mask &= inside
    for o in others:
        pts = o.reshape(-1, 2).astype(np.float32)
        cv2.fillPoly(mask, [np.round((pts - (x0, y0)) * f).astype(np.int32)], 0)
    return set_pixels(mask) / area


def _holds_an_index(quad: np.ndarray, indices: list[np.ndarray], inset: float) -> bool:
    """Whether one of the index middles ``indices`` lies inside ``quad`` at least ``inset`` from its sides."""
    poly = quad.astype(np.float32).reshape(-1, 1, 2)
    return any(cv2.pointPolygonTest(poly, (float(x), float(y)), True) >= inset for x, y in indices)


def _lies_on(quad: np.ndarray, region: np.ndarray) -> bool:
    """Whether most of ``quad`` lies inside the region outline ``region``."""
    q = quad.astype(np.float32)
    x0, y0 = np.floor(np.minimum(q.min(axis=0), region.reshape(-1, 2).min(axis=0))).astype(int)
    x1, y1 = np.ceil(np.maximum(q.max(axis=0), region.reshape(-1, 2).max(axis=0))).astype(int)
    size = max(x1 - x0, y1 - y0, 1)
    f = min(1.0, 256.0 / size)  # the test needs no finer raster than this
    shape = (int((y1 - y0) * f) + 2, int((x1 - x0) * f) + 2)
    a = np.zeros(shape, np.uint8)
    b = np.zeros(shape, np.uint8)
    cv2.fillPoly(a, [np.round((q - (x0, y0)) * f).astype(np.int32)], 1)
    cv2.fillPoly(b, [np.round((region.reshape(-1, 2) - (x0, y0)) * f).astype(np.int32)], 1)
    area = set_pixels(a)
    return area > 0 and set_in_both(a, b) >= ON_REGION * area


def _holds(region: np.ndarray, pts: tuple[tuple[float, float], ...] | None) -> bool:
    """Whether the middle of ``pts`` (an index corner, an outline) lies inside ``region``."""
    if not pts:
        return False
    x, y = np.mean(np.asarray(pts, np.float64), axis=0)
    return cv2.pointPolygonTest(region, (float(x), float(y)), False) >= 0


def split_hands(sightings: list[Sighting], found: list[Sighting]) -> list[Sighting]:
    """``sightings`` without each back whose outline holds the middles of two or more backs of
    ``found``: it was a hand taken for one card."""
    new = [np.mean(np.asarray(b.outline, np.float64), axis=0) for b in found]

    def holds_two(s: Sighting) -> bool:
        poly = np.asarray(s.outline, np.float32).reshape(-1, 1, 2)
        return sum(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in new) >= 2

    return [s for s in sightings if s.card != BACK or not holds_two(s)]


def _a_hand(s: Sighting, typical: float, cards: float = MERGED) -> bool:
    """Whether the outline of ``s`` is bigger than ``cards`` cards ``typical`` wide (``MERGED``: far
    bigger than one)."""
    area = abs(float(cv2.contourArea(np.asarray(s.outline, np.float32))))
    return typical > 0 and area > cards * CARD_ASPECT * typical**2


def in_a_back(quad: np.ndarray, backs: list[np.ndarray], share: float = SAME_BACK) -> bool:
    """Whether ``quad`` is one of the backs already seen (outlines, N × 1 × 2): the two overlap by
    ``share`` of the smaller. (Two backs of a hand overlap by less than half a card.)"""
    q = quad.astype(np.float32).reshape(-1, 2)
    qa = abs(float(cv2.contourArea(q)))
    for b in backs:
        pts = b.reshape(-1, 2).astype(np.float32)
        small = min(qa, abs(float(cv2.contourArea(pts))))
        try:
            inter = float(cv2.intersectConvexConvex(q, cv2.convexHull(pts).reshape(-1, 2))[0])
        except cv2.error:  # a degenerate outline: fall back on the middle
            x, y = q.mean(axis=0)
            inter = small if cv2.pointPolygonTest(b, (float(x), float(y)), False) >= 0 else 0.0
        if small > 0 and inter >= share * small:
            return True
    return False


def completed_backs(
    image: np.ndarray, parts: list[Sighting], known: list[Sighting], maps: FinderMaps
) -> list[Sighting]:
    """Whole backs grown from ``parts`` (backs outlined too small, each lying on a face among
    ``known``), other than backs already among ``known``."""
    backs = [
        np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known if s.card == BACK and s.outline
    ]
    faces = [s for s in known if s.index_corner and s.card != BACK]
    out: list[Sighting] = []
    for part in parts:
        q = np.asarray(part.outline, np.float64)
        if q.shape != (4, 2) or in_a_back(q, backs):
            continue
        under = [
            f for f in faces if _holds(np.asarray(f.outline, np.float32).reshape(-1, 1, 2), part.outline)
        ]
        if not under:
            continue
        width = _short_side(np.asarray(under[0].outline, np.float64))
        hyps = [h for h in _grown(q, width) if _holds_part(h, q) and _on_cards(h, maps) >= ON_CARDS]
        if not hyps:
            continue
        sides = default_card_side().hypotheses(image, hyps)
        best = max(zip(sides, hyps, strict=True), key=lambda t: t[0].back)
        if best[0].back < BACK_SURE:
            continue
        snapped = snap_to_edges(image, best[1], 0.08 * width)
        backs.append(snapped.astype(np.float32).reshape(-1, 1, 2))
        out.append(
            Sighting(BACK, 0.8, tuple((float(x), float(y)) for x, y in snapped), None, evidence=(GROWN,))
        )
    return out


def _grown(q: np.ndarray, width: float) -> list[np.ndarray]:
    """Card-sized quads (``width`` wide) from each corner of ``q`` along its two sides, either side
    the short one, and about ``q``'s middle along its axes."""
    out = []
    long = width * CARD_ASPECT
    for k in range(4):
        c = q[k]
        u = q[(k + 1) % 4] - c
        v = q[k - 1] - c
        if np.linalg.norm(u) < 1 or np.linalg.norm(v) < 1:
            continue
        u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
        for a, b in ((width, long), (long, width)):
            out.append(np.array([c, c + a * u, c + a * u + b * v, c + b * v]))
    mid = q.mean(axis=0)
    u = (q[1] + q[2] - q[0] - q[3]) / 2
    v = (q[2] + q[3] - q[0] - q[1]) / 2
    if np.linalg.norm(u) >= 1 and np.linalg.norm(v) >= 1:
        u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
        for a, b in ((width, long), (long, width)):
            out.append(mid + np.array([-a * u - b * v, a * u - b * v, a * u + b * v, -a * u + b * v]) / 2)
    return out


def _holds_part(h: np.ndarray, part: np.ndarray) -> bool:
    """Whether the hypothesis ``h`` holds most (``HOLDS_PART``) of the part ``part``."""
    inter = cv2.intersectConvexConvex(h.astype(np.float32), part.astype(np.float32))[0]
    area = abs(cv2.contourArea(part.astype(np.float32)))
    return area > 0 and inter >= HOLDS_PART * area


def _on_cards(h: np.ndarray, maps: FinderMaps) -> float:
    """The mean of the learned finder's interior map over the quad ``h`` (full-image pixels)."""
    interior = maps.prob[0]
    cell = maps.scale * STRIDE
    mask = np.zeros(interior.shape, np.uint8)
    cv2.fillPoly(mask, [np.round((h + 0.5) / cell - 0.5).astype(np.int32)], 1)
    n = set_pixels(mask)
    return float(interior[mask > 0].mean()) if n else 0.0


def _short_side(o: np.ndarray) -> float:
    """The shorter of the two sides at ``o``'s first corner (a hypothesis's, laid from that corner's
    frame), not ``outline_sides.short_side`` over all four: a hypothesis is measured where it was laid."""
    return float(min(np.linalg.norm(o[1] - o[0]), np.linalg.norm(o[3] - o[0])))
