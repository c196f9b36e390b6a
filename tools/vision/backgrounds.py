"""Procedural table surfaces in families, for the synthetic scenes the card finder learns from.

Every texture is drawn here from noise, sines and shapes (no photo, no texture file). Families:

* training: ``wood_light``, ``wood_dark``, ``cloth_white``, ``cloth_cream``, ``felt_green``,
  ``felt_blue``, ``felt_red``, ``laminate``, ``pattern``, ``dark_room``, ``desk_grey``
* held out (never drawn while training; only the synthetic benchmark uses them): ``stone_light``
  (pale speckled stone with veins, a light table) and ``felt_purple`` (casino felt with a printed
  layout in another colour).

``LIGHT`` lists the light families: white cards on a pale surface is the hard case, and at least a
third of the training draws come from them.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

TRAIN_FAMILIES = (
    "wood_light",
    "cloth_white",
    "cloth_cream",
    "laminate",
    "wood_dark",
    "felt_green",
    "felt_blue",
    "felt_red",
    "pattern",
    "dark_room",
    "desk_grey",
)
HELD_OUT_FAMILIES = ("stone_light", "felt_purple")
LIGHT = ("wood_light", "cloth_white", "cloth_cream", "laminate", "stone_light")


def _noise(rng: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth noise in [-1, 1]-ish with features about ``cell`` pixels across."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    g = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _fractal(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 3) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    for _ in range(octaves):
        out += amp * _noise(rng, h, w, max(1.5, cell))
        cell /= 2.5
        amp *= 0.5
    return out


def _jitter(rng: np.random.Generator, colour: tuple[float, float, float], by: float) -> np.ndarray:
    return np.clip(np.array(colour, np.float32) + rng.normal(0, by, 3), 0, 255)


def _wood(rng: np.random.Generator, h: int, w: int, base: np.ndarray, dark: float) -> np.ndarray:
    """Grain: warped stripes along a random direction, planks with seams."""
    ang = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    v = -xx * np.sin(ang) + yy * np.cos(ang)
    freq = rng.uniform(0.05, 0.25) * 64 / max(h, w) * rng.uniform(2, 6)
    warp = _noise(rng, h, w, max(h, w) / rng.uniform(2, 6)) * rng.uniform(2, 8)
    grain = np.sin(v * freq * 2 * np.pi / 8 + warp) * 0.5 + 0.5
    grain = grain ** rng.uniform(1, 4)
    fine = _noise(rng, h, w, rng.uniform(1.5, 4)) * 0.3
    img = base[None, None, :] * (1 - dark * (grain[..., None] + fine[..., None] * 0.3))
    plank = max(h, w) / rng.uniform(2, 8)
    if rng.random() < 0.6:
        seams = (np.abs((v + rng.uniform(0, plank)) % plank) < max(1.0, plank * 0.01)).astype(np.float32)
        img *= 1 - 0.35 * seams[..., None]
        shade = np.floor((v + 1000) / plank)
        img *= (1 + 0.08 * np.sin(shade * 12.9898 + rng.uniform(0, 6)))[..., None]
    _ = u
    return img


def _felt(rng: np.random.Generator, h: int, w: int, base: np.ndarray) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img += (_noise(rng, h, w, rng.uniform(1, 2.5)) * rng.uniform(3, 9))[..., None]
    img += (_noise(rng, h, w, max(h, w) / 4) * rng.uniform(3, 10))[..., None]
    if rng.random() < 0.7:  # printed layout: lines, arcs, boxes and text in a contrasting ink
        ink = (
            (230, 230, 230)
            if rng.random() < 0.5
            else tuple(float(c) for c in _jitter(rng, (40, 190, 230), 30))
        )
        t = max(1, int(max(h, w) * rng.uniform(0.002, 0.006)))
        layer = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 6))):
            kind = rng.random()
            if kind < 0.4:
                c = (int(rng.uniform(0, w)), int(rng.uniform(-h, 2 * h)))
                r = int(rng.uniform(0.3, 1.5) * max(h, w))
                cv2.circle(layer, c, r, 255, t, cv2.LINE_AA)
            elif kind < 0.7:
                x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
                s = int(rng.uniform(0.05, 0.2) * max(h, w))
                cv2.rectangle(layer, (x, y), (x + s, int(y + s * rng.uniform(0.6, 1.6))), 255, t)
            elif kind < 0.85:
                x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
                s = int(rng.uniform(0.03, 0.1) * max(h, w))
                cv2.ellipse(layer, (x, y), (s, s), 0, 0, 360, 255, t, cv2.LINE_AA)
            else:
                words = ("BLACKJACK PAYS 3 TO 2", "INSURANCE", "DEALER MUST STAND", "POKER", "ANTE")
                text = words[int(rng.integers(len(words)))]
                scale = max(h, w) * rng.uniform(0.0008, 0.002)
                org = (int(rng.uniform(0, w * 0.7)), int(rng.uniform(0.1, 0.95) * h))
                cv2.putText(layer, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, t, cv2.LINE_AA)
        a = rng.uniform(0.5, 0.9) * layer.astype(np.float32)[..., None] / 255
        img = img * (1 - a) + np.array(ink, np.float32) * a
    return img


def _cloth(rng: np.random.Generator, h: int, w: int, base: np.ndarray) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    weave = (
        np.sin(np.arange(w) * rng.uniform(0.8, 2.5))[None, :]
        + np.sin(np.arange(h) * rng.uniform(0.8, 2.5))[:, None]
    )
    img += (weave * rng.uniform(0, 3))[..., None]
    img += (_noise(rng, h, w, max(h, w) / rng.uniform(3, 8)) * rng.uniform(3, 10))[..., None]
    if rng.random() < 0.5:  # folds and creases: long soft dark lines
        for _ in range(int(rng.integers(1, 4))):
            m = np.zeros((h, w), np.float32)
            p0 = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            p1 = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            cv2.line(m, p0, p1, 1.0, max(1, int(max(h, w) * 0.01)))
            m = cv2.GaussianBlur(m, (0, 0), max(1.0, max(h, w) * 0.01))
            img *= 1 - rng.uniform(0.05, 0.2) * m[..., None] / max(float(m.max()), 1e-6)
    return img


def _pattern(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Patterned tablecloth: checks, stripes or dots in two or three colours."""
    c1, c2 = rng.uniform(30, 240, 3), rng.uniform(30, 240, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = c1
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    s = max(h, w) * rng.uniform(0.02, 0.12)
    kind = rng.random()
    if kind < 0.4:
        m = ((xx // s + yy // s) % 2).astype(np.float32)
    elif kind < 0.7:
        m = ((xx + yy * rng.uniform(-1, 1)) // s % 2).astype(np.float32)
    else:
        m = (((xx % s) - s / 2) ** 2 + ((yy % s) - s / 2) ** 2 < (s * rng.uniform(0.15, 0.4)) ** 2).astype(
            np.float32
        )
    m = cv2.GaussianBlur(m, (0, 0), 0.7)
    img = img * (1 - m[..., None]) + c2 * m[..., None]
    img += (_noise(rng, h, w, 2) * 4)[..., None]
    return img


def _stone(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Held out: pale speckled stone with soft grey veins."""
    base = _jitter(rng, (215, 218, 220), 12)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img += (_fractal(rng, h, w, max(h, w) / 3, 4) * 8)[..., None]
    speck = (rng.random((h, w)) < rng.uniform(0.01, 0.05)).astype(np.float32)
    img -= (cv2.GaussianBlur(speck, (0, 0), 0.6) * rng.uniform(40, 120))[..., None]
    vein = np.abs(_fractal(rng, h, w, max(h, w) / 2, 4))
    img -= (np.exp(-vein * rng.uniform(8, 20)) * rng.uniform(20, 60))[..., None]
    return img


def _dark_room(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _jitter(rng, (25, 22, 20), 8)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img += (_noise(rng, h, w, max(h, w) / 5) * 6)[..., None]
    img += (_noise(rng, h, w, 2) * 3)[..., None]
    return img


def _flat(
    base: tuple[float, float, float], grain: float
) -> Callable[[np.random.Generator, int, int], np.ndarray]:
    def make(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
        img = np.empty((h, w, 3), np.float32)
        img[:] = _jitter(rng, base, 12)
        img += (_noise(rng, h, w, rng.uniform(1.5, 3)) * grain)[..., None]
        img += (_noise(rng, h, w, max(h, w) / 4) * grain)[..., None]
        return img

    return make


def table_surface(family: str, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """An (h, w, 3) float32 BGR table texture of ``family``."""
    if family == "wood_light":
        img = _wood(rng, h, w, _jitter(rng, (150, 190, 215), 15), rng.uniform(0.1, 0.3))
    elif family == "wood_dark":
        img = _wood(rng, h, w, _jitter(rng, (40, 70, 110), 15), rng.uniform(0.2, 0.5))
    elif family == "cloth_white":
        img = _cloth(rng, h, w, _jitter(rng, (232, 235, 236), 8))
    elif family == "cloth_cream":
        img = _cloth(rng, h, w, _jitter(rng, (195, 225, 238), 10))
    elif family == "felt_green":
        img = _felt(rng, h, w, _jitter(rng, (50, 110, 30), 15))
    elif family == "felt_blue":
        img = _felt(rng, h, w, _jitter(rng, (120, 60, 20), 15))
    elif family == "felt_red":
        img = _felt(rng, h, w, _jitter(rng, (35, 30, 130), 15))
    elif family == "felt_purple":
        img = _felt(rng, h, w, _jitter(rng, (110, 40, 80), 12))
    elif family == "laminate":
        img = _flat((205, 205, 200), 4)(rng, h, w)
        if rng.random() < 0.5:
            img = _wood(rng, h, w, _jitter(rng, (185, 200, 210), 10), rng.uniform(0.03, 0.1))
    elif family == "desk_grey":
        img = _flat((150, 150, 145), 5)(rng, h, w)
    elif family == "pattern":
        img = _pattern(rng, h, w)
    elif family == "dark_room":
        img = _dark_room(rng, h, w)
    elif family == "stone_light":
        img = _stone(rng, h, w)
    else:
        raise ValueError(f"unknown table family {family!r}")
    return np.clip(img, 0, 255).astype(np.float32)
