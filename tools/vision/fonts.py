"""Free fonts used to render index glyphs for training (dev-only: needs Pillow and the Debian font packages
fonts-dejavu-core, fonts-liberation2, fonts-freefont-ttf, fonts-texgyre; licences in docs/vision.md)."""

from __future__ import annotations

import glob
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_GLOBS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuS*.ttf",
    "/usr/share/fonts/truetype/liberation2/*.ttf",
    "/usr/share/fonts/truetype/freefont/*.ttf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyre*.otf",
)
SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def font_files() -> list[str]:
    files: list[str] = []
    for pattern in FONT_GLOBS:
        files += [
            f
            for f in sorted(glob.glob(pattern))
            if "chorus" not in f and "math" not in f and "ExtraLight" not in f
        ]
    return files


@lru_cache(maxsize=4096)
def text_mask(path: str, text: str) -> np.ndarray | None:
    font = ImageFont.truetype(path, 96)
    img = Image.new("L", (400, 200), 0)
    ImageDraw.Draw(img).text((20, 20), text, fill=255, font=font)
    m = np.asarray(img)
    ys, xs = np.nonzero(m > 40)
    if ys.size == 0:
        return None
    return m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


def suit_from_font(path: str, suit: str) -> np.ndarray | None:
    """The font's own suit symbol, or None when the font lacks it (it would draw a box)."""
    m = text_mask(path, SUIT_CHARS[suit])
    if m is None or m.shape[0] < 20:
        return None
    fill = float((m > 128).mean())
    return m if fill < 0.8 else None
