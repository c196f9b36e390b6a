"""Fixtures for vision tests: the project's own rendered frames, and the real dev photos when present."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from vision import Recognizer
from vision.render import CardStyle, suit_mask
from vision.sighting import RANKS, SUITS

REPO = Path(__file__).resolve().parents[2]
DEV = REPO.parent / "shared" / "vision" / "dev"
# glyph masks of font families the patch reader never trained on (fonts.HELD_OUT)
HELDOUT_FONTS = Path(__file__).parent / "data" / "patch_reader_heldout_fonts.npz"


@pytest.fixture(scope="session")
def table_recognizer() -> Recognizer:
    return Recognizer("table")


@pytest.fixture(scope="session")
def shoe_recognizer() -> Recognizer:
    return Recognizer("shoe")


@pytest.fixture
def dev_photos() -> Path:
    """../shared/vision/dev; skips cleanly when ../shared is absent."""
    if not DEV.is_dir():
        pytest.skip("../shared/vision/dev is not present")
    return DEV


@pytest.fixture(scope="session")
def masks() -> dict[str, np.ndarray]:
    """The held-out fonts' glyph masks (``HELDOUT_FONTS``), by ``<font>_<rank or suit>``."""
    return dict(np.load(HELDOUT_FONTS))


HeldOutDeck = Callable[..., CardStyle]


@pytest.fixture(scope="session")
def held_out_deck(masks: dict[str, np.ndarray]) -> HeldOutDeck:
    """A maker of decks in a held-out font: ``held_out_deck(font, variant, **index geometry)``; suits
    the font lacks are drawn by ``suit_mask`` with ``variant``."""

    def make(name: str, variant: tuple[float, ...], **geometry: object) -> CardStyle:
        return CardStyle(
            **geometry,  # type: ignore[arg-type]
            rank_masks={r: masks[f"{name}_{r}"] for r in RANKS},
            suit_masks={s: masks.get(f"{name}_{s}", suit_mask(s, variant=np.array(variant))) for s in SUITS},
        )

    return make
