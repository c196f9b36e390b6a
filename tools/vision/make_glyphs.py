"""Render training glyphs: procedural cards in many fonts and index layouts, photographed by a simulated
camera (perspective, blur, noise, lighting, JPEG) and cut by the same code the recogniser uses.

    python tools/vision/make_glyphs.py --cards 9000 --out /tmp/glyphs.npz

``--fonts heldout`` draws every deck's rank glyphs (and font suits) from the held-out font families
only (``fonts.HELD_OUT``), for the synthetic reader benchmark; training uses ``--fonts train``.
Besides the hand-made descriptors (``xr``/``xs``) it stores the CNN reader's glyph canvases
(``cr``/``cs``, uint8).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fonts import font_files, suit_from_font, text_mask  # noqa: E402

from vision.detect import CardQuad  # noqa: E402
from vision.glyphs import RANK_CLASSES, REJECT, SUIT_CLASSES  # noqa: E402
from vision.index import DESCRIPTOR_LEN, PX, canvas_of, cut_patch, segment_index  # noqa: E402
from vision.render import (  # noqa: E402
    HERSHEY_FONTS,
    CardStyle,
    render_back,
    render_card,
    suit_mask,
)
from vision.sighting import FACES, RANKS, SUITS  # noqa: E402


def flat_top_three(rng: np.random.Generator) -> np.ndarray:
    """A "3" with a flat top bar and a diagonal, as on many casino and Bicycle-style indices."""
    m = np.zeros((150, 110), np.uint8)
    t = int(rng.integers(7, 17))
    top = int(rng.integers(8, 16))
    cv2.line(m, (15, top), (90, top), 255, t)
    mid_y = int(rng.integers(55, 70))
    cv2.line(m, (90, top), (45, mid_y), 255, t)
    r = int(rng.integers(34, 42))
    cy = 140 - r - t // 2
    cv2.ellipse(m, (55, cy), (r + 4, r), 0, -125, 150, 255, t)
    ys, xs = np.nonzero(m)
    return m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def round_club(rng: np.random.Generator) -> np.ndarray:
    """A club of three well-separated round lobes on a short, thin, flared stem (many casino decks)."""
    m = np.zeros((120, 120), np.uint8)
    r = int(rng.integers(22, 28))
    spread = int(rng.integers(24, 30))
    top = r + 2
    low = top + int(rng.integers(30, 38))
    for cx, cy in ((60, top), (60 - spread, low), (60 + spread, low)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    stem_top, stem_w = low - 5, int(rng.integers(4, 9))
    foot = min(119, low + r + int(rng.integers(4, 14)))
    base_w = stem_w + int(rng.integers(8, 18))
    cv2.fillPoly(m, [np.array([[60 - stem_w, stem_top], [60 + stem_w, stem_top], [60 + base_w, foot],
                               [60 - base_w, foot]], np.int32)], 255, cv2.LINE_AA)
    ys, xs = np.nonzero(m)
    return m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def random_style(
    rng: np.random.Generator, fonts: list[str], suit_fonts: list[str], font_share: float = 0.7
) -> CardStyle:
    rank_masks: dict[str, np.ndarray] = {}
    if rng.random() < font_share:
        path = fonts[int(rng.integers(len(fonts)))]
        for r in RANKS:
            m = text_mask(path, r)
            if m is not None:
                rank_masks[r] = m
    if rng.random() < 0.35:
        rank_masks["3"] = flat_top_three(rng)
    font = HERSHEY_FONTS[int(rng.integers(len(HERSHEY_FONTS)))]
    suit_masks: dict[str, np.ndarray] = {}
    if rng.random() < 0.6:
        path = suit_fonts[int(rng.integers(len(suit_fonts)))] if suit_fonts else fonts[0]
        for s in SUITS:
            m = suit_from_font(path, s)
            if m is not None:
                suit_masks[s] = m
    variant = tuple(float(v) for v in rng.uniform(-1, 1, 4))
    if "C" not in suit_masks and rng.random() < 0.35:
        suit_masks["C"] = round_club(rng)
    for s in SUITS:
        if s not in suit_masks:
            suit_masks[s] = suit_mask(s, variant=np.array(variant))
    small = rng.random() < 0.25  # small, well-spaced indices (many casino and bridge decks)
    rank_height = float(rng.uniform(0.075, 0.11)) if small else float(rng.uniform(0.1, 0.26))
    suit_size = float(rng.uniform(0.05, 0.09)) if small else float(rng.uniform(0.06, 0.14))
    top = float(rng.uniform(0.03, 0.18))
    gap = float(rng.uniform(0.0, 0.09)) if small else float(rng.uniform(0.0, 0.05))
    aspect = float(rng.uniform(0.9, 1.6))
    if top + rank_height + gap + suit_size * aspect > 0.58:
        rank_height = 0.58 - top - gap - suit_size * aspect
    paper = tuple(int(v) for v in rng.integers(215, 256, 3))
    return CardStyle(
        font=font,
        thickness=int(rng.integers(1 if small else 2, 7)),
        italic=bool(rng.random() < 0.1),
        index_x=float(rng.uniform(0.075, 0.13)),
        index_top=top,
        rank_height=rank_height,
        rank_width=float(rng.uniform(0.055, 0.11)) * rank_height / 0.14,
        suit_gap=gap,
        suit_size=suit_size,
        suit_aspect=aspect,
        paper=paper,
        suit_variant=variant,  # type: ignore[arg-type]
        back_colour=tuple(int(v) for v in rng.integers(0, 220, 3)),  # type: ignore[arg-type]
        rank_masks=rank_masks,
        suit_masks=suit_masks,
    )


def background(rng: np.random.Generator, size: int) -> np.ndarray:
    base = rng.integers(0, 200, 3).astype(np.float32)
    img = np.ones((size, size, 3), np.float32) * base
    noise = rng.normal(0, rng.uniform(2, 25), (size // 8, size // 8, 3)).astype(np.float32)
    img += cv2.resize(noise, (size, size))
    return np.clip(img, 0, 255).astype(np.uint8)


def photograph(
    rng: np.random.Generator, card_img: np.ndarray, mask: np.ndarray, size: int = 420
) -> tuple[np.ndarray, np.ndarray]:
    """Place the card in a frame under a random view; returns the frame and the card's 4 image corners."""
    h, w = card_img.shape[:2]
    width_px = float(rng.uniform(60, 300))
    s = width_px / w
    ang = rng.uniform(0, 2 * np.pi)
    ca, sa = np.cos(ang), np.sin(ang)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    centred = (src - [w / 2, h / 2]) * s
    rot = centred @ np.array([[ca, sa], [-sa, ca]], np.float32)
    rot += rng.normal(0, 0.05 * width_px, rot.shape)  # perspective
    dst = (rot + size / 2).astype(np.float32)
    hm = cv2.getPerspectiveTransform(src, dst)
    frame = background(rng, size)
    warped = cv2.warpPerspective(
        card_img, hm, (size, size), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    )
    alpha = cv2.warpPerspective(mask, hm, (size, size)).astype(np.float32)[..., None] / 255.0
    frame = frame * (1 - alpha) + warped * alpha
    # lighting gradient and colour cast
    gx, gy = np.meshgrid(np.linspace(-1, 1, size), np.linspace(-1, 1, size))
    light = 1.0 + rng.uniform(-0.35, 0.2) + rng.uniform(-0.3, 0.3) * gx + rng.uniform(-0.3, 0.3) * gy
    cast = rng.uniform(0.8, 1.1, 3)
    frame = frame * light[..., None] * cast
    if rng.random() < 0.3:  # glare blob
        cx, cy = rng.uniform(0, size, 2)
        g = np.exp(
            -((gx * size / 2 + size / 2 - cx) ** 2 + (gy * size / 2 + size / 2 - cy) ** 2)
            / (2 * rng.uniform(10, 60) ** 2)
        )
        frame = frame + g[..., None] * rng.uniform(40, 140)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    sigma = rng.uniform(0, 1.6)
    if sigma > 0.3:
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    frame = np.clip(frame.astype(np.float32) + rng.normal(0, rng.uniform(0, 8), frame.shape), 0, 255).astype(
        np.uint8
    )
    if rng.random() < 0.15:
        frame = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.6:
        ok, enc = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        frame = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    corners = cv2.perspectiveTransform(src.reshape(-1, 1, 2), hm).reshape(-1, 2)
    corners += rng.normal(0, 0.012 * width_px, corners.shape)  # detector error
    return frame, corners.astype(np.float64)


def iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ax0, ay0, aw, ah = a
    bx0, by0, bw, bh = b
    ix = max(0.0, min(ax0 + aw, bx0 + bw) - max(ax0, bx0))
    iy = max(0.0, min(ay0 + ah, by0 + bh) - max(ay0, by0))
    inter = ix * iy
    return inter / (aw * ah + bw * bh - inter + 1e-9)


def make(n_cards: int, seed: int, split: str = "train") -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    fonts = font_files(split)  # type: ignore[arg-type]
    suit_fonts = [f for f in fonts if all(suit_from_font(f, s) is not None for s in SUITS)]
    print(f"{len(fonts)} fonts, {len(suit_fonts)} with suit symbols", flush=True)
    xr: list[np.ndarray] = []
    yr: list[int] = []
    xs: list[np.ndarray] = []
    ys: list[int] = []
    cr: list[np.ndarray] = []
    cs: list[np.ndarray] = []
    codes = list(FACES)
    for i in range(n_cards):
        style = random_style(rng, fonts, suit_fonts, 1.0 if split == "heldout" else 0.7)
        u = rng.random()
        back = u < 0.06
        code = "BK" if back else "JK" if u < 0.1 else codes[int(rng.integers(len(codes)))]
        card = render_back(200, style) if back else render_card(code, 200, style, seed=i)
        back = back or code == "JK"  # a joker's corner is no rank-over-suit index: reject examples
        frame, corners = photograph(rng, card.image, card.mask)
        quad = CardQuad(corners)
        for k in range(4):
            for sideways in (False, True):
                if k % 2 == 0 and sideways and rng.random() < 0.5:
                    continue
                patch, _ = cut_patch(frame, quad.frame(k), sideways)
                g = segment_index(patch)
                if g is None:
                    continue
                positive = (not back) and k % 2 == 0 and not sideways
                rank, suit = (code[:-1], code[-1]) if positive else (REJECT, REJECT)
                if positive:
                    rb, sb = style.index_boxes(rank)
                    if iou(tuple(v * PX for v in rb), g.rank.box) < 0.3:
                        rank = REJECT
                    if g.suit is not None and iou(tuple(v * PX for v in sb), g.suit.box) < 0.3:
                        suit = REJECT
                xr.append(g.rank.features[:DESCRIPTOR_LEN])
                cr.append(canvas_u8(g.rank.features))
                yr.append(RANK_CLASSES.index(rank))
                for alt in g.rank_alternatives:
                    # the left part of a "10" alone (a "1" must not pass for a 7 or an A)
                    good = positive and iou(tuple(v * PX for v in rb), alt.box) >= 0.6
                    xr.append(alt.features[:DESCRIPTOR_LEN])
                    cr.append(canvas_u8(alt.features))
                    yr.append(RANK_CLASSES.index(code[:-1] if good else REJECT))
                if g.suit is not None:
                    xs.append(g.suit.features[:DESCRIPTOR_LEN])
                    cs.append(canvas_u8(g.suit.features))
                    ys.append(SUIT_CLASSES.index(suit))
        if i % 500 == 0:
            print(f"{i}/{n_cards} cards, {len(yr)} rank glyphs", flush=True)
    return {
        "xr": np.array(xr, np.float32),
        "yr": np.array(yr, np.int16),
        "xs": np.array(xs, np.float32),
        "ys": np.array(ys, np.int16),
        "cr": np.array(cr, np.uint8),
        "cs": np.array(cs, np.uint8),
    }


def canvas_u8(features: np.ndarray) -> np.ndarray:
    return np.round(canvas_of(features)[0, 0] * 255).astype(np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=9000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/glyphs.npz")
    ap.add_argument("--fonts", choices=("train", "heldout"), default="train")
    a = ap.parse_args()
    data = make(a.cards, a.seed, a.fonts)
    np.savez_compressed(a.out, **data)
    print({k: v.shape for k, v in data.items()})


if __name__ == "__main__":
    main()
