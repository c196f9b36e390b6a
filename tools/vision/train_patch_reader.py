"""Train the patch reader shipped as vision/models/patch_reader.onnx (dev-only: PyTorch, onnx, Pillow, fonts).

Data: only the project's own renders. Procedural decks (``vision/render.py``, random fonts from
``fonts.font_files("train")``, index layouts, four-index decks, jokers, backs, court art) are drawn on
procedural tables (``backgrounds.TRAIN_FAMILIES`` only) at card widths 40–500 px (log-uniform), with
rotation, mild perspective, another card's edge over them, uneven light, colour casts, glare, blur,
noise, greyscale and JPEG 30–95; then corner patches are cut with ``vision.index.cut_patch`` through a
corner frame with a realistic finder error (origin off by a few % of the card width, ±6°, ±12 % scale,
corner jitter), the small cards' patches being upsampled as in the recogniser. Patches far off the
corner, in the card's middle, on the table, on backs and court art are cut too. Every label comes from
geometry: an index is a positive when it lies upright and whole in the patch (rank and suit judged
separately; half-visible ones are left out of the loss).

    python tools/vision/train_patch_reader.py --seed 0 --out vision/models/patch_reader.onnx
    python tools/vision/train_patch_reader.py --bench --model vision/models/patch_reader.onnx

The first command generates (and caches under ``--cache``) the training set, then trains on one thread.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from backgrounds import LIGHT, TRAIN_FAMILIES, table_surface  # noqa: E402
from fonts import font_files, suit_from_font  # noqa: E402
from make_glyphs import random_style  # noqa: E402
from patch_labels import GRID, IGNORE, label_of  # noqa: E402
from scenes import random_style as scene_style  # noqa: E402
from torch_tools import (  # noqa: E402
    EXPOSURE_GAIN,
    EXPOSURE_OFFSET,
    export_onnx,
    load_onnx_initializers,
    out_of_time,
)

from vision.detect import CardQuad, CornerFrame  # noqa: E402
from vision.index import PH, PW, PX, cut_patch  # noqa: E402
from vision.patch_reader import INPUT_H, INPUT_W, N_OUT, N_RANK, N_SUIT, RANKS, SUITS  # noqa: E402
from vision.render import CARD_ASPECT, CardStyle, render_back, render_card  # noqa: E402
from vision.sighting import FACES  # noqa: E402

R_REJ, S_REJ = N_RANK - 1, N_SUIT - 1


# -- data ------------------------------------------------------------------------------------------
def texture_bank(rng: np.random.Generator, n: int = 30, size: int = 320) -> list[np.ndarray]:
    fams = list(TRAIN_FAMILIES)
    return [
        np.clip(table_surface(fams[i % len(fams)], rng, size, size), 0, 255).astype(np.uint8)
        for i in range(n)
    ]


def table_crop(rng: np.random.Generator, bank: list[np.ndarray], h: int, w: int) -> np.ndarray:
    t = bank[int(rng.integers(len(bank)))]
    s = float(np.exp(rng.uniform(np.log(0.4), np.log(2.5))))
    ch, cw = min(t.shape[0], max(8, int(h / s))), min(t.shape[1], max(8, int(w / s)))
    y, x = int(rng.integers(0, t.shape[0] - ch + 1)), int(rng.integers(0, t.shape[1] - cw + 1))
    out = cv2.resize(t[y : y + ch, x : x + cw], (w, h), interpolation=cv2.INTER_LINEAR)
    return out[:, ::-1].copy() if rng.random() < 0.5 else out


def index_boxes(style: CardStyle, code: str) -> list[tuple[str, tuple[float, ...], bool]]:
    """Every drawn index box in card units (width 1): (what, (x, y, w, h), upside_down)."""
    out: list[tuple[str, tuple[float, ...], bool]] = []
    a = CARD_ASPECT
    if code == "JK":
        lh = float(np.clip(0.55 * style.rank_height, 0.05, 0.085))
        lw = 0.8 * lh
        boxes = [("joker", (style.index_x - lw / 2, style.index_top, lw, 1.25 * lh * 4 + lh))]
    else:
        rb, sb = style.index_boxes(code[:-1])
        boxes = [("rank", rb), ("suit", sb)]
    for what, (x, y, w, h) in boxes:
        out.append((what, (x, y, w, h), False))
        out.append((what, (1 - x - w, a - y - h, w, h), True))
        if style.four_index and code != "JK":
            out.append((what, (1 - x - w, y, w, h), False))
            out.append((what, (x, a - y - h, w, h), True))
    return out


def box_in_patch(
    card_to_patch: np.ndarray,
    card_to_image: np.ndarray,
    box: tuple[float, ...],
    flipped: bool,
    occluded: np.ndarray | None,
) -> float:
    """How much of ``box`` shows upright in the patch (0 when it lies on its side or upside down)."""
    x, y, w, h = box
    pts = (GRID * [w, h] + [x, y]).reshape(-1, 1, 2)
    pp = cv2.perspectiveTransform(pts, card_to_patch).reshape(-1, 2)
    top = np.array([[[x + w / 2, y]], [[x + w / 2, y + h]]])
    t = cv2.perspectiveTransform(top, card_to_patch).reshape(-1, 2)
    d = (t[0] - t[1]) if flipped else (t[1] - t[0])  # the glyph's downwards in the patch
    if d[1] <= 0 or abs(d[0]) > 0.6 * d[1]:
        return 0.0
    inside = (pp[:, 0] >= 0) & (pp[:, 0] < PW) & (pp[:, 1] >= 0) & (pp[:, 1] < PH)
    if occluded is not None:
        ip = cv2.perspectiveTransform(pts, card_to_image).reshape(-1, 2).round().astype(int)
        hh, ww = occluded.shape
        ok = (ip[:, 0] >= 0) & (ip[:, 0] < ww) & (ip[:, 1] >= 0) & (ip[:, 1] < hh)
        cov = np.zeros(len(ip), bool)
        cov[ok] = occluded[ip[ok, 1], ip[ok, 0]]
        inside &= ~cov
    return float(inside.mean())


@dataclasses.dataclass(frozen=True)
class Profile:
    """How a data chunk is drawn. ``v1`` made the first shipped reader's data; ``v2`` adds what it
    misread: cards 25–60 px wide, a camera's downscaling of a sharper frame, the scenes' own decks,
    and the larger corner error the finder really makes (common.md: 20 of 72 corners within 3 %)."""

    name: str
    tiny_share: float = 0.0  # share of cards drawn 25–60 px wide (the rest 40–500 px, log-uniform)
    scene_decks: float = 0.0  # share of decks drawn by ``scenes.random_style`` (Hershey scene decks)
    downscale: float = 0.0  # share of frames drawn 1.3–3× larger and shrunk as a camera pipeline would
    shift: float = 0.025  # the corner frame's shift, σ in card widths ...
    shift_max: float = 0.06  # ... clipped here
    turn: float = 6.0  # degrees
    jitter: float = 0.012  # each corner, σ in card widths
    tiny_px: tuple[float, float] = (25.0, 60.0)  # the tiny cards' widths (log-uniform)
    hard_share: float = 0.0  # share of cards photographed badly (``hard_photometrics``)
    odd_tables: float = 0.0  # share of cards on a pale or recoloured training table (``odd_table``)
    # an index whose ink contrast (``ink_contrast``) after exposure and blur is below the first value is
    # labelled reject (it cannot be read), below the second left out of the loss; (0, 0): no such rule
    min_ink: tuple[float, float] = (0.0, 0.0)
    # share of cards shrunk from their render with point sampling (linear or nearest interpolation, no
    # averaging) straight to their size on the table, as a renderer or a camera without an optical
    # low-pass filter decimates: thin strokes break up and alias instead of fading evenly
    alias: float = 0.0
    # share of cards with another card of the same deck laid over them as in a hand or a fan (its own
    # index beside theirs); a patch is labelled by the index in its index column (``neighbour_labels``)
    fans: float = 0.0
    # a fan's patch that shows one card's rank and the other's suit in its index column is labelled
    # reject on both heads (no one index shows whole), where v4f took each head from its own card and
    # so taught a rank of one card read with the next card's suit
    mixed_reject: bool = False
    # share of decks printed in four colours (``CardStyle.four_colour``: diamonds blue, clubs green, as
    # poker rooms' decks), so the reader learns a blue or green index as it is and not only in grey
    four_colour: float = 0.0


_V2 = Profile(
    "v2", tiny_share=0.55, scene_decks=0.3, downscale=0.5, shift=0.035, shift_max=0.09, turn=7.0, jitter=0.015
)
PROFILES = {
    "v1": Profile("v1"),
    "v2": _V2,
    # v3 (session 6): what v2 still missed on 50–80 px cards: washed-out and under-exposed corners,
    # strong lens blur, frames further off the index, and pale or oddly coloured tables (from the
    # training families only)
    "v3": dataclasses.replace(
        _V2,
        name="v3",
        shift=0.045,
        shift_max=0.12,
        tiny_px=(30.0, 90.0),
        hard_share=0.7,
        odd_tables=0.3,
        min_ink=(10.0, 16.0),
    ),
}
# v4 (session 7): the 45–90 px cards of a 1280 × 960 frame on which v3 still confused spades with clubs,
# hearts with diamonds and 6/8/9, 3/8: most cards that size, half of them decimated without averaging,
# fewer of them badly exposed than in v3 (the misreadings were on plainly lit, blurred, small corners)
PROFILES["v4"] = dataclasses.replace(
    PROFILES["v3"], name="v4", tiny_share=0.8, tiny_px=(45.0, 90.0), hard_share=0.45, alias=0.5
)
# v4f: v4 with hands and fans (another card of the deck over a third of the cards, its index beside
# theirs), where v3 read nothing or the neighbour's index
PROFILES["v4f"] = dataclasses.replace(PROFILES["v4"], name="v4f", fans=0.35)
# session 31: v1 and v4f with half the decks four-colour (the reader had never seen blue or green ink)
PROFILES["v1c"] = dataclasses.replace(PROFILES["v1"], name="v1c", four_colour=0.5)
PROFILES["v4fc"] = dataclasses.replace(PROFILES["v4f"], name="v4fc", four_colour=0.5)
# v5f: v4fc with a patch of two cards' halves (rank of one, suit of the other) labelled reject
PROFILES["v5f"] = dataclasses.replace(PROFILES["v4fc"], name="v5f", mixed_reject=True)


def perturbed_frame(
    rng: np.random.Generator,
    corners: np.ndarray,
    k: int,
    tw: float,
    far: bool,
    prof: Profile = PROFILES["v1"],
) -> CornerFrame:
    """Corner ``k``'s frame from a quad a finder might have given: shifted, turned, scaled, jittered."""
    c0 = corners[k]
    th = np.deg2rad(rng.uniform(-prof.turn, prof.turn))
    s = rng.uniform(0.88, 1.12)
    r = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]]) * s
    q = (corners - c0) @ r.T + c0
    q = q + np.clip(rng.normal(0, prof.shift * tw, 2), -prof.shift_max * tw, prof.shift_max * tw)
    q = q + rng.normal(0, prof.jitter * tw, q.shape)
    f = CardQuad(q).frame(k)
    if not far:
        return f
    h = f.card_to_image()
    dx, dy = rng.uniform(-0.3, 0.8), rng.uniform(-0.3, 1.0)
    if abs(dx) < 0.12 and abs(dy) < 0.12:
        dx += 0.25
    t = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
    return CornerFrame(f.origin, f.x, f.y, f.width, h @ t)


def _light_map(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Uneven light (gradient, sometimes a soft shadow edge, sometimes glare) as an h × w gain map."""
    n = 33
    gx, gy = np.meshgrid(np.linspace(-1, 1, n, dtype=np.float32), np.linspace(-1, 1, n, dtype=np.float32))
    light = 1.0 + rng.uniform(-0.45, 0.2) + rng.uniform(-0.35, 0.35) * gx + rng.uniform(-0.35, 0.35) * gy
    if rng.random() < 0.25:  # a soft shadow edge
        a = rng.uniform(0, np.pi)
        edge = np.cos(a) * gx + np.sin(a) * gy - rng.uniform(-0.8, 0.8)
        light = light * (1 - rng.uniform(0.2, 0.5) / (1 + np.exp(-edge * rng.uniform(5, 40))))
    if rng.random() < 0.2:  # glare
        cx, cy = rng.uniform(-1, 1, 2)
        light = light + np.exp(
            -((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * rng.uniform(0.1, 0.5) ** 2)
        ) * rng.uniform(0.2, 0.6)
    return cv2.resize(light.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def degrade(
    rng: np.random.Generator,
    frame: np.ndarray,
    extra_noise: float = 0.0,
    before_noise: list[np.ndarray] | None = None,
) -> np.ndarray:
    """Light, colour cast, blur, noise (σ 0–9, with ``extra_noise`` added in quadrature), greyscale and
    JPEG, as a camera would add them. ``before_noise`` receives the image as it was before the noise."""
    h, w = frame.shape[:2]
    cast = rng.uniform(0.85, 1.1, 3)
    light = _light_map(rng, h, w)
    gain = cv2.merge([light * float(c) for c in cast])
    img = (
        cv2.multiply(frame, gain, dtype=cv2.CV_8U)
        if frame.dtype == np.float32
        else cv2.multiply(frame.astype(np.float32), gain, dtype=cv2.CV_8U)
    )
    sigma = rng.uniform(0, 1.4) if rng.random() < 0.7 else 0.0
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.1:  # motion blur
        k = np.zeros((5, 5), np.float32)
        k[2] = 1 / 5
        m = cv2.getRotationMatrix2D((2, 2), rng.uniform(0, 180), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(k, m, (5, 5)))
    if before_noise is not None:
        before_noise.append(img)
    noise = np.empty(img.shape, np.int16)
    cv2.setRNGSeed(int(rng.integers(1 << 30)))
    cv2.randn(noise, 0, float(np.hypot(rng.uniform(0, 9), extra_noise)))
    img = cv2.add(img, noise, dtype=cv2.CV_8U)
    if rng.random() < 0.12:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.75:
        _, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


def hard_photometrics(rng: np.random.Generator, frame: np.ndarray) -> tuple[np.ndarray, float]:
    """A bad exposure of the whole frame (at the card's final scale), before ``degrade``'s light, noise
    and JPEG: strong lens blur (σ 0.8–2 px) and/or a compressed tone curve, either washed out (ink
    pulled up towards the paper, the paper clipped to white: ink–paper spread down to ~15 levels) or
    under-exposed (a dark grey card with darker ink, spread 12–60 levels). Returns the frame and the
    σ of the extra sensor noise that exposure brings (for ``degrade``)."""
    img = frame.astype(np.float32)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.8, 2.0)))
    u = rng.random()
    if u < 0.45:  # washed out / over-exposed
        ink = float(rng.uniform(150, 225))
        paper = float(rng.uniform(max(ink + 15, 235), 300))
    elif u < 0.85:  # under-exposed
        paper = float(rng.uniform(35, 110))
        ink = max(0.0, paper - float(rng.uniform(12, 60)))
    else:
        ink, paper = 25.0, 235.0
    img = ink + (img - 25.0) * ((paper - ink) / 210.0)
    noise = float(rng.uniform(1, 6)) if u < 0.85 else 0.0
    return np.clip(img, 0, 255).astype(np.uint8), noise


def odd_table(rng: np.random.Generator, bank: list[np.ndarray], h: int, w: int) -> np.ndarray:
    """A table unlike most training ones, made from the training families only: a light one paled
    towards the card's white with a fine speckle, or a felt with its colour channels remixed."""
    fams = list(TRAIN_FAMILIES)
    light = [t for i, t in enumerate(bank) if fams[i % len(fams)] in LIGHT]
    felts = [t for i, t in enumerate(bank) if fams[i % len(fams)].startswith("felt")]
    if rng.random() < 0.5 and light:
        t = table_crop(rng, light, h, w).astype(np.float32)
        t = 255 - (255 - t) * float(rng.uniform(0.25, 0.7))
        speck = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7)
        t = t + (speck * float(rng.uniform(0, 12)))[..., None]
    else:
        t = table_crop(rng, felts, h, w).astype(np.float32)
        mix = rng.dirichlet(np.ones(3) * 0.5, 3).astype(np.float32) * float(rng.uniform(0.9, 1.6))
        t = t @ mix.T
    return np.clip(t, 0, 255).astype(np.uint8)


def ink_contrast(frame: np.ndarray, card_to_image: np.ndarray, box: tuple[float, ...]) -> float:
    """The darkest-channel spread (3rd to 97th percentile) over an index box grown by a third of its
    width on each side (barely in height, so that the rank's box does not reach the suit below it): how
    far its ink stands out from the paper beside it."""
    x, y, w, h = box
    gx, gy = w / 3, 0.05 * h
    pts = np.array(
        [
            [x - gx, y - gy],
            [x + w + gx, y - gy],
            [x + w + gx, y + h + gy],
            [x - gx, y + h + gy],
        ],
        np.float64,
    ).reshape(-1, 1, 2)
    q = cv2.perspectiveTransform(pts, card_to_image).reshape(-1, 2)
    (x0, y0), (x1, y1) = np.floor(q.min(axis=0)).astype(int), np.ceil(q.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, frame.shape[1]), min(y1, frame.shape[0])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0.0
    lo, hi = np.percentile(frame[y0:y1, x0:x1].min(axis=2), (3, 97))
    return float(hi - lo)


def lay_neighbour(
    rng: np.random.Generator,
    frame: np.ndarray,
    style: CardStyle,
    card_to_image: np.ndarray,
    rw: int,
    s: float,
    shrink: int,
) -> tuple[str, np.ndarray, np.ndarray]:
    """Another card of the deck laid over this one as the next card of a hand or a fan: shifted by
    0.12–0.55 card widths across and −0.1–0.45 down (or the other way round), turned up to ±20°, with its
    drop shadow. Returns its code, its card-to-frame matrix and the mask of what it covers."""
    code = "BK" if rng.random() < 0.1 else FACES[int(rng.integers(len(FACES)))]
    card = (
        render_back(rw, style)
        if code == "BK"
        else render_card(code, rw, style, seed=int(rng.integers(1 << 30)))
    )
    rh = card.image.shape[0]
    size = (max(4, round(rw * s)), max(4, round(rh * s)))
    small = cv2.resize(card.image, size, interpolation=shrink)
    smask = cv2.resize(card.mask, size, interpolation=cv2.INTER_AREA)
    th = np.deg2rad(rng.uniform(-20, 20))
    dx, dy = rng.uniform(0.12, 0.55), rng.uniform(-0.1, 0.45)
    if rng.random() < 0.3:
        dx, dy = -dx, -dy
    to_this = np.array([[np.cos(th), -np.sin(th), dx], [np.sin(th), np.cos(th), dy], [0.0, 0.0, 1.0]])
    its_card_to_image = card_to_image @ to_this
    g = its_card_to_image @ np.diag([1.0 / size[0], 1.0 / size[0], 1.0])
    h, w = frame.shape[:2]
    warped = cv2.warpPerspective(small, g, (w, h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(smask, g, (w, h)).astype(np.float32) / 255.0
    tw = float(np.linalg.norm(card_to_image[:2, 0]))
    sd = cv2.GaussianBlur(alpha, (0, 0), max(1.0, 0.02 * tw))
    off = rng.normal(0, 0.015 * tw, 2).round().astype(int)
    sd = 1.0 - float(rng.uniform(0.15, 0.45)) * np.roll(sd, (int(off[1]), int(off[0])), axis=(0, 1))
    shaded = cv2.multiply(frame.astype(np.float32), cv2.merge([sd, sd, sd]), dtype=cv2.CV_8U)
    frame[:] = cv2.blendLinear(warped, shaded, alpha, 1.0 - alpha)
    return code, its_card_to_image, alpha > 0.5


def in_index_column(card_to_patch: np.ndarray, box: tuple[float, ...], sideways: bool) -> bool:
    """Whether the centre of ``box`` (card units) falls in the patch's index column, where the recogniser
    takes the index to be (``vision.patch_reader.index_reading``)."""
    x, y, w, h = box
    c = cv2.perspectiveTransform(np.array([[[x + w / 2, y + h / 2]]]), card_to_patch).reshape(2)
    x0, x1 = 0.02 * PX, 0.2 * PX
    if sideways:
        x0, x1 = PW - x1, PW - x0
    return bool(x0 <= c[0] <= x1 and 0.03 * PX <= c[1] <= 0.5 * PX)


def occlude(rng: np.random.Generator, frame: np.ndarray, quad: np.ndarray, tw: float) -> np.ndarray:
    """Another card's edge lying over this one near a corner; returns the covered mask."""
    h, w = frame.shape[:2]
    k = int(rng.integers(4))
    centre = quad[k] + (quad.mean(axis=0) - quad[k]) * rng.uniform(0.1, 0.9)
    a = rng.uniform(0, 2 * np.pi)
    n = np.array([np.cos(a), np.sin(a)])
    t = np.array([-n[1], n[0]])
    big = 4 * (tw + h + w)
    poly = np.array(
        [centre + t * big, centre + t * big + n * big, centre - t * big + n * big, centre - t * big]
    )
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [poly.round().astype(np.int32)], 255, cv2.LINE_AA)
    # its drop shadow on the card below
    sh = cv2.GaussianBlur(mask, (0, 0), max(1.0, tw * rng.uniform(0.01, 0.04)))
    shift = (n * tw * rng.uniform(-0.03, 0.0)).round().astype(int)
    sh = (
        1.0
        - float(rng.uniform(0.2, 0.5))
        * np.roll(sh, (int(shift[1]), int(shift[0])), axis=(0, 1)).astype(np.float32)
        / 255.0
    )
    shaded = cv2.multiply(frame.astype(np.float32), cv2.merge([sh, sh, sh]), dtype=cv2.CV_8U)
    paper = rng.integers(200, 256, 3)
    if rng.random() < 0.3:  # the occluder is a back
        paper = rng.integers(0, 220, 3)
    top = np.empty_like(frame)
    top[:] = paper.astype(np.uint8)
    alpha = mask.astype(np.float32) / 255.0
    frame[:] = cv2.blendLinear(top, shaded, alpha, 1.0 - alpha)
    return mask > 127


def shown(
    boxes: list[tuple[str, tuple[float, ...], bool]],
    inks: list[float],
    card_to_patch: np.ndarray,
    card_to_image: np.ndarray,
    occluded: np.ndarray | None,
    prof: Profile,
) -> tuple[int, int, int]:
    """Whether the rank, the suit and the joker column of one card show in a patch: 1 shown, 0 not, -1
    in between (left out of the loss), judged over each of its index boxes."""
    rank = suit = joker = 0
    for j, (what, box, flipped) in enumerate(boxes):
        v = label_of(box_in_patch(card_to_patch, card_to_image, box, flipped, occluded))
        if v == 1 and inks:  # shown, but too faint to read: reject; nearly too faint: left out
            v = 0 if inks[j] < prof.min_ink[0] else -1 if inks[j] < prof.min_ink[1] else 1
        if v == 0:
            continue
        if what == "rank":
            rank = v if rank != 1 else 1
        elif what == "suit":
            suit = v if suit != 1 else 1
        else:
            joker = v if joker != 1 else 1
    return rank, suit, joker


def neighbour_labels(
    labels: tuple[int, int, int],
    neighbour: tuple[str, np.ndarray],
    boxes: list[tuple[str, tuple[float, ...], bool]],
    inks: list[float],
    m: np.ndarray,
    sideways: bool,
    prof: Profile,
) -> tuple[int, int, int]:
    """A patch's (rank, suit, joker) labels with the neighbour card's index taken into account: where one
    of its boxes sits in the patch's index column, that index is the one the patch shows; where both
    cards' indices would be shown there, or either only half, the head is left out of the loss."""
    code, to_image = neighbour
    to_patch = np.linalg.inv(m) @ to_image
    near = [j for j, (_, box, _) in enumerate(boxes) if in_index_column(to_patch, box, sideways)]
    if not near:
        return labels
    states = shown(
        [boxes[j] for j in near], [inks[j] for j in near] if inks else [], to_patch, to_image, None, prof
    )
    classes = (
        RANKS.index(code[:-1]) if code != "JK" else R_REJ,
        SUITS.index(code[-1]) if code != "JK" else S_REJ,
        1,
    )
    out = []
    theirs = []  # which heads now name the neighbour's index rather than the card's own
    for label, state, cls, reject in zip(labels, states, classes, (R_REJ, S_REJ, 0), strict=True):
        if state == 0 or label == IGNORE:
            out.append(label)
        elif state == -1 or (label != reject and label != cls):
            out.append(IGNORE)
        else:
            out.append(cls)
        theirs.append(state == 1 and out[-1] == cls and cls != reject)
    ours = [not theirs[i] and out[i] not in (IGNORE, reject) for i, reject in enumerate((R_REJ, S_REJ))]
    if prof.mixed_reject and ((theirs[0] and ours[1]) or (ours[0] and theirs[1])):
        return R_REJ, S_REJ, out[2]  # one card's rank over the other's suit: no index whole
    return out[0], out[1], out[2]


def make_card(
    rng: np.random.Generator,
    fonts: list[str],
    suit_fonts: list[str],
    bank: list[np.ndarray],
    font_share: float,
    prof: Profile = PROFILES["v1"],
) -> list[tuple[np.ndarray, int, int, int]]:
    """Render one card on a table, photograph it, cut corner patches; (patch, rank, suit, joker) each."""
    if prof.scene_decks and rng.random() < prof.scene_decks:
        style = scene_style(rng)
    else:
        style = random_style(rng, fonts, suit_fonts, font_share)
        if rng.random() < 0.2:
            style = dataclasses.replace(style, four_index=True)
    if prof.four_colour and rng.random() < prof.four_colour:  # no draw otherwise: older chunks unchanged
        style = dataclasses.replace(style, four_colour=True)
    u = rng.random()
    code = "BK" if u < 0.06 else "JK" if u < 0.12 else FACES[int(rng.integers(len(FACES)))]
    if prof.tiny_share and rng.random() < prof.tiny_share:
        final_tw = float(np.exp(rng.uniform(np.log(prof.tiny_px[0]), np.log(prof.tiny_px[1]))))
    else:
        final_tw = float(np.exp(rng.uniform(np.log(40), np.log(500))))
    aliased = bool(prof.alias) and rng.random() < prof.alias
    # a camera pipeline: the card drawn sharper and larger, the whole frame shrunk afterwards
    camera = prof.downscale and not aliased and rng.random() < prof.downscale
    k_down = float(rng.uniform(1.3, 3.0)) if camera else 1.0
    tw = final_tw * k_down
    rw = int(np.clip(tw * 1.3, 180, 450))
    if aliased:  # a render 2–6× the card's size, decimated below
        rw = int(np.clip(max(tw * 1.3, rng.uniform(180, 330)), 180, 450))
    card = (
        render_back(rw, style)
        if code == "BK"
        else render_card(code, rw, style, seed=int(rng.integers(1 << 30)))
    )
    rh = card.image.shape[0]
    s = tw / rw
    shrink = cv2.INTER_AREA
    if aliased:
        shrink = cv2.INTER_NEAREST if rng.random() < 0.25 else cv2.INTER_LINEAR
    small = cv2.resize(card.image, (max(4, round(rw * s)), max(4, round(rh * s))), interpolation=shrink)
    smask = cv2.resize(card.mask, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    ang = rng.uniform(0, 2 * np.pi)
    ca, sa = np.cos(ang), np.sin(ang)
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    rot = (src - [sw / 2, sh / 2]) @ np.array([[ca, sa], [-sa, ca]], np.float32)
    rot = rot + rng.normal(0, 0.035 * tw, rot.shape)
    margin = 0.3 * tw + 8
    lo = rot.min(axis=0) - margin
    dst = (rot - lo).astype(np.float32)
    fw, fh = int(np.ceil(dst[:, 0].max() + margin)), int(np.ceil(dst[:, 1].max() + margin))
    g = cv2.getPerspectiveTransform(src, dst)
    if prof.odd_tables and rng.random() < prof.odd_tables:
        frame = odd_table(rng, bank, fh, fw)
    else:
        frame = table_crop(rng, bank, fh, fw)
    warped = cv2.warpPerspective(small, g, (fw, fh), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(smask, g, (fw, fh)).astype(np.float32) / 255.0
    if rng.random() < 0.6:  # the card's own drop shadow
        sd = cv2.GaussianBlur(alpha, (0, 0), max(1.0, 0.03 * tw))
        off = (rng.normal(0, 0.02 * tw, 2)).round().astype(int)
        sd = 1.0 - float(rng.uniform(0.2, 0.5)) * np.roll(sd, (int(off[1]), int(off[0])), axis=(0, 1))
        frame = cv2.multiply(frame.astype(np.float32), cv2.merge([sd, sd, sd]), dtype=cv2.CV_8U)
    frame = cv2.blendLinear(warped, frame, alpha, 1.0 - alpha)
    corners = dst.astype(np.float64)  # card corners in the frame, clockwise from top-left
    card_to_image = g @ np.diag([sw, sw, 1.0])  # card units (width 1) to frame pixels
    neighbour: tuple[str, np.ndarray] | None = None
    covered = None
    if prof.fans and code != "BK" and rng.random() < prof.fans:
        code_b, b_to_image, covered = lay_neighbour(rng, frame, style, card_to_image, rw, s, shrink)
        neighbour = (code_b, b_to_image)
    occluded = occlude(rng, frame, corners, tw) if rng.random() < 0.25 else None
    if covered is not None:
        occluded = covered if occluded is None else occluded | covered
    if k_down > 1.0:
        if rng.random() < 0.4:  # the lens' own softness before the sensor's sampling
            frame = cv2.GaussianBlur(frame, (0, 0), float(rng.uniform(0.2, 0.7) * k_down))
        nw, nh = max(8, round(fw / k_down)), max(8, round(fh / k_down))
        interp = (cv2.INTER_AREA, cv2.INTER_LINEAR, cv2.INTER_CUBIC)[int(rng.integers(3))]
        frame = cv2.resize(frame, (nw, nh), interpolation=interp)
        sx, sy = nw / fw, nh / fh
        down = np.array([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1.0]])
        card_to_image = down @ card_to_image
        if neighbour is not None:
            neighbour = (neighbour[0], down @ neighbour[1])
        corners = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), down).reshape(-1, 2)
        if occluded is not None:
            occluded = cv2.resize(occluded.astype(np.uint8), (nw, nh), interpolation=cv2.INTER_NEAREST) > 0
        tw = final_tw
    noise = 0.0
    if prof.hard_share and rng.random() < prof.hard_share:
        frame, noise = hard_photometrics(rng, frame)
    boxes = [] if code == "BK" else index_boxes(style, code)
    clean: list[np.ndarray] = []
    frame = degrade(rng, frame, noise, clean)
    # the ink is measured after light, glare and blur but before the noise, which would only hide it
    inks = [ink_contrast(clean[0], card_to_image, box) for _, box, _ in boxes] if prof.min_ink[1] else []
    boxes_b: list[tuple[str, tuple[float, ...], bool]] = []
    inks_b: list[float] = []
    if neighbour is not None and neighbour[0] != "BK":
        boxes_b = index_boxes(style, neighbour[0])
        inks_b = (
            [ink_contrast(clean[0], neighbour[1], box) for _, box, _ in boxes_b] if prof.min_ink[1] else []
        )

    specs: list[tuple[int, bool, bool]] = [(0, False, False), (2, False, False)]
    for k in (1, 3):
        if style.four_index or rng.random() < 0.5:
            specs.append((k, True, False))
        if rng.random() < 0.25:
            specs.append((k, False, False))
    if rng.random() < 0.3:
        specs.append((int(rng.integers(0, 4, 1)[0]) // 2 * 2, True, False))
    specs += [(int(rng.integers(4)), bool(rng.random() < 0.3), True) for _ in range(int(rng.integers(1, 3)))]
    frames = [(perturbed_frame(rng, corners, k, tw, far, prof), sideways) for k, sideways, far in specs]
    if prof.mixed_reject and neighbour is not None and boxes_b:
        f = perturbed_frame(rng, corners, 0, tw, False, prof)
        frames.append(
            (toward(f, neighbour[1] @ [0.0, 0.0, 1.0] - card_to_image @ [0.0, 0.0, 1.0], rng), False)
        )
    out = []
    for f, sideways in frames:
        patch, m = cut_patch(frame, f, sideways)
        card_to_patch = np.linalg.inv(m) @ card_to_image
        rank, suit, joker = shown(boxes, inks, card_to_patch, card_to_image, occluded, prof)
        rank_l, suit_l, joker_l = R_REJ, S_REJ, 0
        if rank == 1:
            rank_l = RANKS.index(code[:-1])
        elif rank == -1:
            rank_l = IGNORE
        if suit == 1:
            suit_l = SUITS.index(code[-1])
        elif suit == -1:
            suit_l = IGNORE
        if joker == 1:
            joker_l = 1
        elif joker == -1:
            joker_l = IGNORE
        if boxes_b and neighbour is not None:
            rank_l, suit_l, joker_l = neighbour_labels(
                (rank_l, suit_l, joker_l), neighbour, boxes_b, inks_b, m, sideways, prof
            )
        small_patch = cv2.resize(patch, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
        out.append((small_patch, rank_l, suit_l, joker_l))
    return out


def toward(f: CornerFrame, gap: np.ndarray, rng: np.random.Generator) -> CornerFrame:
    """``f`` moved a quarter to three quarters of the way along ``gap`` (homogeneous image vector, from
    the card's corner to the next card's): the frame a row walk puts between a fan's two indices."""
    shift = float(rng.uniform(0.25, 0.75)) * np.asarray(gap, np.float64)[:2]
    move = np.array([[1.0, 0.0, shift[0]], [0.0, 1.0, shift[1]], [0.0, 0.0, 1.0]])
    hom = None if f.homography is None else move @ f.homography
    return dataclasses.replace(f, origin=f.origin + shift, homography=hom)


def table_patches(
    rng: np.random.Generator, bank: list[np.ndarray], n: int
) -> list[tuple[np.ndarray, int, int, int]]:
    """Patches of bare table (with the same light, blur and JPEG as the cards)."""
    out = []
    for _ in range(n):
        tw = float(np.exp(rng.uniform(np.log(40), np.log(500))))
        size = int(tw * 1.2) + 16
        frame = degrade(rng, table_crop(rng, bank, size, size))
        a = rng.uniform(0, 2 * np.pi)
        x, y = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        f = CornerFrame(np.array([size / 2, size / 2]) - (x + y) * 0.2 * tw, x, y, tw)
        patch, _ = cut_patch(frame, f, bool(rng.random() < 0.3))
        out.append((cv2.resize(patch, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA), R_REJ, S_REJ, 0))
    return out


def make(n_cards: int, seed: int, split: str = "train", profile: str = "v1") -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    fonts = font_files(split)  # type: ignore[arg-type]
    suit_fonts = [f for f in fonts if all(suit_from_font(f, s) is not None for s in SUITS)]
    bank = texture_bank(rng)
    items: list[tuple[np.ndarray, int, int, int]] = []
    t0 = time.time()
    for i in range(n_cards):
        items += make_card(
            rng, fonts, suit_fonts, bank, 1.0 if split == "heldout" else 0.75, PROFILES[profile]
        )
        if i % 4 == 0:
            items += table_patches(rng, bank, 1)
        if i % 1000 == 0:
            print(f"{i}/{n_cards} cards, {len(items)} patches, {time.time() - t0:.0f} s", flush=True)
    return {
        "x": np.stack([it[0] for it in items]),
        "rank": np.array([it[1] for it in items], np.int16),
        "suit": np.array([it[2] for it in items], np.int16),
        "joker": np.array([it[3] for it in items], np.int16),
    }


def data_set(n_cards: int, seed: int, split: str, cache: str, profile: str = "v1") -> dict[str, np.ndarray]:
    tag = "" if profile == "v1" else f"_{profile}"
    path = Path(cache) / f"patches_{split}_{seed}_{n_cards}{tag}.npz"
    if path.exists():
        return dict(np.load(path))
    data = make(n_cards, seed, split, profile)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, **data)
    return data


def describe(d: dict[str, np.ndarray]) -> str:
    r, s = d["rank"], d["suit"]
    return (
        f"{len(r)} patches: rank positives {int(((r >= 0) & (r < R_REJ)).sum())}, suit positives "
        f"{int(((s >= 0) & (s < S_REJ)).sum())}, jokers {int((d['joker'] == 1).sum())}, "
        f"ignored rank {int((r == IGNORE).sum())} suit {int((s == IGNORE).sum())}"
    )


# -- training --------------------------------------------------------------------------------------
def build_net(folded: bool = False):  # type: ignore[no-untyped-def]
    """The reader; ``folded``: each batch norm already folded into its convolution, as in the
    exported file (the layout :func:`load_onnx_weights` fills, to fine-tune a shipped reader)."""
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        if folded:
            return [nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU()]
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(
        *block(3, 12),
        nn.MaxPool2d(2),  # 32 × 20
        *block(12, 24),
        nn.MaxPool2d(2),  # 16 × 10
        *block(24, 32),
        nn.MaxPool2d(2),  # 8 × 5
        *block(32, 48),
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(48 * (INPUT_H // 8) * (INPUT_W // 8), 128),
        nn.ReLU(),
        nn.Linear(128, N_OUT),
    )


def load_onnx_weights(path: str):  # type: ignore[no-untyped-def]
    """A folded :func:`build_net` holding the weights of the exported reader at ``path``: its
    initializers taken in the order its Conv and Gemm nodes use them."""
    net = build_net(folded=True)
    load_onnx_initializers(path, ("Conv", "Gemm"), list(net.parameters()))
    return net


def normalise(x):  # type: ignore[no-untyped-def]
    """The runtime's ``prepare`` on a torch batch of N × 3 × H × W uint8-valued floats."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = x.std(dim=(1, 2, 3), keepdim=True, unbiased=False)
    return (x - mean) / (std + 8.0)


def augment(x, gen, exposure: float = 0.0):  # type: ignore[no-untyped-def]
    """Cheap extra variety on a uint8-valued float batch: channel gains, greyscale, a 1-px shift; and,
    for a share ``exposure`` of the patches, the whole frame over-exposed (a phone metering a dark
    table: the paper and pale ink clip to white, thin strokes fade). With ``exposure`` 0 the generator
    draws exactly what it drew before the option existed."""
    import torch

    n = x.shape[0]
    gains = 1 + (torch.rand(n, 3, 1, 1, generator=gen) - 0.5) * 0.2
    x = x * gains
    if exposure > 0:
        over = torch.rand(n, 1, 1, 1, generator=gen) < exposure
        lo, hi = EXPOSURE_GAIN
        gain = lo + (hi - lo) * torch.rand(n, 1, 1, 1, generator=gen)
        lo, hi = EXPOSURE_OFFSET
        offset = lo + (hi - lo) * torch.rand(n, 1, 1, 1, generator=gen)
        x = torch.where(over, (x * gain + offset).clamp(0, 255), x)
    grey = torch.rand(n, 1, 1, 1, generator=gen) < 0.05
    x = torch.where(grey, x.mean(dim=1, keepdim=True).expand_as(x), x)
    dx, dy = (int(v) for v in torch.randint(-1, 2, (2,), generator=gen))
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    return x


def losses(out, yr, ys, yj):  # type: ignore[no-untyped-def]
    import torch.nn.functional as F

    lr = F.cross_entropy(out[:, :N_RANK], yr, ignore_index=IGNORE, label_smoothing=0.03)
    ls = F.cross_entropy(out[:, N_RANK : N_RANK + N_SUIT], ys, ignore_index=IGNORE, label_smoothing=0.03)
    lj = F.cross_entropy(out[:, N_RANK + N_SUIT :], yj, ignore_index=IGNORE)
    return lr + ls + 0.5 * lj


def evaluate(net, d: dict[str, np.ndarray]) -> dict[str, float]:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    xs = torch.from_numpy(d["x"]).permute(0, 3, 1, 2).float()
    outs = []
    with torch.no_grad():
        for i in range(0, len(xs), 512):
            outs.append(net(normalise(xs[i : i + 512])).numpy())
    return scores(np.concatenate(outs), d)


def scores(out: np.ndarray, d: dict[str, np.ndarray]) -> dict[str, float]:
    pr = out[:, :N_RANK].argmax(1)
    ps = out[:, N_RANK : N_RANK + N_SUIT].argmax(1)
    pj = out[:, N_RANK + N_SUIT :].argmax(1)
    r, s, j = d["rank"], d["suit"], d["joker"]
    both = (r >= 0) & (r < R_REJ) & (s >= 0) & (s < S_REJ)
    res = {
        "card_accuracy": float(((pr == r) & (ps == s))[both].mean()),
        "rank_accuracy": float((pr == r)[(r >= 0) & (r < R_REJ)].mean()),
        "suit_accuracy": float((ps == s)[(s >= 0) & (s < S_REJ)].mean()),
        "reject_recall": float(
            ((pr == R_REJ) | (ps == S_REJ))[(r == R_REJ) & (s == S_REJ) & (j == 0)].mean()
        ),
        "joker_recall": float((pj == 1)[j == 1].mean()) if (j == 1).any() else float("nan"),
        "joker_false": float((pj == 1)[j == 0].mean()),
        "n_cards": float(both.sum()),
    }
    for a, b in (("6", "9"), ("Q", "9"), ("4", "A"), ("7", "A")):
        sel = (r == RANKS.index(a)) | (r == RANKS.index(b))
        res[f"{a}/{b}"] = float((pr == r)[sel].mean())
    for a, b in (("H", "D"), ("S", "C")):
        sel = (s == SUITS.index(a)) | (s == SUITS.index(b))
        res[f"{a}/{b}"] = float((ps == s)[sel].mean())
    return res


def train(
    d: dict[str, np.ndarray],
    val: dict[str, np.ndarray],
    *,
    seed: int,
    minutes: float,
    epochs: int,
    checkpoint: str,
    init: str | None = None,
    init_onnx: str | None = None,
    max_lr: float = 3e-3,
    vals: tuple[tuple[str, dict[str, np.ndarray]], ...] = (),
    exposure: float = 0.0,
):  # type: ignore[no-untyped-def]
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    x = torch.from_numpy(d["x"]).permute(0, 3, 1, 2)  # uint8, N × 3 × H × W
    yr = torch.from_numpy(d["rank"].astype(np.int64))
    ys = torch.from_numpy(d["suit"].astype(np.int64))
    yj = torch.from_numpy(d["joker"].astype(np.int64))
    net = load_onnx_weights(init_onnx) if init_onnx else build_net()
    if init:  # fine-tune a trained reader (same network) rather than start from random weights
        net.load_state_dict(torch.load(init))
    bs = 128
    steps_per_epoch = len(yr) // bs
    total = steps_per_epoch * epochs
    opt = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=1e-4)
    t0 = time.time()
    step = 0
    for ep in range(epochs):
        net.train()
        perm = torch.from_numpy(rng.permutation(len(yr)))
        loss_sum = 0.0
        for i in range(steps_per_epoch):
            idx = perm[i * bs : (i + 1) * bs]
            xb = normalise(augment(x[idx].float(), gen, exposure))
            loss = losses(net(xb), yr[idx], ys[idx], yj[idx])
            # warm-up then cosine decay over whichever runs out first: the steps or the time budget
            progress = min(1.0, max(step / total, (time.time() - t0) / (minutes * 60)))
            lr = max_lr * (
                progress / 0.05 if progress < 0.05 else 0.5 * (1 + np.cos(np.pi * (progress - 0.05) / 0.95))
            )
            for group in opt.param_groups:
                group["lr"] = lr
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            loss_sum += loss.item()
            if out_of_time(t0, minutes, step, total):
                break
        for name, vd in (("held-out fonts", val),) + vals:
            res = evaluate(net, vd)
            print(
                f"epoch {ep + 1}/{epochs} loss {loss_sum / max(i + 1, 1):.4f} {name}: "
                + " ".join(f"{k} {v:.4f}" for k, v in res.items())
                + f" {(time.time() - t0) / 60:.1f} min",
                flush=True,
            )
        torch.save(net.state_dict(), checkpoint)
        if out_of_time(t0, minutes, step, total, say=True):
            break
    return net


def export(net, path: str) -> None:  # type: ignore[no-untyped-def]
    export_onnx(net, (1, 3, INPUT_H, INPUT_W), path, "patch")


def check_export(net, path: str, d: dict[str, np.ndarray]) -> float:  # type: ignore[no-untyped-def]
    """Largest difference between torch's and cv2.dnn's logits on real inputs, through ``prepare``."""
    import torch

    from vision.patch_reader import PatchReader, prepare

    x = prepare(list(d["x"][:32]))
    out = PatchReader.load(path).logits(x)
    with torch.no_grad():
        ref = net(torch.from_numpy(x)).numpy()
    return float(np.abs(out - ref).max())


def bench(model: str, d: dict[str, np.ndarray]) -> dict[str, float]:
    from vision.patch_reader import PatchReader, prepare

    reader = PatchReader.load(model)
    out = np.concatenate(
        [reader.logits(prepare(list(d["x"][i : i + 256]))) for i in range(0, len(d["x"]), 256)]
    )
    return scores(out, d)


def speed(model: str, repeats: int = 300) -> dict[str, float]:
    """CPU milliseconds per call on one thread (process time): the network on one prepared patch, and a
    whole ``PatchReader.read`` (shrinking and normalising a 99 × 57 patch included)."""
    from vision.patch_reader import PatchReader, prepare

    cv2.setNumThreads(1)
    reader = PatchReader.load(model)
    patch = np.random.default_rng(0).integers(0, 255, (PH, PW, 3)).astype(np.uint8)
    x = prepare([patch])

    def ms(fn) -> float:  # type: ignore[no-untyped-def]
        for _ in range(20):
            fn()
        t = time.process_time()
        for _ in range(repeats):
            fn()
        return (time.process_time() - t) / repeats * 1000

    return {"forward_ms": ms(lambda: reader.logits(x)), "read_ms": ms(lambda: reader.read(patch))}


# -- calibration --------------------------------------------------------------------------------------
HEADS = (
    ("rank", slice(0, N_RANK)),
    ("suit", slice(N_RANK, N_RANK + N_SUIT)),
    ("joker", slice(N_RANK + N_SUIT, N_OUT)),
)


def runtime_logits(model: str, d: dict[str, np.ndarray]) -> np.ndarray:
    """Raw (untempered) logits of ``model`` through the runtime's own ``prepare`` and ``cv2.dnn``."""
    from vision.patch_reader import PatchReader, prepare

    reader = PatchReader.load(model)
    return np.concatenate(
        [reader.logits(prepare(list(d["x"][i : i + 256]))) for i in range(0, len(d["x"]), 256)]
    )


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def fit_temperatures(logits: np.ndarray, d: dict[str, np.ndarray]) -> tuple[float, float, float]:
    """Per head, the temperature that minimises the negative log-likelihood of the labelled patches."""
    grid = np.arange(0.4, 4.0, 0.01)
    temps = []
    for name, sl in HEADS:
        y = d[name].astype(np.int64)
        ok = y != IGNORE
        z, y = logits[ok, sl], y[ok]
        nll = [float(-np.log(_softmax(z / t)[np.arange(len(y)), y] + 1e-12).mean()) for t in grid]
        temps.append(round(float(grid[int(np.argmin(nll))]), 2))
    return temps[0], temps[1], temps[2]


def ece(conf: np.ndarray, right: np.ndarray, bins: int = 15) -> float:
    """Expected calibration error: the confidence-weighted gap between confidence and accuracy."""
    edges = np.linspace(0, 1, bins + 1)
    idx = np.clip(np.digitize(conf, edges) - 1, 0, bins - 1)
    total = 0.0
    for b in range(bins):
        sel = idx == b
        if sel.any():
            total += sel.mean() * abs(float(conf[sel].mean()) - float(right[sel].mean()))
    return total


def reliability(
    logits: np.ndarray, d: dict[str, np.ndarray], temps: tuple[float, float, float]
) -> dict[str, float]:
    """ECE of each head's top class over its labelled patches, and of the card confidence the recogniser
    uses (best rank × best suit, rejects aside) over patches that show a whole index."""
    out: dict[str, float] = {}
    probs = {}
    for (name, sl), t in zip(HEADS, temps, strict=True):
        p = _softmax(logits[:, sl] / t)
        probs[name] = p
        y = d[name].astype(np.int64)
        ok = y != IGNORE
        out[f"ece_{name}"] = ece(p[ok].max(1), p[ok].argmax(1) == y[ok])
    r, s = d["rank"], d["suit"]
    both = (r >= 0) & (r < R_REJ) & (s >= 0) & (s < S_REJ)
    pr, ps = probs["rank"][both, :-1], probs["suit"][both, :-1]
    conf = pr.max(1) * ps.max(1)
    right = (pr.argmax(1) == r[both]) & (ps.argmax(1) == s[both])
    out["ece_card"] = ece(conf, right)
    out["card_conf_when_wrong"] = float(conf[~right].mean()) if (~right).any() else float("nan")
    out["card_conf_when_right"] = float(conf[right].mean())
    return out


def calibrate(model: str, cal: dict[str, np.ndarray], checks: dict[str, dict[str, np.ndarray]]) -> None:
    temps = fit_temperatures(runtime_logits(model, cal), cal)
    print(f"TEMPERATURE = {temps}  (rank, suit, joker; fitted on {len(cal['x'])} calibration patches)")
    for name, d in checks.items():
        lg = runtime_logits(model, d)
        before, after = reliability(lg, d, (1.0, 1.0, 1.0)), reliability(lg, d, temps)
        for k in before:
            print(f"{name:>22} {k:>22}: before {before[k]:.4f}  after {after[k]:.4f}")


# -- choosing the recogniser's constants on synthetic scenes ------------------------------------------
def second_opinion_records(root: Path) -> list[dict[str, object]]:
    """Every corner the recogniser shows ``second_opinion`` in a ``scenes.py`` folder: the glyph reading
    (None where segmentation failed), the patch reader's reading, the card width, and the truth (the code
    of the card whose visible index quad holds the patch's index column, None where no index is)."""
    import json

    import vision.recognizer as rec_mod
    from vision.index import PX
    from vision.patch_reader import has_ink, index_reading
    from vision.recognizer import Recognizer

    truth = json.loads((root / "truth.json").read_text())
    records: list[dict[str, object]] = []
    current: list[dict[str, object]] = []
    real = rec_mod.second_opinion

    def spy(patch, m, sideways, glyph, *, any_width=False):  # type: ignore[no-untyped-def]
        if has_ink(patch):
            code, conf, _, box = index_reading(patch, m, sideways)
            mm = m / m[2, 2]
            c = np.mean(box, axis=0)
            who = None
            for card in current:
                for q, shows in zip(card["index_quads"], card["index_visible"], strict=True):  # type: ignore[call-overload]
                    if (
                        shows
                        and cv2.pointPolygonTest(
                            np.array(q, np.float32).reshape(-1, 1, 2), (float(c[0]), float(c[1])), False
                        )
                        >= 0
                    ):
                        who = card["code"]
                        break
                if who:
                    break
            records.append(
                {
                    "glyph": glyph,
                    "patch": (code, conf),
                    "width": PX * float(np.sqrt(abs(np.linalg.det(mm[:2, :2])))),
                    "truth": who,
                }
            )
        return real(patch, m, sideways, glyph, any_width=any_width)

    rec_mod.second_opinion = spy  # type: ignore[assignment]
    try:
        recog = Recognizer("table")
        for name, scene in sorted(truth.items()):
            current[:] = scene["cards"]
            recog.recognize(cv2.imread(str(root / "images" / name)))
    finally:
        rec_mod.second_opinion = real
    return records


def margin_curve(records: list[dict[str, object]], max_width: float, passing: float = 0.35) -> None:
    """Where glyphs and patch disagree on an unsure corner, per margin: the overrules, those that were
    right (patch right), wrong, wrong and newly passing (the patch reading would pass the recogniser's
    ``passing`` confidence where the glyph reading did not), and right glyph readings thrown away."""
    from vision.patch_reader import UNSURE_BELOW

    dis = [
        r
        for r in records
        if r["glyph"] is not None
        and r["glyph"][1] < UNSURE_BELOW  # type: ignore[index]
        and r["glyph"][0] != r["patch"][0]  # type: ignore[index]
        and r["width"] <= max_width  # type: ignore[operator]
    ]
    print(
        f"{len(dis)} disagreements on unsure corners of cards up to {max_width:.0f} px "
        f"({sum(r['truth'] is not None for r in dis)} on a real index)"
    )
    print("margin  overrules  right  wrong  wrong-newly-passing  glyphs-right-lost  net")
    for margin in (-0.1, 0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
        won = [r for r in dis if r["patch"][1] > r["glyph"][1] + margin]  # type: ignore[index,operator]
        right = sum(r["patch"][0] == r["truth"] for r in won)  # type: ignore[index]
        newly = sum(
            r["patch"][0] != r["truth"] and r["patch"][1] >= passing > r["glyph"][1]  # type: ignore[index,operator]
            for r in won
        )
        lost = sum(r["glyph"][0] == r["truth"] for r in won)  # type: ignore[index]
        print(
            f"{margin:6.2f}  {len(won):9d}  {right:5d}  {len(won) - right:5d}  {newly:19d}  {lost:17d}  "
            f"{right - lost - newly:4d}"
        )


def width_table(records: list[dict[str, object]]) -> None:
    """By card width: how often the patch reader is asked, and right or wrong where it would answer."""
    from vision.patch_reader import UNSURE_BELOW

    print("width px   asked  on-index  fallback right/wrong  unsure-agree  unsure-patch-right/glyph-right")
    for lo, hi in (
        (0, 60),
        (60, 80),
        (80, 100),
        (100, 130),
        (130, 160),
        (160, 200),
        (200, 300),
        (300, 10_000),
    ):
        sel = [r for r in records if lo <= r["width"] < hi]  # type: ignore[operator]
        asked = [r for r in sel if r["glyph"] is None or r["glyph"][1] < UNSURE_BELOW]  # type: ignore[index]
        fb = [r for r in asked if r["glyph"] is None and r["patch"][1] >= 0.05]  # type: ignore[index,operator]
        fb_right = sum(r["patch"][0] == r["truth"] for r in fb)  # type: ignore[index]
        un = [r for r in asked if r["glyph"] is not None]
        agree = sum(r["glyph"][0] == r["patch"][0] for r in un)  # type: ignore[index]
        pr = sum(r["patch"][0] == r["truth"] for r in un)  # type: ignore[index]
        gr = sum(r["glyph"][0] == r["truth"] for r in un)  # type: ignore[index]
        print(
            f"{lo:4d}-{hi:<5d} {len(asked):6d} {sum(r['truth'] is not None for r in asked):8d} "
            f"{fb_right:8d}/{len(fb) - fb_right:<6d} {agree:12d}  {pr}/{gr}"
        )


# the test fixture: held-out fonts' glyph masks (tests/vision/test_patch_reader.py draws the cards)
FIXTURE_DECKS = {
    "libertine": ("/usr/share/fonts/opentype/linux-libertine/LinLibertine_R.otf", True),
    "bookman": ("/usr/share/fonts/opentype/urw-base35/URWBookman-Demi.otf", True),
    "lato": ("/usr/share/fonts/truetype/lato/Lato-Bold.ttf", False),
    "biolinum": ("/usr/share/fonts/opentype/linux-libertine/LinBiolinum_RB.otf", True),
}


def fixture(path: str) -> None:
    from fonts import text_mask

    out: dict[str, np.ndarray] = {}
    for name, (font, suits) in FIXTURE_DECKS.items():
        for key, m, height in [(r, text_mask(font, r), 48) for r in RANKS] + (
            [(su, suit_from_font(font, su), 40) for su in SUITS] if suits else []
        ):
            assert m is not None, (font, key)
            s = height / m.shape[0]
            out[f"{name}_{key}"] = cv2.resize(
                m, (max(1, round(m.shape[1] * s)), height), interpolation=cv2.INTER_AREA
            )
    np.savez_compressed(path, **out)


@dataclasses.dataclass(frozen=True)
class Recipe:
    """A reader trained from random weights by one command (``--recipe``): every chunk it learns from (each
    drawn from its own seed), the schedule, and the sets its temperatures are fitted on."""

    chunks: tuple[str, ...]  # PROFILE:SEED, 4,000 cards each
    epochs: int
    lr: float
    calibrate_on: tuple[str, ...]  # PROFILE:SEED, 2,000 cards each


RECIPES = {
    # v6 (session 41): what v5 learned through five fine-tunes, learned at once: plain corners (v1), tiny
    # cards (v2), badly photographed corners (v3), hands and fans (v4f), four-colour decks (v1c), and fans
    # with a rank of one card over the next card's suit taught as reject (v5f)
    "v6": Recipe(
        chunks=(
            "v1:1", "v1:2", "v1:3", "v1:4", "v2:51", "v2:53", "v2:55", "v3:61", "v3:63", "v3:65",
            "v4f:81", "v4f:83", "v1c:201", "v1c:203", "v5f:311", "v5f:313",
        ),
        epochs=7,
        lr=3e-3,
        calibrate_on=("v2:95", "v3:97", "v5f:98"),
    ),
}


def _draw(job: tuple[int, int, str, str, str]) -> str:
    n_cards, seed, split, cache, profile = job
    cv2.setNumThreads(1)
    data_set(n_cards, seed, split, cache, profile)
    return f"{profile}:{seed}"


def draw_all(jobs: list[tuple[int, int, str, str, str]], workers: int) -> None:
    """Every chunk of ``jobs`` (cards, seed, split, cache, profile) drawn and cached, ``workers`` at a time
    (each chunk depends only on its own seed, so the files are the same however many draw them)."""
    from multiprocessing import Pool

    t0 = time.time()
    with Pool(workers) as pool:
        for done in pool.imap_unordered(_draw, jobs):
            print(f"drawn {done} ({(time.time() - t0) / 60:.1f} min)", flush=True)


def train_recipe(name: str, out: str, cache: str, workers: int) -> None:
    """Draw every chunk of recipe ``name``, train the reader from random weights (seed 0, one thread),
    export it to ``out`` and print the temperatures fitted on the recipe's calibration sets."""
    recipe = RECIPES[name]
    chunks = profile_seeds(list(recipe.chunks))
    cal = profile_seeds(list(recipe.calibrate_on))
    checks = [(1000, 90, "v1"), (1000, 91, "v2"), (1000, 92, "v3"), (1000, 94, "v4f")]
    t0 = time.time()
    draw_all(
        [(4000, sd, "train", cache, prof) for prof, sd in chunks]
        + [(2000, sd, "train", cache, prof) for prof, sd in cal]
        + [(n, sd, "heldout", cache, prof) for n, sd, prof in checks],
        workers,
    )
    parts = [data_set(4000, sd, "train", cache, prof) for prof, sd in chunks]
    d = {k: np.concatenate([c[k] for c in parts]) for k in parts[0]}
    held = [(f"held-out fonts {prof}", data_set(n, sd, "heldout", cache, prof)) for n, sd, prof in checks]
    print("train:", describe(d), flush=True)
    net = train(
        d, held[0][1], seed=0, minutes=1000, epochs=recipe.epochs, checkpoint=out + ".pt",
        max_lr=recipe.lr, vals=tuple(held[1:]),
    )
    export(net, out)
    print(f"exported {out}; cv2.dnn vs torch max |diff| {check_export(net, out, held[0][1]):.2e}", flush=True)
    cal_sets = [data_set(2000, sd, "train", cache, prof) for prof, sd in cal]
    calibrate(out, {k: np.concatenate([c[k] for c in cal_sets]) for k in cal_sets[0]}, dict(held))
    print(f"recipe {name}: {(time.time() - t0) / 60:.1f} min in all", flush=True)


def profile_seeds(specs: list[str]) -> list[tuple[str, int]]:
    """``PROFILE:SEED`` words as (profile, seed); a clear error for any other word."""
    parts = [w.split(":") for w in specs]
    if any(len(p) != 2 or p[0] not in PROFILES or not p[1].isdigit() for p in parts):
        raise SystemExit(f"expected PROFILE:SEED words, PROFILE one of {sorted(PROFILES)}; got {specs}")
    return [(p[0], int(p[1])) for p in parts]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cards", type=int, default=16000, help="training cards (in chunks of 4000)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--minutes", type=float, default=40.0, help="training time budget")
    ap.add_argument("--cache", default="/tmp/patch_reader")
    ap.add_argument("--out", default="/tmp/patch_reader/patch_reader.onnx")
    ap.add_argument("--generate-only", action="store_true")
    ap.add_argument("--bench", action="store_true", help="score --model on held-out fonts (seed 90)")
    ap.add_argument("--model", default="vision/models/patch_reader.onnx")
    ap.add_argument("--speed", action="store_true", help="time --model per patch on one thread")
    ap.add_argument("--fixture", help="write the held-out font masks the tests render to this .npz")
    ap.add_argument("--tiny-cards", type=int, default=0, help="more training cards drawn by profile v2")
    ap.add_argument(
        "--tiny-seeds", type=int, nargs="*", help="the v2 chunks' seeds (instead of --tiny-cards)"
    )
    ap.add_argument(
        "--hard-seeds", type=int, nargs="*", default=[], help="seeds of training chunks drawn by profile v3"
    )
    ap.add_argument(
        "--small-seeds", type=int, nargs="*", default=[], help="seeds of training chunks drawn by profile v4"
    )
    ap.add_argument(
        "--fan-seeds", type=int, nargs="*", default=[], help="seeds of training chunks drawn by profile v4f"
    )
    ap.add_argument("--init", help="fine-tune this state dict (the same network) instead of random weights")
    ap.add_argument(
        "--init-onnx", help="fine-tune this exported reader instead (batch norms folded, in its .pt too)"
    )
    ap.add_argument(
        "--chunks", nargs="*", default=[], metavar="PROFILE:SEED", help="more 4,000-card chunks: v4fc:211 …"
    )
    ap.add_argument(
        "--scene-patches", nargs="*", default=[], type=Path, metavar="NPZ",
        help="patches the recogniser cut in training-family scenes (tools/vision/scene_patches.py)",
    )
    ap.add_argument(
        "--scene-val", type=Path, metavar="NPZ", help="such patches of other scenes, scored after each epoch"
    )
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    ap.add_argument(
        "--exposure", type=float, default=0.0, help="share of training patches over-exposed (augment)"
    )
    ap.add_argument("--calibrate", action="store_true", help="fit --model's temperatures and report ECE")
    ap.add_argument(
        "--calibrate-on",
        nargs="+",
        default=["v2:95"],
        metavar="PROFILE:SEED",
        help="the 2,000-card sets --calibrate fits on, pooled (training fonts, seeds training never drew)",
    )
    ap.add_argument("--margins", type=Path, help="a scenes.py folder: disagreement margin and width curves")
    ap.add_argument(
        "--max-width", type=float, nargs="+", default=[10_000.0], help="card width limits for --margins"
    )
    ap.add_argument(
        "--recipe", choices=sorted(RECIPES), help="draw, train from random weights, export and calibrate"
    )
    ap.add_argument("--workers", type=int, default=2, help="processes drawing a recipe's chunks")
    a = ap.parse_args()
    if a.recipe:
        train_recipe(a.recipe, a.out, a.cache, a.workers)
        return
    if a.margins:
        recs = second_opinion_records(a.margins)
        width_table(recs)
        for mw in a.max_width:
            margin_curve(recs, mw)
        return
    if a.calibrate:
        cal_sets = [data_set(2000, sd, "train", a.cache, prof) for prof, sd in profile_seeds(a.calibrate_on)]
        cal = {k: np.concatenate([c[k] for c in cal_sets]) for k in cal_sets[0]}
        checks = {
            "held-out fonts v1": data_set(1000, 90, "heldout", a.cache),
            "held-out fonts v2": data_set(1000, 91, "heldout", a.cache, "v2"),
        }
        v3 = Path(a.cache) / "patches_heldout_92_1000_v3.npz"
        if v3.exists():
            checks["held-out fonts v3"] = data_set(1000, 92, "heldout", a.cache, "v3")
        v4 = Path(a.cache) / "patches_heldout_93_1000_v4.npz"
        if v4.exists():
            checks["held-out fonts v4"] = data_set(1000, 93, "heldout", a.cache, "v4")
        v4f = Path(a.cache) / "patches_heldout_94_1000_v4f.npz"
        if v4f.exists():
            checks["held-out fonts v4f"] = data_set(1000, 94, "heldout", a.cache, "v4f")
        calibrate(a.model, cal, checks)
        return
    if a.fixture:
        fixture(a.fixture)
        return
    if a.speed:
        for k, v in speed(a.model).items():
            print(f"{k:>12}: {v:.3f}")
        return
    val = data_set(1000, 90, "heldout", a.cache)  # held-out font families and seed: never trained on
    if a.bench:
        print(describe(val))
        for k, v in bench(a.model, val).items():
            print(f"{k:>16}: {v:.4f}")
        return
    chunks = [data_set(4000, a.seed * 100 + 1 + i, "train", a.cache) for i in range((a.cards + 3999) // 4000)]
    more = profile_seeds(a.chunks)
    tiny_seeds = a.tiny_seeds or [a.seed * 100 + 51 + i for i in range((a.tiny_cards + 3999) // 4000)]
    chunks += [data_set(4000, sd, "train", a.cache, "v2") for sd in tiny_seeds]
    chunks += [data_set(4000, sd, "train", a.cache, "v3") for sd in a.hard_seeds]
    chunks += [data_set(4000, sd, "train", a.cache, "v4") for sd in a.small_seeds]
    chunks += [data_set(4000, sd, "train", a.cache, "v4f") for sd in a.fan_seeds]
    chunks += [data_set(4000, sd, "train", a.cache, prof) for prof, sd in more]
    chunks += [dict(np.load(p)) for p in a.scene_patches]
    if not chunks:
        raise SystemExit("no training data: give --cards, seeds of a profile or --chunks")
    d = {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}
    val2 = data_set(1000, 91, "heldout", a.cache, "v2")  # held-out fonts, tiny cards, seed 91
    vals = [("held-out fonts v2", val2)]
    if a.hard_seeds:  # held-out fonts, badly photographed, seed 92
        vals.append(("held-out fonts v3", data_set(1000, 92, "heldout", a.cache, "v3")))
    if a.small_seeds:  # held-out fonts, 45–90 px cards, seed 93
        vals.append(("held-out fonts v4", data_set(1000, 93, "heldout", a.cache, "v4")))
    if a.fan_seeds:  # held-out fonts, hands and fans, seed 94
        vals.append(("held-out fonts v4f", data_set(1000, 94, "heldout", a.cache, "v4f")))
    if any(PROFILES[prof].four_colour for prof, _ in more):  # held-out fonts, four-colour fans, seed 96
        vals.append(("held-out fonts v4fc", data_set(1000, 96, "heldout", a.cache, "v4fc")))
    if a.scene_val:  # the recogniser's own cuts in other training-family scenes
        vals.append(("scene cuts", dict(np.load(a.scene_val))))
    print("train:", describe(d), "\nheld-out:", describe(val), flush=True)
    for name, vd in vals:
        print(f"{name}:", describe(vd), flush=True)
    if a.generate_only:
        return
    net = train(
        d,
        val,
        seed=a.seed,
        minutes=a.minutes,
        epochs=a.epochs,
        checkpoint=a.out + ".pt",
        init=a.init,
        init_onnx=a.init_onnx,
        max_lr=a.lr,
        vals=tuple(vals),
        exposure=a.exposure,
    )
    export(net, a.out)
    print(f"exported {a.out}; cv2.dnn vs torch max |diff| {check_export(net, a.out, val):.2e}", flush=True)


if __name__ == "__main__":
    main()
