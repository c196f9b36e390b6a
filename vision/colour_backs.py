"""Face-down cards that stand apart from their table by colour, where no finder outlined them.

Both finders look for card stock: the threshold finder for regions brighter than the table, the
learned finder for card surface, and its interior map is weak on many back designs (a lattice has
holes; ``vision/models/FINDER.md``). But a back is printed: on a pale table it is darker than the
table, on felt another colour. So the frame is compared with the colour of the table round each
place (CIE Lab, the table's colour taken as a coarse median, cards being a small share of it), the
difference is cut at several levels (no one level suits every table), and each region that is a
clean card-shaped quadrilateral is a candidate: its sides snapped onto the frame's edges at full
resolution, it is kept where the card-side network (``vision.card_side``) takes it surely for a
back (surer than for a finder's quad: ``APART_SURE``). A region that is a card already seen (a
face's outline, a back's) is not looked at again; one lying on a face may be its hole card.

A back dealt over a face makes one region with it, outlined and read as the face. So print is cut
too: far from the table's colour (taken round the faces, not on them) and from the faces' paper
(``_print_mask``). There a back lying on a face stands alone, and one a face lies over shows the
part of it in view, grown across the face to a card (``_print_under_faces``). Then hands dealt face
down: the lower card shows only part of itself, and its region is searched from its corners
(``_backs_of_hands``).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.card_side import default_card_side, hole_card_side
from vision.detect import Blob, blob_corners
from vision.edge_cut import across_the_edge, one_side_in_view, three_corners
from vision.finder import snap_to_edges
from vision.frame_copies import remembered, resized, subsampled
from vision.hand_backs import UNDER, UNDER_SURE, backs_in_regions, in_a_back
from vision.index import percentiles_of_counts
from vision.mask_counts import set_in_both, set_pixels
from vision.outline_sides import short_side, short_sides, side_lengths
from vision.render import CARD_ASPECT
from vision.sighting import BACK, Sighting

WORK = 640  # px on the long side: the size the regions are looked for at
# px: the cards read are at least this wide in that copy, which is made larger where they would be narrower
# (a phone photo of a far-off table): as wide as the narrowest the benchmark asks for (``scenes.READABLE``,
# 50 px in a 1280-px frame) are at ``WORK``
SMALL_CARDS = 25.0
LEVELS = (10.0, 16.0, 25.0, 40.0)  # colour differences (CIE Lab ΔE) from the table cut at
FILL = 0.85  # of the quadrilateral a region must fill to be card-shaped
# the card-side network must be surer of a region found by colour alone than of a finder's quad. With
# card-side v2 it was 0.999: on training-family scenes every such region v2 took for a back at 0.95-0.998
# was the table's print or a shadow's edge, every back at 0.9999 or more. v6 also learned back designs no
# trainer draws, but is less sure of them: at 0.99 it finds 20 and 12 more of them on two fresh held-out
# sets (seeds 7870, 7880) than v2 at 0.999, with 2 and 1 more false backs (chosen on seed 7850;
# ``vision/models/CARD_SIDE.md``, session 60)
APART_SURE = 0.99
# a corner seen at most this far from square (degrees): a card tilted 60° from the camera at a
# yaw of 45° shows corners of 53° and 127°
SQUARE = 40.0
_MAX_COS = float(np.sin(np.radians(SQUARE)))  # of a corner within SQUARE of square
# long over short sides (each the mean of two opposite ones): a card's, overhead or at a slant
ASPECT = (1.15, 2.6)
# of the frame's long side: a narrower region is no card (the finders' own floor), unless the cards read
# are narrower
MIN_SIDE = 0.02
# pixels: in a frame under 400 px a back narrower than this is too small to tell from a print (and a
# quad a few pixels across, snapped to the edges of noise, can have no area at all)
MIN_BACK_PX = 8.0
# a face read is cut out of the colour masks grown by this much of its width (its outline's error, its
# border), and what is left of its region thinner than ``THIN`` of its width (its shadow, a rim) is
# opened away, so a back lying against it stands alone. Chosen on renders of a back beside a face
# (felt, dark, wood, grey, light wood, white; touching, 3 % and 8 % of a width apart; square and at
# 25°): 29 of 36 found within a tenth of a width at 0.15 / 0.06, 28 at 0.2 / none, 19-20 at 0.05-0.1;
# before, 18 (none on felt, dark or wood). Where the table's colour round two cards is mixed with
# theirs (a dark table, cards touching) the back still does not stand out whole
FACE_GROW = 0.15
THIN = 0.06
GROWS = 0.75  # of the narrowest back: a region narrower than this is one even after its sides are snapped
SAME_CARD = 0.6  # intersection over union of a candidate and a face's outline: that face
ON_KNOWN = 0.3  # of a candidate's area on a back already seen: that back, or part of it
SIZE_RATIO = 0.6  # of the median short side of the cards seen: the narrowest back (as closer_look)
SAME_MIDDLE = 0.25  # of a candidate's short side: two candidates this close are one
HAND = (1.2, 4.0)  # card areas: a region of a face-down hand (more than one card, a few at most)
OWN = 0.25  # card areas of a hand's region outside the backs found whole: another card's part
PART = (0.25, 1.0)  # card areas of a region outside the cards seen: a back a face lies over shows so much
# a table this light (CIE L*) is pale: white cards are not much brighter than it, and the threshold
# finder's region of a hand runs into it (the project's felt, wood and dark tables are L* 7-40, light
# wood, grey and white 63-91)
PALE = 55.0
PAPER_DIFF = 30.0  # ΔE (CIE Lab) from the faces' paper: print, not card stock
PRINT_LEVEL = LEVELS[1]  # and from the table round the faces
UNDER_FILL = 0.9  # of a card a face lies over: the share its print in view and the faces cover, at least
SIZE_SLACK = 0.15  # of a card's width or length: how far a side of a back's print in view may differ
ONE_CARD = 1.2  # long over short sides of a face's outline, at least, for it to be one card (1.4 overhead)
ON_FACES = 0.5  # of a region of print under a face: the share inside the faces' outlines, at most
# a region the frame's edge cuts: card areas it covers (a part of one card), and its box's short side,
# and its long side over CARD_ASPECT, in widths of the cards read (as ``surface_backs.SIZE``)
CUT = (0.25, 1.1)
CUT_SIZE = (0.5, 1.6)
BORDER = 0.1  # of a card's width: how far a side of a back's print may lie inside the card's edge
_NEXT = [1, 2, 3, 0]  # a quad's corners after each
EVIDENCE = "a card-shaped region of another colour than the table"
EDGE_EVIDENCE = "a region of another colour than the table, part of a card the frame's edge cuts"


def colour_backs(image: np.ndarray, known: list[Sighting]) -> list[Sighting]:
    """Backs in the BGR ``image`` that stand apart from the table by colour, other than the cards
    among the ``known`` sightings: whole ones, then those of hands dealt face down."""
    h, w = image.shape[:2]
    scale = _work_scale(image.shape, known)
    small = resized(image, (round(w * scale), round(h * scale)))
    lab = _lab(small)
    diff, lightness = _table_difference(lab, _lightness(image, small))
    masks = [
        cv2.morphologyEx((diff > level * level).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        for level in LEVELS
    ]
    faces = [_scaled(s.outline, scale) for s in known if s.card != BACK and len(s.outline) >= 3]
    apart = []
    if faces:
        on_faces = np.zeros(masks[0].shape, np.uint8)
        widths = [short_side(f) for f in faces]
        for f, width in zip(faces, widths, strict=True):
            cv2.fillPoly(on_faces, [f], 1)
            grow = max(1, round(FACE_GROW * width))
            cv2.polylines(on_faces, [f], True, 1, thickness=2 * grow + 1)
        k = max(3, round(THIN * float(np.median(widths))) | 1)
        thin = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        off_faces = 1 - on_faces
        apart = [cv2.morphologyEx(m & off_faces, cv2.MORPH_OPEN, thin) for m in masks]
    regions = [_regions(m) for m in masks]
    whole = _whole_backs(image, regions + [_regions(m) for m in apart], scale, known)
    whole += _backs_the_edge_cuts(image, masks, regions, scale, known + whole)
    # print is no face's paper: a region of it as big as a face's outline is a back lying on that face
    if (prints := _print_mask(lab, faces)) is not None:
        whole += _whole_backs(image, [_regions(prints)], scale, known + whole, on_a_face=True)
        whole += _print_under_faces(image, prints, faces, scale, known + whole)
    hands = _backs_of_hands(image, masks, scale, known, whole)
    if lightness < PALE:  # the threshold finder's regions of hands hold their hole cards (``hand_backs``)
        return whole + hands
    return whole + hands + _backs_under_faces(image, masks, scale, known + whole + hands)


def _work_scale(shape: tuple[int, ...], known: list[Sighting]) -> float:
    """The scale of the copy of a frame of ``shape`` the regions are looked for in: ``WORK`` px on its
    long side, or larger where the cards ``known`` would be narrower there than ``SMALL_CARDS``."""
    h, w = shape[:2]
    scale = WORK / max(h, w)
    if seen := _widths(known):
        scale = max(scale, SMALL_CARDS / float(np.median(seen)))
    return min(1.0, scale)


def _print_mask(lab: np.ndarray, faces: list[np.ndarray]) -> np.ndarray | None:
    """A mask of print: far in colour from the table round it and from the paper of the faces read
    (``lab``: the frame, as ``_lab`` gives it). A back lying on a face makes one region with it in the
    other masks (and a big back is taken for the table round its own middle there); its print stands
    alone here, the table's colour being taken round the faces' outlines, not on them."""
    if not faces:
        return None
    # at half the working size: a back's print is a card's size, and the work a quarter
    half = subsampled(lab, 2)
    on_faces = np.zeros(half.shape[:2], np.uint8)
    cv2.fillPoly(on_faces, [np.round(f / 2).astype(np.int32) for f in faces], 1)
    if cv2.countNonZero(on_faces) < 20:
        return None
    # the lightest third of the faces is their paper: its median colour (as ``np.median`` of those
    # pixels, from histograms under masks rather than the pixels picked out)
    (lightest,) = percentiles_of_counts(cv2.calcHist([half], [0], on_faces, [256], [0, 256]), (70,))
    light = ((half[..., 0] >= lightest) & (on_faces > 0)).astype(np.uint8)
    paper = tuple(_median(half, c, light) for c in range(3))
    table = _table_off(half, on_faces)
    if table is None:
        return None
    off_paper = _delta_e2(half, paper) > PAPER_DIFF * PAPER_DIFF
    off_table = _delta_e2(half, table) > PRINT_LEVEL * PRINT_LEVEL
    prints = cv2.morphologyEx(
        (off_table & off_paper).astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)
    )
    return cv2.resize(prints, (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_NEAREST)


def _median(image: np.ndarray, channel: int, mask: np.ndarray) -> int:
    """The median of a uint8 ``channel`` of ``image`` where ``mask`` is set, truncated to a whole level."""
    return int(percentiles_of_counts(cv2.calcHist([image], [channel], mask, [256], [0, 256]), (50,))[0])


def _table_off(lab: np.ndarray, cards: np.ndarray) -> np.ndarray | None:
    """The table's colour (8-bit Lab) at each pixel of ``lab`` from the pixels off the ``cards`` mask:
    their mean in coarse cells (32 across), cells with too few of them filled from their neighbours."""
    sh, sw = lab.shape[:2]
    size = (32, max(1, round(32 * sh / sw)))
    free = 1 - cards
    weight = cv2.resize(free.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    if not (weight > 0.5).any():
        return None
    off = cv2.bitwise_and(lab, lab, mask=free).astype(np.float32)  # lab where free, else 0
    sums = cv2.resize(off, size, interpolation=cv2.INTER_AREA)
    coarse = np.clip(sums / np.maximum(weight, 1e-6)[..., None], 0, 255).astype(np.uint8)
    empty = (weight <= 0.5).astype(np.uint8)
    if empty.any():
        coarse = cv2.inpaint(coarse, empty, 3, cv2.INPAINT_TELEA)
    return cv2.resize(cv2.blur(coarse, (3, 3)), (sw, sh))


def _print_under_faces(
    image: np.ndarray, prints: np.ndarray, faces: list[np.ndarray], scale: float, known: list[Sighting]
) -> list[Sighting]:
    """Backs a face lies over (a hole card tucked under its up card): the part of a back's print in
    view is no card-shaped region, but the card it is part of is, its hidden part under the ``faces``
    (outlines at ``scale``). Each region of ``prints`` of a quarter card or more is boxed by its
    smallest rectangle, the box's sides snapped onto the card's edges and the box grown to a card
    across the side a face lies on: a card as wide as the faces, or whose width or length is the
    box's longer side (a face's outline may hold both cards). Where the region and the faces fill
    such a card (``UNDER_FILL``), the card-side network judges it as it judges a hole card among a
    merged region's corners (``UNDER_SURE``); the surest of one region's cards stands."""
    on_faces = np.zeros(prints.shape, np.uint8)
    cv2.fillPoly(on_faces, [np.round(f).astype(np.int32) for f in faces], 1)
    # an outline far squarer than a card holds two: a face and the back under it (the pair's region)
    cards = [f for f in faces if len(f) == 4 and _long_over_short(f) >= ONE_CARD]
    on_cards = np.zeros(prints.shape, np.uint8)
    cv2.fillPoly(on_cards, [np.round(f).astype(np.int32) for f in cards], 1)
    width = float(np.median([short_side(f) for f in cards or faces]))
    contours, _ = cv2.findContours(prints, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    taken = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) * scale for s in known if s.card == BACK]
    hyps: list[tuple[int, np.ndarray, np.ndarray]] = []  # (region, quad judged, card: full resolution)
    for i, c in enumerate(contours):
        area = cv2.contourArea(c)
        if area < PART[0] * CARD_ASPECT * (SIZE_RATIO * width) ** 2:
            continue
        x, y, bw, bh = cv2.boundingRect(c)
        middle = (x + bw / 2, y + bh / 2)
        if any(cv2.pointPolygonTest(t, middle, False) >= 0 for t in taken):
            continue  # a back seen already
        region = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(region, [c - [x, y]], 0, 1, -1)
        if set_in_both(region, on_cards[y : y + bh, x : x + bw]) > ON_FACES * set_pixels(region):
            continue  # print on a face is its own (a court card's picture); a back under it shows beside it
        # the print's box, its sides onto the card's own edges (past its border), at full resolution
        full = (cv2.boxPoints(cv2.minAreaRect(c)).astype(np.float64) + 0.5) / scale - 0.5
        for _ in range(2):
            full = snap_to_edges(image, full, BORDER * width / scale)
        box = (full + 0.5) * scale - 0.5
        long = float(max(np.linalg.norm(box[1] - box[0]), np.linalg.norm(box[2] - box[1])))
        grown = []
        for w in ((width,) if cards else ()) + (long / CARD_ASPECT, long):
            if area > CARD_ASPECT * w * w or (q := _grown_to_a_card(box, w, on_faces)) is None:
                continue
            if any(_overlap(q, t) > ON_KNOWN for t in taken):
                continue
            inside = np.zeros(prints.shape, np.uint8)
            cv2.fillPoly(inside, [np.round(q).astype(np.int32).reshape(-1, 1, 2)], 1)
            if set_in_both(inside, prints | on_faces) >= UNDER_FILL * set_pixels(inside):
                grown.append((q + 0.5) / scale - 0.5)
        hyps += [(i, q, q) for q in grown]
        if grown:  # the part in view alone, where the face over the rest shows its index to the network
            hyps.append((i, full, grown[0]))
    if not hyps:
        return []
    sides = hole_card_side().hypotheses(image, [q for _, q, _ in hyps])
    backs = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known if s.card == BACK]
    out: list[Sighting] = []
    done: set[int] = set()
    for side, (i, _, q) in sorted(zip(sides, hyps, strict=True), key=lambda t: -t[0].back):
        if side.back < UNDER_SURE or i in done or in_a_back(q, backs):
            continue
        done.add(i)
        backs.append(q.astype(np.float32).reshape(-1, 1, 2))
        out.append(Sighting(BACK, 0.8, tuple((float(x), float(y)) for x, y in q), None, evidence=(UNDER,)))
    return out


def _mean_sides(q: np.ndarray) -> tuple[float, float]:
    """The mean lengths of quad ``q``'s two pairs of opposite sides (corners 0-1 and 2-3; 1-2 and 3-0)."""
    sides = np.linalg.norm(q[_NEXT] - q, axis=1)  # side k runs from corner k to corner k + 1
    return float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2


def _long_over_short(q: np.ndarray) -> float:
    a, b = _mean_sides(q)
    return max(a, b) / max(min(a, b), 1e-9)


def _grown_to_a_card(box: np.ndarray, width: float, on_faces: np.ndarray) -> np.ndarray | None:
    """``box`` (four corners) grown to a card ``width`` wide across whichever of its sides lies on a
    face (``on_faces``): the part of a back in view beside the face over it. None where neither pair
    of its sides is a card's width or length (within ``SIZE_SLACK``), or no face lies across."""
    sides = [float(np.linalg.norm(box[(k + 1) % 4] - box[k])) for k in range(2)]
    length = CARD_ASPECT * width
    h, w = on_faces.shape

    def on_a_face(p: np.ndarray) -> bool:
        x, y = round(float(p[0])), round(float(p[1]))
        return 0 <= x < w and 0 <= y < h and bool(on_faces[y, x])

    for k in (0, 1):  # side k (corners k, k + 1) keeps its length; the other pair grows to match
        have, other = sides[k], sides[1 - k]
        for keep, want in ((width, length), (length, width)):
            if abs(have - keep) > SIZE_SLACK * keep or other > want * (1 + SIZE_SLACK):
                continue
            if other >= want * (1 - SIZE_SLACK):
                return box  # a whole card's size already
            a, b, c, d = (box[(k + i) % 4] for i in range(4))  # a-b is side k, c-d the side across
            step = (d - a) / max(other, 1e-9) * (want - other)
            if on_a_face((c + d) / 2 + 0.5 * step):  # grown on past the side c-d, onto a face
                return np.array([a, b, c + step, d + step])
            if on_a_face((a + b) / 2 - 0.5 * step):
                return np.array([a - step, b - step, c, d])
    return None


def _regions(mask: np.ndarray) -> Sequence[np.ndarray]:
    """The outer contours of a mask's regions."""
    return cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]


def _whole_backs(
    image: np.ndarray,
    regions: list[Sequence[np.ndarray]],
    scale: float,
    known: list[Sighting],
    on_a_face: bool = False,
) -> list[Sighting]:
    """Backs that are whole card-shaped regions of a mask, among the ``regions`` (``_regions`` of each
    mask, at ``scale`` of ``image``). With ``on_a_face``, one with a face's outline is not that face
    (the masks hold no card stock)."""
    h, w = image.shape[:2]
    # cards under one camera are about one size: a region far narrower than the cards seen is a
    # print or a letter on one of them (a joker's "O" passed for a back)
    seen = _widths(known)
    typical = SIZE_RATIO * float(np.median(seen)) if seen else 0.0
    # (the finders' floor, ``MIN_SIDE``, gives way to the cards read where they are narrower: the small-card
    # passes read faces under it in a photo of a far-off table, and its backs are as small)
    floor = min(MIN_SIDE * max(h, w), typical) if seen else MIN_SIDE * max(h, w)
    narrowest = max(floor, typical, MIN_BACK_PX)
    # a back may lie on a face (a hole card): only backs already seen are not looked for again
    taken = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) * scale for s in known if s.card == BACK]
    # a candidate about a back seen is that back again, not read twice (one about a face may be a
    # hole card lying on it: a face's outline from its index frame is only roughly where the card is)
    middles = np.array(
        [np.mean(np.asarray(s.outline, np.float64), axis=0) * scale for s in known if s.card == BACK]
    ).reshape(-1, 2)
    faces = [np.asarray(s.outline, np.float32).reshape(-1, 2) * scale for s in known if s.card != BACK]
    face_lo = np.array([f.min(axis=0) for f in faces]).reshape(-1, 2)  # bounding boxes, to skip most
    face_hi = np.array([f.max(axis=0) for f in faces]).reshape(-1, 2)
    # a back never covers an index read (the recogniser drops such a back): not looked at further (the
    # indices' middles are found when a candidate first comes this far: most frames have none)
    indices: list[tuple[float, float]] | None = None
    found: list[np.ndarray] = []
    min_side = floor * scale
    mask_h, mask_w = round(h * scale), round(w * scale)
    least = GROWS * narrowest * scale  # the shortest side of a quad passed below
    # such a quad, its corners within SQUARE of square, covers at least least² · cos(SQUARE) (the
    # triangles at two opposite corners), and its region FILL of that: a smaller region cannot pass
    # (the 0.999: slack for rounding)
    least_area = max(min_side * min_side, 0.999 * FILL * np.cos(np.radians(SQUARE)) * least * least)
    for contours in regions:
        for c in contours:
            if cv2.contourArea(c) < least_area:
                continue  # most regions (the table's print, noise) end here
            x, y, bw, bh = cv2.boundingRect(c)
            if (x < 2 and x + bw > mask_w - 2) or (y < 2 and y + bh > mask_h - 2):
                continue  # it runs from one edge of the frame to the other: the table's cloth, no card
            box_mid = np.array([x + bw / 2, y + bh / 2])
            if len(middles) and np.hypot(*(middles - box_mid).T).min() < SAME_MIDDLE * min(bw, bh):
                continue  # cheaply, before its shape is looked at
            # (the snap below grows a side by at most 2 × 7 %, twice: a shorter side could not pass)
            if (q := _card_shape(c, min_side, least)) is None:
                continue
            mid = q.mean(axis=0)
            if any(_overlap(q, t) > ON_KNOWN for t in taken):
                continue
            meets = np.flatnonzero(
                (face_lo < q.max(axis=0)).all(axis=1) & (q.min(axis=0) < face_hi).all(axis=1)
            )
            if not on_a_face and any(_same_outline(q, faces[k]) for k in meets.tolist()):
                continue  # that face (a hole card lying on it overlaps it by far less)
            if indices is None:
                indices = _index_middles(known, scale)
            poly = q.astype(np.float32).reshape(-1, 1, 2)
            if any(cv2.pointPolygonTest(poly, p, False) > 0 for p in indices):
                continue
            side = short_side(q)
            if any(np.linalg.norm(f.mean(axis=0) - mid) < SAME_MIDDLE * side for f in found):
                continue
            found.append(q)
    if not found:
        return []
    quads = []
    for q in found:
        full = (q + 0.5) / scale - 0.5
        reach = max(2.0, 0.07 * short_side(full))
        for _ in range(2):
            full = snap_to_edges(image, full, reach)
        if _card_aspect(full, narrowest):
            quads.append(full)
    if not quads:
        return []
    sides = default_card_side().hypotheses(image, quads)
    backs = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known if s.card == BACK]
    out: list[Sighting] = []
    for side, q in sorted(zip(sides, quads, strict=True), key=lambda t: -t[0].back):
        if side.back < APART_SURE or in_a_back(q, backs):
            continue
        backs.append(q.astype(np.float32).reshape(-1, 1, 2))
        out.append(Sighting(BACK, 0.8, tuple((float(x), float(y)) for x, y in q), None, evidence=(EVIDENCE,)))
    return out


def _backs_the_edge_cuts(
    image: np.ndarray,
    masks: list[np.ndarray],
    regions: list[Sequence[np.ndarray]],
    scale: float,
    known: list[Sighting],
) -> list[Sighting]:
    """Backs the frame's edge cuts. A region (of ``regions``, those of the ``masks``, at ``scale`` of
    ``image``) that touches the frame's edge is no card-shaped quad: the card it is part of lies partly
    beyond the edge. Where it is a part of a card as wide as the cards ``known`` (``CUT``, ``CUT_SIZE``),
    the cards ``vision.edge_cut`` guesses from it are judged by the card-side network as any back found
    by colour alone (``APART_SURE``). Without a card read there is no width, and nothing is looked for."""
    # a region within a pixel of the frame's edge has pixels in its two outer rows or columns
    cut = [
        r
        for m, r in zip(masks, regions, strict=True)
        if m[:2].any() or m[-2:].any() or m[:, :2].any() or m[:, -2:].any()
    ]
    if not cut or not (seen := _widths(known)):
        return []
    width = float(np.median(seen))
    card = CARD_ASPECT * width * width
    mh, mw = masks[0].shape
    taken = [np.asarray(s.outline, np.float32).reshape(-1, 1, 2) for s in known if s.card == BACK]
    faces = [np.asarray(s.outline, np.float64).reshape(-1, 2) for s in known if s.card != BACK]
    indices = _index_middles(known, 1.0)
    hyps: list[np.ndarray] = []
    for contours in cut:
        for c in contours:
            x, y, bw, bh = cv2.boundingRect(c)
            if x > 1 and y > 1 and x + bw < mw - 1 and y + bh < mh - 1:
                continue  # clear of the frame's edge: ``_whole_backs`` looks at it
            if not CUT[0] * card <= cv2.contourArea(c) / (scale * scale) <= CUT[1] * card:
                continue
            box = (
                cv2.boxPoints(cv2.minAreaRect(c.astype(np.float32))).astype(np.float64) + 0.5
            ) / scale - 0.5
            short, long = sorted(side_lengths(box)[:2].tolist())
            if short < CUT_SIZE[0] * width or long > CUT_SIZE[1] * CARD_ASPECT * width:
                continue
            tries = across_the_edge(box, image.shape)
            if (q := three_corners(c, 1.0 / scale, image.shape)) is not None:
                tries.append(q)
            tries += one_side_in_view(c, 1.0 / scale, width, image.shape)
            hyps += [q for q in tries if _no_card_seen(q, taken, faces, indices)]
    if not hyps:
        return []
    backs = list(taken)
    out: list[Sighting] = []
    for side, q in sorted(
        zip(default_card_side().hypotheses(image, hyps), hyps, strict=True), key=lambda t: -t[0].back
    ):
        if side.back < APART_SURE or in_a_back(q, backs):
            continue
        backs.append(q.astype(np.float32).reshape(-1, 1, 2))
        out.append(
            Sighting(BACK, 0.8, tuple((float(x), float(y)) for x, y in q), None, evidence=(EDGE_EVIDENCE,))
        )
    return out


def _no_card_seen(
    q: np.ndarray, backs: list[np.ndarray], faces: list[np.ndarray], indices: list[tuple[float, float]]
) -> bool:
    """Whether quad ``q`` is no card already seen: its middle on no back, no index read inside it, and
    not a face's outline (``_same_outline``)."""
    mid = q.mean(axis=0)
    if any(cv2.pointPolygonTest(b, (float(mid[0]), float(mid[1])), False) >= 0 for b in backs):
        return False
    poly = q.astype(np.float32).reshape(-1, 1, 2)
    if any(cv2.pointPolygonTest(poly, p, False) > 0 for p in indices):
        return False
    return not any(_same_outline(q, f) for f in faces if len(f) >= 3)


def _index_middles(known: list[Sighting], scale: float) -> list[tuple[float, float]]:
    """The middles of the indices read among the ``known`` sightings, at ``scale``."""
    return [
        (float(x) * scale, float(y) * scale)
        for s in known
        if s.index_corner and s.card != BACK
        for x, y in [np.mean(np.asarray(s.index_corner, np.float64), axis=0)]
    ]


def _widths(known: list[Sighting]) -> list[float]:
    """The widths of the cards among the ``known`` sightings outlined by four corners."""
    return short_sides([s.outline for s in known if len(s.outline) == 4])


def _backs_of_hands(
    image: np.ndarray, masks: list[np.ndarray], scale: float, known: list[Sighting], whole: list[Sighting]
) -> list[Sighting]:
    """Backs of hands dealt face down: a lower card shows only part of itself beside the card on it, so
    its region is no quadrilateral. With the backs found ``whole`` filled in (their white borders are the
    table's colour), each region of a few cards is searched from its corners as the threshold
    finder's merged regions are (``vision.hand_backs.backs_in_regions``), the card width being that
    of the backs found whole."""
    if not whole:
        return []
    width = float(np.median([short_side(np.asarray(s.outline)) for s in whole])) * scale
    polys = [_scaled(s.outline, scale) for s in whole]
    card = float(np.median([abs(cv2.contourArea(p.astype(np.float32))) for p in polys]))  # as seen
    on_whole = np.zeros(masks[0].shape, np.uint8)
    cv2.fillPoly(on_whole, polys, 1)
    # the backs seen before are card surface too, and explain what they cover
    seen = [_scaled(s.outline, scale) for s in known if s.card == BACK]
    explained = on_whole.copy()
    cv2.fillPoly(explained, seen, 1)
    # where a face was read (its index, its middle) lies no hand dealt face down
    faces = [
        (float(x) * scale, float(y) * scale)
        for f in known
        if f.index_corner and f.card != BACK
        for x, y in (np.mean(np.asarray(f.index_corner), axis=0), np.mean(np.asarray(f.outline), axis=0))
    ]
    close = np.ones((5, 5), np.uint8)
    blobs = []
    for mask in masks:
        filled = cv2.morphologyEx(mask | explained, cv2.MORPH_CLOSE, close)
        contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for c in contours:
            if not HAND[0] * card <= cv2.contourArea(c) <= HAND[1] * card:
                continue
            if any(cv2.pointPolygonTest(c, m, False) >= 0 for m in faces):
                continue  # a face's print is coloured too: only hands dealt face down are searched
            region = np.zeros_like(filled)
            cv2.fillPoly(region, [c], 1)
            if set_in_both(region, 1 - explained) < OWN * card:
                continue  # the backs seen explain the region
            corners = tuple(blob_corners(c, width, 1.0 / scale))
            if corners:
                outline = (c.reshape(-1, 2).astype(np.float64) + 0.5) / scale - 0.5
                blobs.append(Blob(outline, corners))
    if not blobs:
        return []
    return backs_in_regions(image, tuple(blobs), known + whole, typical=width / scale, sure=APART_SURE)


def _backs_under_faces(
    image: np.ndarray, masks: list[np.ndarray], scale: float, known: list[Sighting]
) -> list[Sighting]:
    """Backs a face lies half over (a hole card tucked under its up card), on a pale table (``PALE``),
    where the threshold finder's region of the hand runs into the table: the back shows as a region of
    its colour, part of a card (``PART`` of one), beside the face. The region and the faces it touches
    are searched together from their outline's corners, as the threshold finder's merged regions are
    (``vision.hand_backs.backs_in_regions``)."""
    faces = [s for s in known if s.card != BACK and s.index_corner and len(s.outline) == 4]
    if not faces:
        return []
    width = float(np.median([short_side(np.asarray(s.outline, np.float64)) for s in faces]))
    polys = [_scaled(s.outline, scale) for s in faces]
    card = float(np.median([abs(cv2.contourArea(p.astype(np.float32))) for p in polys]))
    seen = np.zeros(masks[0].shape, np.uint8)
    cv2.fillPoly(seen, [_scaled(s.outline, scale) for s in known if len(s.outline) >= 3], 1)
    which = np.zeros(masks[0].shape, np.int32)  # which face (1, 2, …) each pixel lies on
    for k, p in enumerate(polys):
        cv2.fillPoly(which, [p], k + 1)
    blobs: list[Blob] = []
    for mask in masks:
        contours, _ = cv2.findContours(mask & (1 - seen), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if not PART[0] * card <= cv2.contourArea(c) <= PART[1] * card:
                continue
            region = np.zeros_like(mask)
            cv2.fillPoly(region, [c], 1)
            near = cv2.dilate(region, np.ones((5, 5), np.uint8)) > 0
            touching = [polys[k - 1] for k in np.unique(which[near]).tolist() if k]
            if not touching:
                continue  # a back a face lies over touches that face
            cv2.fillPoly(region, touching, 1)
            joined, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            u = max(joined, key=cv2.contourArea)
            corners = tuple(blob_corners(u, width * scale, 1.0 / scale))
            if corners:
                blobs.append(Blob((u.reshape(-1, 2).astype(np.float64) + 0.5) / scale - 0.5, corners))
    if not blobs:
        return []
    return backs_in_regions(image, tuple(blobs), known, typical=width, sure=APART_SURE)


def _scaled(outline: tuple[tuple[float, float], ...], scale: float) -> np.ndarray:
    """A sighting's outline in the pixels of the copy at ``scale`` (pixel centres kept), rounded."""
    return np.round((np.asarray(outline) + 0.5) * scale - 0.5).astype(np.int32)


def table_is_pale(image: np.ndarray) -> bool:
    """Whether the table of the BGR ``image`` is pale (``PALE``): the median lightness of a coarse grid
    of the frame, as ``colour_backs`` measures it."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK / max(h, w))
    small = resized(image, (round(w * scale), round(h * scale)))
    return _lightness(image, small)[1] >= PALE


def _lightness(image: np.ndarray, small: np.ndarray) -> tuple[np.ndarray, float]:
    """A coarse grid of ``small``, a copy of the frame ``image`` (32 cells across, median-smoothed), in
    8-bit Lab, and its median lightness (CIE L*, 0-100); made once per frame and size (``table_is_pale``
    asks it of the frame ``colour_backs`` searches)."""

    def make() -> tuple[np.ndarray, float]:
        sh, sw = small.shape[:2]
        grid = cv2.resize(small, (32, max(1, round(32 * sh / sw))), interpolation=cv2.INTER_AREA)
        coarse = cv2.cvtColor(cv2.medianBlur(grid, 5), cv2.COLOR_BGR2LAB)
        return coarse, float(np.median(coarse[..., 0])) * 100.0 / 255.0

    return remembered(image, ("colour_backs.lightness", small.shape), make)


def _table_difference(lab: np.ndarray, table: tuple[np.ndarray, float]) -> tuple[np.ndarray, float]:
    """Each pixel's squared colour difference (ΔE² in CIE Lab) from the table's colour round it: the
    median of a coarse grid of the frame (32 cells across, ``_lightness``), smoothed back up to the
    frame's size; and the table's median lightness (CIE L*, 0-100). ``lab``: the frame in 8-bit Lab
    (``_lab``)."""
    coarse, lightness = table
    return _delta_e2(lab, cv2.resize(coarse, (lab.shape[1], lab.shape[0]))), lightness


def _lab(small: np.ndarray) -> np.ndarray:
    """``small`` in 8-bit CIE Lab, a little blurred first: a back's lattice is one colour at the scale
    of the card."""
    return cv2.cvtColor(cv2.blur(small, (3, 3)), cv2.COLOR_BGR2LAB)


def _delta_e2(lab: np.ndarray, ref: np.ndarray | tuple[int, int, int]) -> np.ndarray:
    """ΔE² between an 8-bit Lab image and another, or one colour (8-bit Lab holds L * 255 / 100:
    weighed back to ΔE units)."""
    d = cv2.absdiff(lab, ref)
    return cv2.transform(
        cv2.multiply(d, d, dtype=cv2.CV_32F), np.array([[(100.0 / 255.0) ** 2, 1.0, 1.0]], np.float32)
    )


def _card_shape(contour: np.ndarray, min_side: float, least: float) -> np.ndarray | None:
    """The four corners of a region that is a clean card-shaped quadrilateral, no side of it shorter
    than ``least``, else None."""
    area = cv2.contourArea(contour)  # (the caller has passed only regions of some size)
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(approx) != 4 or short_side(approx) < least:
        return None
    if area < FILL * abs(cv2.contourArea(approx.astype(np.float32))):
        return None
    return approx if _card_aspect(approx, min_side) else None


def _card_aspect(q: np.ndarray, min_side: float) -> bool:
    """Whether quad ``q`` has a card's proportions (``ASPECT``), corners near square (``SQUARE``)
    and short sides at least ``min_side``."""
    a, b = _mean_sides(q)
    if min(a, b) < min_side or not ASPECT[0] <= max(a, b) / min(a, b) <= ASPECT[1]:
        return False
    edges = q[_NEXT] - q  # side k runs from corner k to corner k + 1
    sides = np.hypot(edges[:, 0], edges[:, 1]).tolist()
    # each corner's cosine between the sides leaving and arriving (side k - 1), in plain floats: the
    # same arithmetic as numpy's on four rows, without its per-call cost (this is asked of every region)
    e = edges.tolist()
    return all(
        abs(-(e[k][0] * e[k - 1][0] + e[k][1] * e[k - 1][1]) / max(sides[k] * sides[k - 1], 1e-9)) <= _MAX_COS
        for k in range(4)
    )


def _overlap(q: np.ndarray, outline: np.ndarray) -> float:
    """The share of quad ``q``'s area that lies on ``outline`` (N × 1 × 2)."""
    area = abs(float(cv2.contourArea(q.astype(np.float32))))
    try:
        hull = cv2.convexHull(outline.reshape(-1, 2).astype(np.float32)).reshape(-1, 2)
        inter = float(cv2.intersectConvexConvex(q.astype(np.float32), hull)[0])
    except cv2.error:  # a degenerate outline
        return 0.0
    return inter / area if area > 0 else 1.0


def _same_outline(q: np.ndarray, outline: np.ndarray) -> bool:
    """Whether quad ``q`` and a card's ``outline`` (N × 2) are one card: intersection over union at
    least ``SAME_CARD``."""
    a, b = q.astype(np.float32), cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
    try:
        inter = float(cv2.intersectConvexConvex(a, b)[0])
    except cv2.error:  # a degenerate outline
        return False
    union = abs(float(cv2.contourArea(a))) + abs(float(cv2.contourArea(b))) - inter
    return union > 0 and inter >= SAME_CARD * union
