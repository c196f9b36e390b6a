"""Card-back designs that no trainer draws, for measuring how the recogniser meets a deck's back it
never saw (``scenes.py --back-art``).

Training draws ``render.render_back``'s bordered lattice, ``scenes.varied_back``'s lattices, diamonds,
stripes, dots and checks, and ``train_card_side``'s line art and fills. Real decks add designs unlike
any of those, and these three stand for them:

- ``rosette``: fine guilloche line work in one ink on the paper inside a paper border (most club and
  casino decks print their back this way: thin dark lines, the ground white);
- ``emblem``: a filled colour with a large printed emblem and a word on it (a casino's or a brand's
  name, letters that are not an index);
- ``tartan``: crossing bands of two or three colours and widths, printed to the edge or bordered.

Nothing here may be imported by a trainer: these designs are held out.

>>> import numpy as np
>>> back = held_out_back(np.random.default_rng(1), (240, 244, 244), 240)
>>> back.shape, back.dtype.name
((336, 240, 3), 'uint8')
"""

from __future__ import annotations

import cv2
import numpy as np

KINDS = ("rosette", "emblem", "tartan")
WORDS = ("CASINO", "ROYAL", "CLUB", "ACE", "GRAND", "PALACE", "STAR")


def held_out_back(
    rng: np.random.Generator, paper: tuple[int, int, int], width: int, kind: str | None = None
) -> np.ndarray:
    """A back of one of ``KINDS`` (chosen by ``rng`` unless given), ``width`` px wide, BGR uint8."""
    from vision.render import CARD_ASPECT

    kind = kind or str(rng.choice(KINDS))
    drawers = {"rosette": _rosette, "emblem": _emblem, "tartan": _tartan}
    if kind not in drawers:
        raise ValueError(f"back kind must be one of {', '.join(KINDS)}, got {kind!r}")
    return drawers[kind](rng, paper, width, int(round(width * CARD_ASPECT)))


def _ink(rng: np.random.Generator) -> np.ndarray:
    """A printing ink: a strong red or blue most often, else any dark colour."""
    pick = rng.random()
    if pick < 0.35:
        return np.array([rng.uniform(20, 70), rng.uniform(20, 60), rng.uniform(150, 220)])  # red (BGR)
    if pick < 0.7:
        return np.array([rng.uniform(120, 200), rng.uniform(40, 90), rng.uniform(10, 50)])  # blue
    return rng.uniform(0, 120, 3)


def _border(img: np.ndarray, paper: tuple[int, int, int], share: float) -> None:
    b = max(1, int(share * img.shape[1]))
    img[:b], img[-b:], img[:, :b], img[:, -b:] = paper, paper, paper, paper


def _rosette(rng: np.random.Generator, paper: tuple[int, int, int], w: int, h: int) -> np.ndarray:
    """Rows of rosettes drawn as thin sinusoidal loops, mirrored about the middle."""
    art = np.zeros((h, w), np.uint8)
    cell = float(rng.uniform(0.18, 0.4)) * w
    lobes = int(rng.integers(5, 13))
    t = np.linspace(0, 2 * np.pi, 400)
    thick = 1 if w < 300 else 2
    for cy in np.arange(cell / 2, h / 2 + cell, cell * 0.87):
        shift = (round(cy / (cell * 0.87)) % 2) * cell / 2
        for cx in np.arange(shift, w + cell, cell):
            for k in range(int(rng.integers(3, 7))):
                r0 = cell * (0.15 + 0.07 * k)
                amp = cell * float(rng.uniform(0.04, 0.12))
                r = r0 + amp * np.sin(lobes * t + k)
                pts = np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1).astype(np.int32)
                cv2.polylines(art, [pts], True, 255, thick, cv2.LINE_AA)
    art = np.maximum(art, art[::-1, ::-1])
    ink = _ink(rng)
    a = art.astype(np.float32)[..., None] / 255
    img = np.clip(np.array(paper, np.float32) * (1 - a) + ink * a, 0, 255).astype(np.uint8)
    b = float(rng.uniform(0.04, 0.09))
    cv2.rectangle(img, (int(b * w), int(b * w)), (w - int(b * w), h - int(b * w)), ink.tolist(), 2)
    _border(img, paper, b * 0.8)
    return img


def _emblem(rng: np.random.Generator, paper: tuple[int, int, int], w: int, h: int) -> np.ndarray:
    """A filled ground with a large medallion and a word printed across it."""
    ground = rng.uniform(20, 200, 3)
    img = np.full((h, w, 3), ground, np.uint8)
    mark = np.clip(ground + rng.choice([-1, 1]) * rng.uniform(60, 160), 0, 255).tolist()
    centre = (w // 2, h // 2)
    axes = (int(w * rng.uniform(0.25, 0.42)), int(h * rng.uniform(0.18, 0.32)))
    if rng.random() < 0.5:
        cv2.ellipse(img, centre, axes, 0, 0, 360, mark, int(rng.integers(2, 8)), cv2.LINE_AA)
    else:
        diamond = np.array(
            [
                [centre[0], centre[1] - axes[1]],
                [centre[0] + axes[0], centre[1]],
                [centre[0], centre[1] + axes[1]],
                [centre[0] - axes[0], centre[1]],
            ],
            np.int32,
        )
        cv2.polylines(img, [diamond], True, mark, int(rng.integers(2, 8)), cv2.LINE_AA)
    word = str(rng.choice(WORDS))
    (tw, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, 1.0, 2)
    scale = 0.7 * w / tw
    (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
    cv2.putText(
        img,
        word,
        (centre[0] - tw // 2, centre[1] + th // 2),
        cv2.FONT_HERSHEY_DUPLEX,
        scale,
        mark,
        max(1, w // 100),
        cv2.LINE_AA,
    )
    if rng.random() < 0.6:
        _border(img, paper, float(rng.uniform(0.03, 0.08)))
    return img


def _tartan(rng: np.random.Generator, paper: tuple[int, int, int], w: int, h: int) -> np.ndarray:
    """Crossing bands of two or three colours and widths over a ground, each band half see-through."""
    img = np.full((h, w, 3), rng.uniform(20, 230, 3), np.float32)
    colours = [rng.uniform(0, 255, 3) for _ in range(int(rng.integers(2, 4)))]
    period = float(rng.uniform(0.15, 0.45)) * w
    bands = [(float(rng.uniform(0, period)), float(rng.uniform(0.02, 0.2)) * period, c) for c in colours]
    yy, xx = np.mgrid[0:h, 0:w]
    for start, width, colour in bands:
        for coord in (xx, yy):
            on = ((coord - start) % period) < width
            img[on] = 0.5 * img[on] + 0.5 * colour
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _border(out, paper, float(rng.uniform(0.03, 0.08)))
    return out
