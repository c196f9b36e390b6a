"""The learned card finder: a small segmentation network run with ``cv2.dnn`` on a downscaled copy.

The network (``vision/models/finder.onnx``, trained only on the project's synthetic scenes, see
``vision/models/FINDER.md``) maps a frame to three maps at half its input resolution: card interior,
card boundary (card/table and card/card edges) and index-corner centres. Cards come apart where
the boundary map cuts the interior map: each piece grows back to its edges by watershed, a piece
that is a clean quadrilateral is a whole card, any other piece (a card partly covered by another,
a fan) is searched for card corners exactly as the threshold finder does. Every coordinate returned
is in full-image pixels, so the index is then read at full resolution: the finder sees a 640×480
webcam frame and a 24-megapixel photo at the same working size.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.detect import (
    Blob,
    CardQuad,
    CornerFrame,
    Detection,
    _as_quad,
    _blob_corners,
    _fine_corners,
    _merge_frames,
    _refine_quad,
    _resolve_quads,
)
from vision.errors import VisionError
from vision.render import CARD_ASPECT

MODEL_PATH = Path(__file__).resolve().parent / "models" / "finder.onnx"
_MULTIPLE = 16  # the network downsamples four times


class FinderModel:
    """The ONNX network, read once per process (:func:`default_finder`); one ``cv2.dnn`` net per
    thread, since a dnn net is not safe to share between threads."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        if not path.is_file():
            raise VisionError(f"card finder model not found at {path}: expected the shipped finder.onnx")
        self.onnx = np.frombuffer(path.read_bytes(), np.uint8)
        self._local = threading.local()
        try:
            self._net()
        except cv2.error as exc:
            raise VisionError(f"card finder model {path} could not be loaded by cv2.dnn: {exc}") from exc

    def _net(self) -> cv2.dnn.Net:
        net = getattr(self._local, "net", None)
        if net is None:
            net = cv2.dnn.readNetFromONNX(self.onnx)
            self._local.net = net
        return net

    def maps(self, image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
        """Probabilities (3, h, w) at the network input size, and full-image pixels per map pixel."""
        h, w = image.shape[:2]
        s = min(1.0, long_side / max(h, w))
        iw, ih = max(_MULTIPLE, int(round(w * s))), max(_MULTIPLE, int(round(h * s)))
        small = cv2.resize(image, (iw, ih), interpolation=cv2.INTER_AREA) if s < 1.0 else image
        pw, ph = -iw % _MULTIPLE, -ih % _MULTIPLE
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        blob = small.astype(np.float32).transpose(2, 0, 1)[None]
        net = self._net()
        net.setInput(np.ascontiguousarray(blob))
        out = net.forward()[0]
        prob = 1.0 / (1.0 + np.exp(-out))
        up = np.stack(
            [cv2.resize(p, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_LINEAR) for p in prob]
        )
        return up[:, :ih, :iw], w / iw


@lru_cache(maxsize=1)
def default_finder() -> FinderModel:
    return FinderModel()


def card_pieces(prob: np.ndarray, min_area: float, min_w: float) -> list[np.ndarray]:
    """Contours of the visible pieces of cards.

    Each region of card interior is cut along the boundary map (cards touching, a hand, a fan) and
    each piece regrown to its edges by watershed. Where no piece is a clean card but the region
    itself is one, the cuts were ink edges inside one card (pips, court art): the region is the card.
    """
    interior = (prob[0] > 0.5).astype(np.uint8)
    cnts, _ = cv2.findContours(interior, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out: list[np.ndarray] = []
    for c in cnts:
        if cv2.contourArea(c) < min_area:
            continue
        x, y, w, h = cv2.boundingRect(c)
        x0, y0 = max(0, x - 2), max(0, y - 2)
        x1, y1 = min(interior.shape[1], x + w + 2), min(interior.shape[0], y + h + 2)
        own = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(own, [c - [x0, y0]], -1, 1, -1)
        pieces = [p + [x0, y0] for p in _split(prob[:, y0:y1, x0:x1], own, min_area)]
        no_card = len(pieces) <= 1 or not any(_quad_of(p, min_w) is not None for p in pieces)
        if no_card and _quad_of(c, min_w) is not None:
            pieces = [c]
        out += pieces or [c]
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
    card_width_hint: float | None = None,
    fine_corners: bool = True,
    min_index_heat: float = 0.2,
    coarse_pass: bool = True,
    corners: bool = True,
    model: FinderModel | None = None,
) -> Detection:
    """Whole-card quads and corner candidates of overlapped cards, like :func:`vision.detect.detect_cards`."""
    model = model or default_finder()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)  # once: every side of every card is snapped on it
    quads: list[CardQuad] = []
    others: list[np.ndarray] = []
    for k, side_px in enumerate((long_side, long_side // 2) if coarse_pass else (long_side,)):
        if k > 0 and max(image.shape[:2]) <= side_px:
            break
        prob_k, scale_k = model.maps(image, side_px)
        ih, iw = prob_k.shape[1:]
        min_w = max(4.0, min_card_fraction * max(iw, ih) * 0.6)
        for c in card_pieces(prob_k, min_w * min_w * 0.5, min_w):
            q = _quad_of(c, min_w)
            if q is None:
                if k == 0:
                    others.append(c)
                continue
            full = q * scale_k
            side = float(min(np.linalg.norm(full - np.roll(full, 1, axis=0), axis=1)))
            if k > 0 and (
                side < 0.2 * max(image.shape[:2]) or any(_inside(o, full.mean(axis=0)) for o in quads)
            ):
                continue  # the coarse pass is for cards too big for the fine one, found nowhere else
            reach = max(1.5 * scale_k + 1.0, 0.07 * side)
            for _ in range(2):  # a second pass starts from sides the first one straightened
                full = snap_to_edges(grey, full, reach)
            quads.append(_as_quad(full))
        if k == 0:
            prob, scale = prob_k, scale_k
            min_w0 = min_w
    min_w = min_w0
    quads = _resolve_quads(quads)
    if card_width_hint is not None:
        cw = card_width_hint / scale
    elif quads:
        cw = float(np.median([q.width for q in quads])) / scale
    else:
        cw = 0.0
    blobs: list[Blob] = []
    h, w = image.shape[:2]
    for c in others if corners else ():
        width = cw
        if width <= 0:
            (_, _), (rw, rh), _ = cv2.minAreaRect(c)
            width = max(rw, rh) / CARD_ASPECT
        if width < min_w:
            continue
        frames = [
            f
            for f in _blob_corners(c, width, scale)
            if 2 * scale < f.origin[0] < w - 2 * scale and 2 * scale < f.origin[1] < h - 2 * scale
        ]
        if fine_corners:
            frames = _merge_frames(_fine_corners(image, c, width, scale), frames)
        frames = [f for f in frames if _index_heat(prob[2], f, scale) >= min_index_heat]
        if frames:
            blobs.append(Blob(c.reshape(-1, 2).astype(float) * scale, tuple(frames)))
    return Detection(tuple(quads), tuple(blobs), scale)


def _inside(q: CardQuad, p: np.ndarray) -> bool:
    poly = q.corners.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0


def _index_heat(heat: np.ndarray, f: CornerFrame, scale: float) -> float:
    """How strongly the index map says an index lies where corner ``f`` would carry one.

    Checked upright and sideways (four-index decks are read sideways), near the index's centre.
    """
    h, w = heat.shape
    best = 0.0
    for ax, ay in ((0.11, 0.24), (0.24, 0.11)):
        p = (f.origin + (ax * f.x + ay * f.y) * f.width) / scale
        r = max(1, int(round(0.06 * f.width / scale)))
        x, y = int(round(p[0])), int(round(p[1]))
        x0, x1, y0, y1 = max(0, x - r), min(w, x + r + 1), max(0, y - r), min(h, y + r + 1)
        if x1 > x0 and y1 > y0:
            best = max(best, float(heat[y0:y1, x0:x1].max()))
    return best


def snap_to_edges(image: np.ndarray, corners: np.ndarray, reach: float) -> np.ndarray:
    """Move each side of a card quad onto the strongest nearby edge of the full-resolution frame.

    The network's outline is only as fine as its working resolution (a few full-resolution pixels
    per map pixel on a big photo); the index is read through the quad's homography, so each side is
    re-found at full resolution: along its middle, profiles across the side within ``reach`` pixels
    are sampled, each gives the offset of its strongest brightness step (closer ones preferred), and
    a robust line through those points replaces the side. A side with too few consistent points
    stays where it was.
    """
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    c = np.asarray(corners, np.float64)
    centre = c.mean(axis=0)
    reach = max(2.0, reach)
    offs = np.arange(-reach, reach + 0.5, 0.5)
    ts = np.linspace(0.15, 0.85, 12)
    lines: list[tuple[np.ndarray, np.ndarray]] = []
    for i in range(4):
        a, b = c[i], c[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 4:
            return c
        u = d / length
        n = np.array([-u[1], u[0]])
        if float((a + b) / 2 @ n - centre @ n) < 0:
            n = -n  # outward
        base = a[None, :] + ts[:, None] * d[None, :]
        pts = base[:, None, :] + offs[None, :, None] * n[None, None, :]
        mx = pts[..., 0].astype(np.float32)
        my = pts[..., 1].astype(np.float32)
        prof = cv2.remap(grey, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        prof = cv2.GaussianBlur(prof, (5, 1), 0)
        grad = np.abs(np.diff(prof, axis=1))
        prior = np.exp(-0.5 * ((offs[:-1] + 0.25) / (0.6 * reach)) ** 2)
        score = grad * prior[None, :]
        best = score.argmax(axis=1)
        strong = grad[np.arange(len(ts)), best] > 6.0
        found = base + (offs[best] + 0.25)[:, None] * n[None, :]
        if strong.sum() < 5:
            lines.append((a, u))
            continue
        sel = found[strong].astype(np.float32)
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
    return np.array(out)
