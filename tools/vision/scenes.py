"""Synthetic table scenes with exact ground truth, for training and measuring the card finder.

    python tools/vision/scenes.py --out /tmp/heldout --split held-out --count 60 --seed 777

writes a scene folder (``images/*.jpg`` + ``labels.json``, the layout ``dealer vision eval`` reads)
plus ``truth.json`` (every card's outline, index-corner quads, visible fraction and code).

A scene is cards from procedural decks (``vision.render``, random fonts, index geometry, paper tint,
backs, jokers) laid out on a table plane (scattered, a board row with small gaps, overlapping
two-card hands, fans, stacks, one big card), photographed through a homography (overhead to 60°
oblique, any yaw) onto a procedural table (``backgrounds.py``) with drop shadows, occluders (chips,
hands, a phone, a shoe, paper), uneven light, hard and soft shadows, glare, colour casts, blur,
noise and JPEG; sometimes drawn large and downscaled. Card widths run from 8 px to 60 % of the
frame's short side. ``--mirror 0.5`` deals half the rows, hands and fans the other way round (each
card under the one before it, so that a card below shows its right-hand corners), the scenes
otherwise those of the same seed; ``--curl 0.5`` draws half the cards curled (their long edges bowed
2–6 % of a card width at the middle, as a curled card seen at an angle shows them), likewise;
``--back-art 1.0`` prints every deck's back with a design no trainer draws (``held_out_backs.py``).

Splits: ``train`` draws from the training families and one seed range; ``held-out`` from
``backgrounds.HELD_OUT_FAMILIES`` only, with seeds training never uses (the caller's ``--seed``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from backgrounds import HELD_OUT_FAMILIES, LIGHT, TRAIN_FAMILIES, table_surface  # noqa: E402
from held_out_backs import held_out_back  # noqa: E402

from vision.render import CARD_ASPECT, HERSHEY_FONTS, CardStyle, render_card  # noqa: E402
from vision.sighting import FACES  # noqa: E402

FACE_PX = 240  # width of the cached card renders
READABLE = 50.0  # benchmark cards are at least this wide (px): an index narrower than ~6 px is unreadable


@dataclass(frozen=True)
class CardTruth:
    """One card in a scene: its code, outline (4 corners, clockwise from the top-left of the face),
    the index quads that carry an index, how much of it shows, and its id in the label map.

    ``visible`` is the uncovered fraction of the part inside the frame (what the training scripts
    weigh); ``in_frame`` the fraction of the whole card inside the frame; ``shown`` their product,
    how much of the card a camera shows. ``bow``: how far its long edges bow at their middles, in card
    widths (``_bent``; 0 for a flat card)."""

    code: str
    outline: np.ndarray  # (4, 2) image pixels
    index_quads: tuple[np.ndarray, ...]  # (4, 2) each
    visible: float
    index_visible: tuple[bool, ...]
    ident: int
    in_frame: float = 1.0
    bow: float = 0.0

    @property
    def shown(self) -> float:
        return self.visible * self.in_frame

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "code": self.code,
            "outline": self.outline.round(2).tolist(),
            "index_quads": [q.round(2).tolist() for q in self.index_quads],
            "index_visible": list(self.index_visible),
            "visible": round(self.visible, 3),
            "in_frame": round(self.in_frame, 3),
        }
        if self.bow:
            out["bow"] = round(self.bow, 4)
        return out


@dataclass(frozen=True)
class Scene:
    image: np.ndarray  # uint8 BGR
    labels: np.ndarray  # int32: 0 table / occluder, k = card with ident k (visible part)
    cards: tuple[CardTruth, ...]
    family: str
    # (kind, 4 × 2 corners in image pixels) of every occluder drawn: the rectangle of a phone, its
    # screen, a shoe, a rack or a paper, the bounding rectangle of chips or a hand
    occluders: tuple[tuple[str, np.ndarray], ...] = ()


def random_style(rng: np.random.Generator) -> CardStyle:
    """A procedural deck: font, index geometry, paper, back colour, corner radius."""
    rank_h = float(rng.uniform(0.09, 0.17))
    paper = tuple(
        int(v)
        for v in np.clip(
            rng.normal((242, 244, 244), 6) - [rng.uniform(0, 25), rng.uniform(0, 10), 0], 175, 255
        )
    )
    return CardStyle(
        font=int(HERSHEY_FONTS[int(rng.integers(len(HERSHEY_FONTS)))]),
        thickness=int(rng.integers(2, 6)),
        italic=bool(rng.random() < 0.1),
        index_x=float(rng.uniform(0.08, 0.13)),
        index_top=float(rng.uniform(0.03, 0.08)),
        rank_height=rank_h,
        rank_width=float(rank_h * rng.uniform(0.5, 0.7)),
        suit_gap=float(rng.uniform(0.0, 0.05)),
        suit_size=float(rng.uniform(0.07, 0.12)),
        four_index=bool(rng.random() < 0.3),
        paper=paper,  # type: ignore[arg-type]
        suit_variant=tuple(float(v) for v in rng.uniform(-1, 1, 4)),  # type: ignore[arg-type]
        back_colour=tuple(int(v) for v in rng.uniform(10, 220, 3)),  # type: ignore[arg-type]
        corner_radius=float(rng.uniform(0.03, 0.09)),
    )


class Deck:
    """Cached renders of one procedural deck (faces drawn on first use)."""

    def __init__(self, rng: np.random.Generator, four_colour: bool = False) -> None:
        self.style = random_style(rng)
        if four_colour:  # the same deck (the same draws), its diamonds blue and its clubs green
            self.style = replace(self.style, four_colour=True)
        self.seed = int(rng.integers(1 << 30))
        self.frame = rng.random() < 0.25  # some designs print a thin frame round the face
        self.cache: dict[str, np.ndarray] = {}
        # a back of another design (``write_benchmark``'s ``back_art``) shown in place of the cached
        # one, which is still drawn: the cache's size seeds the faces drawn after it
        self.back_art: np.ndarray | None = None

    def face(self, code: str) -> np.ndarray:
        if code == "BK" and self.back_art is not None:
            self._drawn(code)
            return self.back_art
        return self._drawn(code)

    def _drawn(self, code: str) -> np.ndarray:
        if code not in self.cache:
            img = render_card(code, FACE_PX, self.style, seed=self.seed + len(self.cache)).image.copy()
            if self.frame and code not in ("BK",):
                m = int(FACE_PX * 0.035)
                cv2.rectangle(img, (m, m), (FACE_PX - m, img.shape[0] - m), (120, 120, 120), 1)
            self.cache[code] = img
        return self.cache[code]

    def index_quads(self, code: str) -> list[np.ndarray]:
        """Index boxes in card units (width 1), for the corners that carry one."""
        if code == "BK":
            return []
        s = self.style
        rank = "10" if code == "JK" else code[:-1]
        rb, sb = s.index_boxes(rank)
        x0 = min(rb[0], sb[0]) - 0.01
        x1 = max(rb[0] + rb[2], sb[0] + sb[2]) + 0.01
        y0, y1 = rb[1] - 0.01, sb[1] + sb[3] + 0.01
        if code == "JK":
            y1 = s.index_top + 0.5
        box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        out = [box, np.array([1, CARD_ASPECT]) - box]
        if s.four_index:
            out += [np.c_[1 - box[:, 0], box[:, 1]], np.c_[box[:, 0], CARD_ASPECT - box[:, 1]]]
        return out


def _rounded_outline(radius: float, n: int = 5) -> np.ndarray:
    """A card outline in card units with rounded corners (polygon, clockwise from the top-left)."""
    r = radius
    pts = []
    for cx, cy, a0 in ((r, r, 180), (1 - r, r, 270), (1 - r, CARD_ASPECT - r, 0), (r, CARD_ASPECT - r, 90)):
        for a in np.radians(np.linspace(a0, a0 + 90, n)):
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return np.array(pts)


CURL = (0.02, 0.06)  # card widths: how far a curled card's long edges bow out of line at their middles


def _bent(p: np.ndarray, bow: float) -> np.ndarray:
    """Card-unit points ``p`` (N × 2) of a card whose long edges bow sideways by ``bow`` card widths at
    their middles, its corners where they were: a curled card seen from an angle (its silhouette's long
    sides are arcs), a card bent in the hand."""
    q = np.array(p, np.float64, copy=True).reshape(-1, 2)
    q[:, 0] += bow * np.sin(np.pi * q[:, 1] / CARD_ASPECT)
    return q


def _dense(poly: np.ndarray, step: float = 0.05) -> np.ndarray:
    """The closed polygon ``poly`` (card units) with points at most ``step`` apart along its sides, so
    that it stays a smooth outline once bent."""
    out = []
    for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        k = max(1, int(np.ceil(np.linalg.norm(b - a) / step)))
        out += [a + (b - a) * t for t in np.arange(k) / k]
    return np.array(out)


def _draw_bent(
    face: np.ndarray, m: np.ndarray, size: tuple[int, int], bow: float, shrink: bool
) -> np.ndarray:
    """``face`` drawn as ``cv2.warpPerspective(face, m, size)`` would draw it, but bent by ``bow``
    (``_bent``): each destination pixel taken back through ``m`` to the bent card, then unbent. With
    ``shrink`` the face is first area-averaged to about the width it is drawn at (no aliasing)."""
    fh, fw = face.shape[:2]
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    src = cv2.perspectiveTransform(pts, np.linalg.inv(m)).reshape(h, w, 2)
    fx = src[..., 0] - bow * fw * np.sin(np.pi * src[..., 1] / fh)  # face pixels, unbent
    fy = src[..., 1]
    if shrink:
        ends = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[fw, 0.0]]]), m).reshape(2, 2)
        f = min(1.0, max(float(np.linalg.norm(ends[1] - ends[0])), 8.0) / fw)
        if f < 1.0:
            small = (max(1, round(fw * f)), max(1, round(fh * f)))
            fx, fy = (fx + 0.5) * small[0] / fw - 0.5, (fy + 0.5) * small[1] / fh - 0.5
            face = cv2.resize(face, small, interpolation=cv2.INTER_AREA)
    return cv2.remap(face, fx.astype(np.float32), fy.astype(np.float32), cv2.INTER_LINEAR, borderValue=0)


def _view(rng: np.random.Generator, w: int, h: int, card_px: float) -> np.ndarray:
    """Homography from the table plane (card-width units, origin at the view's centre) to pixels."""
    tilt = np.radians(rng.uniform(0, 60) if rng.random() < 0.5 else rng.uniform(0, 15))
    yaw = rng.uniform(0, 2 * np.pi)
    dist = rng.uniform(2.0, 6.0) * max(w, h) / card_px  # camera distance in card widths
    rot = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    k = np.sin(tilt) / dist
    persp = np.array([[1, 0, 0], [0, np.cos(tilt), 0], [0, k, 1]])
    scale = np.diag([card_px, card_px, 1.0])
    shift = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1]])
    return shift @ scale @ persp @ rot


LAYOUTS = ("single", "scatter", "row", "hand", "fan", "stack")
LAYOUT_P = (0.1, 0.25, 0.2, 0.2, 0.15, 0.1)  # the benchmark's and the first training stage's mix


def _place(
    rng: np.random.Generator,
    codes: list[str],
    extent: tuple[float, float],
    layout_p: tuple[float, ...] = LAYOUT_P,
    mirror: tuple[float, np.random.Generator] | None = None,
) -> list[tuple[str, float, float, float]]:
    """Placements (code, centre x, centre y, angle°) in card units, drawn in order (later on top).
    Each row, hand and fan lays every card over the one before it on its right, leaving the index
    corner of the one below in view; with ``mirror`` = (share, generator of its own), that share of
    them is dealt the other way round (each card under the one before it: a fan held in the other
    hand, a hand dealt leftward), where what shows of a card below is its right-hand corners."""
    ex, ey = extent
    out: list[tuple[str, float, float, float]] = []
    i = 0
    while i < len(codes):
        group = len(out)
        kind = rng.choice(list(LAYOUTS), p=list(layout_p))
        cx, cy = rng.uniform(-ex / 2, ex / 2), rng.uniform(-ey / 2, ey / 2)
        base = rng.uniform(0, 360) if rng.random() < 0.5 else rng.normal(0, 8)
        if kind in ("single", "scatter"):
            out.append((codes[i], cx, cy, base))
            i += 1
        elif kind == "row":
            n = min(len(codes) - i, int(rng.integers(2, 6)))
            gap = rng.uniform(0.0, 0.35) if rng.random() < 0.7 else rng.uniform(-0.1, 0.0)
            a = np.radians(base)
            for k in range(n):
                off = (k - (n - 1) / 2) * (1 + gap)
                out.append(
                    (codes[i + k], cx + off * np.cos(a), cy - off * np.sin(a), base + rng.normal(0, 2))
                )
            i += n
        elif kind == "hand":
            n = min(len(codes) - i, 2)
            dx, dy = rng.uniform(0.12, 0.55), rng.uniform(0.05, 0.45)
            a = np.radians(base)
            for k in range(n):
                ox, oy = k * dx, k * dy
                out.append(
                    (
                        codes[i + k],
                        cx + ox * np.cos(a) + oy * np.sin(a),
                        cy - ox * np.sin(a) + oy * np.cos(a),
                        base + k * rng.normal(0, 8),
                    )
                )
            i += n
        elif kind == "fan":
            n = min(len(codes) - i, int(rng.integers(3, 9)))
            spread = rng.uniform(5, 20)
            radius = CARD_ASPECT * rng.uniform(0.6, 0.95)
            for k in range(n):
                ang = (k - (n - 1) / 2) * spread + base
                r = np.radians(ang)
                out.append((codes[i + k], cx + radius * np.sin(r), cy - radius * np.cos(r) + radius, -ang))
            i += n
        else:  # stack / pile
            n = min(len(codes) - i, int(rng.integers(2, 5)))
            for k in range(n):
                out.append(
                    (
                        codes[i + k],
                        cx + rng.normal(0, 0.08),
                        cy + rng.normal(0, 0.08),
                        base + rng.normal(0, 12),
                    )
                )
            i += n
        if mirror is not None and kind in ("row", "hand", "fan") and mirror[1].random() < mirror[0]:
            out[group:] = out[group:][::-1]
    return out


def _soft(m: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; a wide one is done on a smaller copy (same look, a fraction of the time)."""
    if sigma <= 3:
        return cv2.GaussianBlur(m, (0, 0), max(sigma, 0.3))
    f = sigma / 2.0
    h, w = m.shape[:2]
    small = cv2.resize(m, (max(2, int(w / f)), max(2, int(h / f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), 2.0), (w, h), interpolation=cv2.INTER_LINEAR)


def _drop_shadow(
    img: np.ndarray, alpha: np.ndarray, at: tuple[int, int], offset: np.ndarray, sigma: float, depth: float
) -> None:
    """Darken ``img`` under a card's mask (placed at ``at``), blurred and shifted by ``offset``.

    Drawn on a canvas padded by the blur and the shift, and shifted without wrapping, so that the
    shadow fades out instead of ending on the card's bounding box (a straight line no real table has).
    """
    h, w = img.shape[:2]
    pad = int(np.ceil(3 * sigma + np.abs(offset).max())) + 1
    x0, y0 = at
    X0, Y0 = max(0, x0 - pad), max(0, y0 - pad)
    X1, Y1 = min(w, x0 + alpha.shape[1] + pad), min(h, y0 + alpha.shape[0] + pad)
    canvas = np.zeros((Y1 - Y0, X1 - X0), np.float32)
    canvas[y0 - Y0 : y0 - Y0 + alpha.shape[0], x0 - X0 : x0 - X0 + alpha.shape[1]] = alpha
    shift = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
    sh = cv2.warpAffine(_soft(canvas, sigma), shift, (X1 - X0, Y1 - Y0), borderValue=0)
    img[Y0:Y1, X0:X1] *= (1 - depth * sh)[..., None]


def _occluder(
    rng: np.random.Generator,
    img: np.ndarray,
    occ: np.ndarray,
    cw: float,
    outlines: list[tuple[str, np.ndarray]] | None = None,
) -> None:
    """Draw one occluder into ``img`` and mark it in ``occ`` (chips, a hand, a phone, a shoe, paper);
    its outline rectangle(s) are appended to ``outlines`` (no random draw depends on that)."""
    h, w = img.shape[:2]
    kind = rng.choice(
        ["chips", "hand", "phone", "shoe", "paper", "rack"], p=[0.35, 0.25, 0.1, 0.1, 0.15, 0.05]
    )
    m = np.zeros((h, w), np.uint8)
    x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
    colour = rng.uniform(0, 255, 3)
    layer = img.copy()
    if kind == "chips":
        r = max(2, int(cw * rng.uniform(0.15, 0.35)))
        for _ in range(int(rng.integers(1, 6))):
            c = (x + int(rng.normal(0, r * 1.5)), y + int(rng.normal(0, r * 1.5)))
            col = rng.uniform(0, 255, 3) if rng.random() < 0.8 else np.array([235.0, 235, 235])
            cv2.circle(layer, c, r, col.tolist(), -1, cv2.LINE_AA)
            cv2.circle(
                layer, c, max(1, int(r * 0.65)), (col * 0.6 + 90).tolist(), max(1, r // 8), cv2.LINE_AA
            )
            for k in range(6):  # edge spots
                a = k * np.pi / 3
                p = (int(c[0] + 0.85 * r * np.cos(a)), int(c[1] + 0.85 * r * np.sin(a)))
                cv2.circle(layer, p, max(1, r // 7), (240, 240, 240), -1)
            cv2.circle(m, c, r, 255, -1)
    elif kind == "hand":
        skin = np.array([rng.uniform(60, 180), rng.uniform(90, 200), rng.uniform(140, 240)])
        s = cw * rng.uniform(0.8, 1.6)
        ang = rng.uniform(0, 2 * np.pi)
        d = np.array([np.cos(ang), np.sin(ang)])
        palm = np.array([x, y], float)
        cv2.ellipse(
            m, (int(palm[0]), int(palm[1])), (int(s * 0.5), int(s * 0.6)), np.degrees(ang), 0, 360, 255, -1
        )
        for k in range(4):
            off = np.array([-d[1], d[0]]) * (k - 1.5) * s * 0.22
            a = palm + off + d * s * 0.5
            b = a + d * s * rng.uniform(0.4, 0.8)
            cv2.line(m, tuple(int(v) for v in a), tuple(int(v) for v in b), 255, max(2, int(s * 0.17)))
        arm = palm - d * s * 3
        cv2.line(m, (int(palm[0]), int(palm[1])), (int(arm[0]), int(arm[1])), 255, max(2, int(s * 0.8)))
        shade = 1 + 0.15 * _soft(rng.normal(0, 1, (h, w)).astype(np.float32), max(1, s / 4))[..., None]
        layer = np.broadcast_to(skin, img.shape).astype(np.float32) * shade
    elif kind in ("phone", "shoe", "paper", "rack"):
        if kind == "phone":
            size = (cw * rng.uniform(0.9, 1.2), cw * rng.uniform(1.8, 2.3))
            colour = rng.uniform(10, 60, 3)
        elif kind == "shoe":
            size = (cw * rng.uniform(1.5, 2.5), cw * rng.uniform(2.5, 4))
            colour = rng.uniform(10, 120, 3)
        elif kind == "rack":
            size = (cw * rng.uniform(1.6, 2.2), cw * rng.uniform(0.5, 0.9))
            colour = np.array([rng.uniform(150, 220)] * 3)
        else:  # a white paper, napkin or receipt: bright, but not a card's shape
            aspect = rng.choice([rng.uniform(2.2, 4.0), rng.uniform(0.9, 1.08)])
            base = cw * rng.uniform(0.7, 2.0)
            size = (base, base * aspect)
            colour = np.array([rng.uniform(215, 250)] * 3) - [rng.uniform(0, 15), 0, 0]
        rect = ((float(x), float(y)), (float(size[0]), float(size[1])), float(rng.uniform(0, 180)))
        box = cv2.boxPoints(rect).astype(np.int32)
        cv2.fillConvexPoly(m, box, 255)
        cv2.fillConvexPoly(layer, box, colour.tolist())
        if kind == "paper":  # lines of print
            for k in range(int(rng.integers(3, 12))):
                t = (k + 1) / 13
                a = box[0] + (box[3] - box[0]) * t + (box[1] - box[0]) * 0.1
                b = a + (box[1] - box[0]) * rng.uniform(0.3, 0.8)
                cv2.line(layer, tuple(int(v) for v in a), tuple(int(v) for v in b), (60, 60, 60), 1)
        elif kind == "phone" and rng.random() < 0.5:
            inner = ((float(x), float(y)), (float(size[0]) * 0.85, float(size[1]) * 0.85), rect[2])
            cv2.fillConvexPoly(layer, cv2.boxPoints(inner).astype(np.int32), rng.uniform(40, 255, 3).tolist())
            if outlines is not None:
                outlines.append(("screen", cv2.boxPoints(inner).astype(np.float64)))
        if outlines is not None:
            outlines.append((str(kind), box.astype(np.float64)))
    if kind in ("chips", "hand") and outlines is not None and m.any():
        outlines.append((str(kind), cv2.boxPoints(cv2.minAreaRect(cv2.findNonZero(m))).astype(np.float64)))
    a = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 0.8)[..., None]
    img[:] = img * (1 - a) + layer * a
    occ |= m > 127


def _light(rng: np.random.Generator, img: np.ndarray, cw: float) -> np.ndarray:
    """Uneven light, hard and soft shadows, glare, colour cast, exposure."""
    h, w = img.shape[:2]
    gain = np.ones((h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    gain *= 1 + rng.uniform(0, 0.5) * ((xx * np.cos(a) + yy * np.sin(a)) / max(h, w) - 0.5)
    g = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    gain *= 1 + rng.uniform(0, 0.25) * g
    for _ in range(int(rng.poisson(0.8))):  # shadows of people and things
        m = np.zeros((h, w), np.float32)
        pts = (rng.uniform(-0.2, 1.2, (int(rng.integers(3, 7)), 2)) * [w, h]).astype(np.int32)
        cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
        soft = rng.uniform(0.3, 6) if rng.random() < 0.5 else rng.uniform(6, 40)
        m = _soft(m, soft * cw / 20)
        gain *= 1 - rng.uniform(0.2, 0.6) * m
    out = img * gain[..., None]
    for _ in range(int(rng.poisson(0.5))):  # glare
        c = rng.uniform(0, 1, 2) * [w, h]
        s = rng.uniform(0.05, 0.4) * max(h, w)
        blob = np.exp(-((xx - c[0]) ** 2 + ((yy - c[1]) * rng.uniform(0.5, 2)) ** 2) / (2 * s * s))
        out += (blob * rng.uniform(40, 160))[..., None]
    cast = rng.normal(1, 0.08, 3) if rng.random() < 0.7 else np.ones(3)
    out *= cast * rng.uniform(0.6, 1.3)
    if rng.random() < 0.1:
        grey = out.mean(axis=2, keepdims=True)
        out = np.repeat(grey, 3, axis=2)
    return out


def make_scene(
    rng: np.random.Generator,
    size: tuple[int, int],
    families: tuple[str, ...] = TRAIN_FAMILIES,
    decks: list[Deck] | None = None,
    max_cards: int = 12,
    min_card: float = 8.0,
    backs: int = 6,
    back_designs: float = 0.0,
    layout_p: tuple[float, ...] = LAYOUT_P,
    max_card: float | None = None,
    mirror: tuple[float, np.random.Generator] | None = None,
    curl: tuple[float, np.random.Generator] | None = None,
) -> Scene:
    """One scene ``size`` = (w, h) with its label map and card truths. Cards are drawn from a pool
    holding each face once, the joker twice and the back ``backs`` times. That share
    ``back_designs`` of the backs gets art of its own (``varied_back``: borderless, dense or bold
    lattices, diamonds, stripes, dots, checks) instead of the deck's; ``layout_p`` weighs single,
    scatter, row, hand, fan and stack; ``mirror`` deals a share of the rows, hands and fans the other
    way round (``_place``); ``curl`` = (share, generator of its own) draws that share of the cards
    curled (``_bent``: long edges bowed by ``CURL`` card widths either way, the corners in place). The
    defaults are what the benchmark folders were written with (same scenes, byte for byte)."""
    w, h = size
    light_share = [f for f in families if f in LIGHT]
    use_light = bool(light_share) and rng.random() < 0.4  # at least a third of draws: light tables
    family = str(rng.choice(light_share if use_light else families))
    deck = decks[int(rng.integers(len(decks)))] if decks else Deck(rng)
    ss = float(rng.choice([1.0, 1.0, 1.5, 2.0]))  # drawn large, then downscaled
    W, H = int(w * ss), int(h * ss)
    short = min(w, h)
    top = 0.6 * short if max_card is None else min(0.6 * short, max_card)
    card_out = float(np.exp(rng.uniform(np.log(min_card), np.log(max(min_card + 1, top)))))
    card_px = card_out * ss
    view = _view(rng, W, H, card_px)
    img = table_surface(family, rng, H, W)
    n = int(rng.integers(0, max_cards + 1)) if card_out < 0.25 * short else int(rng.integers(1, 4))
    pool = [*FACES] + ["BK"] * backs + ["JK"] * 2
    codes = [pool[int(k)] for k in rng.integers(len(pool), size=n)]
    extent = (W / card_px * 0.9, H / card_px * 0.9)
    placements = _place(rng, codes, extent, layout_p, mirror)
    labels = np.zeros((H, W), np.int32)
    outline_unit = _rounded_outline(deck.style.corner_radius)
    truths = []
    for ident, (code, cx, cy, ang) in enumerate(placements, start=1):
        a = np.radians(ang)
        rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])

        def to_plane(p: np.ndarray, rot: np.ndarray = rot, cx: float = cx, cy: float = cy) -> np.ndarray:
            return (np.asarray(p) - [0.5, CARD_ASPECT / 2]) @ rot.T + [cx, cy]

        def to_image(p: np.ndarray) -> np.ndarray:
            return cv2.perspectiveTransform(np.asarray(p, np.float64).reshape(-1, 1, 2), view).reshape(-1, 2)

        bow = 0.0
        if curl is not None and curl[1].random() < curl[0]:
            bow = float(curl[1].uniform(*CURL) * curl[1].choice([-1.0, 1.0]))
        corners = to_image(to_plane(np.array([[0, 0], [1, 0], [1, CARD_ASPECT], [0, CARD_ASPECT]])))
        poly = to_image(to_plane(_bent(_dense(outline_unit), bow) if bow else outline_unit))
        if not np.isfinite(corners).all() or np.abs(corners).max() > 4 * max(W, H):
            continue
        own_art = back_designs > 0 and code == "BK" and rng.random() < back_designs
        face = varied_back(rng, deck.style.paper) if own_art else deck.face(code)
        fh, fw = face.shape[:2]
        m = cv2.getPerspectiveTransform(
            np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32), corners.astype(np.float32)
        )
        drawn = poly if bow else corners  # a bent card's sides bow out past its corners
        x0, y0 = np.floor(drawn.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(drawn.max(axis=0)).astype(int) + 3
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
        if bow:
            warped = _draw_bent(face, shift @ m, (x1 - x0, y1 - y0), bow, ss > 1)
        else:
            warped = cv2.warpPerspective(
                face, shift @ m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA if ss > 1 else cv2.INTER_LINEAR
            )
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round((poly - [x0, y0]) * 4).astype(np.int32)], 255, cv2.LINE_AA, 2)
        alpha = mask.astype(np.float32)[..., None] / 255
        # drop shadow under the card (cards are thin: a small, soft offset)
        sh_off = rng.normal(0, 0.02, 2) * card_px
        _drop_shadow(img, alpha[..., 0], (x0, y0), sh_off, max(0.6, 0.03 * card_px), rng.uniform(0.1, 0.45))
        roi = img[y0:y1, x0:x1]
        roi[:] = roi * (1 - alpha) + warped.astype(np.float32) * alpha
        lab = labels[y0:y1, x0:x1]
        lab[mask > 127] = ident
        iq = tuple(to_image(to_plane(_bent(q, bow))) for q in deck.index_quads(code))
        in_frame = min(1.0, float((mask > 127).sum()) / max(1.0, cv2.contourArea(poly.astype(np.float32))))
        truths.append((code, corners, iq, ident, int((mask > 127).sum()), in_frame, bow))
    occ = np.zeros((H, W), bool)
    occluders: list[tuple[str, np.ndarray]] = []
    for _ in range(int(rng.poisson(1.2))):
        _occluder(rng, img, occ, card_px, occluders)
    labels[occ] = 0
    img = _light(rng, img, card_px)
    if ss > 1:
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
        labels = cv2.resize(labels.astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST).astype(
            np.int32
        )
    blur = rng.uniform(0, 1.4) if rng.random() < 0.7 else 0.0
    if blur > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img += rng.normal(0, rng.uniform(0, 7), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(30, 95))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    counts = np.bincount(labels.ravel(), minlength=len(placements) + 1)
    cards = []
    for code, corners, iq, ident, full, in_frame, bow in truths:
        vis = counts[ident] / max(1, full / (ss * ss))
        if counts[ident] == 0:
            continue
        iv = tuple(bool(_index_shows(labels, q / ss, ident)) for q in iq)
        cards.append(
            CardTruth(
                code, corners / ss, tuple(q / ss for q in iq), float(min(1.0, vis)), iv, ident, in_frame, bow
            )
        )
    return Scene(out, labels, tuple(cards), family, tuple((k, q / ss) for k, q in occluders))


def varied_back(rng: np.random.Generator, paper: tuple[int, int, int]) -> np.ndarray:
    """A card back of random design (FACE_PX wide): a lattice of any density and contrast, diamonds,
    stripes, dots or checks, with a paper border or none, sometimes a centre emblem.
    Backs are where the finder has no index to go by: the whole face is texture."""
    w, h = FACE_PX, int(round(FACE_PX * CARD_ASPECT))
    base = rng.uniform(10, 230, 3)
    if rng.random() < 0.5:  # pattern lighter or darker than the ground, by a little or a lot
        ink = np.clip(base + rng.choice([-1, 1]) * rng.uniform(40, 170), 0, 255)
    else:
        ink = rng.uniform(0, 255, 3)
    base_c, ink_c = tuple(float(v) for v in base), tuple(float(v) for v in ink)
    img = np.full((h, w, 3), base_c, np.uint8)
    kind = str(rng.choice(["lattice", "lattice", "diamonds", "stripes", "dots", "checks"]))
    step = int(rng.uniform(w / 32, w / 6))
    thick = int(rng.integers(1, max(2, step // 2)))
    if kind == "lattice":
        for k in range(-h, w + h, step):
            cv2.line(img, (k, 0), (k + h, h), ink_c, thick)
            cv2.line(img, (k, 0), (k - h, h), ink_c, thick)
    elif kind == "diamonds":
        yy, xx = np.mgrid[0:h, 0:w]
        cell = ((xx + yy) // step + (xx - yy + 4 * h) // step) % 2 == 0
        img[cell] = ink.astype(np.uint8)
    elif kind == "stripes":
        a = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w]
        t = (xx * np.cos(a) + yy * np.sin(a)) % step
        img[t < thick] = ink.astype(np.uint8)
    elif kind == "dots":
        for y in range(step // 2, h, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, w, step):
                cv2.circle(img, (x, y), max(1, thick), ink_c, -1, cv2.LINE_AA)
    elif kind == "checks":
        yy, xx = np.mgrid[0:h, 0:w]
        img[(xx // step + yy // step) % 2 == 0] = ink.astype(np.uint8)
    if rng.random() < 0.4:
        cv2.ellipse(
            img,
            (w // 2, h // 2),
            (int(w * rng.uniform(0.1, 0.3)), int(h * rng.uniform(0.08, 0.2))),
            0,
            0,
            360,
            ink_c,
            int(rng.integers(2, 8)),
        )
    if rng.random() < 0.6:  # a border (paper or a colour of its own); the rest are printed to the edge
        b = int(w * rng.uniform(0.02, 0.1))
        border = paper if rng.random() < 0.8 else tuple(float(v) for v in rng.uniform(0, 255, 3))
        img[:b], img[-b:], img[:, :b], img[:, -b:] = border, border, border, border
    return img


def _index_shows(labels: np.ndarray, quad: np.ndarray, ident: int) -> bool:
    """Whether most of an index quad is this card's visible surface (inside the frame, uncovered)."""
    h, w = labels.shape
    pts = quad.mean(axis=0) * 0.0 + quad
    samples = [pts.mean(axis=0)] + [0.6 * p + 0.4 * pts.mean(axis=0) for p in pts]
    inside = 0
    for x, y in samples:
        xi, yi = int(round(x)), int(round(y))
        if 0 <= xi < w and 0 <= yi < h and labels[yi, xi] == ident:
            inside += 1
    return inside >= 4


def targets(scene: Scene, stride: int = 2) -> np.ndarray:
    """Training targets at 1/``stride`` of the scene size: card interior, card boundary, index corners.

    * interior: pixels of any card's visible surface;
    * boundary: pixels within about one output pixel of a change of label (card / table, or one
      card / the card it lies on), so that touching and overlapping cards come apart;
    * index: a Gaussian at the centre of every visible index (sigma a tenth of the index height).
    """
    h, w = scene.labels.shape
    oh, ow = h // stride, w // stride
    lab = cv2.resize(scene.labels.astype(np.float32), (ow, oh), interpolation=cv2.INTER_NEAREST)
    k = np.ones((3, 3), np.uint8)
    interior = (lab > 0).astype(np.float32)
    grad = cv2.dilate(lab, k) != cv2.erode(lab, k)
    boundary = (grad & (cv2.dilate(lab, k) > 0)).astype(np.float32)
    index = np.zeros((oh, ow), np.float32)
    yy, xx = np.mgrid[0:oh, 0:ow].astype(np.float32)
    for c in scene.cards:
        for q, shows in zip(c.index_quads, c.index_visible, strict=True):
            if not shows:
                continue
            qc = (q.mean(axis=0) + 0.5) / stride - 0.5  # in output pixels (centres at integers)
            s = max(0.8, 0.25 * float(np.linalg.norm(q[2] - q[1])) / stride)
            x0, x1 = int(max(0, qc[0] - 3 * s)), int(min(ow, qc[0] + 3 * s + 1))
            y0, y1 = int(max(0, qc[1] - 3 * s)), int(min(oh, qc[1] + 3 * s + 1))
            if x1 <= x0 or y1 <= y0:
                continue
            g = np.exp(-((xx[y0:y1, x0:x1] - qc[0]) ** 2 + (yy[y0:y1, x0:x1] - qc[1]) ** 2) / (2 * s * s))
            index[y0:y1, x0:x1] = np.maximum(index[y0:y1, x0:x1], g)
    return np.stack([interior, boundary, index])


# Where each index of ``Deck.index_quads`` sits: its card corner, and the card's short and long edge
# directions from there, in card units (top-left, bottom-right, then a four-index deck's top-right
# and bottom-left mirrored indices).
INDEX_CORNERS = (
    ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)),
    ((1.0, CARD_ASPECT), (-1.0, 0.0), (0.0, -1.0)),
    ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0)),
    ((0.0, CARD_ASPECT), (1.0, 0.0), (0.0, -1.0)),
)
REGRESSION = ("dx", "dy", "sx", "sy", "lx", "ly", "weight")
_STEP = 0.3  # the local affine at a corner is measured over this many card widths


def corner_affine(outline: np.ndarray, k: int, bow: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card corner of index ``k`` in image pixels and the two edge vectors from it: ``s`` along
    the short edge (length = the card's width there) and ``l`` along the long edge, scaled per card
    width, so that corner + u·s + v·l is the card point (u, v) card widths from that corner, to first
    order (the local affine of the card's homography at the corner; of a curled card's, ``bow``, the
    long edge turned as it leaves the corner)."""
    unit = np.array([[0, 0], [1, 0], [1, CARD_ASPECT], [0, CARD_ASPECT]], np.float32)
    hom = cv2.getPerspectiveTransform(unit, np.asarray(outline, np.float32))
    c, sd, ld = (np.array(v) for v in INDEX_CORNERS[k])
    pts = np.array([c, c + _STEP * sd, c + _STEP * ld], np.float64)
    pts = (_bent(pts, bow) if bow else pts).reshape(-1, 1, 2)
    img = cv2.perspectiveTransform(pts, hom).reshape(-1, 2)
    return img[0], (img[1] - img[0]) / _STEP, (img[2] - img[0]) / _STEP


def regression_targets(scene: Scene, stride: int = 4) -> np.ndarray:
    """Corner-frame targets at 1/``stride`` of the scene size, on a small disc round every visible
    index centre: the offset (scene pixels) from the output pixel's centre to the card corner that
    index belongs to, the corner's short- and long-edge vectors (:func:`corner_affine`), and a weight
    (1 on the disc, 0 elsewhere). Where two discs meet, the nearer index wins."""
    h, w = scene.labels.shape
    oh, ow = h // stride, w // stride
    out = np.zeros((len(REGRESSION), oh, ow), np.float32)
    near = np.full((oh, ow), np.inf, np.float32)
    yy, xx = np.mgrid[0:oh, 0:ow].astype(np.float32)
    px, py = (xx + 0.5) * stride - 0.5, (yy + 0.5) * stride - 0.5  # output pixel centres, scene pixels
    for c in scene.cards:
        for k, (q, shows) in enumerate(zip(c.index_quads, c.index_visible, strict=True)):
            if not shows:
                continue
            corner, s, long = corner_affine(c.outline, k, c.bow)
            qc = q.mean(axis=0)
            width = float(np.linalg.norm(s))
            r = max(2.2 * stride, 0.1 * width)  # scene pixels: the 3×3 output pixels round any peak
            x0, x1 = int(max(0, (qc[0] - r) // stride)), int(min(ow, (qc[0] + r) // stride + 2))
            y0, y1 = int(max(0, (qc[1] - r) // stride)), int(min(oh, (qc[1] + r) // stride + 2))
            if x1 <= x0 or y1 <= y0:
                continue
            sl = np.s_[y0:y1, x0:x1]
            d = np.hypot(px[sl] - qc[0], py[sl] - qc[1])
            take = (d <= r) & (d < near[sl])
            near[sl][take] = d[take]
            vals = (corner[0] - px[sl], corner[1] - py[sl], s[0], s[1], long[0], long[1], 1.0)
            for ch, v in enumerate(vals):
                out[ch][sl][take] = v if np.ndim(v) == 0 else v[take]
    return out


def write_benchmark(
    out: Path,
    split: str,
    count: int,
    seed: int,
    size: tuple[int, int],
    max_card: float | None = None,
    four_colour: bool = False,
    mirror: float = 0.0,
    curl: float = 0.0,
    back_art: float = 0.0,
) -> None:
    """A scene folder ``dealer vision eval`` reads (``labels.json``: the cards a reader must find;
    ``optional.json``: those it may, being too small or showing no index), plus ``truth.json``.
    ``four_colour``: every deck four-colour; ``mirror``: that share of the rows, hands and fans dealt
    the other way round (each card under the one before it); ``curl``: that share of the cards drawn
    curled (``make_scene``); ``back_art``: that share of the decks given a back of a design no trainer
    draws (``held_out_backs``). Each way the scenes are otherwise those of the same seed: their
    choices come from a generator of their own."""
    rng = np.random.default_rng(seed)
    flip = (mirror, np.random.default_rng([seed, 1])) if mirror else None
    curled = (curl, np.random.default_rng([seed, 2])) if curl else None
    families = HELD_OUT_FAMILIES if split == "held-out" else TRAIN_FAMILIES
    (out / "images").mkdir(parents=True, exist_ok=True)
    labels: dict[str, list[str]] = {}
    optional: dict[str, list[str]] = {}  # in the picture, but too small or with no index in view
    truth: dict[str, object] = {}
    decks = [Deck(rng, four_colour) for _ in range(8)]
    if back_art:
        art = np.random.default_rng([seed, 3])
        for deck in decks:
            if art.random() < back_art:
                deck.back_art = held_out_back(art, deck.style.paper, FACE_PX)
    for i in range(count):
        w, h = size if rng.random() < 0.7 else (size[1], size[0])
        scene = make_scene(
            rng,
            (w, h),
            families,
            decks,
            max_cards=10,
            min_card=READABLE,
            max_card=max_card,
            mirror=flip,
            curl=curled,
        )
        name = f"scene_{i:03d}.jpg"
        cv2.imwrite(str(out / "images" / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        # the codes a reader can be asked for: cards wide enough to read with at least one index
        # showing, or a back of which at least half is in view (uncovered and inside the frame)
        shown = [
            c
            for c in scene.cards
            if np.linalg.norm(c.outline[1] - c.outline[0]) >= READABLE
            and (any(c.index_visible) or (c.code == "BK" and c.shown > 0.5))
        ]
        labels[name] = [c.code for c in shown]
        optional[name] = [c.code for c in scene.cards if c.visible > 0 and not any(c is d for d in shown)]
        truth[name] = {"family": scene.family, "cards": [c.to_json() for c in scene.cards]}
    (out / "labels.json").write_text(json.dumps(labels, indent=1))
    (out / "optional.json").write_text(json.dumps(optional, indent=1))
    (out / "truth.json").write_text(json.dumps(truth))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--split", choices=["train", "held-out"], default="held-out")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--size", default="1280x960")
    ap.add_argument("--max-card", type=float, default=None, help="widest card, px (a phone photo of a table)")
    ap.add_argument("--four-colour", action="store_true", help="four-colour decks")
    ap.add_argument(
        "--mirror", type=float, default=0.0, help="share of rows, hands and fans dealt the other way round"
    )
    ap.add_argument(
        "--curl", type=float, default=0.0, help="share of the cards drawn curled (bowed long edges)"
    )
    ap.add_argument(
        "--back-art", type=float, default=0.0,
        help="share of the decks given a back of a design no trainer draws (held_out_backs.py)",
    )
    a = ap.parse_args()
    for name in ("mirror", "curl", "back_art"):
        if not 0.0 <= getattr(a, name) <= 1.0:
            ap.error(f"--{name.replace('_', '-')} is a share from 0 to 1, got {getattr(a, name)}")
    w, h = (int(v) for v in a.size.split("x"))
    write_benchmark(
        a.out, a.split, a.count, a.seed, (w, h), a.max_card, a.four_colour, a.mirror, a.curl, a.back_art
    )


if __name__ == "__main__":
    main()
