"""Procedural card faces and backs drawn with OpenCV shapes and its built-in Hershey fonts.

Used by the simulated camera and, with more fonts and styles, by the training renders in
``tools/vision``. Nothing here is copied from an existing deck: suits are built from circles and
polygons, indices are Hershey text.

>>> face = render_card("QH", width=200)
>>> face.image.shape, face.mask.shape
((280, 200, 3), (280, 200))
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.sighting import BACK, JOKER, RED_SUITS

CARD_ASPECT = 1.4  # poker size 63 × 88 mm
HERSHEY_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)
RED = (40, 30, 200)
BLACK = (30, 25, 25)
# a four-colour deck's inks (BGR): spades black, hearts red, diamonds blue, clubs green
FOUR_COLOUR = {"S": BLACK, "H": RED, "D": (190, 90, 20), "C": (40, 140, 30)}


def crop_to_ink(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    if ys.size == 0:
        return mask
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def hershey_mask(
    text: str, font: int = cv2.FONT_HERSHEY_DUPLEX, thickness: int = 3, italic: bool = False
) -> np.ndarray:
    """A tight uint8 mask of ``text`` drawn at a large scale."""
    scale = 3.0
    f = font | (cv2.FONT_ITALIC if italic else 0)
    (w, h), base = cv2.getTextSize(text, f, scale, thickness)
    canvas = np.zeros((h + base + 4 * thickness, w + 4 * thickness), np.uint8)
    cv2.putText(canvas, text, (2 * thickness, h + 2 * thickness), f, scale, 255, thickness, cv2.LINE_AA)
    return crop_to_ink(canvas)


def _circle(m: np.ndarray, c: tuple[float, float], r: float) -> None:
    cv2.circle(m, (int(c[0] * 4), int(c[1] * 4)), int(r * 4), 255, -1, cv2.LINE_AA, 2)


def _poly(m: np.ndarray, pts: list[tuple[float, float]]) -> None:
    cv2.fillPoly(
        m, [np.array(pts, np.float64).reshape(-1, 1, 2).__mul__(4).astype(np.int32)], 255, cv2.LINE_AA, 2
    )


def suit_mask(suit: str, *, variant: np.ndarray | None = None, size: int = 120) -> np.ndarray:
    """A tight mask of one suit symbol. ``variant`` (4 numbers in [-1, 1]) bends its proportions."""
    v = np.zeros(4) if variant is None else np.asarray(variant, float)
    s = size / 100.0
    m = np.zeros((size, size), np.uint8)

    def sc(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * s, y * s) for x, y in pts]

    if suit == "D":
        half_w = 38 + 6 * v[0]
        bend = 6 * (v[1] + 1) / 2  # concave sides
        pts: list[tuple[float, float]] = []
        corners = [(50, 2), (50 + half_w, 50), (50, 98), (50 - half_w, 50)]
        for i in range(4):
            a, b = np.array(corners[i]), np.array(corners[(i + 1) % 4])
            for t in np.linspace(0, 1, 9)[:-1]:
                p = a + (b - a) * t
                inward = np.array([50, 50]) - p
                n = np.linalg.norm(inward) or 1.0
                p = p + inward / n * bend * np.sin(np.pi * t)
                pts.append((float(p[0]), float(p[1])))
        _poly(m, sc(pts))
    elif suit in ("H", "S"):
        r = 24 + 3 * v[0]
        cy = 30 + 3 * v[1]
        tip = 97 + 2 * v[2]
        dx = 25 + 2 * v[3]
        shape = np.zeros_like(m)
        for cx in (50 - dx, 50 + dx):
            _circle(shape, (cx * s, cy * s), r * s)
        _poly(
            shape,
            sc([(50 - dx - r * 0.92, cy + r * 0.4), (50, cy), (50 + dx + r * 0.92, cy + r * 0.4), (50, tip)]),
        )
        if suit == "S":
            shape = cv2.flip(shape, 0)
            body = 0.84 + 0.04 * v[3]
            shape = cv2.resize(shape, (size, int(size * body)), interpolation=cv2.INTER_AREA)
            m[: shape.shape[0]] = shape
            stem_w = 11 + 3 * v[2]
            _poly(m, sc([(50, 70), (50 - stem_w, 99), (50 + stem_w, 99)]))
        else:
            m = shape
    elif suit == "C":
        r = 20 + 2 * v[0]
        spread = 25 + 3 * v[1]
        _circle(m, (50 * s, (r + 1) * s), r * s)
        _circle(m, ((50 - spread) * s, (r + 32 + 2 * v[2]) * s), r * s)
        _circle(m, ((50 + spread) * s, (r + 32 + 2 * v[2]) * s), r * s)
        _poly(m, sc([(50, r), (50 - spread, r + 32), (50 + spread, r + 32)]))
        stem_w = 13 + 4 * v[3]
        _poly(m, sc([(50, 50), (50 - stem_w, 99), (50 + stem_w, 99)]))
    else:
        raise ValueError(f"unknown suit {suit!r}: expected S H D C")
    return crop_to_ink(m)


def paste_mask(
    image: np.ndarray,
    mask: np.ndarray,
    box: tuple[float, float, float, float],
    colour: tuple[int, int, int],
    *,
    rotate180: bool = False,
) -> None:
    """Paint ``colour`` into ``image`` through ``mask`` resized to ``box`` = (x, y, w, h)."""
    x, y, w, h = (int(round(b)) for b in box)
    if w < 1 or h < 1:
        return
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    if rotate180:
        m = m[::-1, ::-1]
    H, W = image.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x1 <= x0 or y1 <= y0:
        return
    a = m[y0 - y : y1 - y, x0 - x : x1 - x, None]
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


@dataclass(frozen=True)
class CardStyle:
    """How a procedural deck looks. Lengths are fractions of the card width."""

    font: int = cv2.FONT_HERSHEY_DUPLEX
    thickness: int = 4
    italic: bool = False
    index_x: float = 0.1  # centre of the index column
    index_top: float = 0.05
    rank_height: float = 0.14
    rank_width: float = 0.085  # width of one character; "10" is wider
    suit_gap: float = 0.02
    suit_size: float = 0.1
    suit_aspect: float = 1.1  # height / width of the index suit
    four_index: bool = False
    paper: tuple[int, int, int] = (245, 245, 242)
    suit_variant: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    back_colour: tuple[int, int, int] = (150, 60, 30)
    corner_radius: float = 0.05
    # where the pips of an ace to ten lie: the layout's unit square mapped to this part of the face
    # (fractions of the width across, of the height down), and their size against the usual
    pip_left: float = 0.2
    pip_span_x: float = 0.6
    pip_top: float = 0.08
    pip_span_y: float = 0.84
    pip_scale: float = 1.0
    four_colour: bool = False  # diamonds blue and clubs green (``FOUR_COLOUR``), as many poker decks
    rank_masks: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)
    suit_masks: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def ink(self, suit: str) -> tuple[int, int, int]:
        """The colour (BGR) a card of ``suit`` is printed in."""
        if self.four_colour:
            return FOUR_COLOUR[suit]
        return RED if suit in RED_SUITS else BLACK

    def rank_mask(self, rank: str) -> np.ndarray:
        if rank in self.rank_masks:
            return self.rank_masks[rank]
        return hershey_mask(rank, self.font, self.thickness, self.italic)

    def suit_mask(self, suit: str) -> np.ndarray:
        if suit in self.suit_masks:
            return self.suit_masks[suit]
        return suit_mask(suit, variant=np.array(self.suit_variant))

    def index_boxes(
        self, rank: str
    ) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
        """(rank box, suit box) in card-width units for the top-left index."""
        rw = self.rank_width * (1.7 if rank == "10" else 1.0) * (1.15 if rank in ("Q", "K", "A") else 1.0)
        rank_box = (self.index_x - rw / 2, self.index_top, rw, self.rank_height)
        sy = self.index_top + self.rank_height + self.suit_gap
        suit_box = (self.index_x - self.suit_size / 2, sy, self.suit_size, self.suit_size * self.suit_aspect)
        return rank_box, suit_box


@dataclass(frozen=True)
class RenderedCard:
    """A card image with its alpha mask (rounded corners) and its code."""

    code: str
    image: np.ndarray
    mask: np.ndarray


_PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    5: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    8: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8), (0.7, 0.8)],
    9: [
        (0.3, 0.2),
        (0.7, 0.2),
        (0.3, 0.4),
        (0.7, 0.4),
        (0.5, 0.5),
        (0.3, 0.6),
        (0.7, 0.6),
        (0.3, 0.8),
        (0.7, 0.8),
    ],
    10: [
        (0.3, 0.2),
        (0.7, 0.2),
        (0.5, 0.3),
        (0.3, 0.4),
        (0.7, 0.4),
        (0.3, 0.6),
        (0.7, 0.6),
        (0.5, 0.7),
        (0.3, 0.8),
        (0.7, 0.8),
    ],
}


def _rounded_mask(h: int, w: int, radius: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(radius, 1)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def draw_index(image: np.ndarray, code: str, style: CardStyle) -> None:
    """Draw the rank-over-suit index in the top-left and (rotated) bottom-right corners."""
    rank, suit = code[:-1], code[-1]
    colour = style.ink(suit)
    w = image.shape[1]
    rb, sb = style.index_boxes(rank)
    rmask, smask = style.rank_mask(rank), style.suit_mask(suit)
    for _ in range(2):
        paste_mask(image, rmask, tuple(v * w for v in rb), colour)  # type: ignore[arg-type]
        paste_mask(image, smask, tuple(v * w for v in sb), colour)  # type: ignore[arg-type]
        if style.four_index:  # the mirrored index in the top-right corner
            paste_mask(image, rmask, (w - (rb[0] + rb[2]) * w, rb[1] * w, rb[2] * w, rb[3] * w), colour)
            paste_mask(image, smask, (w - (sb[0] + sb[2]) * w, sb[1] * w, sb[2] * w, sb[3] * w), colour)
        image[:] = image[::-1, ::-1]


def _court_art(image: np.ndarray, code: str, style: CardStyle, rng: np.random.Generator) -> None:
    h, w = image.shape[:2]
    x0, y0, x1, y1 = int(0.2 * w), int(0.13 * w), int(0.8 * w), h - int(0.13 * w)
    palette = [(30, 170, 230), (160, 60, 30), (40, 30, 200), (30, 25, 25), (200, 200, 200)]
    clean = image.copy()  # the art stays inside its frame, clear of the indices
    for _ in range(40):
        c = palette[int(rng.integers(len(palette)))]
        px, py = int(rng.integers(x0, x1)), int(rng.integers(y0, (y0 + y1) // 2))
        if rng.random() < 0.5:
            cv2.ellipse(
                image,
                (px, py),
                (int(rng.integers(3, w // 8)), int(rng.integers(3, w // 8))),
                float(rng.integers(180)),
                0,
                360,
                c,
                -1,
            )
        else:
            cv2.rectangle(
                image, (px, py), (px + int(rng.integers(3, w // 6)), py + int(rng.integers(3, w // 6))), c, -1
            )
    outside = np.ones(image.shape[:2], bool)
    outside[y0 : y1 + 1, x0 : x1 + 1] = False
    image[outside] = clean[outside]
    top = image[y0 : (y0 + y1) // 2, x0:x1].copy()
    image[(y0 + y1) // 2 : (y0 + y1) // 2 + top.shape[0], x0:x1] = top[::-1, ::-1][: y1 - (y0 + y1) // 2]
    cv2.rectangle(image, (x0, y0), (x1, y1), (120, 40, 20), max(1, w // 100))
    letter = hershey_mask(code[:-1], cv2.FONT_HERSHEY_TRIPLEX, 5)
    colour = style.ink(code[-1])
    paste_mask(image, letter, (0.4 * w, 0.4 * h, 0.2 * w, 0.14 * h), colour)


def render_back(width: int, style: CardStyle | None = None) -> RenderedCard:
    """A face-down card: a coloured lattice inside a white border."""
    style = style or CardStyle()
    h = int(round(width * CARD_ASPECT))
    img = np.full((h, width, 3), style.paper, np.uint8)
    b = int(0.06 * width)
    cv2.rectangle(img, (b, b), (width - b, h - b), style.back_colour, -1)
    step = max(4, width // 14)
    light = tuple(min(255, c + 90) for c in style.back_colour)
    for k in range(-h, width + h, step):
        cv2.line(img, (b + k, b), (b + k + h, b + h), light, max(1, width // 120))
        cv2.line(img, (b + k, b), (b + k - h, b + h), light, max(1, width // 120))
    img[:b] = style.paper
    img[-b:] = style.paper
    img[:, :b] = style.paper
    img[:, -b:] = style.paper
    cv2.ellipse(img, (width // 2, h // 2), (width // 5, h // 7), 0, 0, 360, light, max(1, width // 60))
    return RenderedCard(BACK, img, _rounded_mask(h, width, int(style.corner_radius * width)))


def _joker_face(image: np.ndarray, style: CardStyle, rng: np.random.Generator) -> None:
    """A joker: "JOKER" spelt down both index corners (red or black) and a jester's star in the middle."""
    h, w = image.shape[:2]
    colour = RED if rng.random() < 0.5 else BLACK
    star = np.array(
        [
            [np.cos(a) * (1 if i % 2 == 0 else 0.4), np.sin(a) * (1 if i % 2 == 0 else 0.4)]
            for i, a in enumerate(np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1])
        ]
    )
    pts = (star * w * 0.3 + (w / 2, h / 2)).astype(np.int32)
    cv2.fillPoly(image, [pts], colour, cv2.LINE_AA)
    for k in range(3):  # the jester's cap: three bells above the star
        cx = int(w * (0.3 + 0.2 * k))
        cv2.circle(image, (cx, int(h * 0.22)), max(2, w // 25), colour, -1, cv2.LINE_AA)
    letter_h = float(np.clip(0.55 * style.rank_height, 0.05, 0.085))
    letter_w = 0.8 * letter_h
    for _ in range(2):
        for i, ch in enumerate("JOKER"):
            box = (
                (style.index_x - letter_w / 2) * w,
                (style.index_top + 1.25 * letter_h * i) * w,
                letter_w * w,
                letter_h * w,
            )
            paste_mask(image, hershey_mask(ch, style.font, style.thickness), box, colour)
        image[:] = image[::-1, ::-1]


def render_card(code: str, width: int = 250, style: CardStyle | None = None, seed: int = 0) -> RenderedCard:
    """Draw the face of ``code`` (``AS``…``KC``, ``JK``) or a back (``BK``) ``width`` pixels wide."""
    style = style or CardStyle()
    if code == BACK:
        return render_back(width, style)
    h = int(round(width * CARD_ASPECT))
    img = np.full((h, width, 3), style.paper, np.uint8)
    rng = np.random.default_rng(seed)
    if code == JOKER:
        _joker_face(img, style, rng)
        return RenderedCard(code, img, _rounded_mask(h, width, int(style.corner_radius * width)))
    rank, suit = code[:-1], code[-1]
    colour = style.ink(suit)
    smask = style.suit_mask(suit)
    if rank in ("J", "Q", "K"):
        _court_art(img, code, style, rng)
    else:
        n = 1 if rank == "A" else int(rank)
        pip = ((0.2 if n < 9 else 0.17) if n > 1 else 0.34) * style.pip_scale
        for px, py in _PIPS[n]:
            cx = style.pip_left * width + px * style.pip_span_x * width
            cy = style.pip_top * h + py * style.pip_span_y * h
            box = (cx - pip * width / 2, cy - pip * width * 0.55, pip * width, pip * width * 1.1)
            paste_mask(img, smask, box, colour, rotate180=py > 0.55)
    draw_index(img, code, style)
    return RenderedCard(code, img, _rounded_mask(h, width, int(style.corner_radius * width)))
