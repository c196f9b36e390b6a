"""Find cards in a frame: whole-card quadrilaterals and the right-angle corners of overlapped cards.

Works on a downscaled copy for speed; every coordinate returned is in full-image pixels. A card is
found as a bright, low-saturation region (the card stock) against the table; a region that is a clean
quadrilateral is one whole card, anything else (two-card hands, fans, cards touching) is searched for
card corners, each of which may carry an index.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.frame_copies import resized
from vision.render import CARD_ASPECT


def min_channel(image: np.ndarray) -> np.ndarray:
    """The darkest channel of a BGR image (card stock is bright in all three; ink and felt are not).

    Elementwise minima of the split planes: far faster than ``image.min(axis=2)``, which numpy
    reduces pixel by pixel, and than minima of strided channel views. A crop of a frame is copied
    whole first: ``cv2.split`` of a strided crop takes longer than the copy and the split together.
    """
    if image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8 and image.size:
        b, g, r = cv2.split(np.ascontiguousarray(image))
        return cv2.min(cv2.min(b, g), r)  # type: ignore[no-any-return]
    return np.minimum(np.minimum(image[..., 0], image[..., 1]), image[..., 2])


def _norm(v: np.ndarray) -> np.floating:
    """``np.linalg.norm`` of a vector, the very same number, without its generic argument handling
    (it is called a few hundred times per frame on 2-vectors)."""
    v = v.ravel(order="K")
    return np.sqrt(v.dot(v))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class CornerFrame:
    """A card corner: ``origin`` plus unit ``x``/``y`` axes along its two edges, and the card width.

    The axes form a right-handed frame in image coordinates (x cross y > 0), so a top-left index seen
    through this frame is upright. ``homography`` (when the whole card is known) maps card units
    (card width = 1) to image pixels starting at this corner.
    """

    origin: np.ndarray
    x: np.ndarray
    y: np.ndarray
    width: float
    homography: np.ndarray | None = None

    def card_to_image(self) -> np.ndarray:
        """3×3 matrix taking card units (width 1, measured from this corner) to image pixels."""
        if self.homography is not None:
            return self.homography
        w = self.width
        return np.array(
            [
                [self.x[0] * w, self.y[0] * w, self.origin[0]],
                [self.x[1] * w, self.y[1] * w, self.origin[1]],
                [0.0, 0.0, 1.0],
            ]
        )


def frame_key(f: CornerFrame) -> tuple[bytes, ...]:
    """``f`` as a key: two frames of the same corner, axes, width and card map are one key."""
    hom = b"" if f.homography is None else np.asarray(f.homography, np.float64).tobytes()
    return (
        np.asarray(f.origin, np.float64).tobytes(),
        np.asarray(f.x, np.float64).tobytes(),
        np.asarray(f.y, np.float64).tobytes(),
        np.float64(f.width).tobytes(),
        hom,
    )


_FROM = [[(k + i) % 4 for i in range(4)] for k in range(4)]  # the corners from corner k on
# a card's unit outline (card widths) seen from an index corner, and from the next corner
_UPRIGHT = np.array([[0, 0], [1, 0], [1, CARD_ASPECT], [0, CARD_ASPECT]], np.float32)
_ALONG = np.array([[0, 0], [CARD_ASPECT, 0], [CARD_ASPECT, 1], [0, 1]], np.float32)


@dataclass(frozen=True)
class CardQuad:
    """A whole card: four corners in image pixels, clockwise on screen, starting at a short side."""

    corners: np.ndarray  # (4, 2)

    # measured once per quad (the finders compare and sort quads by their size many times)
    @cached_property
    def width(self) -> float:
        c = self.corners
        return float((_norm(c[1] - c[0]) + _norm(c[3] - c[2])) / 2)

    @cached_property
    def height(self) -> float:
        c = self.corners
        return float((_norm(c[2] - c[1]) + _norm(c[0] - c[3])) / 2)

    def frame(self, k: int) -> CornerFrame:
        """The corner frame at corner ``k``: k = 0, 2 are index corners (x along a short side)."""
        c = self.corners[_FROM[k % 4]]
        x = c[1] - c[0]
        y = c[3] - c[0]
        # at an odd corner x runs along a long side: the card's own "up" is this frame's x
        src = _UPRIGHT if k % 2 == 0 else _ALONG
        h = cv2.getPerspectiveTransform(src, c.astype(np.float32))
        w = float(_norm(x)) if k % 2 == 0 else float(_norm(y))
        return CornerFrame(c[0], x / _norm(x), y / _norm(y), w, h)


@dataclass(frozen=True)
class Blob:
    """A connected bright region that is not one clean card: its outline and candidate corners."""

    outline: np.ndarray  # (N, 2) full-image pixels
    corners: tuple[CornerFrame, ...]


@dataclass(frozen=True)
class Detection:
    quads: tuple[CardQuad, ...]
    blobs: tuple[Blob, ...]
    scale: float  # full / small
    # quads only one of two finders saw: they count as cards (and hide corners inside them) only
    # when their index reads; a merged hand taken for one card must not hide the hand's corners
    tentative: tuple[CardQuad, ...] = ()


def mask_makers(small: np.ndarray) -> list[Callable[[], np.ndarray]]:
    """Makers of candidate masks of card stock, tried in order until every bright region is explained.

    The first splits the frame by Otsu's threshold on the darkest channel; when the table itself is
    light (a grey desk), that split falls between ink and everything else, so the second splits the
    bright class again, and the third takes regions enclosed by strong edges (robust to lighting
    gradients).
    """
    lo = cv2.GaussianBlur(min_channel(small), (5, 5), 0)
    kernel = np.ones((3, 3), np.uint8)
    t1, _ = cv2.threshold(lo, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)

    def first() -> np.ndarray:
        return cv2.morphologyEx((lo > t1).astype(np.uint8) * 255, cv2.MORPH_OPEN, kernel)

    def second() -> np.ndarray:
        upper = lo[lo > t1]
        t2 = t1
        if upper.size > 1000:
            t2, _ = cv2.threshold(upper.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        return cv2.morphologyEx((lo > t2).astype(np.uint8) * 255, cv2.MORPH_OPEN, kernel)

    return [first, second, lambda: edge_mask(lo)]


def edge_mask(lo: np.ndarray) -> np.ndarray:
    """Regions enclosed by strong edges: survives lighting gradients that defeat a global threshold."""
    edges = cv2.Canny(lo, 20, 60)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(lo)
    cv2.drawContours(filled, contours, -1, 255, -1)
    return cv2.erode(filled, np.ones((3, 3), np.uint8))


def _order_clockwise(pts: np.ndarray) -> np.ndarray:
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    return pts[np.argsort(ang)]  # image y points down, so increasing angle is clockwise on screen


def _line_intersection(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    den = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(den) < 1e-6:
        return None
    t = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den
    return p1 + t * d1


def _refine_quad(contour: np.ndarray, approx: np.ndarray) -> np.ndarray:
    """Fit a straight line to the middle of each side and intersect them (ignores rounded corners)."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    a = np.asarray(approx, np.float64)
    d = np.roll(a, -1, axis=0) - a  # side i runs from corner i to corner i + 1
    length = np.sqrt((d * d).sum(axis=1))
    if (length < 1).any():
        return approx
    u = d / length[:, None]
    # every contour point's place along and distance from all four sides at once
    rx = pts[None, :, 0] - a[:, 0, None]
    ry = pts[None, :, 1] - a[:, 1, None]
    t = rx * u[:, 0, None] + ry * u[:, 1, None]
    dist = np.abs(rx * u[:, 1, None] - ry * u[:, 0, None])
    on_side = (
        (t > 0.15 * length[:, None])
        & (t < 0.85 * length[:, None])
        & (dist < np.maximum(3.0, 0.05 * length)[:, None])
    )
    lines = []
    for i in range(4):
        sel = pts[on_side[i]]
        if len(sel) < 5:
            lines.append((a[i], u[i]))
            continue
        vx, vy, x0, y0 = cv2.fitLine(sel.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], float), np.array([vx, vy], float)))
    out = []
    for i in range(4):
        p = _line_intersection(lines[i - 1][0], lines[i - 1][1], lines[i][0], lines[i][1])
        if p is None or _norm(p - approx[i]) > 0.2 * _norm(approx[i] - approx[(i + 1) % 4]):
            p = approx[i]
        out.append(p)
    return np.array(out)


def _as_quad(corners: np.ndarray) -> CardQuad:
    c = _order_clockwise(corners)
    if _norm(c[1] - c[0]) > _norm(c[2] - c[1]):  # start on a short side
        c = np.roll(c, -1, axis=0)
    return CardQuad(c)


def blob_corners(contour: np.ndarray, card_width: float, scale: float) -> list[CornerFrame]:
    """Right-angle convex corners along a region's outline (``contour`` and ``card_width`` in the
    pixels it was traced at), each as a corner frame in full-image pixels (those times ``scale``)."""
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(1.5, 0.006 * peri), True).reshape(-1, 2).astype(np.float64)
    shoelace = float(np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1]))
    if shoelace < 0:  # make it clockwise on screen, so convex corners turn right
        poly = poly[::-1]
    n = len(poly)
    if n < 3:
        return []
    seg = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    min_long = 0.22 * card_width
    long_idx = [i for i, (a, b) in enumerate(seg) if _norm(b - a) >= min_long]
    frames: list[CornerFrame] = []
    for k, i in enumerate(long_idx):
        j = long_idx[(k + 1) % len(long_idx)]
        between = 0.0
        m = (i + 1) % n
        while m != j:
            between += float(_norm(seg[m][1] - seg[m][0]))
            m = (m + 1) % n
        if between > 0.2 * card_width or i == j:
            continue
        a0, a1 = seg[i]
        b0, b1 = seg[j]
        di = (a1 - a0) / _norm(a1 - a0)
        dj = (b1 - b0) / _norm(b1 - b0)
        cross = di[0] * dj[1] - di[1] * dj[0]
        if cross < np.sin(np.radians(65)):  # must turn clockwise on screen by about 90 degrees (convex)
            continue
        p = _line_intersection(a0, di, b0, dj)
        if p is None or _norm(p - a1) > 0.25 * card_width:
            continue
        x = dj
        y = -di
        frames.append(CornerFrame(p * scale, x, y, card_width * scale))
    return frames


# a bright region longer than this many card widths is no hand, fan, row or pile of cards (those
# span a few) but the table's grain or a lamp's glare: it is not traced again at full resolution,
# where it gave a 24 MP photo of 150-px cards on light wood some 1,800 corner frames to read (1.2 s
# of its 1.3 s; session 22: on the benchmark sets one false card fewer, no other card changed)
MAX_SPREAD = 10.0
# full-resolution pixels per card width from which a region is traced at a whole fraction of full
# resolution, the card FINE_WIDTH to twice that wide there: a one-pixel stub is 0.004 card widths
# at that size, and tracing a big region at full resolution cost a 24 MP photo up to 0.2 s
FINE_WIDTH = 240


def _fine_corners(
    image: np.ndarray, contour: np.ndarray, card_width: float, scale: float
) -> list[CornerFrame]:
    """Card corners of a merged region traced again at full resolution, one visible edge being enough.

    In a fan or a tight hand most corners show only a short stub of one edge (the next card covers
    the rest), too short to see at the working resolution. The region is cut out of the full frame,
    split from the table by Otsu's threshold there, and every convex turn of about 90 degrees whose
    longer edge is at least 0.15 card widths becomes a corner frame aligned with that edge. Cards
    more than twice ``FINE_WIDTH`` wide at full resolution are traced on the cut shrunk by a whole
    factor (area averaged), to between one and two ``FINE_WIDTH``.
    """
    x, y, w, h = cv2.boundingRect(contour)
    m = int(0.15 * card_width) + 2
    x0, y0 = max(0, int((x - m) * scale)), max(0, int((y - m) * scale))
    x1 = min(image.shape[1], int((x + w + m) * scale))
    y1 = min(image.shape[0], int((y + h + m) * scale))
    k = max(1, int(card_width * scale // FINE_WIDTH))  # full-resolution pixels per traced pixel
    c = image[y0 : y0 + (y1 - y0) // k * k, x0 : x0 + (x1 - x0) // k * k]
    if c.size == 0:
        return []
    if k > 1:  # a whole factor: area averaging's fast path
        c = cv2.resize(c, (c.shape[1] // k, c.shape[0] // k), interpolation=cv2.INTER_AREA)
    full_width = card_width * scale
    scale /= k
    crop = cv2.GaussianBlur(min_channel(c), (5, 5), 0)
    _, mask = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    region = np.zeros(crop.shape, np.uint8)  # only this region, not a neighbour inside the same box
    cv2.drawContours(region, [(contour * scale - [x0 / k, y0 / k]).astype(np.int32)], -1, 255, -1)
    own = cv2.dilate(region, np.ones((3, 3), np.uint8), iterations=max(2, int(scale) + 1))
    mask = cv2.bitwise_and(mask, own)
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cnts:
        return []
    cnt = max(cnts, key=cv2.contourArea)
    cw = card_width * scale
    poly = cv2.approxPolyDP(cnt, max(1.5, 0.015 * cw), True).reshape(-1, 2).astype(np.float64)
    shoelace = float(np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1]))
    if shoelace < 0:
        poly = poly[::-1]
    n = len(poly)
    if n < 3:
        return []
    seg = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    lens = [float(_norm(b - a)) for a, b in seg]
    dirs = [(b - a) / max(ln, 1e-9) for (a, b), ln in zip(seg, lens, strict=True)]

    def turn(d0: np.ndarray, d1: np.ndarray) -> float:
        return float(d0[0] * d1[1] - d0[1] * d1[0])  # > 0: a right turn on screen (convex)

    def neighbour(i: int, step: int) -> int | None:
        """The first segment of some length before (-1) or after (+1) segment i, within a short reach."""
        reach = 0.0
        q = (i + step) % n
        while q != i and reach <= 0.12 * cw:
            if lens[q] >= 0.025 * cw:
                return q
            reach += lens[q]
            q = (q + step) % n
        return None

    def corner_point(a: int, b: int, vertex: np.ndarray) -> np.ndarray:
        """Where the lines of edges a and b meet (the corner a rounded card would have had)."""
        if turn(dirs[a], dirs[b]) < np.sin(np.radians(60)):
            return vertex
        p = _line_intersection(seg[a][0], dirs[a], seg[b][0], dirs[b])
        return vertex if p is None or _norm(p - vertex) > 0.12 * cw else p

    def full(p: np.ndarray) -> np.ndarray:
        """A point of the traced cut in full-image pixels."""
        return p + [x0, y0] if k == 1 else (p + 0.5) * k - 0.5 + [x0, y0]

    found: list[tuple[float, CornerFrame]] = []
    for i in range(n):
        if lens[i] < 0.1 * cw:
            continue
        d = dirs[i]
        inward = np.array([-d[1], d[0]])  # the region lies to the right of a clockwise outline
        after, before = neighbour(i, 1), neighbour(i, -1)
        # the card corner at the edge's end: the outline turns into the card's next side
        if after is not None and turn(d, dirs[after]) > np.sin(np.radians(20)):
            ya = -d
            p = corner_point(i, after, seg[i][1])
            found.append((lens[i], CornerFrame(full(p), np.array([ya[1], -ya[0]]), ya, full_width)))
        # the card corner at the edge's start: the outline came down the card's previous side
        if before is not None and turn(dirs[before], d) > np.sin(np.radians(20)):
            p = corner_point(before, i, seg[i][0])
            found.append((lens[i], CornerFrame(full(p), d, inward, full_width)))
    # one corner seen from both of its edges: a frame from a short stub (its direction poorly
    # measured) gives way to one from a longer edge; two well measured frames both stay
    frames: list[CornerFrame] = []
    for length, f in sorted(found, key=lambda t: -t[0]):
        if not 2 < f.origin[0] < image.shape[1] - 3 or not 2 < f.origin[1] < image.shape[0] - 3:
            continue
        if length >= 0.25 * cw or not any(
            _norm(f.origin - g.origin) < 0.1 * full_width and float(f.x @ g.x) > 0.95 for g in frames
        ):
            frames.append(f)
    return frames


def _merge_frames(frames: list[CornerFrame], extra: list[CornerFrame]) -> list[CornerFrame]:
    """``frames`` plus those of ``extra`` not already there (same place and direction)."""
    out = list(frames)
    for f in extra:
        if not any(_norm(f.origin - g.origin) < 0.1 * g.width and float(f.x @ g.x) > 0.9 for g in out):
            out.append(f)
    return out


def _resolve_quads(quads: list[CardQuad]) -> list[CardQuad]:
    """Drop duplicates, a face card's inner frame, and unions of cards lying edge to edge.

    Two quads with the same centre are one card (found twice, or its inner frame): keep the larger.
    A quad holding another quad's centre away from its own centre is two touching cards whose outline
    happens to be card-shaped (two cards side by side are 2w × 1.4w): drop it.
    """
    quads = sorted(quads, key=lambda q: -q.width * q.height)
    widths = [q.width for q in quads]
    areas = [w * q.height for w, q in zip(widths, quads, strict=True)]
    centres = [q.corners.mean(axis=0) for q in quads]
    polys = [q.corners.astype(np.float32).reshape(-1, 1, 2) for q in quads]
    keep: list[int] = []
    for i in range(len(quads)):
        union = any(
            j != i
            and areas[j] < 0.8 * areas[i]
            and _norm(centres[j] - centres[i]) > 0.3 * widths[i]
            and cv2.pointPolygonTest(polys[i], (float(centres[j][0]), float(centres[j][1])), False) >= 0
            for j in range(len(quads))
        )
        if union:
            continue
        if any(_norm(centres[i] - centres[k]) < 0.3 * widths[k] for k in keep):
            continue
        keep.append(i)
    return [quads[i] for i in keep]


def _explained(contour: np.ndarray, quads: list[CardQuad], scale: float) -> bool:
    """Whether a region is just the whole cards found inside it (nothing else left to search)."""
    inside = [
        q
        for q in quads
        if cv2.pointPolygonTest(contour, tuple(float(v) for v in q.corners.mean(axis=0) / scale), False) >= 0
    ]
    if not inside:
        return False
    covered = sum(q.width * q.height for q in inside) / (scale * scale)
    return cv2.contourArea(contour) < 1.25 * covered


def detect_cards(
    image: np.ndarray,
    *,
    work_width: int = 640,
    min_card_fraction: float = 0.03,
    card_width_hint: float | None = None,
    fine_corners: bool = True,
) -> Detection:
    """Find whole cards and corner candidates.

    ``min_card_fraction`` is the smallest card width accepted, as a fraction of the frame width.
    ``card_width_hint`` (full-image pixels) sets the corner scale for overlapped cards when no
    whole card is visible in the frame. ``fine_corners`` also traces merged regions again at full
    resolution for corners that show only one short edge (fans, tight hands).
    """
    h, w = image.shape[:2]
    scale = max(1.0, w / work_width)
    small = resized(image, (int(round(w / scale)), int(round(h / scale)))) if scale > 1.0 else image
    sw = small.shape[1]
    min_w = max(12.0, min_card_fraction * sw)
    min_area = min_w * min_w * CARD_ASPECT * 0.5
    quads: list[CardQuad] = []
    others: list[np.ndarray] = []
    for level, make_mask in enumerate(mask_makers(small)):
        if level > 0 and quads and not others:
            break  # the plain threshold explained every bright region
        mask = make_mask()
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for cnt in contours:
            area = cv2.contourArea(cnt)
            if area < min_area:
                continue
            hull = cv2.convexHull(cnt)
            hull_area = cv2.contourArea(hull)
            approx = (
                cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(float)
            )
            (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
            aspect = max(rw, rh) / max(1e-6, min(rw, rh))
            if (
                len(approx) == 4
                and area > 0.92 * hull_area
                and area > 0.88 * rw * rh
                and 1.15 < aspect < 1.85
                and min(rw, rh) >= min_w
            ):
                if area > 0.85 * small.shape[0] * small.shape[1]:
                    continue  # the whole frame's border, not a card
                quads.append(_as_quad(_refine_quad(cnt, approx) * scale))
            elif hull_area > 1.3 * min_area and level == 0:
                others.append(cnt)
    quads = _resolve_quads(quads)
    if len(quads) >= 3:  # a quad far off the usual card size is a doubtful split of touching cards
        typical = float(np.median([q.width for q in quads]))
        sure = [q for q in quads if 0.85 * typical < q.width < 1.15 * typical]
    else:
        sure = quads
    others = [c for c in others if not _explained(c, sure, scale)]
    if card_width_hint is not None:
        cw = card_width_hint / scale
    elif quads:
        cw = float(np.median([q.width for q in quads])) / scale
    else:
        cw = 0.0
    blobs: list[Blob] = []
    for cnt in others:
        width = cw
        if width <= 0:
            peri = cv2.arcLength(cnt, True)
            poly = cv2.approxPolyDP(cnt, 0.01 * peri, True).reshape(-1, 2).astype(float)
            longest = max(float(_norm(poly[i] - poly[i - 1])) for i in range(len(poly)))
            width = longest / CARD_ASPECT
        if width < min_w:
            continue
        frames = [
            f
            for f in blob_corners(cnt, width, scale)
            if 2 * scale < f.origin[0] < w - 2 * scale and 2 * scale < f.origin[1] < h - 2 * scale
        ]
        if fine_corners and max(cv2.boundingRect(cnt)[2:]) <= MAX_SPREAD * width:
            frames = _merge_frames(_fine_corners(image, cnt, width, scale), frames)  # fine ones first
        if frames:
            blobs.append(Blob(cnt.reshape(-1, 2).astype(float) * scale, tuple(frames)))
    return Detection(tuple(quads), tuple(blobs), scale)
