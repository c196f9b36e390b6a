"""Free fonts used to render index glyphs for training (dev-only: needs Pillow and the Debian font
packages listed in FONT_PACKAGES; every licence is in docs/vision.md and vision/models/READER.md).

The fonts are split by family: ``font_files("train")`` never returns a ``HELD_OUT`` family, and the
synthetic reader benchmark (``tools/vision/train_reader.py --bench``) draws only ``font_files("heldout")``.
"""

from __future__ import annotations

import glob
from functools import lru_cache
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_PACKAGES = (
    "fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf fonts-texgyre fonts-urw-base35 "
    "fonts-crosextra-carlito fonts-crosextra-caladea fonts-open-sans fonts-lato fonts-linuxlibertine "
    "fonts-cantarell fonts-roboto-unhinted fonts-comfortaa fonts-league-spartan fonts-ebgaramond"
)
FONT_GLOBS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuS*.ttf",
    "/usr/share/fonts/truetype/liberation2/*.ttf",
    "/usr/share/fonts/truetype/freefont/*.ttf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyre*.otf",
    "/usr/share/fonts/opentype/urw-base35/*.otf",
    "/usr/share/fonts/truetype/crosextra/*.ttf",
    "/usr/share/fonts/truetype/open-sans/*.ttf",
    "/usr/share/fonts/truetype/lato/*.ttf",
    "/usr/share/fonts/opentype/linux-libertine/*.otf",
    "/usr/share/fonts/opentype/cantarell/*.otf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/*.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-*.ttf",
    "/usr/share/fonts/truetype/comfortaa/*.ttf",
    "/usr/share/fonts/opentype/league-spartan/*.otf",
    "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-*.otf",
)
# whole families (file-name fragments) that training never sees: the held-out benchmark's decks
HELD_OUT = ("LinLibertine", "LinBiolinum", "URWBookman", "texgyrebonum", "Lato-")
_SKIP = (  # symbol, script and hairline faces: no index looks like them
    "chorus", "math", "ExtraLight", "Hairline", "Thin", "Z003", "StandardSymbols", "D050000L", "CondLight",
    "LinBiolinum_K",
)


def font_files(split: Literal["train", "heldout", "all"] = "train") -> list[str]:
    files: list[str] = []
    for pattern in FONT_GLOBS:
        files += [f for f in sorted(glob.glob(pattern)) if not any(s in f for s in _SKIP)]
    if split == "all":
        return files
    held = [f for f in files if any(h in f for h in HELD_OUT)]
    return held if split == "heldout" else [f for f in files if f not in held]


SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@lru_cache(maxsize=8192)
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
    missing = text_mask(path, "\ue000")  # what the font draws for a character it lacks
    if missing is not None and missing.shape == m.shape and np.array_equal(missing, m):
        return None
    fill = float((m > 128).mean())
    return m if fill < 0.8 else None
