"""Read a card's index corner: cut the corner patch, split rank from suit, describe each glyph.

The patch is cut straight from the full-resolution frame through the corner's frame, so the index is
upright whatever the card's rotation: a 6 is never seen as a 9. Glyphs are isolated as connected ink
components, the rank being the top component(s) of the index column (two for a "10") and the suit the
next one below it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import CornerFrame, min_channel

PX = 160  # patch pixels per card width
PATCH_W = 0.36  # patch size in card widths
PATCH_H = 0.62
PW, PH = int(PATCH_W * PX), int(PATCH_H * PX)
GLYPH = 24  # glyphs are described on a GLYPH × GLYPH canvas
CANVAS = 32  # … and shown to the CNN reader on a CANVAS × CANVAS one
CELL = 6
BINS = 9
_CELL_OF = (np.arange(GLYPH)[:, None] // CELL) * (GLYPH // CELL) + (np.arange(GLYPH)[None, :] // CELL)
_FIRST_BIN = _CELL_OF * BINS  # each canvas pixel's cell's first histogram bin


def hog(canvas: np.ndarray) -> np.ndarray:
    """Histogram of oriented gradients: 4×4 cells of 9 unsigned orientations, 2×2-cell blocks."""
    return hog_many(canvas[None])[0]


def hog_many(canvases: np.ndarray) -> np.ndarray:
    """``hog`` of each of K GLYPH × GLYPH canvases (K × GLYPH × GLYPH) at once: K × 324."""
    img = canvases.astype(np.float32)
    k = len(img)
    # central differences (cv2.Sobel, ksize=1): zero on the border, where the mirrored pixel equals
    # the one on the other side
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, :, 1:-1] = img[:, :, 2:] - img[:, :, :-2]
    gy[:, 1:-1, :] = img[:, 2:, :] - img[:, :-2, :]
    mag, ang = cv2.cartToPolar(gx.reshape(-1, GLYPH), gy.reshape(-1, GLYPH), angleInDegrees=True)
    # unsigned orientation: np.mod(ang, 180), the very same numbers (ang is in [0, 360], where
    # subtracting 180 is exact), and the bin index modulo BINS (it is at most BINS)
    np.subtract(ang, 180.0, out=ang, where=ang >= 180.0)
    b = (ang / (180.0 / BINS)).astype(np.int32)
    b[b == BINS] = 0
    n = GLYPH // CELL
    cells = n * n * BINS
    idx = (_FIRST_BIN + b.reshape(k, GLYPH, GLYPH)) + (np.arange(k) * cells)[:, None, None]
    hist = np.bincount(idx.ravel(), weights=mag.ravel(), minlength=k * cells).reshape(k, n, n, BINS)
    # the 2×2-cell blocks, each laid out as hist[i:i+2, j:j+2].ravel() and L2-normalised
    blocks = np.concatenate([hist[:, :-1, :-1], hist[:, :-1, 1:], hist[:, 1:, :-1], hist[:, 1:, 1:]], axis=3)
    norms = np.sqrt(np.einsum("kijl,kijl->kij", blocks, blocks))[..., None]
    return (blocks / (norms + 1e-3)).astype(np.float32).reshape(k, -1)


def patch_matrix(frame: CornerFrame, sideways: bool) -> np.ndarray:
    """3×3 matrix from patch pixels to image pixels.

    ``sideways`` reads the corner as a top-right corner (x along the card's long side), where a
    four-index deck prints its mirrored index close to the patch's right edge.
    """
    return frame.card_to_image() @ (_SIDEWAYS if sideways else _UPRIGHT)


# patch pixels → card widths, upright and sideways
_UPRIGHT = np.diag([1.0 / PX, 1.0 / PX, 1.0])
_SIDEWAYS = np.array([[0.0, 1.0 / PX, 0.0], [-1.0 / PX, 0.0, PW / PX], [0.0, 0.0, 1.0]])


def cut_patch(image: np.ndarray, frame: CornerFrame, sideways: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The upright corner patch (PH × PW × 3) and its patch→image matrix."""
    m = patch_matrix(frame, sideways)
    patch = cv2.warpPerspective(
        image, m, (PW, PH), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )
    return patch, m


@dataclass(frozen=True)
class Glyph:
    """One isolated glyph: its box in the patch (x, y, w, h), ink mask crop and redness."""

    box: tuple[int, int, int, int]
    features: np.ndarray
    redness: float


@dataclass(frozen=True)
class IndexGlyphs:
    """The rank glyph (with alternatives: a "10" joined, or its left part alone) and the suit glyph."""

    rank: Glyph
    suit: Glyph | None
    ink_contrast: float
    rank_alternatives: tuple[Glyph, ...] = ()
    # a rank touching its suit with no neck thin enough to cut at for sure: (rank, suit) cut at each
    # of the narrowest rows of its middle, for the readers to choose between (``suit`` is None then)
    splits: tuple[tuple[Glyph, Glyph], ...] = ()


@dataclass(frozen=True)
class Reading:
    """One index corner read: the best code, its confidence and where the index was."""

    card: str
    confidence: float
    reject: float
    index_corner: tuple[tuple[float, float], ...]


def _fit(crop: np.ndarray, size: int, margin: int, *, area_only: bool = False) -> np.ndarray:
    """``crop`` scaled (aspect kept) to fill a ``size`` × ``size`` canvas less ``margin``, centred.

    ``area_only`` scales up with INTER_AREA too (near to nearest-neighbour), as the perceptrons'
    training canvases were made; the CNN's canvases scale up smoothly."""
    h, w = crop.shape
    s = (size - margin) / max(w, h)
    nw, nh = max(1, int(round(w * s))), max(1, int(round(h * s)))
    interp = cv2.INTER_AREA if s < 1 or area_only else cv2.INTER_LINEAR
    small = cv2.resize(crop, (nw, nh), interpolation=interp)
    canvas = np.zeros((size, size), np.uint8)
    ox, oy = (size - nw) // 2, (size - nh) // 2
    canvas[oy : oy + nh, ox : ox + nw] = small
    return canvas


def _describe(ink: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """HOG, thumbnail and proportions (``DESCRIPTOR_LEN`` values), then the CNN reader's canvas."""
    x, y, w, h = box
    return _describe_crop(ink[y : y + h, x : x + w])


def _describe_crop(crop: np.ndarray) -> np.ndarray:
    """``_describe`` of a glyph's ink already cut to its box."""
    return _describe_crops([crop])[0]


def _describe_crops(crops: list[np.ndarray]) -> list[np.ndarray]:
    """``_describe_crop`` of several glyphs, their HOG computed together."""
    canvases = [_fit(c, GLYPH, 2, area_only=True) for c in crops]
    out = np.empty((len(crops), DESCRIPTOR_LEN + CANVAS * CANVAS), np.float32)
    n_hog = DESCRIPTOR_LEN - 12 * 12 - 3
    out[:, :n_hog] = hog_many(np.stack(canvases))
    for i, (crop, canvas) in enumerate(zip(crops, canvases, strict=True)):
        h, w = crop.shape
        pix = cv2.resize(canvas, (12, 12), interpolation=cv2.INTER_AREA)
        np.divide(pix.reshape(-1), np.float32(255.0), out=out[i, n_hog : n_hog + 144], dtype=np.float32)
        out[i, n_hog + 144 : DESCRIPTOR_LEN] = (np.log(h / max(w, 1)), h / PX * 4, w / PX * 4)
        big = _fit(crop, CANVAS, 4)
        np.divide(big.reshape(-1), np.float32(255.0), out=out[i, DESCRIPTOR_LEN:], dtype=np.float32)
    return list(out)


DESCRIPTOR_LEN = (GLYPH // CELL - 1) ** 2 * 4 * BINS + 12 * 12 + 3  # the hand-made part of a glyph's features


def canvas_of(features: np.ndarray) -> np.ndarray:
    """The CNN reader's input (N × 1 × CANVAS × CANVAS, ink 1, paper 0) from glyph features."""
    f = np.atleast_2d(np.asarray(features, np.float32))
    return f[:, DESCRIPTOR_LEN : DESCRIPTOR_LEN + CANVAS * CANVAS].reshape(-1, 1, CANVAS, CANVAS)


def _percentiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    hist = level_counts(values).cumsum()
    total = float(hist[-1])
    return np.searchsorted(hist, [q / 100.0 * total for q in qs]).astype(float).tolist()  # type: ignore[no-any-return]


def level_counts(values: np.ndarray) -> np.ndarray:
    """How many of the uint8 ``values`` are at each level 0-255 (``np.bincount(values.ravel(),
    minlength=256)``, the same counts: ``cv2.calcHist`` counts them in half the time, in float32,
    exact below 2**24 values)."""
    if values.size >= 2**24:
        return np.bincount(values.ravel(), minlength=256)
    if values.ndim != 2:
        values = values.reshape(-1, 1)
    return cv2.calcHist([values], [0], None, [256], [0, 256]).ravel().astype(np.int64)


def darker_than(lo: np.ndarray, level: float) -> np.ndarray:
    """``(lo < level).astype(np.uint8)`` of a uint8 image, as one ``cv2.threshold``: below a level
    ``level`` the whole levels up to ``ceil(level) - 1`` are."""
    return cv2.threshold(lo, float(np.ceil(level) - 1), 1, cv2.THRESH_BINARY_INV)[1]


def ink_components(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(ink, connectivity=8)``'s count, labels and stats. The labels
    of an image of fewer than 2**16 pixels fit 16 bits: the same labels, made in half the time."""
    ltype = cv2.CV_16U if ink.size < 2**16 else cv2.CV_32S
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8, ltype=ltype)
    return n, labels, stats


def interpolated_percentiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """``np.percentile(values, qs)`` (its default, linear method) of uint8 ``values``, to the last bit,
    from a histogram: a few times faster on a corner patch, where it is asked about a hundred times
    a frame. The order statistics are read off the cumulative counts and blended as numpy blends
    them (from the nearer neighbour's side)."""
    v = np.ascontiguousarray(values, np.uint8)
    if v.size == 0:
        raise ValueError("percentiles of no values")
    return percentiles_of_counts(level_counts(v), qs)


def percentiles_of_counts(counts: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """``interpolated_percentiles`` of the uint8 values that ``counts`` (a histogram: how many of
    each level 0-255, as ``cv2.calcHist`` gives it under a mask) holds; at least one."""
    cum = np.asarray(counts).astype(np.int64).ravel().cumsum()
    last = int(cum[-1]) - 1
    if last < 0:
        raise ValueError("percentiles of no values")
    out = []
    for q in qs:
        at = q / 100.0 * last
        i = int(np.floor(at))
        g = at - i
        a = float(np.searchsorted(cum, i, side="right"))
        b = float(np.searchsorted(cum, min(i + 1, last), side="right"))
        out.append(b - (b - a) * (1.0 - g) if g >= 0.5 else a + (b - a) * g)
    return out


def _mean_of(values: np.ndarray, where: np.ndarray) -> float:
    """The mean of small integers ``values`` where ``where`` holds, 0 where nothing is selected.

    The same number as ``float(np.mean(values[where].astype(np.float32)))``: that float32 sum of
    integers is exact (far below 2**24), so the mean is the float32 rounding of the exact quotient.
    """
    mask = where.astype(np.uint8)
    n = cv2.countNonZero(mask)
    if n == 0:
        return 0.0
    total = round(cv2.mean(values, mask)[0] * n)  # cv2's double sum of integers is exact
    return float(np.float32(total / n))


def segment_index(patch: np.ndarray, *, from_right: bool = False) -> IndexGlyphs | None:
    """Split the index of an upright corner patch into rank and suit glyphs, or ``None`` if no index.
    ``from_right`` looks for the index column at the patch's right edge (a four-index deck's top-right
    index); boxes are then in the mirrored patch's pixels, the glyphs as printed."""
    if from_right:
        patch = patch[:, ::-1]
    b, g, r = cv2.split(patch)
    lo = cv2.min(cv2.min(b, g), r)
    dark, paper_level, white = _percentiles(lo, (3, 70, 90))
    if white - dark < 40:
        return None
    otsu, _ = cv2.threshold(lo, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, labels, stats = ink_components(darker_than(lo, min(otsu, white - 30.0)))
    rows: list[list[int]] = stats.tolist()
    min_h = 0.05 * PX
    comps = []
    for i in range(1, n):
        x, y, w, h, area = rows[i]
        if area < 10 or h < min_h:
            continue
        if x <= 0 or y <= 0:  # beyond the card's edge, or the edge's shadow
            continue
        if h > 0.45 * PX or w > 0.3 * PX:  # art, a frame line, the table
            continue
        comps.append((i, x, y, w, h))
    if not comps:
        return None
    column = [c for c in comps if c[1] + c[3] / 2 < 0.22 * PX and c[2] < 0.32 * PX and c[4] >= 0.065 * PX]
    if not column:
        return None
    seed = min(column, key=lambda c: c[2])
    members = [seed]
    for c in comps:
        if c is seed:
            continue
        aligned = abs(c[2] - seed[2]) < 0.2 * seed[4] and abs(c[2] + c[4] - seed[2] - seed[4]) < 0.2 * seed[4]
        gap = max(c[1] - (seed[1] + seed[3]), seed[1] - (c[1] + c[3]))
        narrow = c[3] < 0.85 * seed[4] and seed[3] < 0.85 * seed[4]  # both halves of a "10" are narrow
        if aligned and narrow and gap < 0.3 * seed[4]:
            members.append(c)
    rx0 = min(c[1] for c in members)
    ry0 = min(c[2] for c in members)
    rx1 = max(c[1] + c[3] for c in members)
    ry1 = max(c[2] + c[4] for c in members)
    halves = len(members)  # two for a "10" joined from its halves
    # pieces of the same glyph cut off by thin strokes (a serif K's arm): small ink within its box
    taken = {c[0] for c in comps}
    for i in range(1, n):
        x, y, w, h, area = rows[i]
        if i in taken or area < 3 or x <= 0 or y <= 0:
            continue
        if x >= rx0 - 2 and y >= ry0 - 2 and x + w <= rx1 + 2 and y + h <= ry1 + 2:
            members.append((i, x, y, w, h))
    rx0 = min(c[1] for c in members)
    ry0 = min(c[2] for c in members)
    rx1 = max(c[1] + c[3] for c in members)
    ry1 = max(c[2] + c[4] for c in members)
    rank_h = ry1 - ry0
    below = [
        c
        for c in comps
        if c not in members
        and c[2] >= ry1 - 0.01 * PX
        and c[1] < seed[1] + seed[3] + 0.03 * PX
        and c[1] + c[3] > seed[1] - 0.03 * PX
        and c[2] - ry1 < 0.6 * rank_h
    ]
    if not below:
        # small indices (some decks print the index tiny, well apart): a suit-sized glyph up to a
        # rank's height further down the column
        below = [
            c
            for c in comps
            if c not in members
            and c[2] >= ry1
            and c[2] - ry1 < 1.2 * rank_h
            and 0.4 * rank_h <= c[4] <= 1.2 * rank_h
            and c[3] <= 1.6 * max(rx1 - rx0, 0.5 * rank_h)
            and abs((c[1] + c[3] / 2) - (rx0 + rx1) / 2) < 0.5 * max(rx1 - rx0, c[3])
        ]
    suit_c = min(below, key=lambda c: c[2]) if below else None
    # a rank touching its suit (blur, a low-resolution or heavy-stroked index) is one tall component:
    # cut it at the thinnest row of its middle, where the two glyphs meet
    one_piece = labels[ry0:ry1, rx0:rx1] == seed[0] if suit_c is None and halves == 1 else None
    neck = _neck(one_piece) if one_piece is not None else None
    cuts = _cuts(one_piece) if one_piece is not None and neck is None else []

    scale = max(white - dark, 1.0)
    red = cv2.subtract(r, cv2.max(b, g), dtype=cv2.CV_16S)  # how much redder than blue or green
    cast = _mean_of(red, lo >= paper_level) / scale

    def glyph(lbls: list[int], box: tuple[int, int, int, int]) -> tuple[np.ndarray, float]:
        """The glyph's own ink cut to ``box``, and its redness."""
        x, y, w, h = box
        x0, y0 = max(x - 1, 0), max(y - 1, 0)
        x1, y1 = min(x + w + 1, lo.shape[1]), min(y + h + 1, lo.shape[0])
        sub = labels[y0:y1, x0:x1]
        if len(lbls) == 1:
            own = sub == lbls[0]
        else:
            wanted = np.zeros(n, bool)
            wanted[lbls] = True
            own = wanted[sub]
        sel = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        soft = np.clip((white - lo[y0:y1, x0:x1].astype(np.float32)) / scale, 0, 1)
        ink = (soft * sel * 255).astype(np.uint8)  # the glyph's own ink, in its box grown by a pixel
        own_red = _mean_of(red[y0:y1, x0:x1], own)
        redness = own_red / scale - cast if own.any() else 0.0
        return ink[y - y0 : y - y0 + h, x - x0 : x - x0 + w], redness

    rank_labels = [c[0] for c in members]
    parts: list[tuple[list[int], tuple[int, int, int, int]]]
    if neck is not None:  # the rank above the neck, the suit below it, both of the one component
        (tx, ty, tw, th), (bx, by, bw, bh) = neck
        parts = [(rank_labels, (rx0 + tx, ry0 + ty, tw, th)), ([seed[0]], (rx0 + bx, ry0 + by, bw, bh))]
    else:
        parts = [(rank_labels, (rx0, ry0, rx1 - rx0, ry1 - ry0))]
        if len(members) > 1:
            parts.append(([seed[0]], (seed[1], seed[2], seed[3], seed[4])))
        if suit_c:
            parts.append(([suit_c[0]], (suit_c[1], suit_c[2], suit_c[3], suit_c[4])))
    for (tx, ty, tw, th), (bx, by, bw, bh) in cuts:  # each tried cut: a rank and a suit, both of the seed
        parts += [([seed[0]], (rx0 + tx, ry0 + ty, tw, th)), ([seed[0]], (rx0 + bx, ry0 + by, bw, bh))]
    cut = [glyph(lbls, box) for lbls, box in parts]
    # the column was found on the mirrored patch; the glyphs are read as printed (a J mirrored reads as a 3)
    crops = [c[:, ::-1] if from_right else c for c, _ in cut]
    glyphs = [
        Glyph(box, features, redness)
        for (_, box), (_, redness), features in zip(parts, cut, _describe_crops(crops), strict=True)
    ]
    tried = glyphs[len(glyphs) - 2 * len(cuts) :] if cuts else []
    glyphs = glyphs[: len(glyphs) - 2 * len(cuts)]
    rank = glyphs[0]
    alternatives = (glyphs[1],) if len(members) > 1 and neck is None else ()
    suit = glyphs[-1] if suit_c or neck is not None else None
    splits = tuple((tried[i], tried[i + 1]) for i in range(0, len(tried), 2))
    return IndexGlyphs(rank, suit, (white - dark) / 255.0, alternatives, splits)


Boxes = tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
# where a tall glyph may be a rank over its suit: its rows between these shares of its height
NECK_BAND = (0.35, 0.75)
MAX_CUTS = 3  # the narrowest rows of that band tried where no neck is thin enough to be sure of


def _neck(mask: np.ndarray) -> Boxes | None:
    """Where one glyph's ink ``mask`` (cut to its box) is two stacked glyphs joined by a thin neck: the
    boxes (x, y, w, h, in the mask's pixels) above and below its thinnest row in ``NECK_BAND`` of its
    height, or None. Only a component at least 1.6 times as tall as wide is looked at (a rank over
    its suit; a lone rank is seldom that narrow), and the neck must be at most 0.35 of the widest row
    of the narrower part."""
    if not _may_be_two(mask):
        return None
    rows = mask.sum(axis=1)
    lo, hi = (int(f * mask.shape[0]) for f in NECK_BAND)
    k = lo + int(np.argmin(rows[lo:hi]))
    if rows[k] > 0.35 * min(rows[:k].max(), rows[k + 1 :].max()):  # k >= 4: both parts have rows
        return None
    return _cut_at(mask, k)


def _cuts(mask: np.ndarray) -> list[Boxes]:
    """A tall glyph's ink ``mask`` cut at each of its ``MAX_CUTS`` narrowest rows in ``NECK_BAND`` that
    are narrower than the rows on either side of them (a heavy stroke meets its suit at a neck too
    wide to be sure of: which cut is right, the glyph readers tell)."""
    if not _may_be_two(mask):
        return []
    rows = mask.sum(axis=1)
    lo, hi = (int(f * mask.shape[0]) for f in NECK_BAND)
    inner = range(max(lo, 1), min(hi, len(rows) - 1))
    dips = [k for k in inner if rows[k] <= rows[k - 1] and rows[k] <= rows[k + 1]]
    chosen: list[int] = []
    for k in sorted(dips, key=lambda k: (rows[k], k)):
        if all(abs(k - c) > 1 for c in chosen):
            chosen.append(k)
        if len(chosen) == MAX_CUTS:
            break
    return [b for k in chosen if (b := _cut_at(mask, k)) is not None]


def _may_be_two(mask: np.ndarray) -> bool:
    h, w = mask.shape
    return h >= 1.6 * w and h >= 12


def _cut_at(mask: np.ndarray, k: int) -> Boxes | None:
    """The boxes of the ink above and below row ``k`` (which is left out), or None if either is bare."""
    boxes = []
    for part, off in ((mask[:k], 0), (mask[k + 1 :], k + 1)):
        ys, xs = np.nonzero(part)
        if len(ys) < 4:
            return None
        x0, y0 = int(xs.min()), int(ys.min())
        boxes.append((x0, off + y0, int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1))
    return boxes[0], boxes[1]


def white_balance_redness(patch: np.ndarray) -> float:
    """How red the card stock itself looks (to subtract a colour cast from the ink's redness)."""
    lo = min_channel(patch)
    white = lo >= np.percentile(lo, 70)
    px = patch[white].astype(np.float32)
    if px.size == 0:
        return 0.0
    return float(np.mean(px[:, 2] - np.maximum(px[:, 0], px[:, 1]))) / 255.0


def letter_column(patch: np.ndarray) -> int:
    """How many letter-sized glyphs stand stacked down the index column of an upright corner patch.

    A rank-over-suit index gives two; a joker spelling "JOKER" down its corner gives four or five
    (the O and the R may merge or break, so a caller should ask for at least four).
    """
    lo = min_channel(patch)
    dark, white = _percentiles(lo, (3, 90))
    if white - dark < 40:
        return 0
    otsu, _ = cv2.threshold(lo, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, _, stats = ink_components(darker_than(lo, min(otsu, white - 30.0)))
    boxes = [
        (x, y, w, h)
        for x, y, w, h, area in stats[1:].tolist()
        if area >= 8
        and x > 0
        and y > 0
        and 0.035 * PX <= h <= 0.13 * PX
        and w <= 0.14 * PX
        and x + w / 2 < 0.24 * PX
    ]
    boxes.sort(key=lambda b: b[1])
    best = 0
    for i, first in enumerate(boxes):
        if first[1] > 0.25 * PX:
            break
        chain = [first]
        for b in boxes[i + 1 :]:
            last = chain[-1]
            cx, lx = b[0] + b[2] / 2, last[0] + last[2] / 2
            gap = b[1] - (last[1] + last[3])
            if (
                -0.2 * last[3] <= gap < 0.9 * last[3]
                and abs(cx - lx) < 0.6 * max(b[2], last[2])
                and 0.6 < b[3] / last[3] < 1.6
            ):
                chain.append(b)
        best = max(best, len(chain))
    return best


def is_joker_corner(image: np.ndarray, frame: CornerFrame) -> bool:
    """A joker's index: "JOKER" spelt down the corner instead of a rank over a suit."""
    return letter_column(cut_patch(image, frame)[0]) >= 4


def at_the_edge(box: tuple[tuple[float, float], ...], shape: tuple[int, ...]) -> bool:
    """Whether the index ``box`` (image pixels) reaches within a pixel of the edge of a frame of ``shape``."""
    pts = np.asarray(box, np.float64).reshape(-1, 2)
    h, w = shape[:2]
    return bool((pts < 1).any() or (pts[:, 0] > w - 2).any() or (pts[:, 1] > h - 2).any())


def corner_box(f: CornerFrame) -> tuple[tuple[float, float], ...]:
    """Where an index would lie at corner ``f`` (the patch's index column), in image pixels."""
    m = f.card_to_image()
    box = np.array([[0.02, 0.03], [0.2, 0.03], [0.2, 0.5], [0.02, 0.5]]).reshape(-1, 1, 2)
    return tuple((float(x), float(y)) for x, y in cv2.perspectiveTransform(box, m).reshape(-1, 2))
