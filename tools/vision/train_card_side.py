"""Train the card-side check (``vision/card_side.py``) on the project's own synthetic scenes.

    /work/venv-train/bin/python tools/vision/train_card_side.py all --seed 0

``all`` = ``generate`` (training-split scenes from ``tools/vision/scenes.py``, the patch of every
card through quads disturbed the way the finders err, and of quads that show no single card)
then ``train`` (one thread) then ``export`` to ``vision/models/card_side.onnx``. Nothing here reads
a real photo or a held-out benchmark: training uses only ``backgrounds.TRAIN_FAMILIES`` and scene
seeds ``300_000 + 1000 * seed + shard``; ``measure`` draws scenes of the held-out families
(``stone_light``, ``felt_purple``) from seed ``900_000 + seed`` to report accuracy on, never to train.

Labels: a quad round a card that is at least half visible, mostly on that card, is ``back`` (code
``BK``) or ``face`` (any other code); a quad on bare table or occluders, one spanning two cards and
one slid mostly off its card are ``none``. Nearly half the decks get another back design than
``render.render_back``'s bordered lattice on a filled colour: dense line art in one ink on the paper
(``ornate_back``), dots, stripes, checks or a finer lattice, with or without a border. In training,
half the patches of bare table get a thin box drawn round the quad (``printed_box``): a felt's
printed layout has card-sized boxes, a plain patch in a frame that is no card.

v2 (issue 13) adds, from a second generator so that every earlier sample is unchanged, ``none``
quads fitted to what a finder mistakes for a card (``outline_samples``): each occluder's outline
(``scenes.make_scene``'s ``Scene.occluders``: a phone and its screen, paper, a shoe, a rack, chips,
a hand) or a card-shaped part of it, slivers along card and occluder edges, a patterned cloth's
squares and a felt's printed boxes; and ``back`` quads fitted to part of a back (``inset_backs``).

v4 (``--art-backs SHARE``, session 58) gives that share of the decks a back of free art
(``art_back``) from a fourth generator and teaches quads inside a face's middle as ``face``
(``inset_faces``); ``tools/vision/held_out_backs.py``'s designs, never drawn here, measure it.

v6 (session 59, shipped in session 60) learns v4's data (share 0.4) while held to v2 (``train
--teacher tools/vision/teachers/card_side_v2.onnx --keep 0.1 --keep-sure 0.9``: v2's logits wherever
v2 gave the right side at least 0.9 surely), so the far tail of v2's back probability that the
recogniser's bars sit in stays put. ``train --init FILE.onnx`` fine-tunes an exported network instead
(its BatchNorms folded: ``exported_net``). ``vision/models/CARD_SIDE.md`` v6 has the commands.

v3 adds, from a third generator (every earlier sample unchanged), the whole outline of a card other
cards lie over (``covered_cards``): a hole card with its up card dealt over it is still a back when a
quarter of it is in view; and to each shard a dozen scenes of two-card hands dealt from a pool heavy
in backs (``hole_scene``); as negatives, bare table where such a hole card would lie beside a face
(``beside_faces``). It is trained with ``--hole-cards`` into ``vision/models/card_side_hole.onnx``
(data ``/tmp/card_side_hole_data``), which the recogniser asks only of a hole card's outline. The
shipped file was made with its shards generated in two processes, 12 each (``cv2.kmeans`` in
``_table_shapes`` draws from OpenCV's per-process generator, so a shard depends on those made
before it in its process; ``vision/models/CARD_SIDE.md`` v3 has the commands):

    generate --hole-cards --first 0 --shards 12 & generate --hole-cards --first 12 --shards 12
    train --hole-cards --seed 0; export --hole-cards
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from torch_tools import (  # noqa: E402
    EXPOSURE_GAIN,
    EXPOSURE_OFFSET,
    light_blur_noise,
    load_onnx_initializers,
    patch_net_main,
)

from vision.card_side import MARGIN, SIDES, H, W, prepare, sample  # noqa: E402

BACK, FACE, NONE = range(3)
HELD_OUT_BENCH_SEEDS = (777, 4243)  # the benchmarks the recogniser is measured and tuned on
# v3: how much of a card must be in view (the rest under other cards) for its whole outline to be a
# sample of ``covered_cards``; and the scenes of two-card hands added to each shard (``hole_scene``)
COVERED_BACK = (0.25, 0.9)
COVERED_FACE = (0.1, 0.5)
HOLE_SCENES = 12


def _scene_seed(seed: int, shard: int) -> int:
    s = 300_000 + 1000 * seed + shard
    assert s not in HELD_OUT_BENCH_SEEDS
    return s


def other_back(rng: np.random.Generator, style, width: int = 240) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A back of another design than the bordered lattice: dots, stripes, checks or a finer lattice,
    with or without a paper border. (No plain backs: a plain patch in a thin frame is what a felt's
    printed card box looks like.)"""
    import cv2

    from vision.render import CARD_ASPECT

    h = int(round(width * CARD_ASPECT))
    col = tuple(int(v) for v in style.back_colour)
    light = tuple(int(min(255, c + rng.uniform(40, 110))) for c in col)
    img = np.full((h, width, 3), col, np.uint8)
    kind = rng.choice(["ornate", "ornate", "dots", "stripes", "checks", "lattice"])
    step = int(rng.integers(8, 30))
    if kind == "ornate":
        return ornate_back(rng, style, width)
    if kind == "dots":
        for y in range(step // 2, h, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, width, step):
                cv2.circle(img, (x, y), max(1, step // 4), light, -1, cv2.LINE_AA)
    elif kind == "stripes":
        for k in range(-h, width + h, step):
            cv2.line(img, (k, 0), (k + h, h), light, max(1, step // 3), cv2.LINE_AA)
    elif kind == "checks":
        for y in range(0, h, step):
            for x in range((y // step % 2) * step, width, 2 * step):
                cv2.rectangle(img, (x, y), (x + step - 1, y + step - 1), light, -1)
    elif kind == "lattice":
        for k in range(-h, width + h, step):
            cv2.line(img, (k, 0), (k + h, h), light, 2, cv2.LINE_AA)
            cv2.line(img, (k, 0), (k - h, h), light, 2, cv2.LINE_AA)
    if rng.random() < 0.5:  # a central emblem
        cv2.ellipse(img, (width // 2, h // 2), (width // 5, h // 7), 0, 0, 360, light, 3, cv2.LINE_AA)
    if rng.random() < 0.5:
        b = int(rng.uniform(0.03, 0.08) * width)
        paper = tuple(int(v) for v in style.paper)
        img[:b], img[-b:], img[:, :b], img[:, -b:] = paper, paper, paper, paper
    return img


def ornate_back(rng: np.random.Generator, style, width: int = 240) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A back printed as dense line art in one ink on the paper (scrolls, arcs and a medallion),
    the same turned round, inside a paper border: dark ink on white, unlike the filled backs."""
    import cv2

    from vision.render import CARD_ASPECT

    h = int(round(width * CARD_ASPECT))
    paper = np.array(style.paper, np.float32)
    ink = np.array(style.back_colour, np.float32) * rng.uniform(0.2, 1.0)
    art = np.zeros((h, width), np.uint8)
    for _ in range(int(rng.integers(40, 140))):
        c = (int(rng.uniform(0, width)), int(rng.uniform(0, h / 2 + 10)))
        ax = (int(rng.uniform(3, width / 4)), int(rng.uniform(3, width / 4)))
        a0 = rng.uniform(0, 360)
        cv2.ellipse(art, c, ax, rng.uniform(0, 180), a0, a0 + rng.uniform(90, 330), 255,
                    int(rng.integers(1, 4)), cv2.LINE_AA)
    if rng.random() < 0.5:
        art = np.maximum(art, art[:, ::-1])
    art = np.maximum(art, art[::-1, ::-1])
    cx, cy = width // 2, h // 2
    for r in range(int(width * 0.08), int(width * rng.uniform(0.15, 0.3)), int(rng.integers(4, 9))):
        cv2.ellipse(art, (cx, cy), (r, int(r * rng.uniform(0.8, 1.3))), 0, 0, 360, 255, 2, cv2.LINE_AA)
    a = art.astype(np.float32)[..., None] / 255
    img = paper * (1 - a) + ink * a
    b = int(rng.uniform(0.03, 0.08) * width)
    cv2.rectangle(img, (b, b), (width - b, h - b), ink.tolist(), int(rng.integers(1, 4)))
    img[:b], img[-b:], img[:, :b], img[:, -b:] = paper, paper, paper, paper
    return np.clip(img, 0, 255).astype(np.uint8)


ART_WORDS_FONTS = (0, 2, 3, 6, 7)  # Hershey plain, complex, triplex and the two scripts (no duplex)


def art_back(rng: np.random.Generator, style, width: int = 240) -> np.ndarray:  # type: ignore[no-untyped-def]
    """v4: a back of free art, so that "back" means a card-shaped print with no index rather than
    the few patterns above: a smooth random texture in two or three colours (marble, camouflage),
    scattered shapes in one or two inks, random capital letters across the card, or a sunburst or
    rings; mostly turned-round symmetric, with or without a paper border. (``held_out_backs.py``'s
    rosettes, emblems and tartans are never drawn here: they measure how far this carries.)"""
    from vision.render import CARD_ASPECT

    h = int(round(width * CARD_ASPECT))
    for _ in range(8):  # no plain backs (what a felt's printed card box looks like): draw again
        img = _art(rng, style, width, h)
        if float(img[h // 8 : -h // 8, width // 8 : -width // 8].std(axis=(0, 1)).max()) > 20:
            break
    return img


def _art(rng: np.random.Generator, style, width: int, h: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    import cv2

    ground = rng.uniform(0, 255, 3)
    inks = [np.clip(ground + rng.choice([-1, 1]) * rng.uniform(50, 200, 3), 0, 255) for _ in range(2)]
    kind = str(rng.choice(["texture", "shapes", "letters", "burst"]))
    if kind == "texture":
        field = cv2.GaussianBlur(rng.normal(0, 1, (h, width)).astype(np.float32), (0, 0), rng.uniform(3, 30))
        field = (field - field.mean()) / (field.std() + 1e-6)
        cuts = np.sort(rng.normal(0, 0.7, int(rng.integers(1, 3))))
        level = np.searchsorted(cuts, field)
        palette = np.array([ground, *inks])[: len(cuts) + 1]
        img = palette[level].astype(np.float32)
        if rng.random() < 0.5:  # soft edges between the colours
            img = cv2.GaussianBlur(img, (0, 0), 1.5)
    else:
        img = np.full((h, width, 3), ground, np.uint8)  # (OpenCV draws text on 8-bit images only)
        if kind == "shapes":
            for _ in range(int(rng.integers(5, 40))):
                ink = inks[int(rng.integers(2))].tolist()
                c = (int(rng.uniform(0, width)), int(rng.uniform(0, h)))
                r = int(rng.uniform(0.03, 0.25) * width)
                fill = -1 if rng.random() < 0.5 else int(rng.integers(1, 5))
                pick = rng.random()
                if pick < 0.4:
                    cv2.circle(img, c, r, ink, fill, cv2.LINE_AA)
                elif pick < 0.7:
                    cv2.rectangle(img, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), ink, fill)
                else:
                    n = int(rng.integers(3, 8))
                    a = rng.uniform(0, 2 * np.pi) + np.linspace(0, 2 * np.pi, n, endpoint=False)
                    pts = np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], axis=1).astype(np.int32)
                    if fill < 0:
                        cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
                    else:
                        cv2.polylines(img, [pts], True, ink, fill, cv2.LINE_AA)
        elif kind == "letters":
            font = int(ART_WORDS_FONTS[int(rng.integers(len(ART_WORDS_FONTS)))])
            for _ in range(int(rng.integers(1, 4))):
                word = "".join(chr(65 + int(k)) for k in rng.integers(0, 26, int(rng.integers(2, 8))))
                (tw, th), _ = cv2.getTextSize(word, font, 1.0, 2)
                scale = rng.uniform(0.4, 0.9) * width / tw
                org = (int(rng.uniform(0, 0.3) * width), int(rng.uniform(0.2, 0.9) * h))
                cv2.putText(img, word, org, font, scale, inks[int(rng.integers(2))].tolist(),
                            max(1, int(rng.uniform(0.005, 0.03) * width)), cv2.LINE_AA)
        else:  # a sunburst of wedges, or rings, round the middle
            yy, xx = np.mgrid[0:h, 0:width]
            dx, dy = xx - width / 2, yy - h / 2
            if rng.random() < 0.5:
                on = (np.arctan2(dy, dx) * int(rng.integers(6, 30)) / np.pi) % 2 < 1
            else:
                on = (np.hypot(dx, dy) / rng.uniform(0.02, 0.12) / width) % 2 < 1
            img[on] = inks[0]
        img = img.astype(np.float32)
    if rng.random() < 0.7:  # printed turned-round symmetric, as most backs are: the top half turned
        img[h - h // 2 :] = img[: h // 2][::-1, ::-1]
    if rng.random() < 0.6:
        b = int(rng.uniform(0.03, 0.09) * width)
        paper = np.array(style.paper, np.float32)
        img[:b], img[-b:], img[:, :b], img[:, -b:] = paper, paper, paper, paper
    return np.clip(img, 0, 255).astype(np.uint8)


def make_decks(  # type: ignore[type-arg]
    rng: np.random.Generator, n: int, art: tuple[float, np.random.Generator] | None = None
) -> list:
    """``n`` decks, 45 % with ``other_back``; with ``art`` = (share, generator of its own), v4, that
    share of them with ``art_back`` instead (every draw of ``rng`` as without it)."""
    from scenes import Deck

    decks = [Deck(rng) for _ in range(n)]
    for d in decks:
        if rng.random() < 0.45:
            d.cache["BK"] = other_back(np.random.default_rng(d.seed), d.style)
        if art is not None and art[1].random() < art[0]:
            d.back_art = art_back(art[1], d.style)
    return decks


def scene_with_backs(rng: np.random.Generator, size: tuple[int, int], families, decks, min_card: float,  # type: ignore[no-untyped-def]
                     backs: int = 18):
    """``scenes.make_scene`` with the back drawn ``backs`` times in its card pool instead of 6, so
    backs are not rare."""
    import scenes

    return scenes.make_scene(rng, size, families, decks, max_cards=12, min_card=min_card, backs=backs)


def jitter(rng: np.random.Generator, outline: np.ndarray) -> np.ndarray:
    """A card's outline moved the way a finder errs: scaled and shifted by up to ~10 %, each corner
    up to ~12 % of the width, sometimes traced from another corner (turned by 90 or 180 degrees)."""
    c = outline.astype(np.float64)
    w = float(np.linalg.norm(c[1] - c[0]))
    centre = c.mean(axis=0)
    r = rng.random()
    if r < 0.2:  # nearly exact
        q = c + rng.normal(0, 0.015 * w, (4, 2))
    else:
        sc = rng.uniform(0.82, 1.1)
        th = np.radians(rng.normal(0, 3))
        rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
        q = (c - centre) @ rot.T * sc + centre + np.clip(rng.normal(0, 0.05 * w, 2), -0.1 * w, 0.1 * w)
        q += np.clip(rng.laplace(0, 0.04 * w, (4, 2)), -0.12 * w, 0.12 * w)
    return np.roll(q, -int(rng.choice(4, p=[0.6, 0.15, 0.1, 0.15])), axis=0)


def _quad_mask(shape: tuple[int, int], q: np.ndarray) -> np.ndarray:
    import cv2

    m = np.zeros(shape, np.uint8)
    cv2.fillPoly(m, [np.round(q * 4).astype(np.int32)], 1, cv2.LINE_8, 2)
    return m.astype(bool)


def shares(labels: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, float]:
    """How much of quad ``q`` each label covers (index = label; outside the frame counts as
    table), and the quad's area in pixels."""
    import cv2

    area = max(1.0, abs(float(cv2.contourArea(q.astype(np.float32)))))
    m = _quad_mask(labels.shape, q)
    counts = np.bincount(labels[m], minlength=int(labels.max()) + 1).astype(np.float64)
    counts[0] += max(0.0, area - m.sum())
    return counts / area, area


def scene_samples(rng: np.random.Generator, scene, backs_extra: int = 3):  # type: ignore[no-untyped-def]
    """(quad, label, card width, kind) of one scene: kind 0 card, 1 table, 2 two cards, 3 slid off."""
    import cv2

    out = []
    lab = scene.labels
    h, w = lab.shape
    cards = [c for c in scene.cards if np.linalg.norm(c.outline[1] - c.outline[0]) >= 16]
    for c in cards:
        cw = float(np.linalg.norm(c.outline[1] - c.outline[0]))
        if c.visible < 0.5:
            continue
        reps = 1 + (backs_extra if c.code == "BK" else 0)
        for _ in range(reps):
            q = jitter(rng, c.outline)
            sh, _ = shares(lab, q)
            own = sh[c.ident] if c.ident < len(sh) else 0.0
            if own >= 0.45:
                out.append((q, BACK if c.code == "BK" else FACE, cw, 0))
    # quads spanning two cards
    pairs = [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
    rng.shuffle(pairs)
    for a, b in pairs[:6]:
        wa = np.linalg.norm(a.outline[1] - a.outline[0])
        wb = np.linalg.norm(b.outline[1] - b.outline[0])
        if np.linalg.norm(a.outline.mean(0) - b.outline.mean(0)) > 1.6 * max(wa, wb):
            continue
        box = cv2.boxPoints(cv2.minAreaRect(np.concatenate([a.outline, b.outline]).astype(np.float32)))
        q = jitter(rng, box.astype(np.float64))
        sh, area = shares(lab, q)
        if sh[1:].max(initial=0.0) < 0.6 and sh[1:].sum() > 0.3:
            out.append((q, NONE, float(np.sqrt(area / 1.4)), 2))
    # quads slid mostly off their card
    for c in cards[:4]:
        cw = float(np.linalg.norm(c.outline[1] - c.outline[0]))
        a = rng.uniform(0, 2 * np.pi)
        q = c.outline + rng.uniform(0.5, 0.9) * cw * np.array([np.cos(a), np.sin(a)])
        q = jitter(rng, q)
        sh, _ = shares(lab, q)
        if sh[1:].max(initial=0.0) < 0.4:
            out.append((q, NONE, cw, 3))
    # quads on bare table, occluders and whatever else is not a card
    widths = [float(np.linalg.norm(c.outline[1] - c.outline[0])) for c in cards] or [0.2 * min(w, h)]
    for _ in range(4):
        for _try in range(8):
            cw = float(rng.choice(widths)) * rng.uniform(0.7, 1.3)
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            th = rng.uniform(0, np.pi)
            u, v = np.array([np.cos(th), np.sin(th)]), np.array([-np.sin(th), np.cos(th)])
            asp = rng.uniform(1.2, 1.6)
            q = np.array([(cx, cy)] * 4) + np.outer([-0.5, 0.5, 0.5, -0.5], u) * cw
            q = q + np.outer([-0.5, -0.5, 0.5, 0.5], v) * cw * asp
            q = q + rng.normal(0, 0.04 * cw, (4, 2))
            sh, _ = shares(lab, q)
            if sh[1:].sum() < 0.15:
                out.append((q, NONE, cw, 1))
                break
    return out


def _rect_jitter(rng: np.random.Generator, q: np.ndarray, by: float = 0.03) -> np.ndarray:
    """A quad fitted round a shape the way a finder fits it: nearly tight (scaled 0.93–1.04, each
    corner off by about ``by`` of the shape's size), started at any corner."""
    c = np.asarray(q, np.float64)
    size = float(np.sqrt(max(1.0, abs(cv2_area(c)))))
    centre = c.mean(axis=0)
    c = (c - centre) * rng.uniform(0.93, 1.04) + centre
    c = c + np.clip(rng.normal(0, by * size, (4, 2)), -3 * by * size, 3 * by * size)
    return np.roll(c, -int(rng.integers(4)), axis=0)


def cv2_area(q: np.ndarray) -> float:
    import cv2

    return float(cv2.contourArea(np.asarray(q, np.float32)))


def _sub_quad(rng: np.random.Generator, q: np.ndarray) -> np.ndarray:
    """A card-shaped quad inside rectangle ``q`` (a phone, a receipt, a shoe), along its axes, pushed
    against one end or one side, as a finder fits it round part of a long shape."""
    c = np.asarray(q, np.float64)
    u, v = c[1] - c[0], c[3] - c[0]
    lu, lv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    asp = rng.uniform(1.25, 1.6)
    if lu > lv:  # card's long side along the long side
        fv = rng.uniform(0.85, 1.0)
        fu = min(1.0, fv * lv * asp / max(lu, 1e-6))
    else:
        fu = rng.uniform(0.85, 1.0)
        fv = min(1.0, fu * lu * asp / max(lv, 1e-6))
    ou = (1 - fu) * (0.0 if rng.random() < 0.35 else 1.0 if rng.random() < 0.5 else rng.random())
    ov = (1 - fv) * (0.0 if rng.random() < 0.35 else 1.0 if rng.random() < 0.5 else rng.random())
    o = c[0] + ou * u + ov * v
    return np.array([o, o + fu * u, o + fu * u + fv * v, o + fv * v])


def _sliver(
    rng: np.random.Generator, a: np.ndarray, b: np.ndarray, inward: np.ndarray, cw: float
) -> np.ndarray:
    """A thin quad along the edge ``a``–``b`` (``inward`` its unit normal into the shape): a wedge
    whose one end is at most 0.4 of the other, or a sheared strip with corner angles under 60°,
    lying across or just inside the edge, as a finder fits it to a card's or a table's edge."""
    e = b - a
    t0, t1 = rng.uniform(0, 0.3), rng.uniform(0.7, 1.0)
    p0, p1 = a + t0 * e, a + t1 * e
    off = rng.uniform(-0.15, 0.08) * cw * inward
    d0 = rng.uniform(0.1, 0.45) * cw
    if rng.random() < 0.6:  # a wedge
        d1 = d0 * rng.uniform(0.0, 0.4)
        q = np.array([p0, p1, p1 + d1 * inward, p0 + d0 * inward]) + off
        if rng.random() < 0.5:
            q = np.array([p0, p1, p1 + d0 * inward, p0 + d1 * inward]) + off
    else:  # a sheared strip: corner angles under 60 degrees
        ln = float(np.linalg.norm(e))
        shear = d0 / np.tan(np.radians(rng.uniform(20, 55))) * rng.choice([-1, 1])
        du = e / max(ln, 1e-6)
        q = np.array([p0, p1, p1 + d0 * inward + shear * du, p0 + d0 * inward + shear * du]) + off
    return q + rng.normal(0, 0.01 * cw, (4, 2))


def _edges(q: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The four edges of a convex quad, each with its unit normal pointing into the quad."""
    c = np.asarray(q, np.float64)
    centre = c.mean(axis=0)
    out = []
    for k in range(4):
        a, b = c[k], c[(k + 1) % 4]
        e = b - a
        n = np.array([-e[1], e[0]]) / max(float(np.linalg.norm(e)), 1e-6)
        if np.dot(centre - a, n) < 0:
            n = -n
        out.append((a, b, n))
    return out


def _table_shapes(scene, cards) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    """Rectangles of the table's own print that a finder fits a quad round: the squares, stripes or
    dots of a patterned cloth, and a felt's printed boxes, circles and lettering (components of the
    brighter or darker ink on bare table). Each the minimum-area rectangle of one component, about
    a card's size."""
    import cv2

    fam = scene.family
    if fam != "pattern" and not fam.startswith("felt"):
        return []
    img, lab = scene.image, scene.labels
    h, w = lab.shape
    bare = (lab == 0).astype(np.uint8)
    widths = [float(np.linalg.norm(c.outline[1] - c.outline[0])) for c in cards] or [0.2 * min(w, h)]
    card_area = float(np.median(widths)) ** 2 * 1.4
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    masks = []
    if fam == "pattern":
        pix = img.reshape(-1, 3)[bare.ravel() > 0].astype(np.float32)
        if len(pix) < 100:
            return []
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
        sel = pix[:: max(1, len(pix) // 20000)]
        _, _, centres = cv2.kmeans(sel, 2, None, crit, 1, cv2.KMEANS_PP_CENTERS)
        d = np.stack([np.linalg.norm(img.astype(np.float32) - c, axis=2) for c in centres])
        near = d.argmin(axis=0)
        masks = [((near == k) & (bare > 0)).astype(np.uint8) for k in range(2)]
    else:
        k = max(5, int(0.03 * max(h, w))) | 1
        ker = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
        bright = cv2.morphologyEx(grey, cv2.MORPH_TOPHAT, ker)
        masks = [((bright > 30) & (bare > 0)).astype(np.uint8)]
    out = []
    for m in masks:
        n, comp, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            if bw < 10 or bh < 10 or x == 0 or y == 0 or x + bw >= w or y + bh >= h:
                continue
            pts = cv2.findNonZero((comp[y : y + bh, x : x + bw] == i).astype(np.uint8))
            rect = cv2.minAreaRect(pts + np.array([x, y], np.int32))
            rw, rh = rect[1]
            ra = rw * rh
            if not 0.15 * card_area <= ra <= 3.0 * card_area or max(rw, rh) > 3.0 * max(1.0, min(rw, rh)):
                continue
            if fam == "pattern" and area < 0.6 * ra:  # a cell: the component fills its rectangle
                continue
            out.append(cv2.boxPoints(rect).astype(np.float64))
    return out


def inset_backs(rng: np.random.Generator, scene, cards, reps: int = 2):  # type: ignore[no-untyped-def]
    """``back`` quads fitted to part of a back, as a finder fits one inside the pattern: scaled
    0.5–0.85, shifted up to a fifth of the width, mostly on that back (kind 0, like every card quad)."""
    out = []
    for c in cards:
        if c.code != "BK" or c.visible < 0.5:
            continue
        for _ in range(reps):
            out += _inset(rng, scene, c, (0.5, 0.85), 0.1, BACK, 0)
    return out


def _inset(rng: np.random.Generator, scene, c, scale: tuple[float, float], shift: float, side: int,  # type: ignore[no-untyped-def]
           kind: int) -> list:  # type: ignore[type-arg]
    """One quad inside card ``c``: its outline scaled by ``scale`` about its middle, shifted by about
    ``shift`` card widths (at most twice that), each corner moved a little; kept, as ``side``, when
    at least 70 % of it lies on that card."""
    cw = float(np.linalg.norm(c.outline[1] - c.outline[0]))
    centre = c.outline.mean(axis=0)
    q = (c.outline - centre) * rng.uniform(*scale) + centre
    q = q + np.clip(rng.normal(0, shift * cw, 2), -2 * shift * cw, 2 * shift * cw)
    q = q + np.clip(rng.laplace(0, 0.03 * cw, (4, 2)), -0.08 * cw, 0.08 * cw)
    sh, _ = shares(scene.labels, q)
    if c.ident < len(sh) and sh[c.ident] >= 0.7:
        return [(np.roll(q, -int(rng.integers(4)), axis=0), side, cw, kind)]
    return []


def inset_faces(rng: np.random.Generator, scene, cards):  # type: ignore[no-untyped-def]
    """v4: ``face`` quads fitted inside a face, round its middle (a court card's picture in its frame,
    a pip card's pips), as a finder may fit one: scaled 0.45–0.8, shifted up to a tenth of the width,
    mostly on that face (kind 9). A back of free art (``art_back``) and a court card's picture are
    both colourful print with no index in the quad; the picture belongs to a face."""
    out = []
    for c in cards:
        if c.code in ("BK", "JK") or c.visible < 0.5:
            continue
        for _ in range(2 if c.code[0] in "JQK" else 1):
            out += _inset(rng, scene, c, (0.45, 0.8), 0.05, FACE, 9)
    return out


def covered_cards(rng: np.random.Generator, scene, cards, reps: int = 3):  # type: ignore[no-untyped-def]
    """Cards another card lies over, through quads round their whole outline (as
    ``vision.colour_backs`` grows a hole card's print in view to a card): a back ``COVERED_BACK`` in
    view is ``back`` (``reps`` quads), a face ``COVERED_FACE`` in view ``face`` (one quad); a card at
    least half in view already has its quad among ``scene_samples``'. Only where cards cover the rest,
    not the frame's edge or an occluder (kind 7)."""
    out = []
    for c in cards:
        lo, hi = COVERED_BACK if c.code == "BK" else COVERED_FACE
        if not lo <= c.visible < hi:
            continue
        sh, _ = shares(scene.labels, c.outline)
        if sh[1:].sum() < 0.9:
            continue
        cw = float(np.linalg.norm(c.outline[1] - c.outline[0]))
        centre = c.outline.mean(axis=0)
        for _ in range(reps if c.code == "BK" else 1):
            q = (c.outline - centre) * rng.uniform(0.95, 1.05) + centre
            q = q + np.clip(rng.normal(0, 0.03 * cw, (4, 2)), -0.08 * cw, 0.08 * cw)
            out.append((np.roll(q, -int(rng.integers(4)), axis=0), BACK if c.code == "BK" else FACE, cw, 7))
    return out


def beside_faces(rng: np.random.Generator, scene, cards, share: float = 0.5):  # type: ignore[no-untyped-def]
    """``none`` quads where a hole card's outline would be with no hole card there (kind 8): a face's
    outline moved the way a hand's second card lies from its first (0.12–0.55 widths across,
    0.05–0.6 lengths along, turned σ 6°), a face covering part of it and bare table the rest, for a
    ``share`` of the faces in full view."""
    out = []
    for c in cards:
        if c.code == "BK" or c.visible < 0.9 or rng.random() >= share:
            continue
        cw = float(np.linalg.norm(c.outline[1] - c.outline[0]))
        across, along = c.outline[1] - c.outline[0], c.outline[3] - c.outline[0]
        sign = rng.choice([-1.0, 1.0], 2)
        shift = sign[0] * rng.uniform(0.12, 0.55) * across + sign[1] * rng.uniform(0.05, 0.6) * along
        th = np.radians(rng.normal(0, 6))
        rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
        centre = c.outline.mean(axis=0)
        q = (c.outline - centre) @ rot.T + centre + shift
        q = q + np.clip(rng.normal(0, 0.03 * cw, (4, 2)), -0.08 * cw, 0.08 * cw)
        sh, _ = shares(scene.labels, q)
        own = sh[c.ident] if c.ident < len(sh) else 0.0
        if sh[0] >= 0.25 and own >= 0.25 and sh[0] + own >= 0.95:
            out.append((np.roll(q, -int(rng.integers(4)), axis=0), NONE, cw, 8))
    return out


def hole_scene(rng: np.random.Generator, size: tuple[int, int], families, decks, min_card: float):  # type: ignore[no-untyped-def]
    """A scene of two-card hands only, the back drawn 40 times in the pool: many hole cards with a
    face dealt over them."""
    import scenes

    hands = tuple(float(k == "hand") for k in scenes.LAYOUTS)
    return scenes.make_scene(rng, size, families, decks, max_cards=12, min_card=min_card, backs=40,
                             layout_p=hands)


def outline_samples(rng: np.random.Generator, scene, cards):  # type: ignore[no-untyped-def]
    """``none`` quads fitted to what is not a card: (quad, label, width, kind) with kind 4 an
    occluder's outline (a phone, its screen, a receipt or paper, a shoe, a rack, chips, a hand) or a
    card-shaped part of it, 5 a sliver along a card's or an occluder's edge, 6 a square, stripe or
    dot of a patterned cloth or a felt's printed box, circle or lettering."""
    out = []
    lab = scene.labels
    h, w = lab.shape

    def add(q: np.ndarray, kind: int, most: float) -> None:
        c = q.mean(axis=0)
        if not (0 <= c[0] < w and 0 <= c[1] < h) or abs(cv2_area(q)) < 64:
            return
        sh, area = shares(lab, q)
        if sh[1:].max(initial=0.0) < most:
            out.append((q, NONE, float(np.sqrt(area / 1.4)), kind))

    for kind, q in scene.occluders:
        add(_rect_jitter(rng, q), 4, 0.3)
        if kind in ("phone", "screen", "paper", "shoe", "rack"):
            add(_rect_jitter(rng, _sub_quad(rng, q), 0.02), 4, 0.3)
        if kind == "phone":  # inset: the finder's quad inside the phone's dark frame
            c = q.mean(axis=0)
            add(_rect_jitter(rng, (q - c) * rng.uniform(0.8, 0.92) + c, 0.02), 4, 0.3)
    # slivers: along card edges (over the card, the table or both) and along occluders' edges
    for c in list(cards)[:3]:
        if c.visible < 0.5:
            continue
        cw = float(np.linalg.norm(c.outline[1] - c.outline[0]))
        a, b, n = _edges(c.outline)[int(rng.integers(4))]
        add(_sliver(rng, a, b, n if rng.random() < 0.7 else -n, cw), 5, 1.01)
    for _kind, q in scene.occluders[:2]:
        a, b, n = _edges(q)[int(rng.integers(4))]
        size = float(np.sqrt(max(1.0, abs(cv2_area(q)))))
        add(_sliver(rng, a, b, n if rng.random() < 0.5 else -n, 0.7 * size), 5, 0.3)
    shapes = _table_shapes(scene, cards)
    rng.shuffle(shapes)
    for q in shapes[:4]:
        add(_rect_jitter(rng, q, 0.03), 6, 0.15)
    return out


def generate(out: Path, shards: int, per_shard: int, seed: int, first: int = 0, families=None,  # type: ignore[no-untyped-def]
             hole_cards: bool = False, art_backs: float = 0.0) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for k in range(first, first + shards):
        if not (out / f"shard_{k:03d}.npz").exists():
            _shard(out, k, per_shard, _scene_seed(seed, k), families, hole_cards, art_backs)


def _shard(out: Path, k: int, per_shard: int, scene_seed: int, families=None,  # type: ignore[no-untyped-def]
           hole_cards: bool = False, art_backs: float = 0.0) -> None:
    """One shard: ``per_shard`` scenes (a quarter 320×240, half 640×480, a quarter 1280×960, some
    portrait), the patch of every sample quad cut exactly as at run time (``card_side.sample``); with
    ``hole_cards``, v3's samples too (the hole-card network, ``card_side_hole.onnx``); with
    ``art_backs``, v4, that share of the decks gets an ``art_back`` (from a fourth generator)."""
    import cv2
    from backgrounds import TRAIN_FAMILIES

    cv2.setNumThreads(1)
    fams = families or TRAIN_FAMILIES
    rng = np.random.default_rng(scene_seed)
    extra = np.random.default_rng([scene_seed, 1])  # the added negatives: the other samples unchanged
    # v3's covered cards and hole-card scenes: a third generator, so v1's and v2's samples are unchanged
    holes = np.random.default_rng([scene_seed, 2])
    art = (art_backs, np.random.default_rng([scene_seed, 3])) if art_backs else None
    decks = make_decks(rng, 6, art)
    patches, labels, meta = [], [], []

    def add(image: np.ndarray, samples) -> None:  # type: ignore[no-untyped-def]
        for q, y, cw, kind in samples:
            patches.append(sample(image, q))
            labels.append(y)
            meta.append((cw, kind))

    for _ in range(per_shard):
        size, min_card = _scene_size(rng)
        scene = scene_with_backs(rng, size, fams, decks, min_card)
        cards = [c for c in scene.cards if np.linalg.norm(c.outline[1] - c.outline[0]) >= 16]
        added = outline_samples(extra, scene, cards) + inset_backs(extra, scene, cards)
        if art is not None:
            added += inset_faces(art[1], scene, cards)
        if hole_cards:
            added += covered_cards(holes, scene, cards) + beside_faces(holes, scene, cards)
        add(scene.image, scene_samples(rng, scene) + added)
    for _ in range(HOLE_SCENES if hole_cards else 0):
        size, min_card = _scene_size(holes)
        scene = hole_scene(holes, size, fams, decks, min_card)
        cards = [c for c in scene.cards if np.linalg.norm(c.outline[1] - c.outline[0]) >= 16]
        hole_cards = covered_cards(holes, scene, cards) + beside_faces(holes, scene, cards)
        add(scene.image, scene_samples(holes, scene) + hole_cards)
    tmp = out / f"shard_{k:03d}.tmp.npz"
    np.savez(
        tmp,
        patches=np.array(patches, np.uint8).reshape(-1, H, W, 3),
        labels=np.array(labels, np.int64),
        meta=np.array(meta, np.float32).reshape(-1, 2),
    )
    os.replace(tmp, out / f"shard_{k:03d}.npz")
    per_side = np.bincount(labels, minlength=3).tolist()
    print(f"shard {k}: {len(labels)} patches, per side {per_side}", flush=True)


def _scene_size(rng: np.random.Generator) -> tuple[tuple[int, int], float]:
    """A scene's size (a quarter 320×240, half 640×480, a quarter 1280×960; 30 % portrait) and the
    narrowest card drawn in it."""
    size, min_card = [((320, 240), 20), ((640, 480), 22), ((640, 480), 30), ((1280, 960), 40)][
        int(rng.integers(4))
    ]
    return (size[::-1] if rng.random() < 0.3 else size), min_card


def load(dirs: list[Path], shards: list[int] | None = None, exclude: list[int] | None = None):  # type: ignore[no-untyped-def]
    from torch_tools import load_shards

    def keep(k: int) -> bool:
        return (shards is None or k in shards) and not (exclude and k in exclude)

    return tuple(load_shards(dirs, ("patches", "labels", "meta"), keep))


def printed_box(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    """Patch ``p`` with a thin box drawn near the quad's outline in a printing ink (white, gold or
    dark): a felt layout's card box, which is table, not a card."""
    import cv2

    from vision.card_side import MARGIN

    m = MARGIN * W / (1 + 2 * MARGIN)
    d = rng.uniform(-2, 4, 4)
    q = 16  # fixed-point subpixel bits for cv2.rectangle (shift = 4)
    p0 = (int((m + d[0]) * q), int((m + d[1]) * q))
    p1 = (int((W - m - d[2]) * q), int((H - m - d[3]) * q))
    r = rng.random()
    ink = (230, 230, 230) if r < 0.4 else (40, 190, 230) if r < 0.7 else (30, 30, 30)
    ink = tuple(float(np.clip(c + rng.normal(0, 20), 0, 255)) for c in ink)
    layer = np.zeros(p.shape[:2], np.float32)
    cv2.rectangle(layer, p0, p1, 1.0, 1 if rng.random() < 0.8 else 2, cv2.LINE_AA, 4)
    a = rng.uniform(0.4, 0.9) * layer[..., None]
    return np.clip(p * (1 - a) + np.array(ink, np.float32) * a, 0, 255).astype(np.uint8)


# the patch's outer ring (the table just round the quad) at most this bright (mean of its channels): a
# camera over-exposes the cards where it meters a dark table; over a pale one it does not
DARK_ROUND = 90.0


def _dark_round(p: np.ndarray) -> bool:
    """Whether the table round a card-side patch is dark (its outer ring, ``MARGIN`` deep)."""
    k = max(1, round(MARGIN / (1 + 2 * MARGIN) * p.shape[1]))
    ring = np.concatenate([p[:k].reshape(-1, 3), p[-k:].reshape(-1, 3), p[:, :k].reshape(-1, 3),
                           p[:, -k:].reshape(-1, 3)])
    return float(ring.mean()) <= DARK_ROUND


def augment(
    rng: np.random.Generator,
    x: np.ndarray,
    kinds: np.ndarray | None = None,
    exposure: float = 0.0,
    dark_only: bool = False,
) -> np.ndarray:
    """Colour, light, blur and noise a little further than the scenes do; turned by 180 degrees or
    mirrored (a card reads the same turned round; the side does not change in a mirror). A share
    ``exposure`` of the patches is over-exposed as ``train_patch_reader.augment`` does it (a camera
    metering a dark table: a back's pale print and the card stock clip to white); with ``dark_only``
    only where the table round it is dark (``_dark_round``). With ``exposure`` 0 the generator draws
    what it drew before the option existed."""

    out = np.empty_like(x)
    for i, p in enumerate(x):
        if kinds is not None and kinds[i] == 1 and rng.random() < 0.5:
            p = printed_box(rng, p)
        if exposure > 0 and rng.random() < exposure and (not dark_only or _dark_round(p)):
            gain, offset = rng.uniform(*EXPOSURE_GAIN), rng.uniform(*EXPOSURE_OFFSET)
            p = np.clip(p * gain + offset, 0, 255).astype(np.uint8)
        if rng.random() < 0.5:
            p = p[..., rng.permutation(3)]
        if rng.random() < 0.5:
            p = p[::-1, ::-1]
        if rng.random() < 0.3:
            p = p[:, ::-1]
        out[i] = light_blur_noise(rng, p.astype(np.float32), 0.2, 1.0)
    return out


def build_net(folded: bool = False):  # type: ignore[no-untyped-def]
    """The card-side network; ``folded``: each BatchNorm folded into the convolution before it (a
    bias of its own), as the exported file holds it, to fine-tune that file's weights."""
    import torch
    from torch import nn

    def cbr(cin: int, cout: int) -> nn.Sequential:
        if folded:
            return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1), nn.ReLU())
        return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Side(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                cbr(3, 16), nn.MaxPool2d(2),  # 22 × 16
                cbr(16, 24), nn.MaxPool2d(2),  # 11 × 8
                cbr(24, 32), nn.MaxPool2d(2),  # 5 × 4
                cbr(32, 48),
            )
            self.fc = nn.Sequential(nn.Linear(48 * (H // 8) * (W // 8), 32), nn.ReLU(), nn.Linear(32, 3))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.fc(torch.flatten(self.body(x), 1))

    return Side()


def exported_net(path: Path):  # type: ignore[no-untyped-def]
    """A folded :func:`build_net` holding the weights of the exported network at ``path``."""
    net = build_net(folded=True)
    load_onnx_initializers(path, ("Conv", "Gemm"), list(net.parameters()))
    return net


def _is_folded(state) -> bool:  # type: ignore[no-untyped-def]
    return not any(k.endswith("running_mean") for k in state)


def predict(net, x: np.ndarray) -> np.ndarray:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            out.append(torch.softmax(net(torch.from_numpy(prepare(x[i : i + 512]))), 1).numpy())
    net.train()
    return np.concatenate(out)


def report(p: np.ndarray, y: np.ndarray, meta: np.ndarray) -> dict[str, object]:
    """Accuracy, the confusion matrix (rows: truth, columns: said) and back recall / precision at
    a few thresholds, by card width."""
    said = p.argmax(1)
    conf = np.zeros((3, 3), int)
    np.add.at(conf, (y, said), 1)
    res: dict[str, object] = {"n": int(len(y)), "accuracy": round(float((said == y).mean()), 4)}
    res["confusion"] = {SIDES[t]: conf[t].tolist() for t in range(3)}
    for th in (0.3, 0.5, 0.7, 0.9):
        pred = p[:, BACK] > th
        tp = int((pred & (y == BACK)).sum())
        res[f"back>{th}"] = {
            "recall": round(tp / max(1, int((y == BACK).sum())), 4),
            "precision": round(tp / max(1, int(pred.sum())), 4),
            "face_called_back": int((pred & (y == FACE)).sum()),
            "none_called_back": int((pred & (y == NONE)).sum()),
        }
    if meta.shape[0] and meta[:, 1].max() > 3:  # the no-card quads called back, by kind (see scene_samples)
        called = p[:, BACK] > 0.3
        res["none_called_back>0.3_by_kind"] = {
            str(k): [int((called & (meta[:, 1] == k)).sum()), int((meta[:, 1] == k).sum())]
            for k in range(1, 7)
        }
    covered = (meta[:, 1] == 7) & (y == BACK)
    if covered.any():  # v3: backs other cards lie over, through their whole outline
        res["covered_back_recall>0.7"] = [int((p[covered, BACK] > 0.7).sum()), int(covered.sum())]
    beside = meta[:, 1] == 8
    if beside.any():  # v3: bare table a face covers part of, where a hole card would lie
        res["beside_faces_called_back>0.7"] = [int((p[beside, BACK] > 0.7).sum()), int(beside.sum())]
    for lo, hi in ((0, 50), (50, 120), (120, 1e9)):
        sel = (meta[:, 0] >= lo) & (meta[:, 0] < hi)
        if sel.any():
            res[f"accuracy_{lo}-{int(min(hi, 9999))}px"] = round(float((said[sel] == y[sel]).mean()), 4)
    return res


def train(dirs: list[Path], weights: Path, steps: int, seed: int, minutes: float, bs: int, lr: float,
          val_shards: list[int], exposure: float = 0.0, dark_only: bool = False,
          init: Path | None = None, keep: float = 0.0, keep_sure: float = 0.0,
          teacher: Path | None = None) -> None:
    """Train the network on the shards in ``dirs``. With ``init`` (an exported network) fine-tune it.
    With ``keep`` > 0, also hold the logits of ``teacher`` (an exported network; ``init`` if not given)
    where it is right and at least ``keep_sure`` sure (weight ``keep`` on their mean squared
    difference), so that the new network learns what the old got wrong without moving what it got
    right, the far tail of its back probability included (the recogniser's 0.999 bars)."""
    import torch
    from torch_tools import out_of_time, seeded

    rng = seeded(seed)
    x, y, meta = load(dirs, exclude=val_shards)
    vx, vy, vm = load(dirs, shards=val_shards)
    per_side = np.bincount(y, minlength=3).tolist()
    print(f"{len(y)} training patches {per_side}, {len(vy)} validation", flush=True)
    # fine-tune: start from an exported network's weights (its BatchNorms folded, so none to train)
    net = build_net() if init is None else exported_net(init)
    teacher = teacher or init
    held = exported_net(teacher).eval() if teacher is not None and keep > 0 else None
    print(f"{sum(p.numel() for p in net.parameters())} weights", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.05)
    counts = np.bincount(y, minlength=3).astype(np.float64)
    pick = (1.0 / counts[y]) ** 0.5  # rarer sides drawn more often (backs are a fifth of the cards)
    pick /= pick.sum()
    loss_fn = torch.nn.CrossEntropyLoss()
    t0 = time.time()
    for step in range(steps):
        idx = rng.choice(len(y), bs, p=pick)
        xb = torch.from_numpy(prepare(augment(rng, x[idx], meta[idx, 1], exposure, dark_only)))
        yb = torch.from_numpy(y[idx])
        out = net(xb)
        loss = loss_fn(out, yb)
        if held is not None:
            with torch.no_grad():
                was = held(xb)
            sure = torch.softmax(was, 1).gather(1, yb[:, None])[:, 0] >= keep_sure
            right = ((was.argmax(1) == yb) & sure).float()[:, None]
            loss = loss + keep * (right * (out - was) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            print(json.dumps({"step": step, "loss": round(loss.item(), 4), "s": round(time.time() - t0)}),
                  flush=True)
        last = step == steps - 1 or out_of_time(t0, minutes, step, steps, say=True)
        if step % 1000 == 999 or last:
            torch.save(net.state_dict(), weights)
            print("val:", json.dumps(report(predict(net, vx), vy, vm)), flush=True)
        if last:
            break


def measure(dirs: list[Path], weights: Path, val_shards: list[int], seed: int, scenes: int,
            ho: Path = Path("/tmp/card_side_heldout"), hole_cards: bool = False) -> None:
    """The trained network on the validation shards and on scenes of the held-out families."""
    import torch
    from backgrounds import HELD_OUT_FAMILIES

    torch.set_num_threads(1)
    state = torch.load(weights)
    net = build_net(folded=_is_folded(state))
    net.load_state_dict(state)
    vx, vy, vm = load(dirs, shards=val_shards)
    print("validation (training families, own seeds):", json.dumps(report(predict(net, vx), vy, vm)),
          flush=True)
    if not (ho / "shard_000.npz").exists():
        ho.mkdir(parents=True, exist_ok=True)
        _shard(ho, 0, scenes, 900_000 + seed, HELD_OUT_FAMILIES, hole_cards)
    hx, hy, hm = load([ho])
    print("held-out families (stone_light, felt_purple):", json.dumps(report(predict(net, hx), hy, hm)),
          flush=True)


def export(weights: Path, out: Path) -> None:
    import torch
    from torch_tools import export_weights

    export_weights(build_net(folded=_is_folded(torch.load(weights))), weights, (1, 3, H, W), out)


T = TypeVar("T")


def _take(flag: str, convert: Callable[[str], T], default: T) -> T:
    """The value after ``flag`` on the command line, ``convert``-ed (and taken off it), or ``default``."""
    if flag not in sys.argv:
        return default
    at = sys.argv.index(flag)
    value = convert(sys.argv[at + 1])
    del sys.argv[at : at + 2]
    return value


def _flag(flag: str) -> bool:
    """Whether ``flag`` is on the command line (taking it off)."""
    if flag not in sys.argv:
        return False
    sys.argv.remove(flag)
    return True


def main() -> None:
    # ``--hole-cards``: v3, with its own data, weights and network file (``card_side_hole``)
    hole_cards = _flag("--hole-cards")
    # ``--exposure SHARE``: that share of the training patches over-exposed (``augment``); with
    # ``--exposure-dark-only``, only those on a dark table
    exposure = _take("--exposure", float, 0.0)
    dark_only = _flag("--exposure-dark-only")
    # ``--art-backs SHARE``: v4, that share of the decks printed with ``art_back``'s free art
    art_backs = _take("--art-backs", float, 0.0)
    # ``--init FILE.onnx``: train from an exported card-side network's weights instead of fresh ones
    init: Path | None = _take("--init", Path, None)
    # ``--keep WEIGHT``: hold the logits of ``--teacher FILE.onnx`` (or of ``--init``) where it was
    # right; ``--keep-sure P``: only where it gave the right side at least that surely
    teacher: Path | None = _take("--teacher", Path, None)
    keep = _take("--keep", float, 0.0)
    keep_sure = _take("--keep-sure", float, 0.0)
    patch_net_main(
        __doc__, "card_side_hole" if hole_cards else "card_side", 50,
        shards=24, steps=5000, val_shards=[0, 12], minutes=14.0,
        generate=partial(generate, hole_cards=hole_cards, art_backs=art_backs),
        train=partial(
            train, exposure=exposure, dark_only=dark_only, init=init, keep=keep, keep_sure=keep_sure,
            teacher=teacher,
        ),
        export=export, measure=partial(measure, hole_cards=hole_cards),
    )


if __name__ == "__main__":
    main()
