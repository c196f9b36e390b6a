"""The learned card finder: a small network run with ``cv2.dnn`` on a downscaled copy of the frame.

The network (``vision/models/finder.onnx``, trained only on the project's synthetic scenes, see
``vision/models/FINDER.md``) maps a frame to maps at a quarter of its input resolution: card
interior, card boundary, index centres, and, at every index centre, the reading frame of that card
corner: where the corner is and the card's two edge vectors from it (the local affine of the card).

* :func:`index_frames` — every visible index: peaks of the index map, each with the corner frame
  the network regressed there, in full-image pixels, to be read upright (or sideways, for the
  mirrored index of a four-index deck) at full resolution. No contour has to survive: a card that
  is overlapped, under a chip or cut by the frame edge is found wherever one index shows.
* :func:`find_cards` — whole-card quads where the interior map holds a clean card piece (backs,
  jokers and faces whose index the network missed), snapped to the full-resolution edges.

The finder sees a 640×480 webcam frame and a 24-megapixel photo at the same working size.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.detect import CardQuad, CornerFrame, Detection, _as_quad, _norm, _refine_quad, _resolve_quads
from vision.errors import VisionError
from vision.frame_copies import resized
from vision.onnx_nets import thread_net
from vision.render import CARD_ASPECT

MODEL_PATH = Path(__file__).resolve().parent / "models" / "finder.onnx"
STRIDE = 4  # the maps are at a quarter of the input resolution
MULTIPLE = 32  # the network downsamples five times
_MAPS = 3  # interior, boundary, index (logits); then the corner regression
_REG = 7  # corner offset, short-edge vector, long-edge vector (per card width), log card width


@dataclass(frozen=True)
class FinderMaps:
    """One forward pass: probabilities (3, h, w) and the raw corner regression (7, h, w) at
    ``STRIDE`` of the network input, which was the frame scaled by 1 / ``scale``."""

    prob: np.ndarray
    reg: np.ndarray
    scale: float
    size: tuple[int, int]  # network input (w, h) before padding


@dataclass(frozen=True)
class IndexFrame:
    """A visible index and the reading frame of its card corner (full-image pixels).

    ``frame.homography`` is the card's local affine at the corner (card widths → pixels);
    ``sideways`` says the corner is a four-index deck's mirrored one, read across the long edge.
    """

    frame: CornerFrame
    sideways: bool
    score: float

    def outline(self) -> np.ndarray:
        """The card's four corners implied by the corner's affine, clockwise on screen from a short side."""
        a = CARD_ASPECT
        unit = [(0, 0), (a, 0), (a, 1), (0, 1)] if self.sideways else [(0, 0), (1, 0), (1, a), (0, a)]
        pts = np.array(unit, np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, self.frame.card_to_image()).reshape(-1, 2)
        return np.roll(out, 1, axis=0) if self.sideways else out


def frame_from_vectors(corner: np.ndarray, s: np.ndarray, long: np.ndarray, score: float = 1.0) -> IndexFrame:
    """The reading frame of a card corner from its short-edge vector ``s`` (length = card width)
    and long-edge vector ``long`` (per card width). Right-handed (s, long) on screen is an upright
    index; left-handed is a four-index deck's mirrored corner, read sideways with x along ``long``."""
    corner, s, long = np.asarray(corner, np.float64), np.asarray(s, np.float64), np.asarray(long, np.float64)
    width = float(_norm(s))
    sideways = float(s[0] * long[1] - s[1] * long[0]) < 0
    x, y = (long, s) if sideways else (s, long)
    hom = np.array([[x[0], y[0], corner[0]], [x[1], y[1], corner[1]], [0.0, 0.0, 1.0]])
    frame = CornerFrame(corner, x / _norm(x), y / _norm(y), width, hom)
    return IndexFrame(frame, sideways, score)


class FinderModel:
    """The ONNX network, read once per process (:func:`default_finder`); one ``cv2.dnn`` net per
    thread, since a dnn net is not safe to share between threads."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        if not path.is_file():
            raise VisionError(f"card finder model not found at {path}: expected the shipped finder.onnx")
        self.onnx = path.read_bytes()
        self._local = threading.local()
        try:
            net = self._net()
            net.setInput(np.zeros((1, 3, MULTIPLE, MULTIPLE), np.float32))
            channels = net.forward().shape[1]
        except cv2.error as exc:
            raise VisionError(f"card finder model {path} could not be loaded by cv2.dnn: {exc}") from exc
        if channels != _MAPS + _REG:
            raise VisionError(
                f"card finder model {path} gives {channels} maps: expected {_MAPS + _REG} "
                "(interior, boundary, index and the corner regression)"
            )

    def _net(self) -> cv2.dnn.Net:
        return thread_net(self._local, self.onnx)

    def run(self, image: np.ndarray, long_side: int) -> FinderMaps:
        """The network's maps for ``image`` scaled so that its long side is at most ``long_side``."""
        small = network_input(image, long_side)
        return self.run_scaled(small, image.shape[1] / small.shape[1])

    def run_scaled(self, small: np.ndarray, scale: float) -> FinderMaps:
        """The network's maps for ``small``: a frame as :func:`network_input` scales it, or a part of
        one, ``scale`` full-image pixels per pixel of it."""
        ih, iw = small.shape[:2]
        pw, ph = -iw % MULTIPLE, -ih % MULTIPLE
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        blob = small.astype(np.float32).transpose(2, 0, 1)[None]
        net = self._net()
        net.setInput(np.ascontiguousarray(blob))
        out = net.forward()[0]
        oh, ow = -(-ih // STRIDE), -(-iw // STRIDE)
        prob = 1.0 / (1.0 + np.exp(-out[:_MAPS, :oh, :ow]))
        return FinderMaps(prob, out[_MAPS:, :oh, :ow], scale, (iw, ih))

    def maps(self, image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
        """Probabilities (3, h, w) at the network input size, and full-image pixels per map pixel."""
        m = self.run(image, long_side)
        return upsampled(m), m.scale


def network_input(image: np.ndarray, long_side: int) -> np.ndarray:
    """``image`` as the finder sees it at ``long_side``: scaled so that its long side is at most that
    (at least ``MULTIPLE`` pixels each way), before padding."""
    h, w = image.shape[:2]
    s = min(1.0, long_side / max(h, w))
    iw, ih = max(MULTIPLE, int(round(w * s))), max(MULTIPLE, int(round(h * s)))
    return _shrink(image, iw, ih) if (iw, ih) != (w, h) else image


def _shrink(image: np.ndarray, iw: int, ih: int) -> np.ndarray:
    """``image`` at (iw, ih): halved while it is at least twice too big (a linear halving averages
    2×2 pixels, as area averaging does, and is many times faster on a big frame than area averaging
    by a fractional factor), then linear for the rest (less than 2×)."""
    while image.shape[1] >= 2 * iw and image.shape[0] >= 2 * ih:
        h, w = image.shape[:2]
        image = resized(image, (w // 2, h // 2))
    if image.shape[:2] == (ih, iw):
        return image
    return cv2.resize(image, (iw, ih), interpolation=cv2.INTER_LINEAR)


def upsampled(m: FinderMaps, maps: int = _MAPS) -> np.ndarray:
    """The first ``maps`` probability maps (interior, boundary, index) at the network input size."""
    iw, ih = m.size
    full = (m.prob.shape[2] * STRIDE, m.prob.shape[1] * STRIDE)
    return np.stack([cv2.resize(p, full, interpolation=cv2.INTER_LINEAR)[:ih, :iw] for p in m.prob[:maps]])


@lru_cache(maxsize=1)
def default_finder() -> FinderModel:
    return FinderModel()


def index_frames(m: FinderMaps, min_heat: float = 0.3, most: int = 128) -> list[IndexFrame]:
    """Every index the network sees: local maxima of the index map above ``min_heat`` (the
    ``most`` strongest), each with the corner frame regressed round it (a heat-weighted mean over
    its 3×3 neighbourhood), in full-image pixels. Two peaks that give the same corner are one index."""
    heat = m.prob[2]
    peaks = (heat >= min_heat) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[:most]
    ys, xs = ys[order], xs[order]
    if len(ys) == 0:
        return []
    hp = np.zeros((heat.shape[0] + 2, heat.shape[1] + 2), heat.dtype)  # zero heat outside: no weight
    hp[1:-1, 1:-1] = heat
    rp = np.zeros((m.reg.shape[0], m.reg.shape[1] + 2, m.reg.shape[2] + 2), m.reg.dtype)
    rp[:, 1:-1, 1:-1] = m.reg
    dy, dx = (v.ravel() for v in np.mgrid[-1:2, -1:2])
    gy, gx = ys[:, None] + dy[None], xs[:, None] + dx[None]  # (n, 9) map pixels
    wt = hp[gy + 1, gx + 1].astype(np.float64)
    wt /= wt.sum(axis=1, keepdims=True)
    r = rp[:, gy + 1, gx + 1].astype(np.float64)  # (7, n, 9)
    width = np.exp(np.clip(r[6], -2.0, 8.0))  # input pixels
    cx = ((gx + 0.5) * STRIDE - 0.5 + r[0] * width) * wt
    cy = ((gy + 0.5) * STRIDE - 0.5 + r[1] * width) * wt
    corner = np.stack([cx.sum(1), cy.sum(1)], 1)
    w_in = np.exp((r[6] * wt).sum(1))
    s = np.stack([(r[2] * wt).sum(1), (r[3] * wt).sum(1)], 1)
    long = np.stack([(r[4] * wt).sum(1), (r[5] * wt).sum(1)], 1)
    # the short edge's length from the log width. Where the network hedges between the two edges
    # (they come out much closer than square), the axes are taken square about their bisector:
    # which of them is the short edge only decides whether the index is read upright or sideways
    sn = s / np.maximum(np.linalg.norm(s, axis=1, keepdims=True), 1e-6)
    ln = long / np.maximum(np.linalg.norm(long, axis=1, keepdims=True), 1e-6)
    cross = sn[:, 0] * ln[:, 1] - sn[:, 1] * ln[:, 0]
    hedged = np.abs(cross) < np.sin(np.radians(60))
    bis = sn + ln
    bis /= np.maximum(np.linalg.norm(bis, axis=1, keepdims=True), 1e-6)
    c45 = np.sqrt(0.5)
    ccw = np.stack([bis[:, 0] * c45 + bis[:, 1] * c45, -bis[:, 0] * c45 + bis[:, 1] * c45], 1)  # -45°
    cw = np.stack([bis[:, 0] * c45 - bis[:, 1] * c45, bis[:, 0] * c45 + bis[:, 1] * c45], 1)  # +45°
    right = cross >= 0  # (s, long) right-handed: an upright index
    sq_s = np.where(right[:, None], ccw, cw)
    sq_l = np.where(right[:, None], cw, ccw)
    sn = np.where(hedged[:, None], sq_s, sn)
    ln = np.where(hedged[:, None], sq_l, ln)
    s = sn * w_in[:, None]
    long = ln * np.maximum(np.linalg.norm(long, axis=1), 0.5)[:, None] * w_in[:, None]
    full = (corner + 0.5) * m.scale - 0.5
    right = s[:, 0] * long[:, 1] - s[:, 1] * long[:, 0] >= 0
    # strongest first: a weaker peak giving the same corner as a kept one is the same index.
    # same[i, k]: peak i gives peak k's corner (same handedness, within 0.15 of k's width)
    d = np.hypot(full[:, None, 0] - full[None, :, 0], full[:, None, 1] - full[None, :, 1])
    same = (right[:, None] == right[None, :]) & (d < (0.15 * w_in * m.scale)[None, :])
    kept = np.zeros(len(ys), bool)
    for i in np.flatnonzero(w_in >= 2 * STRIDE).tolist():
        if not same[i][kept].any():
            kept[i] = True
    keep = np.flatnonzero(kept)
    s_full, long_full = s[keep] * m.scale, long[keep] * m.scale
    scores = heat[ys[keep], xs[keep]].tolist()
    return [
        frame_from_vectors(full[i], s_full[j], long_full[j], scores[j]) for j, i in enumerate(keep.tolist())
    ]


def card_pieces(
    prob: np.ndarray, min_area: float, min_w: float
) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Contours of the visible pieces of cards, each with its quad where it is one whole card
    (``_quad_of``), else None.

    Each region of card interior is cut along the boundary map (cards touching, a hand, a fan) and
    each piece regrown to its edges by watershed. Where no piece is a clean card but the region
    itself is one, the cuts were ink edges inside one card (pips, court art): the region is the card.
    """
    interior = (prob[0] > 0.5).astype(np.uint8)
    cnts, _ = cv2.findContours(interior, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out: list[tuple[np.ndarray, np.ndarray | None]] = []
    for c in cnts:
        if cv2.contourArea(c) < min_area:
            continue
        x, y, w, h = cv2.boundingRect(c)
        x0, y0 = max(0, x - 2), max(0, y - 2)
        x1, y1 = min(interior.shape[1], x + w + 2), min(interior.shape[0], y + h + 2)
        own = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(own, [c - [x0, y0]], -1, 1, -1)
        cut = [p + [x0, y0] for p in _split(prob[:, y0:y1, x0:x1], own, min_area)]
        pieces = [(p, _quad_of(p, min_w)) for p in cut]
        if len(pieces) <= 1 or all(q is None for _, q in pieces):  # no card among the pieces
            whole = _quad_of(c, min_w)
            if whole is not None or not pieces:
                pieces = [(c, whole)]
        out += pieces
    return out


def _split(prob: np.ndarray, interior: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Pieces of merged regions: interior cut along the boundary map, regrown by watershed."""
    seeds = ((interior > 0) & (prob[0] > 0.5) & (prob[1] < 0.5)).astype(np.uint8)
    seeds = cv2.morphologyEx(seeds, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, markers, stats, _ = cv2.connectedComponentsWithStats(seeds, connectivity=4)
    if n <= 1:
        return []
    # a seed much smaller than the region it lies in is a piece of a card cut off by ink edges (pips,
    # court art), not a card of its own: it is left for its neighbours to flood
    _, region = cv2.connectedComponents(interior, connectivity=8)
    region_area = np.bincount(region.ravel())
    for k in range(1, n):
        area = stats[k][4]
        r = region[markers == k][0]
        if area < 0.06 * region_area[r] or area < 0.25 * min_area:
            markers[markers == k] = 0
    markers = markers.astype(np.int32)
    background = cv2.dilate(interior, np.ones((3, 3), np.uint8)) == 0
    markers[background] = n  # the table
    relief = np.clip(prob[1] * 255, 0, 255).astype(np.uint8)
    cv2.watershed(cv2.merge([relief, relief, relief]), markers)
    grown = cv2.dilate(interior, np.ones((3, 3), np.uint8))
    out = []
    for k in range(1, n):
        m = (markers == k).astype(np.uint8) & grown
        cnts, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not cnts:
            continue
        c = max(cnts, key=cv2.contourArea)
        if cv2.contourArea(c) >= min_area:
            out.append(c)
    return out


def _quad_of(contour: np.ndarray, min_w: float) -> np.ndarray | None:
    """The four corners of a piece that is one whole card (seen from any angle), else None."""
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(float)
    if len(approx) != 4 or area < 0.86 * hull_area:
        return None
    quad_area = cv2.contourArea(approx.astype(np.float32))
    if area < 0.85 * quad_area:
        return None
    sides = [np.linalg.norm(approx[i] - approx[i - 1]) for i in range(4)]
    short, long = min(sides), max(sides)
    if short < min_w or long / short > 3.2:  # the network says card; the shape only has to be one
        return None
    return _refine_quad(contour, approx)


def find_cards(
    image: np.ndarray,
    *,
    long_side: int = 512,
    min_card_fraction: float = 0.025,
    maps: FinderMaps | None = None,
    model: FinderModel | None = None,
    known: tuple[CardQuad, ...] = (),
) -> Detection:
    """Whole-card quads (full-image pixels) where the interior map holds a clean card piece, outside
    the ``known`` quads (another finder's)."""
    m = maps or (model or default_finder()).run(image, long_side)
    prob = upsampled(m, 2)  # interior and boundary: the index map is not looked at here
    if known:  # the cards another finder has are not looked for again
        prob[0] = prob[0].copy()
        polys = [np.round((k.corners + 0.5) / m.scale - 0.5).astype(np.int32) for k in known]
        cv2.fillPoly(prob[0], polys, 0.0)
    ih, iw = prob.shape[1:]
    min_w = max(4.0, min_card_fraction * max(iw, ih) * 0.6)
    quads: list[CardQuad] = []
    for _, q in card_pieces(prob, min_w * min_w * 0.5, min_w):
        if q is None:
            continue
        full = (q + 0.5) * m.scale - 0.5
        if any(_inside(k, full.mean(axis=0)) for k in known):
            continue
        side = float(min(np.linalg.norm(full - np.roll(full, 1, axis=0), axis=1)))
        reach = max(1.5 * STRIDE * m.scale + 1.0, 0.07 * side)
        for _ in range(2):  # a second pass starts from sides the first one straightened
            full = snap_to_edges(image, full, reach)
        quads.append(_as_quad(full))
    return Detection(tuple(_resolve_quads(quads)), (), m.scale)


def _inside(q: CardQuad, p: np.ndarray) -> bool:
    poly = q.corners.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0


def snap_to_edges(image: np.ndarray, corners: np.ndarray, reach: float) -> np.ndarray:
    """Move each side of a card quad onto the strongest nearby edge of the full-resolution frame.

    The network's outline is only as fine as its working resolution (a few full-resolution pixels
    per map pixel on a big photo); the index is read through the quad's homography, so each side is
    re-found at full resolution: along its middle, profiles across the side within ``reach`` pixels
    are sampled, each gives the offset of its strongest brightness step (closer ones preferred), and
    a robust line through those points replaces the side. A side with too few consistent points
    stays where it was.
    """
    c = np.asarray(corners, np.float64)
    if image.ndim == 3:  # only the part round the quad is sampled: only that part is made grey
        margin = 3 * max(2.0, reach) + 4  # beyond where a side can move to and be sampled from
        h, w = image.shape[:2]
        x0, y0 = np.clip(np.floor(c.min(axis=0) - margin), 0, [w - 1, h - 1]).astype(int)
        x1, y1 = np.ceil(c.max(axis=0) + margin).astype(int)
        crop = cv2.cvtColor(image[y0 : max(y0 + 1, y1), x0 : max(x0 + 1, x1)], cv2.COLOR_BGR2GRAY)
        return snap_to_edges(crop, c - (x0, y0), reach) + (x0, y0)
    grey = image
    centre = c.mean(axis=0)
    reach = max(2.0, reach)
    offs = np.arange(-reach, reach + 0.5, 0.5)
    ts = np.linspace(0.15, 0.85, 12)
    # the four sides at once: one remap and one blur of their profiles (each profile a row of its own)
    d = np.roll(c, -1, axis=0) - c
    length = np.linalg.norm(d, axis=1)
    if (length < 4).any():
        return c
    u = d / length[:, None]
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    mid = (c + np.roll(c, -1, axis=0)) / 2
    n[(mid * n).sum(axis=1) - (centre * n).sum(axis=1) < 0] *= -1  # outward
    base = c[:, None, :] + ts[None, :, None] * d[:, None, :]
    pts = base[:, :, None, :] + offs[None, None, :, None] * n[:, None, None, :]
    rows = (4 * len(ts), len(offs))
    mx = pts[..., 0].astype(np.float32).reshape(rows)
    my = pts[..., 1].astype(np.float32).reshape(rows)
    prof = cv2.remap(grey, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    prof = cv2.GaussianBlur(prof, (5, 1), 0)
    grad = np.abs(np.diff(prof, axis=1))
    prior = np.exp(-0.5 * ((offs[:-1] + 0.25) / (0.6 * reach)) ** 2)
    best = (grad * prior[None, :]).argmax(axis=1)
    strong = (grad[np.arange(rows[0]), best] > 6.0).reshape(4, len(ts))
    found = base + (offs[best] + 0.25).reshape(4, len(ts), 1) * n[:, None, :]
    lines: list[tuple[np.ndarray, np.ndarray]] = []
    for i in range(4):
        if strong[i].sum() < 5:
            lines.append((c[i], u[i]))
            continue
        sel = found[i][strong[i]].astype(np.float32)
        vx, vy, x0, y0 = cv2.fitLine(sel, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], float), np.array([vx, vy], float)))
    for i, (p0, u0) in enumerate(lines):  # a side that moved further than it could have stays put
        a, b = c[i], c[(i + 1) % 4]
        n0 = np.array([-u0[1], u0[0]])
        if max(abs(float((a - p0) @ n0)), abs(float((b - p0) @ n0))) > 1.2 * reach:
            lines[i] = (a, (b - a) / np.linalg.norm(b - a))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        den = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(den) < 1e-6:
            return c
        t = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den
        p = p1 + t * d1
        if np.linalg.norm(p - c[i]) > 2.0 * reach:
            return c
        out.append(p)
    snapped = np.array(out)
    # a card narrower than twice the reach can have both of its long sides snap onto one edge, folding
    # the quad into a line (a 20-px card beside a strong edge): the sides found are no card's, so the
    # quad stays as it was
    if _area(snapped) < FOLDED * _area(c):
        return c
    return snapped


FOLDED = 0.5  # of a quad's area: snapped to less than this, its sides were snapped onto one edge


def _area(q: np.ndarray) -> float:
    """The area of quad ``q`` (shoelace; 0 for one folded into a line)."""
    x, y = q[:, 0], q[:, 1]
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2
